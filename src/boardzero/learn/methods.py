"""The training methods by name: each is a ``learn.runtime.Method`` subclass in its own module, imported on
first use. Actor processes look their method's worker up here, so this sits below the runtime."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardzero.core.registry import resolve

if TYPE_CHECKING:  # the runtime defines Method and builds on this table: the name serves type hints only
    from boardzero.learn.runtime import Method

METHODS: dict[str, str | type] = {
    "alphazero": "boardzero.learn.alphazero:AlphaZero",
    "td": "boardzero.learn.td:TD",
    "ppo": "boardzero.learn.ppo:PPO",
    "expert": "boardzero.learn.expert:Expert",
}


def method_class(name: str) -> type[Method]:
    return resolve(METHODS, name, "method")


def agent_for_checkpoint(meta: dict[str, Any]) -> str:
    """The agent name that plays a checkpoint of this metadata (``az``, ``td`` or ``ppo``; ``td`` for ``expert``)."""
    return method_class(meta.get("trainer", "alphazero")).agent
