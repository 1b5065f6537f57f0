"""``boardzero accuracy`` with a tiny budget."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from boardzero.cli.main import app


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
