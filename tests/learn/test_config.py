from pathlib import Path

import pytest

from boardzero.core.errors import ConfigError
from boardzero.learn.config import apply_overrides, config_from_dict, load_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize("path", sorted(CONFIGS.rglob("*.toml")), ids=lambda p: str(p.relative_to(CONFIGS)))
def test_every_shipped_config_loads_and_its_network_fits_its_game(path):
    from boardzero.core.registry import make

    config = load_config(path)
    assert path.stem.startswith(config.game)
    net = config.network
    spec = net.spec_for(make(config.game, **config.game_options))
    assert spec.sizes == net  # the [network] section is the spec's chosen part, field for field
    assert spec.observation_key == (net.observation or ("planes" if net.kind == "conv" else "flat"))


@pytest.mark.parametrize(
    "data,field",
    [
        ({"train": {"lrr": 0.1}}, "train.lrr"),
        ({"train": {"batch_size": "big"}}, "train.batch_size"),
        ({"train": {"batch_size": 0}}, "train.batch_size"),
        ({"train": {"steps": 1.5}}, "train.steps"),
        ({"train": {"save_replay": 1}}, "train.save_replay"),
        ({"selfplay": {"dirichlet_fraction": 1.5}}, "selfplay.dirichlet_fraction"),
        ({"network": {"kind": "transformer"}}, "network.kind"),
        ({"network": 3}, "network"),
        ({"trainer": {}}, "trainer"),
        ({"game": 4}, "game"),
        ({"game_options": "players=3"}, "game_options"),
    ],
)
def test_bad_fields_are_named(data, field):
    with pytest.raises(ConfigError) as info:
        config_from_dict(data)
    assert info.value.field == field


def test_bad_toml_and_missing_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[train\nsteps = 3")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_defaults_and_ints_as_floats():
    config = config_from_dict({"game": "tictactoe", "train": {"lr": 1}})
    assert config.train.lr == 1.0 and isinstance(config.train.lr, float)
    assert config.selfplay.actors == 1


@pytest.mark.parametrize("device", ["gpu", "cuda:x", "CPU", ""])
def test_a_bad_learner_device_is_named(device):
    with pytest.raises(ConfigError, match="train.device.*allowed: auto, cpu, cuda, cuda:N"):
        config_from_dict({"train": {"device": device}})


def test_learner_devices():
    import torch

    from boardzero.nn.precision import learner_device

    assert config_from_dict({"train": {"device": "cuda:1"}}).train.device == "cuda:1"
    assert learner_device("cpu") == torch.device("cpu")
    assert learner_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="train.device.*sees none"):
            learner_device("cuda")


def test_overrides_change_one_field_each_and_leave_the_file_alone(tmp_path):
    path = tmp_path / "td.toml"
    path.write_text('method = "td"\ngame = "catan"\n[game_options]\nplayers = 2\n[train]\nlr = 0.0003\n')
    config = load_config(
        path,
        [
            "train.lr=0.00003",
            "game_options.returns=win_vp",
            'eval.opponents=["heuristic"]',
            "td.lam = 0.9",
            "selfplay.precision=float32",
        ],
    )
    assert config.train.lr == 0.00003 and config.td.lam == 0.9 and config.selfplay.precision == "float32"
    assert config.game_options == {"players": 2, "returns": "win_vp"} and config.eval.opponents == ["heuristic"]
    assert load_config(path).train.lr == 0.0003
    data = {"train": {"lr": 0.1}}
    assert apply_overrides(data, ["train.lr=0.2"])["train"]["lr"] == 0.2 and data["train"]["lr"] == 0.1


@pytest.mark.parametrize(
    "override,field",
    [
        ("train.lrr=0.1", "train.lrr"),
        ("train.lr=fast", "train.lr"),
        ("train.lr", "--set"),
        ("train..lr=1", "--set"),
        ("a.b.c=1", "--set"),
        ("method=sarsa", "method"),
        ("method.kind=td", "--set"),
    ],
)
def test_a_bad_override_is_named(tmp_path, override, field):
    path = tmp_path / "td.toml"
    path.write_text('method = "td"\n')
    with pytest.raises(ConfigError) as info:
        load_config(path, [override])
    assert info.value.field == field


def test_changed_gives_a_validated_copy_and_names_a_bad_value():
    config = config_from_dict({"method": "td", "game": "catan", "td": {"lam": 0.5}})
    changed = config.changed({"selfplay.actors": 3, "selfplay.backend": "ray", "train.minutes": 2.5, "game": "x"})
    assert (changed.selfplay.actors, changed.selfplay.backend, changed.train.minutes, changed.game) == (
        3,
        "ray",
        2.5,
        "x",
    )
    assert changed.td.lam == 0.5 and config.selfplay.actors == 1  # the rest kept, the original untouched
    for changes, message in (
        ({"selfplay.backend": "spark"}, "selfplay.backend: 'spark' is not allowed; allowed: local, ray"),
        ({"selfplay.actors": 0}, "selfplay.actors: must be > 0, got 0"),
        ({"selfplay.simulations": 8}, "selfplay.simulations: applies to method alphazero, not 'td'"),
    ):
        with pytest.raises(ConfigError, match=message):
            config.changed(changes)


def test_boardzero_train_refuses_a_bad_backend_through_the_config_before_any_run(tmp_path):
    from typer.testing import CliRunner

    from boardzero.cli.main import app

    config = tmp_path / "c.toml"
    config.write_text('method = "td"\n')
    args = ["train", "tictactoe", "--config", str(config), "--run", str(tmp_path / "run"), "--backend", "spark"]
    result = CliRunner().invoke(app, args)
    assert "selfplay.backend: 'spark' is not allowed; allowed: local, ray" in str(result.exception)
    assert not (tmp_path / "run").exists()


def test_a_config_and_its_sections_change_only_through_changed():
    import dataclasses

    config = config_from_dict({"method": "td", "game": "catan"})
    for record, field in ((config, "game"), (config.selfplay, "actors"), (config.network, "hidden")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, 3)
    assert config.changed({"network.hidden": 32}).network.hidden == 32 and config.network.hidden == 256


def test_alphazero_train_runs_an_alphazero_copy_and_refuses_settings_it_would_ignore(monkeypatch, tmp_path):
    from boardzero.learn import alphazero

    ran = []
    monkeypatch.setattr(alphazero, "run", lambda config, run_dir, **kwargs: ran.append(config) or {})
    config = config_from_dict({"game": "connect4", "selfplay": {"simulations": 7}})
    alphazero.train(config, tmp_path)
    assert ran == [config]
    with pytest.raises(ConfigError, match=r"td: \[td\] applies to method td, not 'alphazero'"):
        alphazero.train(config_from_dict({"method": "td", "game": "connect4"}), tmp_path)
