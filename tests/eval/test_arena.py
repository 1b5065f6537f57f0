import pytest

from boardzero.core.errors import ConfigError
from boardzero.eval.arena import run_arena
from boardzero.eval.stats import wilson_interval


def test_arena_counts_add_up_and_rotate_seats():
    result = run_arena("connect4", ["greedy", "random"], num_games=20, workers=1)
    greedy, random = result.entrants
    assert greedy.games == random.games == 20
    assert greedy.wins + greedy.draws + greedy.losses == 20
    assert greedy.wins == random.losses and greedy.draws == random.draws
    assert sorted(g.seats[0] for g in result.games) == [0] * 10 + [1] * 10
    assert greedy.wins > random.wins
    data = result.to_dict()
    assert data["agents"][0]["spec"] == "greedy"
    assert data["agents"][0]["win_rate_ci95"] == list(wilson_interval(greedy.wins, 20))
    first = [g for g in result.games if g.seats[0] == 0]  # games where greedy moved first
    first_wins = sum(g.returns[0] > g.returns[1] for g in first)
    assert data["agents"][0]["by_seat"]["0"]["wins"] == first_wins
    assert sum(sum(v.values()) for v in data["agents"][0]["by_seat"].values()) == 20
    assert [r["seats"] for r in data["records"]] == [g.seats for g in result.games]


def test_results_do_not_depend_on_the_number_of_workers():
    one = run_arena("kuhn_poker", ["random", "random"], num_games=12, workers=1, seed=5)
    two = run_arena("kuhn_poker", ["random", "random"], num_games=12, workers=2, seed=5)
    assert [g.returns for g in one.games] == [g.returns for g in two.games]


def test_last_entrant_fills_the_remaining_seats():
    result = run_arena("kuhn_poker", ["random"], num_games=6, workers=1)
    assert result.entrants[0].seats == 3


def test_too_many_agents_is_a_config_error():
    with pytest.raises(ConfigError, match="has 2 seats but 3 agents"):
        run_arena("connect4", ["random"] * 3, num_games=1)


def test_wilson_interval_has_the_textbook_values():
    # 95 % Wilson score intervals (as statsmodels' proportion_confint(..., method="wilson") gives them)
    assert wilson_interval(95, 100) == pytest.approx((0.8882, 0.9785), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_an_entrant_in_several_seats_counts_one_result_per_seat():
    result = run_arena("kuhn_poker", ["random"], num_games=300, workers=1, seed=2)
    (random,) = result.entrants
    assert random.seats == 3 and random.games == 300
    assert random.wins + random.draws + random.losses == random.results == 900
    assert random.wins == 300  # one seat wins each game (Kuhn poker has no ties)
    assert random.win_rate == pytest.approx(1 / 3)
    assert sorted(random.by_seat) == [0, 1, 2]
    assert sum(c["wins"] for c in random.by_seat.values()) == 300


def test_by_seat_counts_each_seat_from_zero():
    result = run_arena("connect4", ["greedy", "random"], num_games=10, workers=1)
    greedy = result.entrants[0]
    for seat in (0, 1):
        games = [g for g in result.games if g.seats[seat] == 0]
        wins = sum(g.returns[seat] > g.returns[1 - seat] for g in games)
        assert greedy.by_seat[seat]["wins"] == wins
        assert sum(greedy.by_seat[seat].values()) == len(games) == 5


def test_length_spread():
    result = run_arena("connect4", ["random"], num_games=12, workers=1)
    spread = result.length_spread()
    lengths = sorted(g.decisions for g in result.games)
    assert spread["min"] == lengths[0] and spread["max"] == lengths[-1]
    assert spread["min"] <= spread["p10"] <= spread["median"] <= spread["p90"] <= spread["max"]
    assert result.to_dict()["length"] == spread


@pytest.mark.parametrize("keyword,value", [("seed", -1), ("workers", 0)])
def test_bad_seed_or_workers_is_a_config_error(keyword, value):
    with pytest.raises(ConfigError, match=f"{keyword}: must be >= "):
        run_arena("connect4", ["random"], num_games=1, **{keyword: value})


@pytest.mark.parametrize("minutes", [0, -1.0])
def test_a_time_limit_must_be_positive(minutes):
    with pytest.raises(ConfigError, match="minutes: must be > 0"):
        run_arena("connect4", ["random"], num_games=1, minutes=minutes)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_time_limit_stops_at_the_first_game_to_end_after_it(tmp_path, workers):
    records = tmp_path / "games.jsonl"
    stopped = run_arena("connect4", ["greedy", "random"], num_games=200, workers=workers, minutes=1e-9, records=records)
    assert len(stopped.games) == 1 and stopped.planned == 200 and stopped.minutes == 1e-9
    assert stopped.entrants[0].games == 1 and stopped.entrants[0].results == 1
    assert len(records.read_text().splitlines()) == 1
    data = stopped.to_dict()
    assert (data["games"], data["planned"], data["stopped_after_minutes"]) == (1, 200, 1e-9)
    whole = run_arena("connect4", ["greedy", "random"], num_games=4, workers=1, minutes=60)
    assert len(whole.games) == 4 and whole.minutes is None and whole.to_dict()["stopped_after_minutes"] is None
