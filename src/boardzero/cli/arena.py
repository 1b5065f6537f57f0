"""``boardzero arena`` and ``boardzero simulate``: matches between agents, with a report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from boardzero.cli.options import check_backend, checked, parse_game_options
from boardzero.cli.progress import games_progress
from boardzero.core.errors import ConfigError
from boardzero.eval.arena import ArenaResult, run_arena

GAMES_OPTION = checked(100, "--games", "-n", help="Number of games to play", minimum=1)
SEED_OPTION = checked(0, "--seed", help="Base seed; game i uses (seed, i)", minimum=0)
WORKERS_OPTION = checked(
    None,
    "--workers",
    "-w",
    help="Worker processes, or Ray actors with --backend ray (default: one per core of the machine or cluster)",
    minimum=1,
)
SEATS_NOTE = "seats count from 0; seat 0 moves first"
BACKEND_OPTION = typer.Option(
    "local",
    "--backend",
    help="Where games are played: local processes, or ray (a Ray cluster, else a local Ray instance; same results).",
)
RAY_ADDRESS_OPTION = typer.Option(
    "",
    "--ray-address",
    help="Ray cluster address with --backend ray (default: the one `ray start` made here, else a local instance).",
)
JSON_OPTION = typer.Option(False, "--json", help="Print the result as one JSON object (for scripts).")
OPTION_OPTION = typer.Option(None, "--option", "-o", help="Game option KEY=VALUE (repeatable).")
PLAYERS_OPTION = typer.Option(None, "--players", "-p", help="Number of players, where the game has that option.")
MINUTES_OPTION = checked(
    None,
    "--minutes",
    help="Time limit: stop at the first game to end after this many minutes, "
    "drop the games still in play and report those that finished (default: play all)",
    minimum=0,
    above=True,
)
RECORDS_OPTION = typer.Option(
    None,
    "--records",
    help="Write every game's record to this JSON-lines file, which "
    "must be new or empty unless --append (replay with `boardzero "
    "replay FILE`).",
)
APPEND_OPTION = typer.Option(False, "--append", help="Let --records add to a file that already holds games.")


def arena(
    game: str = typer.Argument(..., help="Game name (see `boardzero games`)."),
    agents: list[str] = typer.Argument(..., help="Agent specs; the last one fills the remaining seats."),
    games: int = GAMES_OPTION,
    seed: int = SEED_OPTION,
    workers: Optional[int] = WORKERS_OPTION,
    as_json: bool = JSON_OPTION,
    option: Optional[list[str]] = OPTION_OPTION,
    players: Optional[int] = PLAYERS_OPTION,
    records: Optional[Path] = RECORDS_OPTION,
    backend: str = BACKEND_OPTION,
    ray_address: str = RAY_ADDRESS_OPTION,
    minutes: Optional[float] = MINUTES_OPTION,
    append: bool = APPEND_OPTION,
) -> None:
    """Play N games between agents, every seat order rotated evenly, and report win rates with 95 % intervals.

    Example: boardzero arena connect4 mcts:sims=200 random -n 200
    """
    check_records(records, append)
    result = _run_with_progress(
        game,
        agents,
        games,
        seed,
        workers,
        parse_game_options(option, players),
        records,
        check_backend(backend),
        ray_address,
        minutes,
    )
    if as_json:
        print(json.dumps(result.to_dict()))
    else:
        print_report(result)


def simulate(
    game: str = typer.Argument(..., help="Game name."),
    agents: Optional[list[str]] = typer.Argument(None, help="Agent specs (default: random in every seat)."),
    games: int = GAMES_OPTION,
    seed: int = SEED_OPTION,
    workers: Optional[int] = WORKERS_OPTION,
    as_json: bool = JSON_OPTION,
    option: Optional[list[str]] = OPTION_OPTION,
    players: Optional[int] = PLAYERS_OPTION,
    records: Optional[Path] = RECORDS_OPTION,
    backend: str = BACKEND_OPTION,
    ray_address: str = RAY_ADDRESS_OPTION,
    minutes: Optional[float] = MINUTES_OPTION,
    append: bool = APPEND_OPTION,
) -> None:
    """Simulate N games (random players unless agents are named) and report outcomes and game lengths."""
    arena(
        game,
        agents or ["random"],
        games,
        seed,
        workers,
        as_json,
        option,
        players,
        records,
        backend,
        ray_address,
        minutes,
        append,
    )


def check_records(records: Optional[Path], append: bool) -> None:
    """Refuse, before any game, a --records file that already holds something unless --append says to add to it:
    games of an earlier match (a reused name) would otherwise read as this match's."""
    if records is not None and records.is_dir():
        raise ConfigError("--records", f"{records} is a directory; name a file (one game a line, JSON)")
    if records is not None and not append and records.exists() and records.stat().st_size > 0:
        raise ConfigError(
            "--records",
            f"{records} already holds game records; name a new file, or pass --append to add this match's games to it",
        )


