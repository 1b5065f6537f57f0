"""Train sb3-contrib's MaskablePPO on the Gymnasium Catan environment and watch it improve against ``random``.

    pip install 'boardzero[rl]'
    python examples/maskable_ppo_catan.py --timesteps 100000 --plot docs/img/maskable_ppo_catan.png

The learner holds a seat of 2-player Catan (drawn at every reset) against boardzero's ``random`` agent
(``integrations.gym.make_env``); illegal actions are masked through ``env.action_masks()``. The training
reward is the game's ``vp`` return (the learner's points / 10 at the end: denser than win or lose); turns
are capped (``--turn-limit``) so that early, aimless games end. Every ``--eval-every`` steps the current
policy (greedy, masked) plays ``--eval-games`` games against ``random`` under the normal ``win`` return,
seats drawn, and its win rate is printed with a 95 % interval; the curve is saved as a PNG and the points
as JSON beside it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from boardzero.eval.stats import wilson_interval
from boardzero.integrations.common import require
from boardzero.integrations.gym import make_env


def evaluate(model, games: int, seed: int, turn_limit: int) -> dict:
    """Win rate of the greedy masked policy against random over ``games`` games (ties count half)."""
    env = make_env("catan", ["random"], players=2, turn_limit=turn_limit)
    score = 0.0
    wins = 0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        score += reward
        wins += reward == 1.0
    low, high = wilson_interval(wins, games)
    return {"games": games, "wins": int(wins), "win_rate": wins / games, "ci95": [low, high], "score": score / games}


def plot(points: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([p["timesteps"] for p in points])
    rate = np.array([p["win_rate"] for p in points])
    low = np.array([p["ci95"][0] for p in points])
    high = np.array([p["ci95"][1] for p in points])
    fig, ax = plt.subplots(figsize=(6.4, 4))
    ax.fill_between(steps, low, high, alpha=0.25, label="95 % interval")
    ax.plot(steps, rate, marker="o", label="MaskablePPO vs random")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="even")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel(f"win rate ({points[0]['games']} games per point)")
    ax.set_ylim(0, 1)
    ax.set_title("2-player Catan: MaskablePPO against boardzero's random agent")
    ax.legend(loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=100_000, help="learner decisions to train on")
    parser.add_argument("--eval-every", type=int, default=20_000, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=100, help="games per evaluation")
    parser.add_argument("--turn-limit", type=int, default=200, help="turns before a game stops (ranked by points)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=None, help="PNG of the learning curve (JSON beside it)")
    args = parser.parse_args(argv)
    sb3_contrib = require("sb3_contrib", "rl")
    torch = require("torch", "rl")
    torch.set_num_threads(1)

    env = make_env("catan", ["random"], players=2, turn_limit=args.turn_limit, returns="vp")
    env.reset(seed=args.seed)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=2048,
        batch_size=256,
        learning_rate=3e-4,
        gamma=0.999,
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    points, start = [], time.perf_counter()
    done_steps = 0
    while True:
        result = evaluate(model, args.eval_games, 10_000 + args.seed * 1000, args.turn_limit)
        result.update(timesteps=done_steps, seconds=round(time.perf_counter() - start, 1))
        points.append(result)
        low, high = result["ci95"]
        print(
            f"{done_steps:>8} steps  {time.perf_counter() - start:7.0f} s  win rate vs random "
            f"{100 * result['win_rate']:5.1f} % [{100 * low:.1f}, {100 * high:.1f}] ({args.eval_games} games)",
            flush=True,
        )
        if done_steps >= args.timesteps:
            break
        chunk = min(args.eval_every, args.timesteps - done_steps)
        model.learn(chunk, reset_num_timesteps=False)
        done_steps = model.num_timesteps
    if args.plot is not None:
        plot(points, args.plot)
        args.plot.with_suffix(".json").write_text(json.dumps(points, indent=1))
        print(f"saved {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
