"""Game registry: ``make("connect4", **options)`` and ``games()``.

Games are registered by import path so that listing them does not import
heavy modules (the Catan engine compiles with numba). A game from outside the
package is registered by ``register_game(name, "module:Class")``, which also
reaches the processes started after it (self-play actors, web workers: it is
kept in the environment variable ``BOARDZERO_GAMES``), or, for an installed
package, by an entry point in the group ``boardzero.games``.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import json
import math
import os
import types
import typing
from typing import Any

from boardzero.core.api import Game
from boardzero.core.errors import ConfigError

_GAMES: dict[str, str | type[Game]] = {
    "tictactoe": "boardzero.games.tictactoe:TicTacToe",
    "connect4": "boardzero.games.connect4:Connect4",
    "kuhn_poker": "boardzero.games.kuhn_poker:KuhnPoker",
    "catan": "boardzero.games.catan:Catan",
}


ENVIRONMENT = "BOARDZERO_GAMES"  # {name: "module:Class"} of games registered by path, for child processes
ENTRY_POINTS = "boardzero.games"  # the entry-point group of games in installed packages


def registered_elsewhere(environment: str, group: str) -> dict[str, str]:
    """``{name: "module:attr"}`` registered outside this process: by installed packages (entry points of
    ``group``) and by a parent process (the JSON object in the environment variable ``environment``)."""
    found = {entry.name: entry.value for entry in importlib.metadata.entry_points(group=group)}
    expected = "expected a JSON object of names and 'module:attr' paths"
    try:
        inherited = json.loads(os.environ.get(environment) or "{}")
    except ValueError:
        raise ConfigError(environment, expected) from None
    if not isinstance(inherited, dict) or not all(isinstance(v, str) for v in inherited.values()):
        raise ConfigError(environment, expected)
    return {**found, **inherited}


def pass_to_children(environment: str, name: str, target: str) -> None:
    """Note ``name -> target`` in the environment variable ``environment``, so the processes started from here
    on (self-play actors, workers) find it through ``registered_elsewhere``."""
    inherited = json.loads(os.environ.get(environment) or "{}")
    os.environ[environment] = json.dumps({**inherited, name: target})


_GAMES.update(
    {name: path for name, path in registered_elsewhere(ENVIRONMENT, ENTRY_POINTS).items() if name not in _GAMES}
)


def register_game(name: str, target: str | type[Game]) -> None:
    """Register a game class (or a ``"module:Class"`` path) under ``name``. A path also reaches the processes
    started afterwards (their ``sys.path`` must find its module, as a child inherits ``PYTHONPATH``)."""
    _GAMES[name] = target
    if isinstance(target, str):
        pass_to_children(ENVIRONMENT, name, target)


def games() -> list[str]:
    """Names of every registered game."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    return resolve(_GAMES, name, "game")


def resolve(table: dict, name: str, kind: str):
    """Look ``name`` up in a registry ``table``, importing a ``"module:attr"`` entry on first use."""
    if name not in table:
        raise ConfigError(kind, f"unknown {kind} {name!r}; known {kind}s: {', '.join(sorted(table))}")
    target = table[name]
    if isinstance(target, str):
        module_name, _, attr = target.partition(":")
        try:
            target = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise ConfigError(kind, f"{kind} {name!r} is unavailable in this install: {exc}") from None
        table[name] = target
    return target


def option_docs(name: str) -> list[tuple[str, str, Any, str]]:
    """(option, type name, default, doc) for each option of a game."""
    cls = game_class(name)
    if cls.Options is None:
        return []
    hints = typing.get_type_hints(cls.Options)
    rows = []
    for f in dataclasses.fields(cls.Options):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:  # an option without a default: the game's constructor requires it
            default = None
        rows.append((f.name, type_name(hints[f.name]), default, f.metadata.get("doc", "")))
    return rows


def make(name: str, **options: Any) -> Game:
    """Build a game by name; option values may be strings (as typed on a command line)."""
    cls = game_class(name)
    if cls.Options is None:
        if options:
            raise ConfigError(f"{name}.{next(iter(options))}", f"game {name!r} takes no options")
        return cls()
    hints = typing.get_type_hints(cls.Options)
    allowed = {f.name for f in dataclasses.fields(cls.Options)}
    values = {}
    for key, value in options.items():
        if key not in allowed:
            raise ConfigError(f"{name}.{key}", f"unknown option; allowed: {', '.join(sorted(allowed)) or '(none)'}")
        values[key] = coerce(f"{name}.{key}", value, hints[key])
    try:
        opts = cls.Options(**values)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(name, str(exc)) from None
    return cls(opts)


def coerce(field: str, value: Any, annotation: Any) -> Any:
    """Convert ``value`` to ``annotation`` (int, float, bool, str or Optional of them)."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        if (value is None or (isinstance(value, str) and value.lower() == "none")) and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return coerce(field, value, inner[0])
    if typing.get_origin(annotation) is typing.Literal:
        choices = args
        converted = coerce(field, value, type(choices[0]))
        if converted not in choices:
            raise ConfigError(field, f"{value} is not allowed; allowed: {', '.join(map(str, choices))}")
        return converted
    if annotation is bool:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ConfigError(field, f"expected true or false, got {value!r}")
    if annotation in (int, float):
        if isinstance(value, bool):
            raise ConfigError(field, f"expected {annotation.__name__}, got {value!r}")
        try:
            converted = annotation(value)
        except (TypeError, ValueError):
            raise ConfigError(field, f"expected {annotation.__name__}, got {value!r}") from None
        except OverflowError:  # int() of an infinite float
            raise ConfigError(field, f"expected a finite {annotation.__name__}, got {value!r}") from None
        if annotation is float and not math.isfinite(converted):
            raise ConfigError(field, f"expected a finite number, got {value!r}")
        if annotation is int and isinstance(value, float) and converted != value:
            raise ConfigError(field, f"expected an integer, got {value!r}")
        return converted
    if annotation is str:
        return str(value)
    return value


def type_name(annotation: Any) -> str:
    """A readable name of a type annotation: ``int``, ``2|3`` for a Literal, ``bool or none`` for an Optional."""
    if typing.get_origin(annotation) is typing.Literal:
        return "|".join(map(str, typing.get_args(annotation)))
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return type_name(args[0]) + " or none"
    return getattr(annotation, "__name__", str(annotation))


def option(default: Any, doc: str, **kwargs: Any) -> Any:
    """A dataclass field with a one-line doc (shown by ``boardzero games``)."""
    return dataclasses.field(default=default, metadata={"doc": doc}, **kwargs)
