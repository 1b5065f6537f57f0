"""``boardzero serve`` as a real process: it answers on 127.0.0.1, serves the page and refuses bad flags."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

from tests.web.live_server import LiveServer, call  # noqa: E402


def test_serve_answers_on_localhost_and_plays(tmp_path):
    with LiveServer(tmp_path / "games.sqlite", "--delay", "0") as server:
        assert "catan" in [g["name"] for g in call(server.url + "/api/meta")["games"]]
        created = call(server.url + "/api/games", "POST", {"game": "tictactoe", "seats": ["random", "random"]})
        deadline = time.monotonic() + 120  # the first agent move waits for the workers' fork server to start
        while not (snap := call(f"{server.url}/api/games/{created['id']}"))["over"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert snap["over"] and 5 <= snap["version"] <= 9
    log = (tmp_path / "games.log").read_text()
    assert f"open http://127.0.0.1:{server.port}/" in log and str(tmp_path / "games.sqlite") in log


def test_serve_refuses_a_bad_default_opponent_at_start(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardzero.cli.main",
            "serve",
            "--db",
            str(tmp_path / "g.sqlite"),
            "--opponent",
            "catan=nosuchbot",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "unknown agent 'nosuchbot'" in result.stderr


def test_serve_help_names_every_limit_and_a_bad_models_directory_is_refused(tmp_path):
    from typer.testing import CliRunner

    from boardzero.cli.main import app

    shown = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    for flag in (
        "--idle-minutes",
        "--max-sims",
        "--max-depth",
        "--max-width",
        "--move-seconds",
        "--models",
        "--max-games",
    ):
        assert flag in shown.output, flag
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardzero.cli.main",
            "serve",
            "--db",
            str(tmp_path / "g.sqlite"),
            "--models",
            str(tmp_path / "missing"),
            "--port",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "is not a directory" in result.stderr
