"""The Ray backend on a local Ray instance (``ray.init(num_cpus=2)``) with tiny budgets: training by every method,
an actor killed mid-run, a killed learner resumed, an arena giving the local result. Skipped without the ray
extra (``pip install 'boardzero[ray]'``), except the check that asking for it then is a clear error."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from boardzero.core.errors import ConfigError
from boardzero.eval.arena import run_arena
from boardzero.eval.tournament import Entrant, run_tournament
from boardzero.learn import Trainer, actors as actors_module, config_from_dict
from boardzero.nn.checkpoint import read_extra, read_metadata

TINY = {
    "alphazero": {
        "selfplay": {"games_per_actor": 4, "simulations": 8},
        "train": {"batch_size": 16, "min_replay": 32},
        "eval": {"games_vs_random": 2, "games_vs_mcts": 0, "games_vs_best": 2, "simulations": 4},
    },
    "td": {"selfplay": {"games_per_actor": 8, "precision": "float32"}, "train": {"batch_size": 16, "min_replay": 32}},
    "ppo": {
        "selfplay": {"games_per_actor": 8, "precision": "float32"},
        "ppo": {"batch_samples": 32, "admit_every": 2, "admit_games": 2},
    },
}


def tiny_config(method: str, **changes):
    data = {"method": method, "game": "tictactoe", "network": {"hidden": 16, "blocks": 1}}
    sections = {
        "selfplay": {"backend": "ray", "actors": 2, "publish_every": 2},
        "train": {"steps": 6, "checkpoint_every": 3, "log_every": 2},
        "eval": {"every": 0},
    }
    for source in (TINY[method], changes):
        for name, values in source.items():
            sections.setdefault(name, {}).update(values)
    return config_from_dict({**data, **sections})


@pytest.fixture(scope="module")
def ray():
    ray = pytest.importorskip("ray", reason="the ray backend needs pip install 'boardzero[ray]'")
    # Ray starts its workers 15 nice levels below the driver; on a shared test machine they would then barely run
    os.environ["RAY_worker_niceness"] = "0"  # noqa: SIM112 (Ray spells it so)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning", object_store_memory=100 * 2**20)
    yield ray
    ray.shutdown()


class RecordingPool:
    """Wraps the Ray pool to count what each actor delivered and, when asked, to kill one actor's process after
    its first delivery."""

    def __init__(self, kill_after_first_delivery: bool = False):
        self.kill = kill_after_first_delivery
        self.pools = []

    def from_config(self, selfplay, method, payload):
        from boardzero.integrations.ray import RayActorPool

        recorder = self

        class Pool(RayActorPool):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.killed: list[int] = []
                recorder.pools.append(self)

            def collect(self, wait):
                received = super().collect(wait)
                if recorder.kill and not self.killed and self.delivered:
                    pid = self.actor_pids()[0]
                    self.killed.append(self.slots[0].actor_id)
                    os.kill(pid, signal.SIGKILL)  # no chance to send what it played since
                return received

            def close(self):
                self.final_ids = [slot.actor_id for slot in self.slots]
                super().close()

        return Pool.from_config(selfplay, method, payload)


@pytest.mark.parametrize("method", ["alphazero", "td", "ppo"])
def test_every_method_trains_with_ray_actors(ray, tmp_path, monkeypatch, method):
    recorder = RecordingPool()
    monkeypatch.setitem(actors_module.BACKENDS, "ray", recorder)
    run = tmp_path / "run"
    trainer = Trainer(tiny_config(method), run)
    summary = trainer.run()
    assert summary["step"] == 6 and summary["games"] > 0 and summary["samples"] > 0
    (pool,) = recorder.pools
    assert summary["games"] == sum(games for games, _ in pool.delivered.values())
    assert summary["samples"] == sum(samples for _, samples in pool.delivered.values())
    assert set(pool.delivered) <= {0, 1} and pool.restarts == 0  # deliveries of the two first actors only
    meta = read_metadata(run / "checkpoints" / "step_00000006.json")
    assert meta["trainer"] == method and meta["selfplay_totals"]["samples"] == summary["samples"]
    lines = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    logged = [m for m in lines if "charts/sample_age" in m]
    assert logged and all(m["actors/restarts"] == 0 and m["charts/sample_age"] >= 0 for m in logged)


def test_a_killed_actor_is_replaced_and_nothing_is_counted_twice(ray, tmp_path, monkeypatch):
    recorder = RecordingPool(kill_after_first_delivery=True)
    monkeypatch.setitem(actors_module.BACKENDS, "ray", recorder)
    run = tmp_path / "run"
    config = tiny_config("alphazero", train={"steps": 12, "checkpoint_every": 4})
    trainer = Trainer(config, run)
    summary = trainer.run()
    (pool,) = recorder.pools
    assert pool.restarts == 1 and pool.killed == [0]
    assert sorted(pool.final_ids) == [1, 2]  # the replacement has a new id, so new seeds
    assert summary["step"] == 12
    # the learner counted each delivery once, and only deliveries: what the killed actor played after its last
    # delivery is lost, not counted
    assert summary["games"] == sum(games for games, _ in pool.delivered.values())
    samples = sum(count for _, count in pool.delivered.values())
    assert summary["samples"] == samples == trainer.method.generated == trainer.method.replay.added
    # the checkpoint agrees with the learner
    last = run / "checkpoints" / "step_00000012.json"
    meta = read_metadata(last)
    assert meta["selfplay_totals"] == {"games": summary["games"], "samples": samples, "samples_dropped": 0}
    replay = read_extra(last, meta, "replay")
    assert len(replay["obs"]) == min(samples, config.train.replay_size)
    resumed = Trainer(config, run)
    assert resumed.step == 12 and resumed.totals.samples == samples and resumed.method.replay.added == samples


def test_stale_samples_are_dropped_and_counted(ray, tmp_path, monkeypatch):
    """With one publication per step and a bound of one publication, samples played with older weights than the
    newest two are dropped before the method sees them."""
    recorder = RecordingPool()
    monkeypatch.setitem(actors_module.BACKENDS, "ray", recorder)
    config = tiny_config(
        "td", selfplay={"publish_every": 1, "max_staleness": 1}, train={"steps": 20, "sample_reuse": 1.0}
    )
    trainer = Trainer(config, tmp_path / "run")
    summary = trainer.run()
    (pool,) = recorder.pools
    delivered = sum(count for _, count in pool.delivered.values())
    assert summary["samples"] + summary["samples_dropped"] == delivered
    assert trainer.method.generated == summary["samples"]
    # an actor's next call starts with the weights of the moment its delivery arrived; the learner then takes
    # several steps, publishing each, before that call returns
    assert summary["samples_dropped"] > 0


def test_arena_over_ray_gives_the_local_result(ray):
    local = run_arena("tictactoe", ["mcts:sims=8", "random"], num_games=12, seed=5, workers=1)
    remote = run_arena("tictactoe", ["mcts:sims=8", "random"], num_games=12, seed=5, workers=2, backend="ray")
    assert remote.to_dict() == local.to_dict()
    assert len({tuple(g.returns) for g in remote.games}) > 1  # not a trivially constant match


def test_tournament_over_ray_gives_the_local_result(ray):
    entrants = [Entrant(spec, spec) for spec in ("random", "greedy", "mcts:sims=4")]
    local = run_tournament("tictactoe", entrants, games_per_lineup=2, seed=3, workers=1)
    remote = run_tournament("tictactoe", entrants, games_per_lineup=2, seed=3, workers=2, backend="ray")
    assert [g.to_dict() for g in remote.games] == [g.to_dict() for g in local.games]
    assert len(remote.games) == 6


@pytest.mark.slow
def test_killed_learner_resumes_and_new_actors_join(ray, tmp_path):
    """``boardzero train --backend ray`` killed with SIGKILL, then started again on the same run directory."""
    config = tmp_path / "ttt.toml"
    config.write_text("""method = "td"
