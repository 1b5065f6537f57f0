"""TD self-play with identical afterstates valued once (``nn.evaluator.distinct_rows``) against valuing every
afterstate, side by side in one process on one thread: environment steps per CPU second in Catan with and
without player-to-player trading.

With trading, an offer that no seat is known to be able to take leaves the position as it was, so many of a
decision's afterstates are the same position; without trading almost none are. TD self-play values distinct
rows only in games with timeless moves (trading); this bench forces both ways in both kinds of game. Each pair
of workers plays the same games (same seeds); rounds alternate between them so a change of machine load hits
both.

    python bench/afterstate_dedupe.py [--players 2 4] [--seconds 32] [--rounds 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

import boardzero.learn.td as td_module
import boardzero.nn.evaluator as evaluator
from boardzero.core.registry import make
from selfplay import _td, _wrap

DISTINCT = evaluator.distinct_rows
ORIGINAL = evaluator.afterstate_values


def _forced(net, after, seats, precision="float32", *, distinct=False):
    return ORIGINAL(net, after, seats, precision, distinct=True)  # the way chosen by ``distinct_rows`` below


def _every_row(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.arange(len(obs)), np.arange(len(obs))


def measure(players: int, trading: bool, seconds: float, rounds: int) -> dict:
    ways = {"distinct rows": DISTINCT, "every row": _every_row}
    td_module.afterstate_values = _forced
    workers = {way: _td(make("catan", players=players), players, 128, "auto", trading=trading) for way in ways}
    counts = {way: _wrap(worker.env) for way, worker in workers.items()}
    for way, worker in workers.items():  # warm up, past the setup, outside the timing
        evaluator.distinct_rows = ways[way]
        for _ in range(50):
            worker.step()
    start = {way: counts[way][0] for way in ways}
    cpu = dict.fromkeys(ways, 0.0)
    for _ in range(rounds):
        for way, worker in workers.items():
            evaluator.distinct_rows = ways[way]
            began = time.process_time()
            while time.process_time() - began < seconds / rounds:
                worker.step()
            cpu[way] += time.process_time() - began
    evaluator.distinct_rows = DISTINCT
    td_module.afterstate_values = ORIGINAL
    rate = {way: (counts[way][0] - start[way]) / cpu[way] for way in ways}
    return {
        "players": players,
        "trading": trading,
        "env_steps_per_cpu_s": {way: round(r) for way, r in rate.items()},
        "speedup": round(rate["distinct rows"] / rate["every row"], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    parser.add_argument("--seconds", type=float, default=32.0, help="CPU seconds per way and row")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    for players in args.players:
        for trading in (False, True):
            row = measure(players, trading, args.seconds, args.rounds)
            if args.json:
                print(json.dumps(row), flush=True)
                continue
            steps = row["env_steps_per_cpu_s"]
            print(
                f"{players} players, trading {'on ' if trading else 'off'}: env steps/CPU s "
                f"{steps['distinct rows']:,} distinct rows, {steps['every row']:,} every row: x{row['speedup']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
