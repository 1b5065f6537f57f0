"""Many games stepped at once: one 2-D state array, one compiled call per step.

    env = BatchedCatan(game, batch_size=1024, seed=0)
    masks, obs, seats = env.reset()               # bool[B, 244], float32[B, FLAT_SIZE], int[B]
    while training:
        actions = policy(obs, masks)              # one legal action per game, for the seat to move
        masks, obs, seats, rewards, done = env.step(actions)

Chance nodes (dice, card draws, steals) are resolved inside ``step`` with numba's
generator (seeded once by ``seed``; it is shared by the whole process). A game
that ends on ``step`` reports ``done[i] = True`` and its returns in
``rewards[i]`` (absolute seat order, the game's ``returns`` option), and row ``i``
is at once refilled with a fresh game (new board for ``board=random``), whose
first mask and observation are what ``step`` returns for it. The returned arrays
are the environment's own buffers, overwritten by the next call: copy what you keep.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan import engine as E
from boardzero.games.catan import observe as O


@njit(cache=True)
def _resolve_chance(s):
    while True:
        ph = s[E.G_PHASE]
        if ph == E.PH_DICE or ph == E.PH_DEV_DRAW or ph == E.PH_STEAL:
            E.apply_action(s, E.sample_chance_outcome(s))
        else:
            return


@njit(cache=True)
def _step_batch(states, actions, masks, obs, seats, done, encode_obs):
    buf = np.empty(E.NUM_ACTIONS, dtype=np.int64)
    for i in range(states.shape[0]):
        s = states[i]
        if actions[i] >= 0:
            E.apply_action(s, actions[i])
            _resolve_chance(s)
        done[i] = s[E.G_PHASE] == E.PH_OVER
        if done[i]:
            continue
        _fill(s, i, buf, masks, obs, seats, encode_obs, False)


@njit(cache=True)
def _fill(s, i, buf, masks, obs, seats, encode_obs, static):
    seat = s[E.G_DECIDER]
    seats[i] = seat
    masks[i, :] = False
    c = E.legal_actions(s, buf)
    for k in range(c):
        masks[i, buf[k]] = True
    if encode_obs:
        O.encode(s, seat, obs[i], static)


@njit(cache=True)
def _check_actions(states, actions):
    """Index of the first game whose action is illegal, or -1."""
    for i in range(states.shape[0]):
        if actions[i] >= 0 and not E.is_legal(states[i], actions[i]):
            return i
    return -1


class BatchedCatan:
    """``batch_size`` independent games of ``game`` (a ``Catan``) stepped together."""

    def __init__(self, game, batch_size: int, seed: int = 0, *, observations: bool = True, validate: bool = False):
        self.game = game
        self.batch_size = batch_size
        self.observations = observations
        self.validate = validate
        self.rng = np.random.default_rng(seed)
        E.seed_numba(int(self.rng.integers(2**31)))
        self.states = np.zeros((batch_size, E.STATE_SIZE), dtype=np.int32)  # [B, STATE_SIZE]
        self.masks = np.zeros((batch_size, E.NUM_ACTIONS), dtype=np.bool_)  # [B, A]
        self.obs = np.zeros((batch_size, O.FLAT_SIZE if observations else 1), dtype=np.float32)  # [B, F]
        self.seats = np.zeros(batch_size, dtype=np.int64)  # [B]
        self.done = np.zeros(batch_size, dtype=np.bool_)  # [B]
        self.rewards = np.zeros((batch_size, game.num_players), dtype=np.float64)  # [B, P]
        self._buf = np.empty(E.NUM_ACTIONS, dtype=np.int64)

    def reset(self):
        """Fresh games in every row; returns (masks, obs, seats)."""
        for i in range(self.batch_size):
            self._new_game(i)
        return self.masks, self.obs, self.seats

    def _new_game(self, i: int) -> None:
        self.states[i] = self.game.initial_array(int(self.rng.integers(2**31)))
        _fill(self.states[i], i, self._buf, self.masks, self.obs, self.seats, self.observations, True)

    def step(self, actions: np.ndarray):
        """Apply one action per game (-1 leaves a game as it is); returns (masks, obs, seats, rewards, done)."""
        actions = np.asarray(actions, dtype=np.int64)
        if self.validate:
            bad = _check_actions(self.states, actions)
            if bad >= 0:
                raise ValueError(f"game {bad}: action {int(actions[bad])} is not legal")
        _step_batch(self.states, actions, self.masks, self.obs, self.seats, self.done, self.observations)
        self.rewards[:] = 0.0
        for i in np.flatnonzero(self.done):
            self.rewards[i] = self.final_returns(self.states[i])
            self._new_game(int(i))
        return self.masks, self.obs, self.seats, self.rewards, self.done

    def final_returns(self, row: np.ndarray) -> np.ndarray:
        from boardzero.games.catan.game import CatanState

        return CatanState(self.game, row.copy(), None).returns()
