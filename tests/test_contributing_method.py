"""docs/contributing.md, "Adding a training method", done for real: a method written outside the package
(``examples/huber_az``) is registered by import path, the config takes its name, and ``boardzero train`` runs it
with its self-play actors in separate processes, which find the method through the environment as they find
registered games."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from boardzero.agents.az import network_agent
from boardzero.agents.registry import make_agent
from boardzero.cli.main import app
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.learn import config_from_dict, methods, register_method
from boardzero.nn import load_network
from boardzero.play.runner import play_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def huber_az():
    """The example method registered for one test: the registry, the path and the environment (which hands
    the registration to child processes) are as before afterwards."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLES))
        patch.setitem(methods.METHODS, "huber_az", "huber_az:HuberAlphaZero")  # undone on leaving
        patch.setenv(methods.ENVIRONMENT, os.environ.get(methods.ENVIRONMENT, "{}"))  # undone on leaving
        register_method("huber_az", "huber_az:HuberAlphaZero")
        yield
    assert "huber_az" not in methods.method_names() and "huber_az" not in os.environ.get(methods.ENVIRONMENT, "")


def test_an_unregistered_method_is_refused_naming_the_registered_ones():
    with pytest.raises(ConfigError, match=r"^method: 'huber_az' is not allowed; allowed: alphazero, td, ppo, expert$"):
        config_from_dict({"method": "huber_az", "game": "tictactoe"})


def test_a_registered_method_reaches_child_processes_through_the_environment(huber_az):
    assert json.loads(os.environ[methods.ENVIRONMENT])["huber_az"] == "huber_az:HuberAlphaZero"
    assert "huber_az" in methods.method_names()
    # it reads alphazero's settings, and no other method's
    config = config_from_dict({"method": "huber_az", "game": "tictactoe", "selfplay": {"simulations": 8}})
    assert config.selfplay.simulations == 8 and "simulations" in config.to_dict()["selfplay"]
    with pytest.raises(ConfigError, match=r"^td: \[td\] applies to method td, not 'huber_az'"):
        config_from_dict({"method": "huber_az", "td": {"lam": 0.5}})


def test_boardzero_train_runs_the_registered_method_and_its_network_plays(huber_az, tmp_path):
    config = tmp_path / "huber.toml"
    config.write_text(
        """
method = "huber_az"
[network]
kind = "mlp"
hidden = 16
blocks = 1
[selfplay]
games_per_actor = 4
simulations = 8
publish_every = 2
[train]
batch_size = 16
min_replay = 32
checkpoint_every = 4
log_every = 2
[eval]
every = 0
"""
    )
    run = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["train", "tictactoe", "--config", str(config), "--run", str(run), "--steps", "4", "--actors", "1"]
    )
    assert result.exit_code == 0, result.output
    recorded = json.loads((run / "config.json").read_text())
    assert recorded["method"] == "huber_az" and recorded["train"]["steps"] == 4
    game = make("tictactoe")
    net, meta = load_network(run, game=game)
    assert meta["trainer"] == "huber_az" and meta["step"] == 4
    final = play_game(game, [network_agent(game, net, sims=8), make_agent("random", game)], np.random.default_rng(0))
    assert final.is_terminal()
