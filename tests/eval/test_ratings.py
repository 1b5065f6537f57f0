"""Bradley-Terry ratings: known strengths come back from synthetic results, with honest intervals."""

import json

import numpy as np
import pytest

from boardzero.core.errors import ConfigError
from boardzero.eval.ratings import clean_sweeps, fit_bradley_terry, pairwise_scores, rate

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
    with pytest.raises(
        ConfigError,
        match=r"^ratings: agents \[2, 3\] never met the anchor's group of agents \(directly or through others\), "
        "so their ratings are undefined$",
    ) as error:
        rate(NAMES, games, anchor="random")
    assert error.value.field == "ratings"
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


def test_an_agent_twice_in_one_game_scores_against_each_other_seat():
    # agent 0 holds seats 0 and 1, agent 1 seat 2, agent 2 seat 3; seat 1 wins, seat 3 comes last
    scores = pairwise_scores([0, 0, 1, 2], [0.0, 2.0, 0.0, -1.0], 3)
    assert scores.tolist() == [[0.0, 1.5, 2.0], [0.5, 0.0, 1.0], [0.0, 0.0, 0.0]]


def test_clean_sweeps_are_agents_that_won_or_lost_every_point_they_played():
    scores = np.array(
        [
            [0.0, 1.0, 0.0, 0.0],  # won its one game against agent 1
            [0.0, 0.0, 1.0, 0.0],  # lost to 0, beat 2: mixed
            [0.0, 0.0, 0.0, 0.0],  # lost both its games
            [0.0, 0.0, 0.0, 0.0],  # played nothing
        ]
    )
    scores[2, 1] = 0.0
    scores[1, 2] = 2.0  # agent 1 beat agent 2 twice
    assert clean_sweeps(scores).tolist() == [True, False, True, False]
    scores[1, 2], scores[2, 1] = 1.0, 1.0  # now agent 2 won one of its games against 1
    assert clean_sweeps(scores).tolist() == [True, False, False, False]


def test_the_prior_pulls_a_clean_sweep_to_the_documented_gap():
    games = [((0, 1), (-1.0, 1.0), "x") for _ in range(500)]  # agent 1 won 500 straight games
    ratings = rate(["random", "sweeper"], games, anchor="random", interval="fisher")
    assert ratings.elo[1] == pytest.approx(400 * np.log10(2 * 500 / 1.0), abs=5)  # about 1200
    stronger_prior = rate(["random", "sweeper"], games, anchor="random", interval="fisher", prior_draws=4.0)
    assert stronger_prior.elo[1] == pytest.approx(400 * np.log10(2 * 500 / 4.0), abs=5)


def test_the_fisher_interval_is_196_standard_errors():
    games = [((0, 1), (1.0, -1.0) if g % 2 else (-1.0, 1.0), "x") for g in range(100)]  # 50 wins each
    ratings = rate(["random", "b"], games, anchor="random", interval="fisher")
    # with the prior's half game each way: 101 games at p = 1/2, information 101/4
    standard_error = 400 / np.log(10) / np.sqrt(101 / 4)
    assert ratings.elo[1] == pytest.approx(0.0, abs=1e-6)
    assert ratings.high[1] == pytest.approx(1.96 * standard_error) and ratings.low[1] == pytest.approx(
        -1.96 * standard_error
    )


def test_the_bootstrap_repeats_by_default_and_draws_from_the_generator_given():
    games = synthetic_two_player(np.random.default_rng(5), 40)
    default = rate(NAMES, games, anchor="random", samples=30)
    assert np.array_equal(rate(NAMES, games, anchor="random", samples=30).low, default.low)
    other = rate(NAMES, games, anchor="random", samples=30, rng=np.random.default_rng(1))
    assert not np.array_equal(other.low, default.low) and np.array_equal(other.elo, default.elo)


def test_the_bootstrap_resamples_within_each_lineup():
    # two games of one lineup among sixty: resampled all together, some samples would lack agent "b" entirely
    games = [((0, 1), (1.0, -1.0) if g else (-1.0, 1.0), "with b") for g in range(2)]
    games += [((0, 2), (1.0, -1.0) if g % 2 else (-1.0, 1.0), "with c") for g in range(60)]
    ratings = rate(["random", "b", "c"], games, anchor="random", samples=100)
    assert np.all(ratings.low <= ratings.elo) and np.all(ratings.elo <= ratings.high)


