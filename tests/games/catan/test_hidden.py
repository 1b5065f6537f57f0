"""Hidden-card sampling through the state API: what a sample redraws, what it keeps, and its history rewrite."""

import numpy as np
import pytest

from boardzero.core.api import CHANCE
from boardzero.games.catan import action_id as A, testing as T
from boardzero.games.catan.game import HistoryEntry
from boardzero.games.catan.hidden import PendingRewrite
from boardzero.games.catan.offsets import MONOPOLY, O_DEV, O_STEAL


def _bought_and_stolen():
    """Seat 1 bought a monopoly card (seen by it alone) and seat 0 stole an ore from seat 1 (seat 2 did not see)."""
    state = T.scenario(players=3, seat=1)
    T.give(state, 1, sheep=1, wheat=1, ore=3, wood=1)
    state.apply(A("buy_dev"))
    state.apply(O_DEV + MONOPOLY)
    T.set_turn(state, 0, "robber")
    T.settlement(state, 1, 12)
    state.apply(A("robber", hex=4))
    state.apply(O_STEAL + 4)
    return state


def test_history_entries_say_who_saw_each_hidden_outcome():
    state = _bought_and_stolen()
    entries = state.history_entries()
    assert entries[0] == HistoryEntry(A("buy_dev"), None, 1)
    assert entries[1] == HistoryEntry(O_DEV + MONOPOLY, (1,), CHANCE)
    assert entries[-1] == HistoryEntry(O_STEAL + 4, (0, 1), CHANCE)
    assert state.history_length == len(entries) == len(state.history)


def test_a_sample_keeps_what_the_seat_knows_and_redraws_the_rest():
    state = _bought_and_stolen()
    original = state.s.copy()
    rng = np.random.default_rng(0)
    decks = set()
    for _ in range(40):
        sample = state.sample_hidden(2, rng)
        view, true = sample.view, state.view
        assert np.array_equal(view.hand(2), true.hand(2)) and np.array_equal(view.dev_cards(2), true.dev_cards(2))
        for seat in (0, 1):
            assert view.card_count(seat) == true.card_count(seat)  # counts are public
            assert np.all(view.hand(seat) >= true.known_hand(2, seat))  # never below what seat 2 knows
            assert view.dev_cards(seat).sum() == true.dev_cards(seat).sum()
            assert view.known_hand(2, seat).tolist() == true.known_hand(2, seat).tolist()
        assert np.all(view.bank() + sum(view.hand(p) for p in range(3)) == 19)
        assert view.known_hand(0, 1).tolist() == view.known_hand(2, 1).tolist()  # others know no more than seat 2
        decks.add(tuple(view.dev_cards(1)))
    assert len(decks) > 1  # seat 1's card is redrawn, not copied
    assert np.array_equal(state.s, original)  # sampling changed nothing of the true state


def test_the_history_rewrite_waits_until_the_history_is_read():
    state = _bought_and_stolen()
    sample = state.sample_hidden(2, np.random.default_rng(1))
    pending = sample.pending_history_rewrite
    assert isinstance(pending, PendingRewrite) and pending.seat == 2 and pending.length == state.history_length
    assert sample.public_history(2) == state.public_history(2)  # its own view needs no rewrite
    assert sample.pending_history_rewrite is not None
    history = sample.history  # reading it finishes the rewrite
    assert sample.pending_history_rewrite is None
    card = history[1] - O_DEV
    assert sample.view.dev_cards(1)[card] == 1  # the draw is the card seat 1 holds in the sample
    assert O_STEAL <= history[-1] < O_STEAL + 5


def test_replacing_history_actions_keeps_who_saw_and_who_acted():
    state = _bought_and_stolen()
    entries = state.history_entries()
    actions = [e.action for e in entries]
    actions[-1] = O_STEAL + 0
    state.replace_history_actions(actions)
    assert state.history_entries()[-1] == HistoryEntry(O_STEAL + 0, (0, 1), CHANCE)
    with pytest.raises(ValueError, match="actions for a history of"):
        state.replace_history_actions(actions[:-1])
