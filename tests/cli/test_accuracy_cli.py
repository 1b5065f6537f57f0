"""``boardzero accuracy`` with a tiny budget."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from boardzero.cli.main import app
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.eval.accuracy import move_accuracy


def test_accuracy_json_and_cache(tmp_path):
    cache = tmp_path / "positions.json"
    runner = CliRunner()
    args = ["accuracy", "tictactoe", "random", "solver", "-n", "15", "--cache", str(cache), "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout.strip().splitlines()[-1])
    assert data["positions"] == 15 and [a["agent"] for a in data["agents"]] == ["random", "solver"]
    assert data["agents"][1]["accuracy"] == 1.0
    assert cache.exists()
    again = runner.invoke(app, args)
    assert json.loads(again.stdout.strip().splitlines()[-1]) == data


def test_accuracy_refuses_unsolved_games():
    result = CliRunner().invoke(app, ["accuracy", "kuhn_poker", "random"])
    assert result.exit_code != 0
    assert "needs an exact solver; solved games: connect4, tictactoe" in str(result.exception)


def test_accuracy_shows_progress_while_solving_and_scoring():
    result = CliRunner().invoke(app, ["accuracy", "tictactoe", "random", "-n", "12"])
    assert result.exit_code == 0, result.output
    assert "drawing and solving tictactoe positions" in result.stderr and "12/12 positions" in result.stderr
    assert "scoring random" in result.stderr


def test_zero_positions_is_refused_not_nan():
    result = CliRunner().invoke(app, ["accuracy", "tictactoe", "random", "-n", "0"])
    assert result.exit_code != 0 and "--positions: must be >= 1, got 0" in str(result.exception)
    with pytest.raises(ConfigError, match="no test positions"):
        move_accuracy("random", make("tictactoe"), [])


def test_per_group_draws_a_test_set_and_reports_every_group(tmp_path):
    cache = tmp_path / "testset.json"
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "accuracy",
            "tictactoe",
            "solver",
            "random",
            "--per-group",
            "2",
            "--seed",
            "3",
            "--cache",
            str(cache),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    saved = json.loads(cache.read_text())
    assert saved["about"]["per_group"] == 2 and saved["about"]["seed"] == 3
    assert data["positions"] == len(saved["positions"])
    solver, random = data["agents"]
    assert solver["by_group"]["all/all"] == {
        "correct": data["positions"],
        "positions": data["positions"],
        "accuracy": 1.0,
        "interval": solver["interval"],
    }
    for record in saved["positions"]:  # every group a position is in is reported
        for key in (
            f"{record['phase']}/{record['difficulty']}",
            f"{record['phase']}/all",
            f"all/{record['difficulty']}",
        ):
            assert key in random["by_group"] and random["by_group"][key]["positions"] <= 6
    table = runner.invoke(app, ["accuracy", "tictactoe", "random", "--cache", str(cache), "--first", "5"])
    assert table.exit_code == 0, table.output
    assert "all/all" in table.stdout and "5 positions" in table.stdout  # the group table follows the main one


def test_per_group_refuses_ply_limits():
    result = CliRunner().invoke(app, ["accuracy", "tictactoe", "random", "--per-group", "2", "--min-ply", "3"])
    assert result.exit_code != 0 and "--min-ply and --max-ply apply to -n" in str(result.exception)
