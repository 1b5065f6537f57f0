"""``boardzero opening``: fit opening values to self-play results (``learn.opening``)."""

from __future__ import annotations

from pathlib import Path

import typer

from boardzero.cli.options import checked
from boardzero.learn.opening import record_and_fit


def opening(
    model: str = typer.Argument(..., help="A TD checkpoint (.json) whose self-play is recorded and which is fitted."),
    out: Path = typer.Option(..., "--out", help="Folder for the games and opening.json."),
    minutes: float = checked(35.0, "--minutes", help="Self-play time per worker (0: fit only)", minimum=0),
    workers: int = checked(2, "--workers", help="Self-play processes", minimum=1),
    moves: int = checked(8, "--moves", help="Opening decisions drawn (Catan 2p setup: 8)", minimum=1),
    temperature: float = checked(0.05, "--temperature", help="Of the opening draws", minimum=0, above=True),
    draws: str = typer.Option(
        "", "--draws", help="A TD network whose values draw the opening moves instead (e.g. MODEL.json#opening)."
    ),
    init: str = typer.Option(
        "", "--init", help="The network the fit starts from instead of MODEL's (e.g. MODEL.json#opening)."
    ),
    later: int = checked(
        0, "--later", help="Greedy decisions with a choice after the opening also recorded", minimum=0
    ),
    share: float = checked(1.0, "--share", help="Share of those decisions recorded", minimum=0, above=True),
    epochs: int = checked(8, "--epochs", help="Epochs of the fit (0: collect only, fit later)", minimum=0),
    lr: float = checked(1e-4, "--lr", help="Learning rate of the fit", minimum=0, above=True),
    threads: int = checked(0, "--threads", help="CPU threads of the fit (0: one per core)", minimum=0),
    seed: int = typer.Option(11, "--seed", help="First worker's seed; a later call needs new ones."),
) -> None:
    """Fit a copy of a TD network to the results of self-play games whose opening moves were drawn broadly.

    Example: boardzero opening src/boardzero/models/catan/model-2p.json --out runs/opening2p --minutes 35 --workers 2
    Then: boardzero export MODEL.json --name model-2p --opening runs/opening2p/opening.json
    """
    record_and_fit(
        model,
        out,
        minutes=minutes,
        workers=workers,
        moves=moves,
        temperature=temperature,
        draws=draws,
        init=init,
        later=later,
        share=share,
        epochs=epochs,
        lr=lr,
        threads=threads,
        seed=seed,
        report=typer.echo,
    )
