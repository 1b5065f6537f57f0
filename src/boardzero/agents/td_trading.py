"""A TD value network playing Catan with player-to-player trading (the ``trading`` option).

The network values positions; a trade is a change of hands, so it is weighed by the positions before and
after it, each seen by the seat that weighs it (its observation: its own hand, what it knows of the others):

- answering an offer: accept when the network values the position after the trade (the proposer and this
  seat's hands exchanged) above the position with the offer closed and no trade;
- choosing a partner among the seats that accepted: the one whose trade leads to the position valued
  highest, or withdraw when no trade beats keeping the hands;
- offering (the action phase of its own turn): in a position drawn to fit what the seat knows
  (``view.sample_state``: the others' unknown cards resampled), each legal offer is answered for every other
  seat by the same rule with the same network from that seat's side (a seat that cannot hold the asked
  cards declines); the offer is worth the best of the trades with the seats predicted to accept, and the
  seat makes the best offer if that beats making none.

``trade="guarded"`` adds two guards: an answer declines a trade that leaves the proposer valued above this
seat and gains it more than this seat (the proposer's values, from its own observation in the same drawn
state), so a seat does not hand a leader the cards it lacks for a small gain of its own; and a proposer makes
no offer twice in a turn (a withdrawn one included) nor one that undoes a trade of this turn (giving a
resource it received in a trade this turn, or asking for one it gave), since its values, read in a state
drawn afresh each time, would otherwise trade the same cards back and forth. It trades less, and it lost
to the plain rule in 4 players (docs/results/catan-trading.md), so it is not the default. ``trade="fresh"`` keeps
the second guard alone: the answers are the plain rule's.

Every other move is the TD agent's (``agents.td``): its search or planning runs in the same position without
trading (``CatanState.without_trading``: no offers inside the search), with a network trained with or
without trading. ``trade="off"`` never offers and declines every offer: the same agent without trading, to
measure what trading buys.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, cast

import numpy as np
import torch

from boardzero.agents.base import Advice, Agent, MoveAdvice
from boardzero.agents.settings import TRADE_MODES
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.games.catan.offsets import (
    A_ACCEPT,
    A_DECLINE,
    A_OFFER,
    A_ROLL,
    A_TRADE_WITH,
    A_WITHDRAW,
    NUM_OFFERS,
    OFFER_GET,
    OFFER_GIVE,
)
from boardzero.nn.base import Network
from boardzero.nn.evaluator import rotate_to_absolute
from boardzero.nn.nets import build_network
from boardzero.nn.precision import autocast

if TYPE_CHECKING:
    from boardzero.agents.td import TDAgent
    from boardzero.games.catan.game import CatanState


def without_trading(game: Game) -> Game | None:
    """The game without the trading its options turn on (a game declares ``without_trading``), or None where
    there is none to leave out."""
    twin = getattr(game, "without_trading", None)
    if twin is None:
        return None
    plain = twin()
    return None if plain is game else plain


def check_trade_mode(game: Game, trade: str, where: str) -> None:
    if trade not in TRADE_MODES:
        raise ConfigError(f"{where}.trade", f"{trade!r} is not allowed; allowed: {', '.join(TRADE_MODES)}")
    if trade != "value" and without_trading(game) is None:
        raise ConfigError(f"{where}.trade", f"{game!r} has no player-to-player trading (option trading=true)")


def for_actions(net: Network, num_actions: int) -> Network:
    """``net`` with a policy layer of ``num_actions`` logits: a value network trained on a game with trading
    (371 actions) read in the game without it (244). The values are the same network's; the unused policy
    layer is left out (a network whose policy head learned anything is refused)."""
    if net.spec.num_actions == num_actions:
        return net
    spec = dataclasses.replace(net.spec, num_actions=num_actions)
    out = build_network(spec)
    mine = out.state_dict()
    theirs = {k: v for k, v in net.state_dict().items() if k in mine and mine[k].shape == v.shape}
    left = sorted(k for k in mine if k not in theirs)
    if any(not k.startswith("policy") for k in left):
        raise ConfigError("agent td", f"cannot read the {spec.kind} network without its action layers ({left[0]})")
    mine.update(theirs)
    out.load_state_dict(mine)
    return out.eval()


class NoTradingView(SeatView):
    """A seat's view of a trading game as the game without trading sees it: the legal moves less the trade
    moves, and the states drawn for search moved into that game (``CatanState.without_trading``)."""

    __slots__ = ("_outer",)

    def __init__(self, view: SeatView, game: Game):
        self._outer = view
        self.game = game
        self.seat = view.seat
        self._legal_mask = view.legal_mask[: game.num_actions].copy()
        self._legal_actions = None
        self._observation = None
        self._history = None

    @property
    def observation(self):
        return self._outer.observation

    @property
    def history(self):
        return self._outer.history

    def sample_state(self, rng: np.random.Generator):
        return _catan(self._outer.sample_state(rng)).without_trading()

    def action_name(self, action: int) -> str:
        return self._outer.action_name(action)

    def illegal_reason(self, action: int) -> str:
        return self._outer.illegal_reason(action)


class ValueTrader(Agent):
    """A TD agent of the game without trading (``inner``) playing the game with it: trade decisions by its
    network's values of the positions before and after each trade, every other move by the agent."""

    def __init__(self, game: Game, inner: TDAgent, *, trade: str = "value", margin: float = 0.0):
        check_trade_mode(game, trade, "agent td")
        plain = without_trading(game)
        if plain is None or inner.game.num_actions != plain.num_actions:
            raise ConfigError("agent td", "trades in a game with trading, by an agent of the game without it")
        self.game, self.plain, self.inner, self.trade, self.margin = game, plain, inner, trade, margin
        self.net, self.key, self.precision = inner.net, inner.key, inner.precision
        self.offers_made = self.offers_weighed = 0  # statistics: offers made, offer decisions weighed

    def reset(self) -> None:
        self.inner.reset()

    # ------------------------------------------------------------------ values
    def relative_values(self, states: list, seats: list[int]) -> np.ndarray:
        """[B, P] each state's values as ``seats[i]`` sees it, that seat first (one network call)."""
        obs = np.stack([state.observe(int(seat))[self.key] for state, seat in zip(states, seats)])
        with torch.no_grad(), autocast(self.precision):
            values = self.net.values(torch.from_numpy(np.ascontiguousarray(obs, np.float32)))
        return values.float().numpy().astype(np.float64)

    def own_values(self, states: list, seats: list[int]) -> np.ndarray:
        """Each state's value for ``seats[i]``, as that seat sees it (one network call)."""
        return self.relative_values(states, seats)[:, 0]

    def answer_values(self, view: SeatView, rng: np.random.Generator) -> tuple[float, float, float, float]:
        """(this seat's value after taking the open offer, with the offer closed and no trade; the proposer's
        value after the trade, and with no trade, from its observation: NaN unless ``trade="guarded"``, the only
        rule that reads them)."""
        state = _catan(view.sample_state(rng))
        taken, refused = state.trade_outcome(view.seat), state.trade_outcome(-1)
        if self.trade != "guarded":
            yes, no = self.own_values([taken, refused], [view.seat, view.seat])
            return float(yes), float(no), float("nan"), float("nan")
        proposer = state.turn_player
        yes, no, theirs, without = self.own_values(
            [taken, refused, taken, refused], [view.seat, view.seat, proposer, proposer]
        )
        return float(yes), float(no), float(theirs), float(without)

    def accepts(self, yes: float, no: float, theirs: float, without: float) -> bool:
        """The answer rule: the trade helps this seat, and does not leave the proposer ahead of it by a trade
        that gains the proposer more (values after and without the trade: this seat's, the proposer's)."""
        feeds_leader = theirs > yes and theirs - without > yes - no
        return yes > no + self.margin and (self.trade != "guarded" or not feeds_leader)

    def partner_values(self, view: SeatView, rng: np.random.Generator) -> tuple[list[int], np.ndarray]:
        """(the legal choices: trade with an accepting seat or withdraw; the seat's value after each)."""
        choices = [int(a) for a in view.legal_actions if A_TRADE_WITH <= a <= A_WITHDRAW]
        state = _catan(view.sample_state(rng))
        after = [state.trade_outcome(-1 if a == A_WITHDRAW else a - A_TRADE_WITH) for a in choices]
        return choices, self.own_values(after, [view.seat] * len(after))

    def offer_values(self, view: SeatView, rng: np.random.Generator) -> tuple[float, np.ndarray, np.ndarray]:
        """(the seat's value of making no offer; the legal offers' action ids; each offer's worth: its best trade
        with a seat predicted to accept, else no trade), in one state drawn to fit what the seat knows."""
        me = view.seat
        offers = np.array([a for a in view.legal_actions if A_OFFER <= a < A_OFFER + NUM_OFFERS], np.int64)
        if self.trade in ("guarded", "fresh"):
            offers = offers[fresh_offers(view.history, offers - A_OFFER)]
        state = _catan(view.sample_state(rng))
        others = [q for q in range(self.game.num_players) if q != me]
        hands = {q: state.hand(q) for q in others}
        states, seats, pairs = [state] * len(others), list(others), []  # each other seat's value of no trade
        for k, a in enumerate(offers):
            asked = OFFER_GET[a - A_OFFER]
            for q in others:
                if np.all(hands[q] >= asked):  # a seat without the asked cards cannot accept
                    after = state.trade_outcome(q, int(a - A_OFFER))
                    states += [after, after]
                    seats += [q, me]
                    pairs.append((k, q))
        values = self.own_values([state, *states], [me, *seats])
        keep, rest = values[0], values[1:]
        refuse = dict(zip(others, rest[: len(others)]))
        worth = np.full(len(offers), keep)  # no seat accepts, or no trade beats none: the offer is withdrawn
        for j, (k, q) in enumerate(pairs):
            theirs, mine = rest[len(others) + 2 * j], rest[len(others) + 2 * j + 1]
            if self.accepts(theirs, refuse[q], mine, keep):  # the answer rule, from that seat's side
                worth[k] = max(worth[k], mine)
        return float(keep), offers, worth

    # ------------------------------------------------------------------ moves
    def trade_move(self, view: SeatView, rng: np.random.Generator) -> tuple[int, list[MoveAdvice]] | None:
        """The trade decision here (an answer, a partner, an offer) with its advice, or None where the move is
        not a trade (no offer worth making, or not a trading moment)."""
        legal = view.legal_mask
        n = len(legal)
        if n > A_DECLINE and legal[A_DECLINE]:
            if self.trade == "off" or not legal[A_ACCEPT]:
                return A_DECLINE, [MoveAdvice(A_DECLINE, 1.0, None)]
            yes, no, theirs, without = self.answer_values(view, rng)
            pick = A_ACCEPT if self.accepts(yes, no, theirs, without) else A_DECLINE
            return pick, _ranked([(A_ACCEPT, yes), (A_DECLINE, no)], pick)
        if n > A_WITHDRAW and legal[A_WITHDRAW]:
            choices, values = self.partner_values(view, rng)
            i = int(np.argmax(values))
            keep = values[choices.index(A_WITHDRAW)]
            pick = choices[i] if values[i] > keep + self.margin else A_WITHDRAW
            return pick, _ranked(list(zip(choices, values.tolist())), pick)
        if self.trade == "off" or n <= A_OFFER or not legal[A_OFFER : A_OFFER + NUM_OFFERS].any():
            return None
        self.offers_weighed += 1
        keep, offers, worth = self.offer_values(view, rng)
        if not len(offers):
            return None
        k = int(np.argmax(worth))
        if worth[k] <= keep + self.margin:
            return None
        self.offers_made += 1
        return int(offers[k]), _ranked([(int(offers[k]), float(worth[k]))], int(offers[k]))

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        decided = self.trade_move(view, rng)
        if decided is not None:
            return decided[0]
        return self.inner.act(NoTradingView(view, self.plain), rng)

    def advise(self, view: SeatView, rng: np.random.Generator, *, top: int = 3) -> Advice:
        decided = self.trade_move(view, rng)
        if decided is None:
            return self.inner.advise(NoTradingView(view, self.plain), rng, top=top)
        moves = decided[1]
        if moves[0].action == A_DECLINE and moves[0].value is None:  # a decline forced (or trade=off): valued here
            refused = _catan(view.sample_state(rng)).trade_outcome(-1)
            moves = [MoveAdvice(A_DECLINE, 1.0, float(self.own_values([refused], [view.seat])[0]))]
        return Advice(moves[:top], self.position_values(view, rng))

    def position_values(self, view: SeatView, rng: np.random.Generator) -> np.ndarray:
        """[P] each seat's expected return (absolute order) in the position as this seat sees it, read by the
        network from this seat's observation of a state drawn to fit what it knows: what a trade decision's
        advice says of how the game will end, as the advice on other moves does."""
        relative = self.relative_values([view.sample_state(rng)], [view.seat])
        return rotate_to_absolute(relative, np.array([view.seat]))[0]


