"""Connect 4 `best` time per move idle and beside one busy core, with the play thread policy and torch's default.

Each position is searched twice, once with a busy process beside it (a child
spinning in a Python loop, paused with SIGSTOP while the idle moves are timed,
resumed with SIGCONT for the busy ones), the two in alternating order, so idle
and busy figures come from the same run under the same background load. The
whole thing runs twice: with the thread policy every network agent gets
(``boardzero.nn.threads``: one thread) and with PyTorch's default thread count
(one per core), to show what the policy buys. The busy child inherits this
process's niceness, so under ``nice`` both compete as equals.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.core.view import SeatView

from _positions import random_positions  # bench/_positions.py, beside this script


DEFAULT_THREADS = torch.get_num_threads()  # before any network is loaded (loading applies the play policy)
BUSY_LOOP = "while True:\n    pass\n"
SETTLE_S = 0.2  # after pausing or resuming the busy child, before timing


class BusyCore:
    """A child process that keeps one core busy while resumed."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-c", BUSY_LOOP])
        self.pause()

    def pause(self) -> None:
        os.kill(self.process.pid, signal.SIGSTOP)
        time.sleep(SETTLE_S)

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)
        time.sleep(SETTLE_S)

    def close(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)
        self.process.kill()
        self.process.wait()


def time_move(agent, state, rng) -> float:
    agent.reset()  # no tree kept from the previous position
    started = time.perf_counter()
    agent.act(SeatView(state, state.current_player), rng)
    return time.perf_counter() - started


def measure(agent, positions, busy: BusyCore, threads: int) -> dict:
    torch.set_num_threads(threads)
    rng = np.random.default_rng(0)
    time_move(agent, positions[0], rng)  # warm-up, not counted
    idle, loaded = [], []
    for index, state in enumerate(positions):
        for condition in (("idle", "busy") if index % 2 == 0 else ("busy", "idle")):
            if condition == "busy":
                busy.resume()
                loaded.append(time_move(agent, state, rng))
                busy.pause()
            else:
                idle.append(time_move(agent, state, rng))
    idle_median, busy_median = statistics.median(idle), statistics.median(loaded)
    return {"threads": threads, "moves": len(positions), "idle_median_s": idle_median,
            "busy_median_s": busy_median, "busy_over_idle": busy_median / idle_median,
            "idle_s": idle, "busy_s": loaded}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="positions (moves timed per condition), at least 1")
    parser.add_argument("--agent", default="best", help="agent spec (default: best)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.moves < 1:
        parser.error(f"--moves must be at least 1, got {args.moves}")
    game = make("connect4")
    agent = make_agent(args.agent, game)
    play_threads = torch.get_num_threads()  # what loading the network set
    positions = random_positions(game, args.moves, np.random.default_rng(1), 4, 20)
    load_before = os.getloadavg()
    busy = BusyCore()
    try:
        runs = [measure(agent, positions, busy, play_threads)]
        if DEFAULT_THREADS != play_threads:
            runs.append(measure(agent, positions, busy, DEFAULT_THREADS))
    finally:
        busy.close()
    result = {"agent": args.agent, "cpus": os.cpu_count(), "torch_default_threads": DEFAULT_THREADS,
              "play_threads": play_threads, "load_average_before": load_before,
              "load_average_after": os.getloadavg(), "runs": runs}
    if args.json:
        print(json.dumps(result))
        return
    print(f"connect4 {args.agent}, {args.moves} positions, {os.cpu_count()} CPUs; load average (1, 5, 15 min) "
          f"before {', '.join(f'{x:.2f}' for x in load_before)}, "
          f"after {', '.join(f'{x:.2f}' for x in result['load_average_after'])}")
    for run in runs:
        label = "play policy" if run["threads"] == play_threads else "torch default"
        print(f"{label:13} {run['threads']} thread(s): median {run['idle_median_s']:.3f} s/move idle, "
              f"{run['busy_median_s']:.3f} s/move beside a busy core: {run['busy_over_idle']:.2f}x idle")


if __name__ == "__main__":
    main()
