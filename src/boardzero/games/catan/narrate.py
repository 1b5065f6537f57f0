"""Log lines for people: what a Catan step did, as one seat may know it.

A roll says who received what (production is public; so is what the second
setup settlement yields); a steal names the thief
and the victim, and the card only to those two; a development card draw names
the card only to its drawer; a monopoly says how many cards it took from whom.
"""

from __future__ import annotations

import numpy as np

from boardzero.games.catan.actions import (
    A_ACCEPT,
    A_DECLINE,
    A_MONOPOLY,
    A_OFFER,
    A_TRADE,
    A_TRADE_WITH,
    A_WITHDRAW,
    DEV_NAMES,
    O_DEV,
    O_STEAL,
    cards_text,
)
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.offsets import PH_DEV_DRAW, PH_DICE, PH_SETUP_SETTLEMENT, PH_STEAL


def describe_step(state, a: int, seat: int | None) -> str:
    """The log line for applying ``a`` to ``state`` (before it is applied), as ``seat`` may know it."""
    before = state.view.phase()
    phase, mover = before.id, before.turn_seat
    after = state.clone()
    after.apply(a)
    if phase == PH_DICE:
        return _roll(state, after, a, mover)
    if phase == PH_STEAL:
        victim = before.victim
        card = RESOURCE_NAMES[a - O_STEAL] if seat is None or seat in (mover, victim) else "a card"
        return f"seat {mover} steals {card} from seat {victim}"
    if phase == PH_DEV_DRAW:
        card = f": {DEV_NAMES[a - O_DEV]}" if seat is None or seat == mover else ""
        return f"seat {mover} draws a development card{card}"
    if a >= A_OFFER:
        return _trading(state, after, a, before.decider)
    name = state.describe(a)
    if A_MONOPOLY <= a < A_TRADE:
        return f"{name}: {_monopoly(state, after, a - A_MONOPOLY, mover)}"
    if phase == PH_SETUP_SETTLEMENT:  # the second setup settlement yields its hexes
        received = _gains(state, after)[before.decider]
        return f"{name}: receives {_cards(received)}" if received.sum() > 0 else name
    return name


def _gains(before, after) -> np.ndarray:
    """[players, 5] resource cards each seat gained (negative: lost)."""
    return np.array([after.hand(p) - before.hand(p) for p in range(before.game.num_players)])


def _cards(counts) -> str:
    return ", ".join(f"{int(c)} {RESOURCE_NAMES[r]}" for r, c in enumerate(counts) if c > 0)


def _roll(before, after, total: int, roller: int) -> str:
    head = f"seat {roller} rolls {total}"
    if total == 7:
        to_discard = after.view.phase().to_discard
        discards = [f"seat {p} discards {n}" for p, n in enumerate(to_discard) if n > 0]
        return f"{head}: the robber moves" + (f"; {', '.join(discards)}" if discards else "")
    gains = _gains(before, after)
    received = [f"seat {p} gets {_cards(g)}" for p, g in enumerate(gains) if g.sum() > 0]
    return f"{head}: {'; '.join(received)}" if received else f"{head}: nobody receives anything"


def _monopoly(before, after, resource: int, taker: int) -> str:
    lost = -_gains(before, after)[:, resource]
    sources = [f"seat {p}: {int(n)}" for p, n in enumerate(lost) if n > 0]
    taken = int(lost[lost > 0].sum())
    return f"seat {taker} takes {taken} {RESOURCE_NAMES[resource]}" + (f" ({', '.join(sources)})" if sources else "")


def _trading(before, after, a: int, seat: int) -> str:
    """'seat 0 offers 1 wood for 1 ore', 'seat 1 accepts', 'seat 0 trades with seat 1: gives 1 wood, gets 1 ore'."""
    if a < A_ACCEPT:
        return f"seat {seat} {before.describe(a).replace('offer', 'offers', 1)}"
    if a == A_ACCEPT:
        return f"seat {seat} accepts"
    if a == A_DECLINE:
        closed = after.view.trade() is not None and after.view.trade().offer is None
        return f"seat {seat} declines" + ("; nobody accepted, the offer is off" if closed else "")
    if a == A_WITHDRAW:
        return f"seat {seat} withdraws the offer"
    offer = before.view.trade().offer
    return (
        f"seat {seat} trades with seat {a - A_TRADE_WITH}: gives {cards_text(offer.give)}, gets {cards_text(offer.get)}"
    )
