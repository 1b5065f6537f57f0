"""``boardzero report``: PNG plots and a short Markdown summary of a run, a tournament or a records file."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from boardzero.cli.tournament import ANCHOR_OPTION, INTERVAL_OPTION
from boardzero.eval.report import report as make_report


def report(
    target: Path = typer.Argument(
        ..., help="A training run directory, a tournament file (.json) or a records file (.jsonl)."
    ),
    out: Optional[Path] = typer.Option(
        None,
        "--out",
        help="Folder for the PNGs and report.md (default: RUN/report, "
        "FILE_report beside a tournament file, FILE_games beside a records file).",
    ),
    anchor: Optional[str] = ANCHOR_OPTION,
    interval: str = INTERVAL_OPTION,
) -> None:
    """Write plots and report.md: learning curves and checkpoint ratings of a run; the reward matrix,
    ratings and game figures of a tournament; the figures of recorded games."""
    options = {"anchor": anchor, "interval": interval} if target.is_file() and target.suffix != ".jsonl" else {}
    for path in make_report(target, out, **options):
        print(path)
