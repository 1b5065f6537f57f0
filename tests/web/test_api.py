"""The web API through FastAPI's test client: playing, every refused request, hints, replays."""

from __future__ import annotations

import json
import sqlite3

import pytest

from boardzero.agents.best import MODELS_DIR
from tests.web.conftest import auth, my_turn


def _stored_actions(server, game_id):
    with sqlite3.connect(server.db) as db:
        return [a for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,))]


# ------------------------------------------------------------------ happy path
def test_a_person_plays_connect4_to_the_end_against_an_agent(server):
    created = server.create("connect4", ["human", "random"], seed=3)
    game_id, token = created["id"], created["tokens"]["0"]
    assert set(created["tokens"]) == {"0", "host"} and created["seats"] == ["human", "random"]
    moves = 0
    while True:
        snap = server.wait(game_id, my_turn(0), 0, token)
        if snap["over"]:
            break
        assert snap["legal"] and all(m["kind"] == "drop" for m in snap["legal"])
        response = server.act(game_id, 0, token, snap["legal"][0]["action"])
        assert response.status_code == 200, response.text
        moves += 1
    view = snap["view"]
    assert view["over"] and view["returns"] is not None and snap["legal"] == []
    assert len(snap["log"]) == view["moves"] == len(_stored_actions(server, game_id)) >= 2 * moves - 1
    record = server.client.get(f"/api/games/{game_id}/record").json()
    assert record["actions"] == _stored_actions(server, game_id) and record["seats"] == ["human", "random"]
    replay = server.client.get(f"/api/games/{game_id}/replay?ply=3").json()
    assert replay["ply"] == 3 and replay["view"]["moves"] == 3 and len(replay["log"]) == 3
    listed = server.client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [game_id] and listed[0]["over"]


def test_catan_setup_by_a_person_and_agents_fills_the_log(server):
    created = server.create("catan", ["human", "random", "random"], options={"players": 3}, seed=11)
    game_id, token = created["id"], created["tokens"]["0"]
    for _ in range(2):
        snap = server.wait(game_id, my_turn(0), 0, token)
        assert snap["view"]["phase"] == "setup_settlement"
        settlement = next(m for m in snap["legal"] if m["kind"] == "settlement")
        assert server.act(game_id, 0, token, settlement["action"]).status_code == 200
        snap = server.state(game_id, 0, token)
        road = next(m for m in snap["legal"] if m["kind"] == "road")
        assert server.act(game_id, 0, token, road["action"]).status_code == 200
    snap = server.wait(game_id, my_turn(0), 0, token)
    texts = [entry["text"] for entry in snap["log"]]
    assert len(texts) == 12 and sum(t.startswith("settlement at") for t in texts) == 6
    assert snap["view"]["seats"][0]["hand"] is not None and snap["view"]["phase"] == "pre_roll"
    roll = next(m for m in snap["legal"] if m["kind"] == "roll")
    assert server.act(game_id, 0, token, roll["action"]).status_code == 200
    after = server.wait(game_id, lambda s: len(s["log"]) > 13, 0, token)
    after = server.state(game_id, 0, token, since=12)
    assert after["log_from"] == 12 and after["log"][0]["text"] == "roll dice"
    assert after["log"][1]["actor"] is None and after["log"][1]["text"].startswith("dice ")


def test_agents_play_a_whole_game_that_a_spectator_watches(server):
    created = server.create("catan", ["random", "random"], options={"players": 2, "vp_to_win": 4})
    assert set(created["tokens"]) == {"host"}
    snap = server.wait(created["id"], lambda s: s["over"], timeout=120)
    assert all("hand" in seat for seat in snap["view"]["seats"])  # revealed once over
    assert all(entry["action"] is not None for entry in snap["log"])


# ------------------------------------------------------------------ refused requests change nothing
def _unchanged(server, game_id, before):
    after = server.state(game_id)
    assert after["version"] == before["version"] and after["view"] == before["view"]
    assert len(_stored_actions(server, game_id)) == before["version"]


@pytest.fixture
def two_people(server):
    created = server.create("tictactoe", ["human", "human"])
    return created["id"], created["tokens"]


