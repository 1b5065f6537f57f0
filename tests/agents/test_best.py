"""``best``: the shipped model that fits the game, played as its trainer's agent with its stored settings."""

import numpy as np
import pytest

import boardzero.agents.best as best_module
from boardzero.agents.registry import make_agent
from boardzero.agents.td import TDAgent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.nn import build_network, save_network, spec_for_game
from boardzero.nn.checkpoint import read_metadata
from boardzero.play.runner import play_game


def _ship_td(folder, players: int, play: dict, trading: bool = False) -> None:
    game = make("catan", players=players, trading=trading)
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    save_network(
        folder / f"model-{players}p{'-trading' if trading else ''}",
        net,
        {"game": "catan", "game_options": game.options_dict(), "trainer": "td", "play": play},
    )


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


def test_best_takes_a_model_trained_with_trading_only_for_games_with_trading(tmp_path, monkeypatch):
    from boardzero.agents.td_trading import ValueTrader

    folder = tmp_path / "catan"
    _ship_td(folder, 2, {"depth": 2})
    _ship_td(folder, 2, {"depth": 3}, trading=True)  # sorts first: model-2p-trading before model-2p
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    trading = make("catan", players=2, trading=True)
    assert best_module.shipped_model(trading).name == "model-2p-trading.json"
    assert best_module.shipped_model(make("catan", players=2)).name == "model-2p.json"
    agent = make_agent("best", trading)
    assert isinstance(agent, ValueTrader) and agent.inner.depth == 3  # the trading model's own settings
    assert agent.inner.net.spec.num_actions == make("catan", players=2).num_actions  # searched without trading
    assert make_agent("best", make("catan", players=2)).depth == 2
    state = play_game(make("catan", players=2, trading=True, turn_limit=25), [agent, agent], np.random.default_rng(0))
    assert state.is_terminal()


def test_a_td_model_stored_with_symmetries_reads_its_network_over_them(tmp_path, monkeypatch):
    from boardzero.nn.ensemble import SymmetricValueNet

    _ship_td(tmp_path / "catan", 2, {"symmetries": True, "fast": {"symmetries": False}})
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    game = make("catan", players=2)
    assert isinstance(make_agent("best", game).net, SymmetricValueNet)
    assert isinstance(make_agent("best:greedy", game).net, SymmetricValueNet)
    assert not isinstance(make_agent("best:fast", game).net, SymmetricValueNet)


def test_a_searching_td_model_takes_its_stored_search_settings(tmp_path, monkeypatch):
    folder = tmp_path / "catan"
    _ship_td(
        folder, 2, {"sims": 24, "prior": 0.03, "prior_depth": 2, "c_puct": 2.0, "infoset": True, "fast": {"sims": 0}}
    )
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    game = make("catan", players=2, turn_limit=40)
    agent = make_agent("best", game)
    search = agent.search
    assert search.config.simulations == 24 and search.config.c_puct == 2.0 and search.config.information_sets
    assert (search.evaluator.temperature, search.evaluator.depth) == (0.03, 2)
    assert make_agent("best:fast", game).search is None and make_agent("best:greedy", game).search is None
    assert make_agent("best:sims=8", game).search.config.simulations == 8
    state = play_game(game, [agent, make_agent("best:fast", game)], np.random.default_rng(0))
    assert state.is_terminal()


def test_a_td_model_stores_how_many_opening_simulations_a_legal_move_may_take(tmp_path, monkeypatch):
    _ship_td(
        tmp_path / "catan",
        2,
        {
            "sims": 8,
            "prior": 0.02,
            "opening": 8,
            "opening_sims": 200,
            "opening_per_move": 10,
            "fast": {"sims": 0, "opening": 0, "opening_sims": 0},
        },
    )
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    game = make("catan", players=2)
    assert make_agent("best", game).opening_per_move == 10
    assert make_agent("best:fast", game).opening_per_move == 0  # no opening search, nothing to cap


# ---------------------------------------------------------------- the shipped Catan models
SHIPPED_PLAYER_COUNTS = (2, 3, 4)  # boardzero ships a Catan model for each


