"""Smoke tests of tournament, replay and report through the console entry point, and the replay stepper."""

import io
import json
import re

from boardzero.cli.replay import Replay, interactive
from boardzero.play.records import read_records
from tests.cli.test_cli import run_cli


def test_tournament_resume_replay_and_report(tmp_path):
    out, records = tmp_path / "t.json", tmp_path / "t.jsonl"
    args = (
        "tournament",
        "tictactoe",
        "random",
        "greedy",
        "mcts:sims=4",
        "-n",
        "2",
        "-w",
        "1",
        "--out",
        str(out),
        "--records",
        str(records),
    )
    proc = run_cli(*args)
    assert proc.returncode == 0, proc.stderr
    assert "mean reward, row against column" in proc.stdout and "random = 0" in proc.stdout
    assert len(read_records(records)) == 6 and len(json.loads(out.read_text())["games"]) == 6

    again = run_cli(*args, "--json")
    assert again.returncode == 0, again.stderr
    assert "6 games already played; 0 to play" in again.stderr
    assert json.loads(again.stdout)["games"] == 6 and len(read_records(records)) == 6

    shown = run_cli("replay", str(records), "--game", "1", "--print")
    assert shown.returncode == 0, shown.stderr
    steps = len(read_records(records)[1]["actions"])
    assert sum(bool(re.match(r"\s+\d+\. seat \d \(", line)) for line in shown.stdout.splitlines()) == steps
    assert f"{steps:>5}. seat" in shown.stdout and "result:" in shown.stdout

    drawn = run_cli("report", str(out))
    assert drawn.returncode == 0, drawn.stderr
    assert {line.rsplit("/", 1)[-1] for line in drawn.stdout.split()} >= {"matrix.png", "ratings.png", "report.md"}

    bad = run_cli("replay", str(records), "--game", "9")
    assert bad.returncode != 0 and "holds games 0..5, not 9" in bad.stderr and "Traceback" not in bad.stderr


def test_replay_steps_forward_and_back(tmp_path):
    from boardzero.eval.arena import run_arena

    path = tmp_path / "g.jsonl"
    run_arena("connect4", ["greedy", "random"], num_games=1, workers=1, records=path)
    record = read_records(path)[0]
    shown = Replay(record)
    assert shown.steps == len(record["actions"]) and shown.positions[-1].history == record["actions"]
    assert [p.history for p in shown.positions] == [record["actions"][:k] for k in range(shown.steps + 1)]
    screen = io.StringIO()
    interactive(shown, io.StringIO("n\nn\nb\n5\ne\nq\n"), screen)
    frames = screen.getvalue().split("\x1b[2J\x1b[H")[1:]
    assert [f"step {k} of {shown.steps}" in frame for frame, k in zip(frames, [0, 1, 2, 1, 5])] == [True] * 5
    assert "result: seat" in frames[5]


def test_help_lists_the_evaluation_commands():
    out = run_cli("--help").stdout
    for command in ("tournament", "ratings", "replay", "report"):
        assert command in out
