"""What a request may ask of the server: numbers in range, agents within the compute caps and the allowed model
directories (judged unopened), and agent moves within their time."""

from __future__ import annotations

import sys

import pytest

from boardzero.agents.best import MODELS_DIR
from boardzero.core.errors import IllegalActionError
from boardzero.core.registry import games, make
from tests.web.conftest import auth

HUGE = [2**63, 2**64, -1, -(2**63) - 1, 10**30]


# ------------------------------------------------------------------ numbers
@pytest.mark.parametrize("name", games())
def test_every_game_refuses_action_ids_of_any_size_with_its_reason(name):
    """Below the web layer too: a state refuses an id past the int64 range as it refuses 10**3."""
    state = make(name).new_state(seed=0)
    for action in HUGE:
        with pytest.raises(IllegalActionError):
            state.clone().apply(action)


@pytest.mark.parametrize("name", games())
def test_huge_negative_and_odd_numbers_get_a_json_4xx_naming_the_range(server, name):
    game = make(name)
    created = server.create(name, ["human"] * game.num_players, seed=1)
    game_id, tokens = created["id"], created["tokens"]
    # the server deals chance outcomes (Kuhn poker's cards) after answering the creation: wait for a person's turn
    before = server.wait(game_id, lambda snap: snap["over"] or snap["pending"]["kind"] == "human")
    seat = before["pending"]["seat"] if before["pending"]["kind"] == "human" else 0
    for action in [*HUGE, game.num_actions]:
        response = server.act(game_id, seat, tokens.get(str(seat)), action)
        assert 400 <= response.status_code < 500, (action, response.text)
        message = response.json()["message"]
        assert (
            "less than 2147483648" in message
            or "greater than or equal to 0" in message
            or f"0..{game.num_actions - 1}" in message
            or "not your turn" in message
            or "not seat" in message
        ), message
    for seat_number in (2**63, -1, 8, 2**31):
        response = server.act(game_id, seat_number, tokens["0"], 0)
        assert response.status_code == 400 and "seat" in response.json()["message"], response.text
    for query in (f"seat={2**63}", "seat=-1", f"since={2**64}", "since=-5", "since=1.5"):
        response = server.client.get(f"/api/games/{game_id}?{query}")
        assert response.status_code == 400 and response.json()["error"] == "malformed", (query, response.text)
    for query in (f"ply={2**64}", "ply=-1", "ply=abc"):
        response = server.client.get(f"/api/games/{game_id}/replay?{query}")
        assert response.status_code == 400 and "ply" in response.json()["message"], (query, response.text)
    for index in (2**70, -1, 0):
        response = server.client.get(f"/api/records/{index}/replay")
        assert response.status_code in (400, 404) and response.json()["message"], (index, response.text)
    after = server.state(game_id)
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_a_game_option_or_delay_of_any_size_is_refused_as_json(server):
    for options in ({"players": 2**64}, {"players": -(2**70)}, {"vp_to_win": 10**40}, {"players": 1e308}):
        response = server.client.post("/api/games", json={"game": "catan", "options": options, "seats": ["human"] * 2})
        assert 400 <= response.status_code < 500 and response.json()["message"], (options, response.text)
    for raw in (
        '"options": {"players": NaN}',
        '"options": {"players": Infinity}',
        '"delay": NaN',
        '"delay": -Infinity',
        '"delay": 1e999',
    ):  # Python's JSON reads these; the schema refuses them
        body = '{"game": "catan", "seats": ["human", "human"], ' + raw + "}"
        response = server.client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 400 and response.json()["error"] == "malformed", (raw, response.text)
    assert server.client.get("/api/games").json()["games"] == []


# ------------------------------------------------------------------ compute caps
def test_agents_over_the_compute_caps_are_refused_naming_the_cap(server):
    cases = [
        ("mcts:sims=100000000", "max_sims = 5000"),
        ("mcts:sims=1000,rollouts=10", "sims x rollouts = 10000"),
        ("solver:opening_sims=99999", "max_sims"),
        ("td:runs/x,depth=50", "max_depth = 4"),
        ("td:runs/x,width=1000", "max_width = 64"),
        ("best:sims=1000000", "max_sims"),
        ("mcts:batch=100000000", "batch = 100000000"),
    ]
    for spec, words in cases:
        response = server.client.post("/api/games", json={"game": "connect4", "seats": ["human", spec]})
        assert response.status_code == 422, (spec, response.text)
        assert response.json()["error"] == "over_cap" and words in response.json()["message"], response.text
    assert server.client.get("/api/games").json()["games"] == []
    for spec in ("best", "mcts:sims=5000", "mcts:sims=2000,rollouts=2"):  # the shipped model's own settings fit
        server.create("connect4", ["human", spec], delay=10.0)
    assert server.client.get("/api/meta").json()["caps"]["max_sims"] == 5000


def test_an_agents_default_counts_against_a_lower_cap(server):
    server.restart(max_sims=100)
    response = server.client.post("/api/games", json={"game": "connect4", "seats": ["human", "mcts"]})
    assert response.status_code == 422 and "sims = 400" in response.json()["message"]
    server.create("connect4", ["human", "mcts:sims=100"], delay=10.0)


