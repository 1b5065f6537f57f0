"""Tiny-budget end-to-end training: tic-tac-toe and 3-player Kuhn poker, checkpoints, resume, kill-and-resume."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import torch

from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import make
from boardzero.learn import Trainer, config_from_dict, train
from boardzero.learn.replay import ReplayBuffer
from boardzero.learn.runtime import StopRequest
from boardzero.learn.selfplay import SelfPlay
from boardzero.nn import NetworkEvaluator, build_network, load_network, spec_for_game

TINY = {
    "game": "tictactoe",
    "network": {"hidden": 16, "blocks": 1},
    "selfplay": {"games_per_actor": 4, "simulations": 8, "publish_every": 5},
    "train": {"steps": 10, "batch_size": 16, "min_replay": 32, "checkpoint_every": 5, "log_every": 5},
    "eval": {
        "every": 10,
        "games_vs_random": 2,
        "games_vs_mcts": 2,
        "mcts_simulations": 8,
        "games_vs_best": 2,
        "simulations": 4,
    },
}


def tiny(**changes):
    data = json.loads(json.dumps(TINY))
    for section, values in changes.items():
        if isinstance(values, dict):
            data.setdefault(section, {}).update(values)
        else:
            data[section] = values
    return data


def test_end_to_end_and_resume(tmp_path):
    run = tmp_path / "run"
    summary = train(config_from_dict(tiny()), run)
    assert summary["step"] == 10 and summary["games"] > 0
    assert set(summary["latest_eval"]) >= {"eval/greedy_vs_random", "eval/search_vs_mcts"}
    names = {p.name for p in (run / "checkpoints").iterdir()}
    assert {"step_00000005.json", "step_00000010.json", "step_00000010.replay.safetensors", "best.json"} <= names
    assert "step_00000005.replay.safetensors" not in names  # only the newest keeps its replay buffer
    lines = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert any("losses/policy" in m and "charts/samples_per_s" in m for m in lines)
    assert any(m.get("eval/greedy_vs_random") is not None and m["step"] == 10 for m in lines)
    assert any(p.name.startswith("events") for p in (run / "tb").iterdir())

    trainer = Trainer(config_from_dict(tiny()), run)  # resumes
    assert trainer.step == 10 and len(trainer.method.replay) > 0 and trainer.generation == 1
    assert trainer.run(steps=15)["step"] == 15
    net, meta = load_network(run, game=make("tictactoe"))
    assert meta["step"] == 15 and "ratings" in meta and meta["config"]["game"] == "tictactoe"


def test_resume_refuses_other_network_or_game(tmp_path):
    run = tmp_path / "run"
    train(config_from_dict(tiny(train={"steps": 5})), run)
    with pytest.raises(CheckpointError, match="differs from the configured network"):
        Trainer(config_from_dict(tiny(network={"hidden": 32})), run)
    with pytest.raises(CheckpointError, match="is a run of tictactoe"):
        Trainer(config_from_dict(tiny(game="connect4")), run)


def test_a_new_run_starts_from_the_weights_it_is_given(tmp_path):
    first = tmp_path / "first"
    train(config_from_dict(tiny(train={"steps": 5})), first)
    trained, meta = load_network(first)
    second = tmp_path / "second"
    trainer = Trainer(config_from_dict(tiny()), second, init=first)
    assert trainer.step == 0
    for name, tensor in trainer.method.net.state_dict().items():
        assert torch.equal(tensor, trained.state_dict()[name]), name
    assert trainer.run(steps=5)["step"] == 5
    _, second_meta = load_network(second)
    assert second_meta["initialised_from"]["step"] == 5
    assert second_meta["initialised_from"]["weights_sha256"] == meta["weights_sha256"]
    resumed = Trainer(config_from_dict(tiny()), second, init=tmp_path / "nowhere")  # resumes: init not read
    assert resumed.step == 5 and resumed.initialised_from == second_meta["initialised_from"]


def test_warmup_raises_the_learning_rate_linearly_over_its_first_steps(tmp_path):
    trainer = Trainer(config_from_dict(tiny(train={"lr": 0.01, "warmup_steps": 4})), tmp_path / "run")
    method, rates = trainer.method, []
    for step in range(6):
        method.step = step
        loss = sum((p**2).sum() for p in method.net.parameters())
        method.optimize(loss, {})
        rates.append(method.optimizer.param_groups[0]["lr"])
    assert rates == pytest.approx([0.0025, 0.005, 0.0075, 0.01, 0.01, 0.01])
    plain = Trainer(config_from_dict(tiny(train={"lr": 0.01})), tmp_path / "plain").method
    plain.optimize(sum((p**2).sum() for p in plain.net.parameters()), {})
    assert plain.optimizer.param_groups[0]["lr"] == 0.01


def test_a_new_run_refuses_weights_of_another_network_game_or_method(tmp_path):
    first = tmp_path / "first"
    train(config_from_dict(tiny(train={"steps": 5})), first)
    with pytest.raises(CheckpointError, match="differs from the configured network"):
        Trainer(config_from_dict(tiny(network={"hidden": 32})), tmp_path / "a", init=first)
    with pytest.raises(CheckpointError, match="not 'connect4'"):
        Trainer(config_from_dict(tiny(game="connect4")), tmp_path / "b", init=first)
    with pytest.raises(ConfigError, match="alphazero trainer, not td"):
        td = {k: v for k, v in tiny(method="td").items() if k not in ("selfplay", "eval")}
        Trainer(config_from_dict(td), tmp_path / "c", init=first)
    with pytest.raises(CheckpointError):
        Trainer(config_from_dict(tiny()), tmp_path / "d", init=tmp_path / "nowhere")
    assert not list((tmp_path / "a").glob("checkpoints/*.json"))


def test_an_error_during_training_keeps_the_steps_learned(tmp_path, monkeypatch):
    def broken_evaluation(self, metrics_log):
        raise RuntimeError("evaluation failed")

    monkeypatch.setattr(Trainer, "_evaluate", broken_evaluation)
    run = tmp_path / "run"
    config = config_from_dict(tiny(train={"steps": 10, "checkpoint_every": 100}, eval={"every": 7}))
    with pytest.raises(RuntimeError, match="evaluation failed"):
        train(config, run)
    assert (run / "checkpoints" / "step_00000007.json").exists()  # saved before the error went up
    assert Trainer(config, run).step == 7


def test_corrupt_latest_checkpoint_is_a_clear_error(tmp_path):
    run = tmp_path / "run"
    train(config_from_dict(tiny(train={"steps": 5})), run)
    (run / "checkpoints" / "step_00000005.optim.safetensors").write_bytes(b"garbage")
    with pytest.raises(CheckpointError, match="step_00000005.optim.safetensors: contents do not match the checksum"):
        Trainer(config_from_dict(tiny()), run)


def test_kuhn_poker_three_players_trains(tmp_path):
    config = config_from_dict(tiny(game="kuhn_poker", train={"steps": 5}, eval={"every": 5, "games_vs_mcts": 0}))
    summary = train(config, tmp_path / "kuhn")
    assert summary["step"] == 5 and "eval/greedy_vs_random" in summary["latest_eval"]
    net, meta = load_network(tmp_path / "kuhn", game=make("kuhn_poker"))
    assert net.spec.num_players == 3 and meta["step"] == 5  # one value per seat


def test_selfplay_targets_are_seat_relative():
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    config = config_from_dict(tiny()).selfplay
    selfplay = SelfPlay(game, NetworkEvaluator(net), config, np.random.default_rng(0))
    finished = []
    while not finished:
        finished = selfplay.step()
    for batch in finished:
        # seats alternate, so consecutive samples see each other's result from the other side
        assert np.allclose(batch["value"][:, 0], -batch["value"][:, 1])
        assert np.allclose(batch["value"][:-1, 0], batch["value"][1:, 1])
        assert np.allclose(batch["policy"].sum(1), 1) and not (batch["policy"] * ~batch["mask"]).any()


def test_search_value_share_blends_final_returns_with_root_values():
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    batches = {}
    for share in (0.0, 0.5, 1.0):
        config = config_from_dict(tiny(selfplay={"search_value_share": share})).selfplay
        selfplay = SelfPlay(game, NetworkEvaluator(net), config, np.random.default_rng(3))
        finished = []
        while not finished:
            finished = selfplay.step()
        batches[share] = finished[0]
    pure, half, searched = batches[0.0], batches[0.5], batches[1.0]
    assert np.array_equal(pure["obs"], searched["obs"])  # the share changes targets, not play
    assert set(np.unique(np.abs(pure["value"]))) <= {0.0, 1.0}
    assert not np.allclose(searched["value"], pure["value"])
    assert np.allclose(half["value"], (pure["value"] + searched["value"]) / 2, atol=1e-6)


def test_replay_ring_and_round_trip():
    fields = {
        "obs": ((2,), np.float32),
        "mask": ((3,), bool),
        "policy": ((3,), np.float32),
        "value": ((2,), np.float32),
    }
    replay = ReplayBuffer(5, fields)
    for i in range(7):
        replay.add(
            {
                "obs": np.full((1, 2), i, np.float32),
                "mask": np.ones((1, 3), bool),
                "policy": np.full((1, 3), 1 / 3, np.float32),
                "value": np.zeros((1, 2), np.float32),
            }
        )
    assert len(replay) == 5 and replay.added == 7
    arrays = replay.state_arrays()
    assert arrays["obs"][:, 0].tolist() == [2, 3, 4, 5, 6]
    other = ReplayBuffer(5, fields)
    other.load_arrays(arrays)
    assert other.state_arrays()["obs"].tolist() == arrays["obs"].tolist() and other.added == 7


METHOD_TOML = {
    "alphazero": """
