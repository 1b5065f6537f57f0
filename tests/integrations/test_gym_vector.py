"""The vector environment: shapes, learners always to move, rewards at the ends, autoreset, seeds."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from boardzero.core.errors import ConfigError, IllegalActionError  # noqa: E402
from boardzero.integrations.gym_vector import make_vector_env, random_moves  # noqa: E402


def random_actions(masks: np.ndarray) -> np.ndarray:
    out = np.empty(len(masks), dtype=np.int64)
    random_moves(
        masks,
        np.zeros(len(masks), dtype=np.int64),
        np.ones(len(masks), dtype=np.int64),
        np.random.default_rng(len(masks)).random(len(masks)),
        out,
    )
    return out


@pytest.mark.parametrize("game,players,steps", [("catan", 2, 3000), ("catan", 4, 3000), ("connect4", None, 100)])
def test_learners_move_and_finished_games_pay_and_restart(game, players, steps):
    envs = make_vector_env(game, 8, **({"players": players} if players else {}))
    players = envs.game.num_players
    observations, infos = envs.reset(seed=3)
    assert observations.shape == (8, envs.single_observation_space.shape[0]) and observations.dtype == np.float32
    assert envs.observation_space.contains(observations)
    assert set(infos["seat"].tolist()) <= set(range(players))
    finished, total = 0, 0.0
    for _ in range(steps):
        masks = infos["action_mask"]
        assert masks.any(axis=1).all() and np.array_equal(envs._batch.seats, envs.learners)
        observations, rewards, terminations, truncations, infos = envs.step(random_actions(masks))
        assert not truncations.any() and (rewards[~terminations] == 0).all()
        finished += int(terminations.sum())
        total += float(rewards.sum())
    assert finished >= 8 and total <= finished  # at most 1 per finished game


def test_same_seed_same_games():
    def run(seed):
        envs = make_vector_env("catan", 4, players=3)
        observations, infos = envs.reset(seed=seed)
        for _ in range(50):
            observations, *_, infos = envs.step(random_actions(infos["action_mask"]))
        return observations

    assert np.array_equal(run(1), run(1))


def test_illegal_actions_and_bad_options_fail_clearly():
    envs = make_vector_env("catan", 2, players=2)
    _, infos = envs.reset(seed=0)
    illegal = np.array([int(np.flatnonzero(~infos["action_mask"][i])[0]) for i in range(2)])
    with pytest.raises(IllegalActionError, match="game 0"):
        envs.step(illegal)
    with pytest.raises(ConfigError, match="opponents"):
        make_vector_env("catan", 2, opponents="heuristic")
