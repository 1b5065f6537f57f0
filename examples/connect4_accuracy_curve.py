"""Move accuracy of a Connect 4 run's checkpoints over its training time: each checkpoint's network (alone, or
with the search ``--agent-options`` give it) scores the standard test set, and its accuracy by game phase is set
against the wall time the run had trained when it was saved (``train_seconds``, summed over resumes) and, with
``--cpu-log``, against the CPU time its processes had used.

    python examples/connect4_accuracy_curve.py /work/runs/c4big --cpu-log /work/runs/c4big_cpu.tsv \\
        --reference 'shipped 5 x 32=src/boardzero/models/connect4/model.json' \\
        --machine '2-core VM, shared with other work' --out docs/img/connect4_big_accuracy.png

``--cpu-log`` is a tab-separated file of lines ``UNIX_TIME PID CPU_SECONDS [PID CPU_SECONDS ...]`` (cumulative
user + system seconds of the run's processes, sampled as it ran); a checkpoint's CPU time is read at the time
its metadata file was written, so give it the run directory the checkpoints were written in. ``--reference``
adds a model's accuracy as a dashed line. The points are also written as JSON beside the PNG.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from boardzero.core.registry import make
from boardzero.eval.accuracy import ALL, PHASES, load_positions, move_accuracy
from boardzero.eval.checkpoints import run_checkpoints, spread
from boardzero.nn.checkpoint import read_metadata

KEYS = (f"{ALL}/{ALL}", *(f"{phase}/{ALL}" for phase in PHASES))


def cpu_seconds_at(log: Path, when: float) -> float | None:
    """The CPU seconds of all sampled processes at ``when`` (linear between samples; None before the first)."""
    times, totals = [], []
    for line in log.read_text().splitlines():
        fields = line.split("\t")
        if len(fields) >= 3:
            times.append(float(fields[0]))
            totals.append(sum(float(v) for v in fields[2::2]))
    if not times or when < times[0]:
        return None
    return float(np.interp(when, times, totals))


def score(spec: str, game, positions) -> dict:
    result = move_accuracy(spec, game, positions, np.random.default_rng(0))
    return {
        key: {"correct": c, "positions": n, "accuracy": c / n, "interval": list(result.group_interval(key))}
        for key, (c, n) in result.by_group.items()
        if key in KEYS
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--positions", type=Path, default=Path("data/connect4_testset.json"))
    parser.add_argument("--agent-options", default="greedy", help="options of the az agent, e.g. greedy or sims=200")
    parser.add_argument("--most", type=int, default=8, help="checkpoints spread over the run, first and last kept")
    parser.add_argument("--cpu-log", type=Path, default=None)
    parser.add_argument("--reference", action="append", default=[], help="NAME=MODEL.json, a dashed line")
    parser.add_argument("--machine", default="", help="the machine, named in the title")
    parser.add_argument("--out", type=Path, required=True, help="the PNG; the JSON goes beside it")
    args = parser.parse_args()
    game = make("connect4")
    positions = load_positions(args.positions, game)
    points = []
    for checkpoint in spread(run_checkpoints(args.run), args.most):
        meta = read_metadata(checkpoint.path)
        cpu = cpu_seconds_at(args.cpu_log, checkpoint.path.stat().st_mtime) if args.cpu_log else None
        groups = score(f"az:{checkpoint.path.resolve()},{args.agent_options}", game, positions)
        points.append(
            {
                "step": checkpoint.step,
                "train_seconds": float(meta.get("train_seconds", 0.0)),
                "cpu_seconds": cpu,
                "samples": meta.get("selfplay_totals", {}).get("samples"),
                "groups": groups,
            }
        )
        print(f"step {checkpoint.step}: {100 * groups[KEYS[0]]['accuracy']:.1f} %", flush=True)
    references = {}
    for item in args.reference:
        name, _, model = item.partition("=")
        references[name] = score(f"az:{model},{args.agent_options}", game, positions)
    plot(points, references, args)
    args.out.with_suffix(".json").write_text(
        json.dumps(
            {
                "run": str(args.run),
                "positions": str(args.positions),
                "agent_options": args.agent_options,
                "machine": args.machine,
                "points": points,
                "references": references,
            },
            indent=1,
        )
        + "\n"
    )


def plot(points: list[dict], references: dict[str, dict], args: argparse.Namespace) -> None:
    axes_x = [("train_seconds", "training wall time (min)")]
    if any(p["cpu_seconds"] is not None for p in points):
        axes_x.append(("cpu_seconds", "CPU time of learner + actor (min)"))
    figure, axes = plt.subplots(1, len(axes_x), figsize=(6 * len(axes_x), 4.2), squeeze=False)
    for ax, (field, label) in zip(axes[0], axes_x):
        shown = [p for p in points if p[field] is not None]
        x = np.array([p[field] for p in shown]) / 60
        for key in KEYS:
            acc = np.array([100 * p["groups"][key]["accuracy"] for p in shown])
            low = np.array([100 * p["groups"][key]["interval"][0] for p in shown])
            high = np.array([100 * p["groups"][key]["interval"][1] for p in shown])
            (line,) = ax.plot(x, acc, marker="o", lw=2 if key == KEYS[0] else 1, label=key.replace("/all", ""))
            if key == KEYS[0]:
                ax.fill_between(x, low, high, color=line.get_color(), alpha=0.15)
        for name, groups in references.items():
            ax.axhline(100 * groups[KEYS[0]]["accuracy"], ls="--", color="grey", label=f"{name} (all)")
        ax.set_xlabel(label)
        ax.set_ylabel(f"keeps the solver's result (%), az {args.agent_options}")
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    title = f"{args.run.name}: move accuracy on {args.positions.name}"
    figure.suptitle(title + (f"\n{args.machine}" if args.machine else ""), fontsize=10)
    figure.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
