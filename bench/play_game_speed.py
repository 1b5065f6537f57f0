"""Random-bot games through ``play_game`` (the per-step loop the arena, tournaments and evaluations use), on
one or more boardzero trees side by side.

Each game is ``play_game(game, [random agent per seat], default_rng(g), seed=g)``: the random agent costs
little, so the figure is the loop's own overhead per step (the session, the seat views, the chance draws) on
top of the engine. Dice may differ between trees (a tree may key its chance stream differently), so the figure
compared is CPU time per step, chance steps included, and per game.

With ``--trees A B ...`` each round runs this script once per tree, in turn, in a fresh process with that
tree's ``src`` first on ``PYTHONPATH`` (rounds interleaved, so changes of machine load hit every tree alike),
and prints the median of each figure and its ratio to the first tree. Without it, it measures the boardzero it
imports and prints one line (or one JSON line with ``--json``).

    python bench/play_game_speed.py --trees /path/to/old . --rounds 3 --games 20
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def _play_game():
    """``play_game`` wherever the imported tree keeps it (play/ now, agents/ before)."""
    try:
        from boardzero.play.runner import play_game
    except ImportError:
        from boardzero.agents.play import play_game  # type: ignore[no-redef]
    return play_game


def measure(game_name: str, players: int, games: int) -> dict:
    """CPU time per step and per game of ``games`` random-bot games (setup seeds 0..games-1)."""
    import boardzero
    from boardzero.agents.registry import make_agent

    play_game = _play_game()
    game = boardzero.make(game_name, **({"players": players} if players else {}))
    agents = [make_agent("random", game) for _ in range(game.num_players)]
    play_game(game, agents, np.random.default_rng(10**6), seed=10**6)  # compile and warm up outside the timing
    steps = 0
    start = time.process_time()
    for g in range(games):
        state = play_game(game, agents, np.random.default_rng(g), seed=g)
        steps += len(state.history)
    seconds = time.process_time() - start
    return {
        "benchmark": "play_game_speed",
        "game": game_name,
        "players": players,
        "games": games,
        "steps": steps,
        "us_per_step": seconds / steps * 1e6,
        "ms_per_game": seconds / games * 1e3,
    }


def run_tree(tree: Path, args: argparse.Namespace) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    command = [sys.executable, str(Path(__file__).resolve()), "--json", "--game", args.game]
    command += ["--players", str(args.players), "--games", str(args.games)]
    out = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=True).stdout
    return json.loads(next(line for line in out.splitlines() if line.startswith("{")))


def compare(trees: list[Path], args: argparse.Namespace) -> None:
    runs: dict[Path, list[dict]] = {tree: [] for tree in trees}
    for _ in range(args.rounds):
        for tree in trees:
            runs[tree].append(run_tree(tree.resolve(), args))
    print(f"{args.game} {args.players}p, random agents, {args.games} games a run; median of {args.rounds} rounds")
    reference = {m: statistics.median(r[m] for r in runs[trees[0]]) for m in ("us_per_step", "ms_per_game")}
    for tree in trees:
        median = {m: statistics.median(r[m] for r in runs[tree]) for m in reference}
        ratios = "  ".join(f"{m} x{median[m] / reference[m]:.2f}" for m in reference)
        steps = runs[tree][0]["steps"]
        print(
            f"  {str(tree):40s} {median['us_per_step']:8.2f} us/step  {median['ms_per_game']:8.1f} ms/game"
            f"  ({steps} steps)  vs first: {ratios}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="catan", help="a registered game (default catan)")
    parser.add_argument("--players", type=int, default=3, help="players (default 3; 0: the game's own)")
    parser.add_argument("--games", type=int, default=20, help="games per run (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds with --trees (default 3)")
    parser.add_argument("--trees", type=Path, nargs="+", help="boardzero checkouts to compare (the first: reference)")
    parser.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = parser.parse_args()
    if args.trees:
        compare(args.trees, args)
        return
    row = measure(args.game, args.players, args.games)
    if args.json:
        print(json.dumps(row))
    else:
        print(f"{row['us_per_step']:.2f} us per step, {row['ms_per_game']:.1f} ms per game ({row['steps']} steps)")


if __name__ == "__main__":
    main()