def test_refused_moves_say_why_and_change_nothing(server, two_people):
    game_id, tokens = two_people
    before = server.state(game_id)
    cases = [
        ((game_id, 1, tokens["1"], 4), 409, "not_your_turn", "not seat 1's turn"),
        ((game_id, 0, tokens["0"], 9), 422, "illegal_action", "action ids are 0..8"),
        ((game_id, 0, tokens["1"], 4), 403, "wrong_token", "not seat 0's token"),
        ((game_id, 0, None, 4), 401, "missing_token", "needs its token"),
        ((game_id, 0, tokens["host"], 4), 403, "wrong_token", "not seat 0's token"),
        ((game_id, 2, tokens["0"], 4), 404, "unknown_seat", "seats 0..1"),
        (("no-such-game", 0, tokens["0"], 4), 404, "unknown_game", "no game"),
    ]
    for args, status, code, words in cases:
        response = server.act(*args)
        assert response.status_code == status, (args, response.text)
        assert response.json()["error"] == code and words in response.json()["message"]
        _unchanged(server, game_id, before)
    assert server.act(game_id, 0, tokens["0"], 4).status_code == 200
    taken = server.act(game_id, 1, tokens["1"], 4)
    assert taken.status_code == 422 and "already taken" in taken.json()["message"]


def test_a_seat_played_by_an_agent_has_no_token(server):
    created = server.create("connect4", ["human", "random"], delay=5.0)
    response = server.act(created["id"], 1, created["tokens"]["host"], 3)
    assert response.status_code == 403 and response.json()["error"] == "not_a_person"


def test_malformed_and_oversized_bodies_are_refused(server, two_people):
    game_id, tokens = two_people
    before = server.state(game_id)
    url, headers = f"/api/games/{game_id}/actions", {**auth(tokens["0"]), "Content-Type": "application/json"}
    bodies = [
        b"{not json",
        b"[]",
        b'{"seat": 0}',
        b'{"seat": 0, "action": "4"}',
        b'{"seat": 0, "action": 4.5}',
        b'{"seat": 0, "action": 4, "extra": 1}',
        b'{"seat": true, "action": 4}',
    ]
    for body in bodies:
        response = server.client.post(url, content=body, headers=headers)
        assert response.status_code == 400 and response.json()["error"] == "malformed", body
        assert response.json()["message"]
        _unchanged(server, game_id, before)
    huge = json.dumps({"seat": 0, "action": 4, "pad": "x" * 20_000}).encode()
    response = server.client.post(url, content=huge, headers=headers)
    assert response.status_code == 413 and response.json()["error"] == "too_large"

    def chunks():  # no Content-Length: the limit counts the bytes as they come
        for _ in range(20):
            yield b" " * 1000

    response = server.client.post(url, content=chunks(), headers=headers)
    assert response.status_code == 413
    _unchanged(server, game_id, before)
    bad_query = server.client.get(f"/api/games/{game_id}?seat=zero")
    assert bad_query.status_code == 400 and "seat" in bad_query.json()["message"]


def test_bad_new_games_are_refused_with_the_reason(server):
    cases = [
        ({"game": "chess", "seats": ["human"]}, "unknown game 'chess'"),
        ({"game": "catan", "options": {"players": 7}, "seats": ["human"] * 7}, "allowed: 2, 3, 4"),
        ({"game": "catan", "options": {"colour": "red"}, "seats": ["human"] * 4}, "unknown option"),
        ({"game": "connect4", "seats": ["human"]}, "has 2 seats, got 1"),
        ({"game": "connect4", "seats": ["human", "nosuchbot"]}, "unknown agent 'nosuchbot'"),
        ({"game": "connect4", "seats": ["human", "heuristic"]}, "plays only catan"),
        ({"game": "connect4", "seats": ["human", f"az:{MODELS_DIR}/connect4/no_such_run"]}, "no such checkpoint"),
    ]
    for body, words in cases:
        response = server.client.post("/api/games", json=body)
        assert response.status_code == 400 and words in response.json()["message"], (body, response.text)
    response = server.client.post("/api/games", json={"game": "connect4", "seats": ["human", "human"], "delay": 99})
    assert response.status_code == 422 and response.json()["error"] == "bad_delay"
    response = server.client.post("/api/games", json={"game": "connect4", "seats": ["human", "human"], "seed": -1})
    assert response.status_code == 400
    assert server.client.get("/api/games").json()["games"] == []


def test_the_number_of_games_in_progress_is_limited(server):
    server.restart(max_active_games=2)
    for _ in range(2):
        server.create("tictactoe", ["human", "human"])
    response = server.client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "human"]})
    assert response.status_code == 429 and "max_active_games" in response.json()["message"]


