"""How games end besides being played out: resignation, abandonment, expiry; what an ended game still offers,
what the live-game limit counts, and an older games file migrated without losing a game."""

from __future__ import annotations

import sqlite3
import time

from tests.web.conftest import auth, my_turn


def _post(server, game_id, what, token, body=None):
    return server.client.post(f"/api/games/{game_id}/{what}", json=body, headers=auth(token))


def _status(server, game_id):
    with sqlite3.connect(server.db) as db:
        return db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]


def _refused_as_ended(server, game_id, seat, token, how):
    response = server.act(game_id, seat, token, 0)
    assert response.status_code == 409 and response.json()["error"] == "game_ended", response.text
    assert f"({how}:" in response.json()["message"]


# ------------------------------------------------------------------ resigning
def test_a_resigning_person_hands_the_seat_to_an_agent_while_people_remain(server):
    created = server.create("tictactoe", ["human", "human"])
    game_id, tokens = created["id"], created["tokens"]
    assert server.act(game_id, 0, tokens["0"], 4).status_code == 200
    refused = _post(server, game_id, "resign", tokens["1"], {"seat": 0})
    assert refused.status_code == 403 and refused.json()["error"] == "wrong_token"
    resigned = _post(server, game_id, "resign", tokens["0"], {"seat": 0})
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["status"] == "live" and resigned.json()["seats"] == ["random", "human"]
    assert server.act(game_id, 1, tokens["1"], 0).status_code == 200
    snap = server.wait(game_id, my_turn(1), 1, tokens["1"])  # the agent in seat 0 moved
    assert snap["log"][2]["actor"] == 0 and snap["seats"][0] == {"seat": 0, "player": "random", "human": False}
    again = _post(server, game_id, "resign", tokens["0"], {"seat": 0})
    assert again.status_code == 403 and again.json()["error"] == "not_a_person"  # the old token is spent
    server.restart()
    assert server.state(game_id)["seats"][0]["player"] == "random"  # the new seat is stored


def test_the_last_person_resigning_ends_the_game_with_the_other_seat_winning(server):
    created = server.create("connect4", ["human", "random"], delay=5.0)
    game_id, tokens = created["id"], created["tokens"]
    resigned = _post(server, game_id, "resign", tokens["0"], {"seat": 0})
    assert resigned.json() == {
        "id": game_id,
        "status": "resigned",
        "seats": ["human", "random"],
        "returns": [-1.0, 1.0],
    }
    snap = server.state(game_id, 0, tokens["0"])
    assert snap["status"] == "resigned" and snap["over"] and snap["returns"] == [-1.0, 1.0]
    assert snap["legal"] == [] and snap["pending"] == {"kind": "over", "seat": None}
    _refused_as_ended(server, game_id, 0, tokens["0"], "resigned")
    assert _post(server, game_id, "resign", tokens["0"], {"seat": 0}).status_code == 409
    assert server.client.get(f"/api/games/{game_id}/record").status_code == 200
    assert server.client.get(f"/api/games/{game_id}/replay?ply=0").status_code == 200


def test_catan_resigned_by_its_last_person_ranks_the_others_by_points(server):
    created = server.create("catan", ["human", "random", "random"], options={"players": 3}, seed=2)
    resigned = _post(server, created["id"], "resign", created["tokens"]["0"], {"seat": 0}).json()
    assert resigned["status"] == "resigned" and resigned["returns"][0] == 0.0
    assert resigned["returns"][1:] == [0.5, 0.5]  # nobody has built yet: the two others share the win


# ------------------------------------------------------------------ abandoning
def test_the_creator_abandons_a_game_with_the_host_token_only(server):
    created = server.create("catan", ["human", "random"], options={"players": 2})
    game_id, tokens = created["id"], created["tokens"]
    for token, status in ((None, 401), (tokens["0"], 403), ("made-up", 403)):
        response = _post(server, game_id, "abandon", token)
        assert response.status_code == status and response.json()["message"], response.text
    assert server.state(game_id)["status"] == "live"
    abandoned = _post(server, game_id, "abandon", tokens["host"])
    assert abandoned.status_code == 200 and abandoned.json()["status"] == "abandoned"
    assert abandoned.json()["returns"] is None
    _refused_as_ended(server, game_id, 0, tokens["0"], "abandoned")
    assert _post(server, game_id, "abandon", tokens["host"]).status_code == 409
    assert server.client.get(f"/api/games/{game_id}/record").status_code == 200  # hidden cards shown: it ended
    server.restart()
    assert server.state(game_id)["status"] == "abandoned" and _status(server, game_id) == "abandoned"
    _refused_as_ended(server, game_id, 0, tokens["0"], "abandoned")


