"""Play many games in worker processes (or in this one), each worker set up once.

A ``setup(*args)`` function builds what the workers need (the game, the agents) into a module-level cache;
``play(task)`` plays one task with it. With one worker both run here, with no process pool.
"""

from __future__ import annotations

import multiprocessing as mp
from typing import Any, Callable, Iterable, Sequence


def _start(setup: Callable[..., None], args: tuple) -> None:
    try:
        import torch

        torch.set_num_threads(1)  # one thread per worker: the workers are the parallelism
    except ImportError:  # pragma: no cover - torch is a dependency, but playing games does not need it
        pass
    setup(*args)


def run_tasks(setup: Callable[..., None], args: tuple, play: Callable[[Any], Any], tasks: Sequence,
              workers: int, *, chunksize: int = 1) -> Iterable[Any]:
    """Results of ``play`` over ``tasks`` in the order they finish; ``setup`` and ``play`` must be module-level
    functions (they are sent to spawned processes by name)."""
    if workers <= 1 or len(tasks) <= 1:
        _start(setup, args)
        yield from map(play, tasks)
        return
    context = mp.get_context("spawn")
    with context.Pool(min(workers, len(tasks)), initializer=_start, initargs=(setup, args)) as pool:
        yield from pool.imap_unordered(play, tasks, chunksize=chunksize)
