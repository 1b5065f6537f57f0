"""The ``mcts`` agent: specs, whole games on each test game, tactics, tree reuse across moves."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.agents.registry import make_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.play.runner import play_game
from tests.conftest import play_actions


def test_spec_options_reach_the_search():
    agent = make_agent("mcts:sims=123,c=0.7,rollouts=2,batch=4", make("connect4"))
    config = agent.mcts.config
    assert (config.simulations, config.c_uct, config.batch_size) == (123, 0.7, 4)
    assert agent.mcts.evaluator.rollouts == 2


@pytest.mark.parametrize(
    "spec, field",
    [
        ("mcts:sims=0", "sims"),
        ("mcts:rollouts=0", "rollouts"),
        ("mcts:selection=best", "selection"),
        ("mcts:sims=lots", "sims"),
        ("mcts:c=1e999", "agent mcts.c: expected a finite number"),
        ("mcts:c=-inf", "agent mcts.c: expected a finite number"),
        ("mcts:temperature=nan", "agent mcts.temperature: expected a finite number"),
    ],
)
def test_bad_options_are_config_errors(spec, field):
    with pytest.raises(ConfigError, match=field):
        make_agent(spec, make("connect4"))


def test_wins_a_connect4_game_against_random(rng):
    game = make("connect4")
    agents = [make_agent("mcts:sims=100", game), make_agent("random", game)]
    for seat in (0, 1):
        final = play_game(game, agents if seat == 0 else agents[::-1], rng)
        assert final.returns()[seat] == 1


def test_takes_a_win_in_one(rng):
    agent = make_agent("mcts:sims=200", make("connect4"))
    assert agent.act(SeatView(play_actions("connect4", [0, 6, 1, 6, 2, 5]), 0), rng) == 3


def test_plays_three_player_kuhn_poker(rng):
    game = make("kuhn_poker", players=3)
    agents = [make_agent("mcts:sims=50", game), make_agent("random", game), make_agent("mcts:sims=50,batch=4", game)]
    for _ in range(5):
        final = play_game(game, agents, rng)  # play_game rejects any illegal move
        assert final.is_terminal() and final.returns().sum() == pytest.approx(0.0)


def test_tictactoe_never_loses_a_won_position(rng):
    game = make("tictactoe")
    agent = make_agent("mcts:sims=300", game)
    state = play_actions("tictactoe", [0, 3, 1, 4])  # X to move wins at 2
    assert agent.act(SeatView(state, 0), rng) == 2


def test_keeps_its_tree_between_moves_and_forgets_it_on_reset(rng):
    game = make("connect4")
    agent = make_agent("mcts:sims=200", game)
    state = game.new_state()
    state.apply(agent.act(SeatView(state, 0), rng))
    state.apply(3)
    agent.act(SeatView(state, 0), rng)
    assert agent.last_result.visits.sum() > 200  # the reused subtree's visits count too
    agent.reset()
    agent.act(SeatView(state, 0), rng)
    assert agent.last_result.visits.sum() == 199


def test_temperature_samples_moves():
    game = make("connect4")
    agent = make_agent("mcts:sims=50,temperature=1.0,reuse=false", game)
    view = SeatView(game.new_state(), 0)
    assert len({agent.act(view, np.random.default_rng(seed)) for seed in range(20)}) > 1
