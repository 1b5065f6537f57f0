"""Tournaments: the reward matrix of a small one, lineups and seats, resuming without replaying a game."""

import itertools
import json

import numpy as np
import pytest

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent, register_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.eval.tournament import Entrant, load_tournament, run_tournament
from boardzero.play.records import read_records
from boardzero.play.rotation import seat_order
from boardzero.play.runner import play_game


class PickByIndex(Agent):
    """Deterministic: always the legal action at a fixed position of the legal list.

    where: that position (negative counts from the end)
    """

    def __init__(self, game, where: int = 0):
        self.where = where

    def act(self, view, rng):
        legal = view.legal_actions
        return int(legal[min(self.where, len(legal) - 1)] if self.where >= 0 else legal[self.where])


register_agent("pick", PickByIndex)
DETERMINISTIC = ["pick:where=0", "pick:where=-1", "pick:where=2"]


def entrants(*specs):
    return [Entrant(spec, spec) for spec in specs]


def test_matrix_of_a_small_tournament_matches_the_games_played_one_by_one():
    tournament = run_tournament("tictactoe", entrants(*DETERMINISTIC), games_per_lineup=2, workers=1)
    matrix, count = tournament.matrix()
    game = make("tictactoe")
    for (i, a), (j, b) in itertools.permutations(enumerate(DETERMINISTIC), 2):
        # a plays b once from each seat; deterministic agents make each game a fixed line
        first = play_game(game, [make_agent(a, game), make_agent(b, game)], np.random.default_rng(0)).returns()
        second = play_game(game, [make_agent(b, game), make_agent(a, game)], np.random.default_rng(0)).returns()
        assert matrix[i, j] == pytest.approx((first[0] + second[1]) / 2)
        assert count[i, j] == 2
    assert np.isnan(np.diag(matrix)).all()
    assert np.allclose(matrix, -matrix.T, equal_nan=True)  # zero-sum two-player games
    standings = {row["name"]: row for row in tournament.standings()}
    assert all(row["games"] == 4 and row["wins"] + row["draws"] + row["losses"] == 4 for row in standings.values())


def test_every_set_of_players_meets_and_every_seat_order_is_played():
    names = ["random", "mcts:sims=2", "pick:where=0", "pick:where=-1"]
    tournament = run_tournament("kuhn_poker", entrants(*names), games_per_lineup=6, workers=1)
    lineups = {g.lineup for g in tournament.games}
    assert len(lineups) == 4 and all(len(set(lineup)) == 3 for lineup in lineups)  # C(4, 3) sets of three
    for lineup in lineups:
        orders = [tuple(g.seats) for g in tournament.games if g.lineup == lineup]
        assert len(orders) == 6 and set(orders) == set(itertools.permutations(lineup))  # 3! orders in 6 games
    _, count = tournament.matrix()
    assert (count[~np.eye(4, dtype=bool)] == 12).all()  # each pair shares two of the four lineups
    assert [seat_order(3, g) for g in range(3)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]  # rotations come first


def test_resumed_tournament_plays_no_game_twice(tmp_path):
    out = tmp_path / "t.json"
    specs = ["random", "greedy", "pick:where=0"]
    played = []

    def stop_after_four(game):
        played.append(game.key)
        if len(played) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament("connect4", entrants(*specs), games_per_lineup=4, workers=1, out=out, on_result=stop_after_four)
    assert len(load_tournament(out).games) == 4  # saved on the way out

    resumed = []
    tournament = run_tournament(
        "connect4", entrants(*specs), games_per_lineup=4, workers=1, out=out, on_result=lambda g: resumed.append(g.key)
    )
    assert len(resumed) == 12 - 4 and not set(resumed) & set(played)
    keys = [g.key for g in tournament.games]
    assert len(keys) == len(set(keys)) == 12

    again = []
    run_tournament(
        "connect4", entrants(*specs), games_per_lineup=4, workers=1, out=out, on_result=lambda g: again.append(g.key)
    )
    assert again == []

    fresh = run_tournament("connect4", entrants(*specs), games_per_lineup=4, workers=1)
    assert {g.key: g.returns for g in fresh.games} == {g.key: g.returns for g in tournament.games}

    more = []  # another agent adds only its own games; the others' stay
    bigger = run_tournament(
        "connect4",
        entrants(*specs, "pick:where=-1"),
        games_per_lineup=4,
        workers=1,
        out=out,
        on_result=lambda g: more.append(g.key),
    )
    assert len(more) == 3 * 4 and all("pick:where=-1" in lineup for lineup, _ in more)
    assert len(bigger.current_games()) == 24


