"""``td:<checkpoint>``: plays by a TD-trained value network.

It looks at the position after each legal move, as its seat would see it, in a
state drawn by ``view.sample_state`` (hidden cards of the others resampled, so
nothing its seat cannot know enters the choice), and values them all in one
network call; a move that ends the game counts with its true result.

With ``depth`` > 1 it plans the rest of its own turn: after a move that leaves
it to decide again (a trade, a build, a discard, the robber, a free road...)
it looks at the moves from there too, keeping the ``width`` most promising
positions at each depth, and a first move is worth the best position it leads
to. The plan stops where the seat no longer decides: at a chance node (a roll,
a card draw, a steal), at another seat's decision, or at the end of the game;
those positions are valued by the network. So a trade that only pays off with
the build after it is seen, where one step would see only cards lost.

With ``sims`` > 0 it searches instead (PUCT over the Game API, ``search/``):
uniform priors or, with ``prior``, the softmax of the network's values after
each move (with ``prior_depth`` > 1 each planned to the rest of the turn, as
above), the network's value vector at the leaves, chance nodes by
their probabilities, the other seats' replies by max^n, and every simulation
from a state drawn by ``view.sample_state``.

With ``opening`` and ``opening_sims`` the game's first ``opening`` decisions
(all seats', counted in the public history) search with ``opening_sims``
simulations instead: the few moves that decide most of a game, such as Catan's
setup, get a deeper look than the rest. With ``opening_net`` (a network fitted
to game results, ``boardzero.learn.opening``) that search reads its values, and with
``early`` > ``opening`` so does every decision until the public history is
``early`` long (searched with ``sims`` or played greedily, as the others).

With ``mean_with`` the network is the mean of its values and other networks'
(``nn.ensemble``) wherever it is read: greedy, planning, searching. The
opening network stays alone. With ``symmetries`` the network (or that mean)
is read as the mean of its values for the position and its images under the
game's symmetries (Catan: the board turned by 120 and 240 degrees), the same
positions seen another way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardzero.agents.az import load_for_play
from boardzero.agents.base import Advice, Agent, MoveAdvice
from boardzero.agents.settings import TDPlay
from boardzero.agents.td_trading import ValueTrader, check_trade_mode, for_actions, without_trading
from boardzero.core.api import Game
from boardzero.core.batched import Afterstates, afterstates_of
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.nn.base import Network
from boardzero.nn.checkpoint import load_network, read_metadata, resolve_checkpoint
from boardzero.nn.ensemble import MeanValueNet, SymmetricValueNet
from boardzero.nn.evaluator import ValueEvaluator, afterstate_values
from boardzero.nn.policy_prior import PolicyPriorEvaluator
from boardzero.nn.precision import autocast, resolve
from boardzero.search import MCTS, MCTSConfig
from boardzero.search.evaluator import uniform_priors

TD_TRAINERS = ("td", "expert")  # the methods whose checkpoints are TD value networks (expert: with a policy head)


def _joined(parts: list[Afterstates]) -> Afterstates:
    return Afterstates(
        *(np.concatenate([getattr(p, name) for p in parts]) for name in ("obs", "row", "action", "terminal", "returns"))
    )


def plan_own_turns(
    states: list, seats: np.ndarray, key: str, net: Network, precision: str, *, depth: int, width: int
) -> tuple[Afterstates, np.ndarray, np.ndarray]:
    """Each state's moves for its ``seats`` entry, looked at to the rest of that seat's own turn by ``net``.

    Returns (the positions after each move, grouped by state as ``Afterstates.row``; their seat-relative values
    [K, P] (``nn.evaluator.afterstate_values``); the seat's best value reachable after each move within ``depth`` of
    its own decisions, keeping the ``width`` most promising positions per state at each depth). The plan stops
    where the seat no longer decides: chance, another seat, the end."""

    def score(after: Afterstates, movers: np.ndarray) -> np.ndarray:
        return afterstate_values(net, after, movers, precision)

    after = _joined(
        [afterstates_of(state, int(seat), key, row=i) for i, (state, seat) in enumerate(zip(states, seats))]
    )
    values = score(after, seats[after.row])
    best = values[:, 0].copy()
    roots = after.row  # the state each first move belongs to
    firsts = np.arange(len(after.action))
    frontier = _frontier(states, after, values[:, 0], firsts, roots, seats, width)
    for _ in range(depth - 1):
        if not frontier:
            break
        deeper = _joined(
            [afterstates_of(state, int(seats[roots[k]]), key, row=j) for j, (k, state) in enumerate(frontier)]
        )
        firsts = np.array([k for k, _ in frontier])[deeper.row]
        scores = score(deeper, seats[roots[firsts]])[:, 0]
        np.maximum.at(best, firsts, scores)
        frontier = _frontier([state for _, state in frontier], deeper, scores, firsts, roots, seats, width)
    return after, values, best


def _frontier(
    parents: list,
    after: Afterstates,
    scores: np.ndarray,
    firsts: np.ndarray,
    roots: np.ndarray,
    seats: np.ndarray,
    width: int,
) -> list:
    """The ``width`` best positions per root among ``after`` (children of ``parents``) where the root's seat
    decides again, as (first move index, state)."""
    kept, counts = [], np.zeros(len(seats), np.int64)
    for i in np.argsort(-scores, kind="stable"):
        root = roots[firsts[i]]
        if counts[root] == width or after.terminal[i]:
            continue
        state = parents[after.row[i]].clone()
        state.apply(int(after.action[i]))
        if state.current_player == seats[root]:
            kept.append((int(firsts[i]), state))
            counts[root] += 1
            if counts.sum() == width * len(seats):
                break
    return kept


class ValuePriorEvaluator(ValueEvaluator):
    """A TD network as a search evaluator that also gives priors: at each decision node, the softmax
    (``temperature``) of the mover's values of the positions after each of its legal moves, all nodes of
    one call valued in one network call. Those priors cost a network row per legal move, against one for
    the node's value, so the search asks them only where a simulation chooses (``defers_priors``).

    With ``depth`` > 1 a move's value is the best the mover reaches after it within its own turn
    (``plan_own_turns``, ``width`` positions kept per depth): a trade that pays with the build after it
    gets the build's value, where one step sees only the cards given."""

    defers_priors = True

    def __init__(
        self,
        net: Network,
        *,
        temperature: float,
        precision: str = "float32",
        observer: str = "mover",
        depth: int = 1,
        width: int = 8,
    ):
        super().__init__(net, precision=precision, observer=observer)
        self.temperature, self.depth, self.width = temperature, depth, width

    def evaluate(self, states, movers=None):
        return self.priors(states), self.values(states, movers)

    def priors(self, states):
        priors = uniform_priors(states, self.spec.num_actions)
        choosing = [i for i, state in enumerate(states) if state.current_player >= 0 and len(state.legal_actions()) > 1]
        if not choosing:
            return priors
        seats = np.array([states[i].current_player for i in choosing])
        after, _, best = plan_own_turns(
            [states[i] for i in choosing], seats, self.key, self.net, self.precision, depth=self.depth, width=self.width
        )
        for j, i in enumerate(choosing):
            mine = after.row == j
            scores = best[mine]
            weights = np.exp((scores - scores.max()) / self.temperature)
            priors[i] = 0.0
            priors[i, after.action[mine]] = weights / weights.sum()
        return priors