def test_an_abandoned_agents_game_stops_moving(server):
    created = server.create("connect4", ["random", "random"], delay=0.2)
    _post(server, created["id"], "abandon", created["tokens"]["host"])
    version = server.state(created["id"])["version"]
    time.sleep(0.6)
    assert server.state(created["id"])["version"] == version


# ------------------------------------------------------------------ the limit counts live games only
def test_ended_games_free_their_place_under_the_limit(server):
    server.restart(max_active_games=2)
    first = server.create("tictactoe", ["human", "human"])
    second = server.create("tictactoe", ["human", "random"])
    full = server.client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "human"]})
    assert full.status_code == 429 and "2 games are live" in full.json()["message"]
    _post(server, first["id"], "abandon", first["tokens"]["host"])
    _post(server, second["id"], "resign", second["tokens"]["0"], {"seat": 0})
    server.create("tictactoe", ["human", "human"])
    server.restart(max_active_games=2)  # what counts is stored: a restart keeps it
    server.create("tictactoe", ["human", "human"])
    assert server.client.post("/api/games", json={"game": "tictactoe", "seats": ["human"] * 2}).status_code == 429


# ------------------------------------------------------------------ expiry
def test_idle_games_expire_at_start_and_while_running(server):
    idle = server.create("tictactoe", ["human", "human"])
    time.sleep(0.2)
    server.restart(idle_minutes=0.002)  # 0.12 s: the idle game expires as the server starts
    assert server.state(idle["id"])["status"] == "expired"
    _refused_as_ended(server, idle["id"], 0, idle["tokens"]["0"], "expired")
    fresh = server.create("tictactoe", ["human", "human"])
    server.wait(fresh["id"], lambda s: s["status"] == "expired", timeout=30)  # the periodic check
    assert server.client.get(f"/api/games/{fresh['id']}/replay").status_code == 200
    listed = {g["id"]: g["status"] for g in server.client.get("/api/games").json()["games"]}
    assert listed == {idle["id"]: "expired", fresh["id"]: "expired"}


def test_a_game_that_moves_does_not_expire(server):
    server.restart(idle_minutes=0.01)  # 0.6 s
    created = server.create("tictactoe", ["human", "human"])
    for seat, cell in ((0, 0), (1, 4), (0, 8)):
        time.sleep(0.3)
        assert server.act(created["id"], seat, created["tokens"][str(seat)], cell).status_code == 200
    assert server.state(created["id"])["status"] == "live"


# ------------------------------------------------------------------ an older file
OLD_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,
    seats TEXT NOT NULL, token_hashes TEXT NOT NULL, delay REAL NOT NULL, created REAL NOT NULL,
    updated REAL NOT NULL, moves INTEGER NOT NULL DEFAULT 0, over INTEGER NOT NULL DEFAULT 0, returns TEXT);
CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, action INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
"""


def test_a_games_file_without_status_is_migrated_losing_nothing(server, tmp_path):
    old = tmp_path / "old.sqlite"
    now = time.time()
    with sqlite3.connect(old) as db:
        db.executescript(OLD_SCHEMA)
        for gid, actions, over, returns in (("done", [4, 0, 1, 2, 7], 1, "[1.0, -1.0]"), ("going", [4], 0, None)):
            db.execute(
                "INSERT INTO games VALUES (?, 'tictactoe', '{}', 3, '[\"human\", \"human\"]', '{}', 0, ?, ?, ?, ?, ?)",
                (gid, now, now, len(actions), over, returns),
            )
            db.executemany("INSERT INTO actions VALUES (?, ?, ?)", [(gid, i, a) for i, a in enumerate(actions)])
    server.db = old
    server.restart()
    done, going = server.state("done"), server.state("going")
    assert (done["status"], done["over"], done["version"]) == ("finished", True, 5)
    assert (going["status"], going["over"], going["version"]) == ("live", False, 1)
    assert [e["action"] for e in done["log"]] == [4, 0, 1, 2, 7]
    with sqlite3.connect(old) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        assert db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 6
    server.restart()  # opening it again changes nothing
    assert server.state("going")["version"] == 1 and server.state("done")["status"] == "finished"


def test_ended_games_leave_memory_and_come_back_from_the_file(server):
    """A long-running server keeps only the newest finished games in memory (an hour's soak grew by about
    1 MiB for every 5 games before); an older one is revived from the file when asked for."""
    from boardzero.web.games import FINISHED_KEPT

    manager = server.app.state.manager
    first = None
    for _ in range(FINISHED_KEPT + 5):
        created = server.client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "human"]}).json()
        first = first or created["id"]
        answer = server.client.post(f"/api/games/{created['id']}/abandon", headers=auth(created["tokens"]["host"]))
        assert answer.status_code == 200
    server.client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "human"]})
    assert sum(game.over for game in manager.live.values()) <= FINISHED_KEPT
    assert first not in manager.live
    assert server.client.get(f"/api/games/{first}").json()["status"] == "abandoned"  # from the file