def test_results_do_not_depend_on_workers_or_the_order_agents_are_named():
    one = run_tournament("kuhn_poker", entrants("random", "pick:where=0", "mcts:sims=2"), games_per_lineup=4, workers=1)
    reordered = run_tournament(
        "kuhn_poker", entrants("mcts:sims=2", "random", "pick:where=0"), games_per_lineup=4, workers=1
    )
    assert {g.key: g.returns for g in one.games} == {g.key: g.returns for g in reordered.games}
    # spawned workers know only the built-in agents
    specs = ("random", "mcts:sims=2", "mcts:sims=3")
    two = run_tournament("kuhn_poker", entrants(*specs), games_per_lineup=4, workers=2)
    three = run_tournament("kuhn_poker", entrants(*specs), games_per_lineup=4, workers=1)
    assert {g.key: g.returns for g in two.games} == {g.key: g.returns for g in three.games}


def test_random_openings_vary_deterministic_games_and_are_shared_by_a_seat_rotation(tmp_path):
    records = tmp_path / "r.jsonl"
    run_tournament(
        "tictactoe",
        entrants("pick:where=0", "pick:where=-1"),
        games_per_lineup=8,
        workers=1,
        opening_plies=2,
        records=records,
    )
    games = sorted(read_records(records), key=lambda r: r["game_number"])
    openings = [tuple(r["actions"][:2]) for r in games]
    assert openings[0::2] == openings[1::2]  # games 2k and 2k+1 swap the seats over one opening
    assert len(set(openings)) > 1 and len({tuple(r["actions"]) for r in games}) > 2


def test_saved_file_holds_results_and_one_line_per_game(tmp_path):
    out = tmp_path / "t.json"
    tournament = run_tournament("tictactoe", entrants("random", "greedy"), games_per_lineup=3, workers=1, out=out)
    tournament.save(out, tournament.results())
    data = json.loads(out.read_text())
    assert data["results"]["ratings"]["anchor"] == "random" and len(data["games"]) == 3
    assert data["results"]["matrix"]["games"] == [[0, 3], [3, 0]]
    assert sum(line.startswith('  {"lineup"') for line in out.read_text().splitlines()) == 3


@pytest.mark.parametrize(
    "specs,options,message",
    [
        (["random"], {}, "needs at least 2 agents"),
        (["random", "random"], {}, "random named more than once"),
        (["random", "greedy", "mcts"], {"players": "4"}, "needs at least 4 agents"),
    ],
)
def test_bad_tournaments_are_clear_errors(specs, options, message):
    game = "catan" if options else "connect4"
    with pytest.raises(ConfigError, match=message):
        run_tournament(game, entrants(*specs), games_per_lineup=1, options=options, workers=1)


def test_another_game_in_the_output_file_is_refused(tmp_path):
    out = tmp_path / "t.json"
    run_tournament("tictactoe", entrants("random", "greedy"), games_per_lineup=1, workers=1, out=out)
    with pytest.raises(ConfigError, match="holds a tournament of tictactoe"):
        run_tournament("connect4", entrants("random", "greedy"), games_per_lineup=1, workers=1, out=out)
    out.write_text("{}")
    with pytest.raises(ConfigError, match="not a boardzero tournament file"):
        run_tournament("tictactoe", entrants("random", "greedy"), games_per_lineup=1, workers=1, out=out)
