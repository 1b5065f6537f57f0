"""Command-line helpers shared by several commands."""

from __future__ import annotations

from boardzero.core.errors import ConfigError


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