@pytest.mark.parametrize("players", SHIPPED_PLAYER_COUNTS)
def test_the_shipped_catan_model_of_every_player_count_loads_and_plays(players):
    game = make("catan", players=players, turn_limit=3)  # match rules: a short game
    model = best_module.shipped_model(game)  # a clear error, and a failure here, if no shipped model fits
    meta = read_metadata(model)
    assert meta["game"] == "catan" and meta["game_options"]["players"] == players
    assert meta["trainer"] in ("alphazero", "td") and "play" in meta
    strong, fast = make_agent("best", game), make_agent("best:fast", game)
    assert strong.spec == "best" and fast.spec == "best:fast"
    agents = [strong] + [fast] * (players - 1)
    state = play_game(game, agents, np.random.default_rng(players))  # play_game refuses an illegal move
    assert state.is_terminal() and state.turn >= 3  # played to the turn limit (nobody wins in 3 turns)


@pytest.mark.parametrize("players", SHIPPED_PLAYER_COUNTS)
def test_the_shipped_catan_best_searches_exactly_the_setup_deeper(players):
    game = make("catan", players=players)
    strong, fast = make_agent("best", game), make_agent("best:fast", game)
    assert strong.opening == 4 * players  # every seat's two settlements and two roads, nothing after
    assert strong.opening_search.config.simulations > strong.search.config.simulations
    assert fast.opening_search is None and fast.search is None
    # the 2-player model ships an opening network (boardzero.learn.opening) for that search; the others none yet
    assert (strong.opening_search.evaluator.net is not strong.net) == (players == 2)
    assert strong.search.evaluator.net is strong.net


