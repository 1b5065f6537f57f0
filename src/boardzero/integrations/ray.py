"""Self-play actors and arena games on a Ray cluster (``--backend ray``; ``pip install 'boardzero[ray]'``).

The same code runs on a laptop and on a cluster: ``ray.init(address=...)``
joins the cluster that ``ray start`` made (or ``RAY_ADDRESS``) and starts a
local Ray instance when there is none. The learner stays in the calling process
on one node.

Training: ``RayActorPool`` is the runtime's ``ActorPool`` with Ray actors.

- Weights go through Ray's object store once per publication (``ray.put``) and
  travel as a reference with their version; an actor fetches them only when
  the version changed, from its node's copy of the object.
- Each actor plays for about ``seconds_per_call`` per call and returns what
  it has (samples tagged with the version that played them, and games
  finished); the learner keeps one call in flight per actor, so the actors
  take new weights at least that often.
- An actor that dies (its process or its node) is replaced by a new one with
  a new id, so its seeds differ; what it played since its last delivery is
  lost, never counted. The learner keeps training meanwhile. A learner that
  dies takes its actors with it; ``boardzero train`` with the same run
  directory resumes from the newest checkpoint and starts new actors.

Matches: ``RAY_TASKS`` is the ``play.workers`` backend that plays arena and
tournament games in Ray actors; a game depends on its seed and index alone,
so the result is the local one.

Ray is imported only when one of these is used; without it they raise a
``ConfigError`` naming the extra.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from boardzero.core.errors import ConfigError
from boardzero.learn.actors import Delivery, build_outbox
from boardzero.play.workers import TaskBackend, chunk_size, start_worker

INSTALL_HINT = "pip install 'boardzero[ray]'"
MAX_CONSECUTIVE_DEATHS = 3  # an actor slot whose replacements die this often without delivering stops the run


def require_ray():
    """The ``ray`` module, or a ConfigError naming the extra to install."""
    try:
        import ray
    except ImportError:
        raise ConfigError("backend", f"the ray backend needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def connect(address: str = "") -> bool:
    """Join the Ray cluster at ``address`` (see ``selfplay.ray_address``) unless this process already did;
    True when this call connected (and ``disconnect`` should undo it)."""
    ray = require_ray()
    if ray.is_initialized():
        return False
    try:
        ray.init(address=address or None, logging_level="warning", include_dashboard=False)
    except ConnectionError as exc:
        raise ConfigError("ray_address", f"cannot reach a Ray cluster at {address!r}: {exc}") from None
    return True


def disconnect(connected: bool) -> None:
    if connected:
        require_ray().shutdown()


def serve_run_files(run: str):
    """A ``RunFiles`` actor on this (the learner's) node."""
    ray = require_ray()
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = NodeAffinitySchedulingStrategy(node_id=ray.get_runtime_context().get_node_id(), soft=False)
    return ray.remote(num_cpus=0)(RunFiles).options(scheduling_strategy=here).remote(run, os.getcwd())


def cluster_cpus() -> int:
    return max(1, int(require_ray().cluster_resources().get("CPU", 1)))


class RunFiles:
    """Serves files of the learner's run directory (e.g. the PPO bank's networks) to actors on nodes that cannot
    see it; a Ray actor on the learner's node."""

    def __init__(self, run: str, directory: str):
        follow_directory(directory)  # paths the actors ask for may be relative to the learner's directory
        self.root = Path(run).resolve()

    def read(self, path: str) -> dict[str, bytes]:
        """The file ``path`` and its siblings of the same stem (a checkpoint's JSON and weights)."""
        target = Path(path).resolve()
        if self.root not in target.parents:
            raise ConfigError("path", f"{path} is not inside the run directory {self.root}")
        return {p.name: p.read_bytes() for p in sorted(target.parent.glob(target.stem + ".*"))}


class FetchRunFile:
    """``run_file`` for workers on any node: the path itself where it exists, else a copy fetched from the
    learner's node into a folder of this process (fetched once per path)."""

    def __init__(self, server):
        self.server = server
        self.folder: Path | None = None

    def __call__(self, path: str) -> str:
        return path if os.path.exists(path) else self.copy(path)

    def copy(self, path: str) -> str:
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="boardzero-run-files-"))
        local = self.folder / Path(path).name
        if not local.is_file():
            files = require_ray().get(self.server.read.remote(path))
            for name in sorted(files, key=lambda n: n == local.name):  # the file asked for last: it completes a copy
                partial = self.folder / (name + ".partial")
                partial.write_bytes(files[name])
                partial.replace(self.folder / name)
        return str(local)


