"""``boardzero export``: ship a trained network as a game's default model (``learn.export``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from boardzero.cli.options import checked
from boardzero.learn.export import export_model, parse_play


def export(
    checkpoint: Path = typer.Argument(..., help="Run directory or checkpoint .json (or a shipped model .json)."),
    sims: Optional[int] = checked(None, "--sims", help="Simulations per move (AlphaZero models)", minimum=0),
    c_puct: Optional[float] = checked(None, "--c-puct", help="Exploration constant of the search", minimum=0),
    play: Optional[list[str]] = typer.Option(
        None,
        "--play",
        metavar="KEY=VALUE",
        help="A play setting stored for `best` (fast.KEY for `best:fast`); repeatable.",
    ),
    latest: bool = typer.Option(False, "--latest", help="Ship the newest checkpoint, not the run's best."),
    name: str = typer.Option("model", "--name", help="File name without extension."),
    out: Optional[Path] = typer.Option(None, "--out", help="Directory (default: the package's models/<game>)."),
    opening: Optional[str] = typer.Option(
        None, "--opening", help="A network fitted by `boardzero opening`, shipped for the opening search."
    ),
    mean_with: Optional[str] = typer.Option(
        None,
        "--mean-with",
        help="Another TD network of the same shape, shipped beside the model; best averages their values.",
    ),
    like: Optional[str] = typer.Option(
        None,
        "--like",
        help="A shipped model whose play settings and extra networks (opening, mean_with) go with this one "
        "unless given (a Catan model trained with trading: the model without trading it started from).",
    ),
) -> None:
    """Copy a run's best (or newest) network with the settings `best` plays it with, and its step, ratings and config.

    Example: boardzero export runs/c4 --sims 400
    A TD model: boardzero export runs/catan_td --latest --name model-2p --play depth=3 --play fast.depth=1
    Exported again, a shipped model keeps each setting not named: boardzero export src/boardzero/models/catan/model-2p.json --name model-2p --play sims=96
    """
    settings = parse_play(play or [])
    if sims is not None:
        settings["sims"] = sims
    if c_puct is not None:
        settings["c_puct"] = c_puct
    path = export_model(
        checkpoint,
        play=settings,
        latest=latest,
        out_dir=out,
        name=name,
        opening=opening,
        mean_with=mean_with,
        like=like,
    )
    typer.echo(f"wrote {path} and {path.with_suffix('.safetensors')}")