def fresh_offers(history: list[int | None], offers: np.ndarray) -> np.ndarray:
    """Which of ``offers`` (catalogue indexes) the seat on turn may make without repeating itself: not made
    before in this turn (after its roll), and not undoing a trade of this turn (giving a resource it received
    in one, or asking for one it gave). ``history``: the public history (the turn's offers and trades are
    public)."""
    made: set[int] = set()
    received, given = np.zeros(5, bool), np.zeros(5, bool)
    closed_by = None  # walking back: how the offer met next closed (a partner chosen or a withdrawal), if it did
    for a in reversed(history):  # this turn's moves: those after the last roll
        if a == A_ROLL:
            break
        if a is None:
            continue
        if A_TRADE_WITH <= a <= A_WITHDRAW:
            closed_by = a
        elif A_OFFER <= a < A_OFFER + NUM_OFFERS:
            made.add(a - A_OFFER)
            if closed_by is not None and closed_by != A_WITHDRAW:  # the offer ended in a trade
                received |= OFFER_GET[a - A_OFFER] > 0
                given |= OFFER_GIVE[a - A_OFFER] > 0
            closed_by = None
    keep = np.array([int(i) not in made for i in offers], bool)
    if len(offers):
        keep &= ~(OFFER_GIVE[offers] > 0)[:, received].any(axis=1)
        keep &= ~(OFFER_GET[offers] > 0)[:, given].any(axis=1)
    return keep


def _ranked(values: list[tuple[int, float]], pick: int) -> list[MoveAdvice]:
    """Advice for a trade decision: the pick first, then the other moves by value."""
    order = sorted(values, key=lambda av: (av[0] != pick, -av[1]))
    return [MoveAdvice(a, 1.0 if a == pick else 0.0, v) for a, v in order]


def _catan(state) -> CatanState:
    """A state of the game with trading (its ``trade_outcome``, ``without_trading``, ``hand``)."""
    return cast("CatanState", state)