@pytest.mark.parametrize("players", SHIPPED_PLAYER_COUNTS)
def test_boardzero_play_catan_plays_against_best_by_default(players):
    from typer.testing import CliRunner

    from boardzero.cli.main import app

    args = ["play", "catan", "--watch", "--players", str(players), "--option", "turn_limit=2", "--seed", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output[-2000:]
    assert ", ".join(f"seat {seat}: best" for seat in range(players)) in result.output
    assert "result: " in result.output


def test_the_web_page_offers_best_as_the_catan_opponent(tmp_path):
    from boardzero.web.config import ServerConfig
    from boardzero.web.games import GameManager
    from boardzero.web.store import GameStore

    best_module.shipped_model(make("catan"))  # the page's Catan has the default player count
    db = tmp_path / "games.sqlite"
    page = GameManager(ServerConfig(db=db, opponents={}), GameStore(db))
    assert page.default_opponent("catan") == "best"


def test_the_default_opponent_falls_back_to_the_heuristic_without_a_fitting_model(tmp_path, monkeypatch):
    from boardzero.cli.play import default_opponent

    folder = tmp_path / "catan"
    _ship_td(folder, 2, {"depth": 1})
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    assert default_opponent(make("catan", players=2)) == "best"
    assert default_opponent(make("catan", players=3)) == "heuristic"  # no 3-player model in this folder
    assert default_opponent(make("tictactoe")) == "mcts:sims=400"  # neither a model nor a game's own bot


def test_best_opening_sims_overrides_the_stored_opening_search_and_refuses_where_there_is_none():
    game = make("catan", players=3)
    agent = make_agent("best:opening_sims=300", game)
    assert agent.opening_search.config.simulations == 300 and agent.search.config.simulations == 32
    assert agent.opening == 12  # the stored opening, only its simulations changed
    for spec, refused in (
        ("best:fast,opening_sims=300", "fast settings of model-3p.json have none"),
        ("best:greedy,opening_sims=300", "best:greedy have none"),
        ("best:opening_sims=-1", "must be >= 0"),
    ):
        with pytest.raises(ConfigError, match=refused):
            make_agent(spec, game)
    with pytest.raises(ConfigError, match="only stored settings that search the opening deeper"):
        make_agent("best:opening_sims=5", make("tictactoe"))


@pytest.mark.parametrize(
    "option, field, stored, value", [("c_puct", "c_puct", 1.5, 3.0), ("batch", "batch_size", 2, 4)]
)
def test_best_overrides_a_stored_setting_of_every_search(option, field, stored, value):
    game = make("catan", players=2)
    before = make_agent("best", game)
    assert getattr(before.search.config, field) == getattr(before.opening_search.config, field) == stored
    agent = make_agent(f"best:{option}={value:g}", game)
    assert getattr(agent.search.config, field) == getattr(agent.opening_search.config, field) == value
    assert agent.search.config.simulations == before.search.config.simulations  # nothing else changed
    with pytest.raises(ConfigError, match=f"best.{option}: must be >= 0"):
        make_agent(f"best:{option}=-1", game)


def test_best_mean_weight_needs_a_second_network_shipped_with_a_td_model():
    # the shipped Connect 4 model is an AlphaZero network, and a TD model without a second network has none to weigh
    with pytest.raises(ConfigError, match="best.mean_weight: weighs a second network shipped beside a TD model"):
        make_agent("best:mean_weight=0.5", make("connect4"))
    with pytest.raises(ConfigError, match=r"best.mean_weight: .* model-3p.json has none"):
        make_agent("best:mean_weight=0.5", make("catan", players=3))


def test_best_prior_depth_plans_the_search_priors_and_leaves_the_opening_search_one_step():
    game = make("catan", players=4)
    assert make_agent("best", game).search.evaluator.depth == 2  # stored in model-4p.json
    agent = make_agent("best:prior_depth=3", game)
    assert agent.search.evaluator.depth == 3 and agent.opening_search.evaluator.depth == 1
    with pytest.raises(ConfigError, match="best.prior_depth: must be >= 0"):
        make_agent("best:prior_depth=-1", game)
    with pytest.raises(ConfigError, match="best.prior_depth: plans a TD model's value priors; .* alphazero model"):
        make_agent("best:prior_depth=2", make("connect4"))


def test_best_fpu_sets_the_first_play_urgency_of_every_search_of_a_td_model():
    game = make("catan", players=2)
    before = make_agent("best", game)
    assert before.search.config.fpu_reduction == before.opening_search.config.fpu_reduction == 0.0
    agent = make_agent("best:fpu=0.03", game)
    assert agent.search.config.fpu_reduction == agent.opening_search.config.fpu_reduction == 0.03
    with pytest.raises(ConfigError, match=r"best.fpu: must be >= 0 \(-1: the stored setting\), got -0.5"):
        make_agent("best:fpu=-0.5", game)
    with pytest.raises(ConfigError, match="best.fpu: sets a TD model's first-play urgency; .* alphazero model"):
        make_agent("best:fpu=0.1", make("connect4"))


def test_best_opening_batch_sets_the_setup_searchs_leaves_per_call_alone():
    game = make("catan", players=4)
    agent = make_agent("best:batch=2,opening_batch=8", game)
    assert agent.search.config.batch_size == 2 and agent.opening_search.config.batch_size == 8
    agent = make_agent("best:batch=2", game)  # no opening_batch: the opening follows batch, as before
    assert agent.search.config.batch_size == agent.opening_search.config.batch_size == 2
    for spec, refused in (
        ("best:opening_batch=-1", "best.opening_batch: must be >= 0"),
        (
            "best:greedy,opening_batch=8",
            "best.opening_batch: only stored settings that search the opening deeper take it; best:greedy have none",
        ),
    ):
        with pytest.raises(ConfigError, match=refused):
            make_agent(spec, game)


def test_best_overrides_a_stored_symmetries_setting_both_ways(tmp_path, monkeypatch):
    from boardzero.nn.ensemble import SymmetricValueNet

    _ship_td(tmp_path / "catan", 2, {"symmetries": True, "fast": {"symmetries": False}})
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    game = make("catan", players=2)
    assert not isinstance(make_agent("best:symmetries=false", game).net, SymmetricValueNet)
    assert isinstance(make_agent("best:fast,symmetries=true", game).net, SymmetricValueNet)
    assert isinstance(make_agent("best:fast,symmetries", game).net, SymmetricValueNet)  # a bare word is true
    with pytest.raises(ConfigError, match="agent best.symmetries: expected true or false"):
        make_agent("best:symmetries=maybe", game)


def test_best_refuses_a_stored_setting_it_does_not_know_or_a_bad_value_naming_the_model(tmp_path, monkeypatch):
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    game = make("catan", players=2)
    _ship_td(tmp_path / "catan", 2, {"sims": 8, "fast": {"simz": 0}})
    make_agent("best", game)
    with pytest.raises(
        ConfigError, match=r"agent best \(model-2p.json, fast\).simz: unknown play setting; allowed: depth"
    ):
        make_agent("best:fast", game)
    _ship_td(tmp_path / "catan", 2, {"sims": -3})
    with pytest.raises(ConfigError, match=r"agent best \(model-2p.json\).sims: must be >= 0, got -3"):
        make_agent("best", game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_catan_setup_searches_are_capped_to_keep_each_move_under_a_second(players):
    """The setup's simulations are what its slowest moves cost: at most 600, and a road (2 or 3 legal moves)
    far fewer (docs/results/catan.md, "A setup search capped for decision time")."""
    agent = make_agent("best", make("catan", players=players))
    budget = agent.opening_search.config.simulations
    assert 0 < budget <= 600 and agent.opening_per_move > 0
    assert min(budget, 3 * agent.opening_per_move) <= 450
