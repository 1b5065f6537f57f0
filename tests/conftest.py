"""Shared test helpers."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.core.registry import make


def play_actions(game_name: str, actions: list[int], **options):
    """A state of ``game_name`` after applying ``actions`` from the start."""
    state = make(game_name, **options).new_state(seed=0)
    for action in actions:
        state.apply(action)
    return state


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
