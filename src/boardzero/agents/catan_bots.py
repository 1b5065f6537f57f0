"""Hand-written Catan players: the baselines every learned agent is measured against.

- ``weighted``: random legal moves, but a build (city, settlement, development
  card, road) is chosen over anything else whenever one is legal.
- ``heuristic``: a strong rule-based player. Setup settlements by production
  (pips of the adjacent numbers), resource diversity and harbours; then city >
  settlement > development card > road, roads only toward a free spot worth
  settling; bank and harbour trades only when they complete a build; the
  robber on the leader's best hex (never its own), stealing from the leader;
  discards that keep what completes a build; development cards played when
  they pay (knights early, for the army and to free its own hexes). With
  player-to-player trading on, it offers spare cards for the one or two it
  lacks for the build it wants (before trading with the bank), accepts an
  offer that brings its own next build closer unless the proposer leads and is
  within 3 points of winning, and trades with the accepting seat that has the
  fewest points.

Both see only a ``SeatView``. The heuristic reads ``view.sample_state(rng)``
(a full state consistent with what its seat knows: its own hand is exact,
opponents' hidden cards are redrawn) through its named views (``state.view``:
hands, buildings, awards, phase) and uses only public facts about the
opponents (points, card counts, buildings), plus what it knows for sure of
their hands.
"""

from __future__ import annotations

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.games.catan import explain
from boardzero.games.catan.actions import (
    A_ACCEPT,
    A_BUY_DEV,
    A_CITY,
    A_DECLINE,
    A_DISCARD,
    A_END_TURN,
    A_KNIGHT,
    A_MONOPOLY,
    A_OFFER,
    A_PLAY_ROAD_BUILDING,
    A_PLAY_YOP,
    A_ROAD,
    A_ROBBER,
    A_ROLL,
    A_SETTLEMENT,
    A_TRADE,
    A_TRADE_WITH,
    A_VICTIM,
    A_WITHDRAW,
    A_YOP,
)
from boardzero.games.catan.offsets import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    OFFER_GET,
    OFFER_GIVE,
    PH_DISCARD,
    PH_PRE_ROLL,
    PH_ROAD_BUILDING,
    PH_ROBBER,
    PH_SETUP_ROAD,
    PH_SETUP_SETTLEMENT,
    PH_TRADE_ANSWER,
    PH_TRADE_CHOOSE,
    PH_VICTIM,
    PH_YEAR_OF_PLENTY,
)
from boardzero.games.catan.topology import EDGE_NODES, HEX_NODES, NODE_EDGES, NODE_HEXES, NODE_NODES
from boardzero.games.catan.view import CatanView

WOOD, BRICK, SHEEP, WHEAT, ORE = range(5)
PIPS = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.float64)  # dots on a number token, by number
COSTS = {
    "city": np.array(COST_CITY, dtype=np.int64),
    "settlement": np.array(COST_SETTLEMENT, dtype=np.int64),
    "dev": np.array(COST_DEV, dtype=np.int64),
    "road": np.array(COST_ROAD, dtype=np.int64),
}
# How much one pip of each resource is worth when judging a spot (wood, brick, sheep, wheat, ore).
RESOURCE_WEIGHT = np.array([1.0, 1.0, 0.8, 1.15, 1.05])


def _check_catan(game: Game, name: str) -> None:
    if game.name != "catan":
        raise ConfigError(f"agent {name}", f"plays only catan, not {game.name!r}")


# ----------------------------------------------------------------------------- weighted random
# Total weight of each kind of build, shared among the legal actions of that kind; every other
# action (ending the turn, a trade, playing a card) weighs 1.
BUILD_WEIGHT = {"city": 1000.0, "settlement": 500.0, "dev": 50.0, "road": 5.0}


def action_kind(a: int) -> str:
    """A coarse kind of a Catan action id: settlement, city, road, dev (buy), or other."""
    kind = explain.action_kind(a)
    if kind == "buy":
        return "dev"
    return kind if kind in ("settlement", "city", "road") else "other"


