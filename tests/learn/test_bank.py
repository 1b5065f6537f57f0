"""The bank of past networks: who joins, who is dropped, what the index file holds, how opponents are drawn,
and how an actor's ``MemberNets`` loads a member once and tells a dropped member from a broken one."""

import json

import numpy as np
import pytest

from boardzero.core.errors import CheckpointError
from boardzero.core.registry import make
from boardzero.learn.bank import Bank, MemberNets, admits, draw_opponent
from boardzero.nn import build_network, spec_for_game

META = {"game": "tictactoe", "game_options": {}}


@pytest.fixture(scope="module")
def game():
    return make("tictactoe")


@pytest.fixture(scope="module")
def net(game):
    return build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))


def test_a_trial_score_admits_at_the_threshold_and_above():
    assert admits(0.55, 0.55) and admits(0.9, 0.55)
    assert not admits(0.5499, 0.55)


def test_the_first_member_is_the_best_and_later_ones_only_when_admitted(tmp_path, net):
    bank = Bank(tmp_path / "bank", size=4)
    assert len(bank) == 0 and bank.best is None and bank.version == 0
    assert bank.payload() == {"version": 0, "members": [], "best": None}
    bank.add(net, 5, META, best=False)  # an empty bank takes its first member as the best
    assert bank.best == 5 and len(bank) == 1 and bank.version == 1
    bank.add(net, 10, META, best=False)
    assert bank.best == 5 and bank.version == 2
    bank.add(net, 15, META, best=True)
    assert bank.best == 15 and bank.version == 3
    assert bank.best_path() == tmp_path / "bank" / "member_00000015.json"
    assert bank.payload() == {
        "version": 3,
        "members": [str(tmp_path / "bank" / f"member_{s:08d}.json") for s in (5, 10, 15)],
        "best": str(tmp_path / "bank" / "member_00000015.json"),
    }
    index = json.loads((tmp_path / "bank" / "bank.json").read_text())
    assert index == {"members": bank.members, "best": 15, "version": 3}
    saved = json.loads((tmp_path / "bank" / "member_00000010.json").read_text())
    assert saved["step"] == 10 and saved["game"] == "tictactoe"


def test_a_step_added_again_replaces_its_member(tmp_path, net):
    bank = Bank(tmp_path / "bank", size=4)
    for step in (1, 2, 1):
        bank.add(net, step, META, best=False)
    assert bank.members == [{"step": 2, "path": "member_00000002.json"}, {"step": 1, "path": "member_00000001.json"}]


def test_the_oldest_members_but_the_best_are_dropped_with_their_files(tmp_path, net):
    directory = tmp_path / "bank"
    bank = Bank(directory, size=2)
    bank.add(net, 1, META, best=False)
    bank.add(net, 2, META, best=False)
    bank.add(net, 3, META, best=False)  # drops 2, the oldest that is not the best (1)
    assert [m["step"] for m in bank.members] == [1, 3] and bank.best == 1
    assert not list(directory.glob("member_00000002.*"))
    assert sorted(p.name for p in directory.glob("member_00000003.*")) == [
        "member_00000003.json",
        "member_00000003.safetensors",
    ]
    bank.add(net, 4, META, best=True)  # the new best stays; the oldest other member (1) goes
    assert [m["step"] for m in bank.members] == [3, 4] and bank.best == 4
    assert not list(directory.glob("member_00000001.*"))
    reloaded = Bank(directory, size=2)
    assert (reloaded.members, reloaded.best, reloaded.version) == (bank.members, 4, 4)


@pytest.mark.parametrize(
    "index",
    ["{not json", json.dumps({"best": 1, "version": 0}), json.dumps({"members": [], "best": 1, "version": "x"})],
)
def test_a_broken_index_is_a_checkpoint_error(tmp_path, index):
    (tmp_path / "bank.json").write_text(index)
    with pytest.raises(CheckpointError, match="bank.json: not a valid bank index"):
        Bank(tmp_path, size=2)


def test_a_member_missing_from_disk_is_named(tmp_path, net):
    bank = Bank(tmp_path, size=3)
    bank.add(net, 1, META, best=True)
    bank.add(net, 2, META, best=False)
    (tmp_path / "member_00000002.json").unlink()
    with pytest.raises(CheckpointError, match="member member_00000002.json is missing"):
        Bank(tmp_path, size=3)


def test_opponents_are_the_best_at_its_share_and_otherwise_any_member():
    payload = {"version": 1, "members": ["a", "b", "c", "d"], "best": "d"}
    rng = np.random.default_rng(1)
    assert {draw_opponent(payload, 1.0, rng) for _ in range(200)} == {"d"}
    uniform = [draw_opponent(payload, 0.0, rng) for _ in range(4000)]
    counts = [uniform.count(m) for m in payload["members"]]
    assert all(900 < c < 1100 for c in counts), counts
    mixed = [draw_opponent(payload, 0.5, rng) for _ in range(4000)]
    assert 0.58 < mixed.count("d") / 4000 < 0.67  # a half, plus a quarter of the other half


def test_member_networks_load_once_and_are_forgotten_when_not_wanted(tmp_path, game, net):
    bank = Bank(tmp_path, size=3)
    bank.add(net, 1, META, best=True)
    bank.add(net, 2, META, best=False)
    one, two = bank.payload()["members"]
    fetched = []
    nets = MemberNets(lambda path: fetched.append(path) or path, game)
    first = nets.get(one)
    assert first is not None and not first.training  # ready to play
    assert nets.get(one) is first and fetched == [one]  # loaded once
    nets.get(two)
    nets.keep([two, "elsewhere"])
    assert set(nets.nets) == {two}
    assert nets.get(one) is not first and fetched == [one, two, one]  # forgotten, so loaded again


def test_a_dropped_member_is_none_and_a_broken_one_an_error(tmp_path, game, net):
    bank = Bank(tmp_path, size=3)
    bank.add(net, 1, META, best=True)
    bank.add(net, 2, META, best=False)
    one, two = bank.payload()["members"]
    nets = MemberNets(str, game)
    for leftover in tmp_path.glob("member_00000002.*"):
        leftover.unlink()
    assert nets.get(two) is None and two not in nets.nets
    (tmp_path / "member_00000001.safetensors").write_bytes(b"not a tensor file")
    with pytest.raises(CheckpointError):
        nets.get(one)
    (tmp_path / "member_00000001.safetensors").unlink()  # half gone: the bank dropped it while we read it
    assert nets.get(one) is None


def test_a_member_made_by_another_trainer_is_an_error_not_a_dropped_member(tmp_path, game, net):
    bank = Bank(tmp_path, size=3)
    bank.add(net, 1, META, best=True)  # made by the default trainer, alphazero
    (path,) = bank.payload()["members"]
    with pytest.raises(CheckpointError, match="made by the alphazero trainer"):
        MemberNets(str, game, trainers=("td",)).get(path)
    assert MemberNets(str, game).get(path) is not None


def test_a_member_made_for_another_game_is_an_error(tmp_path, game):
    other = make("connect4")
    bank = Bank(tmp_path, size=3)
    bank.add(build_network(spec_for_game(other, "mlp", hidden=8, blocks=1)), 1, {"game": "connect4"}, best=True)
    (path,) = bank.payload()["members"]
    with pytest.raises(CheckpointError, match="connect4"):
        MemberNets(str, game).get(path)
    assert MemberNets(str, other).get(path) is not None
