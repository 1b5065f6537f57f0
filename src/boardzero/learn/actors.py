"""Self-play actors, the same for every method, behind one interface with two backends.

An actor runs a method's ``Worker`` in a loop: take the newest weights
published by the learner, play, and send what finished games produced, tagged
with the weights' version. The learner sees an ``ActorPool``: ``publish``
weights, ``collect`` samples, ``close``. ``LocalActorPool`` runs the actors as
processes on this machine (one queue per actor for weights, one shared queue
for samples; an actor stops with the learner); the ``ray`` backend
(``boardzero.integrations.ray``) runs them as Ray actors on a cluster.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import pickle
import queue
import time
from typing import Any, Protocol

import numpy as np
import torch

from boardzero.core.registry import make, resolve
from boardzero.learn.backends import BACKENDS
from boardzero.learn.config import config_from_dict
from boardzero.learn.methods import method_class
from boardzero.nn.checkpoint import load_state
from boardzero.nn.nets import NetworkSpec, build_network
from boardzero.nn.precision import resolve as resolve_precision

Delivery = tuple[int, int, dict[str, np.ndarray]]  # (weights version, games finished, samples)


class ActorPool(Protocol):
    """What the learner needs of its actors, whatever runs them. A backend (``BACKENDS``) is a class with
    ``from_config(selfplay, method, payload)`` that opens one."""

    def publish(self, version: int, payload: Any) -> None:
        """Hand every actor ``payload`` (the method's weights and the like) as version ``version``."""

    def collect(self, wait: float) -> list[Delivery]:
        """(version, games, samples) sent since the last call; waits up to ``wait`` seconds for the first."""

    def stats(self) -> dict[str, float]:
        """Counters for the metrics (``actors/...``)."""

    def close(self) -> None:
        """Stop every actor."""


def open_actor_pool(selfplay, method: str, payload: dict[str, Any]) -> ActorPool:
    """The pool of ``selfplay.actors`` actors on the configured backend (``selfplay`` is a ``SelfPlayConfig``)."""
    return resolve(BACKENDS, selfplay.backend, "backend").from_config(selfplay, method, payload)


class Worker(Protocol):
    """One actor's self-play for a method (see the method modules)."""

    def load(self, version: int, payload: Any) -> None:
        """Take new weights (and whatever else the learner publishes)."""

    games_finished: int  # games this worker has finished so far

    def step(self) -> list[dict[str, np.ndarray]]:
        """Advance the actor's games; return the samples ready to send (dicts of arrays with the same keys)."""


class BatchedWorker:
    """What a worker over a batch of games with one network needs: the validated config, the game, the network
    (rebuilt from its spec), a generator and the batched games seeded from the actor's id and the run's start
    count, ``load_weights`` for published weights and ``run_file`` for files of the run directory. TD and PPO
    workers build on it."""

    def __init__(self, actor_id: int, payload: dict[str, Any]):
        config = self.run_config = config_from_dict(payload["config"])
        self.precision = resolve_precision(config.selfplay.precision)
        self.game = make(config.game, **config.game_options)
        self.spec = NetworkSpec.from_dict(payload["network"])
        self.net = build_network(self.spec).eval()
        seed = int(
            np.random.default_rng([config.selfplay.seed, actor_id, payload.get("generation", 0)]).integers(2**31)
        )
        self.rng = np.random.default_rng(seed)
        self.env = self.game.batched(
            config.selfplay.games_per_actor, seed=seed, observation_key=self.spec.observation_key
        )
        self.env.reset()
        self.games_finished = 0
        self.fetch_run_file = payload.get("fetch_run_file")  # set by a backend whose actors may not see the run

    def run_file(self, path: str) -> str:
        """A readable path to ``path``, a file of the run directory: itself, unless the backend copies it to
        actors on machines that cannot see the run directory."""
        return self.fetch_run_file(path) if self.fetch_run_file is not None else path

    def load_weights(self, version: int, weights: dict[str, np.ndarray]) -> None:
        load_state(self.net, weights, f"weights version {version}")
        self.net.eval()


class Outbox:
    """A worker and what its actor has not sent yet: samples, games finished, and the version of the weights that
    played them. Both backends' actors play through it."""

    def __init__(self, worker: Worker):
        self.worker = worker
        self.version = -1
        self.pending: list[dict[str, np.ndarray]] = []
        self.sent_games = 0

    def load(self, version: int, payload: Any) -> None:
        self.worker.load(version, payload)
        self.version = version

    def play(self) -> None:
        self.pending.extend(self.worker.step())

    def has_samples(self) -> bool:
        return bool(self.pending)

    def take(self) -> Delivery:
        """What was played since the last ``take``: (version, games finished, samples; empty when none)."""
        pending, self.pending = self.pending, []
        batch = {k: np.concatenate([p[k] for p in pending]) for k in pending[0]} if pending else {}
        games, self.sent_games = self.worker.games_finished - self.sent_games, self.worker.games_finished
        return self.version, games, batch


class LocalActorPool:
    """``count`` spawned processes running ``actor_main(method, ...)``."""

    def __init__(self, method: str, count: int, payload: dict[str, Any]):
        context = mp.get_context("spawn")
        self.stop = context.Event()
        self.samples = context.Queue()
        self.weight_queues = [context.Queue() for _ in range(count)]
        self.processes = [
            context.Process(
                target=actor_main,
                args=(method, i, payload, q, self.samples, self.stop),
                daemon=True,
                name=f"boardzero-actor-{i}",
            )
            for i, q in enumerate(self.weight_queues)
        ]
        for process in self.processes:
            process.start()
        self.cut = False  # a read of the samples queue was interrupted: what is left in its pipe is not whole

    @classmethod
    def from_config(cls, selfplay, method: str, payload: dict[str, Any]) -> LocalActorPool:
        return cls(method, selfplay.actors, payload)

    def publish(self, version: int, payload: Any) -> None:
        for q in self.weight_queues:
            q.put((version, payload))

    def collect(self, wait: float) -> list[Delivery]:
        received: list[Delivery] = []
        deadline = time.monotonic() + wait
        while True:
            try:
                if not received and wait > 0:
                    item = self.samples.get(timeout=max(deadline - time.monotonic(), 0.001))
                else:
                    item = self.samples.get_nowait()
            except queue.Empty:
                break
            except BaseException:  # e.g. a second Ctrl-C in the middle of a message
                self.cut = True
                raise
            _, version, games, batch = item
            received.append((version, games, batch))
        if not received:
            for process in self.processes:
                if not process.is_alive():
                    raise RuntimeError(f"self-play process {process.name} died (exit code {process.exitcode})")
        return received

    def stats(self) -> dict[str, float]:
        return {}

    def close(self) -> None:
        self.stop.set()
        deadline = time.monotonic() + 10.0
        while not self.cut and any(p.is_alive() for p in self.processes) and time.monotonic() < deadline:
            if not drain_one(self.samples):
                break
        for process in self.processes:
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)
        for q in [self.samples, *self.weight_queues]:
            q.cancel_join_thread()
            q.close()


