"""A real server stops on SIGTERM while an agent is deep in a search, and the game it was thinking in goes on
after a restart."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

from tests.web.live_server import LiveServer, call  # noqa: E402

# The server promises to stop within 5 s of SIGTERM whatever its agents compute. This is a behaviour, not a
# speed: the agent below would search for many minutes, so a server that waits for it never exits. The test
# allows 30 s so that a loaded machine cannot fail it, and still tells a stopping server from a hung one.
STOP_ALLOWANCE = 30.0


def test_sigterm_stops_the_server_while_an_agent_thinks(tmp_path):
    server = LiveServer(tmp_path / "games.sqlite", "--delay", "0", "--max-sims", "1000000000", "--move-seconds", "600")
    server.start()
    try:
        quick = call(server.url + "/api/games", "POST", {"game": "tictactoe", "seats": ["random", "random"]})
        _wait(server.url, quick["id"], lambda snap: snap["over"])  # the workers are up and have played
        created = call(
            server.url + "/api/games",
            "POST",
            {"game": "connect4", "seats": ["mcts:sims=500000000", "human"], "seed": 1},
        )
        assert call(f"{server.url}/api/games/{created['id']}")["pending"] == {"kind": "agent", "seat": 0}
        time.sleep(2.0)  # the agent is searching
        assert call(f"{server.url}/api/games/{created['id']}")["version"] == 0  # and still is
        server.process.send_signal(signal.SIGTERM)
        asked = time.monotonic()
        try:
            server.process.wait(STOP_ALLOWANCE)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server did not stop within {STOP_ALLOWANCE} s of SIGTERM")
        print(f"stopped {time.monotonic() - asked:.2f} s after SIGTERM")
        log = server.log.read_text()
        # uvicorn raises the signal it caught again once it has shut down cleanly: -SIGTERM is a clean exit
        assert server.process.returncode in (0, -signal.SIGTERM) and "Traceback" not in log, log[-2000:]
    finally:
        server.kill()
    with LiveServer(
        tmp_path / "games.sqlite", "--delay", "0", "--max-sims", "1000000000", "--move-seconds", "0.5"
    ) as again:  # the game resumes; this time its agent is stopped quickly
        snap = _wait(again.url, created["id"], lambda snap: snap["version"] > 0)
        assert snap["overruns"] == 1 and snap["pending"] == {"kind": "human", "seat": 1}
    assert "played the random legal move" in server.log.read_text()


def _wait(url: str, game_id: str, until, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while not until(snap := call(f"{url}/api/games/{game_id}")):
        assert time.monotonic() < deadline, f"timed out waiting; pending {snap['pending']}"
        time.sleep(0.1)
    return snap
