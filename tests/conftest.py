"""Shared test helpers."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

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


# Property-based tests: a few deterministic examples in `make test`, many random ones in `make test-all`
# (HYPOTHESIS_PROFILE=thorough); no example database is written.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "ci", max_examples=8, deadline=None, derandomize=True, database=None, suppress_health_check=_SLOW_OK
)
settings.register_profile("thorough", max_examples=100, deadline=None, database=None, suppress_health_check=_SLOW_OK)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
