"""Many games of one kind stepped together: the interface self-play trainers use.

    env = game.batched(256, seed=0, observation_key="flat")
    masks, obs, seats = env.reset()
    while training:
        actions = policy(obs, masks, seats)                        # one legal move per game, for its seat to move
        masks, obs, seats, rewards, done = env.step(actions)       # finished games report returns and restart

After ``reset`` and every ``step`` the arrays ``obs`` (observation of the seat to
move), ``masks`` (legal moves) and ``seats`` (seat to move) describe every game at a
decision node (they are the environment's own buffers, overwritten by the next call): chance nodes are resolved inside ``step``, each game drawing from
its own random stream, seeded from ``seed`` and the game's ordinal, so a run is
reproducible whatever else the process does. A game that ends on ``step``
reports ``done[i]`` and its returns in ``rewards[i]`` (absolute seat order), and
row ``i`` at once holds a fresh game.

``afterstates(rows)`` lists, for the games in ``rows``, the position after each
legal move as the mover sees it (for value-based move choice, e.g. TD learning);
a position after a move that leads to a chance node is the one before chance.

``state_of(i, actions)`` gives row ``i``'s game as a ``State`` (for a search), told the player moves applied
to it since it started; a batch that cannot rebuild it (the compiled Catan batch, once the game drew a chance
outcome) returns None.

``StateBatch`` is the plain form over ``State`` objects that works for every
game; a game with a faster one returns it from ``Game.batched`` (Catan's is
compiled).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from boardzero.core.chance import CHANCE, sample_chance
from boardzero.core.errors import ConfigError

if TYPE_CHECKING:  # a batch holds games and states, and ``Game.batched`` makes batches: names for hints only
    from boardzero.core.api import Game, State


@dataclasses.dataclass
class Afterstates:
    """The positions after every legal move of some games, seen by each game's mover."""

    obs: np.ndarray  # [K, *obs_shape] observation of the mover after the move
    row: np.ndarray  # [K] game (row of the batch) the move belongs to, grouped by row in the order asked
    action: np.ndarray  # [K] the move
    terminal: np.ndarray  # [K] bool: the move ends the game
    returns: np.ndarray  # [K, P] final returns (absolute seats) where terminal, else 0

    @property
    def starts(self) -> np.ndarray:
        """Index of each asked row's first entry (rows with no entry are absent)."""
        return np.flatnonzero(np.r_[True, self.row[1:] != self.row[:-1]]) if len(self.row) else np.zeros(0, np.int64)

    def take(self, index: np.ndarray) -> Afterstates:
        """The entries at ``index``, in that order."""
        return Afterstates(*(getattr(self, f.name)[index] for f in dataclasses.fields(self)))


def check_batch_size(batch_size: int) -> int:
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ConfigError("batch_size", f"must be a positive integer, got {batch_size!r}")
    return int(batch_size)


