import hashlib
import json

import numpy as np
import pytest
import torch

from boardzero.core.errors import CheckpointError
from boardzero.core.registry import make
from boardzero.nn import build_network, load_network, save_network, spec_for_game
from boardzero.nn.checkpoint import extra_path, read_extra, read_metadata


@pytest.fixture
def saved(tmp_path):
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=16, blocks=1)).eval()
    path = save_network(tmp_path / "model", net, {"game": game.name, "game_options": game.options_dict(), "step": 3})
    return game, net, path


def test_round_trip(saved, tmp_path):
    game, net, path = saved
    loaded, meta = load_network(tmp_path, game=game)  # a directory with model.json
    assert meta["step"] == 3 and meta["network"] == net.spec.to_dict()
    obs, mask = torch.rand(4, 18), torch.ones(4, 9, dtype=torch.bool)
    for a, b in zip(net(obs, mask), loaded(obs, mask)):
        assert torch.equal(a, b)
    assert load_network(path.with_suffix(".safetensors"), game=game)[1]["step"] == 3


def test_foreign_game(saved):
    _, _, path = saved
    with pytest.raises(CheckpointError, match="for game 'tictactoe', not 'connect4'"):
        load_network(path, game=make("connect4"))


def flip_byte(path, offset_from_end=8):
    """Flip every bit of one byte near the end of the file (inside the tensor data, past the header)."""
    data = bytearray(path.read_bytes())
    data[-offset_from_end] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_weights_file_with_one_byte_flipped_is_refused(saved):
    game, _, path = saved
    weights = path.with_suffix(".safetensors")
    flip_byte(weights)
    with pytest.raises(CheckpointError, match="do not match the checksum"):
        load_network(path, game=game)


def test_a_shipped_model_with_one_byte_flipped_is_refused(tmp_path):
    from boardzero.agents.best import shipped_model

    game = make("connect4")
    source = shipped_model(game)
    weights = read_metadata(source)["weights"]
    for name in (source.name, weights):
        (tmp_path / name).write_bytes((source.parent / name).read_bytes())
    assert load_network(tmp_path / source.name, game=game)[1]["game"] == "connect4"  # the copy loads before the flip
    flip_byte(tmp_path / weights, offset_from_end=1000)
    with pytest.raises(CheckpointError, match=f"{weights}: contents do not match the checksum"):
        load_network(tmp_path / source.name, game=game)


def test_truncated_or_garbage_weights_are_refused(saved):
    _, _, path = saved
    weights = path.with_suffix(".safetensors")
    weights.write_bytes(weights.read_bytes()[:100])
    with pytest.raises(CheckpointError, match="checksum"):
        load_network(path)
    meta = json.loads(path.read_text())
    meta["weights_sha256"] = hashlib.sha256(weights.read_bytes()).hexdigest()  # the checksum matches the garbage
    path.write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="not a valid safetensors"):
        load_network(path)
    del meta["weights_sha256"]
    path.write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="lacks 'weights_sha256'"):
        load_network(path)


def test_bad_metadata(saved, tmp_path):
    _, _, path = saved
    path.write_text("{not json")
    with pytest.raises(CheckpointError, match="not valid JSON"):
        load_network(path)
    path.write_text(json.dumps({"hello": 1}))
    with pytest.raises(CheckpointError, match="not a boardzero checkpoint"):
        load_network(path)
    with pytest.raises(CheckpointError, match="no such checkpoint"):
        load_network(tmp_path / "missing.json")
    with pytest.raises(CheckpointError, match="no checkpoint found"):
        load_network(tmp_path / "checkpoints_empty_dir" if (tmp_path / "x").mkdir() else tmp_path / "x")


def test_weights_that_do_not_fit_the_spec(saved):
    _, _, path = saved
    meta = json.loads(path.read_text())
    meta["network"]["hidden"] = 32
    path.write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="has shape"):
        load_network(path)
    meta["network"]["kind"] = "bogus"
    path.write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="bad network spec"):
        load_network(path)


def test_no_pickle_in_weights(saved):
    _, _, path = saved
    data = path.with_suffix(".safetensors").read_bytes()
    header_len = int(np.frombuffer(data[:8], "<u8")[0])
    assert json.loads(data[8 : 8 + header_len])  # safetensors: a JSON header, then raw tensors


def test_a_checkpoint_fits_games_whose_model_options_match(tmp_path):
    """Catan models depend on the player count, not on match rules such as the turn limit or the board."""
    trained = make("catan", players=2, turn_limit=200)
    net = build_network(spec_for_game(trained, "mlp", hidden=8, blocks=1))
    path = save_network(tmp_path / "model", net, {"game": "catan", "game_options": trained.options_dict()})
    load_network(path, game=make("catan", players=2, board="beginner"))
    with pytest.raises(CheckpointError, match="players=2 \\(here 3\\)"):
        load_network(path, game=make("catan", players=3))


@pytest.mark.parametrize("name", ["optim", "replay"])
def test_an_extra_file_with_one_byte_flipped_is_refused(tmp_path, name):
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    extras = {"optim": {"state.0.exp_avg": np.ones(5, np.float32)}, "replay": {"obs": np.zeros((3, 18), np.float32)}}
    path = save_network(tmp_path / "step_00000007", net, {"game": game.name, "game_options": {}}, extras=extras)
    meta = read_metadata(path)
    assert read_extra(path, meta, name).keys() == extras[name].keys()  # intact: loads
    flip_byte(extra_path(path, name), offset_from_end=1)
    with pytest.raises(CheckpointError, match=f"step_00000007.{name}.safetensors: contents do not match the checksum"):
        read_extra(path, meta, name)


def test_path_hash_name_loads_the_network_a_checkpoint_keeps_as_an_extra(tmp_path):
    game = make("tictactoe")
    torch.manual_seed(0)
    main, second = (build_network(spec_for_game(game, "mlp", hidden=8, blocks=1)).eval() for _ in range(2))
    path = save_network(
        tmp_path / "model",
        main,
        {"game": game.name, "game_options": {}},
        extras={"opening": second.state_dict(), "optim": {"state.0.exp_avg": np.ones(5, np.float32)}},
    )
    obs, mask = torch.rand(4, 18), torch.ones(4, 9, dtype=torch.bool)
    loaded, _ = load_network(f"{path}#opening", game=game)
    assert torch.equal(loaded(obs, mask)[1], second(obs, mask)[1])
    assert not torch.equal(loaded(obs, mask)[1], main(obs, mask)[1])
    with pytest.raises(CheckpointError, match="has no extra network 'mean_with' \\(its extras: opening, optim\\)"):
        load_network(f"{path}#mean_with", game=game)
    with pytest.raises(CheckpointError, match="weights do not match the network spec"):
        load_network(f"{path}#optim", game=game)  # an extra that is no network