class WeightedAgent(Agent):
    """Catan: random, but prefers building to ending the turn.

    Each kind of build has a total weight (``BUILD_WEIGHT``: city > settlement >
    development card > road) shared among its legal actions, every other action
    weighs 1, so a legal build is nearly always chosen, a city first. Setup
    placements, discards and the robber are uniform (all actions there are of one kind).
    """

    def __init__(self, game: Game):
        _check_catan(game, "weighted")
        self.game = game

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return int(legal[0])
        kinds = [action_kind(int(a)) for a in legal]
        counts = {k: kinds.count(k) for k in set(kinds)}
        weights = np.array([BUILD_WEIGHT[k] / counts[k] if k in BUILD_WEIGHT else 1.0 for k in kinds])
        return int(legal[rng.choice(len(legal), p=weights / weights.sum())])


# ----------------------------------------------------------------------------- board knowledge
def node_production(view: CatanView) -> np.ndarray:
    """float[54, 5]: pips of each resource around each intersection (the robber ignored)."""
    prod = np.zeros((54, 5))
    res = view.hex_resources()
    pips = PIPS[view.hex_numbers()]
    for k in range(3):
        hexes = NODE_HEXES[:, k]
        ok = hexes >= 0
        h = hexes[ok]
        land = res[h] < 5
        np.add.at(prod, (np.flatnonzero(ok)[land], res[h][land]), pips[h][land])
    return prod


def _missing(hand: np.ndarray, cost: np.ndarray) -> int:
    return int(np.maximum(cost - hand, 0).sum())


