"""``boardzero games``: list the games and their options."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from rich.console import Console
from rich.table import Table

from boardzero.core.errors import ConfigError
from boardzero.core.registry import game_class, games as game_names, option_docs

OptionRow = tuple[str, str, str, str]  # option, type, default, meaning


def games() -> None:
    """List the registered games and the options each one takes (set them with -o KEY=VALUE)."""
    print_catalogue(game_names(), _game_entry)


def _game_entry(name: str) -> tuple[str, list[OptionRow]]:
    cls = game_class(name)
    doc = (cls.__doc__ or sys.modules[cls.__module__].__doc__ or "").strip()
    rows = [(option, type_name, str(default), text) for option, type_name, default, text in option_docs(name)]
    return (doc.splitlines()[0] if doc else ""), rows


def print_catalogue(names: Iterable[str], describe: Callable[[str], tuple[str, list[OptionRow]]]) -> None:
    """For each name, 'name: what it is' and a table of its options; one that cannot be loaded says why."""
    console = Console()
    for name in names:
        try:
            summary, rows = describe(name)
        except ConfigError as exc:  # its module is not available in this install
            console.print(f"[bold]{name}[/]: {exc}")
            continue
        console.print(f"[bold]{name}[/]: {summary}", highlight=False)
        if rows:
            table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
            for column in ("option", "type", "default", "meaning"):
                table.add_column(column)
            for row in rows:
                table.add_row(*row)
            console.print(table)
        console.print()
