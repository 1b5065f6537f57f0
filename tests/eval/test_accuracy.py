"""Move accuracy against the exact solvers."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.eval.accuracy import (
    expected_random_accuracy,
    load_positions,
    move_accuracy,
    sample_positions,
    save_positions,
)


def test_tictactoe_positions_and_accuracies(rng, tmp_path):
    game = make("tictactoe")
    positions = sample_positions(game, 40, rng)
    assert len(positions) == 40
    assert len({tuple(p.history) for p in positions}) == 40
    for p in positions:  # every position has a move that gives something away
        legal = p.values[p.values > -128]
        assert legal.min() < legal.max()
    perfect = move_accuracy("solver", game, positions, rng)
    assert perfect.accuracy == 1.0 and perfect.positions == 40
    random = move_accuracy("random", game, positions, rng)
    expected = expected_random_accuracy(positions)
    draws = [move_accuracy("random", game, positions, np.random.default_rng(seed)).accuracy for seed in range(40)]
    assert 0.1 < expected < 0.9 and abs(np.mean(draws) - expected) < 0.03  # 40 draws of random average to it
    assert random.accuracy < 0.9
    assert sum(n for _, n in random.by_best.values()) == 40
    path = tmp_path / "positions.json"
    save_positions(path, game, positions)
    again = load_positions(path, game)
    assert [p.history for p in again] == [p.history for p in positions]
    assert all((a.values == b.values).all() for a, b in zip(again, positions))
    with pytest.raises(ConfigError, match="connect4"):
        load_positions(path, make("connect4"))


def test_connect4_late_positions(rng):
    game = make("connect4")
    positions = sample_positions(game, 6, rng, min_ply=22, max_ply=30)
    assert len(positions) == 6 and all(22 <= len(p.history) <= 30 for p in positions)
    assert move_accuracy("solver", game, positions, rng).accuracy == 1.0


def test_unsolved_games_are_refused(rng):
    with pytest.raises(ConfigError, match="solver"):
        sample_positions(make("kuhn_poker"), 3, rng)
