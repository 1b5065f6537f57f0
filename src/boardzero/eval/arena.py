"""Matches between any agents, with every seat order rotated evenly, in parallel workers.

Entrants are agent specs. When there are fewer entrants than seats the last one
fills the remaining seats (``catan heuristic random``: one heuristic player and
three random ones). The games are played by the match runner (``play.runner``):
game ``i`` seats the entrants by the one seat rotation (``play.rotation``), so
every entrant plays every seat equally often, and its setup seed, the agents'
draws and its chance outcomes come from ``(seed, i)`` alone: results do not
depend on the number of workers, and game ``i`` of two matches with the same
seed rolls the same dice as long as the positions agree (``eval.paired``).

Seats count from 0 (seat 0 moves first), in every report and in JSON. Results
count per seat: an entrant filling k seats gets k results per game, one for
each of its seats (won: that seat alone has the highest return; drawn: it
shares the highest; lost: otherwise), so its win rate is comparable with an
entrant that fills one seat (1/k of ``random`` filling k seats of a k-player
game wins, not all of it).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardzero.agents.registry import make_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.eval.stats import wilson_interval
from boardzero.play.records import RecordWriter
from boardzero.play.rotation import seat_slots, seating
from boardzero.play.runner import MatchGame, record_of, run_match
from boardzero.play.session import GameSession
from boardzero.play.workers import check_backend


@dataclass
class GameResult:
    index: int
    seats: list[int]  # entrant index per seat
    returns: list[float]
    decisions: int  # player actions (chance outcomes not counted)
    record: dict | None = None  # the game's replayable record (State.to_record) with the agent spec of each seat


@dataclass
class EntrantSummary:
    spec: str
    seats: int  # how many seats this entrant fills in each game
    games: int = 0
    wins: int = 0  # seats won (see the module docstring: one result per seat filled)
    draws: int = 0
    losses: int = 0
    total_return: float = 0.0
    by_seat: dict[int, dict[str, int]] = field(default_factory=dict)  # seat (from 0) -> {"wins": n, ...} there

    @property
    def results(self) -> int:
        """Seat results counted: games times seats filled."""
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.results if self.results else 0.0

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.results)
        return {
            "spec": self.spec,
            "seats": self.seats,
            "games": self.games,
            "results": self.results,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "win_rate_ci95": [low, high],
            "mean_return": self.total_return / self.games if self.games else 0.0,
            "by_seat": {str(seat): dict(counts) for seat, counts in sorted(self.by_seat.items())},
        }


@dataclass
class ArenaResult:
    game: str
    options: dict[str, Any]
    entrants: list[EntrantSummary]
    games: list[GameResult] = field(default_factory=list)
    planned: int = 0  # games asked for; more than len(games) where a time limit stopped the match
    minutes: float | None = None  # the time limit that stopped it, else None

    @property
    def mean_length(self) -> float:
        return float(np.mean([g.decisions for g in self.games])) if self.games else 0.0

    def length_spread(self) -> dict[str, float]:
        """Game lengths in player moves: mean, min, 10th percentile, median, 90th percentile, max."""
        lengths = np.array([g.decisions for g in self.games], dtype=np.float64)
        if not len(lengths):
            return {}
        low, median, high = np.percentile(lengths, [10, 50, 90])
        return {
            "mean": float(lengths.mean()),
            "min": float(lengths.min()),
            "p10": float(low),
            "median": float(median),
            "p90": float(high),
            "max": float(lengths.max()),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "games": len(self.games),
            "planned": self.planned,
            "stopped_after_minutes": self.minutes,
            "mean_length": self.mean_length,
            "length": self.length_spread(),
            "agents": [e.to_dict() for e in self.entrants],
            "records": [
                {"index": g.index, "seats": g.seats, "returns": g.returns, "decisions": g.decisions}
                for g in sorted(self.games, key=lambda g: g.index)
            ],
        }


def _outcome(returns: np.ndarray, seat: int) -> str:
    """'win', 'draw' or 'loss' of one seat given the final returns."""
    top = returns.max()
    if returns[seat] != top:
        return "loss"
    return "win" if np.count_nonzero(returns == top) == 1 else "draw"


def _finish(session: GameSession, task: MatchGame) -> GameResult:
    index = task.tag
    seats = [int(name) for name in task.seats]
    record = record_of(session, index=index)
    return GameResult(index, seats, session.state.returns().tolist(), session.decisions, record)


def check_match(game_name: str, specs: list[str], *, num_games: int = 1, options: dict | None = None):
    """Build the game and every agent once, so bad names and options fail fast with a clear error."""
    game = make(game_name, **(options or {}))
    if not specs:
        raise ConfigError("agents", "name at least one agent spec, e.g. random or mcts:sims=400")
    if len(specs) > game.num_players:
        raise ConfigError("agents", f"{game.name} has {game.num_players} seats but {len(specs)} agents were named")
    if num_games < 1:
        raise ConfigError("games", f"must be at least 1, got {num_games}")
    for spec in specs:
        make_agent(spec, game)
    return game


def run_arena(
    game_name: str,
    specs: list[str],
    *,
    num_games: int,
    options: dict | None = None,
    seed: int = 0,
    workers: int | None = None,
    records: str | Path | None = None,
    backend: str = "local",
    address: str = "",
    on_start: Callable[[], None] | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    minutes: float | None = None,
) -> ArenaResult:
    """Play ``num_games`` games and summarise them per entrant; with ``records``, append each game's record
    to that JSON-lines file (``play.records``) as it finishes.

    ``backend`` ``"local"`` plays them in ``workers`` processes here (default: one per core), ``"ray"`` in
    ``workers`` Ray actors (default: one per CPU of the cluster at ``address``); the result is the same.

    ``on_start`` is called once the game and agents are checked, before the first game (a progress bar
    starts there, so a bad spec fails before anything is drawn).

    ``minutes``: a time limit. The match stops at the first game to end after it; games still being played are
    dropped (each game is then sent to a worker alone, so every result arrives as it ends), and the summary covers
    the games that finished, ``planned`` and ``minutes`` saying so. Games end roughly in index order, so the seat
    orders stay nearly even (``by_seat`` shows how even).
    """
    options = dict(options or {})
    if seed < 0:
        raise ConfigError("seed", f"must be >= 0, got {seed}")
    if workers is not None and workers < 1:
        raise ConfigError("workers", f"must be >= 1 (or None: one per core), got {workers}")
    if minutes is not None and not minutes > 0:
        raise ConfigError("minutes", f"must be > 0 (or None: no time limit), got {minutes}")
    game = check_match(game_name, specs, num_games=num_games, options=options)
    check_backend(backend)
    if on_start is not None:
        on_start()
    names = [str(e) for e in range(len(specs))]  # entrants by place: two may share a spec
    seat_counts = [seat_slots(names, game.num_players).count(name) for name in names]
    result = ArenaResult(
        game.name, game.options_dict(), [EntrantSummary(s, c) for s, c in zip(specs, seat_counts)], planned=num_games
    )
    tasks = [MatchGame((seed, i), seating(names, game.num_players, i), tag=i) for i in range(num_games)]
    deadline = None if minutes is None else time.monotonic() + 60 * minutes
    with contextlib.ExitStack() as stack:
        writer = stack.enter_context(RecordWriter(records)) if records is not None else None
        # closing: a match stopped by its time limit stops its workers, dropping the games in play
        results = stack.enter_context(
            contextlib.closing(
                run_match(
                    game_name,
                    options,
                    dict(zip(names, specs)),
                    tasks,
                    finish=_finish,
                    workers=workers,
                    chunksize=None if minutes is None else 1,
                    backend=backend,
                    address=address,
                )
            )
        )
        for game_result in results:
            _record(result, game_result)
            if writer is not None:
                writer.write(game_result.record)
            if on_result is not None:
                on_result(game_result)
            if deadline is not None and time.monotonic() >= deadline and len(result.games) < num_games:
                result.minutes = minutes
                break
    result.games.sort(key=lambda g: g.index)
    return result


_COUNTERS = {"win": "wins", "draw": "draws", "loss": "losses"}


def _record(result: ArenaResult, game: GameResult) -> None:
    returns = np.asarray(game.returns)
    result.games.append(game)
    for entrant in result.entrants:
        entrant.games += 1
    for seat, entrant_index in enumerate(game.seats):
        entrant = result.entrants[entrant_index]
        counter = _COUNTERS[_outcome(returns, seat)]
        setattr(entrant, counter, getattr(entrant, counter) + 1)
        entrant.by_seat.setdefault(seat, dict.fromkeys(_COUNTERS.values(), 0))[counter] += 1
        entrant.total_return += float(returns[seat]) / entrant.seats
