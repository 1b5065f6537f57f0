"""Agents think in worker processes, so a move can be stopped: when it overruns its time, or the server stops.

A thread cannot be interrupted in the middle of a search; a process can be
killed. Each worker is a process forked from a server that has already
imported the games and agents (``forkserver`` with those modules preloaded),
so starting one again after a kill takes milliseconds. A job carries a game's
setup and action list; the worker keeps each game's session (and its agents,
with their trees and caches) between jobs and applies only the new actions.

The server's side is asynchronous: a job is sent down a pipe, and the answer
is awaited with ``asyncio`` (the pipe's reader registered on the event loop),
so no thread blocks on a worker and a cancelled or overrun job just kills its
process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.forkserver
import signal
import threading
import zlib
from dataclasses import dataclass, field
from typing import Any

from boardzero.play.session import HINT_FALLBACKS, GameSession, agent_for, win_chances
from boardzero.play.workers import SessionCache

log = logging.getLogger("boardzero.web")
PRELOAD = [
    "boardzero.web.workers",
    "boardzero.games.catan.game",
    "boardzero.agents.az",
    "boardzero.agents.td",
    "boardzero.agents.best",
    "boardzero.agents.mcts_agent",
    "boardzero.agents.catan_bots",
]
SESSIONS_KEPT = 128  # games whose sessions (and agents) a worker keeps between jobs


@dataclass(frozen=True)
class Job:
    """One decision to compute: the agent to move in a game (``hint`` None), or a hint for the seat to move."""

    key: str  # the game's id: the worker keeps that game's session between jobs
    game: str
    options: dict
    seed: int
    seats: list[str]
    actions: list[int]
    hint: str | None = None  # the hint agent's spec ('' for the default chain)
    top: int = 3
    extra: dict = field(default_factory=dict)


class MoveOverrun(Exception):
    """The job ran past its time; its worker was killed."""


class WorkerFailed(Exception):
    """The job raised in the worker (its message says what), or the worker died."""


# ---------------------------------------------------------------------------------------------- worker side
class _Computer:
    """What one worker process keeps: sessions per game (``play.workers.SessionCache``) and hint agents per
    game setup."""

    def __init__(self):
        self.sessions = SessionCache(SESSIONS_KEPT)
        self.hint_agents: dict[str, tuple] = {}

    def compute(self, job: Job) -> Any:
        session = self.sessions.session(job.key, job.game, job.options, job.seed, job.seats, job.actions)
        if job.hint is None:
            return session.choose()
        return self.advise(session, job)

    def advise(self, session: GameSession, job: Job) -> dict:
        key = repr((job.game, sorted(job.options.items()), job.hint))
        if key not in self.hint_agents:
            self.hint_agents[key] = agent_for(session.game, job.hint, HINT_FALLBACKS)
        spec_used, agent = self.hint_agents[key]
        seat = session.state.current_player
        view = session.seat_view(seat)
        advice = agent.advise(view, session.rng(), top=job.top)
        chances = None if advice.values is None else win_chances(session.game, advice.values)
        moves = [
            {
                "action": m.action,
                "name": view.action_name(m.action),
                "weight": m.weight,
                "win_chance": None if m.value is None else win_chances(session.game, [m.value])[0],
            }
            for m in advice.moves
        ]
        return {"agent": spec_used, "moves": moves, "win_chances": chances}


def serve_jobs(conn) -> None:
    """A worker's loop: answer each job with ("ok", result) or ("error", message) until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the server, which stops its workers
    computer = _Computer()
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        try:
            answer = ("ok", computer.compute(job))
        except Exception as exc:  # reported to the server, which stops that game visibly
            answer = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(answer)