def _run_with_progress(
    game: str,
    agents: list[str],
    games: int,
    seed: int,
    workers: Optional[int],
    options: dict,
    records: Optional[Path],
    backend: str = "local",
    ray_address: str = "",
    minutes: Optional[float] = None,
) -> ArenaResult:
    progress = games_progress()
    task = progress.add_task(f"{game}: {' vs '.join(agents)}", total=games)
    try:
        return run_arena(
            game,
            agents,
            num_games=games,
            options=options,
            seed=seed,
            workers=workers,
            records=records,
            backend=backend,
            address=ray_address,
            on_start=progress.start,
            on_result=lambda _: progress.advance(task),
            minutes=minutes,
        )
    finally:
        progress.stop()


def print_report(result: ArenaResult) -> None:
    several = any(e.seats > 1 for e in result.entrants)
    played = (
        f"{len(result.games)} of {result.planned} games (stopped after {result.minutes:g} min)"
        if result.minutes is not None
        else f"{len(result.games)} games"
    )
    table = Table(
        title=f"{result.game} — {played}, seats rotated",
        caption="one result per seat: an agent in k seats has k results per game" if several else None,
    )
    for column in ("agent", "seats", "win %", "95 % interval", "wins", "draws", "losses", "mean return"):
        table.add_column(
            column,
            justify="left" if column == "agent" else "right",
            overflow="fold",
            min_width=len(column) if column != "agent" else 12,
        )
    for entrant in result.entrants:
        row = entrant.to_dict()
        low, high = row["win_rate_ci95"]
        table.add_row(
            row["spec"],
            str(row["seats"]),
            f"{100 * row['win_rate']:.1f}",
            f"{100 * low:.1f}–{100 * high:.1f}",
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            f"{row['mean_return']:+.3f}",
        )
    console = Console(width=None if sys.stdout.isatty() else 120)  # pipes get the whole table, not 80 columns
    if result.options:
        console.print("options: " + ", ".join(f"{k}={v}" for k, v in result.options.items()), highlight=False)
    console.print(table)
    console.print(length_line(result.length_spread()), highlight=False)
    console.print(f"by seat ({SEATS_NOTE}), won/drawn/lost:", highlight=False)
    for entrant in result.entrants:
        splits = [f"seat {seat}: {c['wins']}/{c['draws']}/{c['losses']}" for seat, c in sorted(entrant.by_seat.items())]
        console.print(f"  {entrant.spec}: " + ", ".join(splits), highlight=False)


def length_line(spread: dict[str, float]) -> str:
    """'game length in moves: mean 18.5, median 17, 10-90 % 9-30, range 7-42'."""
    if not spread:
        return "game length: no games"
    return (
        f"game length in moves: mean {spread['mean']:.1f}, median {spread['median']:g}, "
        f"10-90 % {spread['p10']:g}-{spread['p90']:g}, range {spread['min']:g}-{spread['max']:g}"
    )
