"""Every move a person makes is in the SQLite file at the moment the server answers, not after.

FastAPI's test client waits for background work before it hands back a response, which hides a write made
after the answer. Here the app is wrapped so that the stored actions are read, through a connection of
their own, at the very moment the answer's body is sent.
"""

from __future__ import annotations

import json
import sqlite3

from fastapi.testclient import TestClient

from boardzero.web.app import create_app
from tests.web.conftest import auth, make_config


class StoredAtAnswer:
    """ASGI wrapper: when a successful answer to ``POST /api/games/{id}/actions`` is sent, note what the file
    holds of that game right then (``seen``: the answer's version, the stored move count and actions)."""

    def __init__(self, app, db):
        self.app, self.db = app, db
        self.seen: list[dict] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].endswith("/actions"):
            return await self.app(scope, receive, send)
        game_id = scope["path"].split("/")[3]
        status = {}

        async def checking_send(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            elif message["type"] == "http.response.body" and status.get("code") == 200:
                answer = json.loads(message["body"])
                with sqlite3.connect(self.db) as db:
                    moves = db.execute("SELECT moves FROM games WHERE id = ?", (game_id,)).fetchone()[0]
                    actions = [
                        a
                        for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,))
                    ]
                self.seen.append({"version": answer["version"], "moves": moves, "actions": actions})
            await send(message)

        return await self.app(scope, receive, checking_send)


def test_each_move_is_stored_before_its_answer_is_sent(tmp_path):
    db = tmp_path / "games.sqlite"
    app = StoredAtAnswer(create_app(make_config(db)), db)
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "human"]}).json()
        game_id, played = created["id"], []
        for seat, cell in ((0, 4), (1, 0), (0, 8), (1, 2)):
            response = client.post(
                f"/api/games/{game_id}/actions",
                json={"seat": seat, "action": cell},
                headers=auth(created["tokens"][str(seat)]),
            )
            assert response.status_code == 200, response.text
            played.append(cell)
            seen = app.seen[-1]
            assert seen == {"version": len(played), "moves": len(played), "actions": played}, seen
        refused = client.post(
            f"/api/games/{game_id}/actions", json={"seat": 0, "action": 4}, headers=auth(created["tokens"]["0"])
        )
        assert refused.status_code in (409, 422)
    assert len(app.seen) == 4
    with sqlite3.connect(db) as stored:  # the refused move left nothing behind
        assert [a for (a,) in stored.execute("SELECT action FROM actions ORDER BY ply")] == played