# ---------------------------------------------------------------------------------------------- server side
class _Worker:
    def __init__(self, context, number: int):
        self.context, self.number = context, number
        self.process = None
        self.conn = None
        self.closed = False  # the server stops: a start still under way kills what it started
        self._lock = threading.Lock()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()

    def start(self) -> None:
        """Start the process (blocking while the fork server starts the first time)."""
        ours, theirs = self.context.Pipe()
        process = self.context.Process(
            target=serve_jobs, args=(theirs,), name=f"boardzero-agent-{self.number}", daemon=True
        )
        process.start()
        theirs.close()
        with self._lock:
            self.process, self.conn = process, ours
            if self.closed:
                self._kill()
                raise WorkerFailed("the server is stopping")

    def kill(self) -> None:
        with self._lock:
            self._kill()

    def _kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
            self.process = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    async def receive(self) -> tuple[str, Any]:
        """The worker's next message, awaited on the event loop."""
        loop = asyncio.get_running_loop()
        answer = loop.create_future()
        fd = self.conn.fileno()

        def ready():
            loop.remove_reader(fd)
            if answer.done():
                return
            try:
                answer.set_result(self.conn.recv())
            except (EOFError, OSError) as exc:
                answer.set_exception(WorkerFailed(f"the agent worker died ({type(exc).__name__})"))

        loop.add_reader(fd, ready)
        try:
            return await answer
        finally:
            loop.remove_reader(fd)


class AgentWorkers:
    """``count`` worker processes; ``await run(job)`` answers a job within ``seconds`` or raises."""

    def __init__(self, count: int, seconds: float):
        self.seconds = seconds
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(PRELOAD)
        self.workers = [_Worker(self.context, i) for i in range(count)]
        self.idle = list(self.workers)
        self.freed: asyncio.Condition | None = None
        self.closed = False

    async def run(self, job: Job) -> Any:
        """The job's answer, from the game's own worker when it is free (its session and agents
        are ready there), else from any free worker."""
        if self.closed:
            raise WorkerFailed("the server is stopping")
        if self.freed is None:
            self.freed = asyncio.Condition()
        async with self.freed:
            await self.freed.wait_for(lambda: bool(self.idle))
            home = self.workers[zlib.crc32(job.key.encode()) % len(self.workers)]
            worker = home if home in self.idle else self.idle[0]
            self.idle.remove(worker)
        try:
            return await self._run_on(worker, job)
        finally:
            async with self.freed:
                self.idle.append(worker)
                self.freed.notify()

    def warm(self) -> None:
        """Start the fork server now (it imports the games and agents for a few seconds), not at the first move."""
        threading.Thread(
            target=multiprocessing.forkserver.ensure_running, daemon=True, name="boardzero-forkserver"
        ).start()

    async def _run_on(self, worker: _Worker, job: Job) -> Any:
        if not worker.alive:
            worker.kill()
            await _in_daemon_thread(worker.start)  # a stopping server does not wait for a start under way
            try:
                kind, _ = await worker.receive()  # the fork server's first start imports torch: not timed
            except BaseException:
                worker.kill()
                raise
        worker.conn.send(job)
        try:
            kind, result = await asyncio.wait_for(worker.receive(), self.seconds)
        except TimeoutError:
            worker.kill()
            raise MoveOverrun(f"no answer within {self.seconds:g} s (move_seconds)") from None
        except BaseException:  # cancelled (the game ended, the server stops) or the worker died
            worker.kill()
            raise
        if kind != "ok":
            raise WorkerFailed(result)
        return result

    def close(self) -> None:
        """Kill every worker at once, whatever it is computing."""
        self.closed = True
        for worker in self.workers:
            worker.closed = True
            worker.kill()


def _in_daemon_thread(function) -> asyncio.Future:
    """Run ``function`` in a daemon thread (which never holds up the process's exit) and await its result."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def settle(result, error):
        if not future.done():
            future.set_exception(error) if error is not None else future.set_result(result)

    def target():
        result, error = None, None
        try:
            result = function()
        except BaseException as exc:
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=target, daemon=True, name="boardzero-worker-start").start()
    return future
