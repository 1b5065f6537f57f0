"""The ``boardzero`` command. Each subcommand lives in its own module and is registered here."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

import boardzero
from boardzero.core.errors import BoardzeroError

app = typer.Typer(
    name="boardzero",
    help="Train agents for board games by self-play, pit them against each other, and play against them. "
    "Seats count from 0 in every command and output (seat 0 moves first).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# the command modules register on ``app`` as they are imported, so they come after it
from boardzero.cli import agents as _agents, arena as _arena, bench as _bench, games as _games, play as _play  # noqa: E402

app.command("games")(_games.games)
app.command("agents")(_agents.agents)
app.command("arena")(_arena.arena)
app.command("simulate")(_arena.simulate)
app.command("play")(_play.play)
app.command("train")(__import__("boardzero.cli.train", fromlist=["train"]).train)
app.command("export")(__import__("boardzero.cli.export", fromlist=["export"]).export)
app.command("opening")(__import__("boardzero.cli.opening", fromlist=["opening"]).opening)
app.command("accuracy")(__import__("boardzero.cli.accuracy", fromlist=["accuracy"]).accuracy)
app.command("serve")(__import__("boardzero.cli.serve", fromlist=["serve"]).serve)
app.command("tournament")(__import__("boardzero.cli.tournament", fromlist=["tournament"]).tournament)
app.command("ratings")(__import__("boardzero.cli.tournament", fromlist=["ratings"]).ratings)
app.command("replay")(__import__("boardzero.cli.replay", fromlist=["replay"]).replay)
app.command("curve")(__import__("boardzero.cli.curve", fromlist=["curve"]).curve)
app.command("report")(__import__("boardzero.cli.report", fromlist=["report"]).report)
app.command("compare")(__import__("boardzero.cli.compare", fromlist=["compare"]).compare)
app.command("bench", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(_bench.bench)


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        help="Print the boardzero version and exit.",
        callback=lambda value: _print_version() if value else None,
        is_eager=True,
    ),
) -> None:
    """Options of the boardzero command itself."""


def _print_version() -> None:
    print(f"boardzero {boardzero.__version__}")
    raise typer.Exit()


def main() -> None:
    """Console entry point: bad input becomes a one-line error and a non-zero exit, never a traceback."""
    try:
        app()
    except BoardzeroError as exc:
        Console(stderr=True).print(
            f"[bold red]error:[/] {type(exc).__name__}: {escape(str(exc))}", highlight=False, soft_wrap=True
        )
        sys.exit(2)
    except KeyboardInterrupt:
        Console(stderr=True).print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
