from pathlib import Path

import pytest

from boardzero.core.errors import ConfigError
from boardzero.learn.config import config_from_dict, load_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.parametrize("path", sorted(CONFIGS.rglob("*.toml")), ids=lambda p: str(p.relative_to(CONFIGS)))
def test_every_shipped_config_loads_and_its_network_fits_its_game(path):
    from boardzero.core.registry import make
    from boardzero.nn.nets import spec_for_game

    config = load_config(path)
    assert path.stem.startswith(config.game)
    net = config.network
    spec = spec_for_game(make(config.game, **config.game_options), net.kind, hidden=net.hidden, blocks=net.blocks,
                         channels=net.channels, observation=net.observation)
    assert spec.observation_key == (net.observation or ("planes" if net.kind == "conv" else "flat"))


@pytest.mark.parametrize("data,field", [
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
])
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
