"""RunDir.prune: the newest checkpoints and every run's stop point survive the rotation."""

from __future__ import annotations

from boardzero.learn.rundir import RunDir
from boardzero.nn.checkpoint import extra_path, find_checkpoints


def _write(run: RunDir, step: int, *, replay: bool = False) -> None:
    run.checkpoints.mkdir(parents=True, exist_ok=True)
    stem = run.step_stem(step)
    json_path = stem.with_suffix(".json")
    json_path.write_text("{}")
    stem.with_suffix(".safetensors").write_bytes(b"")
    if replay:
        extra_path(json_path, "replay").write_bytes(b"")


def _steps(run: RunDir) -> list[int]:
    return [step for step, _ in find_checkpoints(run.checkpoints)]


def test_rotation_keeps_the_newest_and_where_an_earlier_session_stopped(tmp_path):
    run = RunDir(tmp_path / "run")
    for step in (1000, 2000, 3000, 3417, 4000, 5000, 6000, 7000):  # 3,417: a session ran out of time there
        _write(run, step)
        run.prune(3, every=1000)
    assert _steps(run) == [3417, 5000, 6000, 7000]
    assert not list(run.checkpoints.glob("step_00001000*"))  # rotated away whole, weights too


def test_without_the_interval_only_the_newest_are_kept(tmp_path):
    run = RunDir(tmp_path / "run")
    for step in (1000, 2000, 3417, 4000):
        _write(run, step)
    run.prune(2)
    assert _steps(run) == [3417, 4000]
    run.prune(1, every=1000)
    assert _steps(run) == [3417, 4000]  # the stop point stays, the newest is the one kept
    run.prune(0, every=1000)
    assert _steps(run) == [3417, 4000]  # 0 keeps everything


def test_only_the_newest_keeps_its_replay(tmp_path):
    run = RunDir(tmp_path / "run")
    for step in (1000, 1500, 2000):
        _write(run, step, replay=True)
    run.prune(0, every=500)
    replays = sorted(p.name for p in run.checkpoints.glob("*.replay.safetensors"))
    assert replays == ["step_00002000.replay.safetensors"]
