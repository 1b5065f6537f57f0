"""The server's games without HTTP: ``GameManager`` on a games file, with tokens, seats, moves, endings and
hints checked directly (the HTTP layer and its agents' driver are tested in test_api.py and test_lifecycle.py)."""

from __future__ import annotations

import json
import time

import pytest

from boardzero.core.errors import CheckpointError, ConfigError, IllegalActionError
from boardzero.core.registry import make
from boardzero.web import games as games_module
from boardzero.web.games import (
    ENDED_HOW,
    FINISHED_KEPT,
    HOST,
    ApiError,
    GameManager,
    load_records,
    resignation_returns,
    session_record,
)
from boardzero.web.limits import AgentLimits
from boardzero.web.store import GameStore
from tests.web.conftest import make_config


@pytest.fixture
def manager(tmp_path):
    config = make_config(tmp_path / "games.sqlite", max_active_games=3, max_delay=5.0, bot_delay=0.25)
    store = GameStore(config.db)
    yield GameManager(config, store)
    store.close()


def refused(call, status, code, message=None):
    """``call()`` raises ApiError with ``status`` and ``code`` (and, when given, this ``message``: what a
    client reads)."""
    with pytest.raises(ApiError) as caught:
        call()
    error = caught.value
    assert (error.status, error.code) == (status, code), error.message
    assert str(error) == error.message
    if message is not None:
        assert error.message == message
    return error


# ------------------------------------------------------------------ creating
def test_a_new_game_gives_tokens_to_its_people_and_host_and_is_stored(manager):
    live, tokens = manager.create("tictactoe", {}, [" Human", "random "], 7, None)
    assert set(tokens) == {"0", HOST} and tokens["0"] != tokens[HOST]
    assert len(tokens["0"]) == len(tokens[HOST]) == 24  # 18 random bytes each, URL-safe base64
    assert len(live.id) == 12 and int(live.id, 16) >= 0  # 6 random bytes in hex
    assert live.session.seats == ["human", "random"] and live.session.seed == 7
    assert live.delay == 0.25  # the server's bot_delay when none is asked
    assert live.status == "live" and not live.over and not live.ended and live.error is None
    assert live.token_ok("0", tokens["0"]) and live.token_ok(HOST, tokens[HOST])
    assert not live.token_ok("0", tokens[HOST]) and not live.token_ok("0", "") and not live.token_ok("1", "x")
    assert not live.token_ok("0", None)
    stored = manager.store.load(live.id)
    assert (stored.game, stored.seed, stored.seats, stored.delay) == ("tictactoe", 7, ["human", "random"], 0.25)
    assert stored.token_hashes == live.token_hashes and set(stored.token_hashes) == {"0", HOST}
    assert all(token not in json.dumps(stored.token_hashes) for token in tokens.values())
    assert manager.get(live.id) is live
    job = live.job()
    assert (job.key, job.game, job.options, job.seed, job.seats, job.actions) == (
        live.id,
        "tictactoe",
        {},
        7,
        ["human", "random"],
        [],
    )
    assert (job.hint, job.top) == (None, 3)
    assert (live.job("mcts", top=5).hint, live.job("mcts", top=5).top) == ("mcts", 5)


def test_a_new_game_draws_its_seed_and_takes_the_delay_asked(manager):
    manager.config.max_active_games = 100
    first, _ = manager.create("tictactoe", {}, ["human", "human"], None, 1.5)
    second, _ = manager.create("tictactoe", {}, ["human", "human"], None, 0)
    assert first.delay == 1.5 and second.delay == 0.0
    assert first.id != second.id and first.created <= second.created
    seeds = [manager.create("tictactoe", {}, ["human", "human"], None, None)[0].session.seed for _ in range(40)]
    assert len(set(seeds)) == 40 and all(0 <= seed < 2**31 for seed in seeds)  # drawn from 2**31 seeds


