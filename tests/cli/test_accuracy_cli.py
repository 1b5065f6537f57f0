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
