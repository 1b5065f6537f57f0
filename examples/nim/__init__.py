"""Nim, one pile: players take 1 to ``max_take`` stones in turn; whoever takes the last stone wins.

A whole game in one folder, as `docs/contributing.md` walks through: rules, an observation for networks, and a
public view for the web page. Register it and every part of boardzero trains, searches and plays it:

    from boardzero.core.registry import register_game
    register_game("nim", "nim:Nim")      # with examples/ on sys.path
"""

from __future__ import annotations

import dataclasses

import numpy as np

from boardzero.core.api import TERMINAL, Game, State, base_public_view
from boardzero.core.errors import ConfigError


@dataclasses.dataclass(frozen=True)
class NimOptions:
    stones: int = dataclasses.field(default=15, metadata={"doc": "stones in the pile at the start (1-64)"})
    max_take: int = dataclasses.field(default=3, metadata={"doc": "most stones one move may take (1-8)"})

    def __post_init__(self):
        if not 1 <= self.stones <= 64:
            raise ConfigError("nim.stones", f"must be 1-64, got {self.stones}")
        if not 1 <= self.max_take <= 8:
            raise ConfigError("nim.max_take", f"must be 1-8, got {self.max_take}")


class Nim(Game):
    name = "nim"
    Options = NimOptions
    num_players = 2
    return_bounds = (-1.0, 1.0)

    def __init__(self, options: NimOptions | None = None):
        super().__init__(options)
        self.num_actions = self.options.max_take  # action a takes a + 1 stones
        # the pile as a one-hot over 0..64 stones, and how many a move may take
        self.observation_spec = {"flat": (65 + 8,)}

    def new_state(self, *, seed: int | None = None) -> NimState:
        return NimState(self, seed)

    def action_name(self, action: int) -> str:
        taken = int(action) + 1
        return f"take {taken} stone{'s' if taken > 1 else ''}"

    def action_fields(self, action: int) -> dict:
        return {"kind": "take", "stones": int(action) + 1}


class NimState(State):
    def __init__(self, game: Nim, seed: int | None = None):
        self.game, self.seed = game, seed
        self.history: list[int] = []
        self.pile = game.options.stones
        self._player = 0
        self.winner = -1

    @property
    def current_player(self) -> int:
        return self._player

    def legal_mask(self) -> np.ndarray:
        if self._player == TERMINAL:
            return np.zeros(self.game.num_actions, dtype=bool)
        return np.arange(self.game.num_actions) < self.pile

    def illegal_reason(self, action: int) -> str:
        return f"only {self.pile} stone{'s' if self.pile != 1 else ''} left"

    def _apply(self, action: int) -> None:
        self.pile -= action + 1
        if self.pile == 0:
            self.winner, self._player = self._player, TERMINAL
        else:
            self._player = 1 - self._player

    def clone(self) -> NimState:
        other = type(self)(self.game, self.seed)
        other.history, other.pile = list(self.history), self.pile
        other._player, other.winner = self._player, self.winner
        return other

    def returns(self) -> np.ndarray:
        out = np.zeros(2)
        if self.winner >= 0:
            out[self.winner], out[1 - self.winner] = 1.0, -1.0
        return out

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        flat = np.zeros(65 + 8, dtype=np.float32)
        flat[self.pile] = 1.0
        flat[65 : 65 + self.game.num_actions] = 1.0
        return {"flat": flat}

    def public_view(self, seat: int | None = None) -> dict:
        view = base_public_view(self, seat)
        view.update({"pile": self.pile, "winner": self.winner if self.winner >= 0 else None})
        return view

    def render(self, seat: int | None = None, *, color: bool = False) -> str:
        status = f"seat {self.winner} wins" if self.winner >= 0 else f"seat {self._player} to move"
        return f"pile: {'o' * self.pile} ({self.pile})\n{status}"
