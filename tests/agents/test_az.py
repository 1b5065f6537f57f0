import numpy as np
import pytest

from boardzero.agents.az import AZAgent, PolicyAgent
from boardzero.agents.best import MODELS_DIR, shipped_model
from boardzero.agents.registry import make_agent
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.nn import build_network, save_network, spec_for_game
from boardzero.nn.checkpoint import read_metadata, read_tensors
from boardzero.play.runner import play_game


@pytest.fixture
def checkpoint(tmp_path):
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=16, blocks=1))
    save_network(tmp_path / "checkpoints" / "step_00000007", net, {"game": game.name, "game_options": {}, "step": 7})
    return game, tmp_path


def test_az_specs(checkpoint):
    game, run = checkpoint
    searcher = make_agent(f"az:{run},sims=8,batch=2", game)
    assert isinstance(searcher, AZAgent) and searcher.sims == 8 and searcher.batch_size == 2
    greedy = make_agent(f"az:{run}:greedy", game)
    assert isinstance(greedy, PolicyAgent)
    policy = make_agent(f"policy:{run / 'checkpoints' / 'step_00000007.json'}", game)
    sampled = make_agent(f"policy:{run},temperature=1.0", game)
    rng = np.random.default_rng(0)
    for agents in ([searcher, greedy], [policy, sampled]):
        play_game(game, agents, rng)  # every agent plays whole games (play_game refuses illegal moves)
    view = SeatView(game.new_state(), 0)
    assert greedy.act(view, rng) == policy.act(view, rng)  # the same checkpoint's most probable move
    assert len({sampled.act(view, np.random.default_rng(seed)) for seed in range(30)}) > 1  # temperature 1


def test_bad_checkpoint_specs(checkpoint, tmp_path):
    game, run = checkpoint
    with pytest.raises(CheckpointError, match="for game 'tictactoe', not 'connect4'"):
        make_agent(f"az:{run}", make("connect4"))
    with pytest.raises(CheckpointError, match="no such checkpoint"):
        make_agent(f"az:{tmp_path / 'nope.json'}", game)
    with pytest.raises(ConfigError, match="needs a checkpoint"):
        make_agent("az", game)
    with pytest.raises(ConfigError, match="sims"):
        make_agent(f"az:{run},sims=-1", game)


@pytest.mark.parametrize("game_name", ["connect4", "tictactoe", "kuhn_poker"])
def test_best_uses_the_shipped_model(game_name):
    if not (MODELS_DIR / game_name / "model.json").is_file():
        pytest.skip(f"no shipped model for {game_name}")
    game = make(game_name)
    agent = make_agent("best:greedy", game)
    assert isinstance(agent, PolicyAgent)
    assert isinstance(make_agent("best:sims=4", game), AZAgent)
    play_game(game, [agent] * game.num_players, np.random.default_rng(0))
    model = shipped_model(game)
    shipped = read_tensors(model.with_name(read_metadata(model)["weights"]))
    loaded = agent.evaluator.net.state_dict()
    assert set(shipped) == set(loaded) and all(np.array_equal(shipped[k], loaded[k].numpy()) for k in shipped)


def test_best_without_a_shipped_model(monkeypatch, tmp_path):
    import boardzero.agents.best as best_module

    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    with pytest.raises(ConfigError, match="no shipped model for tictactoe"):
        make_agent("best", make("tictactoe"))
