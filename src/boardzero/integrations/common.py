"""Pieces every integration shares: optional imports with a clear error, chance resolution, spaces."""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np

from boardzero.core.api import CHANCE, Game, State, sample_chance
from boardzero.core.errors import ConfigError


def require(module: str, extra: str) -> ModuleType:
    """Import an optional dependency, or raise ConfigError naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ConfigError(
            extra, f"{module} is not installed; install it with pip install 'boardzero[{extra}]'"
        ) from None


def resolve_chance(state: State, rng: np.random.Generator) -> None:
    """Apply chance outcomes (dice, card draws) drawn from ``rng`` until a seat is to move or the game is over."""
    while state.current_player == CHANCE:
        state.apply(sample_chance(state, rng))


def observation_key(game: Game, key: str) -> str:
    """Check that ``key`` names one of the game's observations."""
    if key not in game.observation_spec:
        raise ConfigError(
            "observation", f"{game.name} has no observation {key!r}; allowed: {', '.join(game.observation_spec)}"
        )
    return key


def observation_box(game: Game, key: str):
    """The Gymnasium Box of observation ``key`` (float32, unbounded: encodings are scaled, not clipped)."""
    spaces = require("gymnasium.spaces", "gym")
    return spaces.Box(-np.inf, np.inf, shape=game.observation_spec[key], dtype=np.float32)


def mask_box(game: Game):
    """The Gymnasium Box of an action mask: int8[num_actions], 1 where legal (what ``Discrete.sample`` takes)."""
    spaces = require("gymnasium.spaces", "gym")
    return spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8)
