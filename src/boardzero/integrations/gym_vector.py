"""Many games as one Gymnasium ``VectorEnv``, stepped by the game's batched form (``Game.batched``: Catan's is
the engine's compiled batch, ``BatchedCatan``; other games use the plain ``core.batched.StateBatch``).

    from boardzero.integrations.gym_vector import make_vector_env
    envs = make_vector_env("catan", 256, players=2)       # the learner holds one seat of each game
    observations, infos = envs.reset(seed=0)               # float32[256, FLAT_SIZE]
    actions = policy(observations, infos["action_mask"])   # bool[256, 244] legal actions
    observations, rewards, terminations, truncations, infos = envs.step(actions)

The same game as ``gym.BoardzeroEnv`` with ``opponents=["random"]``, in bulk: the
learner's seat in each game is drawn at reset; after the learner's actions, the
other seats play uniformly random legal moves (picked in compiled code from a
seeded stream) until every game is back at its learner; chance is resolved by the
batch, each game from its own seeded stream. A finished game pays the learner's
return and is at once replaced by a fresh one whose first observation is what
``step`` returns for it (Gymnasium's same-step autoreset). Opponents other than
``random`` would leave the batch: use ``gym.BoardzeroEnv`` for them. Needs
``pip install 'boardzero[gym]'``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.core.api import Game
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import make
from boardzero.integrations.common import observation_box, observation_key, require

gymnasium = require("gymnasium", "gym")
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402


@njit(cache=True)
def random_moves(masks, seats, learners, uniforms, out):
    """A uniformly random legal action (from ``uniforms`` in [0, 1), one per game) for each game whose seat to
    move is not its learner's; -1 elsewhere. Returns how many games got one."""
    moved = 0
    for i in range(masks.shape[0]):
        out[i] = -1
        if seats[i] == learners[i]:
            continue
        count = 0
        for a in range(masks.shape[1]):
            count += masks[i, a]
        k = min(int(uniforms[i] * count), count - 1)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
        moved += 1
    return moved


class BatchedVectorEnv(VectorEnv):
    """``num_envs`` games, one learner seat each, random opponents (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, game: Game, num_envs: int, *, opponents: str = "random", observation: str = "flat", validate: bool = True
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError("num_envs", f"must be a positive integer, got {num_envs!r}")
        if opponents != "random":
            raise ConfigError(
                "opponents",
                f"{opponents!r}: the batch plays random opponents only; "
                "boardzero.integrations.gym.BoardzeroEnv takes any agent",
            )
        self.game = game
        self.observation_key = observation_key(game, observation)
        self.num_envs = num_envs
        self.validate = validate
        self.single_observation_space = observation_box(self.game, observation)
        self.single_action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._batch = None
        self.learners = np.zeros(num_envs, dtype=np.int64)  # [B] the learner's seat in each game
        self._moves = np.empty(num_envs, dtype=np.int64)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._batch = self.game.batched(
            self.num_envs, seed=int(self.np_random.integers(2**31)), observation_key=self.observation_key
        )
        self._batch.reset()
        self.learners[:] = self.np_random.integers(self.game.num_players, size=self.num_envs)
        rewards, finished = self._play_opponents()
        return self._batch.obs.copy(), self._infos()

    def step(self, actions):
        actions = np.asarray(actions, dtype=np.int64)
        batch = self._batch
        if self.validate and not batch.masks[np.arange(self.num_envs), actions].all():
            bad = int(np.flatnonzero(~batch.masks[np.arange(self.num_envs), actions])[0])
            raise IllegalActionError(int(actions[bad]), f"not legal in game {bad}")
        _, _, _, step_rewards, done = batch.step(actions)
        rewards = np.where(done, step_rewards[np.arange(self.num_envs), self.learners], 0.0)
        terminated = done.copy()
        more_rewards, finished = self._play_opponents()
        rewards = np.where(terminated, rewards, more_rewards)
        terminated |= finished
        return (
            batch.obs.copy(),
            rewards.astype(np.float64),
            terminated,
            np.zeros(self.num_envs, dtype=bool),
            self._infos(),
        )

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, num_actions]: each learner's legal actions now."""
        return self._batch.masks.copy()

    def _play_opponents(self) -> tuple[np.ndarray, np.ndarray]:
        """Random opponents move until every game is at its learner; returns the learner's reward and whether
        its game finished meanwhile (the row then holds a fresh game)."""
        batch = self._batch
        rewards = np.zeros(self.num_envs)
        finished = np.zeros(self.num_envs, dtype=bool)
        while random_moves(batch.masks, batch.seats, self.learners, self.np_random.random(self.num_envs), self._moves):
            _, _, _, step_rewards, done = batch.step(self._moves)
            new = done & ~finished
            rewards[new] = step_rewards[new, self.learners[new]]
            finished |= done
        return rewards, finished

    def _infos(self) -> dict:
        return {"action_mask": self._batch.masks.copy(), "seat": self.learners.copy()}


def make_vector_env(
    game: str, num_envs: int, *, opponents: str = "random", observation: str = "flat", validate: bool = True, **options
) -> BatchedVectorEnv:
    """``num_envs`` games of a registered game as one VectorEnv; ``options`` are the game's (``players=2``)."""
    return BatchedVectorEnv(
        make(game, **options), num_envs, opponents=opponents, observation=observation, validate=validate
    )
