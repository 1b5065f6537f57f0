"""Hand-made tiny games that pin down what the search must do.

- ``ThreePlayerTree``: three seats move once each; the max^n answer differs
  from what an average or an optimistic search would pick.
- ``CoinGame``: one choice between a sure payoff and a chance node whose
  outcome ids (5 and 9) are not action ids.
- ``GuessGame``: a hidden card dealt to seat 1; seat 0 guesses it. The true
  state refuses to reveal its card, so a search that peeks fails loudly.
- ``HiddenDrawGame``: seat 0 moves, then seat 1 draws a card seat 0 does not
  see, and the card decides which moves seat 1 has: an information-set tree
  of seat 0 keeps one node for the three draws.
"""

from __future__ import annotations

import numpy as np

from boardzero.core.api import CHANCE, TERMINAL, Game, State


class _TinyState(State):
    """Shared plumbing: history, clone by dict copy, flat observation of the public history."""

    def __init__(self, game, seed=None):
        self.game, self.seed, self.history = game, seed, []

    def clone(self):
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        return other

    def observe(self, seat):
        flat = np.zeros(8, dtype=np.float32)
        for i, a in enumerate(self.public_history(seat)[:8]):
            flat[i] = -1.0 if a is None else float(a)
        return {"flat": flat}


class _TinyGame(Game):
    """Shared plumbing: two seats unless told, an 8-wide flat observation, states of ``state_class``."""

    num_players = 2
    observation_spec = {"flat": (8,)}
    state_class: type[_TinyState]

    def new_state(self, *, seed=None):
        return self.state_class(self, seed)

    def action_name(self, action):
        return f"action {action}"


# --------------------------------------------------------------------------- max^n
# PAYOFFS[a0][a1][a2] -> value per seat. Solved by max^n (each seat maximises its own entry):
#   a0=0 -> (.3, .6, .9), a0=1 -> (.5, .2, 1), a0=2 -> (.3, .8, 1): seat 0 plays 1, then seats 1 and 2 play 0.
# Other backups pick another first move, by a margin of 0.1 or more: the mean of seat 0's leaves and its single
# best leaf are both under a0=2; everyone maximising seat 0 (paranoid), each seat maximising the next seat's
# entry, or the mean over seats pick 2; each seat maximising the previous seat's entry picks 0. Every seat's
# best move under max^n is better than its next by 0.1 or more (0.2 along the solution), so no ties.
PAYOFFS = np.array(
    [
        [[(0.3, 0.6, 0.9), (0.0, 0.5, 0.2)], [(0.2, 0.2, 0.9), (0.3, 0.4, 0.6)]],
        [[(0.5, 0.2, 1.0), (0.0, 0.4, 0.1)], [(0.1, 0.0, 0.9), (0.3, 0.1, 0.2)]],
        [[(0.3, 0.8, 1.0), (0.3, 0.5, 0.2)], [(0.4, 0.9, 0.5), (0.7, 0.0, 0.9)]],
    ]
)
MAXN_VALUE = np.array([0.5, 0.2, 1.0])
MAXN_PATH = (1, 0, 0)  # the moves of seats 0, 1, 2 under max^n
MAXN_ROOT_MOVE = MAXN_PATH[0]


class ThreePlayerState(_TinyState):
    @property
    def current_player(self):
        return len(self.history) if len(self.history) < 3 else TERMINAL

    def legal_mask(self):
        mask = np.zeros(3, dtype=bool)
        if len(self.history) == 0:
            mask[:] = True
        elif len(self.history) < 3:
            mask[:2] = True
        return mask

    def _apply(self, action):
        pass

    def returns(self):
        if len(self.history) < 3:
            return np.zeros(3)
        a0, a1, a2 = self.history
        return PAYOFFS[a0, a1, a2].astype(np.float64)


class ThreePlayerTree(_TinyGame):
    name = "three_player_tree"
    state_class = ThreePlayerState
    num_players = 3
    num_actions = 3

    def action_name(self, action):
        return f"move {action}"


# --------------------------------------------------------------------------- chance
SAFE, GAMBLE = 0, 1
OUTCOME_GOOD, OUTCOME_BAD = 5, 9


class CoinState(_TinyState):
    @property
    def current_player(self):
        h = self.history
        if not h:
            return 0
        if h == [GAMBLE]:
            return CHANCE
        return TERMINAL

    def legal_mask(self):
        return np.full(2, self.current_player == 0, dtype=bool)

    def chance_outcomes(self):
        if self.current_player != CHANCE:
            return []
        return [(OUTCOME_GOOD, self.game.p_good), (OUTCOME_BAD, 1.0 - self.game.p_good)]

    def _apply(self, action):
        pass

    def returns(self):
        if self.current_player != TERMINAL:
            return np.zeros(2)
        if self.history == [SAFE]:
            value = self.game.safe
        else:
            value = 1.0 if self.history[1] == OUTCOME_GOOD else -1.0
        return np.array([value, -value])


class CoinGame(_TinyGame):
    """Seat 0: SAFE pays ``safe``; GAMBLE goes to a chance node: GOOD (prob ``p_good``) pays 1, BAD pays -1."""

    name = "coin_game"
    state_class = CoinState
    num_actions = 2
    has_chance = True

    def __init__(self, p_good=0.7, safe=0.3):
        super().__init__()
        self.p_good, self.safe = p_good, safe

    def action_name(self, action):
        return ("safe", "gamble")[action]