def test_a_new_game_with_options_keeps_them(manager):
    live, _ = manager.create("kuhn_poker", {"players": 3}, ["human", "human", "human"], 1, None)
    assert live.options == {**make("kuhn_poker").options_dict(), "players": 3} == manager.store.load(live.id).options
    assert live.game.num_players == 3 and live.job().options == live.options


def test_too_many_live_games_are_refused_and_an_ended_one_frees_its_place(manager):
    made = [manager.create("tictactoe", {}, ["human", "human"], i, None) for i in range(3)]
    refused(
        lambda: manager.create("tictactoe", {}, ["human", "human"], 9, None),
        429,
        "too_many_games",
        "3 games are live, the most this server holds (max_active_games); finish, resign or abandon one, or "
        "wait for an idle one to expire",
    )
    live, tokens = made[0]
    manager.abandon(live, tokens[HOST])
    manager.create("tictactoe", {}, ["human", "human"], 9, None)


def test_bad_delays_and_agents_are_refused(manager):
    for delay in (-0.5, 5.5):
        refused(
            lambda delay=delay: manager.create("tictactoe", {}, ["human", "human"], 1, delay),
            422,
            "bad_delay",
            f"delay must be 0..5.0 seconds, got {delay}",
        )
    assert manager.check_delay(5.0) == 5.0 and manager.check_delay(0) == 0.0
    over = refused(lambda: manager.create("tictactoe", {}, ["human", "mcts:sims=100000"], 1, None), 422, "over_cap")
    assert "max_sims" in over.message
    outside = refused(
        lambda: manager.create("tictactoe", {}, ["human", "az:/nowhere/x.json"], 1, None), 403, "path_not_allowed"
    )
    assert "outside the directories" in outside.message
    assert manager.store.count_live() == 0


def test_an_agent_whose_checkpoint_does_not_load_is_a_bad_seat(manager, monkeypatch):
    def broken(spec, game):
        raise CheckpointError("x.json: not a checkpoint")

    monkeypatch.setattr(games_module, "make_agent", broken)
    with pytest.raises(ConfigError, match="x.json: not a checkpoint") as caught:
        manager.create("tictactoe", {}, ["human", "random"], 1, None)
    assert caught.value.field == "seats"
    assert manager.store.count_live() == 0


def test_a_requested_agent_is_built_for_the_game_and_weighed_by_its_stored_settings(manager):
    live, _ = manager.create("connect4", {}, ["human", "mcts:sims=5"], 1, None)  # search needs its game
    assert live.session.seats == ["human", "mcts:sims=5"]
    manager.config.max_sims = 100
    manager.limits = AgentLimits(manager.config)
    over = refused(lambda: manager.create("connect4", {}, ["human", "best"], 1, None), 422, "over_cap")
    assert "sims = 2000" in over.message  # the shipped Connect 4 model's own setting


# ------------------------------------------------------------------ finding games
def test_an_unknown_game_is_refused_and_a_stored_one_comes_back_as_it_was(manager):
    refused(lambda: manager.get("nope"), 404, "unknown_game", "no game 'nope' on this server")
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 3, 1.0)
    manager.play(live, 0, tokens["0"], 4)
    manager.play(live, 1, tokens["1"], 0)
    again = GameManager(manager.config, manager.store)  # a restarted server
    back = again.get(live.id)
    assert back is not live and again.get(live.id) is back
    assert back.session.actions == [4, 0] and back.session.seats == ["human", "human"] and back.delay == 1.0
    assert back.token_ok("1", tokens["1"]) and back.created == pytest.approx(live.created, abs=1.0)
    assert [g.id for g in again.resume()] == [live.id]
    assert again.list_games()[0]["id"] == live.id and again.list_games()[0]["moves"] == 2


