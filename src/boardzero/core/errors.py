"""Error types shared by every layer.

Each error carries a message that says what was wrong and what is allowed, so
the command line can print it on one line without a traceback. Errors whose
constructor takes more than the message rebuild themselves from their fields
when unpickled, so one raised in a worker process reaches the parent intact.
"""

from __future__ import annotations


class BoardzeroError(Exception):
    """Base class of every error boardzero raises on purpose."""


class IllegalActionError(BoardzeroError, ValueError):
    """An action that is not legal in the current state.

    The state is left unchanged when this is raised.
    """

    def __init__(self, action: int, reason: str, *, name: str | None = None):
        self.action = action
        self.reason = reason
        self.name = name
        label = f"{name!r} (action {action})" if name else f"action {action}"
        super().__init__(f"{label}: {reason}")

    def __reduce__(self):
        return _rebuild, (type(self), (self.action, self.reason), {"name": self.name})


class ConfigError(BoardzeroError, ValueError):
    """A bad option, config field or spec; names the field and what is allowed."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    def __reduce__(self):
        return _rebuild, (type(self), (self.field, self.message), {})


class CheckpointError(BoardzeroError):
    """A checkpoint that is missing, corrupt, or made for another game or network."""


def _rebuild(cls: type, args: tuple, kwargs: dict) -> BoardzeroError:
    return cls(*args, **kwargs)
