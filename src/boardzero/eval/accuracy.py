"""Move accuracy against a game's exact solver (``Game.exact_solver()``: Connect 4, tic-tac-toe).

The accuracy of an agent is the share of test positions where the move it
plays keeps the best achievable result (win > draw > loss with perfect play
from there on). Only the result class counts, not the distance to the end.

How test positions are drawn (``sample_positions``), so that they come from
varied games, not only from one line of play:

- each position belongs to its own game, played from the empty board to a
  target ply drawn uniformly from ``[min_ply, max_ply]``;
- every move of those games is uniformly random with probability
  ``random_share`` (default 0.5) and otherwise a ``greedy`` move (win at once
  if possible, else do not allow an immediate win, else random), so the games
  mix tactically sound and loose play and wander far from any one opening;
- positions that are over, repeated, or where every legal move has the same
  solved value (``require_choice``: no decision to get wrong) are skipped.

A game's solver declares the default ply range (``ExactSolver.accuracy_plies``).
Connect 4 positions start at ply 10 by default: the solver needs seconds to
minutes per position in the first few plies, but milliseconds to a fraction of
a second from ply 10 on. Each position stores its solved move values, so a
saved position set (``save_positions`` / ``load_positions``) scores any
number of agents without solving again.

Every position also belongs to a group, so a score can be read by kind of
position (``position_group``): its game phase by ply (``ExactSolver.phase_starts``; Connect 4: begin 0-13,
middle 14-27, end 28+) and its difficulty by how many legal moves keep the
best result (hard: exactly one; easy: more than half; medium: the rest).
``move_accuracy`` counts each group, each phase, each difficulty and all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.agents.solver import ILLEGAL, solved_games, solved_move_values
from boardzero.core.api import ExactSolver, Game
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.eval.stats import wilson_interval
from boardzero.nn.checkpoint import atomic_write_bytes

PHASES = ("begin", "middle", "end")
DIFFICULTIES = ("easy", "medium", "hard")
ALL = "all"


@dataclass
class Position:
    history: list[int]  # moves from the start of the game
    values: np.ndarray  # [A] solved result of each move for the mover (1/0/-1), ILLEGAL if illegal

    @property
    def best(self) -> int:
        return int(self.values[self.values != ILLEGAL].max())

    def keeps_best(self, action: int) -> bool:
        return int(self.values[action]) == self.best

    @property
    def ply(self) -> int:
        return len(self.history)


def accuracy_solver(game: Game | str) -> ExactSolver:
    """The exact solver of ``game`` (a game or a registered game's name); a ConfigError naming the solved
    games where it has none."""
    found = (make(game) if isinstance(game, str) else game).exact_solver()
    if found is None:
        raise ConfigError("game", f"move accuracy needs an exact solver; solved games: {', '.join(solved_games())}")
    return found


def phase_of(game: Game | str, ply: int) -> str:
    """``begin``, ``middle`` or ``end``: the game phase of a position ``ply`` moves into ``game`` (a game or a
    registered game's name), by its solver's ``phase_starts``."""
    middle, end = accuracy_solver(game).phase_starts
    return PHASES[0] if ply < middle else PHASES[1] if ply < end else PHASES[2]


def difficulty_of(values: np.ndarray) -> str:
    """``hard`` when exactly one legal move keeps the best result, ``easy`` when more than half of them do,
    else ``medium`` (move values as in ``Position.values``)."""
    legal = values[values != ILLEGAL]
    keeping = int((legal == legal.max()).sum())
    return DIFFICULTIES[2] if keeping == 1 else DIFFICULTIES[0] if 2 * keeping > len(legal) else DIFFICULTIES[1]


def position_group(game: Game | str, position: Position) -> tuple[str, str]:
    """(phase, difficulty) of ``position`` in ``game`` (a game or a registered game's name)."""
    return phase_of(game, position.ply), difficulty_of(position.values)


def group_keys(phase: str, difficulty: str) -> tuple[str, ...]:
    """The counters a position of (phase, difficulty) adds to: its group, its phase, its difficulty and all."""
    return f"{phase}/{difficulty}", f"{phase}/{ALL}", f"{ALL}/{difficulty}", f"{ALL}/{ALL}"


@dataclass
class AccuracyResult:
    agent: str
    positions: int
    correct: int
    interval: tuple[float, float]  # Wilson 95 % interval of the accuracy
    by_best: dict[str, tuple[int, int]] = field(default_factory=dict)  # "win"/"draw"/"loss" -> (correct, positions)
    # "phase/difficulty" (either may be "all") -> (correct, positions); only groups that hold positions
    by_group: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.correct / self.positions if self.positions else float("nan")

    def group_interval(self, key: str) -> tuple[float, float]:
        """Wilson 95 % interval of the accuracy in group ``key`` (e.g. ``"begin/hard"``, ``"all/easy"``)."""
        return wilson_interval(*self.by_group[key])

    def to_dict(self) -> dict:
        return {
            "agent": self.agent,
            "positions": self.positions,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "interval": list(self.interval),
            "by_best": {k: list(v) for k, v in self.by_best.items()},
            "by_group": {
                k: {"correct": c, "positions": n, "accuracy": c / n, "interval": list(self.group_interval(k))}
                for k, (c, n) in self.by_group.items()
            },
        }


def check_solved(game: Game) -> None:
    """ConfigError unless ``game`` has an exact solver."""
    accuracy_solver(game)


def sample_positions(
    game: Game,
    count: int,
    rng: np.random.Generator,
    *,
    min_ply: int | None = None,
    max_ply: int | None = None,
    random_share: float = 0.5,
    require_choice: bool = True,
    max_tries: int | None = None,
    on_position: Callable[[Position], None] | None = None,
) -> list[Position]:
    """``count`` distinct solved positions from varied games (see the module docstring); fewer when the
    tries run out first. ``on_position`` is called with each position kept."""
    low, high = accuracy_solver(game).accuracy_plies
    low = low if min_ply is None else min_ply
    high = high if max_ply is None else max_ply
    if not 0 <= low <= high:
        raise ConfigError("max_ply", f"need 0 <= min_ply <= max_ply, got {low}..{high}")
    greedy = make_agent("greedy", game)
    seen: set[tuple[int, ...]] = set()
    positions: list[Position] = []
    for _ in range(max_tries if max_tries is not None else 50 * count + 100):
        if len(positions) >= count:
            break
        history = play_to_ply(game, int(rng.integers(low, high + 1)), greedy, random_share, rng)
        if history is None or tuple(history) in seen:
            continue
        seen.add(tuple(history))
        values = solved_move_values(game, history)
        legal = values[values != ILLEGAL]
        if require_choice and legal.min() == legal.max():
            continue
        positions.append(Position(history, values))
        if on_position is not None:
            on_position(positions[-1])
    return positions


def play_to_ply(game: Game, ply: int, greedy: Agent, random_share: float, rng: np.random.Generator) -> list[int] | None:
    """The moves of a game played to ``ply``, each uniformly random with probability ``random_share``, else
    ``greedy``'s; None when the game ends first."""
    state = game.new_state()
    for _ in range(ply):
        if rng.random() < random_share:
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
        else:
            action = greedy.act(SeatView(state, state.current_player), rng)
        state.apply(action)
        if state.is_terminal():
            return None
    return list(state.history)


def move_accuracy(
    agent: str | Agent,
    game: Game,
    positions: Sequence[Position],
    rng: np.random.Generator | None = None,
    *,
    on_position: Callable[[int, bool], None] | None = None,
) -> AccuracyResult:
    """Share of ``positions`` where ``agent``'s move keeps the best achievable result."""
    check_solved(game)
    if not positions:
        raise ConfigError("positions", "no test positions to score")
    rng = np.random.default_rng(0) if rng is None else rng
    if isinstance(agent, str):
        agent = make_agent(agent, game)
    names = {1: "win", 0: "draw", -1: "loss"}
    by_best = {name: [0, 0] for name in names.values()}
    by_group: dict[str, list[int]] = {}
    correct = 0
    for index, position in enumerate(positions):
        state = game.new_state()
        for action in position.history:
            state.apply(action)
        agent.reset()
        action = int(agent.act(SeatView(state, state.current_player), rng))
        good = position.keeps_best(action)
        correct += good
        bucket = by_best[names[position.best]]
        bucket[0] += good
        bucket[1] += 1
        for key in group_keys(*position_group(game, position)):
            counts = by_group.setdefault(key, [0, 0])
            counts[0] += good
            counts[1] += 1
        if on_position is not None:
            on_position(index, good)
    return AccuracyResult(
        agent=getattr(agent, "spec", repr(agent)),
        positions=len(positions),
        correct=correct,
        interval=wilson_interval(correct, len(positions)),
        by_best={k: (v[0], v[1]) for k, v in by_best.items() if v[1]},
        by_group={k: (v[0], v[1]) for k, v in by_group.items()},
    )


def expected_random_accuracy(positions: Sequence[Position]) -> float:
    """The accuracy a uniformly random mover has on average over ``positions``: the mean share of the legal
    moves that keep the best result (one draw of ``random`` scatters around it)."""
    shares = [np.mean(p.values[p.values != ILLEGAL] == p.best) for p in positions]
    return float(np.mean(shares)) if shares else float("nan")


def save_positions(path: str | Path, game: Game, positions: Sequence[Position], *, about: dict | None = None) -> None:
    """Write a position set as JSON (atomically): each position's history, solved move values, phase and
    difficulty (the labels are for readers; scoring recomputes them), and ``about`` (how the set
    was made) when given."""
    records = []
    for position in positions:
        phase, difficulty = position_group(game, position)
        records.append(
            {
                "history": position.history,
                "values": [int(v) for v in position.values],
                "phase": phase,
                "difficulty": difficulty,
            }
        )
    head = json.dumps({"game": game.name, **({"about": about} if about else {})})[:-1]
    lines = ",\n".join(json.dumps(record) for record in records)  # one position a line: readable diffs
    atomic_write_bytes(Path(path), f'{head}, "positions": [\n{lines}\n]}}\n'.encode())


def load_positions(path: str | Path, game: Game) -> list[Position]:
    """Read a position set written by ``save_positions``; the game must match."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError("positions", f"cannot read {path}: {exc}") from None
    if data.get("game") != game.name:
        raise ConfigError("positions", f"{path} holds {data.get('game')!r} positions, not {game.name!r}")
    return [Position([int(a) for a in p["history"]], np.array(p["values"], dtype=np.int64)) for p in data["positions"]]
