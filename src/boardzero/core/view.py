"""What an agent sees of a game: one seat's view.

An agent never receives the true state. It gets the seat's observation, the
legal mask, the public history, and, for search, ``sample_state(rng)``: a full
state drawn to be consistent with what the seat knows (a clone in games of
perfect information).
"""

from __future__ import annotations

import numpy as np

from boardzero.core.api import Game, State


class SeatView:
    """Computed on first use and kept: ``observation``, ``legal_mask``, ``legal_actions``, ``history``
    (plain slots rather than ``cached_property``, whose lock costs about a microsecond a read)."""

    __slots__ = ("_state", "game", "seat", "_observation", "_legal_mask", "_legal_actions", "_history")

    def __init__(self, state: State, seat: int):
        self._state = state
        self.game: Game = state.game
        self.seat = seat
        self._observation: dict[str, np.ndarray] | None = None
        self._legal_mask: np.ndarray | None = None
        self._legal_actions: np.ndarray | None = None
        self._history: list[int | None] | None = None

    @property
    def observation(self) -> dict[str, np.ndarray]:
        if self._observation is None:
            self._observation = self._state.observe(self.seat)
        return self._observation

    @property
    def legal_mask(self) -> np.ndarray:
        if self._legal_mask is None:
            self._legal_mask = self._state.legal_mask()
        return self._legal_mask

    @property
    def legal_actions(self) -> np.ndarray:
        """The legal action ids in increasing order."""
        if self._legal_actions is None:
            self._legal_actions = self.legal_mask.nonzero()[0]
        return self._legal_actions

    @property
    def history(self) -> list[int | None]:
        """Every applied id, with those this seat may not know replaced by ``None``."""
        if self._history is None:
            self._history = self._state.public_history(self.seat)
        return self._history

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


class FullSightView(SeatView):
    """A seat view that also shows the true state, for agents that declare ``full_sight = True``.

    Only for comparisons with programs that read every hidden card (catanatron's bots do, inside
    catanatron): the match runner hands this view to such an agent (``view_for``), and its spec says so
    (``sight=full``). Every other agent gets a plain ``SeatView``.
    """

    def true_state(self) -> State:
        """A copy of the true state, hidden cards included."""
        return self._state.clone()


def view_for(state: State, seat: int, full_sight: bool = False) -> SeatView:
    """The view an agent gets of ``state`` for ``seat``: a ``FullSightView`` only if it asked for full sight."""
    return FullSightView(state, seat) if full_sight else SeatView(state, seat)
