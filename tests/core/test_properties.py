"""Properties of the Game API that every registered game keeps under random legal play (hypothesis draws
each move among the legal ones and each chance outcome): records replay exactly, a clone never shares state
with its original, and a refused action changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from boardzero.core.api import CHANCE
from boardzero.core.errors import IllegalActionError
from boardzero.core.registry import games, make
from tests.core.random_play import choices, fingerprint, pick, play

GAMES = [
    ("connect4", {}),
    ("tictactoe", {}),
    ("kuhn_poker", {"players": 2}),
    ("kuhn_poker", {"players": 3}),
    ("catan", {"players": 2}),
    ("catan", {"players": 3}),
    ("catan", {"players": 4}),
]
IDS = [f"{name}{options.get('players', '')}" for name, options in GAMES]
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


def test_every_registered_game_is_covered():
    assert {name for name, _ in GAMES} == set(games())


def reached(name: str, options: dict, seed: int, steps: list[int]):
    """The state of a new game of ``name`` after the drawn ``steps``."""
    state = make(name, **options).new_state(seed=seed)
    for _ in play(state, steps):
        pass
    return state


@pytest.mark.parametrize("name,options", GAMES, ids=IDS)
@given(seed=SEEDS, steps=choices(200), cut=st.integers(0, 10**6))
def test_records_replay_exactly_midway_and_at_the_end(name, options, seed, steps, cut):
    game = make(name, **options)
    state = game.new_state(seed=seed)
    kept = []  # (fingerprint, record) at the drawn cut, and at the end
    for count, _ in enumerate(play(state, steps, np.random.default_rng(seed)), 1):
        if count == cut % (len(steps) + 1):
            kept.append((fingerprint(state), state.to_record()))
    assert state.is_terminal()
    kept.append((fingerprint(state), state.to_record()))
    for expected, record in kept:
        assert fingerprint(game.state_from_record(record)) == expected


@pytest.mark.parametrize("name,options", GAMES, ids=IDS)
@given(seed=SEEDS, steps=choices(200), mine=st.integers(0, 2**16 - 1), theirs=st.integers(0, 2**16 - 1))
def test_a_clone_never_shares_state_with_its_original(name, options, seed, steps, mine, theirs):
    state = reached(name, options, seed, steps)
    assume(not state.is_terminal())
    before = fingerprint(state)
    clone = state.clone()
    assert fingerprint(clone) == before
    clone.apply(pick(clone, mine))
    for _ in play(clone, [mine, theirs] * 5):
        pass  # a few more moves of the clone
    assert fingerprint(state) == before, "moving a clone changed its original"
    cloned = fingerprint(clone)
    state.apply(pick(state, theirs))
    assert fingerprint(clone) == cloned, "moving the original changed its clone"


def illegal_ids(state, num_actions: int) -> st.SearchStrategy[int]:
    """Ids this state refuses: any id out of range, and in range those not legal (or not an outcome)."""
    allowed = (
        {a for a, _ in state.chance_outcomes()}
        if state.current_player == CHANCE
        else set(state.legal_actions().tolist())
    )
    refused = [a for a in range(num_actions) if a not in allowed]
    out_of_range = st.one_of(
        st.integers(min_value=-(2**63), max_value=-1), st.integers(min_value=num_actions, max_value=2**63 - 1)
    )
    return st.one_of(st.sampled_from(refused), out_of_range) if refused else out_of_range


@pytest.mark.parametrize("name,options", GAMES, ids=IDS)
@given(seed=SEEDS, steps=choices(200), data=st.data())
def test_a_refused_action_changes_nothing(name, options, seed, steps, data):
    state = reached(name, options, seed, steps)
    game = state.game
    before = fingerprint(state)
    strategy = illegal_ids(state, max(game.num_actions, 64))
    for _ in range(3):
        action = data.draw(strategy, label="refused action")
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert fingerprint(state) == before, f"refusing {action} changed the state"
    if not state.is_terminal():  # and the state still plays on as before
        state.apply(pick(state, 0))


@pytest.mark.parametrize("name,options", GAMES, ids=IDS)
def test_ids_beyond_64_bits_are_refused_cleanly(name, options):
    state = make(name, **options).new_state(seed=0)
    before = fingerprint(state)
    for action in (2**63, -(2**63) - 1, 10**30):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert fingerprint(state) == before
