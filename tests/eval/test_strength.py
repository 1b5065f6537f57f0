"""Strength checks of the shipped models (``best``), at a small scale that still means something.

Each check plays a seeded arena match (seats rotated) and requires the lower end of the 95 % Wilson
interval of the model's rate to clear a stated bar. The bars sit well below the documented results
(docs/training.md), so a sound model passes with a wide margin and a broken one (wrong weights, a
broken network, search or observation) fails. Slow: ``make test-all`` runs them.

| model | match | games | documented | bar for the 95 % lower bound |
|---|---|---|---|---|
| Connect 4 | `best:greedy` vs `random`, wins | 400 | 99.5 % of 1000 | 95 % |
| Connect 4 | `best:sims=200` vs `mcts:sims=2000`, wins | 30 | 94.0 % of 200 | 60 % |
| tic-tac-toe | `best:greedy` vs `solver`, games not lost | 200 | 200 of 200 drawn | 97 % |
| tic-tac-toe | `best` vs `solver`, games not lost | 40 | 200 of 200 drawn | 90 % |
| Kuhn poker, 3 players | `best:greedy` vs two `random`, wins | 1200 | 45.3 % of 1500 (chance: 1/3) | 38 % |
| Catan, 2 players | `best` vs `weighted`, wins | 200 | 96.2 % of 400 | 88 % |
| Catan, 4 players | `best` vs three `weighted`, wins | 200 | 70.2 % of 400 (chance: 1/4) | 55 % |
| Catan, 3 players | `best` vs two `weighted`, wins | 200 | 88.5 % of 400 (chance: 1/3) | 80 % |
"""

from __future__ import annotations

import pytest

from boardzero.eval.arena import run_arena
from boardzero.eval.stats import wilson_interval

pytestmark = pytest.mark.slow


def lower_bound(game: str, specs: list[str], games: int, *, count_draws: bool = False,
                options: dict | None = None) -> tuple[float, str]:
    """The 95 % lower bound of the first entrant's wins (or games not lost) and a line describing the match."""
    model = run_arena(game, specs, num_games=games, workers=1, seed=0, options=options or {}).entrants[0]
    successes = model.wins + (model.draws if count_draws else 0)
    low, high = wilson_interval(successes, model.games)
    what = "not lost" if count_draws else "won"
    return low, f"{specs[0]} vs {specs[1]}: {successes}/{model.games} {what}, 95 % interval {low:.3f}-{high:.3f}"


@pytest.mark.parametrize("game, options, specs, games, count_draws, bar", [
    ("connect4", {}, ["best:greedy", "random"], 400, False, 0.95),
    ("connect4", {}, ["best:sims=200", "mcts:sims=2000"], 30, False, 0.60),
    ("tictactoe", {}, ["best:greedy", "solver"], 200, True, 0.97),
    ("tictactoe", {}, ["best", "solver"], 40, True, 0.90),
    ("kuhn_poker", {}, ["best:greedy", "random"], 1200, False, 0.38),
    ("catan", {"players": 2}, ["best", "weighted"], 200, False, 0.88),
    ("catan", {"players": 3}, ["best", "weighted"], 200, False, 0.80),
    ("catan", {"players": 4}, ["best", "weighted"], 200, False, 0.55),
])
def test_shipped_model_strength(game, options, specs, games, count_draws, bar):
    low, summary = lower_bound(game, specs, games, count_draws=count_draws, options=options)
    print(summary)  # shown by `pytest -rA`
    assert low >= bar, f"{summary}; the bar is {bar}"
