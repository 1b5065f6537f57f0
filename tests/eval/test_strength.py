"""Strength checks of the shipped models (``best``), at a small scale that still means something.

Each check plays a seeded arena match (seats rotated) and requires the lower end of the 95 % Wilson
interval of the model's rate to clear a stated bar. The bars sit well below the documented results
(docs/results/catan.md), so a sound model passes with a wide margin and a broken one (wrong weights, a
broken network, search or observation) fails. Slow: ``make test-all`` runs them.

| model | match | games | documented | bar for the 95 % lower bound |
|---|---|---|---|---|
| Connect 4 | `best:greedy` vs `random`, wins | 400 | 99.5 % of 1000 | 95 % |
| Connect 4 | `best:sims=200` vs `mcts:sims=2000`, wins | 30 | 94.0 % of 200 | 60 % |
| tic-tac-toe | `best:greedy` vs `solver`, games not lost | 200 | 200 of 200 drawn | 97 % |
| tic-tac-toe | `best` vs `solver`, games not lost | 40 | 200 of 200 drawn | 90 % |
| Kuhn poker, 3 players | `best:greedy` vs two `random`, wins | 1200 | 45.3 % of 1500 (chance: 1/3) | 38 % |
| Catan, 2 players | `best` vs `weighted`, wins | 200 | 100 % of 200 | 90 % |
| Catan, 3 players | `best` vs two `weighted`, wins | 200 | 99.5 % of 200 (chance: 1/3) | 90 % |
| Catan, 4 players | `best` vs three `weighted`, wins | 200 | 100 % of 200 (chance: 1/4) | 90 % |
| Catan, 2 players | `best:fast` (no search) vs `heuristic`, wins | 400 | 43.5 % of 400 (`--seed 0`) | 33 % |
| Catan, 3 players | `best:fast` vs two `heuristic`, wins | 400 | 19.2 % of 400 (chance: 1/3) | 11 % |
| Catan, 4 players | `best:fast` vs three `heuristic`, wins | 400 | 23.5 % of 400 (chance: 1/4) | 15 % |

`weighted` is too weak to tell a sound Catan model from a much weaker one (the first, flat models won 96 % of
its 2-player games), so the network alone also plays `heuristic`, where a network that has lost much of what it
learned falls under the bar (on these 400 games the first, flat 2-player model won 4.0 %, the first `rich` one
32.2 % [27.9, 37.0]: both fail).
"""

from __future__ import annotations

import pytest

from boardzero.eval.arena import run_arena
from boardzero.eval.stats import wilson_interval

pytestmark = pytest.mark.slow


def lower_bound(
    game: str, specs: list[str], games: int, *, count_draws: bool = False, options: dict | None = None
) -> tuple[float, str]:
    """The 95 % lower bound of the first entrant's wins (or games not lost) and a line describing the match."""
    model = run_arena(game, specs, num_games=games, workers=1, seed=0, options=options or {}).entrants[0]
    successes = model.wins + (model.draws if count_draws else 0)
    low, high = wilson_interval(successes, model.games)
    what = "not lost" if count_draws else "won"
    return low, f"{specs[0]} vs {specs[1]}: {successes}/{model.games} {what}, 95 % interval {low:.3f}-{high:.3f}"


@pytest.mark.parametrize(
    "game, options, specs, games, count_draws, bar",
    [
        ("connect4", {}, ["best:greedy", "random"], 400, False, 0.95),
        ("connect4", {}, ["best:sims=200", "mcts:sims=2000"], 30, False, 0.60),
        ("tictactoe", {}, ["best:greedy", "solver"], 200, True, 0.97),
        ("tictactoe", {}, ["best", "solver"], 40, True, 0.90),
        ("kuhn_poker", {}, ["best:greedy", "random"], 1200, False, 0.38),
        ("catan", {"players": 2}, ["best", "weighted"], 200, False, 0.90),
        ("catan", {"players": 3}, ["best", "weighted"], 200, False, 0.90),
        ("catan", {"players": 4}, ["best", "weighted"], 200, False, 0.90),
        ("catan", {"players": 2}, ["best:fast", "heuristic"], 400, False, 0.33),
        ("catan", {"players": 3}, ["best:fast", "heuristic"], 400, False, 0.11),
        ("catan", {"players": 4}, ["best:fast", "heuristic"], 400, False, 0.15),
    ],
)
def test_shipped_model_strength(game, options, specs, games, count_draws, bar):
    low, summary = lower_bound(game, specs, games, count_draws=count_draws, options=options)
    print(summary)  # shown by `pytest -rA`
    assert low >= bar, f"{summary}; the bar is {bar}"
