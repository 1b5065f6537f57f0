"""The Catan bots: legal moves only, sensible choices in small positions, and a short arena."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.agents.catan_bots import PIPS, HeuristicAgent, WeightedAgent, node_production
from boardzero.agents.registry import make_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.eval.arena import run_arena
from boardzero.games.catan import action_id, engine as E, testing as T
from boardzero.games.catan.topology import HEX_NODES, NODE_NODES
from boardzero.play.runner import play_game


class Checked:
    """Wraps an agent: every move must be legal; the heuristic's robber never lands on its own hex."""

    def __init__(self, agent):
        self.agent, self.spec = agent, agent.spec
        self.moves = 0

    def reset(self):
        self.agent.reset()

    def act(self, view: SeatView, rng):
        action = self.agent.act(view, rng)
        self.moves += 1
        assert view.legal_mask[action], f"{self.spec} chose illegal {view.action_name(action)}"
        if self.spec == "heuristic" and E.A_ROBBER <= action < E.A_VICTIM:
            s = view.sample_state(rng).s
            own = [n for n in HEX_NODES[action - E.A_ROBBER] if s[E.NODE_OWNER + n] == view.seat]
            assert not own, f"{self.spec} put the robber on its own hex {action - E.A_ROBBER}"
        return action


def hex_pips(state, node: int) -> float:
    return float(node_production(state.view)[node].sum())


@pytest.mark.parametrize("players,specs", [(3, ["heuristic", "weighted", "random"]), (2, ["weighted", "heuristic"])])
def test_bots_play_only_legal_moves_to_the_end(players, specs):
    game = make("catan", players=players)
    for seed in range(2):
        agents = [Checked(make_agent(spec, game)) for spec in specs]
        final = play_game(game, agents, np.random.default_rng(seed), seed=seed)
        assert all(agent.moves > 20 for agent in agents)  # every bot really played (and was checked)
        assert final.winner >= 0  # these bots finish games well within the turn limit


def test_bots_refuse_other_games():
    with pytest.raises(ConfigError, match="catan"):
        make_agent("heuristic", make("connect4"))
    with pytest.raises(ConfigError, match="catan"):
        make_agent("weighted", make("tictactoe"))


def test_heuristic_places_the_first_settlement_on_a_high_production_node():
    for seed in range(4):
        game = make("catan", players=4)
        state = game.new_state(seed=seed)
        action = HeuristicAgent(game).act(SeatView(state, 0), np.random.default_rng(0))
        pips = node_production(state.view).sum(axis=1)
        assert action < E.A_CITY
        best = sorted(pips[a] for a in state.legal_actions())[-1]
        assert pips[action] >= best - 2, f"board {seed}: {pips[action]} pips chosen, {best} available"
        assert np.count_nonzero(node_production(state.view)[action]) >= 2  # more than one resource


def _spot_two_away(node: int) -> tuple[int, int]:
    middle = int(NODE_NODES[node][0])
    far = next(int(w) for w in NODE_NODES[middle] if w >= 0 and w != node)
    return middle, far


def test_heuristic_prefers_a_city_when_it_can_also_afford_a_settlement():
    state = T.scenario(players=2)
    middle, far = _spot_two_away(10)
    T.settlement(state, 0, 10)
    T.road_path(state, 0, [10, middle, far])
    T.give(state, 0, wheat=3, ore=3, wood=1, brick=1, sheep=1)
    legal = set(int(a) for a in state.legal_actions())
    assert action_id("city", node=10) in legal and action_id("settlement", node=far) in legal
    action = HeuristicAgent(state.game).act(SeatView(state, 0), np.random.default_rng(0))
    assert action == action_id("city", node=10)


def test_weighted_builds_rather_than_ending_the_turn():
    state = T.scenario(players=2)
    T.settlement(state, 0, 10)
    T.give(state, 0, wheat=2, ore=3)
    agent = WeightedAgent(state.game)
    rng = np.random.default_rng(0)
    choices = [agent.act(SeatView(state, 0), rng) for _ in range(50)]
    assert choices.count(action_id("city", node=10)) >= 45


def test_heuristic_never_robs_its_own_hex_and_targets_the_leader():
    state = T.scenario(players=3, phase="robber")
    pips = np.array([PIPS[state.s[E.HEX_NUM + h]] for h in range(19)])
    rich, second = (int(h) for h in np.argsort(-pips)[:2])
    # seat 0 and the leader (seat 2) share the richest hex; the leader also sits alone on the second one
    T.settlement(state, 0, int(HEX_NODES[rich][0]))
    T.settlement(state, 2, int(HEX_NODES[rich][3]), city=True)
    spot = next(int(n) for n in HEX_NODES[second] if E.node_free_for_settlement(state.s, n))
    T.settlement(state, 2, spot, city=True)
    T.settlement(
        state,
        1,
        next(
            int(n)
            for n in range(54)
            if E.node_free_for_settlement(state.s, n)
            and not set(HEX_NODES[rich]) & {n}
            and not set(HEX_NODES[second]) & {n}
        ),
    )
    T.give(state, 2, wood=2)
    T.give(state, 1, wood=1)
    action = HeuristicAgent(state.game).act(SeatView(state, 0), np.random.default_rng(0))
    hex_id = action - E.A_ROBBER
    assert E.A_ROBBER <= action < E.A_VICTIM
    assert int(state.s[E.NODE_OWNER + HEX_NODES[rich][0]]) == 0 and hex_id != rich
    assert 2 in [int(state.s[E.NODE_OWNER + n]) for n in HEX_NODES[hex_id]]


