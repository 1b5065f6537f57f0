"""The games file: every move a person makes is in it at the moment the server answers, not after; and the
store itself keeps each game's setup, actions and status, ends only live games, lists and migrates.

FastAPI's test client waits for background work before it hands back a response, which hides a write made
after the answer. Here the app is wrapped so that the stored actions are read, through a connection of
their own, at the very moment the answer's body is sent.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from fastapi.testclient import TestClient

import boardzero.web.store as store_module
from boardzero.core.errors import ConfigError
from boardzero.web.app import create_app
from boardzero.web.store import GameStore
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


# ------------------------------------------------------------------ the store itself
class Clock:
    """Stands in for the store's wall clock: ``now`` seconds, moved by hand."""

    def __init__(self, now: float = 1000.0):
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(store_module, "time", clock)
    return clock


def _create(store, game_id, seats=("human", "random")):
    store.create(game_id, "tictactoe", {"size": 3}, 7, list(seats), {"0": "ab", "host": "cd"}, 0.5)


def test_a_stored_game_comes_back_with_its_setup_and_actions_in_order(tmp_path, clock):
    store = GameStore(tmp_path / "deeper" / "still" / "games.sqlite")  # the folder is made
    _create(store, "g1")
    clock.now = 1005.0
    store.append("g1", 0, 4, over=False, returns=None)
    store.append("g1", 1, 0, over=False, returns=None)
    store.close()
    loaded = GameStore(tmp_path / "deeper" / "still" / "games.sqlite").load("g1")
    assert loaded.actions == [4, 0]
    assert loaded.summary() == {
        "id": "g1",
        "game": "tictactoe",
        "options": {"size": 3},
        "seats": ["human", "random"],
        "moves": 2,
        "over": False,
        "status": "live",
        "returns": None,
        "created": 1000.0,
        "updated": 1005.0,
    }
    assert (loaded.seed, loaded.token_hashes, loaded.delay) == (7, {"0": "ab", "host": "cd"}, 0.5)
    assert GameStore(tmp_path / "deeper" / "still" / "games.sqlite").load("nothing") is None


def test_the_last_action_finishes_the_game_with_its_returns(tmp_path, clock):
    store = GameStore(tmp_path / "games.sqlite")
    _create(store, "g1")
    store.append("g1", 0, 4, over=True, returns=[1.0, -1.0])
    loaded = store.load("g1")
    assert (loaded.over, loaded.status, loaded.returns, loaded.moves) == (True, "finished", [1.0, -1.0], 1)
    assert store.count_live() == 0 and store.end("g1", "abandoned", None) is False


def test_an_action_refused_by_the_file_changes_nothing(tmp_path, clock):
    store = GameStore(tmp_path / "games.sqlite")
    _create(store, "g1")
    store.append("g1", 0, 4, over=False, returns=None)
    clock.now = 2000.0
    with pytest.raises(sqlite3.IntegrityError):
        store.append("g1", 0, 5, over=True, returns=[1.0, -1.0])  # ply 0 is taken
    loaded = store.load("g1")
    assert (loaded.actions, loaded.moves, loaded.status, loaded.updated) == ([4], 1, "live", 1000.0)
    store.append("g1", 1, 5, over=False, returns=None)  # and the store goes on
    assert store.load("g1").actions == [4, 5]


def test_only_a_live_game_ends_and_only_with_a_known_status(tmp_path, clock):
    store = GameStore(tmp_path / "games.sqlite")
    _create(store, "g1")
    with pytest.raises(ValueError, match="status must be one of .*'finished'.*got 'paused'"):
        store.end("g1", "paused", None)
    assert store.load("g1").status == "live"
    clock.now = 1500.0
    assert store.end("g1", "resigned", [0.0, 1.0]) is True
    loaded = store.load("g1")
    assert (loaded.status, loaded.returns, loaded.updated, loaded.over) == ("resigned", [0.0, 1.0], 1500.0, False)
    assert store.end("g1", "expired", None) is False  # already ended: nothing changes
    assert store.load("g1").status == "resigned" and store.load("g1").returns == [0.0, 1.0]
    _create(store, "g2")
    assert store.end("g2", "abandoned", None) is True and store.load("g2").returns is None


