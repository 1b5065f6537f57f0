"""A restarted server loses no game: positions, logs, tokens and delays come back, and agents go on."""

from __future__ import annotations

import sqlite3

import pytest

from tests.web.conftest import Server, my_turn

# a delay no test outlasts: the agent that waits it moves only once its delay is lowered, however slow the
# machine, so the test waits for conditions, never for a length of time
FOREVER = 3600.0


@pytest.fixture
def patient_server(tmp_path):
    """The test server, allowing delays of up to FOREVER."""
    holder = Server(tmp_path / "games.sqlite", max_delay=FOREVER)
    yield holder
    holder.close()


def test_games_survive_a_restart_and_agents_resume(patient_server):
    server = patient_server
    person = server.create("connect4", ["human", "random"], seed=1)
    pid, token = person["id"], person["tokens"]["0"]
    bots = server.create("catan", ["random", "random"], options={"players": 2}, delay=0.01)
    waiting = server.create("tictactoe", ["human", "random"], delay=FOREVER)  # its agent waits until told
    for column in (3, 3):
        server.wait(pid, my_turn(0), 0, token)
        assert server.act(pid, 0, token, column).status_code == 200
    server.act(waiting["id"], 0, waiting["tokens"]["0"], 4)
    before_person = server.wait(pid, my_turn(0), 0, token)
    before_bots = server.wait(bots["id"], lambda s: s["version"] > 30)
    assert server.state(waiting["id"])["pending"] == {"kind": "agent", "seat": 1}

    server.restart(bot_delay=0.0, max_delay=FOREVER)

    after_person = server.state(pid, 0, token)
    assert after_person["view"] == before_person["view"] and after_person["log"] == before_person["log"]
    assert server.act(pid, 0, token, after_person["legal"][0]["action"]).status_code == 200  # same token
    resumed = server.wait(bots["id"], lambda s: s["version"] > before_bots["version"] + 20)
    assert resumed["log"][: before_bots["version"]] == before_bots["log"]  # the whole history, then more
    assert server.state(waiting["id"])["delay"] == FOREVER
    settings = server.client.post(
        f"/api/games/{waiting['id']}/settings",
        json={"delay": 0},
        headers={"Authorization": f"Bearer {waiting['tokens']['host']}"},
    )
    assert settings.status_code == 200
    moved = server.wait(waiting["id"], lambda s: s["version"] == 2, timeout=120)  # the agent's turn resumed
    assert moved["log"][1]["actor"] == 1


def test_every_action_is_in_the_file_before_the_answer(server):
    created = server.create("tictactoe", ["human", "human"])
    for seat, cell in ((0, 4), (1, 0), (0, 8)):
        assert server.act(created["id"], seat, created["tokens"][str(seat)], cell).status_code == 200
        with sqlite3.connect(server.db) as db:
            stored = [
                a for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (created["id"],))
            ]
        assert stored[-1] == cell
    assert stored == [4, 0, 8]


def test_finished_games_stay_listed_and_replayable_after_a_restart(server):
    created = server.create("connect4", ["random", "random"])
    final = server.wait(created["id"], lambda s: s["over"])
    server.restart()
    listed = server.client.get("/api/games").json()["games"]
    assert listed[0]["id"] == created["id"] and listed[0]["over"] and listed[0]["moves"] == final["version"]
    end = server.client.get(f"/api/games/{created['id']}/replay?ply={final['version']}").json()
    assert end["view"] == {**final["view"], "seat": None}
