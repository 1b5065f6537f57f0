"""Command-line helpers shared by several commands: game options and checked numeric options.

Every numeric option is checked when the command line is read: a value out of range is a
one-line ``ConfigError`` naming the option and what it allows, before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from boardzero.core.errors import ConfigError
from boardzero.play.workers import BACKENDS


def parse_game_options(pairs: list[str] | None, players: int | None = None) -> dict[str, str]:
    """``["board=beginner", "vp_to_win=8"]`` -> dict; ``--players N`` is a shorthand for ``players=N``."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ConfigError("--option", f"expected KEY=VALUE, got {pair!r}")
        options[key.strip()] = value.strip()
    if players is not None:
        options["players"] = str(players)
    return options


def at_least(minimum: float, *, above: bool = False) -> Callable[[typer.CallbackParam, Any], Any]:
    """A typer callback refusing values below ``minimum`` (or equal to it, with ``above``)."""

    def check(param: typer.CallbackParam, value: Any) -> Any:
        if value is not None and (value < minimum or (above and value == minimum)):
            name = max(param.opts, key=len)  # the long form, e.g. --games for -n
            raise ConfigError(name, f"must be {'>' if above else '>='} {minimum:g}, got {value:g}")
        return value

    return check


def checked(default: Any, *names: str, help: str, minimum: float, above: bool = False) -> Any:
    """A numeric ``typer.Option`` whose value must be >= ``minimum`` (> with ``above``); the help says so."""
    bound = f"{'>' if above else '>='} {minimum:g}"
    return typer.Option(default, *names, help=f"{help} ({bound})", callback=at_least(minimum, above=above))


def check_backend(backend: str | None) -> str | None:
    """``--backend`` of the commands that play matches: a backend of ``play.workers.BACKENDS`` (None: as
    configured)."""
    if backend is not None and backend not in BACKENDS:
        raise ConfigError("--backend", f"{backend!r} is not allowed; allowed: {', '.join(BACKENDS)}")
    return backend
