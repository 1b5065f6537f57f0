"""When does a TD network see what a Catan setup is worth? Play games where one seat takes its setup from one
agent and the rest of the game from another (as in ``catan_setup_swap.py``), and read a value network's
estimate of that seat's result at fixed points after the setup, beside the results the games really had.

    python examples/catan_value_probe.py --setup heuristic --rest best:fast --opponent best:fast \\
        --probe src/boardzero/models/catan/model-2p.json -p 2 -n 300
    python examples/catan_value_probe.py --setup best:fast --rest best:fast --opponent best:fast \\
        --probe src/boardzero/models/catan/model-2p.json -p 2 -n 300

The value is read from the measured seat's own observation, right after a move of its own (the positions a TD
network learns), at the first such position at least K decisions (every seat's) after the first roll. Game i is
dealt and rolled from ``(seed, i)`` alone; the measured seat is ``i % players``. With the network's own setup a
seat wins about its share, so comparing the two commands shows whether the values rank the two setups as the
results do, and how many decisions into the game they start to. Beside the result it prints the discounted result
(the result times ``--gamma``, by default the network's ``td.gamma``, per decision with a choice left to the end):
what a discounted TD value estimates, so a network that is right about its own objective matches that.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import torch
from catan_setup_swap import SetupSwap

from boardzero.agents.registry import make_agent
from boardzero.core.api import CHANCE
from boardzero.core.registry import make
from boardzero.eval.stats import wilson_interval
from boardzero.nn.checkpoint import load_network
from boardzero.play.runner import play_game

MARKS = (0, 10, 20, 40, 80, 160)


def probe_game(
    game, agents, seat: int, net, key: str, rng: np.random.Generator
) -> tuple[float, dict[int, tuple[float, int]]]:
    """Play one game; the seat's result and, at each mark reached, the network's value of the seat's position
    and the number of decisions with a choice (more than one legal move) from there to the end: the steps a
    TD target is discounted over."""
    values: dict[int, float] = {}
    choices_at: dict[int, int] = {}
    clock = {"decisions": 0, "first_roll": None, "last": None, "choices": 0}

    def on_step(state, player, action):
        first_roll = clock["first_roll"]
        if first_roll is not None and clock["last"] == seat:
            due = [m for m in MARKS if m not in values and clock["decisions"] - first_roll >= m]
            if due:
                obs = torch.from_numpy(state.observe(seat)[key][None].astype(np.float32))
                with torch.no_grad():
                    value = float(net.values(obs).float()[0, 0])
                values[due[0]] = value
                choices_at[due[0]] = clock["choices"]
        if player == CHANCE and first_roll is None:
            clock["first_roll"] = clock["decisions"]
        if player != CHANCE:
            clock["decisions"] += 1
            clock["last"] = player
            clock["choices"] += int(len(state.legal_actions()) > 1)

    final = play_game(game, agents, rng, seed=int(rng.integers(2**31)), on_step=on_step)
    return float(final.returns()[seat]), {m: (v, clock["choices"] - choices_at[m]) for m, v in values.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", required=True, help="agent spec that plays the measured seat's setup")
    parser.add_argument("--rest", required=True, help="agent spec that plays the rest of its game")
    parser.add_argument("--opponent", required=True, help="agent spec of every other seat")
    parser.add_argument("--probe", required=True, help="TD checkpoint whose values are read")
    parser.add_argument("-p", "--players", type=int, default=2)
    parser.add_argument("-n", "--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--gamma",
        type=float,
        default=None,
        help="discount per decision with a choice for the discounted result (default: the probed network's td.gamma)",
    )
    args = parser.parse_args()
    game = make("catan", players=args.players)
    net, meta = load_network(args.probe, game=game, trainers=("td",))
    net.eval()
    gamma = args.gamma if args.gamma is not None else float(meta.get("config", {}).get("td", {}).get("gamma", 1.0))
    key = net.spec.observation_key
    measured = SetupSwap(game, args.setup, args.rest)  # made once: play_game resets the agents each game
    opponents = [make_agent(args.opponent, game) for _ in range(args.players - 1)]
    results, at_mark = [], {m: [] for m in MARKS}
    for i in range(args.games):
        seat = i % args.players
        agents = opponents[:seat] + [measured] + opponents[seat:]
        result, values = probe_game(game, agents, seat, net, key, np.random.default_rng([args.seed, i]))
        results.append(result)
        for mark, (value, left) in values.items():
            at_mark[mark].append((value, result, gamma**left * result, left))
    wins = int(sum(r == 1.0 for r in results))
    low, high = wilson_interval(wins, len(results))
    rows = []
    for mark in MARKS:
        pairs = np.array(at_mark[mark]).reshape(-1, 4)
        if len(pairs) > 1:
            rows.append(
                {
                    "decisions_after_first_roll": mark,
                    "games": len(pairs),
                    "mean_value": round(float(pairs[:, 0].mean()), 4),
                    "mean_result": round(float(pairs[:, 1].mean()), 4),
                    "mean_discounted_result": round(float(pairs[:, 2].mean()), 4),
                    "mean_choices_left": round(float(pairs[:, 3].mean()), 1),
                    "correlation": round(float(np.corrcoef(pairs[:, 0], pairs[:, 1])[0, 1]), 3),
                }
            )
    print(
        json.dumps(
            {
                "setup": args.setup,
                "rest": args.rest,
                "opponent": args.opponent,
                "probe": args.probe,
                "players": args.players,
                "seed": args.seed,
                "gamma": gamma,
                "games": len(results),
                "wins": wins,
                "win_rate_ci95": [round(low, 4), round(high, 4)],
                "marks": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
