"""Player-to-player trading (the ``trading`` option): the rules' questions and state changes (compiled).

The seat on turn, after its roll, in the action phase, may make an offer from the catalogue
(``offsets.OFFER_GIVE`` / ``OFFER_GET``: 1 card for 1, 2 for 1, 1 for 2) if it holds the cards it gives, has
made fewer than ``T_LIMIT`` offers this turn, and nobody declined that same offer earlier in the turn. Every
other seat then answers in turn order (accept only when holding the asked cards); the proposer trades with
one accepting seat or withdraws; an offer everyone declined closes at once and may not be made again this
turn. Offers and answers are public: offering shows the proposer holds what it gives, accepting shows the
seat holds what is asked, and ``KNOWN`` (what each seat knows for sure of each hand) records both.
"""

from __future__ import annotations

from numba import njit

from boardzero.games.catan.offsets import (
    A_ACCEPT,
    A_DECLINE,
    A_OFFER,
    ANSWER_ACCEPT,
    ANSWER_DECLINE,
    ANSWER_NONE,
    DECLINED_BITS,
    G_DECIDER,
    G_NUM_PLAYERS,
    G_PHASE,
    G_TURN_PLAYER,
    NUM_OFFERS,
    OFFER_GET,
    OFFER_GIVE,
    P_CARDS,
    P_HAND,
    PH_MAIN,
    PH_TRADE_ANSWER,
    PH_TRADE_CHOOSE,
    T_ANSWER,
    T_DECLINED,
    T_LIMIT,
    T_MADE,
    T_OFFER,
    kn,
    pb,
)


@njit(cache=True, inline="always")
def trading_on(s):
    return s[T_LIMIT] > 0


@njit(cache=True)
def holds(s, p, cards):
    """Seat p holds at least ``cards`` (5 counts)."""
    b = pb(p)
    for r in range(5):  # noqa: SIM110 - a loop, not all(generator), in compiled code
        if s[b + P_HAND + r] < cards[r]:
            return False
    return True


