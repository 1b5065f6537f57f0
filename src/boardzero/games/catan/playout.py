"""Playing a game on: the chance outcome a uniform draw picks, checked application, and compiled random play."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan.handlers import apply_action
from boardzero.games.catan.legal import chance_outcomes, chance_possible, is_legal, legal_actions
from boardzero.games.catan.offsets import (
    DECK,
    DICE_PROBS,
    G_PHASE,
    G_TURN,
    G_VICTIM,
    G_WINNER,
    MAX_ACTIONS,
    O_DEV,
    O_DICE,
    O_STEAL,
    P_CARDS,
    P_HAND,
    PH_DEV_DRAW,
    PH_DICE,
    PH_OVER,
    PH_STEAL,
    pb,
)

# the dice totals' cumulative probabilities laid out as np.random.Generator.choice lays them out
DICE_CDF = np.cumsum(DICE_PROBS[2:] / DICE_PROBS[2:].sum())
DICE_CDF /= DICE_CDF[-1]


@njit(cache=True)
def chance_outcome_at(s, u):
    """The chance outcome that the uniform draw u (0 <= u < 1) picks, -1 at a decision node: the outcomes
    of chance_outcomes cover [0, 1) in order, with the same floating-point slices as
    ``rng.choice(len(outcomes), p=probs)`` (so a draw gives the same outcome either way)."""
    if s[G_PHASE] == PH_DICE:
        for i in range(11):
            if DICE_CDF[i] > u:
                return O_DICE + 2 + i
        return O_DICE + 12
    ids = np.empty(11, dtype=np.int64)
    cdf = np.empty(11, dtype=np.float64)
    c = chance_outcomes(s, ids, cdf)
    if c == 0:
        return -1
    total = 0.0
    for i in range(c):  # numpy sums fewer than 8 numbers one by one too
        total += cdf[i]
    acc = 0.0
    for i in range(c):
        acc += cdf[i] / total
        cdf[i] = acc
    for i in range(c):
        if cdf[i] / acc > u:
            return ids[i]
    return ids[c - 1]


@njit(cache=True)
def apply_if_possible(s, a):
    """Apply a player action or chance outcome if it is possible now; returns whether it was (else s is unchanged)."""
    ph = s[G_PHASE]
    if ph == PH_OVER:
        return False
    if ph == PH_DICE or ph == PH_DEV_DRAW or ph == PH_STEAL:
        if not chance_possible(s, a):
            return False
    elif not is_legal(s, a):
        return False
    apply_action(s, a)
    return True


@njit(cache=True)
def sample_chance_outcome(s):
    ph = s[G_PHASE]
    if ph == PH_DICE:
        return np.random.randint(1, 7) + np.random.randint(1, 7)
    if ph == PH_DEV_DRAW:
        total = 0
        for d in range(5):
            total += s[DECK + d]
        x = np.random.randint(0, total)
        for d in range(5):
            x -= s[DECK + d]
            if x < 0:
                return O_DEV + d
    b = pb(s[G_VICTIM])
    x = np.random.randint(0, s[b + P_CARDS])
    for r in range(5):
        x -= s[b + P_HAND + r]
        if x < 0:
            return O_STEAL + r
    return O_STEAL


@njit(cache=True)
def seed_numba(seed):
    np.random.seed(seed)


@njit(cache=True)
def play_random(s, max_steps):
    """Play uniformly random legal moves (true chance) until the end; returns the steps taken."""
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    steps = 0
    while s[G_PHASE] != PH_OVER and steps < max_steps:
        ph = s[G_PHASE]
        if ph == PH_DICE or ph == PH_DEV_DRAW or ph == PH_STEAL:
            apply_action(s, sample_chance_outcome(s))
        else:
            c = legal_actions(s, buf)
            apply_action(s, buf[np.random.randint(0, c)])
        steps += 1
    return steps


@njit(cache=True)
def random_playout(s, seed, max_steps=1_000_000):
    """Seed numba's generator, then play ``s`` to the end with random moves (in place)."""
    np.random.seed(seed)
    return play_random(s, max_steps)


@njit(cache=True)
def play_random_games(template, num_games, seed):
    """Play num_games random games from copies of ``template``; returns [turns, winner] per game."""
    np.random.seed(seed)
    out = np.empty((num_games, 2), dtype=np.int64)
    s = template.copy()
    for i in range(num_games):
        s[:] = template
        play_random(s, 10_000_000)
        out[i, 0] = s[G_TURN]
        out[i, 1] = s[G_WINNER]
    return out
