"""Game records: every arena and tournament game replays exactly to the game that was played."""

import json

import pytest

from boardzero.core.errors import ConfigError
from boardzero.eval.arena import run_arena
from boardzero.eval.figures import game_facts
from boardzero.eval.tournament import Entrant, run_tournament
from boardzero.play.records import read_records, record_game, replay


def test_arena_records_replay_to_the_played_games(tmp_path):
    path = tmp_path / "arena.jsonl"
    result = run_arena("kuhn_poker", ["mcts:sims=4", "random"], num_games=9, workers=1, records=path)
    records = read_records(path)
    assert len(records) == 9
    for record in sorted(records, key=lambda r: r["index"]):
        played = result.games[record["index"]]
        final = replay(record).state
        assert final.history == record["actions"] == played.record["actions"]
        assert final.returns().tolist() == played.returns
        assert record["agents"] == [["mcts:sims=4", "random"][e] for e in played.seats]


def test_tournament_records_replay_to_the_played_games_catan_included(tmp_path):
    path = tmp_path / "catan.jsonl"
    entrants = [Entrant(s, s) for s in ("heuristic", "weighted")]
    tournament = run_tournament(
        "catan", entrants, games_per_lineup=2, workers=1, records=path, options={"players": "2", "vp_to_win": "6"}
    )
    records = read_records(path)
    assert len(records) == len(tournament.games) == 2
    by_key = {g.key: g for g in tournament.games}
    for record in records:
        played = by_key[(tuple(record["lineup"]), record["game_number"])]
        game = record_game(record)
        facts = game_facts(game, replay(record, game), record["names"])
        assert facts == played.facts  # returns, decisions, action kinds, points by source, dice rolls, turns
        assert record["names"] == played.seats
        summary = facts["summary"]
        assert max(summary["points"]) >= 6
        assert [sum(parts.values()) for parts in summary["points_by_source"]] == summary["points"]


def test_a_record_that_does_not_replay_is_a_clear_error(tmp_path):
    path = tmp_path / "r.jsonl"
    run_arena("tictactoe", ["random"], num_games=1, workers=1, records=path)
    record = read_records(path)[0]
    with pytest.raises(ConfigError, match="step 2 does not replay"):
        replay(dict(record, actions=[4, 4]))
    with pytest.raises(ConfigError, match="stored returns"):
        replay(dict(record, returns=[5.0, 5.0]))
    path.write_text(json.dumps(record) + "\nnot json\n")
    with pytest.raises(ConfigError, match="line 2 is not JSON"):
        read_records(path)
