"""A standard test set for move accuracy: solved positions in equal numbers per game phase and difficulty.

Test sets for Connect 4 programs are usually split by game phase and by how
hard the position is; a single share over random positions mixes easy
endgames with subtle openings and says little about either. ``draw_test_set``
fills every group of ``eval.accuracy`` (begin / middle / end by ply, times
easy / medium / hard by how many legal moves keep the best result) with the
same number of positions, so each group's accuracy has the same precision.

How a position is drawn (deterministic for a given ``rng``):

1. the phase whose groups are least filled (ties: begin, middle, end) picks
   the target ply, uniform over the phase's plies in ``ply_ranges``;
2. a game is played from the empty board to that ply, each move uniformly
   random with a probability drawn once per game, uniform in
   ``random_share`` (default 0.2-0.8), else the ``greedy`` agent's move (win
   at once if possible, else do not allow an immediate win, else random);
   games that end before the target ply are dropped;
3. the exact solver values every legal move; positions already seen, where
   every move has the same value (nothing to get wrong), or whose group is
   already full are dropped.

No network or search plays these games, so the set favours no trained model.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardzero.agents.registry import make_agent
from boardzero.agents.solver import ILLEGAL, solved_move_values
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.eval.accuracy import (
    DIFFICULTIES,
    PHASES,
    Position,
    accuracy_solver,
    check_solved,
    phase_of,
    play_to_ply,
    position_group,
)


def test_set_plies(game: Game) -> dict[str, tuple[int, int]]:
    """The plies each phase's positions are drawn from, as ``game``'s solver declares them
    (``ExactSolver.test_set_plies``; Connect 4's begin positions start at ply 10, where its solver is quick)."""
    return dict(zip(PHASES, accuracy_solver(game).test_set_plies))


DEFAULT_RANDOM_SHARE = (0.2, 0.8)


def draw_test_set(
    game: Game,
    per_group: int,
    rng: np.random.Generator,
    *,
    ply_ranges: dict[str, tuple[int, int]] | None = None,
    random_share: tuple[float, float] = DEFAULT_RANDOM_SHARE,
    max_tries: int | None = None,
    on_position: Callable[[Position], None] | None = None,
) -> list[Position]:
    """Up to ``per_group`` solved positions in each (phase, difficulty) group, drawn as the module docstring
    says, in the order they were found; fewer in a group when ``max_tries`` games (default ``400 * per_group``)
    run out first. ``on_position`` is called with each position kept."""
    check_solved(game)
    if per_group < 1:
        raise ConfigError("per_group", f"must be >= 1, got {per_group}")
    ranges = _checked_ranges(game, ply_ranges)
    low_share, high_share = random_share
    if not 0.0 <= low_share <= high_share <= 1.0:
        raise ConfigError("random_share", f"need 0 <= low <= high <= 1, got {random_share}")
    greedy = make_agent("greedy", game)
    filled = {(phase, difficulty): 0 for phase in PHASES for difficulty in DIFFICULTIES}
    seen: set[tuple[int, ...]] = set()
    positions: list[Position] = []
    for _ in range(max_tries if max_tries is not None else 400 * per_group):
        open_phases = [p for p in PHASES if any(filled[p, d] < per_group for d in DIFFICULTIES)]
        if not open_phases:
            break
        phase = min(open_phases, key=lambda p: sum(filled[p, d] for d in DIFFICULTIES))
        low, high = ranges[phase]
        share = float(rng.uniform(low_share, high_share))
        history = play_to_ply(game, int(rng.integers(low, high + 1)), greedy, share, rng)
        if history is None or tuple(history) in seen:
            continue
        seen.add(tuple(history))
        values = solved_move_values(game, history)
        legal = values[values != ILLEGAL]
        if legal.min() == legal.max():
            continue
        position = Position(history, values)
        group = position_group(game, position)
        if filled[group] >= per_group:
            continue
        filled[group] += 1
        positions.append(position)
        if on_position is not None:
            on_position(position)
    return positions


def _checked_ranges(game: Game, ply_ranges: dict[str, tuple[int, int]] | None) -> dict[str, tuple[int, int]]:
    """The ply range of each phase; each must lie inside its phase."""
    if ply_ranges is None:
        ply_ranges = test_set_plies(game)
    if sorted(ply_ranges) != sorted(PHASES):
        raise ConfigError("ply_ranges", f"need a range for each of {', '.join(PHASES)}, got {', '.join(ply_ranges)}")
    for phase, (low, high) in ply_ranges.items():
        if not (0 <= low <= high and phase_of(game, low) == phase == phase_of(game, high)):
            raise ConfigError(
                "ply_ranges",
                f"{phase}: plies {low}..{high} are not all in the {phase} phase "
                f"(phases start at plies 0, {', '.join(map(str, accuracy_solver(game).phase_starts))})",
            )
    return dict(ply_ranges)
