"""Sampling a full state consistent with one seat's knowledge (for search).

What a seat does not know in Catan:
- opponents' unplayed development cards (and so the deck's composition);
- the resource cards that moved in steals it was not part of.

Resource hands are otherwise public: every gain and loss (production, builds,
trades, discards, monopoly, year of plenty) is seen by everyone, so each seat
tracks ``KNOWN[seat][p][r]``, a sure lower bound of what p holds, with the card
count exact. A steal between two others lowers every bound of the victim by one
(the observer does not know which card went), and the thief's extra card is
unknown (unless the victim's hand was fully known and of one resource).

``sample_hidden`` redraws exactly those unknowns: opponents' development cards
from the unseen pool (deck + opponents' hands), and opponents' unknown
resource cards from the unseen resource pool (bank and known cards excluded),
so bank + hands = 19 of each still holds. Other seats' knowledge is reduced to
what the sampling seat knows. Hidden history entries are rewritten to match
(development draws exactly, as a plausible order; steals between others get a
plausible card), so a sampled state's history is a plausible completion, not
a replay of the true game.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from boardzero.core.api import CHANCE
from boardzero.games.catan import fields as F
from boardzero.games.catan.actions import A_KNIGHT, A_MONOPOLY, A_PLAY_ROAD_BUILDING, A_PLAY_YOP, O_DEV, O_STEAL
from boardzero.games.catan.offsets import KNIGHT, MONOPOLY, PH_OVER, ROAD_BUILDING, YEAR_OF_PLENTY
from boardzero.games.catan.view import CatanView

_PLAYS = {A_KNIGHT: KNIGHT, A_PLAY_ROAD_BUILDING: ROAD_BUILDING, A_PLAY_YOP: YEAR_OF_PLENTY}


@njit(cache=True)
def _shuffle_deal(pool, u):
    """The cards of ``pool`` (counts per type) in an order shuffled with the uniforms ``u``."""
    total = 0
    for k in range(5):
        total += pool[k]
    cards = np.empty(total, dtype=np.int64)
    i = 0
    for k in range(5):
        for _ in range(pool[k]):
            cards[i] = k
            i += 1
    for i in range(total - 1, 0, -1):
        j = int(u[i] * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@njit(cache=True)
def redraw_hidden(s, seat, u_dev, u_res):
    """Redraw in place what ``seat`` cannot know (see the module docstring); u_*: uniforms in [0, 1)."""
    n = F.num_players(s)
    # development cards: opponents' hands and the deck from one shuffled pool
    pool = np.zeros(5, dtype=np.int64)
    for d in range(5):
        pool[d] = F.deck(s, d)
    for o in range(n):
        if o != seat:
            for d in range(5):
                pool[d] += F.dev_held(s, o, d)
    cards = _shuffle_deal(pool, u_dev)
    i = 0
    for o in range(n):
        if o != seat:
            size = 0
            fresh = 0
            for d in range(5):
                size += F.dev_held(s, o, d)
                fresh += F.dev_new(s, o, d)
                F.set_dev_held(s, o, d, 0)
                F.set_dev_new(s, o, d, 0)
            for k in range(size):
                F.set_dev_held(s, o, cards[i], F.dev_held(s, o, cards[i]) + 1)
                if k < fresh:
                    F.set_dev_new(s, o, cards[i], F.dev_new(s, o, cards[i]) + 1)
                i += 1
    for d in range(5):
        F.set_deck(s, d, 0)
    while i < cards.shape[0]:
        F.set_deck(s, cards[i], F.deck(s, cards[i]) + 1)
        i += 1
    # resources: opponents' unknown cards from the unseen pool
    for r in range(5):
        pool[r] = 0
    for o in range(n):
        if o != seat:
            for r in range(5):
                pool[r] += F.hand(s, o, r) - F.known(s, seat, o, r)
    cards = _shuffle_deal(pool, u_res)
    i = 0
    for o in range(n):
        if o != seat:
            unknown = F.card_count(s, o)
            for r in range(5):
                F.set_hand(s, o, r, F.known(s, seat, o, r))
                unknown -= F.known(s, seat, o, r)
            for _ in range(unknown):
                F.set_hand(s, o, cards[i], F.hand(s, o, cards[i]) + 1)
                i += 1
    # other seats' knowledge of third seats: only what `seat` knows too
    for t in range(n):
        for q in range(n):
            if t != seat and q != seat and q != t:
                for r in range(5):
                    F.set_known(s, t, q, r, F.known(s, seat, q, r))


def _hidden_win(state, seat: int) -> bool:
    """The opponent whose turn it is holds enough victory-point cards to have won already.

    (Other opponents may truly hold enough points while waiting for their turn, after a longest
    road passed to them, so only the player on turn is ruled out.)
    """
    view = state.view
    phase = view.phase()
    p = phase.turn_seat
    return (
        p != seat
        and phase.id != PH_OVER
        and not phase.in_setup
        and view.victory_points(p, hidden=True) >= view.vp_to_win
    )


class PendingRewrite(NamedTuple):
    """A sampled state's history rewrite, done when its history is first read (``CatanState._cells``)."""

    seat: int  # the sampling seat: entries hidden from it are None in its public history either way
    seed: int  # of the steals' plausible cards
    length: int  # entries before the sampling (later ones happened in the sampled world)
    sampled: np.ndarray  # the array right after sampling: whose development cards the draws must match

    def finish(self, state) -> None:
        rewrite_history(state, self)


def sample_hidden(state, seat: int, rng: np.random.Generator):
    new = state.clone()
    pending = new.pending_history_rewrite
    if pending is not None:  # a sample of a sample: finish the first rewrite before the second
        new.defer_history_rewrite(None)
        pending.finish(new)
    original = new.s.copy()
    for attempt in range(50):  # the player on turn cannot hold enough hidden points to have won
        if attempt:
            new.s[:] = original
        u = rng.random(121)
        redraw_hidden(new.s, seat, u[:25], u[25:120])
        if not _hidden_win(new, seat):
            break
    new.defer_history_rewrite(PendingRewrite(seat, int(u[120] * 2**31), new.history_length, new.s.copy()))
    return new


def rewrite_history(new, pending: PendingRewrite) -> None:
    """Rewrite the hidden entries (before the sampling) of a sampled state to match its cards."""
    seat, seed, length, sampled = pending
    rng = np.random.default_rng(seed)
    opps = [o for o in range(new.game.num_players) if o != seat]
    entries = new.history_entries()
    actions = [entry.action for entry in entries]
    before = entries[:length]
    for o in opps:
        draws = [i for i, entry in enumerate(before) if entry.actor == CHANCE and entry.knowers == (o,)]
        if not draws:
            continue
        played = []
        for entry in before:
            if entry.actor == o:
                if entry.action in _PLAYS:
                    played.append(_PLAYS[entry.action])
                elif A_MONOPOLY <= entry.action < A_MONOPOLY + 5:
                    played.append(MONOPOLY)
        dev = CatanView(sampled).dev_cards(o)
        fresh = CatanView(sampled).dev_cards_new(o)
        held = [int(c) for c in np.repeat(np.arange(5), dev - fresh)] + [int(c) for c in np.repeat(np.arange(5), fresh)]
        for i, card in zip(draws, played + held):  # k-th play matches the k-th draw: always an earlier turn
            actions[i] = O_DEV + int(card)
    for i, entry in enumerate(before):
        steal = entry.actor == CHANCE and entry.knowers is not None and len(entry.knowers) == 2
        if steal and seat not in entry.knowers:
            actions[i] = O_STEAL + int(rng.integers(5))
    new.replace_history_actions(actions)
