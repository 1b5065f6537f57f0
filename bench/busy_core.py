"""Connect 4 `best` time per move idle and beside one busy core, with the play thread policy and torch's default.

Each position is searched twice, once with a busy process beside it (a child
spinning in a Python loop, paused with SIGSTOP while the idle moves are timed,
resumed with SIGCONT for the busy ones), the two in alternating order, so idle
and busy figures come from the same run under the same background load. The
whole thing runs twice: with the thread policy every network agent gets
(``boardzero.nn.threads``: one thread) and with PyTorch's default thread count
(one per core), to show what the policy buys. The busy child inherits this
process's niceness, so under ``nice`` both compete as equals. Each setting
prints its line (or JSON object, ``--json``) as soon as it is measured, with the
load average before and after it.
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

from _positions import random_positions  # bench/_positions.py, beside this script
from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.core.view import SeatView

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


def time_move(agent, state, rng) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) for one move."""
    agent.reset()  # no tree kept from the previous position
    wall, cpu = time.perf_counter(), time.process_time()
    agent.act(SeatView(state, state.current_player), rng)
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(agent, positions, busy: BusyCore, threads: int) -> dict:
    torch.set_num_threads(threads)
    rng = np.random.default_rng(0)
    time_move(agent, positions[0], rng)  # warm-up, not counted
    times = {"idle": [], "busy": []}  # (wall, cpu) per move
    for index, state in enumerate(positions):
        for condition in ("idle", "busy") if index % 2 == 0 else ("busy", "idle"):
            if condition == "busy":
                busy.resume()
            times[condition].append(time_move(agent, state, rng))
            if condition == "busy":
                busy.pause()
    idle_median, busy_median = (statistics.median(wall for wall, _ in times[c]) for c in ("idle", "busy"))
    return {
        "threads": threads,
        "moves": len(positions),
        "idle_median_s": idle_median,
        "busy_median_s": busy_median,
        "busy_over_idle": busy_median / idle_median,
        "idle_cpu_median_s": statistics.median(cpu for _, cpu in times["idle"]),
        "idle_s": [wall for wall, _ in times["idle"]],
        "busy_s": [wall for wall, _ in times["busy"]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="positions (moves timed per condition), at least 1")
    parser.add_argument(
        "--default-moves",
        type=int,
        default=None,
        help="positions for the comparison with torch's default threads (default: --moves; 0 skips it)",
    )
    parser.add_argument("--agent", default="best", help="agent spec (default: best)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.moves < 1:
        parser.error(f"--moves must be at least 1, got {args.moves}")
    if args.default_moves is not None and args.default_moves < 0:
        parser.error(f"--default-moves must be at least 0, got {args.default_moves}")
    game = make("connect4")
    agent = make_agent(args.agent, game)
    play_threads = torch.get_num_threads()  # what loading the network set
    default_moves = args.moves if args.default_moves is None else args.default_moves
    positions = random_positions(game, max(args.moves, default_moves), np.random.default_rng(1), 4, 20)
    settings = [(play_threads, positions[: args.moves])]
    if play_threads != DEFAULT_THREADS and default_moves:
        settings.append((DEFAULT_THREADS, positions[:default_moves]))
    busy = BusyCore()
    try:
        for threads, chosen in settings:  # each setting reported as soon as it is measured
            load_before = os.getloadavg()
            run = measure(agent, chosen, busy, threads)
            run.update(
                agent=args.agent,
                cpus=os.cpu_count(),
                play_threads=play_threads,
                load_average_before=load_before,
                load_average_after=os.getloadavg(),
            )
            print(json.dumps(run) if args.json else summary_line(run), flush=True)
    finally:
        busy.close()


def summary_line(run: dict) -> str:
    label = "play policy" if run["threads"] == run["play_threads"] else "torch default"
    load = ", ".join(f"{x:.2f}" for x in run["load_average_before"] + run["load_average_after"])
    return (
        f"connect4 {run['agent']}, {label}, {run['threads']} thread(s), {run['moves']} positions: median "
        f"{run['idle_median_s']:.3f} s/move idle ({run['idle_cpu_median_s']:.3f} s CPU), "
        f"{run['busy_median_s']:.3f} s/move beside a busy core = {run['busy_over_idle']:.2f}x idle "
        f"({run['cpus']} CPUs; load average 1/5/15 min before and after: {load})"
    )


if __name__ == "__main__":
    main()
