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
    check_solved,
    expected_random_accuracy,
    load_positions,
    move_accuracy,
    sample_positions,
    save_positions,
)


def accuracy(
    game: str = typer.Argument(..., help="connect4 or tictactoe."),
    agents: list[str] = typer.Argument(..., help="Agent specs to score, e.g. random mcts:sims=400 az:runs/c4"),
    positions: int = checked(200, "--positions", "-n", help="Number of test positions to draw", minimum=1),
    seed: int = checked(0, "--seed", help="Seed of the position draw and of the agents", minimum=0),
    min_ply: Optional[int] = checked(None, "--min-ply", help="Earliest ply of a test position (connect4: 10)",
                                     minimum=0),
    max_ply: Optional[int] = checked(None, "--max-ply", help="Latest ply of a test position (connect4: 32)",
                                     minimum=0),
    cache: Optional[Path] = typer.Option(None, "--cache", help="JSON file of solved positions: read if it exists, "
                                                               "else written, so later runs skip the solving."),
    as_json: bool = typer.Option(False, "--json", help="Print the results as one JSON object."),
) -> None:
    """Share of test positions where each agent's move keeps the best achievable result.

    Positions come from varied games (half random, half greedy moves, to a random ply); see
    boardzero.eval.accuracy. Example: boardzero accuracy connect4 random mcts:sims=400 -n 200
    """
    the_game = make(game)
    check_solved(the_game)
    console = Console(stderr=True)
    if cache is not None and cache.exists():
        test_positions = load_positions(cache, the_game)
    else:
        with progress_bar(console, f"drawing and solving {game} positions", positions, "positions") as advance:
            test_positions = sample_positions(the_game, positions, np.random.default_rng(seed), min_ply=min_ply,
                                              max_ply=max_ply, on_position=lambda _: advance())
        if len(test_positions) < positions:
            console.print(f"found only {len(test_positions)} distinct {game} positions with a choice to make "
                          f"(asked for {positions})")
        if cache is not None:
            save_positions(cache, the_game, test_positions)
    if not test_positions:
        raise ConfigError("--positions", "no test positions to score (an empty cache file?)")
    results = []
    for spec in agents:
        with progress_bar(console, f"scoring {spec}", len(test_positions), "positions") as advance:
            results.append(move_accuracy(spec, the_game, test_positions, np.random.default_rng(seed),
                                         on_position=lambda *_: advance()))
    expected_random = expected_random_accuracy(test_positions)
    if as_json:
        print(json.dumps({"game": game, "positions": len(test_positions), "expected_random": expected_random,
                          "agents": [r.to_dict() for r in results]}))
        return
    table = Table(title=f"{game}: move accuracy vs the solver, {len(test_positions)} positions")
    table.add_column("agent", overflow="fold")
    for column in ("acc %", "95 % CI", "correct", "wins kept", "draws kept"):
        table.add_column(column, justify="right", no_wrap=True)
    for r in results:  # a position where every move loses has no choice, so it is never drawn
        cells = [f"{r.by_best[k][0]}/{r.by_best[k][1]}" if k in r.by_best else "-" for k in ("win", "draw")]
        table.add_row(r.agent, f"{100 * r.accuracy:.1f}", f"{100 * r.interval[0]:.1f}–{100 * r.interval[1]:.1f}",
                      f"{r.correct}/{r.positions}", *cells)
    Console().print(table)
    print(f"a uniformly random mover keeps the best result in {100 * expected_random:.1f} % of these positions "
          "on average (the expectation of `random`'s accuracy)")
