"""Named, typed views of a Catan position: how everything outside the rules reads a state.

    view = state.view                      # a CatanView over the state's array (no copy)
    view.hand(1)                           # int64[5]: wood, brick, sheep, wheat, ore
    view.buildings(1).cities               # (node, ...)
    view.awards().longest_road_holder      # seat or None
    view.phase().key                       # 'main', 'discard', ...

A ``CatanView`` reads the engine's array through the offsets of ``offsets``, which no module outside the
engine's own (``offsets``, ``fields``, ``view`` and the rules) needs to know. Arrays it returns are either
fresh copies (``hand``, ``dev_cards``, ``bank``, ...: yours to change) or read-only views of the board
(``node_owners``, ``edge_owners``, ...: cheap, and they follow the state as it changes). The small records
(``Buildings``, ``Pieces``, ``Awards``, ``Phase``) are frozen snapshots.

A view may see everything of the array it wraps: a bot reads the state its ``SeatView`` samples for it
(``view.sample_state(rng)``), where opponents' hidden cards are already redrawn; ``known_hand`` is what a
seat knows for sure of another's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardzero.games.catan import engine as E, offsets as L

# the public name of each phase (``offsets.PH_*``), as the public view and the web page spell them
PHASE_KEYS = (
    "setup_settlement",
    "setup_road",
    "pre_roll",
    "dice",
    "discard",
    "robber",
    "victim",
    "steal",
    "main",
    "dev_draw",
    "road_building",
    "year_of_plenty",
    "over",
    "trade_answer",
    "trade_choose",
)
CHANCE_PHASES = (L.PH_DICE, L.PH_DEV_DRAW, L.PH_STEAL)


def _seat_or_none(value) -> int | None:
    return int(value) if value >= 0 else None


@dataclass(frozen=True)
class Buildings:
    """One seat's pieces on the board."""

    settlements: tuple[int, ...]  # intersections
    cities: tuple[int, ...]  # intersections
    roads: tuple[int, ...]  # paths


@dataclass(frozen=True)
class Pieces:
    """What is left in one seat's supply."""

    roads: int
    settlements: int
    cities: int


@dataclass(frozen=True)
class Awards:
    """Longest road and largest army: who holds them, and what each seat has toward them."""

    longest_road_holder: int | None
    largest_army_holder: int | None
    road_lengths: tuple[int, ...]  # per seat: its longest road
    knights: tuple[int, ...]  # per seat: knights played


@dataclass(frozen=True)
class Phase:
    """Where the game stands: the phase, whose turn, who decides, and the steps still pending in it."""

    id: int  # offsets.PH_*
    key: str  # PHASE_KEYS[id]
    turn: int  # completed turns after setup
    turn_seat: int  # whose turn it is
    decider: int | None  # the seat deciding now; None at a chance node or once the game is over
    in_setup: bool  # the setup placements are not all done
    has_rolled: bool
    dev_played: bool  # a development card was played this turn
    free_roads: int  # road building: roads still to place
    year_of_plenty_left: int  # year of plenty: cards still to take
    to_discard: tuple[int, ...]  # per seat: cards still to discard after a seven
    victim: int | None  # the seat being robbed (victim and steal phases)
    last_roll: int | None  # the last dice total
    winner: int | None  # the winner once the game is over (None after the turn limit too)


@dataclass(frozen=True)
class Offer:
    """An offer of the seat on turn to the others (player-to-player trading)."""

    index: int  # in the catalogue (``offsets.OFFER_GIVE`` / ``OFFER_GET``); its action id is A_OFFER + index
    give: tuple[int, ...]  # 5 counts: what the proposer gives
    get: tuple[int, ...]  # 5 counts: what it asks for

    @staticmethod
    def of(index: int) -> Offer:
        return Offer(index, tuple(int(n) for n in L.OFFER_GIVE[index]), tuple(int(n) for n in L.OFFER_GET[index]))


ANSWER_NAMES = {L.ANSWER_ACCEPT: "accept", L.ANSWER_DECLINE: "decline"}


@dataclass(frozen=True)
class Trading:
    """Player-to-player trading this turn (all of it public)."""

    offers_per_turn: int  # the game's limit
    offers_made: int  # offers the seat on turn made this turn
    offer: Offer | None  # the open offer (trade phases), else None
    answers: tuple[str | None, ...]  # per seat: 'accept', 'decline' or None (not yet, or the proposer)
    declined: tuple[int, ...]  # catalogue indices of offers everyone declined this turn (not again this turn)