def test_the_bootstrap_refits_with_the_same_prior():
    games = [((0, 1), (-1.0, 1.0) if g % 20 else (1.0, -1.0), "x") for g in range(200)]  # b wins 190 of 200
    ratings = rate(["random", "b"], games, anchor="random", samples=100, prior_draws=40.0)
    assert ratings.elo[1] == pytest.approx(400 * np.log10(210 / 30))  # 20 virtual games each way
    assert ratings.low[1] < ratings.elo[1] < ratings.high[1]


def test_two_agents_fit_the_log_odds_of_their_results_with_the_prior():
    # agent 1 won 30 and lost 10: with half a virtual game each way, log-strength ln(30.5 / 10.5)
    theta, information = fit_bradley_terry(np.array([[0.0, 10.0], [30.0, 0.0]]), anchor=0)
    assert theta[0] == 0.0 and theta[1] == pytest.approx(np.log(30.5 / 10.5), rel=1e-9)
    assert information[0, 0] == pytest.approx(41 * (30.5 / 41) * (10.5 / 41), rel=1e-9)
    one_game, _ = fit_bradley_terry(np.array([[0.0, 0.0], [1.0, 0.0]]), anchor=0)  # the prior counts from one game
    assert one_game[1] == pytest.approx(np.log(1.5 / 0.5), rel=1e-9)
    sweep, _ = fit_bradley_terry(np.array([[0.0, 0.0], [500.0, 0.0]]), anchor=0)
    assert sweep[1] == pytest.approx(np.log(2 * 500 / 1.0), rel=1e-3)  # the documented pull: about 1200 Elo


def test_the_information_is_the_curvature_of_the_log_likelihood():
    scores = np.array([[0.0, 12.0, 3.0], [8.0, 0.0, 9.0], [5.0, 6.0, 0.0]])
    theta, information = fit_bradley_terry(scores, anchor=0)
    wins = scores + 0.5  # the prior: half a game each way between agents that met
    np.fill_diagonal(wins, 0.0)

    def log_likelihood(free):
        t = np.concatenate([[0.0], free])
        return float(sum(wins[i, j] * -np.log1p(np.exp(t[j] - t[i])) for i in range(3) for j in range(3) if i != j))

    h = 1e-4
    curvature = np.empty((2, 2))
    for i in range(2):
        for j in range(2):
            ei, ej = np.eye(2)[i] * h, np.eye(2)[j] * h
            x = theta[1:]
            curvature[i, j] = (
                log_likelihood(x + ei + ej)
                - log_likelihood(x + ei - ej)
                - log_likelihood(x - ei + ej)
                + log_likelihood(x - ei - ej)
            ) / (4 * h * h)
    assert information == pytest.approx(-curvature, rel=1e-4)
    gradient = [(log_likelihood(theta[1:] + e * h) - log_likelihood(theta[1:] - e * h)) / (2 * h) for e in np.eye(2)]
    assert gradient == pytest.approx([0.0, 0.0], abs=1e-6)  # the fit is the maximum


def test_bad_requests_name_the_field_and_what_is_allowed():
    games = [((0, 1), (1.0, 0.0), "x")]
    cases = [
        ({"anchor": "nobody"}, "anchor", "'nobody' is not one of the rated agents: random, b, c, d"),
        ({"anchor": "random", "interval": "exact"}, "interval", "'exact' is not allowed; allowed: bootstrap, fisher"),
    ]
    for options, field, message in cases:
        with pytest.raises(ConfigError, match=f"^{field}: {message}$") as error:
            rate(NAMES, games, **options)
        assert error.value.field == field
    with pytest.raises(ConfigError, match="^ratings: no games to rate$") as error:
        rate(NAMES, [], anchor="random")
    assert error.value.field == "ratings"


def test_ratings_as_json_list_each_agent_with_its_interval():
    games = [((0, 1), (1.0, -1.0) if g % 3 else (-1.0, 1.0), "x") for g in range(30)]
    ratings = rate(["random", "b"], games, anchor="random", interval="fisher")
    data = json.loads(json.dumps(ratings.to_dict()))
    assert data == {
        "anchor": "random",
        "interval": "fisher",
        "games": 30,
        "ratings": [
            {"name": "random", "elo": 0.0, "ci95": [0.0, 0.0]},
            {"name": "b", "elo": float(ratings.elo[1]), "ci95": [float(ratings.low[1]), float(ratings.high[1])]},
        ],
    }
    assert data["ratings"][1]["ci95"][0] < data["ratings"][1]["elo"] < -50  # b won a third of its games


def test_one_drawn_game_without_a_prior_connects_two_agents():
    ratings = rate(["random", "b"], [((0, 1), (0.0, 0.0), "x")], anchor="random", interval="fisher", prior_draws=0.0)
    assert ratings.elo.tolist() == [0.0, 0.0] and ratings.high[1] > 0