def test_heuristic_steals_from_the_leader():
    state = T.scenario(players=3, phase="robber")
    h = 9 if state.s[E.G_ROBBER] != 9 else 8
    corners = [int(n) for n in HEX_NODES[h]]
    T.settlement(state, 1, corners[0])
    T.settlement(state, 2, corners[3], city=True)
    T.give(state, 1, wood=3)
    T.give(state, 2, ore=1)
    state.apply(action_id("robber", hex=h))
    assert set(int(a) for a in state.legal_actions()) == {action_id("rob", seat=1), action_id("rob", seat=2)}
    action = HeuristicAgent(state.game).act(SeatView(state, 0), np.random.default_rng(0))
    assert action == action_id("rob", seat=2)


def test_heuristic_discards_what_it_does_not_need_for_a_city():
    state = T.scenario(players=2)
    T.settlement(state, 0, 10)
    T.give(state, 0, wheat=2, ore=3, wood=3, sheep=2)
    state.s[E.pb(0) + E.P_DISCARD] = 5
    state.s[E.G_PHASE] = E.PH_DISCARD
    agent = HeuristicAgent(state.game)
    rng = np.random.default_rng(0)
    for _ in range(5):
        state.apply(agent.act(SeatView(state, 0), rng))
    assert T.hand(state, 0)["ore"] == 3 and T.hand(state, 0)["wheat"] == 2


def test_short_arena_heuristic_beats_random():
    result = run_arena("catan", ["heuristic", "random"], num_games=4, workers=1, options={"players": 4})
    heuristic = result.entrants[0]
    assert heuristic.games == 4
    assert heuristic.wins >= 3


# ---------------------------------------------------------------- player-to-player trading
def _trading(players=3, seat=0):
    return T.scenario(players=players, seat=seat, trading=True)


def test_heuristic_offers_spare_cards_for_what_completes_its_city():
    state = _trading()
    T.settlement(state, 0, 10)
    T.give(state, 0, wheat=2, ore=2, wood=2)
    action = HeuristicAgent(state.game).act(SeatView(state, 0), np.random.default_rng(0))
    assert action == action_id("offer", give="wood", get="ore")  # one spare wood for the missing ore


def test_heuristic_prefers_offering_to_a_four_to_one_bank_trade():
    state = _trading()
    T.settlement(state, 0, 10)
    T.give(state, 0, wheat=2, ore=2, wood=4)
    assert state.legal_mask()[action_id("trade", give="wood", get="ore")]
    action = HeuristicAgent(state.game).act(SeatView(state, 0), np.random.default_rng(0))
    assert action == action_id("offer", give="wood", get="ore")


def test_heuristic_accepts_an_offer_that_helps_and_declines_one_that_does_not():
    state = _trading(seat=0)
    T.settlement(state, 1, 10)  # seat 1 aims for a city: it lacks one ore and has a spare wood
    T.give(state, 1, wheat=2, ore=2, wood=1, brick=1)
    T.give(state, 0, ore=1, brick=1)
    agent = HeuristicAgent(state.game)
    helps = state.clone()
    helps.apply(action_id("offer", give="ore", get="wood"))
    assert agent.act(SeatView(helps, 1), np.random.default_rng(0)) == action_id("accept")
    hurts = state.clone()
    hurts.apply(action_id("offer", give="brick", get="wheat"))  # would take a wheat its city needs
    assert agent.act(SeatView(hurts, 1), np.random.default_rng(0)) == action_id("decline")


def test_heuristic_declines_to_help_a_leader_close_to_winning():
    state = _trading(seat=0)
    for node in (0, 10, 20, 40):
        T.settlement(state, 0, node, city=True)  # 8 points showing
    T.settlement(state, 1, 44)
    T.give(state, 1, wheat=2, ore=2, wood=1)
    T.give(state, 0, ore=1)
    state.apply(action_id("offer", give="ore", get="wood"))
    assert HeuristicAgent(state.game).act(SeatView(state, 1), np.random.default_rng(0)) == action_id("decline")


def test_heuristic_trades_with_the_accepting_seat_that_has_fewest_points():
    state = _trading(players=4, seat=0)
    T.give(state, 0, wood=1)
    T.settlement(state, 1, 10)
    T.settlement(state, 1, 40)
    T.settlement(state, 3, 20)
    for seat in (1, 2, 3):
        T.give(state, seat, ore=1)
    state.apply(action_id("offer", give="wood", get="ore"))
    for answer in ("accept", "accept", "decline"):
        state.apply(action_id(answer))
    agent = HeuristicAgent(state.game)
    assert agent.act(SeatView(state, 0), np.random.default_rng(0)) == action_id("trade_with", seat=2)


@pytest.mark.parametrize("players,specs", [(3, ["heuristic", "weighted", "random"]), (4, ["heuristic"] * 4)])
def test_bots_trade_legally_to_the_end_with_trading_on(players, specs):
    game = make("catan", players=players, trading=True)
    agents = [Checked(make_agent(spec, game)) for spec in specs]
    final = play_game(game, agents, np.random.default_rng(1), seed=1)
    assert final.is_terminal()
    history = final.history
    offers = [a for a in history if E.A_OFFER <= a < E.A_ACCEPT]
    trades = [a for a in history if E.A_TRADE_WITH <= a < E.A_WITHDRAW]
    assert offers and trades  # the bots do trade with each other
