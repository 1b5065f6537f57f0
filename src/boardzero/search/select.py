"""Child selection at a decision node, compiled: the innermost step of every simulation."""

from __future__ import annotations

import math

import numba
import numpy as np


@numba.njit(cache=True)
def select_uct(visits, values, exact, legal, parent_visits, c, uniform, available):
    """Index of the legal move maximising Q + c*sqrt(ln N / n); an unvisited legal move first.

    visits, values: float64[A] edge statistics (values: sum of the mover's value); exact: float64[A] the
    proven value of a move for the mover (nan if not proven), used as its Q; legal: bool[A];
    uniform: a draw in [0, 1) that picks among unvisited moves; available: float64[A], how often each move
    was legal when the node was passed, which takes N's place for that move (information-set search, where
    determinizations differ in their legal moves), or an empty array to use ``parent_visits``.
    """
    own = available.shape[0] > 0
    unvisited = 0
    for a in range(legal.shape[0]):
        if legal[a] and visits[a] <= 0.0:
            unvisited += 1
    if unvisited > 0:
        k = min(int(uniform * unvisited), unvisited - 1)
        for a in range(legal.shape[0]):
            if legal[a] and visits[a] <= 0.0:
                if k == 0:
                    return a
                k -= 1
    log_n = math.log(max(parent_visits, 1.0))
    best, best_score = -1, -np.inf
    for a in range(legal.shape[0]):
        if legal[a]:
            q = exact[a] if not math.isnan(exact[a]) else values[a] / visits[a]
            if own:
                log_n = math.log(max(available[a], 1.0))
            score = q + c * math.sqrt(log_n / visits[a])
            if score > best_score:
                best, best_score = a, score
    return best


@numba.njit(cache=True)
def select_puct(visits, values, exact, priors, legal, parent_visits, fpu, c, available):
    """Index of the legal move maximising Q + c*P*sqrt(N)/(1+n), Q = fpu for unvisited moves.

    A proven move's Q is its exact value (``exact``, nan where unknown). ``available`` as in ``select_uct``.
    Priors are renormalised over the moves legal here; a legal move with no prior (legal in this
    determinization, not where the node was expanded) gets the uniform share.
    """
    count = 0
    total = 0.0
    for a in range(legal.shape[0]):
        if legal[a]:
            count += 1
            total += priors[a]
    missing = 1.0 / max(count, 1)
    norm = 0.0
    for a in range(legal.shape[0]):
        if legal[a]:
            norm += priors[a] if priors[a] > 0 else missing
    own = available.shape[0] > 0
    sqrt_n = math.sqrt(max(parent_visits, 1.0))
    best, best_score = -1, -np.inf
    for a in range(legal.shape[0]):
        if legal[a]:
            if own:
                sqrt_n = math.sqrt(max(available[a], 1.0))
            p = (priors[a] if priors[a] > 0 else missing) / norm
            if not math.isnan(exact[a]):
                q = exact[a]
            else:
                q = values[a] / visits[a] if visits[a] > 0 else fpu
            score = q + c * p * sqrt_n / (1.0 + visits[a])
            if score > best_score:
                best, best_score = a, score
    return best
