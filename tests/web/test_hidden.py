"""No opponent's hand, development card or hidden draw leaves the server before the game ends:
checked on the raw responses a person's seat and a spectator receive."""

from __future__ import annotations

import json

import numpy as np

from tests.web.conftest import auth, my_turn

PRIVATE_KEYS = ("hand", "development", "development_new", "points")


def _quick_move(legal):
    """Roll, else end the turn, else the first legal move: gives the agents many turns."""
    for kind in ("roll", "end_turn"):
        move = next((m for m in legal if m["kind"] == kind), None)
        if move:
            return move["action"]
    return legal[0]["action"]


def _check_raw(raw: bytes, viewer, true_log) -> tuple[dict, int]:
    """Checks one raw response for ``viewer``; returns it parsed and how many log entries it hid."""
    snap = json.loads(raw)
    assert raw.count(b'"development_new"') == (1 if viewer is not None else 0)  # the viewer's own record only
    for seat in snap["view"]["seats"]:
        if seat["seat"] != viewer:
            assert not set(PRIVATE_KEYS) & set(seat), f"seat {seat['seat']}'s private cards were sent to {viewer}"
    hidden = 0
    for entry in snap["log"]:
        truth = true_log[entry["ply"]]
        if truth.visible_to(viewer):
            assert entry["action"] == truth.action and entry["text"] == truth.text
        else:
            hidden += 1
            assert entry["action"] is None and entry["text"] == truth.hidden_text != truth.text
    return snap, hidden


def test_a_seat_and_a_spectator_never_receive_hidden_cards(server):
    created = server.create("catan", ["human", "weighted", "weighted"], options={"players": 3}, seed=5)
    game_id, token = created["id"], created["tokens"]["0"]
    live = server.app.state.manager.get(game_id)
    hidden_seen = {0: 0, None: 0}
    checked = {0: 0, None: 0}  # log entries already checked (their visibility does not change before the end)
    for _ in range(1500):
        server.wait(game_id, my_turn(0), 0, token, since=10**9)
        for viewer in (0, None):
            query = f"?since={checked[viewer]}" + ("&seat=0" if viewer == 0 else "")
            raw = server.client.get(
                f"/api/games/{game_id}{query}", headers=auth(token if viewer == 0 else None)
            ).content
            snap, hidden = _check_raw(raw, viewer, list(live.session.log))
            hidden_seen[viewer] += hidden
            checked[viewer] += len(snap["log"])
        if snap["over"] or (hidden_seen[0] >= 6 and snap["pending"]["seat"] == 0):
            break
        own = server.state(game_id, 0, token, since=10**9)
        assert server.act(game_id, 0, token, _quick_move(own["legal"])).status_code == 200
    assert not snap["over"], "the game ended before enough hidden draws and steals happened"
    assert hidden_seen[0] >= 6 and hidden_seen[None] >= hidden_seen[0] and checked[0] == len(live.session.log)
    kinds = {e.hidden_text.split(" ")[0] for e in live.session.log if e.seen_by is not None and 0 not in e.seen_by}
    assert "draw" in kinds  # opponents' development draws were among them


def test_a_seats_response_is_the_same_whatever_the_hidden_cards_are(server):
    """Redraw everything seat 0 cannot know (opponents' cards, the deck) and compare the raw bytes."""
    created = server.create("catan", ["human", "weighted", "weighted"], options={"players": 3}, seed=9)
    game_id, token = created["id"], created["tokens"]["0"]
    live = server.app.state.manager.get(game_id)
    for _ in range(400):
        snap = server.wait(game_id, my_turn(0), 0, token, since=10**9)
        dev_cards = sum(p["dev_cards"] for p in snap["view"]["seats"][1:])
        if dev_cards >= 2 and snap["view"]["phase"] == "pre_roll":
            break
        assert server.act(game_id, 0, token, _quick_move(snap["legal"])).status_code == 200
    assert dev_cards >= 2, "the opponents bought no development cards"
    url = f"/api/games/{game_id}?seat=0"
    before = server.client.get(url, headers=auth(token)).content
    rng = np.random.default_rng(0)
    redrawn = False
    true_state = live.session.state
    for _ in range(20):
        sampled = true_state.sample_hidden(0, rng)
        redrawn |= not np.array_equal(sampled.s, true_state.s)
        with live.lock:
            live.session.state = sampled
        try:
            assert server.client.get(url, headers=auth(token)).content == before
        finally:
            with live.lock:
                live.session.state = true_state
    assert redrawn, "no sample differed from the true state"
