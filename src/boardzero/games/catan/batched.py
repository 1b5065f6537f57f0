"""Many games stepped at once: one 2-D state array, one compiled call per step (``core.batched``'s
interface, Catan's fast path; ``Catan.batched`` returns it).

    env = BatchedCatan(game, batch_size=1024, seed=0)
    masks, obs, seats = env.reset()               # bool[B, 244], float32[B, FLAT_SIZE], int[B]
    while training:
        actions = policy(obs, masks)              # one legal action per game, for the seat to move
        masks, obs, seats, rewards, done = env.step(actions)

Chance nodes (dice, card draws, steals) are resolved inside ``step``. Each game
draws from its own stream (splitmix64, seeded from ``seed`` and the game's
ordinal when the game starts), so a run is reproducible whatever else the
process does. A game that ends on ``step`` reports ``done[i] = True`` and its
returns in ``rewards[i]`` (absolute seat order, the game's ``returns`` option),
and row ``i`` is at once refilled with a fresh game (new board for
``board=random``), whose first mask and observation are what ``step`` returns
for it. The returned arrays are the environment's own buffers, overwritten by
the next call: copy what you keep.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.core.batched import Afterstates, check_batch_size
from boardzero.core.errors import ConfigError
from boardzero.games.catan import engine as E, fields as F, observe as O
from boardzero.games.catan.offsets import A_OFFER, MAX_ACTIONS, PH_DEV_DRAW, PH_DICE, PH_OVER, PH_STEAL, STATE_SIZE
from boardzero.games.catan.returns import final_returns
from boardzero.games.catan.trades import weighed_position

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def _uniform(streams, i):
    """Next uniform in [0, 1) of game ``i``'s splitmix64 stream."""
    x = streams[i] + _GOLDEN
    streams[i] = x
    z = (x ^ (x >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _resolve_chance(s, streams, i, ids, probs):
    """Draw chance outcomes from game ``i``'s stream until a seat decides or the game is over."""
    while True:
        ph = F.phase(s)
        if ph != PH_DICE and ph != PH_DEV_DRAW and ph != PH_STEAL:
            return
        c = E.chance_outcomes(s, ids, probs)
        u = _uniform(streams, i)
        pick = c - 1
        acc = 0.0
        for k in range(c):
            acc += probs[k]
            if u < acc:
                pick = k
                break
        E.apply_action(s, ids[pick])


@njit(cache=True)
def _step_batch(states, actions, masks, obs, seats, done, encode_obs, streams):
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    ids = np.empty(11, dtype=np.int64)
    probs = np.empty(11, dtype=np.float64)
    for i in range(states.shape[0]):
        s = states[i]
        if actions[i] >= 0:
            E.apply_action(s, actions[i])
            _resolve_chance(s, streams, i, ids, probs)
        done[i] = F.phase(s) == PH_OVER
        if done[i]:
            continue
        _fill(s, i, buf, masks, obs, seats, encode_obs, False)


@njit(cache=True)
def _start(states, i, streams, masks, obs, seats, encode_obs):
    """Resolve any chance at the start of game ``i`` and describe it."""
    ids = np.empty(11, dtype=np.int64)
    probs = np.empty(11, dtype=np.float64)
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    _resolve_chance(states[i], streams, i, ids, probs)
    _fill(states[i], i, buf, masks, obs, seats, encode_obs, True)


@njit(cache=True)
def _fill(s, i, buf, masks, obs, seats, encode_obs, static):
    seat = F.decider(s)
    seats[i] = seat
    masks[i, :] = False
    c = E.legal_actions(s, buf)
    for k in range(c):
        masks[i, buf[k]] = True
    _encode(s, seat, obs[i], static, encode_obs)


@njit(cache=True)
def _encode(s, seat, out, static, encoding):
    """Write the observation ``encoding`` names (``_ENCODINGS``; 0: none) of ``seat`` into out."""
    if encoding == 1:
        O.encode(s, seat, out, static)
    elif encoding == 2:
        O.encode_rich(s, seat, out, static)


@njit(cache=True)
def _afterstates(states, rows, out_obs, out_row, out_action, out_over, encoding):
    """The mover's observation after each legal move of the games in ``rows``; returns how many."""
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    after = np.empty(states.shape[1], dtype=states.dtype)
    k = 0
    for j in range(rows.shape[0]):
        i = rows[j]
        s = states[i]
        seat = F.decider(s)
        c = E.legal_actions(s, buf)
        for m in range(c):
            after[:] = s
            E.apply_action(after, buf[m])
            if buf[m] >= A_OFFER:  # a trade move (games with trading only) is weighed by the trade it makes
                weighed_position(after, seat, buf[m])
            _encode(after, seat, out_obs[k], True, encoding)
            out_row[k] = i
            out_action[k] = buf[m]
            out_over[k] = F.phase(after) == PH_OVER
            k += 1
    return k


@njit(cache=True)
def _check_actions(states, actions):
    """Index of the first game whose action is illegal, or -1."""
    for i in range(states.shape[0]):
        if actions[i] >= 0 and not E.is_legal(states[i], actions[i]):
            return i
    return -1


_ENCODINGS = {"flat": 1, "rich": 2}  # observation key -> the encoding _fill writes (0: none)


class BatchedCatan:
    """``batch_size`` independent games of ``game`` (a ``Catan``) stepped together."""

    def __init__(
        self,
        game,
        batch_size: int,
        seed: int = 0,
        *,
        observations: bool = True,
        validate: bool = False,
        observation_key: str | None = None,
    ):
        if observation_key not in (None, *_ENCODINGS):
            raise ConfigError(
                "observation_key",
                f"the batched Catan encodes the {' or '.join(map(repr, _ENCODINGS))} "
                f"observation, not {observation_key!r}",
            )
        self.game = game
        self.num_envs = self.batch_size = check_batch_size(batch_size)
        self.observation_key = observation_key or "flat"
        self.width = O.RICH_SIZE if self.observation_key == "rich" else O.FLAT_SIZE
        self.observations = observations
        self._encoding = _ENCODINGS[self.observation_key] if observations else 0
        self.validate = validate
        self.seed = int(seed)
        self.games_started = 0
        self.states = np.zeros((batch_size, STATE_SIZE), dtype=np.int32)  # [B, STATE_SIZE]
        self.streams = np.zeros(batch_size, dtype=np.uint64)  # [B] splitmix64 state of each game's chance draws
        self.setup_seeds = np.zeros(batch_size, dtype=np.int64)  # [B] the board seed of each game (state_of)
        self.first_streams = np.zeros(batch_size, dtype=np.uint64)  # [B] each stream before the game's first draw
        self.masks = np.zeros((batch_size, game.num_actions), dtype=np.bool_)  # [B, A]
        self.obs = np.zeros((batch_size, self.width if observations else 1), dtype=np.float32)  # [B, F]
        self.seats = np.zeros(batch_size, dtype=np.int64)  # [B]
        self.done = np.zeros(batch_size, dtype=np.bool_)  # [B]
        self.rewards = np.zeros((batch_size, game.num_players), dtype=np.float64)  # [B, P]

    def reset(self):
        """Fresh games in every row; returns (masks, obs, seats)."""
        self.games_started = 0
        for i in range(self.batch_size):
            self._new_game(i)
        return self.masks, self.obs, self.seats

    def _new_game(self, i: int) -> None:
        rng = np.random.default_rng([self.seed, self.games_started])
        self.games_started += 1
        self.setup_seeds[i] = int(rng.integers(2**31))
        self.states[i] = self.game.initial_array(int(self.setup_seeds[i]))
        self.streams[i] = self.first_streams[i] = np.uint64(rng.integers(2**63))
        _start(self.states, i, self.streams, self.masks, self.obs, self.seats, self._encoding)

    def step(self, actions: np.ndarray):
        """Apply one action per game (-1 leaves a game as it is); returns (masks, obs, seats, rewards, done)."""
        actions = np.asarray(actions, dtype=np.int64)
        if self.validate:
            bad = _check_actions(self.states, actions)
            if bad >= 0:
                raise ValueError(f"game {bad}: action {int(actions[bad])} is not legal")
        _step_batch(self.states, actions, self.masks, self.obs, self.seats, self.done, self._encoding, self.streams)
        self.rewards[:] = 0.0
        for i in np.flatnonzero(self.done):
            self.rewards[i] = self.final_returns(self.states[i])
            self._new_game(int(i))
        return self.masks, self.obs, self.seats, self.rewards, self.done

    def state_of(self, i: int, actions: list[int]):
        """Game ``i`` as a ``CatanState`` (with its history, as a search needs it), rebuilt from its board seed
        and ``actions``, the player moves applied to it since it started; None once it drew a chance outcome
        (its draws are not kept). A list that does not lead to the row's position raises ValueError."""
        if self.streams[i] != self.first_streams[i]:
            return None
        state = self.game.new_state(seed=int(self.setup_seeds[i]))
        for action in actions:
            state.apply(int(action))
        if not np.array_equal(state.s, self.states[i]):
            raise ValueError(f"game {i}: the {len(actions)} actions given do not lead to its position")
        return state

    def afterstates(self, rows: np.ndarray) -> Afterstates:
        """The mover's observation after each legal move of the games in ``rows`` (see ``core.batched``)."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        total = int(self.masks[rows].sum())
        obs = np.empty((total, self.width), np.float32)
        row = np.empty(total, np.int64)
        action = np.empty(total, np.int64)
        terminal = np.empty(total, np.bool_)
        _afterstates(self.states, rows, obs, row, action, terminal, _ENCODINGS[self.observation_key])
        returns = np.zeros((total, self.game.num_players))
        for k in np.flatnonzero(terminal):
            after = self.states[row[k]].copy()
            E.apply_action(after, action[k])
            returns[k] = self.final_returns(after)
        return Afterstates(obs=obs, row=row, action=action, terminal=terminal, returns=returns)

    def final_returns(self, row: np.ndarray) -> np.ndarray:
        """The returns of a finished game's state array."""
        return final_returns(row, self.game.options.returns)


def afterstates_of_array(game, s: np.ndarray, observation_key: str, row: int = 0) -> Afterstates | None:
    """``afterstates_of`` for one state array, compiled: the mover's view after each legal move (None for an
    observation the compiled encoder does not write)."""
    encoding = _ENCODINGS.get(observation_key, 0)
    if not encoding:
        return None
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    total = E.legal_actions(s, buf)
    width = O.RICH_SIZE if observation_key == "rich" else O.FLAT_SIZE
    obs = np.empty((total, width), np.float32)
    rows = np.empty(total, np.int64)
    action = np.empty(total, np.int64)
    terminal = np.empty(total, np.bool_)
    _afterstates(s[None], np.zeros(1, np.int64), obs, rows, action, terminal, encoding)
    returns = np.zeros((total, game.num_players))
    for k in np.flatnonzero(terminal):
        after = s.copy()
        E.apply_action(after, action[k])
        returns[k] = final_returns(after, game.options.returns)
    return Afterstates(obs=obs, row=np.full(total, row, np.int64), action=action, terminal=terminal, returns=returns)