def drain_one(samples, timeout: float = 0.1) -> bool:
    """Read and drop one message from ``samples`` so that no exiting actor blocks on a full pipe. False when the
    queue cannot be read any more (a message cut off when its writer or reader was stopped mid-way): the rest
    is left to ``terminate``."""
    try:
        samples.get(timeout=timeout)
    except queue.Empty:
        pass
    except (EOFError, OSError, ValueError, pickle.UnpicklingError):
        return False
    return True


def actor_main(method: str, actor_id: int, payload: dict[str, Any], weights_queue, sample_queue, stop_event) -> None:
    """Entry point of a self-play process: wait for weights, then play and send samples until told to stop."""
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C reaches the whole process group; the learner saves
        _actor_loop(method, actor_id, payload, weights_queue, sample_queue, stop_event)


def build_outbox(method: str, actor_id: int, payload: dict[str, Any]) -> Outbox:
    """The worker of ``method`` for one actor, on one thread (actors are one per core)."""
    torch.set_num_threads(1)
    return Outbox(method_class(method).worker(actor_id, payload))


def _actor_loop(method: str, actor_id: int, payload: dict[str, Any], weights_queue, sample_queue, stop_event) -> None:
    outbox = build_outbox(method, actor_id, payload)
    parent = mp.parent_process()

    def send() -> None:
        sample_queue.put((actor_id, *outbox.take()))

    def refresh(block: bool) -> None:
        latest = None
        while True:
            try:
                latest = weights_queue.get(block=block and latest is None, timeout=1.0 if block else None)
            except queue.Empty:
                break
            block = False
        if latest is not None:
            if outbox.has_samples():  # samples are tagged with the weights that played them
                send()
            outbox.load(*latest)

    while outbox.version < 0 and not stop_event.is_set():
        if parent is not None and not parent.is_alive():
            return
        refresh(block=True)
    last_send = time.monotonic()
    while not stop_event.is_set():
        if parent is not None and not parent.is_alive():  # the learner was killed: stop with it
            return
        refresh(block=False)
        outbox.play()
        if outbox.has_samples() and time.monotonic() - last_send > 1.0:
            send()
            last_send = time.monotonic()
