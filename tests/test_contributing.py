"""docs/contributing.md, done for real: a game written as one folder outside the package (``examples/nim``) is
registered by import path, passes the conformance check, is searched by MCTS, and trains from zero with the
shared runtime into a network that plays it, all without a line of boardzero changed."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from boardzero.agents.registry import make_agent
from boardzero.core import registry
from boardzero.core.conformance import check_game
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import games, make, register_game
from boardzero.learn import config_from_dict, train
from boardzero.nn import load_network
from boardzero.play.runner import play_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module", autouse=True)
def nim():
    """Nim registered for this module only: the registry, the path and the environment (which hands the
    registration to child processes) are as before afterwards, so later servers in this process do not list it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        patch.setitem(registry._GAMES, "nim", "nim:Nim")  # undone on leaving
        patch.setenv(registry.ENVIRONMENT, os.environ.get(registry.ENVIRONMENT, "{}"))  # undone on leaving
        register_game("nim", "nim:Nim")
        yield
    assert "nim" not in games() and "nim" not in os.environ.get(registry.ENVIRONMENT, "")


def test_a_game_in_one_folder_registers_and_passes_the_conformance_check():
    assert "nim" in games()
    game = make("nim", stones="10", max_take="3")  # options typed as on a command line
    assert game.options.stones == 10 and game.num_actions == 3
    check_game(game, num_games=30)
    with pytest.raises(ConfigError, match="nim.stones"):
        make("nim", stones="0")
    state = game.new_state()
    state.apply(2)  # take 3
    state.apply(2)
    state.apply(2)  # 1 stone left
    with pytest.raises(IllegalActionError, match="only 1 stone left"):
        state.apply(1)


def test_search_plays_the_new_game_perfectly():
    # 15 stones, take 1-3: the first player wins by leaving a multiple of 4 each time
    game = make("nim")
    rng = np.random.default_rng(0)
    wins = 0
    for _ in range(10):
        final = play_game(game, [make_agent("mcts:sims=400", game), make_agent("random", game)], rng)
        wins += final.returns()[0] > 0
    assert wins == 10


def test_the_new_game_trains_from_zero_and_its_network_plays(tmp_path):
    config = config_from_dict(
        {
            "method": "alphazero",
            "game": "nim",
            "network": {"kind": "mlp", "hidden": 16, "blocks": 1},
            "selfplay": {"actors": 1, "games_per_actor": 8, "simulations": 16, "publish_every": 5},
            "train": {"steps": 6, "batch_size": 16, "min_replay": 32, "checkpoint_every": 3, "log_every": 3},
            "eval": {
                "every": 6,
                "games_vs_random": 2,
                "games_vs_mcts": 2,
                "mcts_simulations": 8,
                "games_vs_best": 2,
                "simulations": 4,
            },
        }
    )
    summary = train(config, tmp_path / "run")
    assert summary["step"] == 6 and summary["games"] > 0
    game = make("nim")
    net, meta = load_network(tmp_path / "run", game=game)
    assert meta["game"] == "nim" and meta["step"] == 6
    final = play_game(
        game, [make_agent(f"az:{tmp_path / 'run'},sims=16", game), make_agent("random", game)], np.random.default_rng(1)
    )
    assert final.is_terminal()
