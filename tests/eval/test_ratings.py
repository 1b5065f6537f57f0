"""Bradley-Terry ratings: known strengths come back from synthetic results, with honest intervals."""

import numpy as np
import pytest

from boardzero.core.errors import ConfigError
from boardzero.eval.ratings import fit_bradley_terry, pairwise_scores, rate

TRUE_ELO = np.array([0.0, 150.0, 400.0, 700.0])
NAMES = ["random", "b", "c", "d"]


def synthetic_two_player(rng, games_per_pair=400):
    games = []
    for i in range(len(TRUE_ELO)):
        for j in range(i + 1, len(TRUE_ELO)):
            p = 1 / (1 + 10 ** ((TRUE_ELO[j] - TRUE_ELO[i]) / 400))
            for _ in range(games_per_pair):
                i_wins = rng.random() < p
                games.append(((i, j), (1.0, -1.0) if i_wins else (-1.0, 1.0), (i, j)))
    return games


@pytest.mark.parametrize("interval", ["fisher", "bootstrap"])
def test_fit_recovers_known_strengths(interval):
    ratings = rate(NAMES, synthetic_two_player(np.random.default_rng(7)), anchor="random", interval=interval)
    assert ratings.elo[0] == 0.0 and ratings.low[0] == ratings.high[0] == 0.0
    assert np.all(np.abs(ratings.elo - TRUE_ELO) < 60)
    assert np.all(ratings.low <= TRUE_ELO + 1e-9) and np.all(ratings.high + 1e-9 >= TRUE_ELO)
    assert np.all(ratings.high[1:] - ratings.low[1:] < 200)  # 400 games a pair pin a rating to tens of points


def test_intervals_cover_the_truth_about_95_percent_of_the_time():
    covered, trials = 0, 40
    for seed in range(trials):
        ratings = rate(
            NAMES, synthetic_two_player(np.random.default_rng(seed), 100), anchor="random", interval="fisher"
        )
        covered += np.sum((ratings.low[1:] <= TRUE_ELO[1:]) & (TRUE_ELO[1:] <= ratings.high[1:]))
    assert 0.85 <= covered / (3 * trials) <= 1.0


def test_anchor_moves_every_rating_by_the_same_amount():
    games = synthetic_two_player(np.random.default_rng(3), 100)
    by_random = rate(NAMES, games, anchor="random", interval="fisher")
    by_d = rate(NAMES, games, anchor="d", interval="fisher")
    assert by_d.elo[3] == 0.0
    assert np.allclose(by_random.elo - by_random.elo[3], by_d.elo, atol=1e-6)


def test_multiplayer_games_decompose_into_pairwise_outcomes():
    scores = pairwise_scores([2, 0, 1, 3], [0.0, 1.0, 0.0, 0.0], 4)  # agent 0 (seat 1) wins a four-seat game
    assert scores[0].tolist() == [0, 1, 1, 1] and scores[:, 0].tolist() == [0, 0, 0, 0]
    assert scores[1, 2] == scores[2, 1] == 0.5 and scores[1, 3] == 0.5  # the others draw among themselves

    rng = np.random.default_rng(0)
    strength = 10 ** (TRUE_ELO / 400)
    games = []
    for _ in range(1500):  # the winner of four is drawn in proportion to strength
        seats = list(rng.permutation(4))
        winner = rng.choice(4, p=strength[seats] / strength[seats].sum())
        games.append((seats, [float(s == winner) for s in range(4)], "all"))
    ratings = rate(NAMES, games, anchor="random", interval="bootstrap", samples=100)
    assert list(np.argsort(ratings.elo)) == [0, 1, 2, 3]
    assert np.all(ratings.low[1:] > 0)


def test_a_clean_sweep_stays_finite_thanks_to_the_prior():
    scores = np.array([[0.0, 0.0], [50.0, 0.0]])  # agent 1 won all 50 games
    theta, _ = fit_bradley_terry(scores, anchor=0)
    assert np.isfinite(theta).all() and theta[1] > 0


def test_agents_that_never_met_the_anchor_are_an_error():
    games = [((0, 1), (1.0, 0.0), "x"), ((2, 3), (1.0, 0.0), "y")]
    with pytest.raises(ConfigError, match="never met"):
        rate(NAMES, games, anchor="random")
    with pytest.raises(ConfigError, match="not one of the rated agents"):
        rate(NAMES, games, anchor="nobody")


def test_a_clean_sweep_keeps_an_interval_under_the_bootstrap():
    games = [((0, 1), (0.0, 1.0), "a") for _ in range(30)] + [
        ((0, 2), (1.0, -1.0) if g % 3 else (-1.0, 1.0), "b") for g in range(30)
    ]
    ratings = rate(["random", "sweeper", "c"], games, anchor="random", interval="bootstrap", samples=50)
    fisher = rate(["random", "sweeper", "c"], games, anchor="random", interval="fisher")
    assert ratings.low[1] == fisher.low[1] and ratings.high[1] == fisher.high[1] and ratings.high[1] > ratings.low[1]
    assert ratings.low[2] != fisher.low[2]  # agents with mixed results keep the resampled interval
