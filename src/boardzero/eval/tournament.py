"""Round-robin tournaments: every lineup of agents plays the same number of games, seats rotated; a mean
reward matrix, standings and Bradley-Terry ratings (``eval.ratings``) from all results; resumable.

- Lineups: in a two-player game every pair of agents; in a game of P players every combination of P
  different agents (so every agent meets every set of opponents).
- Seats: game ``g`` of a lineup seats its members (sorted by name) by the one seat rotation
  (``play.rotation``): the P rotations of one order, then of the next, so every P consecutive games give
  each member each seat once and P! games cover every seat order.
- Seeds: the match runner (``play.runner``) plays game ``g`` of a lineup with its setup, the agents' draws
  and its chance outcomes from ``(seed, crc32 of the lineup's names, g)`` alone: results depend neither on
  the order the agents are named in nor on the worker nor on other games.
- Openings: with ``opening_plies`` K, the first K steps of every game are uniformly random moves, drawn
  from ``(seed, lineup, g // P)``, so the P games of a rotation block share their opening (for games without
  chance) and two deterministic agents play varied games instead of one game over and over.
- Resume: the output file holds every game played, keyed by lineup and game number. Running the tournament
  again with the same file plays only the games it lacks (more agents or a larger ``-n`` add games, nothing
  is replayed); games of agents no longer named stay in the file and are left out of the results. Games
  are keyed by agent *name* (the spec unless given one), so a name must stand for one agent.
"""

from __future__ import annotations

import itertools
import json
import math
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardzero.agents.registry import make_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.eval.figures import collect, game_facts, winner_of
from boardzero.eval.ratings import Ratings, rate
from boardzero.eval.stats import wilson_interval
from boardzero.nn.checkpoint import atomic_write_bytes
from boardzero.play.records import RecordWriter
from boardzero.play.rotation import seating
from boardzero.play.runner import MatchGame, record_of, run_match
from boardzero.play.session import GameSession
from boardzero.play.workers import check_backend

FORMAT = "boardzero-tournament"
FORMAT_VERSION = 1
SAVE_EVERY_S = 5.0  # the output file is rewritten at most this often while games come in, and at the end


@dataclass(frozen=True)
class Entrant:
    name: str  # shown in tables; the key of its games in the output file
    spec: str  # agent spec, e.g. mcts:sims=200
    step: int | None = None  # the training step, for a checkpoint of a training run

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "spec": self.spec, **({"step": self.step} if self.step is not None else {})}


@dataclass
class TournamentGame:
    lineup: tuple[str, ...]  # the names of the agents in the game, sorted
    number: int  # the game's number within its lineup
    seats: list[str]  # the name of the agent in each seat
    facts: dict[str, Any]  # returns, decisions, action kinds, the game's summary (eval.figures.game_facts)

    @property
    def key(self) -> tuple[tuple[str, ...], int]:
        return self.lineup, self.number

    @property
    def returns(self) -> list[float]:
        return self.facts["returns"]

    def to_dict(self) -> dict[str, Any]:
        return {"lineup": list(self.lineup), "game": self.number, "seats": self.seats, **self.facts}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentGame:
        facts = {k: v for k, v in data.items() if k not in ("lineup", "game", "seats")}
        return cls(tuple(data["lineup"]), int(data["game"]), list(data["seats"]), facts)