[selfplay]
games_per_actor = 4
simulations = 8
[train]
batch_size = 16
min_replay = 32
""",
    "td": """
method = "td"
[selfplay]
games_per_actor = 8
[train]
batch_size = 16
min_replay = 32
""",
    "ppo": """
method = "ppo"
[selfplay]
games_per_actor = 8
publish_every = 1
[train]
[ppo]
batch_samples = 32
admit_every = 2
admit_games = 2
""",
}


def _tictactoe_config(tmp_path, method: str, train: str):
    """A tiny tic-tac-toe config for ``method`` with ``train`` lines added to its [train] table."""
    config = tmp_path / "ttt.toml"
    method_line, _, sections = METHOD_TOML[method].partition("[")
    config.write_text(
        f"""{method_line}
game = "tictactoe"
[network]
hidden = 16
blocks = 1
[{sections}
[eval]
every = 0
""".replace("[train]", f"[train]\n{train}")
    )
    return config


@pytest.mark.parametrize("method", ["alphazero", "td", "ppo"])
def test_kill_and_resume_continues_from_last_checkpoint(tmp_path, method):
    config = _tictactoe_config(tmp_path, method, "steps = 100000\ncheckpoint_every = 3\nlog_every = 3")
    run = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "boardzero.cli.main",
        "train",
        "tictactoe",
        "--config",
        str(config),
        "--run",
        str(run),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    checkpoints = run / "checkpoints"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and len(list(checkpoints.glob("step_*.json"))) < 2:
        time.sleep(0.2)
    os.kill(process.pid, signal.SIGKILL)  # no chance to clean up
    process.wait()
    saved = sorted(checkpoints.glob("step_*.json"))
    assert saved, process.stderr.read().decode()
    last_step = int(json.loads(saved[-1].read_text())["step"])
    result = subprocess.run([*command, "--steps", str(last_step + 3)], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    assert "resumed" in result.stdout and f"step {last_step + 3}," in result.stdout  # a multiple of log_every
    assert f"tensorboard --logdir {run / 'tb'}" in " ".join(result.stdout.split())
    assert re.search(r"left (\d+:\d\d:\d\d|\?)", result.stdout), result.stdout  # time left in the log
    meta = json.loads(sorted(checkpoints.glob("step_*.json"))[-1].read_text())
    assert meta["trainer"] == method and meta["step"] == last_step + 3


def test_a_stop_signal_only_asks_and_a_second_one_interrupts():
    before = signal.getsignal(signal.SIGTERM)
    stop = StopRequest.install()
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.requested == "SIGTERM"  # no exception: the run finishes its step first
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    finally:
        stop.uninstall()
    assert signal.getsignal(signal.SIGTERM) is before


def test_sigterm_stops_the_run_with_a_checkpoint_of_its_last_step(tmp_path):
    config = _tictactoe_config(tmp_path, "td", "steps = 1000000\ncheckpoint_every = 1000000\nlog_every = 5")
    run = tmp_path / "run"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "boardzero.cli.main",
            "train",
            "tictactoe",
            "--config",
            str(config),
            "--run",
            str(run),
            "--actors",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    metrics = run / "metrics.jsonl"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and not (metrics.exists() and metrics.read_text().count("\n") >= 2):
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=180)
    assert process.returncode == 0, err
    stopped = re.search(r"SIGTERM: stopping at step (\d+)", out)
    assert stopped, out
    saved = sorted((run / "checkpoints").glob("step_*.json"))
    assert [json.loads(path.read_text())["step"] for path in saved] == [int(stopped.group(1))]
    assert int(stopped.group(1)) >= 10  # two metrics lines: the steps before the signal are all kept


def test_evaluation_openings_vary_deterministic_games():
    from boardzero.agents.az import PolicyAgent
    from boardzero.agents.registry import make_agent
    from boardzero.learn.evaluation import score
    from boardzero.play.opening import RandomOpening
    from boardzero.play.runner import play_game

    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    rng = np.random.default_rng(3)
    greedy = PolicyAgent(game, net)
    openings = {tuple(play_game(game, [RandomOpening(greedy, 2)] * 2, rng).history[:2]) for _ in range(20)}
    assert len(openings) > 1
    # the score counts the agent's own results, whichever seat it takes: the solver never loses
    solver, random = make_agent("solver", game), (lambda: make_agent("random", game))
    assert score(game, solver, random, 20, rng, opening_plies=2) > 0.75
    assert score(game, random(), lambda: solver, 20, rng) <= 0.5


def test_the_big_connect4_network_trains_resumes_from_its_copied_files_and_plays(tmp_path):
    """configs/connect4_big.toml with a tiny budget (its network unchanged): it trains, and a run directory that
    holds only a checkpoint's metadata, weights and optimizer state (as data/checkpoints/ ships them) resumes."""
    import shutil
    from pathlib import Path

    from boardzero.agents.registry import make_agent
    from boardzero.core.view import SeatView
    from boardzero.learn.config import load_config

    config_path = Path(__file__).resolve().parents[2] / "configs" / "connect4_big.toml"
    budget = [
        "selfplay.games_per_actor=4",
        "selfplay.simulations=4",
        "train.batch_size=16",
        "train.min_replay=32",
        "train.checkpoint_every=2",
        "train.log_every=2",
        "eval.every=0",
    ]
    config = load_config(config_path, budget)
    assert (config.network.kind, config.network.channels, config.network.blocks) == ("conv", 64, 6)
    run = tmp_path / "run"
    assert train(config, run, steps=2)["step"] == 2
    net, meta = load_network(run, game=make("connect4"))
    assert sum(p.numel() for p in net.parameters()) == 449_435 and meta["step"] == 2
    copied = tmp_path / "copied" / "checkpoints"
    copied.mkdir(parents=True)
    for suffix in (".json", ".safetensors", ".optim.safetensors"):
        shutil.copy(run / "checkpoints" / f"step_00000002{suffix}", copied)
    trainer = Trainer(load_config(config_path, budget), copied.parent)
    assert trainer.step == 2 and len(trainer.method.replay) == 0  # no replay buffer copied: it refills
    assert any(trainer.method.optimizer.state.values())  # the optimizer's moments came back
    assert trainer.run(steps=4)["step"] == 4
    agent = make_agent(f"az:{copied.parent},greedy", make("connect4"))
    state = make("connect4").new_state()
    assert int(agent.act(SeatView(state, 0), np.random.default_rng(0))) in range(7)