def test_seats_and_delay_change_and_a_change_counts_as_activity(tmp_path, clock):
    store = GameStore(tmp_path / "games.sqlite")
    _create(store, "g1")
    _create(store, "g2")
    clock.now = 1100.0
    store.set_seats("g1", ["random", "random"], {"host": "ef"})
    store.set_delay("g2", 2.5)
    one, two = store.load("g1"), store.load("g2")
    assert (one.seats, one.token_hashes, one.updated) == (["random", "random"], {"host": "ef"}, 1100.0)
    assert (two.delay, two.updated, two.seats) == (2.5, 1000.0, ["human", "random"])  # a delay is no move
    assert store.idle_since(1100.0) == ["g2"]  # strictly older than the time given
    assert sorted(store.idle_since(1100.5)) == ["g1", "g2"]
    store.end("g2", "expired", None)
    assert store.idle_since(5000.0) == ["g1"]  # an ended game is never idle


def test_games_are_listed_newest_first_and_filtered_by_whether_they_go_on(tmp_path, clock):
    store = GameStore(tmp_path / "games.sqlite")
    for number in range(4):
        clock.now = 1000.0 + number
        _create(store, f"g{number}")
    store.end("g1", "abandoned", None)
    store.append("g2", 0, 4, over=True, returns=[1.0, -1.0])
    assert [g.id for g in store.games()] == ["g3", "g2", "g1", "g0"]
    assert [g.id for g in store.games(limit=2)] == ["g3", "g2"]
    assert [g.id for g in store.games(live=True)] == ["g3", "g0"]
    assert [g.id for g in store.games(live=False)] == ["g2", "g1"]
    assert store.count_live() == 2
    assert all(g.actions is None for g in store.games())  # a listing leaves the actions out


def test_a_listing_holds_the_newest_200_games_by_default():
    store = GameStore(":memory:")
    for number in range(201):
        _create(store, f"g{number:03d}")
    listed = store.games()
    assert len(listed) == 200 and store.count_live() == 201


def test_a_fresh_file_has_the_current_schema_and_a_newer_one_is_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    GameStore(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION == 1
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        db.execute(f"PRAGMA user_version = {store_module.SCHEMA_VERSION + 1}")
    with pytest.raises(ConfigError, match=r"^db: .*games.sqlite was written by a newer boardzero \(schema 2; this"):
        GameStore(path)
    assert GameStore(":memory:").count_live() == 0  # an in-memory store makes no folder


def test_a_file_from_before_status_is_migrated(tmp_path):
    path = tmp_path / "games.sqlite"
    old_schema = """
    CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,
        seats TEXT NOT NULL, token_hashes TEXT NOT NULL, delay REAL NOT NULL, created REAL NOT NULL,
        updated REAL NOT NULL, moves INTEGER NOT NULL DEFAULT 0, over INTEGER NOT NULL DEFAULT 0, returns TEXT);
    CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
        action INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
    """  # schema 0: a game had only ``over``
    with sqlite3.connect(path) as db:
        db.executescript(old_schema)
        for gid, over in (("done", 1), ("going", 0)):
            db.execute(
                "INSERT INTO games (id, game, options, seed, seats, token_hashes, delay, created, updated, over)"
                " VALUES (?, 'tictactoe', '{}', 1, '[]', '{}', 0, 1, 1, ?)",
                (gid, over),
            )
    store = GameStore(path)
    assert (store.load("done").status, store.load("going").status) == ("finished", "live")
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_a_version_0_file_that_already_has_status_is_migrated(tmp_path):
    path = tmp_path / "games.sqlite"
    GameStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO games (id, game, options, seed, seats, token_hashes, delay, created, updated, over, status)"
            " VALUES ('done', 'tictactoe', '{}', 1, '[]', '{}', 0, 1, 1, 1, 'live')"
        )
        db.execute("PRAGMA user_version = 0")  # the column is there, the version says it is not
    store = GameStore(path)
    assert store.load("done").status == "finished"
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
