"""The Catan Game and CatanState classes: a thin Python layer over the compiled engine."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, cast

import numpy as np

from boardzero.core.api import CHANCE, TERMINAL, Game, State, Symmetry, action_id
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import option
from boardzero.games.catan import (
    actions as A,
    engine as E,
    explain,
    hidden,
    names,
    narrate,
    observe as O,
    public,
    render,
    trades,
)
from boardzero.games.catan.batched import BatchedCatan, afterstates_of_array
from boardzero.games.catan.board import Board, make_board, parse_board_option
from boardzero.games.catan.layout import board_layout
from boardzero.games.catan.returns import RETURNS, final_returns
from boardzero.games.catan.symmetry import board_symmetries, turn_board
from boardzero.games.catan.view import CatanView

# one entry of the history, linked to the one before it: (previous, action, seats that saw it or None, actor)
HistoryCell = tuple[Any, int, tuple[int, ...] | None, int]
ID_BOUND = 2**31  # action and chance outcome ids are small; anything past this is refused before the engine
MAX_TRADE_OFFERS = 10


@dataclass
class CatanOptions:
    players: int = option(4, "number of players, 2 to 4")
    vp_to_win: int = option(10, "victory points that win the game (reached on one's own turn)")
    turn_limit: int | None = option(
        500, "turns after setup before the game stops and returns rank by points; 0 or none: no limit"
    )
    board: str = option("random", "beginner (the starter map), random (drawn from the game seed) or fixed:<seed>")
    trading: bool = option(
        False,
        "player-to-player trading: the seat on turn offers cards to the others after its roll "
        "(bank and harbour trades are always on)",
    )
    trade_offers: int = option(3, "with trading: offers a seat may make per turn, 1 to 10")
    returns: Literal["win", "rank", "vp", "win_vp"] = option(
        "win",
        "win: +1 winner, 0 others; rank: 1 first .. 0 last by points; vp: points / vp_to_win; "
        "win_vp: 0.75 x win + 0.25 x points / vp_to_win",
    )

    def __post_init__(self):
        if self.players not in (2, 3, 4):
            raise ConfigError("catan.players", f"{self.players} players is not supported; allowed: 2, 3, 4")
        if not 1 <= self.trade_offers <= MAX_TRADE_OFFERS:
            raise ConfigError(
                "catan.trade_offers",
                f"{self.trade_offers} offers per turn is not allowed; allowed: 1..{MAX_TRADE_OFFERS}",
            )
        if not 3 <= self.vp_to_win <= 30:
            raise ConfigError("catan.vp_to_win", f"{self.vp_to_win} is not in 3..30")
        if self.turn_limit is not None and self.turn_limit < 0:
            raise ConfigError("catan.turn_limit", "must be >= 0 (0 or none: no limit)")
        if self.returns not in RETURNS:
            raise ConfigError("catan.returns", f"{self.returns!r} is not allowed; allowed: {', '.join(RETURNS)}")
        parse_board_option(self.board)


class Catan(Game):
    """The base game of Catan (5th edition rules) for 2-4 players."""

    name = "catan"
    Options = CatanOptions
    has_hidden_information = True
    has_chance = True
    num_actions = E.NUM_ACTIONS  # E.NUM_ACTIONS_TRADING in a game with trading
    model_options = ("players", "trading")  # the board, turn limit, points to win and returns are match rules
    options: CatanOptions

    def __init__(self, options: CatanOptions | None = None):
        super().__init__(options)
        self.num_players = self.options.players
        self.num_actions = E.NUM_ACTIONS_TRADING if self.options.trading else E.NUM_ACTIONS
        self.observation_spec = {
            "flat": (O.FLAT_SIZE,),
            "hexes": (19, O.HEX_FEATURES),
            "nodes": (54, O.NODE_FEATURES),
            "edges": (72, O.EDGE_FEATURES),
            "planes": (O.PLANE_CHANNELS, O.PLANE_H, O.PLANE_W),
            "rich": (O.RICH_SIZE,),
        }
        kind, _ = parse_board_option(self.options.board)
        self._fixed_board = make_board(self.options.board, 0) if kind != "random" else None

    def board(self, seed: int | None) -> Board:
        return self._fixed_board if self._fixed_board is not None else make_board(self.options.board, seed)

    def initial_array(self, seed: int | None) -> np.ndarray:
        """The engine array of a fresh game (setup phase, seat 0 to place)."""
        board = self.board(seed)
        s = np.zeros(E.STATE_SIZE, dtype=np.int32)
        E.init_state(
            s,
            board.hex_resource,
            board.hex_number,
            board.node_harbours(),
            self.num_players,
            self.options.vp_to_win,
            self.options.turn_limit or 0,
        )
        if self.options.trading:
            E.enable_trading(s, self.options.trade_offers)
        return s

    def options_dict(self) -> dict:
        """The options; ``trade_offers`` only in a game with trading (so records of games without it read as
        they did before the option existed)."""
        options = super().options_dict()
        if not self.options.trading:
            options.pop("trade_offers", None)
        return options

    def new_state(self, *, seed: int | None = None) -> CatanState:
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        return CatanState(self, self.initial_array(seed), seed)

    def symmetries(self) -> list[Symmetry]:
        """The board turned by 120 and 240 degrees (``games.catan.symmetry``); trade ids stay as they are."""
        return board_symmetries(self.num_actions)

    def symmetric_state(self, symmetry: Symmetry, *, seed: int | None) -> CatanState:
        """The fresh game of ``seed`` with its board turned (its record names the seed of the unturned board)."""
        s = turn_board(self.initial_array(seed), symmetry.name)
        if self.options.trading:
            E.enable_trading(s, self.options.trade_offers)
        return CatanState(self, s, seed)

    def without_trading(self) -> Catan:
        """This game with player-to-player trading off, every other option kept: the game a model trained
        without trading knows (``CatanState.without_trading`` moves a position into it)."""
        if not self.options.trading:
            return self
        twin = getattr(self, "_without_trading", None)
        if twin is None:
            twin = self._without_trading = Catan(dataclasses.replace(self.options, trading=False))
        return twin

    def timeless_actions(self) -> np.ndarray | None:
        """The trade moves (offer, answer, partner, withdraw): they take no game time, so a discount per move
        counts a game with trading as long as the same game without it."""
        if not self.options.trading:
            return None
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[E.A_OFFER :] = True
        return mask

    def board_layout(self):
        """Hexes, intersections and paths in brick coordinates (``games.catan.layout``)."""
        return board_layout()

    def batched(self, batch_size: int, *, seed: int = 0, observation_key: str | None = None):
        """The compiled batch of games (``BatchedCatan``; flat observations)."""
        return BatchedCatan(self, batch_size, seed, observation_key=observation_key)

    def action_name(self, action: int) -> str:
        board = self._fixed_board
        if board is not None:
            return A.action_name(action, (board.hex_resource, board.hex_number, board.node_harbours()))
        return A.action_name(action)

    def outcome_name(self, outcome: int) -> str:
        return A.outcome_name(outcome)

    def action_fields(self, action: int) -> dict:
        return A.action_fields(action)


# what current_player is in each phase: CHANCE, TERMINAL, or None for the deciding seat
_PHASE_PLAYER: list[int | None] = [None] * E.NUM_PHASES
for _ph in (E.PH_DICE, E.PH_STEAL, E.PH_DEV_DRAW):
    _PHASE_PLAYER[_ph] = CHANCE
_PHASE_PLAYER[E.PH_OVER] = TERMINAL


class HistoryEntry(NamedTuple):
    """One applied action or chance outcome: ``knowers`` is None for a public entry, else the seats that saw
    the outcome (a card draw: the drawer; a steal: thief and victim); ``actor`` the seat or CHANCE."""

    action: int
    knowers: tuple[int, ...] | None
    actor: int


class CatanState(State):
    """One game: ``self.s`` is the engine array (see ``engine`` for its layout).

    History is a persistent linked list of cells ``(parent, id, knowers, actor)``
    so that ``clone()`` copies only the array; ``knowers`` is None for public
    entries and the tuple of seats that saw a hidden chance outcome otherwise.
    """

    __slots__ = ("game", "s", "seed", "_tail", "_len", "_hist_cache", "edited", "_lazy")

    game: Catan

    def __init__(self, game: Catan, s: np.ndarray, seed: int | None):
        self.game = game
        self.s = s
        self.seed = seed
        self._tail: HistoryCell | None = None
        self._len = 0
        self._hist_cache: tuple[HistoryCell | None, list[HistoryCell]] | None = None
        self.edited = False  # set by testing mutators: the record no longer replays
        self._lazy: Any = None  # a sampled state's history rewrite still to do (defer_history_rewrite)

    # ------------------------------------------------------------------ API
    @property
    def current_player(self) -> int:
        s = self.s
        kind = _PHASE_PLAYER[s.item(E.G_PHASE)]
        return s.item(E.G_DECIDER) if kind is None else kind

    @property
    def phase(self) -> int:
        return int(self.s[E.G_PHASE])

    @property
    def history(self) -> list[int]:  # type: ignore[override]  # State declares a list; Catan derives it from its cells
        return [cell[1] for cell in self._cells()]

    def _cells(self) -> list[HistoryCell]:
        if self._lazy is not None:
            pending, self._lazy = self._lazy, None
            pending.finish(self)
        cache = self._hist_cache
        if cache is not None and cache[0] is self._tail:
            return cache[1]
        cells = self._raw_cells()
        self._hist_cache = (self._tail, cells)
        return cells

    def legal_mask(self) -> np.ndarray:
        mask = np.empty(self.game.num_actions, dtype=np.bool_)
        E.legal_mask(self.s, mask)  # no legal actions at chance and terminal nodes
        return mask

    def legal_actions(self) -> np.ndarray:
        buf = np.empty(E.MAX_ACTIONS, dtype=np.int64)
        return buf[: E.legal_actions(self.s, buf)].copy()  # none at chance and terminal nodes

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ids = np.empty(11, dtype=np.int64)
        probs = np.empty(11, dtype=np.float64)
        c = E.chance_outcomes(self.s, ids, probs)
        return list(zip(ids[:c].tolist(), probs[:c].tolist()))

    def chance_lane(self) -> int:
        return 0 if self.s.item(E.G_PHASE) == E.PH_DICE else 1  # the dice; cards drawn and steals

    def chance_outcome_at(self, u: float) -> int:
        outcome = E.chance_outcome_at(self.s, u)
        if outcome < 0:
            raise ValueError("not a chance node: no chance outcomes")
        return outcome

    def apply(self, action: int) -> None:
        a = action_id(action)
        s = self.s
        ph = s.item(E.G_PHASE)
        actor, knowers = _PHASE_PLAYER[ph], cast(tuple[int, ...] | None, None)
        if actor is None:
            actor = s.item(E.G_DECIDER)
        elif ph == E.PH_DEV_DRAW:  # a hidden draw: only the drawer sees it
            knowers = (s.item(E.G_TURN_PLAYER),)
        elif ph == E.PH_STEAL:  # the thief and the victim see the card
            knowers = (s.item(E.G_TURN_PLAYER), s.item(E.G_VICTIM))
        if not 0 <= a < ID_BOUND or not E.apply_if_possible(s, a):  # the compiled engine takes int64 ids only
            raise self._rejection(a, actor)
        self._tail = (self._tail, a, knowers, actor)
        self._len += 1

    def apply_foreign(self, action: int) -> None:
        """Apply a player's move that another engine's rules allowed and boardzero's refuse, without checking
        it: for a state that shadows a game played under those rules (catanatron lets a road go on past an
        opponent's settlement). The record no longer replays (``edited``)."""
        actor = self.current_player
        if actor < 0:
            raise ValueError(f"apply_foreign takes a player's move; no player decides here (current player {actor})")
        a = int(action)
        E.apply_action(self.s, a)
        self._tail = (self._tail, a, None, actor)  # a player's move: public, as apply records it
        self._len += 1
        self.edited = True

    def _rejection(self, action: int, actor: int) -> IllegalActionError:
        if actor == TERMINAL:
            return IllegalActionError(action, "the game is over")
        if actor == CHANCE:
            return IllegalActionError(
                action, f"not a possible chance outcome here; possible: {[o for o, _ in self.chance_outcomes()]}"
            )
        return IllegalActionError(action, self.illegal_reason(action), name=self.describe(action))

    def _apply(self, action: int) -> None:  # pragma: no cover - apply() is overridden
        E.apply_action(self.s, int(action))

    def clone(self) -> CatanState:
        new = CatanState.__new__(CatanState)
        new.game = self.game
        new.s = self.s.copy()
        new.seed = self.seed
        new._tail = self._tail
        new._len = self._len
        new._hist_cache = None
        new.edited = self.edited
        new._lazy = self._lazy
        return new

    def returns(self) -> np.ndarray:
        return final_returns(self.s, self.game.options.returns)

    # ------------------------------------------------------------------ player-to-player trading, for agents
    def without_trading(self) -> CatanState:
        """This position in ``game.without_trading()``: hands, what each seat knows of the others' hands and
        the history kept, the turn's offers forgotten, no offers from here on. Not in the middle of an offer."""
        if not self.game.options.trading:
            return self.clone()
        if self.phase in (E.PH_TRADE_ANSWER, E.PH_TRADE_CHOOSE):
            raise ValueError(
                "an offer is open: answer it or choose a partner first (its phase has no twin without trading)"
            )
        new = self.clone()
        new.game = self.game.without_trading()
        new.s[E.T_LIMIT : E.T_DECLINED + 4] = 0  # as a game without trading has them
        return new

    def trade_outcome(self, partner: int, offer: int | None = None) -> CatanState:
        """A copy after the seat on turn trades with ``partner``: the open offer (its answer and choice phases;
        partner -1: the offer closed without a trade), or catalogue entry ``offer`` made now and taken by
        ``partner`` alone (the action phase, where that offer is legal). The partner must hold the cards asked.
        Its history is this one's (a position to weigh, not a record: ``edited``)."""
        s = self.s
        turn = int(s[E.G_TURN_PLAYER])
        if offer is None:
            if self.phase not in (E.PH_TRADE_ANSWER, E.PH_TRADE_CHOOSE):
                raise ValueError("no offer is open; name the offer to weigh")
            index = int(s[E.T_OFFER])
        else:
            if self.current_player != turn or not self.legal_mask()[E.A_OFFER + offer]:
                raise ValueError(f"offer {offer} is not legal here for seat {turn}")
            index = offer
        if partner != -1 and (partner == turn or not 0 <= partner < self.game.num_players):
            raise ValueError(f"the partner is another seat than {turn} (or -1: no trade), got {partner}")
        if partner != -1 and not trades.holds(s, partner, E.OFFER_GET[index]):
            raise ValueError(f"seat {partner} does not hold the cards offer {index} asks for")
        new = self.clone()
        new.edited = True
        if offer is not None:
            if partner != -1:
                trades.exchange(new.s, turn, partner, index)
        elif partner == -1:
            trades.close_offer(new.s)
        else:
            trades.show_cards(new.s, partner, E.OFFER_GET[index])
            trades.trade_with(new.s, turn, partner)
        return new

    # ------------------------------------------------------------------ queries for tools and bots
    @property
    def view(self) -> CatanView:
        """Named, typed read access to this position (``games.catan.view``): hands, cards, buildings, awards..."""
        return CatanView(self.s)

    def victory_points(self, seat: int, *, hidden: bool = True) -> int:
        """Points of ``seat``; ``hidden=False`` leaves out victory-point cards (what opponents see)."""
        return int(E.victory_points(self.s, seat, hidden))

    def hand(self, seat: int) -> np.ndarray:
        return self.view.hand(seat)

    def dev_cards(self, seat: int) -> np.ndarray:
        return self.view.dev_cards(seat)

    def set_hand(self, seat: int, hand) -> None:
        """Make ``seat``'s resource cards ``hand`` (5 counts) by public exchanges with the bank, for a state that
        shadows a game whose engine paid a roll differently. The record no longer replays (``edited``). A
        hand the bank cannot pay changes nothing and raises ValueError."""
        want = np.asarray(hand, dtype=np.int64)
        if want.shape != (5,) or np.any(want < 0):
            raise ValueError(f"a hand is 5 counts >= 0 (wood, brick, sheep, wheat, ore), not {hand!r}")
        mine, bank = self.view.hand(seat), self.view.bank()
        short = np.flatnonzero(want - mine > bank)
        if short.size:
            r = int(short[0])
            raise ValueError(f"the bank has only {bank[r]} of resource {r}; seat {seat} would need {want[r] - mine[r]}")
        for r in range(5):
            if mine[r] > want[r]:
                E.lose(self.s, seat, r, int(mine[r] - want[r]))
            elif want[r] > mine[r]:
                E.gain(self.s, seat, r, int(want[r] - mine[r]))
        self.edited = True

    def summary(self) -> dict:
        """Turns played after setup, dice rolls, each seat's points in all and by source, and each seat's
        production (``public.production``: pips under its buildings, a city twice), read from the spectator's
        public view (victory-point cards count once the game is over and every hand is shown)."""
        view = self.public_view(None)
        return {
            "turns": view["turn"],
            "dice_rolls": sum(view["dice_counts"]),
            "points": [seat.get("points", seat["visible_points"]) for seat in view["seats"]],
            "points_by_source": [public.points_by_source(seat) for seat in view["seats"]],
            "production": public.production(view),
        }

    @property
    def winner(self) -> int:
        return int(self.s[E.G_WINNER])

    @property
    def turn(self) -> int:
        return int(self.s[E.G_TURN])

    @property
    def turn_player(self) -> int:
        """The seat whose turn it is (while others discard or answer an offer, not the one to move)."""
        return int(self.s[E.G_TURN_PLAYER])

    def board_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(terrain, numbers) of the 19 hexes, read-only."""
        return self.view.hex_resources(), self.view.hex_numbers()

    def describe(self, action: int) -> str:
        """A rich name of ``action`` on this board, with what a player needs to choose it:
        'settlement at 0 (sheep 5; harbour 3:1)', 'robber to hex 14 (brick 8; buildings of seats 1, 2)',
        'rob seat 2 (5 cards)', 'trade 3 wood for 1 ore'. Only public facts (others read it in the log)."""
        return names.describe(self, int(action))

    def action_name(self, action: int) -> str:
        if self.current_player == CHANCE:
            return self.game.outcome_name(action)
        return self.describe(action)

    def action_aliases(self, action: int) -> tuple[str, ...]:
        return names.aliases(int(action))

    def describe_step(self, action: int, seat: int | None = None) -> str:
        return narrate.describe_step(self, int(action), seat)

    def illegal_reason(self, action: int) -> str:
        return explain.illegal_reason(self, int(action))

    # ------------------------------------------------------------------ observation and hidden information
    def afterstates(self, seat: int, observation_key: str, row: int = 0):
        """``core.batched.afterstates_of`` compiled, for the seat to move and the flat or rich observation;
        None otherwise (the generic path)."""
        if seat < 0 or seat != self.current_player:
            return None
        return afterstates_of_array(self.game, self.s, observation_key, row)

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        rich = np.empty(O.RICH_SIZE, dtype=np.float32)  # "rich" starts with "flat": one buffer, "flat" a view
        flat = rich[: O.FLAT_SIZE]
        planes = np.empty((O.PLANE_CHANNELS, O.PLANE_H, O.PLANE_W), dtype=np.float32)
        O.encode_all(self.s, seat, flat, planes)
        O.encode_extra(self.s, seat, rich[O.FLAT_SIZE :])
        return {
            "flat": flat,
            "hexes": flat[O.HEXES_AT : O.NODES_AT].reshape(19, O.HEX_FEATURES),
            "nodes": flat[O.NODES_AT : O.EDGES_AT].reshape(54, O.NODE_FEATURES),
            "edges": flat[O.EDGES_AT :].reshape(72, O.EDGE_FEATURES),
            "planes": planes,
            "rich": rich,
        }

    def public_history(self, seat: int) -> list[int | None]:
        if self._lazy is not None and self._lazy.seat == seat:
            cells = self._raw_cells()  # entries hidden from the sampling seat are None either way
        else:
            cells = self._cells()
        return [a if knowers is None or seat in knowers else None for _, a, knowers, _ in cells]

    def dice_counts(self) -> list[int]:
        """How often each total 2..12 was rolled so far (11 counts; rolls are public)."""
        counts = [0] * 13
        for _, a, _, actor in self._cells():
            if actor == CHANCE and 2 <= a <= 12:
                counts[a] += 1
        return counts[2:]

    def last_seen_by(self) -> tuple[int, ...] | None:
        # who saw an entry never changes when a sampled state rewrites its history (only hidden ids do)
        if self._tail is None:
            return super().last_seen_by()
        knowers = self._tail[2]
        if knowers is None or len(set(knowers)) == self.game.num_players:
            return None
        return tuple(sorted(set(knowers)))

    def _raw_cells(self) -> list[HistoryCell]:
        cells: list[HistoryCell] = []
        cell = self._tail
        while cell is not None:
            cells.append(cell)
            cell = cell[0]
        cells.reverse()
        return cells

    def sample_hidden(self, seat: int, rng: np.random.Generator) -> CatanState:
        return hidden.sample_hidden(self, seat, rng)

    # ------------------------------------------------------------------ the history, for hidden-card sampling
    @property
    def history_length(self) -> int:
        return self._len

    def history_entries(self) -> list[HistoryEntry]:
        """Every entry so far as stored, without finishing a pending rewrite (``defer_history_rewrite``)."""
        return [HistoryEntry(a, knowers, actor) for _, a, knowers, actor in self._raw_cells()]

    def replace_history_actions(self, actions: list[int]) -> None:
        """Give the entries new action ids, in order, keeping who saw and who acted: a sampled state's history
        rewritten to match its redrawn cards."""
        cells = self._raw_cells()
        if len(actions) != len(cells):
            raise ValueError(f"{len(actions)} actions for a history of {len(cells)} entries")
        tail: HistoryCell | None = None
        for (_, _, knowers, actor), a in zip(cells, actions):
            tail = (tail, a, knowers, actor)
        self._tail = tail
        self._hist_cache = None

    @property
    def pending_history_rewrite(self) -> Any:
        """The rewrite ``defer_history_rewrite`` left to do, or None."""
        return self._lazy

    def defer_history_rewrite(self, pending: Any) -> None:
        """Leave the history rewrite of a sampled state until its history is first read: ``pending`` has a
        ``seat`` (whose own public history needs no rewrite) and ``finish(state)``, which rewrites it; None
        clears it."""
        self._lazy = pending

    # ------------------------------------------------------------------ display and records
    def render(self, seat: int | None = None, *, color: bool = False) -> str:
        return render.render(self, seat, color=color)

    def public_view(self, seat: int | None = None) -> dict:
        return public.public_view(self, seat)

    def hidden_name(self, outcome: int) -> str:
        if self.phase == E.PH_STEAL:
            return f"steal a card from seat {int(self.s[E.G_VICTIM])}"
        if self.phase == E.PH_DEV_DRAW:
            return "draw a development card"
        return super().hidden_name(outcome)

    def render_parts(self, seat: int | None = None, *, color: bool = False) -> list[str]:
        return render.render_parts(self, seat, color=color)

    def to_record(self) -> dict:
        record = super().to_record()
        if self.edited:
            record["edited"] = True  # built with testing mutators: does not replay
        return record

    def __repr__(self) -> str:
        return (
            f"CatanState(turn={self.turn}, phase={self.phase}, player={self.current_player}, "
            f"vp={[self.victory_points(p) for p in range(self.game.num_players)]})"
        )
