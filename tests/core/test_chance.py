"""Chance draws: one uniform from the caller's generator, the same outcome as ``rng.choice`` with the probabilities;
or one uniform keyed by ``(seed, key)``."""

import numpy as np
import pytest

from boardzero.core.api import CHANCE, chance_outcome_by_table, sample_chance
from boardzero.core.chance import keyed_chance, keyed_uniform
from boardzero.core.conformance import ConformanceError, check_game
from boardzero.core.registry import make
from boardzero.games.kuhn_poker import KuhnPoker, KuhnState


@pytest.mark.parametrize("weights", [[1, 1, 1], [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], [1, 0, 1], [2, 3, 0, 1, 7]])
def test_a_draw_picks_what_rng_choice_picks(weights):
    probs = np.array(weights, dtype=np.float64) / sum(weights)
    outcomes = list(zip(range(100, 100 + len(probs)), probs.tolist()))
    ours, numpys = np.random.default_rng(5), np.random.default_rng(5)
    drawn = [chance_outcome_by_table(outcomes, ours.random()) for _ in range(5000)]
    assert drawn == [100 + int(numpys.choice(len(probs), p=probs)) for _ in range(5000)]
    never = {100 + i for i, w in enumerate(weights) if w == 0}
    assert not never & set(drawn) and len(set(drawn)) == len(weights) - len(never)


def test_catan_compiled_lookup_draws_the_same_game_as_the_table():
    """Catan overrides chance_outcome_at with compiled code; a whole game drawn either way is the same game."""
    game = make("catan", players=3)
    fast, table = game.new_state(seed=4), game.new_state(seed=4)
    fast_rng, table_rng, moves = np.random.default_rng(9), np.random.default_rng(9), np.random.default_rng(2)
    chance_steps = 0
    while not fast.is_terminal():
        if fast.current_player == CHANCE:
            outcome = sample_chance(fast, fast_rng)
            assert outcome == chance_outcome_by_table(table.chance_outcomes(), table_rng.random())
            chance_steps += 1
        else:
            legal = fast.legal_actions()
            outcome = int(legal[moves.integers(len(legal))])
        fast.apply(outcome)
        table.apply(outcome)
    assert chance_steps > 100 and np.array_equal(fast.returns(), table.returns())


class _SkewedChanceState(KuhnState):
    def chance_outcome_at(self, u):
        return self.chance_outcomes()[-1][0]  # always the last card: not what the probabilities say


class _SkewedChancePoker(KuhnPoker):
    def new_state(self, *, seed=None):
        return _SkewedChanceState(self, seed)


def test_conformance_catches_a_chance_lookup_that_ignores_the_probabilities():
    with pytest.raises(ConformanceError, match="chance_outcome_at"):
        check_game(_SkewedChancePoker(), num_games=2)


def test_a_decision_node_has_no_chance_draw():
    with pytest.raises(ValueError, match="not a chance node"):
        sample_chance(make("catan").new_state(seed=0), np.random.default_rng(0))
    with pytest.raises(ValueError, match="not a chance node"):
        sample_chance(make("tictactoe").new_state(seed=0), np.random.default_rng(0))


def _splitmix64_numpy(x: np.ndarray) -> np.ndarray:
    """splitmix64 in numpy's wrapping uint64 arithmetic: an implementation apart from the one under test."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def test_keyed_uniform_is_splitmix64_of_the_seed_then_the_key():
    seeds = np.array([0, 1, 7, 79, 2**31 - 1, 2**63 + 5, 2**64 - 1], dtype=np.uint64)
    keys = np.array([0, 1, 2, 100, 9999, 2**40, 2**64 - 1], dtype=np.uint64)
    with np.errstate(over="ignore"):
        for seed in seeds:
            hashed = _splitmix64_numpy(_splitmix64_numpy(np.full(len(keys), seed)) ^ keys)
            expected = (hashed >> np.uint64(11)).astype(np.float64) * 2.0**-53
            assert [keyed_uniform(int(seed), int(p)) for p in keys] == expected.tolist()
    # the inner hash of seed 0 is splitmix64's published first output from state 0, 0xE220A8397B1DCDAF
    assert (
        keyed_uniform(0, 0)
        == (_splitmix64_numpy(np.array([0xE220A8397B1DCDAF], np.uint64))[0] >> np.uint64(11)) * 2.0**-53
    )


def test_keyed_uniform_is_uniform_in_the_unit_interval_and_differs_by_seed_and_key():
    draws = np.array([keyed_uniform(seed, key) for seed in range(100) for key in range(200)])
    assert draws.min() >= 0.0 and draws.max() < 1.0
    counts = np.histogram(draws, bins=20, range=(0.0, 1.0))[0]
    chi_square = float(((counts - len(draws) / 20) ** 2 / (len(draws) / 20)).sum())
    assert chi_square < 60  # 19 degrees of freedom: above 43.8 one time in 1,000 for a uniform stream
    assert len(set(draws.tolist())) == len(draws)
    by_key = np.array([[keyed_uniform(seed, key) for key in range(200)] for seed in range(100)])
    assert abs(np.corrcoef(by_key[:, :-1].ravel(), by_key[:, 1:].ravel())[0, 1]) < 0.03


def test_keyed_uniform_refuses_keys_outside_64_bits():
    for seed, key in ((-1, 0), (0, -1), (2**64, 0), (0, 2**64)):
        with pytest.raises(ValueError, match=r"seed and a key in 0 \.\. 2\*\*64 - 1"):
            keyed_uniform(seed, key)


def test_keyed_dice_follow_the_dice_probabilities():
    state = make("catan", players=2).new_state(seed=0)
    while state.current_player != CHANCE:
        state.apply(state.random_action(np.random.default_rng(0)))
    outcomes = dict(state.chance_outcomes())
    drawn = [keyed_chance(state, seed, 30) for seed in range(36_000)]
    for outcome, probability in outcomes.items():
        share = drawn.count(outcome) / len(drawn)
        assert abs(share - probability) < 4 * (probability * (1 - probability) / len(drawn)) ** 0.5, outcome