def mean_of(net: Network, others: list[Network], weight: float, where: str = "agent td") -> Network:
    """``net`` with ``others`` averaged in (``nn.ensemble``), the others' share ``weight`` (split equally);
    ``where`` names the setting in errors."""
    if not 0 < weight < 1:
        raise ConfigError(
            f"{where}.mean_weight",
            f"the share of the averaged-in networks must lie between 0 and 1 (exclusive), got {weight}",
        )
    shares = [1 - weight] + [weight / len(others)] * len(others)
    return MeanValueNet([net, *others], shares, what=f"{where}.mean_with").eval()


class TDAgent(Agent):
    """A TD value network playing by ``settings`` (``agents.settings.TDPlay``, or its fields as keyword
    ``options``); ``opening_net``: the network of the opening search, where the settings search the opening."""

    def __init__(
        self,
        game: Game,
        net: Network,
        settings: TDPlay | None = None,
        *,
        precision: str = "auto",
        opening_net: Network | None = None,
        **options: Any,
    ):
        if settings is None:
            settings = TDPlay("agent td", **options)
        elif options:
            raise ConfigError("agent td", f"takes settings or options, not both (got {', '.join(options)})")
        self.settings = settings
        depth, width, opening, early = settings.depth, settings.width, settings.opening, settings.early
        self.game, self.net, self.depth, self.width = game, net.eval(), depth, width
        self.precision = resolve(precision)
        self.key = net.spec.observation_key
        self.opening, self.opening_per_move = opening, settings.opening_per_move
        self.policy = settings.policy == "on"
        searching: dict[str, Any] = dict(
            c_puct=settings.c_puct,
            infoset=settings.infoset,
            observer=settings.observer,
            prior=settings.prior,
            prior_depth=settings.prior_depth,
            batch=settings.batch,
            fpu=settings.fpu,
            reuse=settings.reuse,
        )
        if opening_net is not None and not opening:
            raise ConfigError(
                "agent td.opening_model",
                "values the leaves of the opening search only; set opening and opening_sims too",
            )
        if early and (opening_net is None or early <= opening):
            raise ConfigError(
                "agent td.early",
                f"extends the opening network's reach past the opening: needs "
                f"opening_model and early > opening ({opening}), got {early}",
            )
        self.early, self.opening_net = early, opening_net
        sims, opening_sims = settings.sims, settings.opening_sims
        self.search = self._searcher(sims, **searching) if sims else None
        # the opening search keeps one-step priors: its many simulations reach the road after a settlement
        # themselves, and planned priors there doubled the slowest move (Catan's first settlement)
        self.opening_search = (
            self._searcher(
                opening_sims,
                **{**searching, "prior_depth": 1, "batch": settings.opening_batch or settings.batch},
                net=opening_net,
            )
            if opening
            else None
        )
        self.early_search = self._searcher(sims, **searching, net=opening_net) if early and sims else None

    def _searcher(
        self,
        sims: int,
        *,
        c_puct: float,
        infoset: bool,
        observer: str,
        prior: float,
        prior_depth: int,
        batch: int,
        fpu: float,
        reuse: bool,
        net: Network | None = None,
    ) -> MCTS:
        # the policy head is the agent's own network's; another network (the opening's) keeps its value priors
        use_policy = self.policy and net is None
        net = self.net if net is None else net.eval()
        evaluator = (
            PolicyPriorEvaluator(net, precision=self.precision, observer=observer)
            if use_policy
            else ValuePriorEvaluator(
                net, temperature=prior, precision=self.precision, observer=observer, depth=prior_depth, width=self.width
            )
            if prior > 0
            else ValueEvaluator(net, precision=self.precision, observer=observer)
        )
        return MCTS(
            self.game,
            evaluator,
            MCTSConfig(
                simulations=sims,
                c_puct=c_puct,
                batch_size=batch,
                fpu_reduction=fpu,
                reuse_tree=reuse,
                information_sets=infoset,
                stop_when_decided=True,
            ),
        )

    def reset(self) -> None:
        for search in (self.search, self.opening_search, self.early_search):
            if search is not None:
                search.reset()

    def plan(
        self, view: SeatView, rng: np.random.Generator, net: Network | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(legal moves, the seat's best value reachable after each within its own turn, the seat-relative value
        vector of the position each move leads to directly), by ``net`` (default: the agent's network)."""
        after, values, best = plan_own_turns(
            [view.sample_state(rng)],
            np.array([view.seat]),
            self.key,
            self.net if net is None else net,
            self.precision,
            depth=self.depth,
            width=self.width,
        )
        return after.action, best, values

    def _phase(self, view: SeatView):
        """(the searcher or None, the network) for this point of the game: opening, early, or the rest."""
        made = len(view.history)
        if self.opening_search is not None and made < self.opening:
            return self.opening_search, self.net if self.opening_net is None else self.opening_net
        if made < self.early:
            return self.early_search, self.opening_net
        return self.search, self.net

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return int(legal[0])
        search, net = self._phase(view)
        if search is not None:
            # one context around the whole search: its network calls cast the weights once, not once each
            capped = {}
            budget = search.config.simulations
            if search is self.opening_search and self.opening_per_move:
                capped["simulations"] = min(budget, self.opening_per_move * len(legal))
            with autocast(self.precision):
                return int(search.search(view, rng, **capped).best_action())
        actions, best, _ = self.plan(view, rng, net)
        return int(actions[int(np.argmax(best))])

    def advise(self, view: SeatView, rng: np.random.Generator, *, top: int = 3) -> Advice:
        actions, best, values = self.plan(view, rng, self._phase(view)[1])
        order = np.argsort(-best, kind="stable")[:top]
        moves = [MoveAdvice(int(actions[i]), 1.0 if i == order[0] else 0.0, float(best[i])) for i in order]
        choice = int(order[0])
        absolute = np.roll(values[choice], view.seat)  # seat-relative -> absolute order
        return Advice(moves, absolute)


def td(
    game: Game,
    path: str = "",
    *,
    depth: int = 1,
    width: int = 8,
    sims: int = 0,
    c_puct: float = 1.5,
    infoset: bool = False,
    observer: str = "mover",
    prior: float = 0.0,
    prior_depth: int = 1,
    opening: int = 0,
    opening_sims: int = 0,
    opening_model: str = "",
    early: int = 0,
    mean_with: str = "",
    mean_weight: float = 0.5,
    symmetries: bool = False,
    batch: int = 8,
    opening_batch: int = 0,
    fpu: float = 0.0,
    reuse: bool = False,
    opening_per_move: int = 0,
    policy: str = "auto",
    trade: str = "value",
) -> Agent:
    """A TD(lambda) value network playing the move whose resulting position it values most.

    path: the checkpoint: a run directory (its newest checkpoint), a checkpoints directory, or a .json file
    depth: > 1 plans the rest of its own turn that many decisions deep
    width: positions kept per planning step
    sims: > 0 searches by PUCT with uniform priors and the network's values at the leaves, over chance and the other seats' replies, each simulation from a state drawn to fit what the seat knows
    c_puct: exploration constant of that search
    fpu: how much less than its parent's value a move not yet tried counts in its searches (first-play urgency;
        0: the parent's value; the values are win shares, 0 to 1): higher keeps simulations on the moves tried
    infoset: that search keeps one node per information set of the seat (information-set MCTS)
    observer: whose view the network reads at a leaf of that search: mover (the seat that moved into it, as
        in training) or to_move
    prior: > 0: that search's priors are the softmax of the network's values after each move at this
        temperature (e.g. 0.02); 0: uniform
    prior_depth: > 1: those priors value a move by the best position its seat reaches after it within its own
        turn, that many decisions deep (width positions kept per depth): a trade is worth the build it pays for;
        the opening search keeps one-step priors
    opening: the game's first this many decisions (every seat's) search with opening_sims simulations instead
        (e.g. 8 and 800: Catan's 2-player setup)
    opening_sims: simulations of that opening search (with the settings above)
    opening_model: a second TD checkpoint whose values (and priors) guide that opening search instead
        (PATH#opening: the one a shipped model keeps beside it)
    early: > opening: that checkpoint also values every move until the public history is this long (0: none)
    mean_with: other TD checkpoints of the same network shape, joined by +, whose values are averaged with this
        one's everywhere but the opening model's moves (an ensemble; e.g. a run's parent checkpoint)
    mean_weight: the share of those others in the mean, between 0 and 1 (0.5: as much as this one)
    symmetries: value each position as the mean of the network's values for it and its images under the
        game's symmetries (Catan: the board turned by 120 and 240 degrees), everywhere but the opening
        model's moves; each network call reads that many times the positions
    batch: leaves each of its searches gathers (virtual loss between them) before one network call
    opening_batch: that for the opening search alone (0: batch)
    opening_per_move: > 0 caps the opening search at this many simulations per legal move (a road after a
        settlement, with 2 or 3 choices, need not take a settlement's 800)
    reuse: each of its searches goes on from the subtree of its previous search that the public history since
        reached (its own earlier decisions in the turn, the replies and rolls it searched), instead of a new tree
    policy: its searches take priors from the network's policy head, one network row per node (on), or as
        prior says (off); auto: on for a checkpoint whose policy head learned search visits (``learn.expert``),
        unless mean_with or symmetries; the opening model's search keeps its value priors
    trade: in a game with player-to-player trading (Catan's trading=true), with a checkpoint trained with
        trading or without: value answers, chooses a partner and offers by the network's values of the
        positions before and after each trade (``agents.td_trading``), every other move as above in the game
        without trading; off never offers and declines every offer (what trading buys, measured)
    """
    check_trade_mode(game, trade, "agent td")
    settings = TDPlay(
        "agent td",
        depth=depth,
        width=width,
        sims=sims,
        c_puct=c_puct,
        infoset=infoset,
        observer=observer,
        prior=prior,
        prior_depth=prior_depth,
        opening=opening,
        opening_sims=opening_sims,
        early=early,
        mean_weight=mean_weight,
        symmetries=symmetries,
        batch=batch,
        opening_batch=opening_batch,
        fpu=fpu,
        reuse=reuse,
        opening_per_move=opening_per_move,
        policy=policy,
        trade=trade,
    )
    if not mean_with and mean_weight != 0.5:
        raise ConfigError("agent td.mean_weight", "weighs the networks of mean_with; name them too")
    if policy == "on" and (mean_with or symmetries):
        raise ConfigError(
            "agent td.policy", "reads one network's policy head; leave out mean_with and symmetries, or set policy=off"
        )
    plain = without_trading(game)
    playing = game if plain is None else plain  # the searches and plans run without trading
    opening_net = load_td(game, opening_model) if opening_model else None
    net = load_td(game, path)
    partners = [load_td(game, p) for p in mean_with.split("+")] if mean_with else []
    if policy == "auto":
        alone = not (mean_with or symmetries)
        settings = settings.changed("agent td", policy="on" if alone and _has_policy_head(path) else "off")
    if plain is not None and settings.policy == "on":
        raise ConfigError("agent td.policy", "a policy head does not play a game with trading; set policy=off")
    agent = TDAgent(
        playing, playing_net(playing, net, partners, settings, "agent td"), settings, opening_net=opening_net
    )
    return agent if plain is None else ValueTrader(game, agent, trade=trade)


def load_td(game: Game, path: str) -> Network:
    """A TD checkpoint's network for ``game``, or, in a game with player-to-player trading, for the same game
    without it (where the agent searches), whether the checkpoint was trained with trading or without."""
    plain = without_trading(game)
    if plain is None:
        return load_for_play(game, path, trainers=TD_TRAINERS)
    if not path:
        raise ConfigError("agent", "needs a checkpoint, e.g. td:runs/catan_td")
    meta = read_metadata(resolve_checkpoint(path.partition("#")[0]))
    if not meta.get("game_options", {}).get("trading", False):
        return load_for_play(plain, path, trainers=TD_TRAINERS)
    net, _ = load_network(path, game=game, trainers=TD_TRAINERS)
    return for_actions(net, plain.num_actions)


def playing_net(game: Game, net: Network, partners: list[Network], settings: TDPlay, where: str) -> Network:
    """``net`` as ``settings`` read it: averaged with ``partners`` (their share ``mean_weight``; none: alone)
    and read over the game's symmetries where ``symmetries``; ``where`` names the settings in errors."""
    if partners:
        net = mean_of(net, partners, settings.mean_weight, where=where)
    if settings.symmetries:
        net = SymmetricValueNet(net, game.symmetries(), what=f"{where}.symmetries").eval()
    return net


def _has_policy_head(path: str) -> bool:
    """Whether the checkpoint's policy head learned search visits (its metadata's ``policy_head``)."""
    return bool(read_metadata(resolve_checkpoint(path)).get("policy_head", False))
