"""Error types shared by every layer.

Each error carries a message that says what was wrong and what is allowed, so
the command line can print it on one line without a traceback. Every error is
rebuilt from the arguments it was made with when unpickled (Python would pass
the formatted message alone), so one raised in a worker process reaches the
parent intact, whatever its constructor takes.
"""

from __future__ import annotations


class BoardzeroError(Exception):
    """Base class of every error boardzero raises on purpose."""

    _arguments: tuple[tuple, dict]  # what the error was made with, for unpickling

    def __new__(cls, *args, **kwargs):
        error = super().__new__(cls, *args)
        error._arguments = (args, kwargs)
        return error

    def __reduce__(self):
        args, kwargs = self._arguments
        return _rebuild, (type(self), args, kwargs)


class IllegalActionError(BoardzeroError, ValueError):
    """An action that is not legal in the current state.

    The state is left unchanged when this is raised.
    """

    def __init__(self, action: int | str, reason: str, *, name: str | None = None):
        self.action = action
        self.reason = reason
        label = f"{name!r} (action {action})" if name else f"action {action}"
        super().__init__(f"{label}: {reason}")


class ConfigError(BoardzeroError, ValueError):
    """A bad option, config field or spec; names the field and what is allowed."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


class CheckpointError(BoardzeroError):
    """A checkpoint that is missing, corrupt, or made for another game or network."""


def _rebuild(cls: type, args: tuple, kwargs: dict) -> BoardzeroError:
    return cls(*args, **kwargs)
