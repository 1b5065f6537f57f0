"""Self-play samples/s through the actor pools: the local backend (processes) against the ray backend (Ray actors
on a local Ray instance), with 1 and 2 actors, side by side in one run.

Each row opens the pool a training run would open for the config (default: configs/catan_td.toml, 2-player Catan,
TD with a residual MLP 256 x 4, 128 games per actor), publishes the network's weights, and collects what the
actors deliver, publishing new weights every ``--publish-seconds`` as the learner does (no learner updates: the
point is the actors and the transport). The first ``--warmup`` seconds (imports, compiled code loading, first
games) are left out; samples and games are then counted for ``--seconds``. Rows are interleaved in ``--rounds``
so a change of machine load hits all of them. Also printed: the size of one weight publication, the time
``ray.put`` takes for it, and the time to pickle it once per local actor queue.

    python bench/ray_selfplay.py [--config configs/catan_td.toml] [--seconds 30] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import sys
import time
from pathlib import Path

import torch

from boardzero.core.registry import make
from boardzero.learn.actors import open_actor_pool
from boardzero.learn.config import load_config
from boardzero.nn.nets import build_network

ROOT = Path(__file__).resolve().parents[1]


def _weights(spec) -> dict:
    return {k: v.detach().numpy().copy() for k, v in build_network(spec).state_dict().items()}


def _payload(config, spec) -> dict:
    return {"config": config.to_dict(), "network": spec.to_dict(), "generation": 0, "run": ""}


def measure(config, spec, payload, publication, *, warmup: float, seconds: float, publish_seconds: float) -> dict:
    """Samples and games per second delivered by the pool the config opens."""
    opened = time.monotonic()
    pool = open_actor_pool(config.selfplay, config.method, payload)
    version = 0
    pool.publish(version, publication)
    samples = games = 0
    first_delivery = None
    last_publish = count_from = time.monotonic()
    try:
        while True:
            now = time.monotonic()
            if now - last_publish >= publish_seconds:
                version += 1
                pool.publish(version, publication)
                last_publish = now
            for _, new_games, batch in pool.collect(wait=0.05):
                if first_delivery is None:
                    first_delivery = time.monotonic() - opened
                    count_from = time.monotonic() + warmup
                if time.monotonic() >= count_from:
                    games += new_games
                    samples += len(next(iter(batch.values()))) if batch else 0
            if first_delivery is not None and time.monotonic() >= count_from + seconds:
                break
    finally:
        pool.close()
    return {"samples_per_s": samples / seconds, "games_per_s": games / seconds, "first_delivery_s": first_delivery}


def publication_costs(payload, publication, actors: int) -> dict:
    import ray

    size = len(pickle.dumps(publication, protocol=5))
    started = time.perf_counter()
    for _ in range(10):
        ray.put(publication)
    put = (time.perf_counter() - started) / 10
    started = time.perf_counter()
    for _ in range(10 * actors):
        pickle.dumps(publication)
    local = (time.perf_counter() - started) / 10
    return {
        "publication_mb": round(size / 2**20, 3),
        "ray_put_ms": round(1e3 * put, 2),
        f"local_pickle_{actors}_actors_ms": round(1e3 * local, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "configs" / "catan_td.toml"))
    parser.add_argument("--games-per-actor", type=int, default=None, help="override selfplay.games_per_actor")
    parser.add_argument("--seconds", type=float, default=30.0, help="counted seconds per row and round")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds left out after the first delivery")
    parser.add_argument("--publish-seconds", type=float, default=0.5, help="seconds between weight publications")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--actors", default="1,2", help="actor counts to measure, e.g. 1,2")
    parser.add_argument("--ray-address", default="", help="join this Ray cluster instead of starting a local one")
    parser.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local Ray instance")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import ray
    except ImportError:
        sys.exit("the ray backend needs Ray: pip install 'boardzero[ray]'")
    torch.set_num_threads(1)
    # Ray starts its workers 15 nice levels below the driver by default; the local backend's processes are not
    # reniced, so both run at the driver's niceness here
    os.environ.setdefault("RAY_worker_niceness", "0")
    config = load_config(args.config)
    if args.games_per_actor:
        config = config.changed({"selfplay.games_per_actor": args.games_per_actor})
    game = make(config.game, **config.game_options)
    spec = config.network.spec_for(game)
    payload = _payload(config, spec)
    if config.method == "ppo":
        sys.exit("PPO publishes its bank too; measure with a TD or AlphaZero config")
    publication = _weights(spec)
    started = time.monotonic()
    if args.ray_address:
        ray.init(address=args.ray_address, logging_level="warning")
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, logging_level="warning")
    ray_start = time.monotonic() - started
    counts = [int(a) for a in args.actors.split(",")]
    rows = {(backend, n): [] for n in counts for backend in ("local", "ray")}
    for _ in range(args.rounds):
        for (backend, n), results in rows.items():
            results.append(
                measure(
                    config.changed({"selfplay.backend": backend, "selfplay.actors": n}),
                    spec,
                    payload,
                    publication,
                    warmup=args.warmup,
                    seconds=args.seconds,
                    publish_seconds=args.publish_seconds,
                )
            )
            print(f"  {backend} x{n}: {results[-1]['samples_per_s']:.1f} samples/s", file=sys.stderr, flush=True)
    costs = publication_costs(payload, publication, max(counts))
    ray.shutdown()
    table = []
    for (backend, n), results in rows.items():
        local = statistics.mean(r["samples_per_s"] for r in rows[("local", n)])
        mean = statistics.mean(r["samples_per_s"] for r in results)
        table.append(
            {
                "backend": backend,
                "actors": n,
                "samples_per_s": round(mean, 1),
                "games_per_s": round(statistics.mean(r["games_per_s"] for r in results), 2),
                "first_delivery_s": round(statistics.mean(r["first_delivery_s"] for r in results), 1),
                "ratio_vs_local": round(mean / local, 3) if local else None,
                "rounds": [round(r["samples_per_s"], 1) for r in results],
            }
        )
    header = {
        "config": Path(args.config).name,
        "game": config.game,
        "options": config.game_options,
        "method": config.method,
        "games_per_actor": config.selfplay.games_per_actor,
        "seconds": args.seconds,
        "rounds": args.rounds,
        "ray_init_s": round(ray_start, 1),
        **costs,
    }
    if args.json:
        print(json.dumps({**header, "rows": table}))
        return
    print(json.dumps(header))
    print(
        f"{'backend':8} {'actors':>6} {'samples/s':>10} {'games/s':>8} {'first delivery s':>17} {'vs local':>9}  rounds"
    )
    for r in table:
        print(
            f"{r['backend']:8} {r['actors']:>6} {r['samples_per_s']:>10.1f} {r['games_per_s']:>8.2f} "
            f"{r['first_delivery_s']:>17.1f} {r['ratio_vs_local']:>9.3f}  {r['rounds']}"
        )


if __name__ == "__main__":
    main()
