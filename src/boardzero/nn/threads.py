"""The thread policy of every network that plays: one CPU thread per process.

A move's search calls its network many times on small batches. At that size a
second intra-op thread buys little, and when anything else holds a core every
forward pass waits for its slowest thread: Connect 4 ``best`` took 5-10x longer
per move beside one busy core with PyTorch's default (one thread per core) than
with one thread. So a network loaded for play (``load_network``: the ``az``,
``policy`` and ``best`` agents and every other network agent) runs on
``PLAY_THREADS``; parallel work uses processes instead (arena workers, self-play
actors), one per core, each on one thread. ``bench/busy_core.py`` measures it.
"""

from __future__ import annotations

import torch

PLAY_THREADS = 1  # intra-op threads of a process whose networks play


def use_play_threads() -> None:
    """Run this process's network calls on ``PLAY_THREADS`` thread(s) (cheap; safe to call again)."""
    if torch.get_num_threads() != PLAY_THREADS:
        torch.set_num_threads(PLAY_THREADS)