class _Position:
    """What the heuristic works out once per decision from the sampled state."""

    def __init__(self, view: CatanView, seat: int):
        self.view = view
        self.seat = seat
        self.n = view.num_players
        self.phase = view.phase_id
        self.hand = view.hand(seat)
        self.pieces = view.pieces_left(seat)
        self.awards = view.awards()
        self.owner = view.node_owners()
        self.level = view.node_levels()
        self.edge_owner = view.edge_owners()
        self.hex_resource = view.hex_resources()
        self.hex_number = view.hex_numbers()
        self.robber = view.robber()
        self.prod = node_production(view)  # [54, 5]
        mine = self.owner == seat
        self.my_prod = (self.prod[mine] * self.level[mine, None]).sum(axis=0)  # [5]
        self.rates = np.array([view.trade_rate(seat, r) for r in range(5)], dtype=np.int64)
        self.visible_vp = np.array([view.victory_points(p, hidden=False) for p in range(self.n)], dtype=np.int64)
        self.my_vp = view.victory_points(seat, hidden=True)
        self.cards = np.array([view.card_count(p) for p in range(self.n)], dtype=np.int64)
        self.bank = view.bank()
        self._node_values = None

    # -- values of places
    def resource_weight(self) -> np.ndarray:
        """Weights per resource (wood, brick, sheep, wheat, ore): the scarcer on this board, the more."""
        total = self.prod.sum(axis=0) / 2.0  # each hex counted at ~6 nodes; only relative size matters
        scarcity = np.clip(total.mean() / np.maximum(total, 1e-6), 0.75, 1.4)
        return RESOURCE_WEIGHT * scarcity

    def node_values(self) -> np.ndarray:
        """float[54]: how good a settlement would be on each intersection for this seat now."""
        if self._node_values is not None:
            return self._node_values
        prod = self.prod.copy()
        if self.phase not in (PH_SETUP_SETTLEMENT, PH_SETUP_ROAD):
            for n in HEX_NODES[self.robber]:  # a robbed hex produces for now, but less surely
                r = self.hex_resource[self.robber]
                if r < 5:
                    prod[n, r] *= 0.6
        weight = self.resource_weight()
        value = prod @ weight
        lacking = self.my_prod < 0.5
        value += (prod[:, lacking] > 0).sum(axis=1) * 2.5  # a resource this seat does not produce yet
        value += (prod > 0).sum(axis=1) * 0.6  # diversity of the spot itself
        ports = self.view.node_harbours()
        for n in np.flatnonzero(ports >= 0):
            kind = int(ports[n])
            if kind == 5:
                value[n] += 1.5
            else:  # a 2:1 harbour is worth what we (would) produce of its resource
                value[n] += 0.45 * (self.my_prod[kind] + prod[n, kind])
        self._node_values = value
        return value

    def city_value(self, node: int) -> float:
        prod = self.prod[node].copy()
        for h in NODE_HEXES[node]:
            if h == self.robber:
                r = self.hex_resource[h]
                if r < 5:
                    prod[r] *= 0.6
        return float(prod @ self.resource_weight())

    # -- networks
    def network_nodes(self) -> np.ndarray:
        """bool[54]: intersections this seat's roads or buildings reach (a road may start there)."""
        reach = self.owner == self.seat
        mine = self.edge_owner == self.seat
        ends = EDGE_NODES[mine].ravel()
        ok = (self.owner[ends] < 0) | (self.owner[ends] == self.seat)
        reach[ends[ok]] = True
        return reach

    def spot_free(self, node: int) -> bool:
        return self.view.node_free(node)

    def road_target_value(self, edge: int, max_depth: int = 3) -> float:
        """Best discounted value of a free settlement spot reached through a first road on ``edge``."""
        reach = self.network_nodes()
        a, b = EDGE_NODES[edge]
        start = b if reach[a] else a
        if reach[a] and reach[b]:
            return 0.0
        if self.owner[start] >= 0 and self.owner[start] != self.seat:
            return 0.0
        values = self.node_values()
        best = 0.0
        frontier = [int(start)]
        seen = {int(start)}
        for depth in range(1, max_depth + 1):
            nxt = []
            for v in frontier:
                if self.spot_free(v):
                    best = max(best, values[v] * (0.62 ** (depth - 1)))
                for k in range(3):
                    e, w = NODE_EDGES[v, k], NODE_NODES[v, k]
                    if e < 0 or self.edge_owner[e] >= 0 or w in seen:
                        continue
                    if self.owner[w] >= 0 and self.owner[w] != self.seat:
                        continue
                    seen.add(int(w))
                    nxt.append(int(w))
            frontier = nxt
        return best

    def open_spots(self) -> list[int]:
        """Free intersections touching this seat's roads: where a settlement could go now."""
        return [n for n in range(54) if self.view.settlement_ok(n, self.seat)]

    # -- opponents
    def leader_weights(self) -> np.ndarray:
        """float[n]: how much hurting each seat is worth (0 for this seat); the points leader most."""
        vp = self.visible_vp.astype(np.float64)
        w = 1.0 + (vp - vp.min()) * 0.6
        others = [p for p in range(self.n) if p != self.seat]
        top = max(others, key=lambda p: (vp[p], self.cards[p]))
        w[top] += 1.5
        w[self.seat] = 0.0
        return w


