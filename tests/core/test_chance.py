"""Chance draws: one uniform from the caller's generator, the same outcome as ``rng.choice`` with the probabilities."""

import numpy as np
import pytest

from boardzero.core.api import CHANCE, chance_outcome_by_table, sample_chance
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
