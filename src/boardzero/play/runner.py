"""The one match runner: the arena, tournaments and training's evaluations play their games here.

A match is a list of ``MatchGame``s: who sits in each seat (``play.rotation``, the one seat rotation) and
the key the game's randomness comes from. A ``Table`` holds a game and its entrants' agents, built once
(one agent object per seat an entrant fills, as agents may keep per-seat state) and reset before every
game; each game is a ``GameSession`` played to its end. ``run_match`` plays the games in worker processes
(or Ray actors, ``play.workers``), each with its own ``Table``; ``Table.play`` plays one here.

Randomness, from the game's key alone (so a result depends neither on the worker nor on the games before):
the setup seed is the first draw of ``default_rng(key)``; the agents draw from the rest of that stream;
every chance outcome comes from the session's own stream keyed by the setup seed, the outcome's lane and the
count drawn in that lane, never from the agents' draws (common random numbers: two games with the same key
roll the same k-th dice, whichever agents play them and however their moves differ).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.api import Game, State
from boardzero.core.registry import make
from boardzero.play.opening import RandomOpening
from boardzero.play.session import GameSession
from boardzero.play.workers import run_tasks

MAX_STEPS = 1_000_000  # a game still going after this many steps is an error


@dataclass(frozen=True)
class MatchGame:
    """One game of a match."""

    key: tuple[int, ...]  # its setup seed, the agents' stream and (through the seed) its chance come from this
    seats: tuple[str, ...]  # the entrant in each seat (``play.rotation``)
    opening: tuple[int, ...] | None = None  # key of the stream of the random opening moves, shared by every seat
    tag: Any = None  # the caller's label of the game (an arena index, a tournament's lineup and number)


Finish = Callable[[GameSession, MatchGame], Any]


def keep_session(session: GameSession, task: MatchGame) -> GameSession:
    """The default ``finish``: the played session itself (in this process only: sessions hold agents)."""
    return session


class Table:
    """A game and its entrants' agents, built once per worker; ``play`` plays one ``MatchGame`` on it."""

    def __init__(
        self,
        game: Game,
        entrants: Mapping[str, Callable[[], Agent]],
        *,
        opening_plies: int = 0,
        finish: Finish = keep_session,
    ):
        """``entrants``: a name -> agent factory, called once per seat the entrant fills (and kept)."""
        self.game, self.entrants, self.opening_plies, self.finish = game, dict(entrants), opening_plies, finish
        self._agents: dict[tuple[str, int], Agent] = {}

    def agents_for(self, seats: Sequence[str]) -> list[Agent]:
        """The agent of each seat: an entrant's k-th seat in the game gets its k-th agent object."""
        agents = []
        for seat, name in enumerate(seats):
            copy = seats[:seat].count(name)
            if (name, copy) not in self._agents:
                self._agents[name, copy] = self.entrants[name]()
            agents.append(self._agents[name, copy])
        return agents

    def session(self, task: MatchGame) -> GameSession:
        """The game of ``task`` set up, its agents reset, nothing played yet."""
        agents = self.agents_for(task.seats)
        for agent in agents:
            agent.reset()
        if self.opening_plies:
            opening = None if task.opening is None else np.random.default_rng(list(task.opening))
            agents = [RandomOpening(agent, self.opening_plies, opening) for agent in agents]
        rng = np.random.default_rng(list(task.key))
        return GameSession(
            self.game,
            [agent.spec for agent in agents],
            seed=int(rng.integers(2**31)),
            agents=dict(enumerate(agents)),
            agent_rng=rng,
            keep_log=False,
        )

    def play(self, task: MatchGame) -> Any:
        """Play ``task`` to its end and return ``finish(session, task)``."""
        session = self.session(task)
        session.advance(MAX_STEPS)
        if not session.state.is_terminal():
            raise RuntimeError(f"{self.game.name} did not end within {MAX_STEPS} steps")
        return self.finish(session, task)


def spec_entrants(game: Game, specs: Mapping[str, str]) -> dict[str, Callable[[], Agent]]:
    """Entrants built from agent specs (name -> spec)."""
    return {name: _factory(spec, game) for name, spec in specs.items()}


def _factory(spec: str, game: Game) -> Callable[[], Agent]:
    return lambda: make_agent(spec, game)


def record_of(session: GameSession, **extra: Any) -> dict[str, Any]:
    """A played game's record (``State.to_record``) with the agent spec of each seat and ``extra`` fields."""
    return dict(session.state.to_record(), agents=list(session.seats), **extra)


# The worker cache: each worker process (or this one) builds its Table once.
_WORKER: dict[str, Table] = {}


def _set_table(game_name: str, options: dict, specs: dict[str, str], opening_plies: int, finish: Finish) -> None:
    # networks built here run on one thread each (nn.threads, applied by load_network): one process per core
    game = make(game_name, **options)
    _WORKER["table"] = Table(game, spec_entrants(game, specs), opening_plies=opening_plies, finish=finish)


def _play(task: MatchGame) -> Any:
    return _WORKER["table"].play(task)


def run_match(
    game_name: str,
    options: dict,
    specs: Mapping[str, str],
    tasks: Sequence[MatchGame],
    *,
    finish: Finish,
    opening_plies: int = 0,
    workers: int | None = None,
    chunksize: int | None = None,
    backend: str = "local",
    address: str = "",
) -> Iterable[Any]:
    """``finish(session, task)`` of every game of ``tasks``, in the order they end, played by the agents of
    ``specs`` (entrant name -> agent spec) in ``workers`` processes (default: one per core) or Ray actors
    (``play.workers.run_tasks``). ``finish`` must be a module-level function (workers get it by name) and
    return something picklable."""
    return run_tasks(
        _set_table,
        (game_name, dict(options), dict(specs), opening_plies, finish),
        _play,
        tasks,
        workers,
        chunksize=chunksize,
        backend=backend,
        address=address,
    )


def play_game(
    game: Game,
    agents: Sequence[Agent],
    rng: np.random.Generator,
    *,
    seed: int | None = None,
    on_step: Callable[[State, int, int], None] | None = None,
    max_steps: int = MAX_STEPS,
) -> State:
    """One game of agents already built (``agents[seat]`` plays each seat), played to the end through a
    ``GameSession``; returns the final state. The agents draw from ``rng``; the setup seed is ``seed`` (else
    drawn from ``rng``) and chance from the seed (``GameSession``). ``on_step(state before, player, action)`` is
    called before each step."""
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    for agent in agents:
        agent.reset()
    seed = int(rng.integers(2**31)) if seed is None else seed
    session = GameSession(
        game, [agent.spec for agent in agents], seed=seed, agents=dict(enumerate(agents)), agent_rng=rng, keep_log=False
    )
    session.advance(max_steps, on_step)
    if not session.state.is_terminal():
        raise RuntimeError(f"{game.name} did not end within {max_steps} steps")
    return session.state
