"""Afterstate values: identical afterstates valued once give the values of valuing every one."""

from __future__ import annotations

import numpy as np
import torch

import boardzero.nn.evaluator as evaluator
from boardzero.core.registry import make
from boardzero.nn import build_network, spec_for_game
from boardzero.nn.evaluator import afterstate_values, distinct_rows


def test_distinct_rows_group_equal_rows_and_keep_different_rows_apart():
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((6, 5)).astype(np.float32)
    rows[3] = rows[0]
    rows[5] = rows[0]
    rows[4] = rows[2]
    first, inverse = distinct_rows(rows)
    assert len(first) == 3 and np.array_equal(rows[first][inverse], rows)
    assert inverse[0] == inverse[3] == inverse[5] and inverse[2] == inverse[4] and inverse[0] != inverse[1]


def test_rows_with_the_same_projection_are_still_told_apart(monkeypatch):
    monkeypatch.setattr(evaluator, "_projection", lambda width, dtype: np.zeros(width, dtype))
    rows = np.array([[1, 0], [0, 1], [1, 0], [2, 2]], np.float32)  # every row projects to 0
    first, inverse = distinct_rows(rows)
    assert np.array_equal(rows[first][inverse], rows) and len(first) == 3


def test_valued_once_or_each_the_values_are_the_same_in_a_trading_game():
    game = make("catan", players=2, trading=True)
    torch.manual_seed(0)
    net = build_network(spec_for_game(game, "mlp", hidden=16, blocks=1)).eval()
    env = game.batched(8, seed=1)
    env.reset()
    rng = np.random.default_rng(1)
    alike = 0
    for _ in range(400):  # random play into the main phase, where offers make afterstates alike
        rows = np.flatnonzero(env.masks.sum(axis=1) > 1)
        if len(rows):
            after = env.afterstates(rows)
            seats = env.seats[after.row]
            once = afterstate_values(net, after, seats, distinct=True)
            each = afterstate_values(net, after, seats, distinct=False)
            np.testing.assert_allclose(once, each, rtol=1e-6, atol=1e-7)
            alike += len(after.obs) - len(distinct_rows(np.ascontiguousarray(after.obs))[0])
        scores = rng.random(env.masks.shape) * env.masks
        env.step(np.argmax(scores, axis=1))
    assert alike > 0  # the check saw afterstates that were alike
