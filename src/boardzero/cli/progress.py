"""The progress bar of long work: games done of all, games per second, time spent and time left."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
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


def games_progress(unit: str = "games") -> Progress:
    """A progress bar on standard error (standard output stays free for tables and JSON)."""
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
                    RateColumn(unit), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=False)
