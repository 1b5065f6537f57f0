"""The README's random-play loop two ways, side by side in one run: drawing each move with
``rng.choice(state.legal_actions())`` (as the loop used to) and with ``state.random_action(rng)``.

Both play the same games' setups (seeds 0..n-1) through the per-step Game API; their moves differ (two ways
of drawing), so the figure compared is the time per step, chance steps included. The draw alone is timed too,
on the same decision positions for both ways. Prints one line per way and figure with the ratio, or JSON
lines with ``--json``."""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import boardzero


def choice_move(state, rng: np.random.Generator) -> int:
    return int(rng.choice(state.legal_actions()))


def random_action_move(state, rng: np.random.Generator) -> int:
    return state.random_action(rng)


WAYS = {"rng.choice": choice_move, "state.random_action": random_action_move}


def play(game, seeds: range, draw) -> tuple[int, float]:
    """(steps, CPU seconds) of one random game per seed, moves drawn by ``draw``; the README's loop."""
    steps, start = 0, time.process_time()
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.current_player == boardzero.CHANCE:
                state.apply(boardzero.sample_chance(state, rng))
            else:
                state.apply(draw(state, rng))
            steps += 1
    return steps, time.process_time() - start


def decision_positions(game, count: int) -> list:
    """``count`` decision positions of random games (seed 0, 1, ...), for timing the draw alone."""
    positions: list = []
    seed = 0
    while len(positions) < count:
        state, rng = game.new_state(seed=seed), np.random.default_rng(seed)
        while not state.is_terminal() and len(positions) < count:
            if state.current_player == boardzero.CHANCE:
                state.apply(boardzero.sample_chance(state, rng))
            else:
                positions.append(state.clone())
                state.apply(state.random_action(rng))
        seed += 1
    return positions


def draw_only(positions: list, draw) -> float:
    """CPU seconds per draw over ``positions``, nothing applied."""
    rng = np.random.default_rng(0)
    start = time.process_time()
    for state in positions:
        draw(state, rng)
    return (time.process_time() - start) / len(positions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="catan", help="a registered game (default catan)")
    parser.add_argument(
        "--players", type=int, default=3, help="players (default 3, as in the README; 0: the game's own)"
    )
    parser.add_argument("--games", type=int, default=60, help="games per way and round (default 60)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the ways alternating; the best of each counts")
    parser.add_argument("--positions", type=int, default=2000, help="decision positions for the draw alone")
    parser.add_argument("--json", action="store_true", help="JSON lines instead of text")
    args = parser.parse_args()
    game = boardzero.make(args.game, **({"players": args.players} if args.players else {}))
    play(game, range(2), choice_move)  # compile and warm up outside the timings
    best = {name: float("inf") for name in WAYS}
    steps = dict.fromkeys(WAYS, 0)
    for _ in range(args.rounds):
        for name, draw in WAYS.items():
            count, seconds = play(game, range(args.games), draw)
            steps[name] = count
            best[name] = min(best[name], seconds / count)
    positions = decision_positions(game, args.positions)
    draws = {name: min(draw_only(positions, draw) for _ in range(args.rounds)) for name, draw in WAYS.items()}
    rows = []
    for figure, per, count in (("loop", best, steps), ("draw", draws, dict.fromkeys(WAYS, len(positions)))):
        for name in WAYS:
            rows.append(
                {
                    "benchmark": "readme_loop",
                    "figure": figure,
                    "game": args.game,
                    "players": args.players,
                    "way": name,
                    "count": count[name],
                    "us_each": per[name] * 1e6,
                }
            )
        rows[-1]["speedup_vs_choice"] = per["rng.choice"] / per["state.random_action"]
    for row in rows:
        if args.json:
            print(json.dumps(row))
            continue
        what = "per step of the loop" if row["figure"] == "loop" else "per draw alone"
        extra = f"  ({row['speedup_vs_choice']:.2f}x faster)" if "speedup_vs_choice" in row else ""
        print(f"{row['way']:>20}: {row['us_each']:6.2f} us {what} ({row['count']} of them){extra}")


if __name__ == "__main__":
    main()