# --------------------------------------------------------------------------- hidden information
class HiddenPeek(AssertionError):
    pass


class GuessState(_TinyState):
    def __init__(self, game, seed=None):
        super().__init__(game, seed)
        self.guarded = False  # True on the true state handed to the searcher: its card must not be read

    @property
    def card(self):
        if self.guarded:
            raise HiddenPeek("the search read the true hidden card")
        return self.history[0]

    @property
    def current_player(self):
        n = len(self.history)
        if n == 0:
            return CHANCE
        if n == 1 or (n == 2 and self.history[1] == 1):
            return 0
        return TERMINAL

    def legal_mask(self):
        n = len(self.history)
        mask = np.zeros(3, dtype=bool)
        if n == 1:
            mask[:2] = True
        elif n == 2 and self.history[1] == 1:
            mask[:] = True
        return mask

    def chance_outcomes(self):
        return [(c, 1 / 3) for c in range(3)] if not self.history else []

    def _apply(self, action):
        pass

    def returns(self):
        if self.current_player != TERMINAL:
            return np.zeros(2)
        if self.history[1] == 0:
            value = -0.2
        else:
            value = 1.0 if self.history[2] == self.card else -1.0
        return np.array([value, -value])

    def public_history(self, seat):
        return [None if (i == 0 and seat != 1) else a for i, a in enumerate(self.history)]

    def sample_hidden(self, seat, rng):
        self.game.sample_calls += 1
        other = self.clone()
        other.guarded = False
        if seat != 1 and other.history:
            other.history[0] = int(rng.integers(3))  # seat 0 does not know the card: draw it
        return other

    def clone(self):
        other = super().clone()
        other.guarded = False
        return other


class GuessGame(_TinyGame):
    """A chance deal gives seat 1 a card 0..2 (hidden from seat 0). Seat 0 says 'raise' (1) or 'fold' (0);
    after a raise seat 0 guesses the card (actions 0..2): +1 if right, -1 if wrong; a fold pays -0.2."""

    name = "guess_game"
    state_class = GuessState
    num_actions = 3
    has_chance = True
    has_hidden_information = True

    def __init__(self):
        super().__init__()
        self.sample_calls = 0


class ShapeShiftState(_TinyState):
    @property
    def current_player(self):
        h = self.history
        if not h:
            return CHANCE
        if len(h) == 1:
            return 0
        if h[0] == 0 or len(h) == 4:
            return TERMINAL
        return CHANCE if len(h) == 2 else 1

    def legal_mask(self):
        return np.full(2, self.current_player >= 0, dtype=bool)

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)] if self.current_player == CHANCE else []

    def _apply(self, action):
        pass

    def returns(self):
        if self.current_player != TERMINAL:
            return np.zeros(2)
        value = 1.0 if self.history[1] == 0 else 0.0
        if self.history[0] == 1:
            value = 0.5 if self.history[2] == self.history[3] else -0.5
        return np.array([value, -value])

    def public_history(self, seat):
        return [None if i == 0 else a for i, a in enumerate(self.history)]

    def sample_hidden(self, seat, rng):
        other = self.clone()
        if other.history:
            other.history[0] = int(rng.integers(2))
        return other


class ShapeShiftGame(_TinyGame):
    """A hidden bit decides what follows seat 0's move: the end (bit 0) or a coin flip, then seat 1 (bit 1).
    Determinizations disagree about the kind of node below the root."""

    name = "shape_shift"
    state_class = ShapeShiftState
    num_actions = 2
    has_chance = True
    has_hidden_information = True


class HiddenDrawState(_TinyState):
    @property
    def current_player(self):
        return (0, CHANCE, 1, TERMINAL)[min(len(self.history), 3)]

    def legal_mask(self):
        mask = np.zeros(3, dtype=bool)
        if len(self.history) == 0:
            mask[:2] = True
        elif len(self.history) == 2:
            mask[: self.history[1] + 1] = True
        return mask

    def chance_outcomes(self):
        return [(c, 1 / 3) for c in range(3)] if len(self.history) == 1 else []

    def _apply(self, action):
        pass

    def returns(self):
        if len(self.history) < 3:
            return np.zeros(2)
        value = self.history[0] * (1.0 if self.history[2] == 0 else -0.25)
        return np.array([value, -value])

    def public_history(self, seat):
        return [None if (i == 1 and seat != 1) else a for i, a in enumerate(self.history)]

    def sample_hidden(self, seat, rng):
        other = self.clone()
        if seat != 1 and len(other.history) > 1:
            other.history[1] = int(rng.integers(3))
        return other


class HiddenDrawGame(_TinyGame):
    """Seat 0 plays 0 or 1; seat 1 draws a card c in 0..2 (seen by seat 1 alone) and then has the moves 0..c.
    Seat 0's move 0 pays 0; its move 1 pays 1 if seat 1 answers 0, else -0.25 (seat 1 gets the negative), so
    seat 1 answers 1 or 2 whenever its card allows and seat 0's move 1 is worth 1/3 - 2/3 * 0.25 = 1/6."""

    name = "hidden_draw"
    state_class = HiddenDrawState
    num_actions = 3
    has_chance = True
    has_hidden_information = True
