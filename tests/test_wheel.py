"""The package a user installs: ``python -m build`` makes a wheel that, installed into a clean virtualenv away
from the source tree, plays ``best`` for every game and serves the web page.

What it catches: a shipped model, a static file or a data file left out of the wheel's package data, an import
of something under ``tests/`` or the source tree, a dependency missing from ``pyproject.toml``. Slow (it builds
the wheel and installs its dependencies into a new environment): ``make test-all``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WHEELS = Path(os.environ.get("BOARDZERO_WHEELS", ROOT.parent / "shared" / "wheels"))

pytestmark = pytest.mark.slow


def run(*command: str | Path, cwd: Path, timeout: float = 1800) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The virtualenv's bin folder, with only the built wheel (and its dependencies) installed."""
    work = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "build", "--wheel", "--outdir", work / "dist", ROOT, cwd=work)
    (wheel,) = (work / "dist").glob("boardzero-*.whl")
    run(sys.executable, "-m", "venv", work / "venv", cwd=work)
    bin_dir = work / "venv" / "bin"
    run(bin_dir / "pip", "install", "--quiet", "--disable-pip-version-check", f"{wheel}[web]", cwd=work)
    return bin_dir


def test_the_wheel_holds_no_source_tree_path(installed):
    where = run(installed / "python", "-c", "import boardzero; print(boardzero.__file__)", cwd=installed.parent)
    assert "site-packages" in where and str(ROOT / "src") not in where


@pytest.mark.parametrize(
    "game, players",
    [("tictactoe", None), ("connect4", None), ("kuhn_poker", None), ("catan", 2), ("catan", 3), ("catan", 4)],
)
def test_best_plays_every_game_from_the_wheel(installed, tmp_path, game, players):
    command = [installed / "boardzero", "arena", game, "best", "random", "-n", "1", "-w", "1", "--seed", "0", "--json"]
    if players:
        command += ["-p", str(players)]
    result = json.loads(run(*command, cwd=tmp_path).strip().splitlines()[-1])
    assert result["games"] == 1 and result["game"] == game


def test_the_wheel_serves_the_page(installed, tmp_path):
    port = 18000 + os.getpid() % 1000
    server = subprocess.Popen(
        [
            installed / "boardzero",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            tmp_path / "games.sqlite",
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        page = meta = None
        for _ in range(120):
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
                meta = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=5).read())
                break
            except OSError:
                time.sleep(0.5)
        assert page is not None, "the installed server never answered"
        assert "<html" in page.lower()
        assert {"catan", "connect4"} <= set(json.dumps(meta).split('"'))
        for asset in ("app.js", "style.css", "catan.js"):
            assert urllib.request.urlopen(f"http://127.0.0.1:{port}/static/{asset}", timeout=5).status == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