@dataclass
class Tournament:
    game: str
    options: dict[str, Any]  # the game's options, as Game.options_dict()
    entrants: list[Entrant]
    games_per_lineup: int
    seed: int
    opening_plies: int = 0  # random moves that open every game
    games: list[TournamentGame] = field(default_factory=list)  # every game in the file, any entrants
    spent_s: float = 0.0  # seconds spent playing, over every run that added games
    others: list[Entrant] = field(default_factory=list)  # agents of earlier runs not named now (games kept)

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entrants]

    def current_games(self) -> list[TournamentGame]:
        """The games between the agents named now."""
        names = set(self.names)
        return [g for g in self.games if names.issuperset(g.lineup)]

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """[K, K] mean return of the row agent in its games with the column agent (NaN where none) and the
        [K, K] number of those games."""
        index = {name: i for i, name in enumerate(self.names)}
        total = np.zeros((len(index), len(index)))
        count = np.zeros((len(index), len(index)), dtype=np.int64)
        for game in self.current_games():
            for seat, name in enumerate(game.seats):
                for other in set(game.lineup) - {name}:
                    total[index[name], index[other]] += game.returns[seat]
                    count[index[name], index[other]] += 1
        with np.errstate(invalid="ignore"):
            return total / count, count

    def standings(self) -> list[dict[str, Any]]:
        """Per agent: games, wins (alone at the top), draws (sharing the top), losses, win rate with its
        95 % Wilson interval, mean return."""
        rows = {
            name: {"name": name, "games": 0, "wins": 0, "draws": 0, "losses": 0, "total_return": 0.0}
            for name in self.names
        }
        for game in self.current_games():
            top = max(game.returns)
            winner = winner_of(game.returns)
            for seat, name in enumerate(game.seats):
                row = rows[name]
                row["games"] += 1
                row["total_return"] += game.returns[seat]
                outcome = "losses" if game.returns[seat] < top else "wins" if winner == seat else "draws"
                row[outcome] += 1
        for row in rows.values():
            games = row["games"]
            row["win_rate"] = row["wins"] / games if games else 0.0
            row["ci95"] = list(wilson_interval(row["wins"], games))
            row["mean_return"] = row.pop("total_return") / games if games else 0.0
        return list(rows.values())

    def ratings(self, anchor: str | None = None, *, interval: str = "bootstrap", samples: int = 200) -> Ratings:
        """Bradley-Terry ratings of the agents named now, anchored at ``anchor`` (default: ``random`` if
        it plays, else the first agent)."""
        index = {name: i for i, name in enumerate(self.names)}
        games = [([index[n] for n in g.seats], g.returns, g.lineup) for g in self.current_games()]
        return rate(
            self.names,
            games,
            anchor=anchor or default_anchor(self.names),
            interval=interval,
            samples=samples,
            rng=np.random.default_rng(self.seed),
        )

    def results(self, ratings: Ratings | None = None) -> dict[str, Any]:
        """Standings, reward matrix, ratings (the default ones unless given) and figures, JSON-ready."""
        matrix, count = self.matrix()
        current = self.current_games()
        if ratings is None and current:
            ratings = self.ratings()
        return {
            "games": len(current),
            "standings": self.standings(),
            "matrix": {
                "mean_return": [[None if math.isnan(v) else float(v) for v in row] for row in matrix],
                "games": count.tolist(),
            },
            "ratings": ratings.to_dict() if ratings is not None else None,
            "figures": collect(g.facts for g in current).to_dict() if current else None,
        }

    def to_dict(self, results: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "opening_plies": self.opening_plies,
            "games_per_lineup": self.games_per_lineup,
            "spent_s": self.spent_s,
            "agents": [e.to_dict() for e in self.entrants],
            "other_agents": [e.to_dict() for e in self.others],
            "results": results,
            "games": [g.to_dict() for g in self.games],
        }

    def save(self, path: str | Path, results: dict[str, Any] | None = None) -> None:
        """Write atomically, one line per game (so a long tournament stays a readable file)."""
        data = self.to_dict(results)
        games = data.pop("games")
        agents = {key: data.pop(key) for key in ("agents", "other_agents")}
        head = (
            json.dumps(data, indent=1)[:-2]
            + "".join(
                f',\n "{key}": [' + ",".join("\n  " + json.dumps(a) for a in rows) + ("\n ]" if rows else "]")
                for key, rows in agents.items()
            )
            + "\n}"
        )
        lines = ",\n".join("  " + json.dumps(g, separators=(",", ":")) for g in games)
        text = head[:-2] + ',\n "games": [\n' + lines + "\n ]\n}\n"
        atomic_write_bytes(Path(path), text.encode())


def default_anchor(names: list[str]) -> str:
    return "random" if "random" in names else names[0]


