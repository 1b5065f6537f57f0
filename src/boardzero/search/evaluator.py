"""Leaf evaluators: what the search asks at a new decision node.

An evaluator turns a batch of non-terminal decision states into priors over
actions and a value vector per state. A network does it in one forward pass;
``RolloutEvaluator`` does it with uniform priors and random playouts, which
makes the search plain UCT/MCTS.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from boardzero.core.api import CHANCE, TERMINAL, State, sample_chance


@runtime_checkable
class Evaluator(Protocol):
    def evaluate(self, states: Sequence[State]) -> tuple[np.ndarray, np.ndarray]:
        """priors float32[B, num_actions] (0 on illegal, summing to 1 over the legal moves of the
        player to move) and values float32[B, num_players] in absolute seat order, for
        non-terminal decision states."""
        ...


class RandomizedEvaluator(Evaluator, Protocol):
    """An evaluator that draws random numbers (``uses_rng = True``, e.g. rollouts): the search passes its own
    generator, so a search is a function of its seed."""

    uses_rng: bool

    def evaluate(
        self, states: Sequence[State], rng: np.random.Generator | None = None
    ) -> tuple[np.ndarray, np.ndarray]: ...


class MoverObservingEvaluator(Evaluator, Protocol):
    """An evaluator of afterstates (``observes_mover = True``): the search tells it which seat moved into each
    leaf (-1: none), and it observes the leaf as that seat."""

    observes_mover: bool

    def evaluate(
        self, states: Sequence[State], movers: Sequence[int] | None = None
    ) -> tuple[np.ndarray, np.ndarray]: ...


@runtime_checkable
class DeferringEvaluator(Evaluator, Protocol):
    """An evaluator whose priors cost far more than its values (``defers_priors = True``): the search asks
    ``values`` at each new node and ``priors`` only when a simulation first chooses a move there. Most
    nodes of a wide search are reached once and never choose, so their priors are never computed; the
    search is the same as with ``evaluate``."""

    defers_priors: bool

    def values(self, states: Sequence[State], movers: Sequence[int] | None = None) -> np.ndarray:
        """values float32[B, num_players] in absolute seat order (as ``evaluate``'s second part)."""
        ...

    def priors(self, states: Sequence[State]) -> np.ndarray:
        """priors float32[B, num_actions] (as ``evaluate``'s first part)."""
        ...


def uniform_priors(states: Sequence[State], num_actions: int) -> np.ndarray:
    """float32[B, num_actions]: 1/len(legal) on each legal move of each state."""
    priors = np.zeros((len(states), num_actions), dtype=np.float32)
    for row, state in enumerate(states):
        legal = state.legal_mask()
        count = int(legal.sum())
        if count:
            priors[row, legal] = 1.0 / count
    return priors


def unchecked_apply(state: State, action: int) -> None:
    """Apply an action already known to be legal (picked from this state's mask or chance outcomes).

    Skips ``State.apply``'s validation when the game uses the base ``apply`` (which only
    validates, calls ``_apply`` and records the id); games that override ``apply`` keep theirs.
    """
    if type(state).apply is State.apply:
        state._apply(action)
        state.history.append(action)
    else:
        state.apply(action)


def random_playout(state: State, rng: np.random.Generator, *, max_steps: int = 100_000) -> np.ndarray:
    """Returns of ``state`` played to the end by uniformly random moves (chance by its probabilities).

    Plays on ``state`` itself: pass a clone.
    """
    uniforms = rng.random(64)
    used = 0
    for _ in range(max_steps):
        player = state.current_player
        if player == TERMINAL:
            return np.asarray(state.returns(), dtype=np.float64)
        if player == CHANCE:
            unchecked_apply(state, sample_chance(state, rng))
            continue
        legal = state.legal_mask().nonzero()[0]
        if used == len(uniforms):
            uniforms = rng.random(64)
            used = 0
        unchecked_apply(state, int(legal[int(uniforms[used] * len(legal))]))
        used += 1
    raise RuntimeError(f"random playout did not end within {max_steps} steps")


class RolloutEvaluator:
    """Uniform priors and the mean returns of ``rollouts`` random playouts to the end.

    The search passes its own rng (``uses_rng``), so a search is reproducible
    from its seed; without one the evaluator falls back to its own generator.
    """

    uses_rng = True

    def __init__(self, game, *, rollouts: int = 1, seed: int | None = None):
        if rollouts < 1:
            raise ValueError(f"rollouts must be >= 1, got {rollouts}")
        self.game = game
        self.rollouts = rollouts
        self._rng = np.random.default_rng(seed)

    def evaluate(
        self, states: Sequence[State], rng: np.random.Generator | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        rng = self._rng if rng is None else rng
        values = np.zeros((len(states), self.game.num_players), dtype=np.float32)
        for row, state in enumerate(states):
            total = np.zeros(self.game.num_players)
            for _ in range(self.rollouts):
                total += random_playout(state.clone(), rng)
            values[row] = total / self.rollouts
        return uniform_priors(states, self.game.num_actions), values


class UniformEvaluator:
    """Uniform priors and zero values: search driven by terminal returns only (for tests)."""

    def __init__(self, game):
        self.game = game

    def evaluate(self, states: Sequence[State]) -> tuple[np.ndarray, np.ndarray]:
        values = np.zeros((len(states), self.game.num_players), dtype=np.float32)
        return uniform_priors(states, self.game.num_actions), values
