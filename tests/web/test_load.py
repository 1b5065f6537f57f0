"""A bounded load test on 127.0.0.1: many agent-only games and a person's client at once, the server
killed in the middle (SIGKILL, as a crash) and started again: every game goes on from its full history.

Prints its figures (games, actions, actions per second, restart time, games lost).
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

from tests.web.live_server import HttpError, LiveServer, call  # noqa: E402

CATAN_GAMES = 24
CONNECT4_GAMES = 12
BEFORE_CRASH_SECONDS = 6.0  # the agents wait 0.05-0.3 s per move, so no game is over by then
FINISH_SECONDS = 240.0  # after the restart, every game must end within this


def _stored(db):
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT game_id, action FROM actions ORDER BY game_id, ply").fetchall()
        over = dict(conn.execute("SELECT id, over FROM games"))
    actions: dict[str, list[int]] = {}
    for game_id, action in rows:
        actions.setdefault(game_id, []).append(action)
    return actions, over


def _same_entry(before: dict, after: dict) -> bool:
    """The same log entry, seen later: a hidden draw or steal may be shown once the game is over."""
    if before["action"] is None:
        return (before["ply"], before["actor"]) == (after["ply"], after["actor"])
    return before == after


class PersonClient(threading.Thread):
    """Plays seat 0 of a Catan game over HTTP (roll, else end the turn, else the first legal move), riding out
    the restart: refused connections are retried, every answer is checked."""

    def __init__(self, server: LiveServer, game_id: str, token: str):
        super().__init__(daemon=True)
        self.server, self.game_id, self.token = server, game_id, token
        self.moves, self.retries, self.errors = 0, 0, []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                snap = call(f"{self.server.url}/api/games/{self.game_id}?seat=0", token=self.token, timeout=10)
                if snap["over"]:
                    return
                if snap["legal"]:
                    move = next((m for m in snap["legal"] if m["kind"] in ("roll", "end_turn")), snap["legal"][0])
                    call(
                        f"{self.server.url}/api/games/{self.game_id}/actions",
                        "POST",
                        {"seat": 0, "action": move["action"]},
                        token=self.token,
                        timeout=10,
                    )
                    self.moves += 1
                else:
                    time.sleep(0.05)
            except HttpError as exc:
                if exc.status != 409:  # a race with the page's own poll is fine; anything else is not
                    self.errors.append(str(exc))
            except OSError:
                self.retries += 1
                time.sleep(0.2)


@pytest.mark.slow
def test_many_games_and_a_person_survive_a_crash_and_restart(tmp_path):
    db = tmp_path / "games.sqlite"
    server = LiveServer(db, "--delay", "0", "--max-games", "100", "--workers", "2")
    first_start = server.start()
    games = []
    for i in range(CATAN_GAMES):
        players = 2 + i % 3
        seats = [("heuristic", "weighted", "random")[(i + k) % 3] for k in range(players)]
        games.append(
            call(
                server.url + "/api/games",
                "POST",
                {"game": "catan", "options": {"players": players}, "seats": seats, "seed": i, "delay": 0.05},
            )["id"]
        )
    for _ in range(CONNECT4_GAMES):
        games.append(
            call(server.url + "/api/games", "POST", {"game": "connect4", "seats": ["random", "random"], "delay": 0.3})[
                "id"
            ]
        )
    person = call(
        server.url + "/api/games",
        "POST",
        {"game": "catan", "options": {"players": 3}, "seats": ["human", "heuristic", "weighted"], "delay": 0.05},
    )
    client = PersonClient(server, person["id"], person["tokens"]["0"])
    client.start()
    time.sleep(BEFORE_CRASH_SECONDS)

    seen_before = {g: call(f"{server.url}/api/games/{g}")["log"] for g in games + [person["id"]]}
    server.kill()
    stored_at_crash, over_at_crash = _stored(db)
    moves_before_restart = client.moves
    restart_seconds = server.start()
    restarted = time.monotonic()
    while time.monotonic() - restarted < FINISH_SECONDS:
        if all(call(f"{server.url}/api/games/{g}?since=100000")["over"] for g in games + [person["id"]]):
            break
        time.sleep(1.0)
    finish_seconds = time.monotonic() - restarted
    client.stop.set()
    client.join(30)
    after = {g: call(f"{server.url}/api/games/{g}") for g in games + [person["id"]]}
    server.stop()
    stored_final, over = _stored(db)

    lost, resumed = [], 0
    for game_id, before in seen_before.items():
        log = after[game_id]["log"]
        # a game whose agents had not moved yet (the workers' fork server still starting) has nothing stored
        at_crash, final = stored_at_crash.get(game_id, []), stored_final.get(game_id, [])
        kept = final[: len(at_crash)] == at_crash
        if not (kept and len(log) >= len(before) and all(map(_same_entry, before, log))):
            lost.append(game_id)
        resumed += len(final) > len(at_crash)
    total_actions = sum(len(a) for a in stored_final.values())
    print(
        f"\nload test: {len(seen_before)} games ({CATAN_GAMES} Catan agent games, {CONNECT4_GAMES} Connect 4 "
        f"agent games, 1 Catan game with a person's client); {sum(len(a) for a in stored_at_crash.values())} "
        f"actions stored when the server was killed after {BEFORE_CRASH_SECONDS:.0f} s "
        f"({sum(over_at_crash.values())} games over), restart {restart_seconds:.1f} s (first start "
        f"{first_start:.1f} s); {sum(over.values())} games over {finish_seconds:.0f} s later with {total_actions} "
        f"actions; {resumed} games went on after the restart; the person made {moves_before_restart} moves before "
        f"and {client.moves - moves_before_restart} after ({client.retries} requests retried while the server was "
        f"down); games with lost actions: {len(lost)}"
    )
    assert lost == [] and client.errors == []
    assert sum(over.values()) == len(seen_before), "not every game ended"
    assert resumed == len(seen_before) - sum(over_at_crash.values()) > 0
    assert client.moves > moves_before_restart > 0