def test_an_agent_over_its_move_time_gives_way_to_a_random_legal_move(server):
    """The time cap stops the worker, plays a random legal move from the ply's own rng, and the game goes on."""
    server.restart(max_sims=10**9, move_seconds=0.5)
    created = server.create("connect4", ["mcts:sims=100000000", "human"], seed=5)
    snap = server.wait(created["id"], lambda s: s["version"] >= 1, 1, created["tokens"]["1"], timeout=120)
    assert snap["overruns"] == 1 and snap["pending"] == {"kind": "human", "seat": 1} and snap["error"] is None
    assert snap["log"][0]["actor"] == 0 and 0 <= snap["log"][0]["action"] < 7
    assert server.act(created["id"], 1, created["tokens"]["1"], snap["legal"][0]["action"]).status_code == 200
    server.wait(created["id"], lambda s: s["overruns"] == 2, timeout=120)


# ------------------------------------------------------------------ model directories
class _Opened:
    """Every file this process opens while installed (an audit hook: Python's open, os.open, io, pathlib)."""

    def __init__(self):
        self.paths: list[str] = []
        self.on = False
        sys.addaudithook(self._hook)

    def _hook(self, event, args):
        if self.on and event == "open" and args and isinstance(args[0], (str, bytes)):
            self.paths.append(args[0] if isinstance(args[0], str) else args[0].decode(errors="replace"))


_OPENED = _Opened()  # audit hooks cannot be removed: one for the module, switched on by each test


def test_a_path_outside_the_allowed_directories_is_refused_unopened(server, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text("not json")  # read, it would answer 'checkpoint metadata is not valid JSON'
    specs = [
        f"az:{outside}",
        "az:/etc/passwd",
        f"az:{MODELS_DIR}/../../../../etc/passwd",
        f"policy:{outside}",
        f"td:{MODELS_DIR}/catan/model-2p.json,mean_with={outside}",
        f"td:path={outside}",
        "az:~/x.json",
        "az:a\x00b",
    ]
    _OPENED.paths.clear()
    _OPENED.on = True
    try:
        for spec in specs:
            response = server.client.post("/api/games", json={"game": "connect4", "seats": ["human", spec]})
            assert response.status_code == 403, (spec, response.text)
            assert response.json()["error"] == "path_not_allowed" and "--models" in response.json()["message"]
    finally:
        _OPENED.on = False
    assert not [p for p in _OPENED.paths if "outside" in p or "passwd" in p or "x.json" in p], _OPENED.paths


def test_models_directories_of_the_operator_are_allowed_and_links_out_of_them_are_not(server, tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    (models / "mine.json").write_text("not json")
    (tmp_path / "secret.json").write_text("not json")
    (models / "link.json").symlink_to(tmp_path / "secret.json")
    server.restart(models=[models])
    inside = server.client.post("/api/games", json={"game": "connect4", "seats": ["human", f"az:{models}/mine.json"]})
    assert inside.status_code == 400 and "not valid JSON" in inside.json()["message"]  # allowed, so it was read
    linked = server.client.post("/api/games", json={"game": "connect4", "seats": ["human", f"az:{models}/link.json"]})
    assert linked.status_code == 403 and linked.json()["error"] == "path_not_allowed"
    shipped = server.client.post(
        "/api/games", json={"game": "connect4", "seats": ["human", f"az:{MODELS_DIR}/connect4,sims=20"]}
    )
    assert shipped.status_code == 201, shipped.text


def test_hints_are_computed_by_the_workers(server):
    created = server.create("tictactoe", ["human", "random"])
    hint = server.client.get(f"/api/games/{created['id']}/hint?seat=0", headers=auth(created["tokens"]["0"]))
    assert hint.status_code == 200 and hint.json()["agent"] == "mcts:sims=20" and len(hint.json()["moves"]) == 3


def test_a_hint_over_the_move_time_is_refused_and_the_next_one_works(server):
    server.restart(hint_agent={"connect4": "mcts:sims=100000000", "*": "mcts:sims=20"}, move_seconds=3)
    slow = server.create("connect4", ["human", "human"])
    response = server.client.get(f"/api/games/{slow['id']}/hint?seat=0", headers=auth(slow["tokens"]["0"]))
    assert response.status_code == 503 and response.json()["error"] == "too_slow", response.text
    assert "within 3 s" in response.json()["message"]
    quick = server.create("tictactoe", ["human", "human"])  # the killed worker is replaced
    hint = server.client.get(f"/api/games/{quick['id']}/hint?seat=0", headers=auth(quick["tokens"]["0"]))
    assert hint.status_code == 200 and hint.json()["moves"], hint.text


def test_the_caps_weigh_the_settings_stored_beside_a_shipped_model():
    from boardzero.web.config import ServerConfig
    from boardzero.web.limits import AgentLimits, SpecRefused

    limits = AgentLimits(ServerConfig(max_sims=100))
    connect4, catan = make("connect4"), make("catan", players=2)
    for spec, game, words in (
        ("best", connect4, "sims = 2000"),  # the Connect 4 model stores 2,000 simulations a move
        ("best:c_puct=2", connect4, "sims = 2000"),
        ("best", catan, "opening_sims = 600"),  # the 2-player Catan model searches its opening with up to 600
    ):
        with pytest.raises(SpecRefused, match=words):
            limits.check(spec, game)
    for spec, game in (("best:sims=100", connect4), ("best:greedy", connect4), ("best:fast", catan)):
        limits.check(spec, game)  # within the cap once the caller lowers it, or without search
    limits.check("best")  # without the game only what the spec names counts
