"""``best``: the shipped model that fits the game, played as its trainer's agent with its stored settings."""

import numpy as np
import pytest

import boardzero.agents.best as best_module
from boardzero.agents.registry import make_agent
from boardzero.agents.td import TDAgent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.eval.match import play_game
from boardzero.nn import build_network, save_network, spec_for_game


def _ship_td(folder, players: int, play: dict) -> None:
    game = make("catan", players=players)
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    save_network(folder / f"model-{players}p", net, {"game": "catan", "game_options": game.options_dict(),
                                                     "trainer": "td", "play": play})


def test_best_takes_the_model_that_fits_the_player_count(tmp_path, monkeypatch):
    folder = tmp_path / "catan"
    _ship_td(folder, 2, {"depth": 3, "width": 4, "fast": {"depth": 1}})
    _ship_td(folder, 3, {"depth": 2})
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    two = make("catan", players=2, turn_limit=60)  # match rules may differ from training
    agent = make_agent("best", two)
    assert isinstance(agent, TDAgent) and (agent.depth, agent.width) == (3, 4)
    assert make_agent("best:fast", two).depth == 1 and make_agent("best:greedy", two).depth == 1
    assert make_agent("best", make("catan", players=3)).depth == 2
    state = play_game(two, [agent, make_agent("best:fast", two)], np.random.default_rng(0))
    assert state.is_terminal()
    with pytest.raises(ConfigError, match="no shipped model of catan fits"):
        make_agent("best", make("catan", players=4))
