"""The Game / State API that every game implements and every algorithm uses.

A game is a pure function of its setup seed and its action list: chance is an
explicit player (``CHANCE``) whose outcomes, with probabilities, are listed by
``chance_outcomes()`` and applied like any action. Values are vectors with one
entry per seat; nothing here assumes two players or zero-sum returns.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from boardzero.core.batched import StateBatch
from boardzero.core.chance import CHANCE, TERMINAL, chance_outcome_by_table, sample_chance as sample_chance
from boardzero.core.errors import ConfigError, IllegalActionError

RECORD_VERSION = 1


@dataclasses.dataclass(frozen=True)
class Symmetry:
    """A symmetry of a game, as index arrays (gathers).

    For a position T and its image S: ``S.observe(seat)[key].ravel() == T.observe(seat)[key].ravel()[observation[key]]``
    for every observation key, and action ``i`` in S is action ``actions[i]`` in T (so a policy maps as
    ``policy[actions]``). Seats and returns are unchanged. The image of a fresh game is
    ``Game.symmetric_state`` (the same start on an empty board; a turned board where the board is dealt).
    """

    name: str
    observation: dict[str, np.ndarray]  # observation key -> int index into the flattened observation
    actions: np.ndarray  # int[num_actions]

    def apply_action(self, action: int) -> int:
        """The action in the image position that corresponds to ``action`` in the original."""
        return int(np.flatnonzero(self.actions == action)[0])


def grid_symmetry(
    name: str, observation_spec: dict[str, tuple[int, ...]], grid: tuple[int, int], transform, action_grid: bool = True
) -> Symmetry:
    """A symmetry of a game on a rows x cols grid, from ``transform`` of a [rows, cols] array of indices
    (``np.fliplr``, ``np.rot90``, ...): observations whose last two dims (or whose flat layout of planes)
    are that grid are transformed plane by plane; actions are the grid cells (``action_grid``) or its columns."""
    rows, cols = grid
    cells = transform(np.arange(rows * cols).reshape(rows, cols))
    observation = {}
    for key, shape in observation_spec.items():
        size = int(np.prod(shape))
        if size % (rows * cols):
            raise ValueError(f"observation {key!r} {shape} is not made of {rows}x{cols} planes")
        planes = np.arange(size).reshape(-1, rows * cols)
        observation[key] = planes[:, cells.ravel()].ravel()
    actions = cells.ravel() if action_grid else cells[0] % cols
    return Symmetry(name, observation, np.asarray(actions, np.int64))


ILLEGAL_MOVE = -128  # ExactSolver.move_values entry of an illegal move


@dataclasses.dataclass(frozen=True)
class ExactSolver:
    """A game's exact solver, declared by ``Game.exact_solver()``: the ``solver`` agent and move accuracy
    (``eval.accuracy``) use whatever a game declares here, so neither knows any game by name."""

    # moves played from the start -> int[num_actions]: the mover's result after each move with perfect play
    # from there (1 win, 0 draw, -1 loss), ILLEGAL_MOVE for an illegal one
    move_values: Callable[[Sequence[int]], np.ndarray]
    # (first ply of the middle, first ply of the end phase) of a game: move accuracy reads its score by phase
    phase_starts: tuple[int, int]
    # default (least, most) plies into a game of a move-accuracy test position
    accuracy_plies: tuple[int, int]
    # (least, most) plies of the standard test set's begin, middle and end positions (``eval.testset``), each
    # inside its phase; a solver slow in the first plies starts the begin range later
    test_set_plies: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    # the ply from which the solver answers in a fraction of a second; the solver agent plays earlier moves by
    # ``first_move`` and then rollout MCTS (0: exact from the first move)
    exact_from: int = 0
    first_move: int | None = None  # the known best first move, played where exact_from > 0


def action_id(action: Any) -> int:
    """``action`` as a plain int id; an IllegalActionError for anything but an integer (a bool, a float, a
    string), so ``apply(True)`` is not taken for action 1."""
    if type(action) is int:
        return action
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    raise IllegalActionError(
        repr(action), f"an action is an integer id (int or numpy integer), not {type(action).__name__}"
    )


class Game(abc.ABC):
    """Static description of a game with fixed options.

    Subclasses set ``name``, ``num_players``, ``num_actions`` and
    ``observation_spec`` (observation name -> shape, all float32) and declare
    their options as a dataclass in ``Options``.
    """

    name: ClassVar[str]
    Options: ClassVar[type | None] = None  # dataclass of options; one docstring line per field via metadata["doc"]
    num_players: int
    num_actions: int
    observation_spec: dict[str, tuple[int, ...]]
    has_hidden_information: ClassVar[bool] = False
    has_chance: ClassVar[bool] = False
    # (least, most) return any seat can get, or None if unknown; lets search prove wins and losses
    return_bounds: ClassVar[tuple[float, float] | None] = None
    # options a trained model depends on (they shape observations, actions or values); None: all of them.
    # A model trained under other values of the remaining options (match rules) still plays.
    model_options: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, options: Any = None):
        self.options = options if options is not None else (self.Options() if self.Options else None)

    @abc.abstractmethod
    def new_state(self, *, seed: int | None = None) -> State:
        """A fresh game; ``seed`` fixes the setup (board layout etc.), not later chance."""

    @abc.abstractmethod
    def action_name(self, action: int) -> str:
        """A readable name of a player action id."""

    def symmetries(self) -> list[Symmetry]:
        """Transformations that map every position to an equally good one (board mirrors, rotations),
        without the identity; training uses them to augment its samples. None by default."""
        return []

    def symmetric_state(self, symmetry: Symmetry, *, seed: int | None) -> State:
        """The image under ``symmetry`` of the fresh game ``new_state(seed=seed)``: the same state where a game
        starts on a symmetric (empty) board, as by default; games that deal a board turn it."""
        return self.new_state(seed=seed)

    def exact_solver(self) -> ExactSolver | None:
        """The game's exact solver (perfect play from the moves made, as the ``solver`` agent plays and move
        accuracy scores), or None for a game without one, as by default."""
        return None

    def board_layout(self):
        """How the flat observation and the actions sit on a 2-D grid (``core.layout.BoardLayout``), for
        networks with a board branch; None for games without one."""
        return None

    def batched(self, batch_size: int, *, seed: int = 0, observation_key: str | None = None):
        """``batch_size`` games stepped together (``core.batched``); a game with a faster form overrides this."""
        return StateBatch(self, batch_size, seed=seed, observation_key=observation_key)

    def timeless_actions(self) -> np.ndarray | None:
        """A mask of the player actions that take no time in the game (a negotiation: Catan's offers and
        answers), which a discount per move must skip, or None where every move takes time, as by default."""
        return None

    def outcome_name(self, outcome: int) -> str:
        """A readable name of a chance outcome id."""
        return f"chance outcome {outcome}"

    def action_fields(self, action: int) -> dict[str, Any]:
        """The parts of a player action id as JSON-ready data, e.g. ``{"kind": "road", "edge": 17}``,
        so a user interface can place it without decoding ids; ``{"kind": "move"}`` by default."""
        return {"kind": "move"}

    def options_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self.options) if self.options is not None else {}

    def state_from_record(self, record: dict) -> State:
        """Replay a record made by ``State.to_record()``; raises on a foreign or bad record."""
        if not isinstance(record, dict):
            raise ConfigError("record", f"expected a JSON object, got {type(record).__name__}")
        if record.get("game") != self.name:
            raise ConfigError("record.game", f"record is for game {record.get('game')!r}, not {self.name!r}")
        if record.get("options", {}) != self.options_dict():
            raise ConfigError(
                "record.options", f"record options {record.get('options')} differ from {self.options_dict()}"
            )
        actions = record.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, int) for a in actions):
            raise ConfigError("record.actions", "expected a list of integer action ids")
        state = self.new_state(seed=record.get("seed"))
        for action in actions:
            state.apply(action)
        return state

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options_dict().items())
        return f"{type(self).__name__}({opts})"


class State(abc.ABC):
    """One position of a game. Mutable: ``apply`` changes it in place."""

    game: Game
    seed: int | None
    history: list[int]  # every applied id, chance outcomes included

    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL``."""

    @abc.abstractmethod
    def legal_mask(self) -> np.ndarray:
        """bool[num_actions]; all False at chance and terminal nodes."""

    def legal_actions(self) -> np.ndarray:
        """int[K]: the legal action ids in increasing order (the mask's nonzero entries)."""
        return self.legal_mask().nonzero()[0]

    def random_action(self, rng: np.random.Generator) -> int:
        """A legal action drawn uniformly, with one ``rng.random()``: ``legal_actions()[floor(u * K)]``.

        The cheap way to play at random: a third to a quarter of the cost of ``rng.choice(state.legal_actions())``
        in Catan (``bench/readme_loop.py``), which also draws another stream. At chance nodes draw with
        ``sample_chance`` instead. A game may override it with a faster lookup that picks the same action for
        the same draw (the conformance check compares the two)."""
        legal = self.legal_actions()
        if len(legal) == 0:
            player = self.current_player
            where = (
                "a chance node: draw its outcome with sample_chance(state, rng)"
                if player == CHANCE
                else "the end of the game"
                if player == TERMINAL
                else f"seat {player}'s turn without a legal move"
            )
            raise ValueError(f"random_action needs a seat to move with a legal move; this is {where}")
        return int(legal[int(rng.random() * len(legal))])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) pairs at a chance node; empty elsewhere."""
        return []

    def chance_outcome_at(self, u: float) -> int:
        """The chance outcome that the uniform draw ``u`` (0 <= u < 1) picks: the outcomes of
        ``chance_outcomes()`` cover [0, 1) in their order, each a slice as wide as its probability.
        ``sample_chance`` passes ``rng.random()``; a game may override this with a faster lookup that
        picks the same outcome (the conformance check compares the two)."""
        return chance_outcome_by_table(self.chance_outcomes(), u)

    def chance_lane(self) -> int:
        """Which of the game's chance streams the pending chance outcome draws from (0 or more). A session keys
        each chance outcome by its lane and the count of outcomes drawn in that lane so far, so two games with
        one seed draw the same k-th outcome of a lane however their moves differ. A game whose chance events
        differ in kind keeps them in separate lanes (Catan: the dice in one, cards drawn and steals in
        another), so that one card more drawn in one game does not shift every later roll of the dice."""
        return 0

    def apply(self, action: int) -> None:
        """Apply a player action or a chance outcome; raises IllegalActionError and leaves the state unchanged."""
        action = action_id(action)
        player = self.current_player
        if player == TERMINAL:
            raise IllegalActionError(action, "the game is over")
        if player == CHANCE:
            outcomes = {o for o, p in self.chance_outcomes() if p > 0}
            if action not in outcomes:
                raise IllegalActionError(action, f"not a possible chance outcome here; possible: {sorted(outcomes)}")
        else:
            if not 0 <= action < self.game.num_actions:
                raise IllegalActionError(action, f"action ids are 0..{self.game.num_actions - 1}")
            if not self.legal_mask()[action]:
                raise IllegalActionError(action, self.illegal_reason(action), name=self.game.action_name(action))
        self._apply(action)
        self.history.append(action)

    def action_name(self, action: int) -> str:
        """The action's name in this position; games may add context (what a node produces, say)."""
        if self.current_player == CHANCE:
            return self.game.outcome_name(action)
        return self.game.action_name(action)

    def action_aliases(self, action: int) -> tuple[str, ...]:
        """Other names a person may type for a player action here, besides its id and ``action_name``
        (``road 29-35`` for ``road at 43 (nodes 29-35)``); see ``core.moves``. None by default."""
        return ()

    def describe_step(self, action: int, seat: int | None = None) -> str:
        """A line for a game log: what applying ``action`` (a move or a chance outcome) here does, as ``seat``
        may know it (None: everything). By default the action's name, or "(hidden)" for an outcome ``seat``
        does not see; games add what follows from it (who receives what on a roll, say)."""
        if self.current_player == CHANCE and seat is not None:
            probe = self.clone()
            probe.apply(action)
            if probe.public_history(seat)[-1] is None:
                return "(hidden)"
        return self.action_name(action)

    def illegal_reason(self, action: int) -> str:
        """Why a player action is illegal now; games override with specific reasons."""
        legal = [self.game.action_name(a) for a in self.legal_actions()[:12]]
        more = "" if len(self.legal_actions()) <= 12 else ", ..."
        return f"not legal for seat {self.current_player} now; legal: {', '.join(legal)}{more}"

    @abc.abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an already validated action or outcome."""

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @abc.abstractmethod
    def returns(self) -> np.ndarray:
        """float[num_players]: final rewards (zeros before the end)."""

    @abc.abstractmethod
    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """What ``seat`` may know, as float32 arrays shaped by ``game.observation_spec``."""

    def sample_hidden(self, seat: int, rng: np.random.Generator) -> State:
        """A full state consistent with what ``seat`` knows; a clone for perfect information."""
        return self.clone()

    def public_history(self, seat: int) -> list[int | None]:
        """The action history as ``seat`` saw it: ids it may not know are ``None``."""
        return list(self.history)

    def render(self, seat: int | None = None, *, color: bool = False) -> str:
        """A text picture of the position; with ``seat``, only what that seat may see; ``color``: ANSI colours
        (where the game has them)."""
        return repr(self)

    def render_parts(self, seat: int | None = None, *, color: bool = False) -> list[str]:
        """``render`` in parts: the board first, then status parts (a terminal redraws the board only when it
        changed). One part by default."""
        return [self.render(seat, color=color)]

    def last_seen_by(self) -> tuple[int, ...] | None:
        """The seats that may know the last applied entry of the history (None: every seat); derived from
        ``public_history`` by default, which games with long histories can answer faster."""
        seats = tuple(s for s in range(self.game.num_players) if self.public_history(s)[-1] is not None)
        return None if len(seats) == self.game.num_players else seats

    def public_view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see of this position as read-only, JSON-ready data (``None``: a spectator,
        public facts only). Two states that differ only in what ``seat`` cannot know give equal views.
        Games add their board to ``base_public_view``'s fields."""
        return base_public_view(self, seat)

    def hidden_name(self, outcome: int) -> str:
        """What a seat that may not see this chance outcome is told of it (e.g. 'draw a development card')."""
        return "a hidden chance outcome"

    def summary(self) -> dict[str, Any]:
        """Game-specific figures of this position for reports, JSON-ready: numbers (``"turns": 71``),
        one number per seat (``"points": [10, 6]``) or one dict of named parts per seat
        (``"points_by_source": [{"cities": 4, ...}, ...]``). None by default."""
        return {}

    def to_record(self) -> dict:
        """A JSON-able record that replays exactly with ``Game.state_from_record``."""
        return {
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": self.game.options_dict(),
            "seed": self.seed,
            "actions": [int(a) for a in self.history],
            "returns": [float(r) for r in self.returns()] if self.is_terminal() else None,
        }


def base_public_view(state: State, seat: int | None) -> dict[str, Any]:
    """The fields every game's public view has: game, options, seats, whose move, the end and its returns."""
    player = state.current_player
    over = player == TERMINAL
    return {
        "game": state.game.name,
        "options": state.game.options_dict(),
        "players": state.game.num_players,
        "seat": seat,
        "to_move": player if player >= 0 else None,
        "chance": player == CHANCE,
        "over": over,
        "returns": [float(r) for r in state.returns()] if over else None,
        "moves": len(state.history),
    }