def test_settings_need_a_token_of_the_game(server, two_people):
    game_id, tokens = two_people
    url = f"/api/games/{game_id}/settings"
    assert server.client.post(url, json={"delay": 1.5}).status_code == 401
    assert server.client.post(url, json={"delay": 1.5}, headers=auth("nope")).status_code == 403
    assert server.client.post(url, json={"delay": 50}, headers=auth(tokens["host"])).status_code == 422
    assert server.client.post(url, json={"delay": 1.5}, headers=auth(tokens["1"])).json() == {"delay": 1.5}
    assert server.state(game_id)["delay"] == 1.5


def test_reading_a_persons_seat_needs_its_token(server, two_people):
    game_id, tokens = two_people
    assert server.client.get(f"/api/games/{game_id}?seat=0").status_code == 401
    assert server.client.get(f"/api/games/{game_id}?seat=0", headers=auth(tokens["1"])).status_code == 403
    assert server.client.get(f"/api/games/{game_id}?seat=3", headers=auth(tokens["0"])).status_code == 404
    assert server.client.get("/api/games/nothing").status_code == 404
    assert server.client.get("/api/no/such/route").json()["error"] == "not_found"


# ------------------------------------------------------------------ hints
def test_hints_name_the_agents_top_moves_and_chances(server):
    created = server.create("connect4", ["human", "random"], delay=5.0)
    game_id, token = created["id"], created["tokens"]["0"]
    hint = server.client.get(f"/api/games/{game_id}/hint?seat=0", headers=auth(token)).json()
    assert hint["agent"] == "mcts:sims=20" and hint["ply"] == 0 and 1 <= len(hint["moves"]) <= 3
    assert all(m["name"].startswith("column") and 0 < m["weight"] <= 1 for m in hint["moves"])
    assert len(hint["win_chances"]) == 2 and all(0 <= c <= 1 for c in hint["win_chances"])
    assert server.client.get(f"/api/games/{game_id}/hint?seat=0").status_code == 401
    server.act(game_id, 0, token, 3)  # now the agent waits its 5 seconds
    late = server.client.get(f"/api/games/{game_id}/hint?seat=0", headers=auth(token))
    assert late.status_code == 409 and late.json()["error"] == "not_your_turn"


def test_hints_can_be_turned_off(server):
    server.restart(hint_agent={"*": "off"})
    created = server.create("connect4", ["human", "random"])
    response = server.client.get(f"/api/games/{created['id']}/hint?seat=0", headers=auth(created["tokens"]["0"]))
    assert response.status_code == 409 and response.json()["error"] == "hints_off"
    assert server.state(created["id"])["hints"] is False


# ------------------------------------------------------------------ records, replays, the page
def test_records_of_games_with_hidden_cards_wait_for_the_end(server):
    created = server.create("catan", ["human", "random"], options={"players": 2})
    response = server.client.get(f"/api/games/{created['id']}/record")
    assert response.status_code == 403 and response.json()["error"] == "hidden_until_over"


def test_record_files_are_offered_for_replay(server, tmp_path):
    created = server.create("tictactoe", ["random", "random"])
    server.wait(created["id"], lambda s: s["over"])
    record = server.client.get(f"/api/games/{created['id']}/record").json()
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n\n" + json.dumps({"record": record, "note": "wrapped"}) + "\n")
    server.restart(records=[path])
    listed = server.client.get("/api/records").json()["records"]
    assert [r["source"] for r in listed] == ["games.jsonl:1", "games.jsonl:3"]
    end = server.client.get("/api/records/1/replay?ply=99").json()
    assert end["ply"] == end["total"] == len(record["actions"]) and end["over"] and end["view"]["over"]
    assert server.client.get("/api/records/2/replay").status_code == 404
    (tmp_path / "bad.jsonl").write_text("{oops\n")
    with pytest.raises(Exception, match="bad.jsonl line 1 is not JSON"):
        server.restart(records=[tmp_path / "bad.jsonl"])


def test_the_page_and_its_scripts_are_served(server):
    page = server.client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "catan.js", "connect4.js", "simple.js", "ui.js", "style.css"):
        assert server.client.get(f"/static/{name}").status_code == 200, name
    meta = server.client.get("/api/meta").json()
    catan = next(g for g in meta["games"] if g["name"] == "catan")
    assert catan["default_opponent"] == "random" and any(o["name"] == "board" for o in catan["options"])


