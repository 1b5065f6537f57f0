"""Progress bars for commands that run longer than a few seconds (on standard error, so pipes get clean output)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def new_progress(console: Console, unit: str) -> Progress:
    """A bar with done/total ``unit``, time elapsed and time left."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    return Progress(*columns, console=console, transient=False)


@contextmanager
def progress_bar(console: Console, description: str, total: int, unit: str) -> Iterator[Callable[[], None]]:
    """``with progress_bar(console, "solving", 200, "positions") as advance: ... advance() ...``"""
    progress = new_progress(console, unit)
    task = progress.add_task(description, total=total)
    with progress:
        yield lambda: progress.advance(task)


@contextmanager
def still_running(console: Console, description: str) -> Iterator[None]:
    """A spinner line with the time elapsed at the bottom of a terminal while a long task logs above it
    (nothing when the output is not a terminal: a log file gets the task's own lines)."""
    if not console.is_terminal:
        yield
        return
    progress = Progress(SpinnerColumn(), TextColumn(description), TimeElapsedColumn(), console=console,
                        transient=True)
    progress.add_task(description, total=None)
    with progress:
        yield
