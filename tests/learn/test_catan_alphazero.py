"""A tiny Catan AlphaZero run end to end through the real trainer: self-play with chance and hidden cards,
learning, a checkpoint, and that checkpoint playing Catan as ``az:<run>``."""

import math

import numpy as np
import pytest

from boardzero.agents.az import AZAgent
from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.learn import config_from_dict, train
from boardzero.nn import load_network
from boardzero.play.runner import play_game


def tiny_catan(players: int) -> dict:
    return {
        "method": "alphazero",
        "game": "catan",
        "game_options": {"players": players, "turn_limit": 6},  # games of a few turns after setup
        "network": {"kind": "mlp", "hidden": 32, "blocks": 1},
        "selfplay": {"games_per_actor": 2, "simulations": 4, "search_batch": 4, "publish_every": 2},
        "train": {"steps": 2, "batch_size": 16, "min_replay": 32, "checkpoint_every": 2, "log_every": 1},
        "eval": {"every": 0},
    }


@pytest.mark.parametrize(
    "players", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)]
)
def test_a_tiny_catan_alphazero_run_trains_and_its_checkpoint_plays(tmp_path, players):
    run = tmp_path / "run"
    summary = train(config_from_dict(tiny_catan(players)), run)
    assert summary["step"] == 2 and summary["games"] > 0 and summary["samples"] >= 32
    losses = summary["losses"]
    assert {"losses/policy", "losses/value", "losses/total"} <= set(losses)
    assert all(math.isfinite(value) for value in losses.values()), losses

    game = make("catan", players=players, turn_limit=6)
    net, meta = load_network(run, game=game)
    assert meta["trainer"] == "alphazero" and meta["step"] == 2 and meta["game_options"]["players"] == players
    assert net.spec.num_players == players  # one value per seat

    agent = make_agent(f"az:{run},sims=4,batch=4", game)
    assert isinstance(agent, AZAgent)
    state = play_game(game, [agent] * players, np.random.default_rng(0))  # refuses an illegal move
    assert state.is_terminal()
    assert len(state.returns()) == players
