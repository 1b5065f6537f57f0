"""``boardzero accuracy``: move accuracy of agents against the exact solver (Connect 4, tic-tac-toe)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from boardzero.cli.options import checked
from boardzero.cli.progress import progress_bar
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.eval.accuracy import (
    ALL,
    DIFFICULTIES,
    PHASES,
    AccuracyResult,
    accuracy_solver,
    check_solved,
    expected_random_accuracy,
    load_positions,
    move_accuracy,
    sample_positions,
    save_positions,
)
from boardzero.eval.testset import DEFAULT_RANDOM_SHARE, draw_test_set, test_set_plies


def accuracy(
    game: str = typer.Argument(..., help="connect4 or tictactoe."),
    agents: list[str] = typer.Argument(..., help="Agent specs to score, e.g. random mcts:sims=400 az:runs/c4"),
    positions: int = checked(200, "--positions", "-n", help="Number of test positions to draw", minimum=1),
    seed: int = checked(0, "--seed", help="Seed of the position draw and of the agents", minimum=0),
    min_ply: Optional[int] = checked(
        None, "--min-ply", help="Earliest ply of a test position (connect4: 10)", minimum=0
    ),
    max_ply: Optional[int] = checked(None, "--max-ply", help="Latest ply of a test position (connect4: 32)", minimum=0),
    cache: Optional[Path] = typer.Option(
        None,
        "--cache",
        help="JSON file of solved positions: read if it exists, else written, so later runs skip the solving.",
    ),
    per_group: Optional[int] = checked(
        None,
        "--per-group",
        help="Draw a test set of this many positions in each "
        "phase x difficulty group instead of -n positions (see boardzero.eval.testset)",
        minimum=1,
    ),
    first: Optional[int] = checked(
        None,
        "--first",
        help="Score only the first N positions of the set (a subset for "
        "slow agents; a set drawn with --per-group is stored in the order drawn, so a "
        "prefix holds the phases in about equal parts)",
        minimum=1,
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the results as one JSON object."),
) -> None:
    """Share of test positions where each agent's move keeps the best achievable result.

    Positions come from varied games (half random, half greedy moves, to a random ply); see
    boardzero.eval.accuracy. Each agent's accuracy is also shown by game phase x difficulty with 95 % intervals.
    Example: boardzero accuracy connect4 random mcts:sims=400 -n 200
    The standard test set: boardzero accuracy connect4 best:greedy --cache data/connect4_testset.json
    """
    the_game = make(game)
    check_solved(the_game)
    console = Console(stderr=True)
    if per_group is not None and (min_ply is not None or max_ply is not None):
        raise ConfigError("--per-group", "draws each phase from its own plies; --min-ply and --max-ply apply to -n")
    if cache is not None and cache.exists():
        test_positions = load_positions(cache, the_game)
    elif per_group is not None:
        test_positions = _draw_test_set(console, the_game, per_group, seed, cache)
    else:
        with progress_bar(console, f"drawing and solving {game} positions", positions, "positions") as advance:
            test_positions = sample_positions(
                the_game,
                positions,
                np.random.default_rng(seed),
                min_ply=min_ply,
                max_ply=max_ply,
                on_position=lambda _: advance(),
            )
        if len(test_positions) < positions:
            console.print(
                f"found only {len(test_positions)} distinct {game} positions with a choice to make "
                f"(asked for {positions})"
            )
        if cache is not None:
            save_positions(cache, the_game, test_positions)
    if first is not None:
        test_positions = test_positions[:first]
    if not test_positions:
        raise ConfigError("--positions", "no test positions to score (an empty cache file?)")
    results = []
    for spec in agents:
        with progress_bar(console, f"scoring {spec}", len(test_positions), "positions") as advance:
            results.append(
                move_accuracy(
                    spec, the_game, test_positions, np.random.default_rng(seed), on_position=lambda *_: advance()
                )
            )
    expected_random = expected_random_accuracy(test_positions)
    if as_json:
        print(
            json.dumps(
                {
                    "game": game,
                    "positions": len(test_positions),
                    "expected_random": expected_random,
                    "agents": [r.to_dict() for r in results],
                }
            )
        )
        return
    table = Table(title=f"{game}: move accuracy vs the solver, {len(test_positions)} positions")
    table.add_column("agent", overflow="fold")
    for column in ("acc %", "95 % CI", "correct", "wins kept", "draws kept"):
        table.add_column(column, justify="right", no_wrap=True)
    for r in results:  # a position where every move loses has no choice, so it is never drawn
        cells = [f"{r.by_best[k][0]}/{r.by_best[k][1]}" if k in r.by_best else "-" for k in ("win", "draw")]
        table.add_row(
            r.agent,
            f"{100 * r.accuracy:.1f}",
            f"{100 * r.interval[0]:.1f}–{100 * r.interval[1]:.1f}",
            f"{r.correct}/{r.positions}",
            *cells,
        )
    Console().print(table)
    print(
        f"a uniformly random mover keeps the best result in {100 * expected_random:.1f} % of these positions "
        "on average (the expectation of `random`'s accuracy)"
    )
    Console().print(_group_table(results))


def _group_table(results: list[AccuracyResult]) -> Table:
    """Each agent's accuracy in each game phase x difficulty group (and each phase, each difficulty, all), with
    its 95 % interval; groups without positions are left out."""
    table = Table(title="accuracy % [95 % interval] by game phase / difficulty")
    table.add_column("group", no_wrap=True)
    table.add_column("positions", justify="right")
    for r in results:
        table.add_column(r.agent, justify="right", overflow="fold")
    for phase in (*PHASES, ALL):
        for difficulty in (*DIFFICULTIES, ALL):
            key = f"{phase}/{difficulty}"
            if key not in results[0].by_group:
                continue
            cells = []
            for r in results:
                correct, count = r.by_group[key]
                low, high = r.group_interval(key)
                cells.append(f"{100 * correct / count:.1f} [{100 * low:.1f}–{100 * high:.1f}]")
            table.add_row(key, str(results[0].by_group[key][1]), *cells)
    return table


def _draw_test_set(console: Console, game, per_group: int, seed: int, cache: Optional[Path]) -> list:
    """A test set of ``per_group`` positions per phase x difficulty group, written to ``cache`` with how it was
    made."""
    total = per_group * len(PHASES) * len(DIFFICULTIES)
    with progress_bar(console, f"drawing and solving a {game.name} test set", total, "positions") as advance:
        test_positions = draw_test_set(game, per_group, np.random.default_rng(seed), on_position=lambda _: advance())
    if len(test_positions) < total:
        console.print(f"found only {len(test_positions)} of {total} positions (some groups are short)")
    if cache is not None:
        middle, end = accuracy_solver(game).phase_starts
        about = {
            "made_by": f"boardzero accuracy {game.name} ... --per-group {per_group} --seed {seed}",
            "method": "boardzero.eval.testset.draw_test_set",
            "per_group": per_group,
            "seed": seed,
            "ply_ranges": test_set_plies(game),
            "random_share": list(DEFAULT_RANDOM_SHARE),
            "phases": f"begin: plies 0-{middle - 1}, middle: {middle}-{end - 1}, end: {end}+",
            "difficulty": "hard: exactly one legal move keeps the best result; easy: more than half do; "
            "medium: the rest",
        }
        save_positions(cache, game, test_positions, about=about)
    return test_positions
