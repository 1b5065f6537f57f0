"""Expert iteration against TD(lambda) on Catan, side by side on one core: self-play samples per CPU second and
learner steps per second.

Self-play: one actor of each method (``configs/catan_expert.toml`` and the TD config it builds on, the settings
of today's recipe) with the shipped 2-player model's weights, ``--games`` games at once, run until that many
games have ended; a sample is a recorded position of an ended game (what reaches the learner). Learner: each
method's update on a replay buffer filled with random samples of the right shapes, ``--steps`` steps of
``train.batch_size``. Everything in CPU seconds of this process on one thread, rows interleaved over
``--rounds`` so a change of machine load hits both.

    python bench/expert_vs_td.py [--games 8] [--steps 20] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import tomllib
from pathlib import Path

import numpy as np
import torch
from rich.console import Console

from boardzero.core.registry import make
from boardzero.learn.config import config_from_dict
from boardzero.learn.expert import Expert, ExpertWorker
from boardzero.learn.rundir import RunDir
from boardzero.learn.td import TD, TDWorker
from boardzero.nn.checkpoint import read_metadata, read_tensors

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "src/boardzero/models/catan/model-2p.json"


def configs() -> dict[str, dict]:
    expert = tomllib.loads((ROOT / "configs/catan_expert.toml").read_text())
    td = {k: v for k, v in expert.items() if k != "expert"}
    td["method"] = "td"
    return {"td": td, "expert": expert}


def selfplay(method: str, config: dict, games: int, steps: int = 0) -> dict:
    """One actor's self-play until ``games`` games ended (or, with ``steps``, that many steps: a warm-up)."""
    checked = config_from_dict({**config, "selfplay": {**config.get("selfplay", {}), "games_per_actor": games}})
    meta = read_metadata(MODEL)
    payload = {"config": checked.to_dict(), "network": meta["network"], "generation": 0, "run": ""}
    worker = (ExpertWorker if method == "expert" else TDWorker)(0, payload)
    worker.load_weights(0, read_tensors(MODEL.with_name(meta["weights"])))
    samples = 0
    start = time.process_time()
    made = 0
    while worker.games_finished < games and not (steps and made >= steps):
        samples += sum(len(batch["obs"]) for batch in worker.step())
        made += 1
    cpu = time.process_time() - start
    return {
        "games": worker.games_finished,
        "samples": samples,
        "cpu_s": cpu,
        "samples_per_cpu_s": samples / max(cpu, 1e-9),
    }


def learner(method: str, config: dict, steps: int, folder: Path) -> dict:
    checked = config_from_dict({**config, "train": {**config.get("train", {}), "device": "cpu"}})
    game = make(checked.game, **checked.game_options)
    learn = (Expert if method == "expert" else TD)(checked, game, RunDir(folder / method), Console(quiet=True))
    rng = np.random.default_rng(0)
    n, shape, players = 4 * checked.train.batch_size, learn.spec.input_shape, learn.spec.num_players
    learn.replay.add({"obs": rng.random((n, *shape), np.float32), "value": rng.random((n, players)).astype(np.float32)})
    if isinstance(learn, Expert):
        masks = rng.random((n, learn.spec.num_actions)) < 0.2
        learn.policy_replay.add(
            {"obs": rng.random((n, *shape), np.float32), "mask": masks, "policy": masks / masks.sum(1, keepdims=True)}
        )
    learn.update()  # first-use costs
    start = time.process_time()
    for _ in range(steps):
        learn.update()
    cpu = time.process_time() - start
    return {"steps": steps, "cpu_s": cpu, "steps_per_cpu_s": steps / cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games per actor, and games to end per row")
    parser.add_argument("--steps", type=int, default=20, help="learner steps per row")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name, value in (("--games", args.games), ("--steps", args.steps), ("--rounds", args.rounds)):
        if value < 1:
            parser.error(f"{name} must be at least 1, got {value}")
    torch.set_num_threads(1)
    rows: dict[str, dict[str, list[dict]]] = {m: {"selfplay": [], "learner": []} for m in ("td", "expert")}
    for method, config in configs().items():  # compiling the engine and first-use costs: not a method's own
        selfplay(method, config, 1, steps=2)
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            for method, config in configs().items():
                rows[method]["selfplay"].append(selfplay(method, config, args.games))
                rows[method]["learner"].append(learner(method, config, args.steps, Path(folder)))
    summary = {}
    for method, parts in rows.items():
        play, learn = parts["selfplay"], parts["learner"]
        summary[method] = {
            "samples_per_cpu_s": sum(r["samples"] for r in play) / sum(r["cpu_s"] for r in play),
            "samples_per_game": sum(r["samples"] for r in play) / sum(r["games"] for r in play),
            "learner_steps_per_cpu_s": sum(r["steps"] for r in learn) / sum(r["cpu_s"] for r in learn),
        }
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}))
        return
    for method, s in summary.items():
        print(
            f"{method:7} self-play {s['samples_per_cpu_s']:8.1f} samples per CPU s "
            f"({s['samples_per_game']:.0f} per game); learner {s['learner_steps_per_cpu_s']:6.2f} steps per CPU s"
        )
    td, ex = summary["td"], summary["expert"]
    print(
        f"expert / td: self-play {ex['samples_per_cpu_s'] / td['samples_per_cpu_s']:.2f}, "
        f"learner {ex['learner_steps_per_cpu_s'] / td['learner_steps_per_cpu_s']:.2f}"
    )


if __name__ == "__main__":
    main()