def follow_directory(directory: str) -> None:
    """Work in the driver's directory where this node has it, so relative paths (run directories, agent specs)
    mean what they mean to the driver, as they do for local processes."""
    if os.path.isdir(directory):
        os.chdir(directory)


class SelfPlayActor:
    """One self-play actor as a Ray actor: a method's worker behind an ``Outbox``."""

    def __init__(self, method: str, actor_id: int, payload: dict[str, Any], directory: str):
        follow_directory(directory)
        self.outbox = build_outbox(method, actor_id, payload)

    def play(self, version: int, boxed_payload: list, seconds: float) -> Delivery:
        """Load weights ``version`` if they are new (``boxed_payload``: ``[ObjectRef]``, fetched only then), play
        for about ``seconds`` and return what was played."""
        if version != self.outbox.version:
            self.outbox.load(version, require_ray().get(boxed_payload[0]))
        deadline = time.monotonic() + seconds
        self.outbox.play()
        while time.monotonic() < deadline:
            self.outbox.play()
        return self.outbox.take()

    def pid(self) -> int:
        return os.getpid()


@dataclasses.dataclass
class _Slot:
    actor: Any  # the Ray actor handle
    actor_id: int  # what its seeds come from
    deaths: int = 0  # since its last delivery


class RayActorPool:
    """``count`` self-play Ray actors (one CPU each) behind the runtime's ``ActorPool`` interface."""

    def __init__(
        self, method: str, count: int, payload: dict[str, Any], *, address: str = "", seconds_per_call: float = 1.0
    ):
        ray = self.ray = require_ray()
        self.connected = connect(address)
        self.method, self.seconds_per_call = method, seconds_per_call
        self.files = serve_run_files(payload["run"]) if payload.get("run") else None
        self.payload = {**payload, "fetch_run_file": FetchRunFile(self.files)} if self.files is not None else payload
        self.actor_class = ray.remote(num_cpus=1, max_restarts=0)(SelfPlayActor)
        self.next_id = 0
        self.slots = [self._new_slot() for _ in range(count)]
        self.in_flight: dict[Any, _Slot] = {}  # call -> slot
        self.latest: tuple[int, list] | None = None  # (version, [ObjectRef of the payload])
        self.restarts = 0
        self.delivered: dict[int, tuple[int, int]] = {}  # actor id -> (games, samples) it delivered

    @classmethod
    def from_config(cls, selfplay, method: str, payload: dict[str, Any]) -> RayActorPool:
        return cls(method, selfplay.actors, payload, address=selfplay.ray_address)

    def _new_slot(self) -> _Slot:
        self.next_id += 1
        actor = self.actor_class.remote(self.method, self.next_id - 1, self.payload, os.getcwd())
        return _Slot(actor, self.next_id - 1)

    def publish(self, version: int, payload: Any) -> None:
        self.latest = (version, [self.ray.put(payload)])
        self._submit_idle()

    def _submit_idle(self) -> None:
        if self.latest is None:
            return
        busy = {id(slot) for slot in self.in_flight.values()}
        for slot in self.slots:
            if id(slot) not in busy:
                self.in_flight[slot.actor.play.remote(*self.latest, self.seconds_per_call)] = slot

    def collect(self, wait: float) -> list[Delivery]:
        self._submit_idle()
        calls = list(self.in_flight)
        if not calls:
            return []
        done, _ = self.ray.wait(calls, num_returns=1, timeout=wait)
        if done:
            done, _ = self.ray.wait(calls, num_returns=len(calls), timeout=0)
        received = []
        for call in done:
            slot = self.in_flight.pop(call)
            try:
                delivery = self.ray.get(call)
            except self.ray.exceptions.RayActorError as exc:
                self._replace(slot, exc)
                continue
            slot.deaths = 0
            received.append(delivery)
            self._count(slot.actor_id, delivery)
        self._submit_idle()
        return received

    def _count(self, actor_id: int, delivery: Delivery) -> None:
        _, games, batch = delivery
        before = self.delivered.get(actor_id, (0, 0))
        self.delivered[actor_id] = (before[0] + games, before[1] + (len(next(iter(batch.values()))) if batch else 0))

    def _replace(self, slot: _Slot, error: Exception) -> None:
        """Put a new actor (with a new id, so new seeds) in the place of one that died."""
        slot.deaths += 1
        if slot.deaths > MAX_CONSECUTIVE_DEATHS:
            raise RuntimeError(
                f"self-play Ray actor {slot.actor_id} died {slot.deaths} times in a row without delivering: {error}"
            )
        self.ray.kill(slot.actor, no_restart=True)
        replacement = self._new_slot()
        slot.actor, slot.actor_id = replacement.actor, replacement.actor_id
        self.restarts += 1

    def actor_pids(self) -> list[int]:
        """Process ids of the actors, per slot (for tests and diagnostics)."""
        return self.ray.get([slot.actor.pid.remote() for slot in self.slots])

    def stats(self) -> dict[str, float]:
        return {"actors/restarts": float(self.restarts)}

    def close(self) -> None:
        for slot in self.slots:
            self.ray.kill(slot.actor, no_restart=True)
        if self.files is not None:
            self.ray.kill(self.files, no_restart=True)
        self.slots, self.in_flight = [], {}
        disconnect(self.connected)


