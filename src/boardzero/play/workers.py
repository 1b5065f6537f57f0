"""Play many games in worker processes (or in this one, or in Ray actors), each worker set up once.

A ``setup(*args)`` function builds what the workers need (the game, the agents) into a module-level cache;
``play(task)`` plays one task with it. With one local worker both run here, with no process pool. The
``"ray"`` backend runs the same two functions in Ray actors (``boardzero.integrations.ray``); a task's result
depends on the task alone, so it is the same on either backend.

A worker that answers moves of games going on elsewhere (the web server's agent workers) keeps their sessions
in a ``SessionCache``: each task names its game's record, and the worker brings the session it kept up to date
with the record's new actions instead of replaying the game.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from boardzero.core.registry import make, resolve
from boardzero.play.records import replay
from boardzero.play.session import GameSession


@dataclass(frozen=True)
class TaskBackend:
    """Where ``run_tasks`` plays: ``run`` has ``run_tasks``' arguments; ``check()`` raises a ConfigError when
    this install cannot use it (a missing extra)."""

    run: Callable[..., Iterable[Any]]
    check: Callable[[], Any] = lambda: None


BACKENDS: dict[str, str | TaskBackend] = {
    "local": "boardzero.play.workers:LOCAL",
    "ray": "boardzero.integrations.ray:RAY_TASKS",  # needs the ray extra
}


def start_worker(setup: Callable[..., None], args: tuple) -> None:
    """Set a worker up: one torch thread (the workers are the parallelism), then ``setup(*args)``."""
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:  # pragma: no cover - torch is a dependency, but playing games does not need it
        pass
    setup(*args)


def run_tasks(
    setup: Callable[..., None],
    args: tuple,
    play: Callable[[Any], Any],
    tasks: Sequence,
    workers: int | None = None,
    *,
    chunksize: int | None = None,
    backend: str = "local",
    address: str = "",
) -> Iterable[Any]:
    """Results of ``play`` over ``tasks`` in the order they finish; ``setup`` and ``play`` must be module-level
    functions (they are sent to spawned processes or Ray actors by name). ``workers``: processes (default: one
    per core) or Ray actors (default: one per CPU of the cluster at ``address``); ``chunksize``: tasks sent to a
    worker at once (default: about 20 chunks per worker)."""
    return check_backend(backend).run(setup, args, play, tasks, workers, chunksize, address)


def check_backend(backend: str) -> TaskBackend:
    """The backend named ``backend``; a ConfigError naming the backends, or the extra to install, unless this
    install can use it."""
    found = resolve(BACKENDS, backend, "backend")
    found.check()
    return found


def chunk_size(tasks: Sequence, workers: int, chunksize: int | None) -> int:
    return chunksize or max(1, len(tasks) // (workers * 20))


def local_tasks(
    setup: Callable[..., None],
    args: tuple,
    play: Callable[[Any], Any],
    tasks: Sequence,
    workers: int | None,
    chunksize: int | None,
    address: str = "",
) -> Iterable[Any]:
    """``run_tasks`` in processes of this machine."""
    workers = min(workers or os.cpu_count() or 1, len(tasks))
    if workers <= 1:
        start_worker(setup, args)
        yield from map(play, tasks)
        return
    context = mp.get_context("spawn")
    with context.Pool(workers, initializer=start_worker, initargs=(setup, args)) as pool:
        yield from pool.imap_unordered(play, tasks, chunksize=chunk_size(tasks, workers, chunksize))


LOCAL = TaskBackend(local_tasks)


class SessionCache:
    """The sessions (with their agents, and the agents' trees and caches) of the newest ``size`` games a worker
    has seen, by key (a game's id)."""

    def __init__(self, size: int):
        self.size = size
        self.sessions: OrderedDict[str, GameSession] = OrderedDict()

    def session(
        self, key: str, game: str, options: dict, seed: int | None, seats: list[str], actions: list[int]
    ) -> GameSession:
        """The session of the game ``key`` with agents for ``seats`` after ``actions``: the one kept, with the
        actions it has not applied yet, or the game replayed from its record when none is kept, its seats
        changed (a person resigned) or its actions went another way (an undo)."""
        session = self.sessions.pop(key, None)
        if session is None or session.seats != seats or session.actions != actions[: session.ply]:
            played = make(game, **options)
            record = {"game": played.name, "options": played.options_dict(), "seed": seed, "seats": seats}
            session = replay(dict(record, actions=actions), played, with_agents=True)
        else:
            for action in actions[session.ply :]:
                session.apply(action)
        self.sessions[key] = session
        while len(self.sessions) > self.size:
            self.sessions.popitem(last=False)
        return session
