"""Kuhn poker for 2 or 3 players: the small game with chance and hidden cards.

The deck holds ``players + 1`` cards (J, Q, K and, for three players, A). Each
player antes one chip and is dealt one card face down (chance nodes, one per
seat). Seats act in order: ``pass`` (action 0) or ``bet`` (action 1). Before
anyone bets they read ``check`` and ``bet``; after a bet, ``fold`` and ``call``
(a call puts in one chip, like a bet); the state names them so, and accepts
``pass`` and ``bet`` as well. After a bet every other player answers once;
the highest card among those still in takes the pot. Returns are chips won
minus chips put in, so they sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from boardzero.core.api import CHANCE, TERMINAL, Game, State, base_public_view
from boardzero.core.registry import option

PASS, BET = 0, 1
MOVE_NAMES = {False: ("check", "bet"), True: ("fold", "call")}  # by whether someone has bet
CARD_NAMES = ("J", "Q", "K", "A")
MAX_PLAYERS = 3


@dataclass(frozen=True)
class KuhnOptions:
    players: Literal[2, 3] = option(3, "number of players (2 or 3); the deck has players+1 cards")


class KuhnPoker(Game):
    name = "kuhn_poker"
    Options = KuhnOptions
    has_chance = True
    has_hidden_information = True
    num_actions = 2
    # own card (4) + chips in per relative seat (3) + folded per relative seat (3)
    # + bettor relative seat or none (4) + own absolute seat (3)
    observation_spec = {"flat": (17,)}
    options: KuhnOptions

    def __init__(self, options: KuhnOptions | None = None):
        super().__init__(options)
        self.num_players = self.options.players
        self.num_cards = self.num_players + 1

    def new_state(self, *, seed: int | None = None) -> KuhnState:
        return KuhnState(self, seed)

    def action_name(self, action: int) -> str:
        return ("pass", "bet")[int(action)]

    def outcome_name(self, outcome: int) -> str:
        return f"deal {CARD_NAMES[int(outcome)]}"

    def action_fields(self, action: int) -> dict:
        return {"kind": self.action_name(action)}


class KuhnState(State):
    game: KuhnPoker

    def __init__(self, game: KuhnPoker, seed: int | None = None):
        self.game = game
        self.seed = seed
        self.history: list[int] = []
        n = game.num_players
        self.cards: list[int] = []  # dealt card per seat, in seat order
        self.chips = [1] * n
        self.folded = [False] * n
        self.bettor = -1
        self.to_act = 0
        self.done = False

    @property
    def current_player(self) -> int:
        if self.done:
            return TERMINAL
        if len(self.cards) < self.game.num_players:
            return CHANCE
        return self.to_act

    def legal_mask(self) -> np.ndarray:
        return np.full(2, self.current_player >= 0, dtype=bool)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player != CHANCE:
            return []
        left = [c for c in range(self.game.num_cards) if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply(self, action: int) -> None:
        n = self.game.num_players
        if self.current_player == CHANCE:
            self.cards.append(action)
            return
        seat = self.to_act
        if self.bettor < 0:
            if action == BET:
                self.bettor = seat
                self.chips[seat] += 1
            elif seat == n - 1:
                self.done = True  # everyone checked: showdown
                return
        elif action == BET:
            self.chips[seat] += 1
        else:
            self.folded[seat] = True
        self.to_act = (seat + 1) % n
        if self.bettor >= 0 and self.to_act == self.bettor:
            self.done = True

    def action_name(self, action: int) -> str:
        if self.current_player < 0:
            return super().action_name(action)
        return MOVE_NAMES[self.bettor >= 0][int(action)]

    def action_aliases(self, action: int) -> tuple[str, ...]:
        return (self.game.action_name(action),) if self.current_player >= 0 else ()

    def describe_step(self, action: int, seat: int | None = None) -> str:
        if self.current_player != CHANCE:
            return self.action_name(action)
        dealt_to = len(self.cards)
        card = CARD_NAMES[int(action)] if seat is None or seat == dealt_to else "a card"
        return f"seat {dealt_to} is dealt {card}"

    def clone(self) -> KuhnState:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        for key in ("history", "cards", "chips", "folded"):
            setattr(other, key, list(getattr(self, key)))
        return other

    def winner(self) -> int:
        """The seat that takes the pot (only meaningful at the end)."""
        live = [s for s in range(self.game.num_players) if not self.folded[s]]
        return max(live, key=lambda s: self.cards[s])

    def returns(self) -> np.ndarray:
        out = np.zeros(self.game.num_players)
        if not self.done:
            return out
        out -= self.chips
        out[self.winner()] += sum(self.chips)
        return out

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        n = self.game.num_players
        obs = np.zeros(17, dtype=np.float32)
        if seat < len(self.cards):
            obs[self.cards[seat]] = 1.0
        for rel in range(n):
            other = (seat + rel) % n
            obs[4 + rel] = self.chips[other]
            obs[7 + rel] = self.folded[other]
        obs[10 + ((self.bettor - seat) % n if self.bettor >= 0 else 3)] = 1.0
        obs[14 + seat] = 1.0
        return {"flat": obs}

    def public_history(self, seat: int) -> list[int | None]:
        n = self.game.num_players
        return [a if i >= n or i == seat else None for i, a in enumerate(self.history)]

    def sample_hidden(self, seat: int, rng: np.random.Generator) -> KuhnState:
        other = self.clone()
        dealt = len(self.cards)
        known = {seat: self.cards[seat]} if seat < dealt else {}
        pool = [c for c in range(self.game.num_cards) if c not in known.values()]
        drawn = list(rng.permutation(pool))
        for s in range(dealt):
            card = known[s] if s in known else int(drawn.pop())
            other.cards[s] = card
            other.history[s] = card
        return other

    def card_shown(self, seat: int | None, owner: int) -> bool:
        """Whether ``seat`` (None: a spectator) sees ``owner``'s card: its own, and at the end every card
        still in the pot (the showdown)."""
        if owner >= len(self.cards):
            return False
        return seat == owner or (self.done and not self.folded[owner])

    def public_view(self, seat: int | None = None) -> dict:
        """The base fields plus each seat's chips in, whether it folded, and its card where ``seat`` sees it;
        the bettor and the pot."""
        n = self.game.num_players
        view = base_public_view(self, seat)
        view.update(
            {
                "pot": sum(self.chips),
                "bettor": self.bettor if self.bettor >= 0 else None,
                "winner": self.winner() if self.done else None,
                "seats": [
                    {
                        "seat": p,
                        "chips": self.chips[p],
                        "folded": self.folded[p],
                        "card": CARD_NAMES[self.cards[p]] if self.card_shown(seat, p) else None,
                    }
                    for p in range(n)
                ],
            }
        )
        return view

    def hidden_name(self, outcome: int) -> str:
        return f"deal a card to seat {len(self.cards)}"

    def render(self, seat: int | None = None, *, color: bool = False) -> str:
        n = self.game.num_players
        lines = []
        for s in range(n):
            visible = s < len(self.cards) and (seat is None or seat == s or (self.done and not self.folded[s]))
            card = CARD_NAMES[self.cards[s]] if visible else "?"
            state = "folded" if self.folded[s] else ""
            lines.append(f"seat {s}: card {card}  chips in {self.chips[s]} {state}".rstrip())
        lines.append(f"pot {sum(self.chips)}")
        if self.done:
            lines.append(f"seat {self.winner()} takes the pot; returns {self.returns().tolist()}")
        elif self.current_player >= 0:
            lines.append(f"seat {self.to_act} to act ({' or '.join(MOVE_NAMES[self.bettor >= 0])})")
        return "\n".join(lines)
