"""A test server: the FastAPI app on a temporary SQLite file, with quick agents and no delay."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
try:
    import httpx2  # noqa: F401  (what the test client uses)
except ImportError:
    pytest.importorskip("httpx", reason="FastAPI's test client needs httpx2 (or httpx)")

from fastapi.testclient import TestClient  # noqa: E402

from boardzero.web.app import create_app  # noqa: E402
from boardzero.web.config import ServerConfig  # noqa: E402

QUICK_OPPONENTS = {"catan": "random", "connect4": "random", "tictactoe": "random", "kuhn_poker": "random"}


def make_config(db, **overrides) -> ServerConfig:
    settings = {"db": db, "bot_delay": 0.0, "opponents": QUICK_OPPONENTS, "hint_agent": {"*": "mcts:sims=20"}}
    settings.update(overrides)
    return ServerConfig(**settings)


@pytest.fixture
def server(tmp_path):
    """A running app and its client; ``server.restart(**overrides)`` starts a new app on the same file."""
    holder = Server(tmp_path / "games.sqlite")
    yield holder
    holder.close()


class Server:
    def __init__(self, db, **overrides):
        self.db = db
        self.client = None
        self.start(**overrides)

    def start(self, **overrides):
        self.config = make_config(self.db, **overrides)
        self.app = create_app(self.config)
        self.client = TestClient(self.app).__enter__()

    def restart(self, **overrides):
        self.close()
        self.start(**overrides)

    def close(self):
        if self.client is not None:
            self.client.__exit__(None, None, None)
            self.client = None

    # -------------------------------------------------------------- helpers for tests
    def create(self, game, seats, **body):
        response = self.client.post("/api/games", json={"game": game, "seats": seats, **body})
        assert response.status_code == 201, response.text
        return response.json()

    def state(self, game_id, seat=None, token=None, since=0):
        query = f"?since={since}" + ("" if seat is None else f"&seat={seat}")
        response = self.client.get(f"/api/games/{game_id}{query}", headers=auth(token))
        assert response.status_code == 200, response.text
        return response.json()

    def act(self, game_id, seat, token, action):
        return self.client.post(
            f"/api/games/{game_id}/actions", json={"seat": seat, "action": action}, headers=auth(token)
        )

    def wait(self, game_id, until, seat=None, token=None, timeout=60.0, since=0):
        """Poll until ``until(snapshot)`` holds; returns that snapshot (its log from ``since``)."""
        deadline = time.monotonic() + timeout
        while True:
            snap = self.state(game_id, seat, token, since)
            if until(snap):
                return snap
            assert time.monotonic() < deadline, f"timed out waiting; pending {snap['pending']}"
            time.sleep(0.02)


def auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def my_turn(seat):
    return lambda snap: snap["over"] or (snap["pending"]["kind"] == "human" and snap["pending"]["seat"] == seat)
