"""Two boardzero trees side by side: the same Catan speed benchmark run on each in turn, rounds interleaved.

A change of the engine must leave the speed of what it did not touch as it was; this measures that. Each round
runs ``bench/<script> --json <args>`` once in tree A and once in tree B (each tree's own script, with its own
``src`` on ``PYTHONPATH``, in a fresh process), so changes of machine load hit both trees alike; the figures are
the median over the rounds of each tree's rates per CPU second (``cpu_*_per_s``) and times per call (``*_us``),
and the ratio B / A (for a rate above 1 is faster; for a time below 1 is faster).

    python bench/catan_ab.py /path/to/main . --rounds 3 -- catan_engine.py --games 300 --catanatron-games 0
    python bench/catan_ab.py /path/to/main . --rounds 3 -- catan_per_step.py --games 20 --catanatron-games 0

``--b-args`` adds arguments to tree B's runs only (``--b-args=--trading``: the cost of an option tree A lacks).
Compile caches: run each tree once before (its first import compiles the engine, outside any timing anyway).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path


def run_once(tree: Path, script: str, args: list[str]) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run(
        [sys.executable, str(tree / "bench" / script), "--json", *args],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def row_key(row: dict) -> str:
    parts = [row["benchmark"], row.get("engine", ""), f"{row.get('players', '')}p"]
    if "batch_size" in row:
        parts.append(f"batch {row['batch_size']}")
    return " ".join(str(p) for p in parts if p)


def figures(rows: list[dict]) -> dict[str, float]:
    """{'<row> <metric>': value} for the per-CPU-second rates and per-call times of a run."""
    out = {}
    for row in rows:
        if row.get("engine") == "catanatron":
            continue
        for metric, value in row.items():
            if isinstance(value, (int, float)) and (metric.startswith("cpu_") or metric.endswith("_us")):
                out[f"{row_key(row)} {metric}"] = float(value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree_a", type=Path, help="a boardzero checkout (the reference)")
    parser.add_argument("tree_b", type=Path, help="another checkout (the change)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree, interleaved A B A B ...")
    parser.add_argument("--b-args", default="", help="extra arguments for tree B's runs only (space-separated)")
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    bench = argv[split + 1 :]  # -- SCRIPT [ARGS]: the benchmark under bench/ and its arguments
    if not bench:
        parser.error("name the benchmark after --, e.g. -- catan_engine.py --games 300 --catanatron-games 0")
    script, script_args = bench[0], bench[1:]
    runs: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    for _ in range(args.rounds):
        runs["A"].append(figures(run_once(args.tree_a.resolve(), script, script_args)))
        runs["B"].append(figures(run_once(args.tree_b.resolve(), script, script_args + args.b_args.split())))
    print(f"{script} {' '.join(script_args)}: A = {args.tree_a}, B = {args.tree_b} {args.b_args}".rstrip())
    print(f"median of {args.rounds} interleaved runs each")
    for name in runs["A"][0]:
        a = statistics.median(run[name] for run in runs["A"])
        if not all(name in run for run in runs["B"]):
            continue
        b = statistics.median(run[name] for run in runs["B"])
        print(f"  {name:58s} A {a:12.2f}   B {b:12.2f}   B/A {b / a:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