class CatanView:
    """Read access to one Catan state array by name (``CatanState.view``)."""

    __slots__ = ("_s",)

    def __init__(self, s: np.ndarray):
        self._s = s

    def _row(self, start: int, size: int) -> np.ndarray:
        out = self._s[start : start + size]
        out.flags.writeable = False
        return out

    # ------------------------------------------------------------------ rules of this game
    @property
    def num_players(self) -> int:
        return int(self._s[L.G_NUM_PLAYERS])

    @property
    def vp_to_win(self) -> int:
        return int(self._s[L.G_VP_TO_WIN])

    @property
    def turn_limit(self) -> int:
        """Turns after setup before the game stops; 0: no limit."""
        return int(self._s[L.G_TURN_LIMIT])

    # ------------------------------------------------------------------ the board
    def hex_resources(self) -> np.ndarray:
        """int32[19], read-only: terrain of each hex (resource 0-4, 5 the desert)."""
        return self._row(L.HEX_RES, 19)

    def hex_numbers(self) -> np.ndarray:
        """int32[19], read-only: number token of each hex (0 on the desert)."""
        return self._row(L.HEX_NUM, 19)

    def node_harbours(self) -> np.ndarray:
        """int32[54], read-only: harbour at each intersection (resource 0-4 for 2:1, 5 for 3:1, -1 none)."""
        return self._row(L.NODE_PORT, 54)

    def node_owners(self) -> np.ndarray:
        """int32[54], read-only: owner seat of the building on each intersection, -1 if none."""
        return self._row(L.NODE_OWNER, 54)

    def node_levels(self) -> np.ndarray:
        """int32[54], read-only: 0 empty, 1 settlement, 2 city on each intersection."""
        return self._row(L.NODE_LEVEL, 54)

    def edge_owners(self) -> np.ndarray:
        """int32[72], read-only: owner seat of the road on each path, -1 if none."""
        return self._row(L.EDGE_OWNER, 72)

    def robber(self) -> int:
        """The hex under the robber."""
        return int(self._s[L.G_ROBBER])

    def last_settlement(self) -> int | None:
        """The intersection of the last setup settlement (its road goes next to it), None before the first."""
        return _seat_or_none(self._s[L.G_LAST_SETTLEMENT])

    def buildings(self, seat: int) -> Buildings:
        owners, levels = self.node_owners(), self.node_levels()
        mine = owners == seat
        return Buildings(
            settlements=tuple(np.flatnonzero(mine & (levels == 1)).tolist()),
            cities=tuple(np.flatnonzero(mine & (levels == 2)).tolist()),
            roads=tuple(np.flatnonzero(self.edge_owners() == seat).tolist()),
        )

    def pieces_left(self, seat: int) -> Pieces:
        b = L.pb(seat)
        s = self._s
        return Pieces(
            roads=int(s[b + L.P_ROADS_LEFT]),
            settlements=int(s[b + L.P_SETTLEMENTS_LEFT]),
            cities=int(s[b + L.P_CITIES_LEFT]),
        )

    # ------------------------------------------------------------------ cards
    def hand(self, seat: int) -> np.ndarray:
        """int64[5]: ``seat``'s resource cards (wood, brick, sheep, wheat, ore); a copy."""
        b = L.pb(seat) + L.P_HAND
        return self._s[b : b + 5].astype(np.int64)

    def card_count(self, seat: int) -> int:
        """Resource cards in ``seat``'s hand (public)."""
        return int(self._s[L.pb(seat) + L.P_CARDS])

    def dev_cards(self, seat: int) -> np.ndarray:
        """int64[5]: ``seat``'s unplayed development cards by type (``offsets.KNIGHT`` ...), bought this turn
        included; a copy."""
        b = L.pb(seat) + L.P_DEV
        return self._s[b : b + 5].astype(np.int64)

    def dev_cards_new(self, seat: int) -> np.ndarray:
        """int64[5]: of ``dev_cards``, those bought this turn (not playable before the next)."""
        b = L.pb(seat) + L.P_DEV_NEW
        return self._s[b : b + 5].astype(np.int64)

    def dev_played(self, seat: int) -> np.ndarray:
        """int64[5]: development cards ``seat`` has played, by type (public)."""
        b = L.pb(seat) + L.P_PLAYED
        return self._s[b : b + 5].astype(np.int64)

    def to_discard(self, seat: int) -> int:
        """Cards ``seat`` still has to discard after a seven."""
        return int(self._s[L.pb(seat) + L.P_DISCARD])

    def knights(self, seat: int) -> int:
        return int(self._s[L.pb(seat) + L.P_KNIGHTS])

    def bank(self) -> np.ndarray:
        """int64[5]: resource cards in the bank; a copy."""
        return self._s[L.BANK : L.BANK + 5].astype(np.int64)

    def deck(self) -> np.ndarray:
        """int64[5]: development cards left in the deck by type (hidden from every seat); a copy."""
        return self._s[L.DECK : L.DECK + 5].astype(np.int64)

    def deck_size(self) -> int:
        return int(self._s[L.DECK : L.DECK + 5].sum())

    # ------------------------------------------------------------------ what each seat knows
    def known_hand(self, observer: int, seat: int) -> np.ndarray:
        """int64[5]: the cards ``observer`` knows for sure that ``seat`` holds (a lower bound of its hand; the
        card count is public)."""
        k = L.kn(observer, seat, 0)
        return self._s[k : k + 5].astype(np.int64)

    def victory_points(self, seat: int, *, hidden: bool = True) -> int:
        """Points of ``seat``; ``hidden=False`` leaves out victory-point cards (what the others see)."""
        return int(E.victory_points(self._s, seat, hidden))

    def harbour_mask(self, seat: int) -> int:
        """``seat``'s harbours: bit r a 2:1 harbour of resource r, bit 5 a generic 3:1."""
        return int(self._s[L.pb(seat) + L.P_PORTS])

    def trade_rate(self, seat: int, resource: int) -> int:
        """How many of ``resource`` ``seat`` gives the bank for one card: 2, 3 or 4."""
        return int(E.trade_rate(self._s, seat, resource))

    # ------------------------------------------------------------------ awards and phase
    def road_length(self, seat: int) -> int:
        return int(self._s[L.pb(seat) + L.P_ROAD_LEN])

    def awards(self) -> Awards:
        s, n = self._s, self.num_players
        return Awards(
            longest_road_holder=_seat_or_none(s[L.G_LONGEST_ROAD]),
            largest_army_holder=_seat_or_none(s[L.G_LARGEST_ARMY]),
            road_lengths=tuple(int(s[L.pb(p) + L.P_ROAD_LEN]) for p in range(n)),
            knights=tuple(int(s[L.pb(p) + L.P_KNIGHTS]) for p in range(n)),
        )

    @property
    def phase_id(self) -> int:
        """The phase (``offsets.PH_*``), without building a ``Phase`` record."""
        return int(self._s[L.G_PHASE])

    @property
    def turn(self) -> int:
        """Completed turns after setup."""
        return int(self._s[L.G_TURN])

    @property
    def winner(self) -> int | None:
        return _seat_or_none(self._s[L.G_WINNER])

    def phase(self) -> Phase:
        s, n = self._s, self.num_players
        ph = int(s[L.G_PHASE])
        chance_or_over = ph in CHANCE_PHASES or ph == L.PH_OVER
        return Phase(
            id=ph,
            key=PHASE_KEYS[ph],
            turn=int(s[L.G_TURN]),
            turn_seat=int(s[L.G_TURN_PLAYER]),
            decider=None if chance_or_over else int(s[L.G_DECIDER]),
            in_setup=int(s[L.G_SETUP_STEP]) < 2 * n,
            has_rolled=bool(s[L.G_HAS_ROLLED]),
            dev_played=bool(s[L.G_DEV_PLAYED]),
            free_roads=int(s[L.G_FREE_ROADS]),
            year_of_plenty_left=int(s[L.G_YOP_LEFT]),
            to_discard=tuple(int(s[L.pb(p) + L.P_DISCARD]) for p in range(n)),
            victim=_seat_or_none(s[L.G_VICTIM]) if ph in (L.PH_VICTIM, L.PH_STEAL) else None,
            last_roll=int(s[L.G_LAST_ROLL]) or None,
            winner=_seat_or_none(s[L.G_WINNER]) if ph == L.PH_OVER else None,
        )

    def trade(self) -> Trading | None:
        """Player-to-player trading this turn; None in a game without trading."""
        s = self._s
        if s[L.T_LIMIT] <= 0:
            return None
        ph = int(s[L.G_PHASE])
        open_ = ph in (L.PH_TRADE_ANSWER, L.PH_TRADE_CHOOSE)
        return Trading(
            offers_per_turn=int(s[L.T_LIMIT]),
            offers_made=int(s[L.T_MADE]),
            offer=Offer.of(int(s[L.T_OFFER])) if open_ else None,
            answers=tuple(ANSWER_NAMES.get(int(s[L.T_ANSWER + p])) if open_ else None for p in range(self.num_players)),
            declined=tuple(
                i
                for i in range(L.NUM_OFFERS)
                if (int(s[L.T_DECLINED + i // L.DECLINED_BITS]) >> (i % L.DECLINED_BITS)) & 1
            ),
        )

    # ------------------------------------------------------------------ rule queries
    def settlement_ok(self, node: int, seat: int) -> bool:
        """A settlement of ``seat`` may go on ``node`` now (free, distance rule, touching its road)."""
        return bool(E.settlement_ok(self._s, node, seat))

    def node_free(self, node: int) -> bool:
        """``node`` and its neighbours are empty (the distance rule, roads aside)."""
        return bool(E.node_free_for_settlement(self._s, node))

    def node_touches_road(self, node: int, seat: int) -> bool:
        return bool(E.node_touches_road(self._s, node, seat))

    def road_ok(self, edge: int, seat: int) -> bool:
        """A road of ``seat`` may go on ``edge`` (free, connected, not through an opponent's building)."""
        return bool(E.road_ok(self._s, edge, seat))

    def longest_road(self, seat: int, *, with_edge: int | None = None) -> int:
        """Length of ``seat``'s longest road, computed now; ``with_edge``: as if it also had a road there."""
        if with_edge is None:
            return int(E.longest_road(self._s, seat))
        s = self._s.copy()
        s[L.EDGE_OWNER + with_edge] = seat
        return int(E.longest_road(s, seat))

    def after(self, action: int) -> CatanView:
        """The position after ``action``, unchecked (a legal action or chance outcome), on a copy."""
        s = self._s.copy()
        E.apply_action(s, action)
        return CatanView(s)
