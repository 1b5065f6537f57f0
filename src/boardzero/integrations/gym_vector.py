"""Many Catan games as one Gymnasium ``VectorEnv``, stepped by the engine's compiled batch (``BatchedCatan``).

    from boardzero.integrations.gym_vector import CatanVectorEnv
    envs = CatanVectorEnv(256, players=2)                  # the learner holds one seat of each game
    observations, infos = envs.reset(seed=0)               # float32[256, FLAT_SIZE]
    actions = policy(observations, infos["action_mask"])   # bool[256, 244] legal actions
    observations, rewards, terminations, truncations, infos = envs.step(actions)

The same game as ``gym.BoardzeroEnv`` with ``opponents=["random"]``, in bulk: the
learner's seat in each game is drawn at reset; after the learner's actions, the
other seats play uniformly random legal moves inside compiled code until every
game is back at its learner (chance is resolved by the engine). A finished
game pays the learner's return and is at once replaced by a fresh one whose
first observation is what ``step`` returns for it (Gymnasium's same-step
autoreset). Opponents other than ``random`` would leave the compiled loop: use
``gym.BoardzeroEnv`` for them. Needs ``pip install 'boardzero[gym]'``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import make
from boardzero.games.catan import BatchedCatan
from boardzero.integrations.common import observation_box, require

gymnasium = require("gymnasium", "gym")
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402


@njit(cache=True)
def random_moves(masks, seats, learners, out):
    """A uniformly random legal action for each game whose seat to move is not its learner's; -1 elsewhere.
    Returns how many games got one (numba's generator, seeded by BatchedCatan)."""
    moved = 0
    for i in range(masks.shape[0]):
        out[i] = -1
        if seats[i] == learners[i]:
            continue
        count = 0
        for a in range(masks.shape[1]):
            count += masks[i, a]
        k = np.random.randint(0, count)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
        moved += 1
    return moved


class CatanVectorEnv(VectorEnv):
    """``num_envs`` Catan games, one learner seat each, random opponents (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, *, players: int = 2, opponents: str = "random", validate: bool = True,
                 **options):
        if num_envs < 1:
            raise ConfigError("num_envs", f"must be at least 1, got {num_envs}")
        if opponents != "random":
            raise ConfigError("opponents", f"{opponents!r}: the compiled batch plays random opponents only; "
                                           "boardzero.integrations.gym.BoardzeroEnv takes any agent")
        self.game = make("catan", players=players, **options)
        self.num_envs = num_envs
        self.validate = validate
        self.single_observation_space = observation_box(self.game, "flat")
        self.single_action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._batch: BatchedCatan | None = None
        self.learners = np.zeros(num_envs, dtype=np.int64)  # [B] the learner's seat in each game
        self._moves = np.empty(num_envs, dtype=np.int64)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        seed = int(self.np_random.integers(2**31))
        self._batch = BatchedCatan(self.game, self.num_envs, seed)
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
        return (batch.obs.copy(), rewards.astype(np.float64), terminated, np.zeros(self.num_envs, dtype=bool),
                self._infos())

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, num_actions]: each learner's legal actions now."""
        return self._batch.masks.copy()

    def _play_opponents(self) -> tuple[np.ndarray, np.ndarray]:
        """Random opponents move until every game is at its learner; returns the learner's reward and whether
        its game finished meanwhile (the row then holds a fresh game)."""
        batch = self._batch
        rewards = np.zeros(self.num_envs)
        finished = np.zeros(self.num_envs, dtype=bool)
        while random_moves(batch.masks, batch.seats, self.learners, self._moves):
            _, _, _, step_rewards, done = batch.step(self._moves)
            new = done & ~finished
            rewards[new] = step_rewards[new, self.learners[new]]
            finished |= done
        return rewards, finished

    def _infos(self) -> dict:
        return {"action_mask": self._batch.masks.copy(), "seat": self.learners.copy()}
