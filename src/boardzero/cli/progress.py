"""Progress bars for commands that run longer than a few seconds (on standard error, so pipes get clean
output): done of all, units per second, time spent and time left; a spinner for work of unknown length."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class RateColumn(ProgressColumn):
    """Units per second: over the recent updates, or since the start while updates are rare (long games)."""

    def __init__(self, unit: str = "games"):
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed and task.completed and task.elapsed:
            speed = task.completed / task.elapsed
        return Text(f"{speed:.2f} {self.unit}/s" if speed else f"- {self.unit}/s", style="progress.data.speed")


def new_progress(console: Console, unit: str) -> Progress:
    """A bar with done/total ``unit``, their rate, time elapsed and time left."""
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        RateColumn(unit),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, transient=False)


def games_progress(unit: str = "games") -> Progress:
    """``new_progress`` on standard error (standard output stays free for tables and JSON)."""
    return new_progress(Console(stderr=True), unit)


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
    progress = Progress(SpinnerColumn(), TextColumn(description), TimeElapsedColumn(), console=console, transient=True)
    progress.add_task(description, total=None)
    with progress:
        yield
