"""Where self-play actors run, by name: each backend is a class with ``from_config(selfplay, method, payload)``
that opens an ``learn.actors.ActorPool``, imported on first use. The config's ``selfplay.backend`` accepts
every name registered here."""

from __future__ import annotations

from boardzero.core.registry import resolve

BACKENDS: dict[str, str | type] = {
    "local": "boardzero.learn.actors:LocalActorPool",
    "ray": "boardzero.integrations.ray:RayActorPool",  # needs the ray extra
}


def register_backend(name: str, target: str | type) -> None:
    """Register an actor backend (a class or its ``"module:Class"`` path) under ``name``."""
    BACKENDS[name] = target


def backend_names() -> list[str]:
    return list(BACKENDS)


def backend_class(name: str) -> type:
    return resolve(BACKENDS, name, "backend")