def test_a_registered_game_that_does_not_import_leaves_the_others_on_the_page(server, monkeypatch):
    from boardzero.core import registry

    monkeypatch.setitem(registry._GAMES, "broken", "no_such_module_anywhere:Game")
    answer = server.client.get("/api/meta")
    assert answer.status_code == 200
    names = [game["name"] for game in answer.json()["games"]]
    assert "broken" not in names and {"catan", "connect4"} <= set(names)


# ------------------------------------------------------------------ trading between people
def test_offers_and_answers_need_the_seats_token_and_its_turn(server):
    created = server.create("catan", ["human", "human"], options={"players": 2, "trading": True}, seed=5)
    game_id, tokens = created["id"], created["tokens"]
    assert server.state(game_id)["view"]["trade"]["offers_per_turn"] == 3
    for _ in range(400):  # both people play their first legal move (never an offer) until seat 0 may offer
        snap = server.state(game_id)
        seat = snap["pending"]["seat"]
        legal = server.state(game_id, seat, tokens[str(seat)])["legal"]
        offers = [m for m in legal if m["kind"] == "offer"]
        if seat == 0 and offers:
            break
        move = next((m for m in legal if m["kind"] == "roll"), None) or next(m for m in legal if m["kind"] != "offer")
        assert server.act(game_id, seat, tokens[str(seat)], move["action"]).status_code == 200
    else:
        raise AssertionError("seat 0 never had an offer to make")
    offer = offers[0]["action"]
    before = server.state(game_id)
    for args, status, code in [
        ((game_id, 1, tokens["1"], offer), 409, "not_your_turn"),
        ((game_id, 0, tokens["1"], offer), 403, "wrong_token"),
        ((game_id, 0, None, offer), 401, "missing_token"),
        ((game_id, 0, tokens["0"], 364), 422, "illegal_action"),  # nothing to accept on one's own turn
    ]:
        response = server.act(*args)
        assert (response.status_code, response.json()["error"]) == (status, code), (args, response.text)
        _unchanged(server, game_id, before)
    assert server.act(game_id, 0, tokens["0"], offer).status_code == 200
    snap = server.state(game_id)
    assert snap["pending"]["seat"] == 1 and snap["view"]["phase"] == "trade_answer"
    assert snap["view"]["trade"]["offer"]["index"] == offer - 244 and snap["view"]["trade"]["answers"][1] is None
    assert {m["kind"] for m in server.state(game_id, 1, tokens["1"])["legal"]} <= {"accept", "decline"}
    before = snap
    for args, status, code in [
        ((game_id, 0, tokens["0"], 365), 409, "not_your_turn"),
        ((game_id, 1, tokens["0"], 365), 403, "wrong_token"),
        ((game_id, 1, None, 365), 401, "missing_token"),
    ]:
        response = server.act(*args)
        assert (response.status_code, response.json()["error"]) == (status, code), (args, response.text)
        _unchanged(server, game_id, before)
    assert server.act(game_id, 1, tokens["1"], 365).status_code == 200
    snap = server.state(game_id, 0, tokens["0"])
    assert snap["view"]["phase"] == "main" and snap["view"]["trade"]["offer"] is None
    assert [d["index"] for d in snap["view"]["trade"]["declined"]] == [offer - 244]
    assert offer not in [m["action"] for m in snap["legal"]]  # declined by everyone: not again this turn
    assert [e["text"] for e in snap["log"][-2:]][-1].startswith("decline")


def test_the_proposed_opponent_plays_the_game_as_set_with_or_without_trading(server):
    server.restart(opponents={})  # the default chain: the shipped model, else the Catan bot
    catan = next(g for g in server.client.get("/api/meta").json()["games"] if g["name"] == "catan")
    assert catan["default_opponent"] == "best"
    assert catan["default_opponent_trading"] == "best"  # the model without trading trades by its values
    assert "default_opponent_trading" not in next(
        g for g in server.client.get("/api/meta").json()["games"] if g["name"] == "connect4"
    )
    refused = server.client.post(
        "/api/games",
        json={"game": "catan", "options": {"players": 2, "trading": True}, "seats": ["human", "best:trade=never"]},
    )
    assert refused.status_code == 400 and "allowed: value, off" in refused.json()["message"]
    created = server.create("catan", ["human", "human"], options={"players": 2, "trading": True})
    response = server.client.post(
        f"/api/games/{created['id']}/resign", json={"seat": 0}, headers=auth(created["tokens"]["0"])
    )
    assert response.status_code == 200 and response.json()["seats"] == ["best", "human"], response.text
