"""The session cache a worker keeps for games going on elsewhere (the web server's agent workers)."""

from boardzero.play.session import HUMAN
from boardzero.play.workers import SessionCache


def _session(cache: SessionCache, key: str, actions: list[int], seats=(HUMAN, "random")):
    return cache.session(key, "connect4", {}, 5, list(seats), actions)


def test_a_kept_session_takes_only_the_new_actions():
    cache = SessionCache(4)
    first = _session(cache, "a", [3, 3])
    again = _session(cache, "a", [3, 3, 4, 2])
    assert again is first and again.actions == [3, 3, 4, 2] and again.seed == 5
    assert again.seats == [HUMAN, "random"] and 1 in again.agents and 0 not in again.agents


def test_an_undo_or_new_seats_replay_the_game():
    cache = SessionCache(4)
    first = _session(cache, "a", [3, 3, 4])
    undone = _session(cache, "a", [3, 3])
    assert undone is not first and undone.actions == [3, 3]
    resigned = _session(cache, "a", [3, 3], seats=("random", "random"))
    assert resigned is not undone and resigned.actions == [3, 3] and set(resigned.agents) == {0, 1}


def test_the_newest_games_are_kept():
    cache = SessionCache(2)
    a, b = _session(cache, "a", [0]), _session(cache, "b", [1])
    assert _session(cache, "a", [0]) is a  # a is now the newest, so c pushes b out
    _session(cache, "c", [2])
    assert list(cache.sessions) == ["a", "c"]
    assert _session(cache, "b", [1]) is not b
