"""What an agent sees of a game: one seat's view.

An agent never receives the true state. It gets the seat's observation, the
legal mask, the public history, and, for search, ``sample_state(rng)``: a full
state drawn to be consistent with what the seat knows (a clone in games of
perfect information).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from boardzero.core.api import Game, State


class SeatView:
    __slots__ = ("_state", "game", "seat", "__dict__")

    def __init__(self, state: State, seat: int):
        self._state = state
        self.game: Game = state.game
        self.seat = seat

    @cached_property
    def observation(self) -> dict[str, np.ndarray]:
        return self._state.observe(self.seat)

    @cached_property
    def legal_mask(self) -> np.ndarray:
        return self._state.legal_mask()

    @cached_property
    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask)

    @cached_property
    def history(self) -> list[int | None]:
        """Every applied id, with those this seat may not know replaced by ``None``."""
        return self._state.public_history(self.seat)

    def sample_state(self, rng: np.random.Generator) -> State:
        """A full state consistent with this seat's knowledge, safe to search from."""
        return self._state.sample_hidden(self.seat, rng)

    def action_name(self, action: int) -> str:
        """The action's name in this position (may name what the seat can see, never hidden facts)."""
        return self._state.action_name(action)

    def action_aliases(self, action: int) -> tuple[str, ...]:
        """Other names a person may type for the action here (see ``core.moves``)."""
        return self._state.action_aliases(action)

    def illegal_reason(self, action: int) -> str:
        """Why the action is not legal for this seat now (this seat is the one to move)."""
        return self._state.illegal_reason(action)

    def render(self, *, color: bool = False) -> str:
        """A text picture of what this seat may see (for terminal play); ``color``: ANSI colours."""
        return self._state.render(self.seat, color=color)

    def render_parts(self, *, color: bool = False) -> list[str]:
        """The same picture in parts (board, then status), so a terminal can redraw only what changed."""
        return self._state.render_parts(self.seat, color=color)