def test_a_game_comes_back_from_the_file_with_its_options_board_and_result(manager):
    catan, _ = manager.create("catan", {"players": 3}, ["random"] * 3, 5, None)
    for _ in range(3):
        manager.apply_automatic(catan, catan.session.ply, int(catan.session.state.legal_actions()[0]))
    poker, tokens = manager.create("kuhn_poker", {"players": 2}, ["human", "human"], 2, None)
    done, done_tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    for seat, action in enumerate([0, 3, 1, 4, 2]):
        manager.play(done, seat % 2, done_tokens[str(seat % 2)], action)
    again = GameManager(manager.config, manager.store)
    back = again.get(catan.id)
    assert back.session.seed == 5 and back.session.actions == catan.session.actions
    assert back.session.view(None) == catan.session.view(None)  # the same board, pieces and cards
    assert again.get(poker.id).game.num_players == 2 and again.get(poker.id).options == poker.options
    finished = again.get(done.id)
    assert finished.status == "finished" and again.snapshot(finished, None)["returns"] == [1.0, -1.0]


def test_a_restart_resumes_every_live_game_and_no_ended_one(manager):
    manager.config.max_active_games = 1000
    ended, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    manager.abandon(ended, tokens[HOST])
    for i in range(201):  # more than a listing's default of 200
        manager.store.create(f"g{i:03}", "tictactoe", {}, i, ["human", "human"], {HOST: "x"}, 0.0)
    resumed = GameManager(manager.config, manager.store).resume()
    assert sorted(g.id for g in resumed) == [f"g{i:03}" for i in range(201)]


def test_only_the_newest_finished_games_stay_in_memory(manager, monkeypatch):
    monkeypatch.setattr(games_module, "FINISHED_KEPT", 2)
    manager.config.max_active_games = 50
    ended = []
    for i in range(4):
        live, tokens = manager.create("tictactoe", {}, ["human", "human"], i, None)
        manager.abandon(live, tokens[HOST])
        ended.append(live)
    going, _ = manager.create("tictactoe", {}, ["human", "human"], 9, None)
    kept = set(manager.live)
    assert kept == {ended[2].id, ended[3].id, going.id}  # the newest two ended ones, and the live one
    old = manager.get(ended[0].id)  # brought back from the file, and kept while it is asked for
    assert old.status == "abandoned" and ended[0].id in manager.live
    assert FINISHED_KEPT == 16


# ------------------------------------------------------------------ seats and tokens
def test_a_seat_is_read_or_played_only_with_its_token(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "random"], 1, None)
    manager.authorize(live, None, None)  # a spectator
    manager.authorize(live, 0, tokens["0"])
    refused(
        lambda: manager.authorize(live, 2, tokens["0"]), 404, "unknown_seat", f"game {live.id} has seats 0..1, not 2"
    )
    refused(
        lambda: manager.authorize(live, -1, tokens["0"]), 404, "unknown_seat", f"game {live.id} has seats 0..1, not -1"
    )
    refused(
        lambda: manager.authorize(live, 1, tokens["0"]),
        403,
        "not_a_person",
        "seat 1 is played by random; only a person's seat has a token (watch without a seat instead)",
    )
    missing = "seat 0 needs its token: send 'Authorization: Bearer TOKEN'"
    refused(lambda: manager.authorize(live, 0, None), 401, "missing_token", missing)
    refused(lambda: manager.authorize(live, 0, ""), 401, "missing_token", missing)
    refused(lambda: manager.authorize(live, 0, tokens[HOST]), 403, "wrong_token", "that is not seat 0's token")


