"""Expert iteration against TD(lambda) on Catan, side by side on one core: self-play samples per CPU second and
learner steps per second.

Self-play: one actor of each row (``configs/catan_expert.toml`` and the TD config it builds on, the settings
of today's recipe) with the shipped 2-player model's weights, ``--games`` games at once, run until that many
games have ended; a sample is a recorded position of an ended game (what reaches the learner). The rows:

- ``td``: TD self-play on the compiled batch;
- ``expert on States``: expert self-play stepping ``State`` objects (``core.batched.StateBatch``), the way
  it played before it moved onto the compiled batch;
- ``expert``: expert self-play as configured (the compiled batch, the setup searched);
- ``expert per_move=25``: each search capped at 25 simulations per legal move (a road's 2 or 3 choices);
- ``expert policy priors``: the searches take priors from the policy head (one network row per node), as
  they do from ``expert.policy_priors_from`` on; the speed, not the strength, of a trained head;
- ``expert search_share=0.25``: a quarter of the games searched, the rest played as TD.

Learner: the update of ``td`` and ``expert`` on a replay buffer filled with random samples of the right shapes,
``--steps`` steps of ``train.batch_size``. Everything in CPU seconds of this process on one thread, rows
interleaved over ``--rounds`` so a change of machine load hits all of them.

    python bench/expert_vs_td.py [--games 8] [--steps 20] [--rounds 2] [--rows td,expert] [--json]
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

from boardzero.core.batched import StateBatch
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


def rows() -> dict[str, tuple[str, dict, bool]]:
    """Row name -> (method, config, whether it steps ``State`` objects)."""
    base = configs()

    def expert(**changes) -> dict:
        return {**base["expert"], "expert": {**base["expert"]["expert"], **changes}}

    return {
        "td": ("td", base["td"], False),
        "expert on States": ("expert", base["expert"], True),
        "expert": ("expert", base["expert"], False),
        "expert per_move=25": ("expert", expert(per_move=25), False),
        "expert policy priors": ("expert", expert(policy_priors_from=0), False),
        "expert search_share=0.25": ("expert", expert(search_share=0.25), False),
    }


def selfplay(method: str, config: dict, games: int, steps: int = 0, state_batch: bool = False) -> dict:
    """One actor's self-play until ``games`` games ended (or, with ``steps``, that many steps: a warm-up);
    ``state_batch``: over ``State`` objects instead of the game's own batch."""
    checked = config_from_dict({**config, "selfplay": {**config.get("selfplay", {}), "games_per_actor": games}})
    meta = read_metadata(MODEL)
    payload = {"config": checked.to_dict(), "network": meta["network"], "generation": 0, "run": ""}
    worker = (ExpertWorker if method == "expert" else TDWorker)(0, payload)
    worker.load(0, {"weights": read_tensors(MODEL.with_name(meta["weights"])), "league": None})
    if state_batch:
        worker.env = StateBatch(worker.game, games, seed=1, observation_key=worker.spec.observation_key)
        worker.env.reset()
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
    parser.add_argument("--rows", default=",".join(rows()), help="comma-separated rows to run (default: all)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for name, value in (("--games", args.games), ("--steps", args.steps), ("--rounds", args.rounds)):
        if value < 1:
            parser.error(f"{name} must be at least 1, got {value}")
    known = rows()
    chosen = [name.strip() for name in args.rows.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in known]
    if unknown or "td" not in chosen:
        parser.error(f"--rows takes td and any of {', '.join(known)}; got {args.rows!r}")
    torch.set_num_threads(1)
    table = {name: {"selfplay": [], "learner": []} for name in chosen}
    for name in chosen:  # compiling the engine and first-use costs: not a row's own
        method, config, states = known[name]
        selfplay(method, config, 1, steps=2, state_batch=states)
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            for name in chosen:
                method, config, states = known[name]
                table[name]["selfplay"].append(selfplay(method, config, args.games, state_batch=states))
                if name in ("td", "expert"):
                    table[name]["learner"].append(learner(method, config, args.steps, Path(folder)))
    summary = {}
    for name, parts in table.items():
        play, learn = parts["selfplay"], parts["learner"]
        summary[name] = {
            "samples_per_cpu_s": sum(r["samples"] for r in play) / sum(r["cpu_s"] for r in play),
            "samples_per_game": sum(r["samples"] for r in play) / sum(r["games"] for r in play),
            "games_per_cpu_s": sum(r["games"] for r in play) / sum(r["cpu_s"] for r in play),
        }
        if learn:
            summary[name]["learner_steps_per_cpu_s"] = sum(r["steps"] for r in learn) / sum(r["cpu_s"] for r in learn)
    if args.json:
        print(json.dumps({"rows": table, "summary": summary}))
        return
    td = summary["td"]
    for name, s in summary.items():
        learner_text = (
            f"; learner {s['learner_steps_per_cpu_s']:6.2f} steps per CPU s" if "learner_steps_per_cpu_s" in s else ""
        )
        print(
            f"{name:27} self-play {s['samples_per_cpu_s']:8.1f} samples per CPU s "
            f"({s['samples_per_game']:.0f} per game), {s['samples_per_cpu_s'] / td['samples_per_cpu_s']:.3f} of td"
            f"{learner_text}"
        )
    if "expert" in summary:
        ex = summary["expert"]
        print(f"expert / td learner: {ex['learner_steps_per_cpu_s'] / td['learner_steps_per_cpu_s']:.2f}")


if __name__ == "__main__":
    main()
