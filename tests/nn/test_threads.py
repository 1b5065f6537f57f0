"""Every network that plays runs on one thread, however its agent was built."""

from __future__ import annotations

import pytest
import torch

from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.nn import build_network, save_network, spec_for_game
from boardzero.nn.threads import PLAY_THREADS


@pytest.fixture
def many_threads():
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # what torch picks on a two-core machine
    yield
    torch.set_num_threads(before)


@pytest.fixture
def tictactoe_run(tmp_path):
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    save_network(tmp_path / "checkpoints" / "step_00000001", net, {"game": game.name, "game_options": {}, "step": 1})
    return tmp_path


@pytest.mark.parametrize("spec", ["best", "best:greedy", "az:{run},sims=4", "policy:{run}"])
def test_network_agents_play_on_one_thread(spec, many_threads, tictactoe_run):
    make_agent(spec.format(run=tictactoe_run), make("tictactoe"))
    assert torch.get_num_threads() == PLAY_THREADS == 1


def test_loading_any_network_applies_the_policy(many_threads, tictactoe_run):
    from boardzero.nn import load_network  # what the td: and ppo: agents load through, too

    load_network(tictactoe_run, game=make("tictactoe"))
    assert torch.get_num_threads() == PLAY_THREADS
