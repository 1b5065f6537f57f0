"""Log lines for people: what a Catan step did, as one seat may know it.

A roll says who received what (production is public; so is what the second
setup settlement yields); a steal names the thief
and the victim, and the card only to those two; a development card draw names
the card only to its drawer; a monopoly says how many cards it took from whom.
"""

from __future__ import annotations

import numpy as np

from boardzero.games.catan import engine as E
from boardzero.games.catan.actions import DEV_NAMES
from boardzero.games.catan.board import RESOURCE_NAMES


def describe_step(state, a: int, seat: int | None) -> str:
    """The log line for applying ``a`` to ``state`` (before it is applied), as ``seat`` may know it."""
    phase, mover = state.phase, int(state.s[E.G_TURN_PLAYER])
    after = state.clone()
    after.apply(a)
    if phase == E.PH_DICE:
        return _roll(state, after, a, mover)
    if phase == E.PH_STEAL:
        victim = int(state.s[E.G_VICTIM])
        card = RESOURCE_NAMES[a - E.O_STEAL] if seat is None or seat in (mover, victim) else "a card"
        return f"seat {mover} steals {card} from seat {victim}"
    if phase == E.PH_DEV_DRAW:
        card = f": {DEV_NAMES[a - E.O_DEV]}" if seat is None or seat == mover else ""
        return f"seat {mover} draws a development card{card}"
    name = state.describe(a)
    if E.A_MONOPOLY <= a < E.A_TRADE:
        return f"{name}: {_monopoly(state, after, a - E.A_MONOPOLY, mover)}"
    if phase == E.PH_SETUP_SETTLEMENT:  # the second setup settlement yields its hexes
        received = _gains(state, after)[int(state.s[E.G_DECIDER])]
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
        discards = [f"seat {p} discards {int(after.s[E.pb(p) + E.P_DISCARD])}"
                    for p in range(before.game.num_players) if after.s[E.pb(p) + E.P_DISCARD] > 0]
        return f"{head}: the robber moves" + (f"; {', '.join(discards)}" if discards else "")
    gains = _gains(before, after)
    received = [f"seat {p} gets {_cards(g)}" for p, g in enumerate(gains) if g.sum() > 0]
    return f"{head}: {'; '.join(received)}" if received else f"{head}: nobody receives anything"


def _monopoly(before, after, resource: int, taker: int) -> str:
    lost = -_gains(before, after)[:, resource]
    sources = [f"seat {p}: {int(n)}" for p, n in enumerate(lost) if n > 0]
    taken = int(lost[lost > 0].sum())
    return f"seat {taker} takes {taken} {RESOURCE_NAMES[resource]}" + (f" ({', '.join(sources)})" if sources else "")