def load_tournament(path: str | Path) -> Tournament:
    """Read a tournament file written by ``Tournament.save``; anything else is a ConfigError naming it."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError("tournament", f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError("tournament", f"{path} is not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConfigError("tournament", f'{path} is not a boardzero tournament file (no "format": "{FORMAT}")')
    if data.get("version") != FORMAT_VERSION:
        raise ConfigError(
            "tournament", f"{path} has format version {data.get('version')!r}; this boardzero reads {FORMAT_VERSION}"
        )
    try:
        return Tournament(
            data["game"],
            data["options"],
            _entrants(data["agents"]),
            int(data["games_per_lineup"]),
            int(data["seed"]),
            int(data.get("opening_plies", 0)),
            [TournamentGame.from_dict(g) for g in data["games"]],
            float(data.get("spent_s", 0.0)),
            _entrants(data.get("other_agents", [])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError("tournament", f"{path} is damaged ({type(exc).__name__}: {exc})") from None


def _entrants(rows: list[dict[str, str]]) -> list[Entrant]:
    return [
        Entrant(str(row["name"]), str(row["spec"]), None if row.get("step") is None else int(row["step"]))
        for row in rows
    ]


def lineups(names: list[str], num_players: int) -> list[tuple[str, ...]]:
    """Every set of ``num_players`` different agents, each sorted by name."""
    return [tuple(sorted(combo)) for combo in itertools.combinations(names, num_players)]


def lineup_seed(lineup: tuple[str, ...]) -> int:
    return zlib.crc32("\x1f".join(lineup).encode())


def match_game(lineup: tuple[str, ...], number: int, seed: int) -> MatchGame:
    """Game ``number`` of a lineup: its seats, its key, and the key of its opening shared by the P games of
    its rotation block."""
    key = lineup_seed(lineup)
    return MatchGame(
        (seed, key, number),
        seating(lineup, len(lineup), number),
        opening=(seed, key, number // len(lineup), 1),
        tag=(lineup, number),
    )


def _finish(session: GameSession, task: MatchGame) -> tuple[TournamentGame, dict[str, Any]]:
    lineup, number = task.tag
    seats = list(task.seats)
    record = record_of(session, names=seats, lineup=list(lineup), game_number=number)
    return TournamentGame(lineup, number, seats, game_facts(session.game, session, seats)), record


def prepare(
    game_name: str,
    entrants: list[Entrant],
    *,
    games_per_lineup: int,
    options: dict | None = None,
    seed: int = 0,
    opening_plies: int = 0,
    out: str | Path | None = None,
) -> Tournament:
    """Check the game and agents (bad names fail here, before any game) and load the games already in
    ``out``, which must be a tournament of the same game, options, seed and opening plies."""
    game = make(game_name, **(options or {}))
    names = [e.name for e in entrants]
    if len(set(names)) < len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ConfigError("agents", f"{', '.join(twice)} named more than once; name each agent once")
    needed = max(2, game.num_players)
    if len(entrants) < needed:
        raise ConfigError(
            "agents",
            f"a tournament of {game.name} needs at least {needed} agents, "
            f"got {len(entrants)} (for one match use `boardzero arena`)",
        )
    if games_per_lineup < 1:
        raise ConfigError("games", f"must be at least 1, got {games_per_lineup}")
    if opening_plies < 0:
        raise ConfigError("opening_plies", f"must be at least 0, got {opening_plies}")
    for entrant in entrants:
        make_agent(entrant.spec, game)
    tournament = Tournament(game.name, game.options_dict(), list(entrants), games_per_lineup, seed, opening_plies)
    if out is not None and Path(out).exists():
        old = load_tournament(out)
        if _identity(old) != _identity(tournament):
            raise ConfigError(
                "out", f"{out} holds a tournament of {_identity(old)}, not {_identity(tournament)}; name another file"
            )
        tournament.games, tournament.spent_s = old.games, old.spent_s
        tournament.others = [e for e in old.entrants + old.others if e.name not in set(names)]
    return tournament


def _identity(tournament: Tournament) -> str:
    """What must match for games to be added to a tournament file."""
    options = ", ".join(f"{k}={v}" for k, v in tournament.options.items())
    return (
        f"{tournament.game} ({options or 'default options'}) with seed {tournament.seed} and "
        f"{tournament.opening_plies} opening plies"
    )


def missing_games(tournament: Tournament, num_players: int) -> list[MatchGame]:
    """Every game still to play, game numbers outermost (an interrupted tournament has played every lineup
    about equally often)."""
    done = {g.key for g in tournament.games}
    return [
        match_game(lineup, number, tournament.seed)
        for number in range(tournament.games_per_lineup)
        for lineup in lineups(tournament.names, num_players)
        if (lineup, number) not in done
    ]


def run_tournament(
    game_name: str,
    entrants: list[Entrant],
    *,
    games_per_lineup: int,
    options: dict | None = None,
    seed: int = 0,
    opening_plies: int = 0,
    workers: int | None = None,
    out: str | Path | None = None,
    records: str | Path | None = None,
    backend: str = "local",
    address: str = "",
    on_start: Callable[[int, int], None] | None = None,
    on_result: Callable[[TournamentGame], None] | None = None,
) -> Tournament:
    """Play every missing game of the tournament, saving to ``out`` as games come in and appending each new
    game's record to ``records``. ``on_start(to_play, already_played)`` is called once everything is checked.
    ``backend`` ``"ray"`` plays them in ``workers`` Ray actors (default: one per CPU of the cluster at
    ``address``) instead of processes here; the games are the same."""
    options = dict(options or {})
    tournament = prepare(
        game_name,
        entrants,
        games_per_lineup=games_per_lineup,
        options=options,
        seed=seed,
        opening_plies=opening_plies,
        out=out,
    )
    num_players = make(game_name, **options).num_players
    check_backend(backend)
    tasks = missing_games(tournament, num_players)
    if on_start is not None:
        on_start(len(tasks), len(tournament.current_games()))
    if not tasks:
        return tournament
    specs = {e.name: e.spec for e in entrants}
    writer = RecordWriter(records) if records is not None else None
    started = last_save = time.monotonic()
    spent_before = tournament.spent_s
    try:
        for game, record in run_match(
            game_name,
            options,
            specs,
            tasks,
            finish=_finish,
            opening_plies=opening_plies,
            workers=workers,
            chunksize=1,
            backend=backend,
            address=address,
        ):
            tournament.games.append(game)
            if writer is not None:
                writer.write(record)
            if on_result is not None:
                on_result(game)
            if out is not None and time.monotonic() - last_save > SAVE_EVERY_S:
                tournament.spent_s = spent_before + time.monotonic() - started
                tournament.save(out)
                last_save = time.monotonic()
    finally:
        tournament.spent_s = spent_before + time.monotonic() - started
        tournament.games.sort(key=lambda g: (g.lineup, g.number))
        if out is not None:
            tournament.save(out)
        if writer is not None:
            writer.close()
    return tournament