class StateBatch:
    """``batch_size`` games of any game, one ``State`` each (the plain, always available form)."""

    def __init__(self, game: Game, batch_size: int, *, seed: int = 0, observation_key: str | None = None):
        self.game = game
        self.num_envs = check_batch_size(batch_size)
        self.observation_key = observation_key or next(iter(game.observation_spec))
        if self.observation_key not in game.observation_spec:
            raise ConfigError(
                "observation_key",
                f"{game.name} has no {self.observation_key!r} observation; it has: {', '.join(game.observation_spec)}",
            )
        self.seed = int(seed)
        shape = game.observation_spec[self.observation_key]
        self.obs = np.zeros((self.num_envs, *shape), np.float32)  # [B, *shape]
        self.masks = np.zeros((self.num_envs, game.num_actions), np.bool_)  # [B, A]
        self.seats = np.zeros(self.num_envs, np.int64)  # [B]
        self.rewards = np.zeros((self.num_envs, game.num_players), np.float64)  # [B, P]
        self.done = np.zeros(self.num_envs, np.bool_)  # [B]
        self.states: list[State] = []
        self.rngs: list[np.random.Generator] = []
        self.games_started = 0

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Fresh games in every row; returns (masks, obs, seats)."""
        self.games_started = 0
        self.states, self.rngs = [], []
        for i in range(self.num_envs):
            state, rng = self._fresh_game()
            self.states.append(state)
            self.rngs.append(rng)
            self._settle(i)
        return self.masks, self.obs, self.seats

    def _fresh_game(self) -> tuple[State, np.random.Generator]:
        """The next game of the batch and its random stream, both from the seed and the game's ordinal."""
        rng = np.random.default_rng([self.seed, self.games_started])
        self.games_started += 1
        return self.game.new_state(seed=int(rng.integers(2**31))), rng

    def _new_game(self, i: int) -> None:
        self.states[i], self.rngs[i] = self._fresh_game()
        self._settle(i)

    def _settle(self, i: int) -> None:
        """Resolve chance, then describe game ``i`` (it is at a decision node or over)."""
        state, rng = self.states[i], self.rngs[i]
        while state.current_player == CHANCE:
            state.apply(sample_chance(state, rng))
        if state.is_terminal():
            return
        seat = state.current_player
        self.seats[i] = seat
        self.masks[i] = state.legal_mask()
        self.obs[i] = state.observe(seat)[self.observation_key]

    def step(self, actions: np.ndarray):
        """Apply one move per game (-1 leaves a game as it is); returns (masks, obs, seats, rewards, done)."""
        actions = np.asarray(actions, np.int64)
        self.rewards[:] = 0.0
        self.done[:] = False
        for i, action in enumerate(actions):
            if action < 0:
                continue
            state = self.states[i]
            state.apply(int(action))
            self._settle(i)
            if state.is_terminal():
                self.done[i] = True
                self.rewards[i] = state.returns()
                self._new_game(i)
        return self.masks, self.obs, self.seats, self.rewards, self.done

    def state_of(self, i: int, actions: list[int]) -> State | None:
        """A copy of game ``i``'s state (``actions``, its moves so far, are not needed here)."""
        return self.states[i].clone()

    def afterstates(self, rows: np.ndarray) -> Afterstates:
        parts = [
            afterstates_of(self.states[i], int(self.seats[i]), self.observation_key, row=int(i))
            for i in np.asarray(rows, np.int64)
        ]
        if not parts:
            return afterstates_of(None, 0, self.observation_key, game=self.game)
        return Afterstates(
            *(np.concatenate([getattr(p, f.name) for p in parts]) for f in dataclasses.fields(Afterstates))
        )


def afterstates_of(
    state: State | None, seat: int, observation_key: str, *, row: int = 0, game: Game | None = None
) -> Afterstates:
    """The position after each legal move of ``state``, as ``seat`` sees it (``row`` fills ``Afterstates.row``).

    Search and agents call it on a state drawn by ``SeatView.sample_state``, never on the true state.
    A state may offer a faster way, ``state.afterstates(seat, observation_key, row)`` (Catan: compiled),
    that returns the same or None where it does not apply."""
    fast = getattr(state, "afterstates", None)
    if fast is not None:
        found = fast(seat, observation_key, row)
        if found is not None:
            return found
    if state is None:  # no position: no moves, in the game's shapes
        if game is None:
            raise ValueError("afterstates_of needs a state or, without one, the game")
        shape = game.observation_spec[observation_key]
        return Afterstates(
            obs=np.zeros((0, *shape), np.float32),
            row=np.zeros(0, np.int64),
            action=np.zeros(0, np.int64),
            terminal=np.zeros(0, np.bool_),
            returns=np.zeros((0, game.num_players), np.float64),
        )
    game = game or state.game
    shape = game.observation_spec[observation_key]
    legal = state.legal_actions()
    obs = np.zeros((len(legal), *shape), np.float32)
    terminal = np.zeros(len(legal), np.bool_)
    returns = np.zeros((len(legal), game.num_players), np.float64)
    for k, action in enumerate(legal):
        after = state.clone()
        after.apply(int(action))
        obs[k] = after.observe(seat)[observation_key]
        if after.is_terminal():
            terminal[k] = True
            returns[k] = after.returns()
    return Afterstates(
        obs=obs,
        row=np.full(len(legal), row, np.int64),
        action=np.asarray(legal, np.int64),
        terminal=terminal,
        returns=returns,
    )
