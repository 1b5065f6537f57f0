"""``boardzero tournament`` and ``boardzero ratings``: round robins with a reward matrix and ratings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from boardzero.cli.arena import (
    BACKEND_OPTION,
    JSON_OPTION,
    OPTION_OPTION,
    PLAYERS_OPTION,
    RAY_ADDRESS_OPTION,
    SEED_OPTION,
    WORKERS_OPTION,
)
from boardzero.cli.options import check_backend, parse_game_options
from boardzero.cli.progress import games_progress
from boardzero.eval.checkpoints import RATINGS_FILE, rate_run
from boardzero.eval.figures import collect, figures_markdown
from boardzero.eval.ratings import INTERVALS, Ratings
from boardzero.eval.report import Table as Rows, matrix_rows, standings_rows
from boardzero.eval.tournament import Entrant, Tournament, run_tournament

ANCHOR_OPTION = typer.Option(None, "--anchor", help="Agent rated 0 (default: random if it plays, else the first).")
INTERVAL_OPTION = typer.Option(
    "bootstrap", "--interval", help=f"How the 95 % rating intervals are found: {' or '.join(INTERVALS)}."
)
RECORDS_OPTION = typer.Option(None, "--records", help="Append every new game's record to this JSON-lines file.")
OPENING_OPTION = typer.Option(
    0,
    "--opening-plies",
    help="Random moves that open every game (shared by the games of one seat rotation), so deterministic agents vary.",
)


def tournament(
    game: str = typer.Argument(..., help="Game name (see `boardzero games`)."),
    agents: list[str] = typer.Argument(..., help="Agent specs, each named once."),
    games: int = typer.Option(
        20,
        "--games",
        "-n",
        help="Games per lineup (each pair of agents; in games of more players, each set of players).",
    ),
    out: Optional[Path] = typer.Option(
        None, "--out", help="Tournament file (JSON); games already in it are kept and not played again."
    ),
    records: Optional[Path] = RECORDS_OPTION,
    anchor: Optional[str] = ANCHOR_OPTION,
    interval: str = INTERVAL_OPTION,
    seed: int = SEED_OPTION,
    opening_plies: int = OPENING_OPTION,
    workers: Optional[int] = WORKERS_OPTION,
    option: Optional[list[str]] = OPTION_OPTION,
    players: Optional[int] = PLAYERS_OPTION,
    as_json: bool = JSON_OPTION,
    backend: str = BACKEND_OPTION,
    ray_address: str = RAY_ADDRESS_OPTION,
) -> None:
    """Round robin: every lineup plays N games with seats rotated; prints standings, Bradley-Terry ratings
    with 95 % intervals and the mean reward matrix.

    Example: boardzero tournament connect4 random greedy mcts:sims=200 -n 40 --out c4.json
    """
    entrants = [Entrant(spec, spec) for spec in agents]
    result = _play(
        lambda **kw: run_tournament(
            game,
            entrants,
            games_per_lineup=games,
            seed=seed,
            workers=workers,
            opening_plies=opening_plies,
            options=parse_game_options(option, players),
            out=out,
            records=records,
            backend=check_backend(backend),
            address=ray_address,
            **kw,
        ),
        f"{game} tournament",
    )
    _finish(result, out, anchor, interval, as_json)


def ratings(
    run: Path = typer.Argument(..., help="Training run directory (with checkpoints/step_<N>.json)."),
    games: int = typer.Option(20, "--games", "-n", help="Games per lineup."),
    against: Optional[list[str]] = typer.Option(
        None, "--against", "-a", help="Fixed agents to rate the checkpoints against (repeatable; default: random)."
    ),
    checkpoints: int = typer.Option(
        8,
        "--checkpoints",
        "-c",
        help="At most this many checkpoints, evenly spread over the run (first and last included).",
    ),
    agent_options: str = typer.Option(
        "", "--agent-options", help="Options added to every checkpoint's agent spec, e.g. sims=50 or greedy."
    ),
    opening_plies: int = OPENING_OPTION,
    out: Optional[Path] = typer.Option(None, "--out", help=f"Tournament file (default: RUN/{RATINGS_FILE})."),
    records: Optional[Path] = RECORDS_OPTION,
    workers: Optional[int] = WORKERS_OPTION,
    seed: int = SEED_OPTION,
    anchor: Optional[str] = ANCHOR_OPTION,
    interval: str = INTERVAL_OPTION,
    as_json: bool = JSON_OPTION,
    backend: str = BACKEND_OPTION,
    ray_address: str = RAY_ADDRESS_OPTION,
) -> None:
    """Rate a training run's checkpoints over time (any training method): a tournament among them and fixed
    agents, resumable, saved in the run; `boardzero report RUN` plots it.

    Example: boardzero ratings runs/ttt -n 20 --agent-options sims=16
    """
    out = out or run / RATINGS_FILE
    result = _play(
        lambda **kw: rate_run(
            run,
            games_per_lineup=games,
            against=against,
            most=checkpoints,
            agent_options=agent_options,
            seed=seed,
            opening_plies=opening_plies,
            workers=workers,
            out=out,
            records=records,
            backend=check_backend(backend),
            address=ray_address,
            **kw,
        ),
        f"ratings of {run}",
    )
    _finish(result, out, anchor, interval, as_json)


def _play(start, description: str) -> Tournament:
    progress = games_progress()
    task = progress.add_task(description, total=None)

    def on_start(to_play: int, played: int) -> None:
        if played:
            Console(stderr=True).print(f"{played} games already played; {to_play} to play", highlight=False)
        progress.update(task, total=to_play)
        progress.start()

    try:
        return start(on_start=on_start, on_result=lambda _: progress.advance(task))
    finally:
        progress.stop()


def _finish(result: Tournament, out: Optional[Path], anchor: Optional[str], interval: str, as_json: bool) -> None:
    ratings = result.ratings(anchor, interval=interval)
    results = result.results(ratings)
    if out is not None:
        result.save(out, results)
    if as_json:
        print(json.dumps({"game": result.game, "options": result.options, "agents": result.names, **results}))
        return
    print_tournament(result, ratings)
    if out is not None:
        Console().print(f"saved {out}; `boardzero report {out}` draws it", highlight=False)


def print_tournament(result: Tournament, ratings: Ratings) -> None:
    console = Console(width=None if sys.stdout.isatty() else 140)
    if result.options:
        console.print("options: " + ", ".join(f"{k}={v}" for k, v in result.options.items()), highlight=False)
    games = result.current_games()
    console.print(
        _table(
            standings_rows(result, ratings),
            f"{result.game}: {len(games)} games, {result.games_per_lineup} per lineup, seats rotated"
            + (f", {result.opening_plies} random opening plies" if result.opening_plies else ""),
        )
    )
    console.print(
        f"ratings: Bradley-Terry on the Elo scale, {ratings.anchor} = 0, 95 % {ratings.interval} "
        "intervals; multiplayer games count as pairwise outcomes",
        highlight=False,
    )
    console.print(_table(matrix_rows(result), "mean reward, row against column"))
    figures = collect(g.facts for g in games)
    if figures.per_game or figures.winners:  # the game reports figures of its own (Catan: points, turns, dice)
        console.print(figures_markdown(figures), highlight=False, markup=False)


def _table(rows: Rows, title: str) -> Table:
    headers, cells = rows
    table = Table(title=title)
    for i, header in enumerate(headers):
        table.add_column(header, justify="left" if i == 0 else "right", overflow="fold")
    for row in cells:
        table.add_row(*row)
    return table
