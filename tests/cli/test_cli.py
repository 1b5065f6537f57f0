"""Smoke tests of every command with tiny budgets, through the real console entry point."""

import json
import subprocess
import sys

import pytest


def run_cli(*args, stdin: str = "", timeout: float = 300):
    return subprocess.run([sys.executable, "-m", "boardzero.cli.main", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


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


def test_simulate_defaults_to_random_players():
    proc = run_cli("simulate", "kuhn_poker", "-n", "5", "-w", "1")
    assert proc.returncode == 0 and "random" in proc.stdout and "mean game length" in proc.stdout


@pytest.mark.parametrize("args,message", [
    (("arena", "connect4", "nosuchagent", "random", "-n", "2"), "unknown agent 'nosuchagent'"),
    (("arena", "nosuchgame", "random"), "unknown game 'nosuchgame'"),
    (("arena", "kuhn_poker", "random", "-o", "players=9"), "players: 9 is not allowed"),
    (("arena", "connect4", "random", "-o", "rows"), "expected KEY=VALUE"),
    (("play", "connect4", "--seat", "5"), "--seat: must be 0..1"),
])
def test_bad_input_is_one_clear_line_and_a_nonzero_exit(args, message):
    proc = run_cli(*args)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_play_takes_moves_from_standard_input_and_answers_bad_input():
    moves = "hello\n42\ncolumn 3\n" + "3\n" * 3 + "q\n"
    proc = run_cli("play", "connect4", "--against", "random", "--seed", "1", stdin=moves)
    assert proc.returncode == 0, proc.stderr
    assert "'hello' is not a legal move" in proc.stdout
    assert "42 is not a legal move now" in proc.stdout
    assert "seat 1 (random) plays" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_play_a_whole_game_to_the_end():
    # tic-tac-toe against random: keep offering every cell; illegal ones are refused and re-prompted
    proc = run_cli("play", "tictactoe", "--against", "random", "--seed", "2", stdin="".join(f"{c}\n" for c in range(9)) * 2)
    assert proc.returncode == 0, proc.stderr
    assert "result:" in proc.stdout


def test_watch_mode_plays_agents_against_each_other():
    proc = run_cli("play", "kuhn_poker", "--watch", "--against", "random", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert "result:" in proc.stdout and "chance: deal" in proc.stdout
