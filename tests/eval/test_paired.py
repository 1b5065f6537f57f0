"""Two agents on the same games: wins, games won by one side only, the sign test, and files that do not pair."""

import json
import math

import pytest

from boardzero.core.errors import ConfigError
from boardzero.eval.arena import run_arena
from boardzero.eval.paired import compare_records


def _write(path, games):
    """games: (index, seed, agents, returns) per game."""
    path.write_text(
        "".join(
            json.dumps(
                {
                    "game": "tictactoe",
                    "options": {},
                    "seed": seed,
                    "actions": [],
                    "returns": returns,
                    "agents": agents,
                    "index": index,
                }
            )
            + "\n"
            for index, seed, agents, returns in games
        )
    )
    return path


def test_the_games_won_by_one_side_only_give_the_sign_test(tmp_path):
    a_won, b_won, draw = [1, -1], [-1, 1], [0, 0]
    # four games: both win game 0, only A wins games 1 and 2, only B game 3 (A draws it), game 4 is in one file
    a = _write(
        tmp_path / "a.jsonl",
        [
            (0, 10, ["new", "bot"], a_won),
            (1, 11, ["bot", "new"], b_won),
            (2, 12, ["new", "bot"], a_won),
            (3, 13, ["bot", "new"], draw),
            (4, 14, ["new", "bot"], a_won),
        ],
    )
    b = _write(
        tmp_path / "b.jsonl",
        [
            (0, 10, ["old", "bot"], a_won),
            (1, 11, ["bot", "old"], a_won),
            (2, 12, ["old", "bot"], b_won),
            (3, 13, ["bot", "old"], b_won),
        ],
    )
    result = compare_records(a, b)
    assert (result.a.agent, result.b.agent) == ("new", "old")
    assert result.games == 4
    assert (result.a.wins, result.b.wins) == (3, 2)
    assert (result.only_a, result.only_b) == (2, 1)
    assert result.z == pytest.approx(1 / math.sqrt(3))
    assert compare_records(b, a).z == pytest.approx(-result.z)


def test_games_that_differ_between_the_files_are_refused(tmp_path):
    a = _write(tmp_path / "a.jsonl", [(0, 10, ["new", "bot"], [1, -1])])
    other_board = _write(tmp_path / "seed.jsonl", [(0, 99, ["old", "bot"], [1, -1])])
    other_seat = _write(tmp_path / "seat.jsonl", [(0, 10, ["bot", "old"], [1, -1])])
    elsewhere = _write(tmp_path / "none.jsonl", [(7, 10, ["old", "bot"], [1, -1])])
    for path in (other_board, other_seat):
        with pytest.raises(ConfigError, match="game 0 is not the same game"):
            compare_records(a, path)
    with pytest.raises(ConfigError, match="share no game index"):
        compare_records(a, elsewhere)


def test_the_compared_agents_are_found_or_must_be_named(tmp_path):
    a = _write(tmp_path / "a.jsonl", [(0, 10, ["best", "bot"], [1, -1])])
    b = _write(tmp_path / "b.jsonl", [(0, 10, ["best", "bot"], [-1, 1])])
    with pytest.raises(ConfigError, match="cannot tell which agent"):
        compare_records(a, b)
    result = compare_records(a, b, agent_a="best", agent_b="best")
    assert (result.only_a, result.only_b) == (1, 0)
    with pytest.raises(ConfigError, match="'nobody' plays in no game"):
        compare_records(a, b, agent_a="nobody", agent_b="best")


def test_a_file_that_is_no_arena_match_is_refused_by_line(tmp_path):
    a = _write(tmp_path / "a.jsonl", [(0, 10, ["new", "bot"], [1, -1])])
    twice = _write(tmp_path / "twice.jsonl", [(0, 10, ["old", "bot"], [1, -1]), (0, 10, ["old", "bot"], [1, -1])])
    with pytest.raises(ConfigError, match="line 2 repeats game 0 of line 1"):
        compare_records(a, twice)
    bare = tmp_path / "bare.jsonl"
    bare.write_text(json.dumps({"game": "tictactoe", "actions": []}) + "\n")
    with pytest.raises(ConfigError, match="line 1 is not an arena game"):
        compare_records(a, bare)