def test_settings_take_the_host_token_or_a_seat_token(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    other, other_tokens = manager.create("tictactoe", {}, ["human", "human"], 2, None)
    for token in tokens.values():
        manager.authorize_host(live, token)
    refused(
        lambda: manager.authorize_host(live, None),
        401,
        "missing_token",
        "send the game's host token or a seat token as 'Authorization: Bearer TOKEN'",
    )
    refused(
        lambda: manager.authorize_host(live, other_tokens[HOST]),
        403,
        "wrong_token",
        "that token belongs to no seat of this game and is not its host token",
    )
    refused(lambda: manager.set_delay(live, other_tokens["0"], 1.0), 403, "wrong_token")
    refused(lambda: manager.set_delay(live, tokens["1"], 9.0), 422, "bad_delay")
    manager.set_delay(live, tokens["1"], 2.0)
    assert live.delay == 2.0 and manager.store.load(live.id).delay == 2.0
    assert other.delay == 0.25


# ------------------------------------------------------------------ reading
def test_a_snapshot_shows_a_seat_its_moves_and_the_log_from_where_it_asks(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, 1.0)
    manager.play(live, 0, tokens["0"], 4)
    snap = manager.snapshot(live, 1, since=0)
    assert snap["id"] == live.id and snap["game"] == "tictactoe" and snap["viewer"] == 1
    assert snap["seats"] == [
        {"seat": 0, "player": "human", "human": True},
        {"seat": 1, "player": "human", "human": True},
    ]
    assert snap["version"] == 1 and snap["pending"] == {"kind": "human", "seat": 1}
    assert (snap["over"], snap["status"], snap["returns"], snap["overruns"]) == (False, "live", None, 0)
    assert (snap["delay"], snap["error"], snap["hints"]) == (1.0, None, True)
    assert snap["view"] == live.session.view(1)
    assert len(snap["legal"]) == 8 and {m["action"] for m in snap["legal"]} == set(range(9)) - {4}
    assert snap["log_from"] == 0 and [e["action"] for e in snap["log"]] == [4]
    assert manager.snapshot(live, 0)["legal"] == []  # not its turn
    assert manager.snapshot(live, None)["legal"] == [] and manager.snapshot(live, None)["viewer"] is None
    assert manager.snapshot(live, 1, since=1)["log"] == [] and manager.snapshot(live, 1, since=1)["log_from"] == 1
    assert manager.snapshot(live, 1, since=5)["log_from"] == 1  # never past the end
    assert manager.snapshot(live, 1, since=-3)["log_from"] == 0
    assert [e["action"] for e in manager.snapshot(live, 1)["log"]] == [4]  # from the start by default
    manager.config.hint_agent = {"*": "off"}
    assert manager.snapshot(live, 1)["hints"] is False
    manager.config.hint_agent = {"tictactoe": "off", "*": "mcts:sims=20"}
    assert manager.snapshot(live, 1)["hints"] is False  # the game's own setting first


def test_a_game_ended_midway_shows_no_moves_and_no_one_to_move(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    manager.play(live, 0, tokens["0"], 4)
    manager.abandon(live, tokens[HOST])
    snap = manager.snapshot(live, 1)
    assert snap["pending"] == {"kind": "over", "seat": None} and snap["legal"] == [] and snap["over"]
    assert (snap["status"], snap["returns"]) == ("abandoned", None)


def test_a_seat_reads_its_own_hidden_cards_in_the_log_and_a_spectator_does_not(manager):
    live, _ = manager.create("kuhn_poker", {"players": 2}, ["human", "human"], 1, None)
    for _ in range(2):  # the two cards dealt
        outcome = int(live.session.state.chance_outcomes()[0][0])
        manager.apply_automatic(live, live.session.ply, outcome)
    seat_log, spectator_log = manager.snapshot(live, 0)["log"], manager.snapshot(live, None)["log"]
    assert len(seat_log) == len(spectator_log) == 2 and seat_log != spectator_log
    assert seat_log == live.session.log_for(0) and spectator_log == live.session.log_for(None)


def test_an_ended_game_shows_its_result_and_no_moves(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    for seat, action in enumerate([0, 3, 1, 4, 2]):
        manager.play(live, seat % 2, tokens[str(seat % 2)], action)
    snap = manager.snapshot(live, 0)
    assert snap["over"] and snap["status"] == "finished" and snap["returns"] == [1.0, -1.0]
    assert snap["pending"] == {"kind": "over", "seat": None} and snap["legal"] == []
    assert manager.store.load(live.id).status == "finished"


def test_the_record_of_a_game_with_hidden_cards_waits_for_its_end(manager):
    open_game, _ = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    assert manager.record(open_game)["actions"] == []
    hidden, tokens = manager.create("kuhn_poker", {"players": 2}, ["human", "human"], 1, None)
    refused(
        lambda: manager.record(hidden),
        403,
        "hidden_until_over",
        "the record holds every hidden card; it is available once the game is over",
    )
    manager.abandon(hidden, tokens[HOST])
    assert manager.record(hidden)["game"] == "kuhn_poker"


# ------------------------------------------------------------------ moving
def test_a_move_is_stored_and_a_refused_one_changes_nothing(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    before = live.last_move_at
    time.sleep(0.01)
    entry = manager.play(live, 0, tokens["0"], 4)
    assert (entry.ply, entry.actor, entry.action) == (0, 0, 4) and live.last_move_at > before
    assert manager.store.load(live.id).actions == [4] and manager.store.load(live.id).returns is None
    with pytest.raises(IllegalActionError):
        manager.play(live, 1, tokens["1"], 4)  # taken
    refused(lambda: manager.play(live, 1, tokens["0"], 0), 403, "wrong_token")
    assert live.session.actions == [4] and manager.store.load(live.id).actions == [4]


def test_a_move_the_file_refuses_is_taken_back(manager, monkeypatch):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    manager.play(live, 0, tokens["0"], 4)
    manager.play(live, 1, tokens["1"], 0)

    def full(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(manager.store, "append", full)
    with pytest.raises(OSError, match="disk full"):
        manager.play(live, 0, tokens["0"], 8)
    assert live.session.actions == [4, 0] and live.session.seats == ["human", "human"] and live.session.seed == 1
    monkeypatch.undo()
    manager.play(live, 0, tokens["0"], 8)
    assert manager.store.load(live.id).actions == [4, 0, 8]


def test_an_automatic_move_applies_only_at_its_ply_and_to_an_agent_or_chance(manager):
    live, tokens = manager.create("tictactoe", {}, ["random", "human"], 1, None)
    assert manager.apply_automatic(live, 1, 4) is None  # the game is not at ply 1
    entry = manager.apply_automatic(live, 0, 4)
    assert entry is not None and entry.action == 4 and manager.store.load(live.id).actions == [4]
    assert manager.apply_automatic(live, 1, 0) is None  # a person's turn
    manager.play(live, 1, tokens["1"], 0)
    manager.abandon(live, tokens[HOST])
    assert manager.apply_automatic(live, 2, 1) is None  # ended
    assert live.session.actions == [4, 0]
    chance, _ = manager.create("kuhn_poker", {"players": 2}, ["human", "human"], 1, None)
    assert chance.session.pending().kind == "chance"
    assert manager.apply_automatic(chance, 0, int(chance.session.state.chance_outcomes()[0][0])) is not None


def test_finishing_moves_store_the_result(manager):
    live, _ = manager.create("tictactoe", {}, ["random", "random"], 1, None)
    for ply, action in enumerate([0, 3, 1, 4, 2]):
        manager.apply_automatic(live, ply, action)
    assert live.status == "finished" and live.returns == [1.0, -1.0] and live.over and live.ended
    stored = manager.store.load(live.id)
    assert (stored.status, stored.over, stored.returns) == ("finished", True, [1.0, -1.0])


# ------------------------------------------------------------------ ending early
def test_a_resigning_person_hands_the_seat_to_the_default_opponent(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    live.error, live.hint_cache = "an old failure", {(0, 0): {}}
    assert manager.resign(live, 0, tokens["0"]) == "live"
    assert live.session.seats == ["random", "human"] and set(live.token_hashes) == {"1", HOST}
    assert live.error is None and live.hint_cache == {}
    stored = manager.store.load(live.id)
    assert stored.seats == ["random", "human"] and set(stored.token_hashes) == {"1", HOST}
    refused(lambda: manager.resign(live, 0, tokens["0"]), 403, "not_a_person")
    assert manager.resign(live, 1, tokens["1"]) == "resigned"
    assert live.returns == [1.0, -1.0] and manager.store.load(live.id).status == "resigned"
    assert manager.store.load(live.id).returns == [1.0, -1.0]
    refused(lambda: manager.resign(live, 1, tokens["1"]), 409, "game_ended")


def test_a_resigned_seat_goes_to_an_opponent_that_plays_the_game_as_set(tmp_path):
    config = make_config(tmp_path / "games.sqlite", opponents={})  # the fallbacks: a shipped model, the bot, ...
    store = GameStore(config.db)
    manager = GameManager(config, store)
    live, tokens = manager.create("catan", {"players": 2, "trading": True}, ["human", "human"], 1, None)
    manager.resign(live, 0, tokens["0"])
    assert live.session.seats[0] == "best"  # the shipped model plays trading games too (agents.td_trading)
    store.close()


def test_the_last_person_resigning_catan_leaves_the_win_to_the_leaders_on_points(manager):
    live, tokens = manager.create("catan", {"players": 3}, ["random", "random", "human"], 1, None)
    state = live.session.state
    while state.victory_points(0) == 0:  # seat 0 places its first settlement
        manager.apply_automatic(live, live.session.ply, int(state.legal_actions()[0]))
        state = live.session.state
    assert [state.victory_points(p) for p in (1, 2)] == [0, 0]
    assert manager.resign(live, 2, tokens["2"]) == "resigned"
    assert live.returns == [1.0, 0.0, 0.0] and manager.store.load(live.id).returns == [1.0, 0.0, 0.0]


def test_an_ended_game_refuses_moves_naming_how_it_ended(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    refused(
        lambda: manager.abandon(live, None),
        401,
        "missing_token",
        "abandoning a game needs the host token it was created with: send 'Authorization: Bearer TOKEN'",
    )
    refused(
        lambda: manager.abandon(live, tokens["0"]),
        403,
        "wrong_token",
        "only the game's host token (returned when it was created) abandons it; a seat's person may resign instead",
    )
    manager.abandon(live, tokens[HOST])
    assert (live.status, live.returns) == ("abandoned", None)
    refused(
        lambda: manager.play(live, 0, tokens["0"], 4),
        409,
        "game_ended",
        f"game {live.id} has ended (abandoned: {ENDED_HOW['abandoned']}); it can be replayed, not played",
    )
    assert ENDED_HOW["abandoned"] == "its creator abandoned it"
    refused(lambda: manager.abandon(live, tokens[HOST]), 409, "game_ended")
    assert manager.store.load(live.id).status == "abandoned"


def test_idle_games_expire(manager):
    manager.config.idle_minutes = 10
    idle, _ = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    ended, tokens = manager.create("tictactoe", {}, ["human", "human"], 2, None)
    manager.abandon(ended, tokens[HOST])
    assert manager.expire_idle(now=time.time() + 9 * 60) == []
    assert manager.expire_idle(now=time.time() + 11 * 60) == [idle.id]
    assert idle.status == "expired" and manager.store.load(idle.id).status == "expired"
    assert ended.status == "abandoned"
    assert manager.expire_idle(now=time.time() + 60 * 60) == []
    assert manager.expire_idle() == []


def test_a_game_expires_once_idle_minutes_have_passed(manager):
    manager.config.idle_minutes = 10
    live, _ = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    updated = manager.store.load(live.id).updated
    assert manager.expire_idle(now=updated + 10 * 60 - 1) == []
    assert manager.expire_idle(now=updated + 10 * 60 + 5) == [live.id]


def test_ending_a_game_the_file_has_already_ended_changes_nothing(manager, monkeypatch):
    manager.config.idle_minutes = 1
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    monkeypatch.setattr(manager.store, "end", lambda *args: False)
    manager.abandon(live, tokens[HOST])
    assert live.status == "live"
    assert manager.expire_idle(now=time.time() + 3600) == []  # not counted as expired here
    assert live.status == "live"


class Driver:
    """Stands in for the asyncio task that plays a game's agents: its loop runs what it is handed at once."""

    def __init__(self, done: bool):
        self.finished, self.cancelled = done, False

    def done(self) -> bool:
        return self.finished

    def cancel(self) -> None:
        self.cancelled = True

    def get_loop(self):
        return self

    def call_soon_threadsafe(self, callback) -> None:
        callback()


@pytest.mark.parametrize("done", [False, True])
def test_ending_a_game_cancels_its_agents_driver_unless_it_is_done(manager, done):
    live, tokens = manager.create("tictactoe", {}, ["human", "random"], 1, None)
    live.driver = Driver(done)
    manager.abandon(live, tokens[HOST])
    assert live.driver.cancelled is not done


def test_a_resignation_ranks_the_others_by_points_where_the_game_counts_them():
    game = make("tictactoe")
    state = game.new_state()
    assert resignation_returns(game, state, 0) == [-1.0, 1.0]
    assert resignation_returns(game, state, 1) == [1.0, -1.0]

    class Points:
        def __init__(self, points):
            self.victory_points = lambda p: points[p]

    catan = make("catan", players=4)  # returns 0..1 (no bounds given)
    assert resignation_returns(catan, Points([5, 3, 3, 2]), 0) == [0.0, 0.5, 0.5, 0.0]
    assert resignation_returns(catan, Points([5, 3, 4, 2]), 0) == [0.0, 0.0, 1.0, 0.0]
    assert resignation_returns(catan, Points([1, 3, 3, 3]), 2) == [0.0, 0.5, 0.0, 0.5]
    three = make("kuhn_poker", players=3)  # no points: every other seat shares the win
    assert resignation_returns(three, three.new_state(), 1) == [0.5, 0.0, 0.5]


# ------------------------------------------------------------------ hints
def test_a_hint_is_for_the_seat_to_move_and_kept_for_its_position(manager):
    live, tokens = manager.create("tictactoe", {}, ["human", "human"], 1, None)
    manager.config.hint_top = 5
    cached, job = manager.hint_job(live, 0, tokens["0"])
    assert cached is None and (job.hint, job.top, job.key) == ("mcts:sims=20", 5, live.id)
    refused(
        lambda: manager.hint_job(live, 1, tokens["1"]),
        409,
        "not_your_turn",
        "hints are for the seat to move; seat 1 is not",
    )
    refused(lambda: manager.hint_job(live, 0, tokens["1"]), 403, "wrong_token")
    refused(lambda: manager.hint_job(live, 0, None), 401, "missing_token")
    kept = manager.keep_hint(live, 0, 0, {"moves": [4]}, 0.12345)
    assert kept == {"moves": [4], "ply": 0, "seat": 0, "seconds": 0.123}
    assert manager.hint_job(live, 0, tokens["0"])[0] == kept
    manager.play(live, 0, tokens["0"], 4)
    assert manager.hint_job(live, 1, tokens["1"])[0] is None
    manager.config.hint_agent = {"tictactoe": "mcts:sims=5", "*": "mcts:sims=20"}
    assert manager.hint_job(live, 1, tokens["1"])[1].hint == "mcts:sims=5"  # the game's own hint agent
    manager.config.hint_agent = {"*": "off"}
    refused(lambda: manager.hint_job(live, 1, tokens["1"]), 409, "hints_off", "hints are turned off on this server")
    manager.config.hint_agent = {"*": "mcts:sims=20"}
    manager.abandon(live, tokens[HOST])
    refused(lambda: manager.hint_job(live, 1, tokens["1"]), 409, "game_ended")


# ------------------------------------------------------------------ what the page offers
def test_a_hint_agent_configured_for_a_game_is_checked_at_start(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    config = make_config(tmp_path / "games.sqlite", hint_agent={"tictactoe": "mcts:sims=5", "connect4": "off"})
    GameManager(config, store)
    GameManager(make_config(tmp_path / "games.sqlite", hint_agent={"tictactoe": ""}), store)  # the default chain
    for bad in ("nosuchagent", "catanatron:random"):
        config = make_config(tmp_path / "games.sqlite", hint_agent={"tictactoe": bad})
        with pytest.raises(ConfigError):
            GameManager(config, store)
    GameManager(make_config(tmp_path / "games.sqlite", hint_agent={"*": "nosuchagent"}), store)  # asked per game
    store.close()


def test_the_page_proposes_the_fallback_opponents_and_each_games_hints(tmp_path, monkeypatch):
    config = make_config(tmp_path / "games.sqlite", opponents={}, hint_agent={"tictactoe": "off", "*": "mcts"})
    store = GameStore(config.db)
    meta = GameManager(config, store).meta()
    by_name = {entry["name"]: entry for entry in meta["games"]}
    assert by_name["catan"]["default_opponent"] == "best"  # the shipped model, with trading or without
    assert by_name["catan"]["default_opponent_trading"] == "best"
    assert by_name["tictactoe"]["hints"] is False and by_name["connect4"]["hints"] is True
    real = games_module.option_docs

    def broken(name):
        if name == "connect4":
            raise ConfigError("game connect4", "its module does not import here")
        return real(name)

    monkeypatch.setattr(games_module, "option_docs", broken)
    names = [entry["name"] for entry in GameManager(config, store).meta()["games"]]
    assert "connect4" not in names and {"tictactoe", "kuhn_poker", "catan"} <= set(names)
    store.close()


def test_the_page_offers_each_game_its_options_opponent_and_the_servers_caps(manager):
    meta = manager.meta()
    by_name = {entry["name"]: entry for entry in meta["games"]}
    assert {"tictactoe", "connect4", "kuhn_poker", "catan"} <= set(by_name)
    assert by_name["tictactoe"]["players"] == 2 and by_name["tictactoe"]["default_opponent"] == "random"
    assert by_name["tictactoe"]["hints"] is True and "default_opponent_trading" not in by_name["tictactoe"]
    assert by_name["catan"]["default_opponent_trading"] == "random"
    assert {"name", "type", "default", "doc"} == set(by_name["kuhn_poker"]["options"][0])
    assert "players" in {o["name"] for o in by_name["kuhn_poker"]["options"]}
    assert by_name["connect4"]["options"] == []
    assert (meta["bot_delay"], meta["max_delay"], meta["max_active_games"], meta["records"]) == (0.25, 5.0, 3, 0)
    assert meta["caps"]["move_seconds"] == manager.config.move_seconds
    assert meta["idle_minutes"] == manager.config.idle_minutes
    assert manager.default_opponent("kuhn_poker", make("kuhn_poker", players=3)) == "random"


def test_records_are_read_with_their_file_and_line(tmp_path):
    path = tmp_path / "games.jsonl"
    record = session_record(make("tictactoe"), 3, ["a", "b"], [4, 0])
    assert record == {"game": "tictactoe", "options": {}, "seed": 3, "seats": ["a", "b"], "actions": [4, 0]}
    path.write_text(json.dumps(record) + "\n" + json.dumps({**record, "seed": 4}) + "\n")
    loaded = load_records([path, path])
    assert [(r["source"], r["seed"]) for r in loaded] == [
        ("games.jsonl:1", 3),
        ("games.jsonl:2", 4),
        ("games.jsonl:1", 3),
        ("games.jsonl:2", 4),
    ]
