"""The vectorised Catan environment: shapes, learners always to move, rewards at the ends, autoreset."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from boardzero.core.errors import ConfigError, IllegalActionError  # noqa: E402
from boardzero.integrations.gym_vector import CatanVectorEnv, random_moves  # noqa: E402


def random_actions(masks: np.ndarray) -> np.ndarray:
    out = np.empty(len(masks), dtype=np.int64)
    random_moves(masks, np.zeros(len(masks), dtype=np.int64), np.ones(len(masks), dtype=np.int64), out)
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_learners_move_and_finished_games_pay_and_restart(players):
    envs = CatanVectorEnv(8, players=players)
    observations, infos = envs.reset(seed=3)
    assert observations.shape == (8, envs.single_observation_space.shape[0]) and observations.dtype == np.float32
    assert envs.observation_space.contains(observations)
    assert set(infos["seat"].tolist()) <= set(range(players))
    finished, total = 0, 0.0
    for _ in range(3000):
        masks = infos["action_mask"]
        assert masks.any(axis=1).all() and np.array_equal(envs._batch.seats, envs.learners)
        observations, rewards, terminations, truncations, infos = envs.step(random_actions(masks))
        assert not truncations.any() and (rewards[~terminations] == 0).all()
        finished += int(terminations.sum())
        total += float(rewards.sum())
    assert finished >= 8 and 0 < total <= finished  # 'win' returns: at most 1 per finished game


def test_same_seed_same_games():
    def run(seed):
        envs = CatanVectorEnv(4, players=3)
        observations, infos = envs.reset(seed=seed)
        for _ in range(50):
            observations, *_ , infos = envs.step(random_actions(infos["action_mask"]))
        return observations

    assert np.array_equal(run(1), run(1))


def test_illegal_actions_and_bad_options_fail_clearly():
    envs = CatanVectorEnv(2, players=2)
    _, infos = envs.reset(seed=0)
    illegal = np.array([int(np.flatnonzero(~infos["action_mask"][i])[0]) for i in range(2)])
    with pytest.raises(IllegalActionError, match="game 0"):
        envs.step(illegal)
    with pytest.raises(ConfigError, match="opponents"):
        CatanVectorEnv(2, opponents="heuristic")
