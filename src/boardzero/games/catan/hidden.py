"""Sampling a full state consistent with one seat's knowledge (for search).

What a seat does not know in Catan:
- opponents' unplayed development cards (and so the deck's composition);
- the resource cards that moved in steals it was not part of.

Resource hands are otherwise public: every gain and loss (production, builds,
trades, discards, monopoly, year of plenty) is seen by everyone, so each seat
tracks ``KNOWN[seat][p][r]``, a sure lower bound of what p holds, with the card
count exact. A steal between two others lowers every bound of the victim by one
(the observer does not know which card went), and the thief's extra card is
unknown.

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

from boardzero.core.api import CHANCE
from boardzero.games.catan import engine as E

_PLAYS = {E.A_KNIGHT: E.KNIGHT, E.A_PLAY_ROAD_BUILDING: E.ROAD_BUILDING, E.A_PLAY_YOP: E.YEAR_OF_PLENTY}


def _deal(pool: np.ndarray, sizes: list[int], rng: np.random.Generator) -> list[np.ndarray]:
    cards = np.repeat(np.arange(5), pool)
    rng.shuffle(cards)
    out, i = [], 0
    for k in sizes:
        out.append(cards[i:i + k])
        i += k
    return out


def sample_hidden(state, seat: int, rng: np.random.Generator):
    new = state.clone()
    s = new.s
    n = state.game.num_players
    opps = [o for o in range(n) if o != seat]
    _redraw_dev_cards(s, opps, rng)
    _redraw_resources(s, seat, opps, rng)
    for t in opps:  # others' knowledge of third seats: only what `seat` knows too
        for q in opps:
            if q != t:
                for r in range(5):
                    s[E.kn(t, q, r)] = s[E.kn(seat, q, r)]
    _rewrite_history(new, seat, opps, rng)
    return new


def _redraw_dev_cards(s, opps, rng):
    pool = s[E.DECK:E.DECK + 5].astype(np.int64).copy()
    sizes, fresh = [], []
    for o in opps:
        b = E.pb(o)
        pool += s[b + E.P_DEV:b + E.P_DEV + 5]
        sizes.append(int(s[b + E.P_DEV:b + E.P_DEV + 5].sum()))
        fresh.append(int(s[b + E.P_DEV_NEW:b + E.P_DEV_NEW + 5].sum()))
    hands = _deal(pool, sizes + [int(pool.sum()) - sum(sizes)], rng)
    for o, cards, k in zip(opps, hands, fresh):
        b = E.pb(o)
        s[b + E.P_DEV:b + E.P_DEV + 5] = np.bincount(cards, minlength=5)
        s[b + E.P_DEV_NEW:b + E.P_DEV_NEW + 5] = np.bincount(cards[:k], minlength=5)
    s[E.DECK:E.DECK + 5] = np.bincount(hands[-1], minlength=5)


def _redraw_resources(s, seat, opps, rng):
    pool = np.zeros(5, dtype=np.int64)
    sizes, known = [], []
    for o in opps:
        b = E.pb(o)
        k = np.array([s[E.kn(seat, o, r)] for r in range(5)], dtype=np.int64)
        hand = s[b + E.P_HAND:b + E.P_HAND + 5].astype(np.int64)
        pool += hand - k
        sizes.append(int(s[b + E.P_CARDS] - k.sum()))
        known.append(k)
    for o, k, cards in zip(opps, known, _deal(pool, sizes, rng)):
        b = E.pb(o)
        s[b + E.P_HAND:b + E.P_HAND + 5] = k + np.bincount(cards, minlength=5)


def _rewrite_history(new, seat, opps, rng):
    cells = new._cells()
    if not any(knowers is not None and seat not in knowers for _, _, knowers, _ in cells):
        return
    actions = [a for _, a, _, _ in cells]
    s = new.s
    for o in opps:
        draws = [i for i, (_, _, knowers, actor) in enumerate(cells) if actor == CHANCE and knowers == (o,)]
        if not draws:
            continue
        played = []
        for _, a, _, actor in cells:
            if actor == o:
                if a in _PLAYS:
                    played.append(_PLAYS[a])
                elif E.A_MONOPOLY <= a < E.A_MONOPOLY + 5:
                    played.append(E.MONOPOLY)
        b = E.pb(o)
        dev = s[b + E.P_DEV:b + E.P_DEV + 5].astype(np.int64)
        fresh = s[b + E.P_DEV_NEW:b + E.P_DEV_NEW + 5].astype(np.int64)
        held = list(np.repeat(np.arange(5), dev - fresh)) + list(np.repeat(np.arange(5), fresh))
        for i, card in zip(draws, played + held):  # k-th play matches the k-th draw: always an earlier turn
            actions[i] = E.O_DEV + int(card)
    for i, (_, _, knowers, actor) in enumerate(cells):
        if actor == CHANCE and knowers is not None and len(knowers) == 2 and seat not in knowers:
            actions[i] = E.O_STEAL + int(rng.integers(5))
    tail = None
    for (_, _, knowers, actor), a in zip(cells, actions):
        tail = (tail, a, knowers, actor)
    new._tail = tail
    new._hist_cache = None