@njit(cache=True)
def was_declined(s, i):
    """Everyone declined offer ``i`` earlier this turn."""
    return (s[T_DECLINED + i // DECLINED_BITS] >> (i % DECLINED_BITS)) & 1 == 1


@njit(cache=True)
def may_offer(s, p, i):
    """Offer ``i`` is legal for p now (the caller checked the phase: the action phase of p's turn)."""
    return s[T_MADE] < s[T_LIMIT] and not was_declined(s, i) and holds(s, p, OFFER_GIVE[i])


@njit(cache=True)
def show_cards(s, p, cards):
    """Everyone now knows p holds at least ``cards``."""
    for o in range(s[G_NUM_PLAYERS]):
        if o != p:
            for r in range(5):
                k = kn(o, p, r)
                if s[k] < cards[r]:
                    s[k] = cards[r]


@njit(cache=True)
def hand_over(s, giver, taker, cards):
    """``giver`` hands ``cards`` to ``taker``, in public view (the bank is untouched)."""
    gb, tb = pb(giver), pb(taker)
    for r in range(5):
        n = cards[r]
        if n == 0:
            continue
        s[gb + P_HAND + r] -= n
        s[gb + P_CARDS] -= n
        s[tb + P_HAND + r] += n
        s[tb + P_CARDS] += n
        for o in range(s[G_NUM_PLAYERS]):
            if o != giver:
                k = kn(o, giver, r)
                s[k] = max(s[k] - n, 0)
            if o != taker:
                s[kn(o, taker, r)] += n


@njit(cache=True)
def next_answerer(s, after):
    """The next seat after ``after`` still to answer, or -1 when the answers are all in."""
    n = s[G_NUM_PLAYERS]
    p = s[G_TURN_PLAYER]
    q = (after + 1) % n
    while q != p:
        if s[T_ANSWER + q] == ANSWER_NONE:
            return q
        q = (q + 1) % n
    return -1


@njit(cache=True)
def open_offer(s, p, i):
    """p offers catalogue entry ``i``: the other seats answer from the next one on."""
    s[T_MADE] += 1
    s[T_OFFER] = i
    for q in range(4):
        s[T_ANSWER + q] = ANSWER_NONE
    show_cards(s, p, OFFER_GIVE[i])
    s[G_PHASE] = PH_TRADE_ANSWER
    s[G_DECIDER] = next_answerer(s, p)


@njit(cache=True)
def answer(s, q, accept):
    """Seat q answers the open offer; after the last answer the proposer chooses, or the offer closes."""
    i = s[T_OFFER]
    if accept:
        s[T_ANSWER + q] = ANSWER_ACCEPT
        show_cards(s, q, OFFER_GET[i])
    else:
        s[T_ANSWER + q] = ANSWER_DECLINE
    nxt = next_answerer(s, q)
    if nxt >= 0:
        s[G_DECIDER] = nxt
        return
    p = s[G_TURN_PLAYER]
    for o in range(s[G_NUM_PLAYERS]):
        if s[T_ANSWER + o] == ANSWER_ACCEPT:
            s[G_PHASE] = PH_TRADE_CHOOSE
            s[G_DECIDER] = p
            return
    s[T_DECLINED + i // DECLINED_BITS] |= 1 << (i % DECLINED_BITS)  # declined by everyone: not again this turn
    close_offer(s)


@njit(cache=True)
def trade_with(s, p, q):
    """The proposer p and the accepting seat q exchange the open offer's cards."""
    i = s[T_OFFER]
    hand_over(s, p, q, OFFER_GIVE[i])
    hand_over(s, q, p, OFFER_GET[i])
    close_offer(s)


@njit(cache=True)
def exchange(s, p, q, i):
    """The position after p offers catalogue entry ``i``, q alone accepts and p trades with q: what a seat
    weighing that offer looks at (the counter of offers moves on, as it would)."""
    open_offer(s, p, i)
    s[T_ANSWER + q] = ANSWER_ACCEPT
    show_cards(s, q, OFFER_GET[i])
    trade_with(s, p, q)


@njit(cache=True)
def weighed_position(s, seat, a):
    """Turn ``s``, the position just after ``seat`` made trade move ``a``, into the position that move is weighed
    by (a value network learning by self-play reads it; an offer or an answer changes no hand by itself): an
    accept, the trade done with this seat; a decline, the offer closed with no trade; an offer, the trade with
    the first seat in answer order that the proposer knows for sure holds the asked cards (none: left open).
    Other moves are left as they are."""
    if a == A_ACCEPT:
        show_cards(s, seat, OFFER_GET[s[T_OFFER]])
        trade_with(s, s[G_TURN_PLAYER], seat)
    elif a == A_DECLINE:
        if s[G_PHASE] == PH_TRADE_ANSWER or s[G_PHASE] == PH_TRADE_CHOOSE:
            close_offer(s)
    elif A_OFFER <= a < A_OFFER + NUM_OFFERS:
        i = a - A_OFFER
        q = next_answerer(s, seat)
        while q >= 0:
            known = True
            for r in range(5):
                if s[kn(seat, q, r)] < OFFER_GET[i, r]:
                    known = False
            if known:
                s[T_ANSWER + q] = ANSWER_ACCEPT
                trade_with(s, seat, q)
                return
            s[T_ANSWER + q] = ANSWER_DECLINE  # passed over; restored as the offer closes or trades
            q = next_answerer(s, q)
        for o in range(4):
            s[T_ANSWER + o] = ANSWER_NONE


@njit(cache=True)
def close_offer(s):
    s[T_OFFER] = -1
    for q in range(4):
        s[T_ANSWER + q] = ANSWER_NONE
    s[G_PHASE] = PH_MAIN
    s[G_DECIDER] = s[G_TURN_PLAYER]


@njit(cache=True)
def new_turn(s):
    """A new turn: no offers made, none declined."""
    s[T_MADE] = 0
    for w in range(4):
        s[T_DECLINED + w] = 0


@njit(cache=True)
def enable_trading(s, offers_per_turn):
    """Turn trading on in a fresh game's array, with ``offers_per_turn`` offers allowed a turn."""
    s[T_LIMIT] = offers_per_turn
    s[T_OFFER] = -1
