"""Agent.advise: top moves and value estimates, from a search, a policy network, or a single pick."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.agents.base import ranked_advice
from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from tests.conftest import play_actions

WIN_NOW = [3, 3, 4, 4, 5, 5]  # seat 0 to move wins at once in column 2 or 6


def test_a_search_advises_its_most_visited_moves_with_values():
    game = make("connect4")
    state = play_actions("connect4", WIN_NOW)
    advice = make_agent("mcts:sims=300,solver", game).advise(SeatView(state, 0), np.random.default_rng(0), top=3)
    assert {m.action for m in advice.moves[:2]} == {2, 6}
    assert len(advice.moves) == 3 and all(0 < m.weight <= 1 for m in advice.moves)
    assert advice.moves[0].weight >= advice.moves[1].weight >= advice.moves[2].weight
    assert advice.values.shape == (2,) and advice.values[0] > advice.values[1]
    assert advice.moves[0].value == pytest.approx(1.0)


def test_an_agent_without_estimates_advises_its_pick():
    game = make("connect4")
    advice = make_agent("greedy", game).advise(SeatView(play_actions("connect4", WIN_NOW), 0), np.random.default_rng(0))
    assert [m.action for m in advice.moves] in ([2], [6]) and advice.values is None
    assert advice.moves[0].weight == 1.0 and advice.moves[0].value is None


def test_the_shipped_policy_advises_by_its_priors_and_value_head():
    game = make("connect4")
    advice = make_agent("best:greedy", game).advise(
        SeatView(play_actions("connect4", WIN_NOW), 0), np.random.default_rng(0), top=2
    )
    assert advice.moves[0].action in (2, 6) and len(advice.moves) == 2
    assert advice.values[0] > 0 > advice.values[1]  # absolute seat order: seat 0 is winning


def test_ranked_advice_keeps_legal_moves_only():
    legal = np.array([True, False, True, True])
    values = np.array([0.1, 0, np.nan, 0])
    advice = ranked_advice(np.array([1.0, 50.0, 3.0, 0.0]), legal, None, top=3, move_values=values)
    assert [(m.action, m.weight, m.value) for m in advice.moves] == [(2, 0.75, None), (0, 0.25, 0.1)]
    assert ranked_advice(np.zeros(4), legal, np.zeros(2), top=2).moves[0].action == 0
