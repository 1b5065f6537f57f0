"""``boardzero games``: list the games and their options."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table

from boardzero.core.errors import ConfigError
from boardzero.core.registry import game_class, games as game_names, option_docs


def games() -> None:
    """List the registered games and the options each one takes (set them with -o KEY=VALUE)."""
    console = Console()
    for name in game_names():
        try:
            cls = game_class(name)
        except ConfigError as exc:  # a game whose module is not available in this install
            console.print(f"[bold]{name}[/]: {exc}")
            continue
        doc = (cls.__doc__ or sys.modules[cls.__module__].__doc__ or "").strip()
        console.print(f"[bold]{name}[/]: {doc.splitlines()[0] if doc else ''}")
        rows = option_docs(name)
        if rows:
            table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
            for column in ("option", "type", "default", "meaning"):
                table.add_column(column)
            for option, type_name, default, text in rows:
                table.add_row(option, type_name, str(default), text)
            console.print(table)
        console.print()
