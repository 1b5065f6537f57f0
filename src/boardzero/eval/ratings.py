"""Bradley-Terry (Elo-scale) ratings fitted to game results, with 95 % intervals.

Model: agent ``i`` beats agent ``j`` with probability ``1 / (1 + 10 ** ((R_j - R_i) / 400))``. Every game
is decomposed into pairwise outcomes: for each two seats held by different agents, the one with the higher
return beats the other, equal returns are a draw (half a win each). A two-player game is one such outcome; a
four-player Catan game won by one seat is three wins for the winner and three draws among the others.

The ratings maximise the likelihood (Newton's method) with one seat fixed: the anchor agent is 0 (by default
``random``). A weak prior of ``prior_draws`` virtual drawn games between every two agents that met keeps the
ratings finite when one agent won every game against another (it pulls such a gap to about
``400 * log10(2 * games / prior_draws)``, e.g. 1200 points for 500 straight wins).

Intervals:

- ``bootstrap`` (default): games are resampled with replacement within each lineup and the ratings
  refitted; the interval is the 2.5 and 97.5 percentiles. It respects that the pairwise outcomes of one
  multiplayer game are not independent. An agent that won (or lost) every game it played gives the
  resampling nothing to vary; it keeps its Fisher interval, which the prior bounds.
- ``fisher``: plus or minus 1.96 standard errors from the observed Fisher information (the Hessian of the
  log-likelihood) of the fit; exact for independent two-player games as the game count grows, too narrow
  for decomposed multiplayer games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardzero.core.errors import ConfigError

ELO = 400.0 / math.log(10.0)  # natural log-strength to Elo points
INTERVALS = ("bootstrap", "fisher")


@dataclass
class Ratings:
    names: list[str]
    elo: np.ndarray  # [K] points relative to the anchor
    low: np.ndarray  # [K] 95 % interval
    high: np.ndarray  # [K]
    anchor: str
    interval: str  # "bootstrap" or "fisher"
    games: int  # games the fit used

    def to_dict(self) -> dict[str, Any]:
        return {
            "anchor": self.anchor,
            "interval": self.interval,
            "games": self.games,
            "ratings": [
                {"name": n, "elo": float(e), "ci95": [float(lo), float(hi)]}
                for n, e, lo, hi in zip(self.names, self.elo, self.low, self.high)
            ],
        }


def pairwise_scores(seats: Sequence[int], returns: Sequence[float], num_agents: int) -> np.ndarray:
    """[K, K] points of row agent against column agent in one game (1 a win, 0.5 a draw)."""
    scores = np.zeros((num_agents, num_agents))
    for s in range(len(seats)):
        for t in range(s + 1, len(seats)):
            a, b = seats[s], seats[t]
            if a == b:
                continue
            score = 0.5 if returns[s] == returns[t] else float(returns[s] > returns[t])
            scores[a, b] += score
            scores[b, a] += 1.0 - score
    return scores


def fit_bradley_terry(
    scores: np.ndarray, anchor: int, *, prior_draws: float = 1.0, tolerance: float = 1e-10, max_iterations: int = 200
) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood log-strengths (anchor 0) for a [K, K] score matrix, and the [K-1, K-1] observed
    information of the free agents (the anchor's row and column removed)."""
    played = scores + scores.T
    wins = scores + 0.5 * prior_draws * (played > 0)
    games = wins + wins.T
    _check_connected(games, anchor)
    free = np.arange(len(scores)) != anchor
    theta = np.zeros(len(scores))
    for _ in range(max_iterations):
        gradient, information = _derivatives(theta, wins, games)
        step = np.linalg.solve(information[np.ix_(free, free)], gradient[free])
        size = 1.0
        while size > 1e-6:  # backtrack until the likelihood does not fall (it is concave)
            trial = theta.copy()
            trial[free] += size * step
            if _log_likelihood(trial, wins, games) >= _log_likelihood(theta, wins, games) - 1e-12:
                break
            size /= 2
        theta = trial
        if np.max(np.abs(size * step)) < tolerance:
            break
    _, information = _derivatives(theta, wins, games)
    return theta, information[np.ix_(free, free)]


def _derivatives(theta: np.ndarray, wins: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
    gradient = (wins - games * p).sum(axis=1)
    weight = games * p * p.T
    information = -weight
    np.fill_diagonal(information, weight.sum(axis=1) - np.diag(weight))
    return gradient, information


def _log_likelihood(theta: np.ndarray, wins: np.ndarray, games: np.ndarray) -> float:
    difference = theta[:, None] - theta[None, :]
    return float(-(wins * np.logaddexp(0.0, -difference)).sum())


def _check_connected(games: np.ndarray, anchor: int) -> None:
    reached, frontier = {anchor}, [anchor]
    while frontier:
        node = frontier.pop()
        for other in np.flatnonzero(games[node] > 0):
            if int(other) not in reached:
                reached.add(int(other))
                frontier.append(int(other))
    if len(reached) < len(games):
        missing = sorted(set(range(len(games))) - reached)
        raise ConfigError(
            "ratings",
            f"agents {missing} never met the anchor's group of agents (directly or "
            "through others), so their ratings are undefined",
        )


def clean_sweeps(scores: np.ndarray) -> np.ndarray:
    """bool[K]: agents that won every point or lost every point of their games (and played some)."""
    played = (scores + scores.T).sum(axis=1)
    won = scores.sum(axis=1)
    return (played > 0) & ((won == played) | (won == 0))


def rate(
    names: list[str],
    games: Sequence[tuple[Sequence[int], Sequence[float], Any]],
    *,
    anchor: str,
    interval: str = "bootstrap",
    samples: int = 200,
    prior_draws: float = 1.0,
    rng: np.random.Generator | None = None,
) -> Ratings:
    """Ratings of ``names`` from ``games``: (agent index per seat, returns, lineup key) each; the lineup key
    groups games for the bootstrap (resampled within each group)."""
    if anchor not in names:
        raise ConfigError("anchor", f"{anchor!r} is not one of the rated agents: {', '.join(names)}")
    if interval not in INTERVALS:
        raise ConfigError("interval", f"{interval!r} is not allowed; allowed: {', '.join(INTERVALS)}")
    if not games:
        raise ConfigError("ratings", "no games to rate")
    k, a = len(names), names.index(anchor)
    per_game = np.stack([pairwise_scores(seats, returns, k) for seats, returns, _ in games])
    scores = per_game.sum(axis=0)
    theta, information = fit_bradley_terry(scores, a, prior_draws=prior_draws)
    free = np.arange(k) != a
    half = np.zeros(k)
    half[free] = 1.96 * np.sqrt(np.diag(np.linalg.inv(information)))
    low, high = theta - half, theta + half
    if interval == "bootstrap":
        rng = rng if rng is not None else np.random.default_rng(0)
        groups = {}
        for index, (_, _, key) in enumerate(games):
            groups.setdefault(key, []).append(index)
        fits = np.empty((samples, k))
        for sample in range(samples):
            chosen = np.concatenate([rng.choice(members, len(members)) for members in groups.values()])
            fits[sample], _ = fit_bradley_terry(per_game[chosen].sum(axis=0), a, prior_draws=prior_draws)
        resampled_low, resampled_high = np.percentile(fits, [2.5, 97.5], axis=0)
        # an agent that won (or lost) every game it played leaves resampling nothing to vary: keep its
        # Fisher interval, which the prior bounds
        varied = ~clean_sweeps(scores)
        low[varied], high[varied] = resampled_low[varied], resampled_high[varied]
    return Ratings(list(names), ELO * theta, ELO * low, ELO * high, anchor, interval, len(games))