game = "tictactoe"
[network]
hidden = 16
blocks = 1
[selfplay]
games_per_actor = 8
precision = "float32"
[train]
steps = 100000
batch_size = 16
min_replay = 32
checkpoint_every = 3
log_every = 3
[eval]
every = 0
""")
    run = tmp_path / "run"
    # the learner joins the test's Ray instance as it would join a cluster; its actors die with it
    address = ray.get_runtime_context().gcs_address
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
        "--backend",
        "ray",
        "--ray-address",
        address,
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    checkpoints = run / "checkpoints"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and len(list(checkpoints.glob("step_*.json"))) < 2:
        time.sleep(0.2)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    saved = sorted(checkpoints.glob("step_*.json"))
    assert saved, process.stderr.read().decode()
    last = json.loads(saved[-1].read_text())
    result = subprocess.run([*command, "--steps", str(last["step"] + 3)], capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr
    assert "resumed" in result.stdout and f"step {last['step'] + 3}," in result.stdout
    meta = json.loads(sorted(checkpoints.glob("step_*.json"))[-1].read_text())
    assert meta["generation"] == last["generation"] + 1  # new actors, new seeds
    assert meta["selfplay_totals"]["samples"] > last["selfplay_totals"]["samples"]


def test_without_ray_asking_for_it_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    with pytest.raises(ConfigError, match=r"pip install 'boardzero\[ray\]'"):
        Trainer(tiny_config("td"), tmp_path / "run").run()
    with pytest.raises(ConfigError, match=r"pip install 'boardzero\[ray\]'"):
        run_arena("tictactoe", ["random"], num_games=2, backend="ray")
    with pytest.raises(ConfigError, match="backend.*allowed: local, ray"):
        config_from_dict({"game": "tictactoe", "selfplay": {"backend": "mpi"}})


def test_cli_without_ray_prints_one_line(tmp_path):
    script = (
        "import sys; sys.modules['ray'] = None; from boardzero.cli.main import main; sys.argv = "
        "['boardzero', 'arena', 'tictactoe', 'random', '-n', '2', '--backend', 'ray']; main()"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: ConfigError: backend: the ray backend needs Ray, which is not installed: pip install 'boardzero[ray]'"
    ]
    bad = subprocess.run(
        [sys.executable, "-m", "boardzero.cli.main", "arena", "tictactoe", "random", "-n", "2", "--backend", "spark"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "--backend: 'spark' is not allowed; allowed: local, ray" in bad.stderr
