"""The web API fuzzed from its own OpenAPI schema (schemathesis) against a real ``boardzero serve`` process.

Every operation of the schema gets a bounded, derandomized run of generated requests, valid and invalid
ones; most are pointed at real games (with their real tokens) so that they reach the game logic rather
than stopping at "unknown game". Every answer must be JSON and none a server error, and a refused request
to an endpoint that changes a game (moves, settings) must leave that game exactly as it was: every seat's
view, legal moves and log, and the spectator's.
"""

from __future__ import annotations

import json
import time
import urllib.parse

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import (  # noqa: E402
    HealthCheck,
    given,
    settings,
    strategies as st,  # noqa: E402
)
from schemathesis import GenerationMode  # noqa: E402

from tests.web.live_server import HttpError, LiveServer, call  # noqa: E402

EXAMPLES_PER_OPERATION = 24  # about 12 operations: a few hundred requests in all
GAMES = [("catan", {"players": 3}, 3), ("connect4", {}, 2), ("tictactoe", {}, 2), ("kuhn_poker", {"players": 2}, 2)]


class Games:
    """The server's real games (all seats people, so nothing moves but what a request does) and their tokens.

    A request may end or remove a game (if the server has such endpoints): ``pick`` then starts a new one of
    the same kind in its slot."""

    def __init__(self, url: str):
        self.url = url
        self.slots: list[str] = []  # a game id per entry of GAMES
        self.tokens: dict[str, dict[str, str]] = {}
        self.names: dict[str, str] = {}
        for slot in range(len(GAMES)):
            self.slots.append(self._create(slot))

    def _create(self, slot: int) -> str:
        name, options, seats = GAMES[slot]
        created = call(
            self.url + "/api/games", "POST", {"game": name, "options": options, "seats": ["human"] * seats, "seed": 7}
        )
        self.tokens[created["id"]], self.names[created["id"]] = created["tokens"], name
        return created["id"]

    def pick(self, slot: int) -> str:
        """The id of the game in ``slot``, a new one if the old one is gone, over, or a seat has left it (a
        resigned seat goes to an agent, and its token stops working)."""
        game_id = self.slots[slot]
        try:
            game = call(f"{self.url}/api/games/{urllib.parse.quote(game_id, safe='')}")
            replace = game["over"] or not all(seat["human"] for seat in game["seats"])
        except HttpError as error:
            if error.status not in (404, 410):
                raise
            replace = True
        if replace:
            self.slots[slot] = game_id = self._create(slot)
        return game_id

    def settled(self, game_id: str, timeout: float = 10.0) -> dict | None:
        """The game's state as every viewer sees it, once chance (played by the server) has moved; None once
        the game is over or gone."""
        deadline = time.monotonic() + timeout
        quoted = urllib.parse.quote(game_id, safe="")
        try:
            while True:
                spectator = call(f"{self.url}/api/games/{quoted}")
                if spectator["pending"]["kind"] not in ("chance", "agent") or time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            seats = {
                name: call(f"{self.url}/api/games/{quoted}?seat={name}", token=token)
                for name, token in self.tokens[game_id].items()
                if name.isdigit() and spectator["seats"][int(name)]["human"]
            }
        except HttpError as error:
            if error.status in (404, 410):
                return None
            raise
        return None if spectator["over"] else {"spectator": spectator, "seats": seats}


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fuzz")
    with LiveServer(directory / "games.sqlite", "--delay", "0", "--hint-agent=random", "--max-games", "64") as server:
        yield server, Games(server.url)


def operations(url: str):
    schema = schemathesis.openapi.from_url(url + "/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]


def test_the_schema_lists_the_game_endpoints(live):
    server, _ = live
    paths = {(op.method.upper(), op.path) for op in operations(server.url)}
    assert ("POST", "/api/games/{game_id}/actions") in paths and ("GET", "/api/games/{game_id}") in paths


def test_fuzzed_requests_get_json_answers_no_server_error_and_refusals_change_nothing(live):
    server, games = live
    sent, refused_unchanged = [], 0
    failures = []

    for operation in operations(server.url):
        cases = st.one_of(
            operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)
        )

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=cases, target=st.integers(0, 9))
        def run(case, target):
            nonlocal refused_unchanged
            game_id = None
            if "game_id" in (case.path_parameters or {}) and target < 7:  # most requests go to a real game
                game_id = games.pick(target % len(GAMES))
                case.path_parameters["game_id"] = game_id
                seat = case.body.get("seat") if isinstance(case.body, dict) else None
                tokens = games.tokens[game_id]
                if type(seat) is int and target < 3:  # a seat of the game, so the move reaches the rules
                    seat = case.body["seat"] = abs(seat) % (len(tokens) - 1)
                token = tokens.get(str(seat), tokens["host"]) if target < 5 else None
                if token:
                    others = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
                    case.headers = {**others, "Authorization": f"Bearer {token}"}
            before = games.settled(game_id) if game_id is not None and case.method.upper() != "GET" else None
            response = case.call(base_url=server.url, timeout=60)
            sent.append(response.status_code)
            where = f"{case.method} {case.formatted_path} {case.body!r}"
            try:
                json.loads(response.content)
            except ValueError:
                failures.append(f"not JSON ({response.status_code}): {where}: {response.content[:200]!r}")
            if response.status_code >= 500:
                failures.append(f"{response.status_code} {where}: {response.text[:300]}")
            if before is not None and 400 <= response.status_code < 500:  # a refused change to a game
                after = games.settled(game_id)
                if after != before:
                    failures.append(f"refused with {response.status_code} but the game changed: {where}")
                refused_unchanged += 1

        run()

    print(
        f"\n{len(sent)} requests: "
        + ", ".join(f"{code}: {sent.count(code)}" for code in sorted(set(sent)))
        + f"; refusals checked unchanged: {refused_unchanged}"
    )
    assert not failures, "\n".join(failures[:20])
    assert len(sent) >= 150 and refused_unchanged >= 20
    assert any(200 <= code < 300 for code in sent) and any(400 <= code < 500 for code in sent)


def test_a_catan_action_id_beyond_64_bits_is_refused(live):
    server, games = live
    game_id = games.pick(0)
    before = games.settled(game_id)
    for action in (2**63, -(2**63) - 1):
        with pytest.raises(Exception) as refused:
            call(
                f"{server.url}/api/games/{urllib.parse.quote(game_id, safe='')}/actions",
                "POST",
                {"seat": 0, "action": action},
                token=games.tokens[game_id]["0"],
            )
        assert 400 <= getattr(refused.value, "status", 500) < 500, refused.value
    assert games.settled(game_id) == before
