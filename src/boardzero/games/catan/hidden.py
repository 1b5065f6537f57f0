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

import numpy as np
from numba import njit

from boardzero.core.api import CHANCE
from boardzero.games.catan import engine as E

_PLAYS = {E.A_KNIGHT: E.KNIGHT, E.A_PLAY_ROAD_BUILDING: E.ROAD_BUILDING, E.A_PLAY_YOP: E.YEAR_OF_PLENTY}


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
    n = s[E.G_NUM_PLAYERS]
    # development cards: opponents' hands and the deck from one shuffled pool
    pool = np.zeros(5, dtype=np.int64)
    for d in range(5):
        pool[d] = s[E.DECK + d]
    for o in range(n):
        if o != seat:
            for d in range(5):
                pool[d] += s[E.pb(o) + E.P_DEV + d]
    cards = _shuffle_deal(pool, u_dev)
    i = 0
    for o in range(n):
        if o != seat:
            b = E.pb(o)
            size = 0
            fresh = 0
            for d in range(5):
                size += s[b + E.P_DEV + d]
                fresh += s[b + E.P_DEV_NEW + d]
                s[b + E.P_DEV + d] = 0
                s[b + E.P_DEV_NEW + d] = 0
            for k in range(size):
                s[b + E.P_DEV + cards[i]] += 1
                if k < fresh:
                    s[b + E.P_DEV_NEW + cards[i]] += 1
                i += 1
    for d in range(5):
        s[E.DECK + d] = 0
    while i < cards.shape[0]:
        s[E.DECK + cards[i]] += 1
        i += 1
    # resources: opponents' unknown cards from the unseen pool
    for r in range(5):
        pool[r] = 0
    for o in range(n):
        if o != seat:
            for r in range(5):
                pool[r] += s[E.pb(o) + E.P_HAND + r] - s[E.kn(seat, o, r)]
    cards = _shuffle_deal(pool, u_res)
    i = 0
    for o in range(n):
        if o != seat:
            b = E.pb(o)
            unknown = s[b + E.P_CARDS]
            for r in range(5):
                s[b + E.P_HAND + r] = s[E.kn(seat, o, r)]
                unknown -= s[E.kn(seat, o, r)]
            for _ in range(unknown):
                s[b + E.P_HAND + cards[i]] += 1
                i += 1
    # other seats' knowledge of third seats: only what `seat` knows too
    for t in range(n):
        for q in range(n):
            if t != seat and q != seat and q != t:
                for r in range(5):
                    s[E.kn(t, q, r)] = s[E.kn(seat, q, r)]


def _hidden_win(s, seat: int) -> bool:
    """The opponent whose turn it is holds enough victory-point cards to have won already.

    (Other opponents may truly hold enough points while waiting for their turn, after a longest
    road passed to them, so only the player on turn is ruled out.)
    """
    p = int(s[E.G_TURN_PLAYER])
    return (p != seat and s[E.G_PHASE] != E.PH_OVER and s[E.G_SETUP_STEP] >= 2 * s[E.G_NUM_PLAYERS]
            and E.victory_points(s, p, True) >= s[E.G_VP_TO_WIN])


def sample_hidden(state, seat: int, rng: np.random.Generator):
    new = state.clone()
    if new._lazy is not None:  # a sample of a sample: finish the first rewrite before the second
        rewrite_history(new)
    original = new.s.copy()
    for attempt in range(50):  # the player on turn cannot hold enough hidden points to have won
        if attempt:
            new.s[:] = original
        u = rng.random(121)
        redraw_hidden(new.s, seat, u[:25], u[25:120])
        if not _hidden_win(new.s, seat):
            break
    # the history is rewritten when first read: (seat, seed, entries before sampling, sampled array)
    new._lazy = (seat, int(u[120] * 2**31), new._len, new.s.copy())
    return new


def rewrite_history(new):
    """Rewrite the hidden entries (before the sampling) of a sampled state to match its cards."""
    seat, seed, length, sampled = new._lazy
    new._lazy = None
    rng = np.random.default_rng(seed)
    opps = [o for o in range(new.game.num_players) if o != seat]
    cells = new._raw_cells()
    actions = [a for _, a, _, _ in cells]
    for o in opps:
        draws = [i for i, (_, _, knowers, actor) in enumerate(cells[:length])
                 if actor == CHANCE and knowers == (o,)]
        if not draws:
            continue
        played = []
        for _, a, _, actor in cells[:length]:
            if actor == o:
                if a in _PLAYS:
                    played.append(_PLAYS[a])
                elif E.A_MONOPOLY <= a < E.A_MONOPOLY + 5:
                    played.append(E.MONOPOLY)
        b = E.pb(o)
        dev = sampled[b + E.P_DEV:b + E.P_DEV + 5].astype(np.int64)
        fresh = sampled[b + E.P_DEV_NEW:b + E.P_DEV_NEW + 5].astype(np.int64)
        held = list(np.repeat(np.arange(5), dev - fresh)) + list(np.repeat(np.arange(5), fresh))
        for i, card in zip(draws, played + held):  # k-th play matches the k-th draw: always an earlier turn
            actions[i] = E.O_DEV + int(card)
    for i, (_, _, knowers, actor) in enumerate(cells[:length]):
        if actor == CHANCE and knowers is not None and len(knowers) == 2 and seat not in knowers:
            actions[i] = E.O_STEAL + int(rng.integers(5))
    tail = None
    for (_, _, knowers, actor), a in zip(cells, actions):
        tail = (tail, a, knowers, actor)
    new._tail = tail
    new._hist_cache = None