# ----------------------------------------------------------------------------- the heuristic player
class HeuristicAgent(Agent):
    """Catan: a strong rule-based player (setup by production, city > settlement > card > road, robs the leader)."""

    def __init__(self, game: Game, trade: bool = True):
        """trade: with player-to-player trading on, make and accept offers (false: never offer, decline every
        offer: the same bot without trading, to measure what trading buys)"""
        _check_catan(game, "heuristic")
        if not trade and not getattr(game.options, "trading", False):
            raise ConfigError(
                "agent heuristic.trade", f"{game!r} has no player-to-player trading (option trading=true)"
            )
        self.game, self.trade = game, trade
        self._trades: tuple[int, int] = (-1, 0)  # (turn, trades made in it)

    def reset(self) -> None:
        self._trades = (-1, 0)

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = [int(a) for a in view.legal_actions]
        if len(legal) == 1:
            return legal[0]
        state = view.sample_state(rng)
        pos = _Position(state.view, view.seat)  # type: ignore[attr-defined]  # a Catan seat view samples Catan states
        choice = self.choose(pos, legal)
        return choice if choice in legal else legal[0]

    # -- dispatch by phase
    def choose(self, pos: _Position, legal: list[int]) -> int:
        ph = pos.phase
        if ph == PH_SETUP_SETTLEMENT:
            return self.setup_settlement(pos, legal)
        if ph in (PH_SETUP_ROAD, PH_ROAD_BUILDING):
            return self.best_road(pos, [a for a in legal if A_ROAD <= a < A_ROBBER])
        if ph == PH_DISCARD:
            return self.discard(pos, legal)
        if ph == PH_ROBBER:
            return self.robber(pos, legal)
        if ph == PH_VICTIM:
            return self.victim(pos, legal)
        if ph == PH_YEAR_OF_PLENTY:
            return self.year_of_plenty_pick(pos, legal)
        if ph == PH_PRE_ROLL:
            return self.pre_roll(pos, legal)
        if ph == PH_TRADE_ANSWER:
            return self.answer_offer(pos, legal)
        if ph == PH_TRADE_CHOOSE:
            return self.trade_partner(pos, legal)
        return self.main(pos, legal)

    # -- setup
    def setup_settlement(self, pos: _Position, legal: list[int]) -> int:
        values = pos.node_values()

        # a little lookahead: good free spots two roads away make a place more valuable
        def score(a: int) -> float:
            n = a - A_SETTLEMENT
            near = [
                values[w2]
                for w in NODE_NODES[n]
                if w >= 0
                for w2 in NODE_NODES[w]
                if w2 >= 0 and w2 != n and pos.spot_free(w2)
            ]
            return values[n] + 0.08 * (max(near) if near else 0.0)

        return max(legal, key=score)

    def best_road(self, pos: _Position, roads: list[int]) -> int:
        """The road toward the best free spot; ties broken toward a longer road."""
        if not roads:
            raise ValueError("no road to choose")
        scores = [pos.road_target_value(a - A_ROAD) for a in roads]
        if max(scores) <= 0:
            return self._longest_road_extension(pos, roads)[0]
        return roads[int(np.argmax(scores))]

    def _longest_road_extension(self, pos: _Position, roads: list[int]) -> tuple[int, int]:
        """(road, resulting road length) of the road that lengthens this seat's longest road most."""
        best, best_len = roads[0], -1
        for a in roads:
            length = pos.view.longest_road(pos.seat, with_edge=a - A_ROAD)
            if length > best_len:
                best, best_len = a, length
        return best, best_len

    # -- the seven
    def discard(self, pos: _Position, legal: list[int]) -> int:
        keep = self._keep_vector(pos)
        hand = pos.hand
        weight = pos.resource_weight()

        def surplus(a: int) -> tuple[float, float]:
            r = a - A_DISCARD
            return (hand[r] - keep[r], -weight[r])

        return max(legal, key=surplus)

    def _keep_vector(self, pos: _Position) -> np.ndarray:
        """The cards worth keeping: what the builds this seat can aim for need."""
        keep = np.zeros(5, dtype=np.int64)
        if pos.pieces.cities > 0 and np.any((pos.owner == pos.seat) & (pos.level == 1)):
            keep = np.maximum(keep, COSTS["city"])
        if pos.pieces.settlements > 0:
            keep = np.maximum(keep, COSTS["settlement"])
        return np.maximum(keep, COSTS["dev"])

    def robber(self, pos: _Position, legal: list[int]) -> int:
        weights = pos.leader_weights()

        def score(a: int) -> float:
            h = a - A_ROBBER
            num = pos.hex_number[h]
            value = 0.0
            for n in HEX_NODES[h]:
                o = pos.owner[n]
                if o == pos.seat:
                    return -1000.0  # never block our own production
                if o >= 0:
                    value += PIPS[num] * pos.level[n] * weights[o] + (1.0 if pos.cards[o] > 0 else 0.0) * weights[o]
            return value

        return max(legal, key=score)

    def victim(self, pos: _Position, legal: list[int]) -> int:
        return max(legal, key=lambda a: (pos.visible_vp[a - A_VICTIM], pos.cards[a - A_VICTIM]))

    def year_of_plenty_pick(self, pos: _Position, legal: list[int]) -> int:
        target = self._target(pos)
        if target is not None:
            need = np.maximum(COSTS[target] - pos.hand, 0)
            wanted = [a for a in legal if need[a - A_YOP] > 0]
            if wanted:
                return max(wanted, key=lambda a: need[a - A_YOP])
        weight = pos.resource_weight()
        return max(legal, key=lambda a: weight[a - A_YOP] / (1 + pos.hand[a - A_YOP]))

    # -- the turn
    def pre_roll(self, pos: _Position, legal: list[int]) -> int:
        if A_KNIGHT in legal and self._knight_worth_playing(pos, before_roll=True):
            return A_KNIGHT
        return A_ROLL

    def _robber_hurts_me(self, pos: _Position) -> bool:
        return bool(np.any(pos.owner[HEX_NODES[pos.robber]] == pos.seat)) and pos.hex_number[pos.robber] > 0

    def _knight_worth_playing(self, pos: _Position, before_roll: bool) -> bool:
        if self._robber_hurts_me(pos):
            return True
        holder = pos.awards.largest_army_holder
        mine = pos.awards.knights[pos.seat]
        if holder != pos.seat:
            best_other = max((pos.awards.knights[p] for p in range(pos.n) if p != pos.seat), default=0)
            if mine + 1 >= 3 and mine + 1 > best_other:
                return True  # takes largest army
            if mine + 1 >= best_other:
                return True  # stays in the army race
        # otherwise play one a turn after the roll, to keep the robber on the leader
        return not before_roll

    def main(self, pos: _Position, legal: list[int]) -> int:
        legal_set = set(legal)
        winning = self._winning_move(pos, legal)
        if winning is not None:
            return winning
        cities = [a for a in legal if A_CITY <= a < A_ROAD]
        if cities:
            return max(cities, key=lambda a: pos.city_value(a - A_CITY))
        settlements = [a for a in legal if A_SETTLEMENT <= a < A_CITY]
        if settlements:
            values = pos.node_values()
            return max(settlements, key=lambda a: values[a])
        card = self._dev_card_play(pos, legal_set)
        if card is not None:
            return card
        offer = self._offer(pos, legal)
        if offer is not None:
            return offer
        trade = self._trade(pos, legal)
        if trade is not None:
            return trade
        if A_BUY_DEV in legal_set:
            # buying whenever nothing better is affordable beat saving the cards for a near city or
            # settlement: 51 % against 47 % for the saving variant, 2000 two-player games each
            return A_BUY_DEV
        road = self._useful_road(pos, legal)
        if road is not None:
            return road
        return A_END_TURN if A_END_TURN in legal_set else legal[0]

    def _winning_move(self, pos: _Position, legal: list[int]) -> int | None:
        """A road or knight that reaches the winning points now (longest road / largest army)."""
        if pos.my_vp < pos.view.vp_to_win - 2:
            return None
        for a in legal:
            if (A_ROAD <= a < A_ROBBER or a == A_KNIGHT) and pos.view.after(a).winner == pos.seat:
                return a
        return None

    def _target(self, pos: _Position) -> str | None:
        """The build to save for: a city if one can go up, else a settlement where there is a spot."""
        if pos.pieces.cities > 0 and np.any((pos.owner == pos.seat) & (pos.level == 1)):
            city_gap = _missing(pos.hand, COSTS["city"])
        else:
            city_gap = 99
        if pos.pieces.settlements > 0 and pos.open_spots():
            settle_gap = _missing(pos.hand, COSTS["settlement"])
        else:
            settle_gap = 99
        if city_gap == 99 and settle_gap == 99:
            return None
        return "city" if city_gap <= settle_gap else "settlement"

    def _trade(self, pos: _Position, legal: list[int]) -> int | None:
        """A bank or harbour trade that brings a city, a settlement or a card within reach this turn."""
        trades = [a for a in legal if A_TRADE <= a < A_BUY_DEV]
        if not trades:
            return None
        turn = pos.view.turn
        if self._trades[0] == turn and self._trades[1] >= 6:
            return None
        targets = self._trade_targets(pos)
        too_many = pos.hand.sum() > 7
        if not targets and too_many and pos.pieces.roads > 0:
            targets.append("road")
        for target in targets:
            cost = COSTS[target]
            need = np.maximum(cost - pos.hand, 0)
            if need.sum() == 0:
                continue
            spare = np.maximum(pos.hand - cost, 0) // pos.rates
            if spare.sum() < need.sum():
                continue
            best = None
            for a in trades:
                g, r = _decode_trade(a)
                if need[r] > 0 and spare[g] > 0:
                    key = (-pos.rates[g], pos.hand[g] - cost[g], need[r])
                    if best is None or key > best[0]:
                        best = (key, a)
            if best is not None:
                self._trades = (turn, self._trades[1] + 1 if self._trades[0] == turn else 1)
                return best[1]
        return None

    # -- player-to-player trading
    def _trade_targets(self, pos: _Position) -> list[str]:
        """The builds worth trading for, most wanted first."""
        targets = []
        if pos.pieces.cities > 0 and np.any((pos.owner == pos.seat) & (pos.level == 1)):
            targets.append("city")
        if pos.pieces.settlements > 0 and pos.open_spots():
            targets.append("settlement")
        if pos.view.deck_size() > 0:
            targets.append("dev")
        return targets

    def _offer(self, pos: _Position, legal: list[int]) -> int | None:
        """An offer of spare cards for the one or two a wanted build lacks (the most of it covered, the fewest
        cards given, the least valuable ones)."""
        offers = [a for a in legal if A_OFFER <= a < A_ACCEPT]
        if not offers or not self.trade:
            return None
        weight = pos.resource_weight()
        for target in self._trade_targets(pos):
            cost = COSTS[target]
            need = np.maximum(cost - pos.hand, 0)
            if not 0 < need.sum() <= 2:
                continue
            spare = np.maximum(pos.hand - cost, 0)
            best = None
            for a in offers:
                give, get = OFFER_GIVE[a - A_OFFER], OFFER_GET[a - A_OFFER]
                if np.all(get <= need) and np.all(give <= spare):
                    key = (int(get.sum()), -int(give.sum()), -float(give @ weight))
                    if best is None or key > best[0]:
                        best = (key, a)
            if best is not None:
                return best[1]
        return None

    def _leader_near_win(self, pos: _Position, seat: int) -> bool:
        """``seat`` leads (no one shows more points) and shows ``vp_to_win`` - 3 or more."""
        vp = pos.visible_vp
        return bool(vp[seat] >= pos.view.vp_to_win - 3 and vp[seat] >= vp.max())

    def answer_offer(self, pos: _Position, legal: list[int]) -> int:
        """Accept when the trade brings this seat's own next build closer, unless it helps a leader near the win."""
        trade = pos.view.trade()
        if A_ACCEPT not in legal or trade is None or trade.offer is None or not self.trade:
            return A_DECLINE
        proposer = pos.view.phase().turn_seat
        if self._leader_near_win(pos, proposer):
            return A_DECLINE
        after = pos.hand - np.array(trade.offer.get) + np.array(trade.offer.give)
        for target in self._trade_targets(pos) or ["road"]:
            before_gap, after_gap = _missing(pos.hand, COSTS[target]), _missing(after, COSTS[target])
            if after_gap != before_gap:
                return A_ACCEPT if after_gap < before_gap else A_DECLINE
        return A_DECLINE

    def trade_partner(self, pos: _Position, legal: list[int]) -> int:
        """Trade with the accepting seat that shows the fewest points (the least dangerous to help)."""
        partners = [a for a in legal if A_TRADE_WITH <= a < A_WITHDRAW]
        partners = [a for a in partners if not self._leader_near_win(pos, a - A_TRADE_WITH)]
        if not partners:
            return A_WITHDRAW
        return min(partners, key=lambda a: (pos.visible_vp[a - A_TRADE_WITH], pos.cards[a - A_TRADE_WITH]))

    def _useful_road(self, pos: _Position, legal: list[int]) -> int | None:
        roads = [a for a in legal if A_ROAD <= a < A_ROBBER]
        if not roads:
            return None
        spots = pos.open_spots()
        if pos.pieces.settlements > 0 and (
            not spots or pos.hand.sum() > 7 or (pos.hand[WOOD] >= 2 and pos.hand[BRICK] >= 2)
        ):
            scores = [pos.road_target_value(a - A_ROAD) for a in roads]
            best = int(np.argmax(scores))
            if scores[best] > 0 and (not spots or scores[best] > max(pos.node_values()[spots])):
                return roads[best]
        # longest road: worth two points when it takes or keeps the card
        road, length = self._longest_road_extension(pos, roads)
        holder = pos.awards.longest_road_holder
        mine = pos.awards.road_lengths[pos.seat]
        others = max((pos.awards.road_lengths[p] for p in range(pos.n) if p != pos.seat), default=0)
        if length > mine and holder != pos.seat and length >= 5 and length > others:
            return road
        if length > mine and holder != pos.seat and mine >= 3 and length >= others and pos.hand.sum() > 7:
            return road
        if pos.hand.sum() > 7 and pos.pieces.roads > 3 and length > mine:
            return road
        return None

    def _dev_card_play(self, pos: _Position, legal_set: set[int]) -> int | None:
        if A_KNIGHT in legal_set and self._knight_worth_playing(pos, before_roll=False):
            return A_KNIGHT
        if A_PLAY_ROAD_BUILDING in legal_set and (pos.pieces.settlements > 0 or pos.pieces.roads >= 2):
            return A_PLAY_ROAD_BUILDING
        if A_PLAY_YOP in legal_set:
            target = self._target(pos)
            gaps = [_missing(pos.hand, COSTS[t]) for t in ("city", "settlement", "dev")]
            if (target is not None and _missing(pos.hand, COSTS[target]) <= 2) or min(gaps) <= 2:
                return A_PLAY_YOP
        monopolies = [a for a in legal_set if A_MONOPOLY <= a < A_TRADE]
        if monopolies:
            gain = self._monopoly_gains(pos)
            a = max(monopolies, key=lambda a: gain[a - A_MONOPOLY])
            if gain[a - A_MONOPOLY] >= 3.0:
                return a
        return None

    def _monopoly_gains(self, pos: _Position) -> np.ndarray:
        """Expected cards of each resource a monopoly would take, from what this seat knows of the hands."""
        gains = np.zeros(5)
        target = self._target(pos)
        need = np.maximum(COSTS[target] - pos.hand, 0) if target else np.zeros(5)
        for p in range(pos.n):
            if p == pos.seat:
                continue
            known = pos.view.known_hand(pos.seat, p).astype(np.float64)
            unknown = max(float(pos.cards[p] - known.sum()), 0.0)
            gains += known + unknown / 5.0
        return gains * (1.0 + 0.3 * (need > 0))


def _decode_trade(a: int) -> tuple[int, int]:
    g, r = divmod(a - A_TRADE, 4)
    return g, (r + 1 if r >= g else r)
