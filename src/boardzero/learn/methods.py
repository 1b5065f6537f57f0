"""The training methods by name: each is a ``learn.runtime.Method`` subclass in its own module, imported on
first use. Actor processes look their method's worker up here, so this sits below the runtime.

A method from outside this table is registered like a game: ``register_method(name, "module:Class")``, which
also reaches the processes started after it (self-play actors: it is kept in the environment variable
``BOARDZERO_METHODS``), or, for an installed package, by an entry point in the group ``boardzero.methods``.
The config's ``method`` accepts every name registered here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardzero.core.registry import pass_to_children, registered_elsewhere, resolve

if TYPE_CHECKING:  # the runtime defines Method and builds on this table: the name serves type hints only
    from boardzero.learn.runtime import Method

ENVIRONMENT = "BOARDZERO_METHODS"  # {name: "module:Class"} of methods registered by path, for child processes
ENTRY_POINTS = "boardzero.methods"  # the entry-point group of methods in installed packages

METHODS: dict[str, str | type] = {
    "alphazero": "boardzero.learn.alphazero:AlphaZero",
    "td": "boardzero.learn.td:TD",
    "ppo": "boardzero.learn.ppo:PPO",
    "expert": "boardzero.learn.expert:Expert",
}
BUILT_IN = tuple(METHODS)
METHODS.update({n: path for n, path in registered_elsewhere(ENVIRONMENT, ENTRY_POINTS).items() if n not in METHODS})


def register_method(name: str, target: str | type[Method]) -> None:
    """Register a training method (a ``learn.runtime.Method`` subclass, or its ``"module:Class"`` path) under
    ``name``. A path also reaches the processes started afterwards (self-play actors must import it; their
    ``sys.path`` must find its module, as a child inherits ``PYTHONPATH``); a class reaches this process only."""
    METHODS[name] = target
    if isinstance(target, str):
        pass_to_children(ENVIRONMENT, name, target)


def method_names() -> list[str]:
    """Every registered method: the built-in ones first, then the others by name."""
    return [*BUILT_IN, *sorted(set(METHODS) - set(BUILT_IN))]


def method_class(name: str) -> type[Method]:
    return resolve(METHODS, name, "method")


def settings_read_by(name: str) -> tuple[str, ...]:
    """The methods whose method-specific config fields ``name`` reads: itself and those its class names in
    ``reads_settings_of`` (an expert-iteration method reading alphazero's search settings, say)."""
    return (name, *getattr(method_class(name), "reads_settings_of", ()))


def agent_for_checkpoint(meta: dict[str, Any]) -> str:
    """The agent name that plays a checkpoint of this metadata (``az``, ``td`` or ``ppo``; ``td`` for ``expert``)."""
    return method_class(meta.get("trainer", "alphazero")).agent
