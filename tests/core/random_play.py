"""Random legal play driven by hypothesis: each step's choice is an index among the legal actions (or the
chance outcomes), so a failing game shrinks towards first moves and first outcomes."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import strategies as st

from boardzero.core.api import CHANCE, State

CHOICE = st.integers(min_value=0, max_value=2**16 - 1)


def choices(max_size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(CHOICE, max_size=max_size)


def pick(state: State, choice: int) -> int:
    """The action (or chance outcome) of ``state`` that ``choice`` indexes."""
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        return int(outcomes[choice % len(outcomes)][0])
    legal = state.legal_actions()
    return int(legal[choice % len(legal)])


def play(state: State, steps: list[int], rng: np.random.Generator | None = None, limit: int = 100_000):
    """Apply the drawn ``steps`` (fewer if the game ends), then, with ``rng``, random ones to the end;
    yields the state after each step."""
    for choice in steps:
        if state.is_terminal():
            return
        state.apply(pick(state, choice))
        yield state
    if rng is None:
        return
    for _ in range(limit):
        if state.is_terminal():
            return
        state.apply(pick(state, int(rng.integers(2**16))))
        yield state
    raise AssertionError(f"no end within {limit} random steps")


def fingerprint(state: State) -> str:
    """Everything the API shows of a state: record, whose move, masks, outcomes, every seat's observation and
    public view, and the spectator's view (two states with the same fingerprint look alike to every caller)."""
    seats = range(state.game.num_players)
    return json.dumps(
        {
            "record": state.to_record(),
            "player": state.current_player,
            "terminal": state.is_terminal(),
            "legal": np.flatnonzero(state.legal_mask()).tolist(),
            "chance": state.chance_outcomes() if state.current_player == CHANCE else None,
            "returns": state.returns().tolist(),
            "observe": [{k: np.asarray(v).tolist() for k, v in state.observe(seat).items()} for seat in seats],
            "views": [state.public_view(seat) for seat in (None, *seats)],
        },
        sort_keys=True,
        default=str,
    )
