from pathlib import Path

import pytest

from boardzero.agents.az import AZAgent, PolicyAgent
from boardzero.agents.registry import make_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.learn.export import export_model, parse_play
from boardzero.nn import build_network, load_network, save_network, spec_for_game


def test_export_writes_a_shipped_model_that_names_its_checkpoint_by_run_and_file(tmp_path, monkeypatch):
    import boardzero.agents.best as best_module

    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    run = tmp_path / "run"
    save_network(run / "checkpoints" / "step_00000004", net, {"game": "tictactoe", "game_options": {}, "step": 4})
    path = export_model(run, play={"sims": 12}, out_dir=tmp_path / "models" / "tictactoe")
    assert path.name == "model.json" and path.with_suffix(".safetensors").is_file()
    _, meta = load_network(path, game=game)
    assert meta["play"]["sims"] == 12 and meta["step"] == 4
    assert meta["source"] == "run/checkpoints/step_00000004.json"  # no trace of where the run lay
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path / "models")
    assert isinstance(make_agent("best", game), AZAgent) and make_agent("best", game).sims == 12
    assert isinstance(make_agent("best:greedy", game), PolicyAgent)
    again = export_model(path, play={"sims": 20}, out_dir=tmp_path / "again")
    assert load_network(again, game=game)[1]["source"] == "run/checkpoints/step_00000004.json"


def test_play_settings_are_read_as_toml_values_so_flags_stay_booleans():
    assert parse_play(["sims=32", "prior=0.02", "infoset=true", "fast.depth=1", "observer=mover"]) == {
        "sims": 32,
        "prior": 0.02,
        "infoset": True,
        "fast": {"depth": 1},
        "observer": "mover",
    }


@pytest.mark.parametrize("pairs", [["sims"], ["=3"], ["fast..depth=1"], ["a.b.c=1"]])
def test_malformed_play_settings_name_the_flag_and_the_form(pairs):
    with pytest.raises(ConfigError, match="--play: .* e.g. sims=96"):
        parse_play(pairs)


def test_a_play_value_cannot_also_be_a_table():
    with pytest.raises(ConfigError, match="--play: 'fast.depth=2' sets a field of fast, but fast holds 1, not a table"):
        parse_play(["fast=1", "fast.depth=2"])


@pytest.mark.parametrize(
    "play, message",
    [
        ({"sims": "many"}, r"--play.sims: expected an integer, got 'many'"),
        ({"simz": 4}, r"--play.simz: unknown play setting; allowed: sims, c_puct, batch"),
        ({"fast": {"c_puct": -1.0}}, r"--play \(fast\).c_puct: must be >= 0, got -1.0"),
    ],
)
def test_export_refuses_play_settings_best_could_not_play_and_writes_nothing(tmp_path, play, message):
    game = make("tictactoe")
    run = tmp_path / "run"
    save_network(
        run / "checkpoints" / "step_00000004",
        build_network(spec_for_game(game, "mlp", hidden=8, blocks=1)),
        {"game": "tictactoe", "game_options": {}, "step": 4},
    )
    with pytest.raises(ConfigError, match=message):
        export_model(run, play=play, out_dir=tmp_path / "models")
    assert not (tmp_path / "models").exists()


def test_boardzero_export_ships_a_run_with_its_play_settings(tmp_path):
    from typer.testing import CliRunner

    from boardzero.cli.main import app

    game = make("tictactoe")
    run = tmp_path / "run"
    save_network(
        run / "checkpoints" / "step_00000004",
        build_network(spec_for_game(game, "mlp", hidden=8, blocks=1)),
        {"game": "tictactoe", "game_options": {}, "step": 4, "trainer": "alphazero"},
    )
    out = tmp_path / "models"
    args = ["export", str(run), "--sims", "12", "--play", "fast.sims=2", "--out", str(out), "--name", "m"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert load_network(out / "m.json", game=game)[1]["play"] == {"sims": 12, "fast": {"sims": 2}}
    refused = CliRunner().invoke(app, ["export", str(run), "--play", "simz=3", "--out", str(tmp_path / "no")])
    assert refused.exit_code != 0 and "--play.simz: unknown play setting" in str(refused.exception)
    assert not (tmp_path / "no").exists()


def test_a_model_trained_with_trading_ships_with_the_settings_and_extras_of_the_model_it_started_from(tmp_path):
    """``--like``: the play settings and extra networks of model-2p go with a network trained with trading;
    their values are model-2p's, their policy layers (sized by the action space) the new network's."""
    import numpy as np

    from boardzero.agents.best import MODELS_DIR
    from boardzero.core.errors import CheckpointError
    from boardzero.nn.checkpoint import read_tensors

    model_2p = MODELS_DIR / "catan" / "model-2p.json"
    trained = str(sorted(Path("data/checkpoints/catan_trading_2p_timed").glob("step_*.json"))[-1])  # the run's newest
    path = export_model(trained, play={"sims": 8}, out_dir=tmp_path, name="model-2p-trading", like=model_2p)
    net, meta = load_network(path, game=make("catan", players=2, trading=True))
    _, shipped = load_network(model_2p)
    assert meta["play"] == {**shipped["play"], "sims": 8} and meta["game_options"]["trading"] is True
    assert set(meta["extras"]) == {"opening", "mean_with"} and meta["notes"]["opening"] == shipped["notes"]["opening"]
    for role in ("opening", "mean_with"):
        theirs = read_tensors(model_2p.with_name(f"model-2p.{role}.safetensors"))
        ours = read_tensors(path.with_name(f"model-2p-trading.{role}.safetensors"))
        own = net.state_dict()
        for key, value in ours.items():
            assert value.shape == tuple(own[key].shape)
            if theirs[key].shape == value.shape:
                assert np.array_equal(value, theirs[key])
            else:  # the policy layer: 371 actions with trading, 244 without
                assert np.array_equal(value, own[key].numpy()) and value.shape[0] == 371
        extra, _ = load_network(f"{path}#{role}")
        assert extra.spec == net.spec
    import boardzero.agents.best as best_module
    from boardzero.agents.td_trading import ValueTrader
    from boardzero.play.runner import play_game

    game = make("catan", players=2, trading=True, turn_limit=6)
    with pytest.MonkeyPatch.context() as patch:  # best plays it, its opening search and averaged values included
        patch.setattr(best_module, "MODELS_DIR", tmp_path / "models")
        (tmp_path / "models" / "catan").mkdir(parents=True)
        for file in tmp_path.glob("model-2p-trading*"):
            (tmp_path / "models" / "catan" / file.name).write_bytes(file.read_bytes())
        for spec in ("best:fast", "best:sims=2,opening_sims=4"):
            agent = make_agent(spec, game)
            assert isinstance(agent, ValueTrader) and agent.net.spec.num_actions == 244
            assert play_game(game, [agent, make_agent("random", game)], np.random.default_rng(0), seed=0).is_terminal()
    with pytest.raises(CheckpointError, match="--like .*model-3p.json.*same game's without trading"):
        export_model(trained, play={}, out_dir=tmp_path / "no", like=MODELS_DIR / "catan" / "model-3p.json")
    assert not (tmp_path / "no").exists()