def test_two_real_matches_on_the_same_seed_pair_game_by_game(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_arena("tictactoe", ["greedy", "random"], num_games=12, seed=5, workers=1, records=a)
    run_arena("tictactoe", ["mcts:sims=50", "random"], num_games=12, seed=5, workers=1, records=b)
    result = compare_records(a, b)
    assert (result.a.agent, result.b.agent) == ("greedy", "mcts:sims=50")
    assert result.games == 12
    # the counts add up: each side's wins are the games both won plus those it won alone
    assert result.a.wins - result.only_a == result.b.wins - result.only_b >= 0
    same = compare_records(a, a, agent_a="greedy", agent_b="greedy")
    assert (same.only_a, same.only_b, same.z) == (0, 0, 0.0)


def test_the_result_as_json_names_each_file_its_agent_wins_share_and_interval(tmp_path):
    a_won, b_won = [1, -1], [-1, 1]
    a = _write(tmp_path / "a.jsonl", [(i, 10 + i, ["new", "bot"], a_won if i < 3 else b_won) for i in range(4)])
    b = _write(tmp_path / "b.jsonl", [(i, 10 + i, ["old", "bot"], a_won if i < 1 else b_won) for i in range(4)])
    data = json.loads(json.dumps(compare_records(a, b).to_dict()))
    assert data["games"] == 4 and (data["only_a"], data["only_b"]) == (2, 0)
    assert data["z"] == pytest.approx(2 / math.sqrt(2))
    assert {k: data["a"][k] for k in ("path", "agent", "wins", "share")} == {
        "path": str(a),
        "agent": "new",
        "wins": 3,
        "share": 0.75,
    }
    assert {k: data["b"][k] for k in ("path", "agent", "wins", "share")} == {
        "path": str(b),
        "agent": "old",
        "wins": 1,
        "share": 0.25,
    }
    # the 95 % Wilson intervals of 3 and 1 wins in 4 games
    assert data["a"]["interval"] == pytest.approx([0.3006, 0.9544], abs=1e-4)
    assert data["b"]["interval"] == pytest.approx([0.0456, 0.6994], abs=1e-4)


@pytest.mark.parametrize(
    "record",
    [
        {"agents": ["old", "bot"], "returns": [1, -1]},  # no index
        {"index": "0", "agents": ["old", "bot"], "returns": [1, -1]},  # an index that is not a number
        {"index": 0, "agents": "old", "returns": [1, -1]},  # agents not a list
        {"index": 0, "agents": ["old", "bot"]},  # no returns
    ],
)
def test_a_record_lacking_any_one_arena_field_is_refused(tmp_path, record):
    a = _write(tmp_path / "a.jsonl", [(0, 10, ["new", "bot"], [1, -1])])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"game": "tictactoe", "seed": 10, "actions": [], **record}) + "\n")
    with pytest.raises(ConfigError, match=r"^records: .*bad.jsonl line 1 is not an arena game") as error:
        compare_records(a, bad)
    assert error.value.field == "records"


def test_each_refusal_names_the_field_and_the_file(tmp_path):
    a = _write(tmp_path / "a.jsonl", [(0, 10, ["new", "bot"], [1, -1])])
    twice = _write(tmp_path / "twice.jsonl", [(0, 10, ["old", "bot"], [1, -1])] * 2)
    elsewhere = _write(tmp_path / "none.jsonl", [(7, 10, ["old", "bot"], [1, -1])])
    other_board = _write(tmp_path / "seed.jsonl", [(0, 99, ["old", "bot"], [1, -1])])
    same = _write(tmp_path / "same.jsonl", [(0, 10, ["new", "bot"], [1, -1])])
    cases = [
        ((a, twice), {}, "records", "twice.jsonl line 2 repeats game 0"),
        ((a, elsewhere), {}, "records", "share no game index"),
        ((a, other_board), {}, "records", "not the same game in .*a.jsonl line 1 and .*seed.jsonl line 1"),
        ((a, same), {}, "paired.agent", r"which agent of .*a.jsonl .*not in the other file: none\): name it"),
        ((a, same), {"agent_a": "nobody"}, "paired.agent", r"'nobody' plays in no game of .*a.jsonl"),
        ((a, same), {"agent_a": "new", "agent_b": "nobody"}, "paired.agent", "'nobody' plays in no game of .*same"),
        ((a, same), {"agent_a": "new"}, "paired.agent", "which agent of .*same.jsonl"),
    ]
    for paths, names, field, message in cases:
        with pytest.raises(ConfigError, match=f"^{field}: .*{message}") as error:
            compare_records(*paths, **names)
        assert error.value.field == field


@pytest.mark.parametrize(
    "other",
    [
        {"options": {"size": 4}},  # other game options
        {"agents": ["old", "bot", "bot"], "returns": [1, -1, -1]},  # another number of seats
    ],
)
def test_games_with_other_options_or_seats_do_not_pair(tmp_path, other):
    a = _write(tmp_path / "a.jsonl", [(0, 10, ["new", "bot"], [1, -1])])
    b = tmp_path / "b.jsonl"
    record = {"game": "tictactoe", "options": {}, "seed": 10, "actions": [], "index": 0, "agents": ["old", "bot"]}
    b.write_text(json.dumps({**record, "returns": [1, -1], **other}) + "\n")
    with pytest.raises(ConfigError, match="game 0 is not the same game"):
        compare_records(a, b)