class TaskActor:
    """A Ray actor that plays tasks of ``play.workers.run_tasks`` (arena or tournament games), in chunks."""

    def __init__(self, setup, args: tuple, directory: str):
        follow_directory(directory)
        start_worker(setup, args)

    def play(self, play, tasks: list) -> list:
        return [play(task) for task in tasks]


def ray_tasks(
    setup, args: tuple, play, tasks: Sequence, workers: int | None, chunksize: int | None, address: str = ""
) -> Iterator:
    """``run_tasks`` in ``workers`` Ray actors (default: one per CPU of the cluster), results in any order. A chunk
    whose actor dies is played again by a new actor; its results were not delivered, so none counts twice."""
    require_ray()
    return _ray_task_results(setup, args, play, list(tasks), workers, chunksize, address)


def _ray_task_results(
    setup, args: tuple, play, tasks: list, workers: int | None, chunksize: int | None, address: str
) -> Iterator:
    ray = require_ray()
    connected = connect(address)
    actor_class = ray.remote(num_cpus=1, max_restarts=0)(TaskActor)
    actors: list[Any] = []
    try:
        count = min(workers or cluster_cpus(), len(tasks))
        size = chunk_size(tasks, max(count, 1), chunksize)
        waiting = [tasks[i : i + size] for i in range(0, len(tasks), size)][::-1]  # popped from the end
        actors = [actor_class.remote(setup, args, os.getcwd()) for _ in range(count)]
        in_flight: dict[Any, tuple[int, list]] = {}  # call -> (slot, chunk)

        def submit(slot: int) -> None:
            if waiting:
                chunk = waiting.pop()
                in_flight[actors[slot].play.remote(play, chunk)] = (slot, chunk)

        for slot in range(count):
            submit(slot)
        deaths = 0
        while in_flight:
            (call,), _ = ray.wait(list(in_flight), num_returns=1)
            slot, chunk = in_flight.pop(call)
            try:
                yield from ray.get(call)
            except ray.exceptions.RayActorError as exc:
                deaths += 1
                if deaths > MAX_CONSECUTIVE_DEATHS * count:
                    raise RuntimeError(f"Ray actors playing games died {deaths} times: {exc}") from None
                ray.kill(actors[slot], no_restart=True)
                actors[slot] = actor_class.remote(setup, args, os.getcwd())
                waiting.append(chunk)
            submit(slot)
    finally:
        for actor in actors:
            ray.kill(actor, no_restart=True)
        disconnect(connected)


RAY_TASKS = TaskBackend(ray_tasks, require_ray)
