"""Smoke tests of every command with tiny budgets, through the real console entry point."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import boardzero

CONFIG = str(Path(__file__).resolve().parents[2] / "configs" / "connect4.toml")
DOCS = str(Path(__file__).resolve().parents[2] / "docs")  # a directory, wherever pytest runs from


def run_cli(*args, stdin: str = "", timeout: float = 300):
    return subprocess.run(
        [sys.executable, "-m", "boardzero.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_help_lists_the_commands():
    out = run_cli("--help").stdout
    for command in ("games", "arena", "simulate", "play", "bench"):
        assert command in out


def test_games_lists_options():
    out = run_cli("games").stdout
    assert "connect4" in out and "kuhn_poker" in out and "players" in out


def test_arena_json_reports_every_agent():
    proc = run_cli("arena", "connect4", "greedy", "random", "-n", "6", "--json", "-w", "2")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["games"] == 6 and [a["spec"] for a in data["agents"]] == ["greedy", "random"]
    for agent in data["agents"]:
        assert agent["wins"] + agent["draws"] + agent["losses"] == 6
        assert set(agent) >= {"spec", "games", "wins", "draws", "losses", "win_rate", "win_rate_ci95", "by_seat"}
    assert len(data["records"]) == 6 and data["records"][0]["index"] == 0


def test_arena_with_a_time_limit_says_how_many_games_of_how_many_it_played():
    proc = run_cli("arena", "connect4", "greedy", "random", "-n", "500", "-w", "1", "--minutes", "0.000001")
    assert proc.returncode == 0, proc.stderr
    assert "connect4 — 1 of 500 games (stopped after 1e-06 min), seats rotated" in proc.stdout
    proc = run_cli("arena", "connect4", "random", "-n", "5", "--minutes", "0")
    assert proc.returncode != 0 and "--minutes" in proc.stderr and "> 0" in proc.stderr


def test_simulate_defaults_to_random_players():
    proc = run_cli("simulate", "kuhn_poker", "-n", "5", "-w", "1")
    assert proc.returncode == 0 and "random" in proc.stdout
    assert "game length in moves: mean" in proc.stdout and "10-90 %" in proc.stdout and "range" in proc.stdout


def test_arena_records_refuse_a_file_with_games_unless_told_to_append(tmp_path):
    path = tmp_path / "games.jsonl"
    assert (
        run_cli("arena", "connect4", "greedy", "random", "-n", "2", "-w", "1", "--records", str(path)).returncode == 0
    )
    before = path.read_text()
    assert len(before.splitlines()) == 2
    proc = run_cli("simulate", "connect4", "-n", "3", "-w", "1", "--records", str(path))
    assert proc.returncode != 0 and "--records" in proc.stderr and "--append" in proc.stderr
    assert path.read_text() == before
    proc = run_cli("arena", "connect4", "greedy", "random", "-n", "3", "-w", "1", "--records", str(path), "--append")
    assert proc.returncode == 0, proc.stderr
    assert path.read_text().startswith(before) and len(path.read_text().splitlines()) == 5


@pytest.mark.parametrize(
    "args,message",
    [
        (("arena", "connect4", "nosuchagent", "random", "-n", "2"), "unknown agent 'nosuchagent'"),
        (("arena", "nosuchgame", "random"), "unknown game 'nosuchgame'"),
        (("arena", "kuhn_poker", "random", "-o", "players=9"), "players: 9 is not allowed"),
        (("arena", "connect4", "random", "-o", "rows"), "expected KEY=VALUE"),
        (("play", "connect4", "--seat", "5"), "--seat: must be 0..1"),
        (("arena", "connect4", "random", "-n", "5", "--seed", "-1"), "--seed: must be >= 0, got -1"),
        (("arena", "connect4", "random", "-n", "0"), "--games: must be >= 1, got 0"),
        (("arena", "connect4", "random", "-w", "0"), "--workers: must be >= 1, got 0"),
        (("simulate", "kuhn_poker", "-n", "3", "--seed", "-5"), "--seed: must be >= 0, got -5"),
        (("play", "connect4", "--watch", "--against", "random", "--delay", "-1"), "--delay: must be >= 0, got -1"),
        (("play", "connect4", "--against", "random", "--seed", "-1"), "--seed: must be >= 0, got -1"),
        (("accuracy", "tictactoe", "random", "-n", "0"), "--positions: must be >= 1, got 0"),
        (
            ("arena", "connect4", "random", "-n", "2", "--records", DOCS, "--append"),
            f"--records: {DOCS} is a directory",
        ),
        (("simulate", "connect4", "-n", "2", "--records", DOCS), f"--records: {DOCS} is a directory"),
        (("accuracy", "tictactoe", "random", "--seed", "-1"), "--seed: must be >= 0, got -1"),
        (("accuracy", "tictactoe", "random", "--min-ply", "-2"), "--min-ply: must be >= 0, got -2"),
        (("train", "connect4", "-c", CONFIG, "-r", "runs/never", "--steps", "0"), "--steps: must be >= 1, got 0"),
        (("train", "connect4", "-c", CONFIG, "-r", "runs/never", "--minutes", "-1"), "--minutes: must be > 0, got -1"),
        (("train", "connect4", "-c", CONFIG, "-r", "runs/never", "--actors", "0"), "--actors: must be >= 1, got 0"),
        (
            ("train", "connect4", "-c", CONFIG, "-r", "runs/never", "--set", "train.lrr=0.1"),
            "train.lrr: unknown field; allowed:",
        ),
        (
            ("train", "connect4", "-c", CONFIG, "-r", "runs/never", "--set", "lr"),
            "--set: 'lr' is not of the form section.field=value",
        ),
    ],
)
def test_bad_input_is_one_clear_line_and_a_nonzero_exit(args, message):
    proc = run_cli(*args)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_train_set_changes_config_fields_and_the_run_records_them(tmp_path):
    config = tmp_path / "td.toml"
    config.write_text('method = "td"\ngame = "tictactoe"\n[network]\nhidden = 16\nblocks = 1\n[train]\nlr = 0.001\n')
    run = tmp_path / "run"
    proc = run_cli(
        "train",
        "tictactoe",
        "-c",
        str(config),
        "-r",
        str(run),
        "--steps",
        "2",
        "--set",
        "train.lr=0.0002",
        "--set",
        "train.batch_size=8",
        "--set",
        "train.min_replay=16",
        "--set",
        "selfplay.games_per_actor=4",
        "--set",
        "eval.every=0",
    )
    assert proc.returncode == 0, proc.stderr
    recorded = json.loads((run / "config.json").read_text())
    assert recorded["train"]["lr"] == 0.0002 and recorded["train"]["batch_size"] == 8
    assert recorded["selfplay"]["games_per_actor"] == 4 and recorded["network"]["hidden"] == 16
    text = (run / "config.toml").read_text()
    assert text.startswith(config.read_text()) and "#   --set train.lr=0.0002\n" in text


def test_play_takes_moves_from_standard_input_and_answers_bad_input():
    moves = "hello\n42\ncolumn 3\n" + "3\n" * 3 + "q\n"
    proc = run_cli("play", "connect4", "--against", "random", "--seed", "1", stdin=moves)
    assert proc.returncode == 0, proc.stderr
    assert "'hello' is not a move here" in proc.stdout
    assert "no move has the number 42" in proc.stdout
    assert "seat 1 (random) plays" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_play_a_whole_game_to_the_end():
    # tic-tac-toe against random: keep offering every cell; illegal ones are refused and re-prompted
    proc = run_cli(
        "play", "tictactoe", "--against", "random", "--seed", "2", stdin="".join(f"{c}\n" for c in range(9)) * 2
    )
    assert proc.returncode == 0, proc.stderr
    assert "result:" in proc.stdout


def test_watch_mode_plays_agents_against_each_other():
    proc = run_cli("play", "kuhn_poker", "--watch", "--against", "random", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert "result:" in proc.stdout and "seat 0 is dealt" in proc.stdout


def test_version():
    proc = run_cli("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"boardzero {boardzero.__version__}"


def test_agents_lists_every_agent_with_its_options():
    out = run_cli("agents").stdout
    names = subprocess.run(
        [sys.executable, "-c", "from boardzero.agents.registry import agent_names; print(*agent_names())"],
        capture_output=True,
        text=True,
    ).stdout.split()
    assert "best" in names and "heuristic" in names  # the built-in ones, not those other tests registered
    for name in names:
        assert f"{name}: " in out
    assert "simulations per move" in out and "temperature" in out


@pytest.mark.parametrize("command", [(), ("play",), ("arena",), ("accuracy",), ("simulate",)])
def test_flags_in_help_do_not_look_like_they_take_a_value(command):
    out = run_cli(*command, "--help").stdout
    flags = [line for line in out.splitlines() if re.search(r"--(help|json|watch|version)\b", line)]
    assert flags
    for line in flags:
        assert not re.search(r"--(help|json|watch|version)\s+(<\w+>|BOOLEAN|TEXT)", line), line


def test_compare_pairs_two_matches_game_by_game(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for agent, path in (("greedy", a), ("random", b)):
        proc = run_cli("arena", "tictactoe", agent, "solver", "-n", "4", "-w", "1", "--records", str(path))
        assert proc.returncode == 0, proc.stderr
    out = json.loads(run_cli("compare", str(a), str(b), "--json").stdout)
    assert (out["a"]["agent"], out["b"]["agent"], out["games"]) == ("greedy", "random", 4)
    assert out["a"]["wins"] == out["b"]["wins"] == 0  # nobody beats the solver
    proc = run_cli("compare", str(a), str(tmp_path / "missing.jsonl"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr
