"""Final returns of a finished Catan game from its array: the one rule ``CatanState.returns`` and the batched
games (``batched``) share."""

from __future__ import annotations

import numpy as np

from boardzero.games.catan.offsets import PH_OVER
from boardzero.games.catan.view import CatanView

RETURNS = ("win", "rank", "vp", "win_vp")
WIN_VP_POINTS_SHARE = 0.25  # the share of win_vp returns that the final points make up


def final_returns(s: np.ndarray, mode: str) -> np.ndarray:
    """float[players]: the returns of the game in array ``s`` under the ``returns`` option ``mode`` (zeros while
    it is still being played)."""
    view = CatanView(s)
    n = view.num_players
    out = np.zeros(n, dtype=np.float64)
    if view.phase_id != PH_OVER:
        return out
    points = np.array([view.victory_points(p) for p in range(n)], dtype=np.float64)
    winner = view.winner
    share = np.minimum(points / view.vp_to_win, 1.0)
    if mode == "vp":
        return share
    if mode in ("win", "win_vp"):
        if winner is not None:
            out[winner] = 1.0
        else:  # turn limit: the leaders share the win
            leaders = points == points.max()
            out[leaders] = 1.0 / leaders.sum()
        if mode == "win_vp":  # a loser with 8 points ends better off than one with 3
            out = (1.0 - WIN_VP_POINTS_SHARE) * out + WIN_VP_POINTS_SHARE * share
        return out
    # rank: 1 for first .. 0 for last; ties share the average of their places; a winner ranks first
    key = points.copy()
    if winner is not None:
        key[winner] = np.inf
    for p in range(n):
        better = np.sum(key > key[p])
        tied = np.sum(key == key[p])
        place = better + (tied - 1) / 2.0
        out[p] = 1.0 - place / (n - 1)
    return out
