"""Environment speed: the plain Gymnasium and PettingZoo Catan environments against the vectorised one.

What is measured, one process, one core, side by side in the same run (2-player Catan, random boards):

- ``gym``: ``integrations.gym.BoardzeroEnv`` with ``opponents=["random"]``: the learner's random legal action
  (from ``action_masks()``), then the opponent's moves and chance until the learner is to move again; the
  flat observation each step. Counted in learner steps per second.
- ``pettingzoo``: ``integrations.pettingzoo.env("catan")``: ``last()`` then ``step`` with a random legal
  action for whichever seat is to move. Counted in agent steps per second (every seat's decisions).
- ``vector``: ``integrations.gym_vector.make_vector_env("catan", B)`` (Catan's compiled batch): B random legal learner actions per
  ``step`` (a compiled sampler standing in for a policy), the opponents' random moves in compiled code,
  observations encoded, finished games replaced. Counted in learner steps per second (B per call).

The gym and vector forms play the same game (random opponents), so their ratio is the speed-up of the batch.
Usage: ``python bench/gym_envs.py [--seconds S] [--batch-size 64 256] [--quick] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

try:
    from boardzero.integrations.gym import make_env
    from boardzero.integrations.gym_vector import make_vector_env, random_moves
    from boardzero.integrations.pettingzoo import env as aec_env
except Exception as exc:  # noqa: BLE001 - the message names the missing extra
    print(f"cannot run: {exc}", file=sys.stderr)
    sys.exit(0)


def bench_gym(seconds: float, seed: int = 0) -> dict:
    env = make_env("catan", ["random"], players=2)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps, episodes = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        steps += 1
        if terminated or truncated:
            episodes += 1
            env.reset()
    elapsed = time.perf_counter() - start
    return {
        "benchmark": "gym",
        "steps": steps,
        "episodes": episodes,
        "seconds": elapsed,
        "steps_per_s": steps / elapsed,
    }


def bench_pettingzoo(seconds: float, seed: int = 0) -> dict:
    aec = aec_env("catan", players=2)
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    steps, episodes = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            episodes += 1
            aec.reset()
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    elapsed = time.perf_counter() - start
    return {
        "benchmark": "pettingzoo",
        "steps": steps,
        "episodes": episodes,
        "seconds": elapsed,
        "steps_per_s": steps / elapsed,
    }


def bench_vector(batch_size: int, seconds: float, seed: int = 0) -> dict:
    envs = make_vector_env("catan", batch_size, players=2, validate=False)
    uniforms = np.random.default_rng(seed).random
    _, infos = envs.reset(seed=seed)
    actions = np.empty(batch_size, dtype=np.int64)
    everyone = np.zeros(batch_size, dtype=np.int64)  # "seat 0 to move, learner 1": a move for every game
    learner = np.ones(batch_size, dtype=np.int64)
    random_moves(infos["action_mask"], everyone, learner, uniforms(batch_size), actions)
    envs.step(actions)  # compile outside the timing
    calls, episodes = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_moves(envs._batch.masks, everyone, learner, uniforms(batch_size), actions)
        _, _, terminated, _, _ = envs.step(actions)
        calls += 1
        episodes += int(terminated.sum())
    elapsed = time.perf_counter() - start
    return {
        "benchmark": "vector",
        "batch_size": batch_size,
        "steps": calls * batch_size,
        "episodes": episodes,
        "seconds": elapsed,
        "steps_per_s": calls * batch_size / elapsed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per environment")
    parser.add_argument("--batch-size", type=int, nargs="*", default=[64, 256], help="games in the vector form")
    parser.add_argument("--quick", action="store_true", help="a tiny budget (smoke test)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.batch_size = 0.5, args.batch_size[:1]
    bench_gym(0.2)  # load compiled code and caches
    rows = [bench_gym(args.seconds), bench_pettingzoo(args.seconds)]
    rows += [bench_vector(b, args.seconds) for b in args.batch_size]
    base = rows[0]["steps_per_s"]
    for row in rows:
        row["ratio_vs_gym"] = row["steps_per_s"] / base
        if args.json:
            print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
        else:
            name = row["benchmark"] + (f" (batch {row['batch_size']})" if "batch_size" in row else "")
            unit = "agent" if row["benchmark"] == "pettingzoo" else "learner"
            print(
                f"{name:>20}: {row['steps_per_s']:10.0f} {unit} steps/s  {row['ratio_vs_gym']:6.1f}x gym  "
                f"({row['steps']} steps, {row['episodes']} games ended, {row['seconds']:.1f} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
