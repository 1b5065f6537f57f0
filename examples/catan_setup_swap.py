"""How much of a Catan agent's result comes from its setup? Play the setup with one agent and the rest of the game
with another, against a fixed opponent, and print the win rate with its 95 % interval.

    python examples/catan_setup_swap.py --setup heuristic --rest best:fast --opponent heuristic -p 2 -n 400
    python examples/catan_setup_swap.py --setup best:fast --rest best:fast --opponent heuristic -p 2 -n 400

The measured entrant places its two setup settlements and roads as ``--setup`` would and plays every later move
as ``--rest`` would; the opponent takes the other seats, seats rotated (``boardzero arena``'s games: game i of
``--seed S`` is the same deal as in ``boardzero arena catan A B --seed S``, so two swaps on one seed are paired).
It also prints the measured entrant's mean production right after the setup (pips per resource under its two
settlements, robber excepted), which shows what the setup agent prefers. Everything runs in this process (one core).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent, register_agent
from boardzero.core.api import Game
from boardzero.eval.arena import run_arena
from boardzero.eval.stats import wilson_interval
from boardzero.games.catan import engine as E
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.observe import FLAT_SIZE, GLOBAL_NAMES, NODE_EXTRA

SETUP_PHASES = (E.PH_SETUP_SETTLEMENT, E.PH_SETUP_ROAD)
PHASE_AT = GLOBAL_NAMES.index("phase.0")  # the phase one-hot in the observation
OWN_PRODUCTION_AT = FLAT_SIZE + 54 * NODE_EXTRA  # the observer's pips per resource in the rich features


class SetupSwap(Agent):
    """Plays the setup (settlements and roads before the first roll) as ``setup`` does, the rest as ``rest``."""

    def __init__(self, game: Game, setup: str, rest: str):
        self.setup, self.rest = make_agent(setup, game), make_agent(rest, game)
        self.production: list[np.ndarray] = []  # pips per resource after the setup, one row per game
        self.counted = False

    def reset(self) -> None:
        self.setup.reset()
        self.rest.reset()
        self.counted = False

    def act(self, view, rng: np.random.Generator) -> int:
        phases = view.observation["flat"][PHASE_AT : PHASE_AT + E.NUM_PHASES]
        in_setup = bool(phases[list(SETUP_PHASES)].any())
        if not in_setup and not self.counted:
            self.counted = True
            self.production.append(production(view))
        return (self.setup if in_setup else self.rest).act(view, rng)


def production(view) -> np.ndarray:
    """The seat's pips per resource (wood, brick, sheep, wheat, ore) from its own view's rich features."""
    return view.observation["rich"][OWN_PRODUCTION_AT : OWN_PRODUCTION_AT + 5] * 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", required=True, help="agent spec that plays the setup")
    parser.add_argument("--rest", required=True, help="agent spec that plays the rest of the game")
    parser.add_argument("--opponent", default="heuristic", help="agent spec of every other seat")
    parser.add_argument("-p", "--players", type=int, default=2)
    parser.add_argument("-n", "--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    entrants: list[SetupSwap] = []

    def factory(game: Game) -> Agent:
        entrants.append(SetupSwap(game, args.setup, args.rest))
        return entrants[-1]

    register_agent("setup-swap", factory)
    result = run_arena(
        "catan",
        ["setup-swap", args.opponent],
        num_games=args.games,
        options={"players": args.players},
        seed=args.seed,
        workers=1,
    )
    wins, games = result.entrants[0].wins, result.entrants[0].results
    low, high = wilson_interval(wins, games)
    rows = np.concatenate([np.array(e.production).reshape(-1, 5) for e in entrants])
    print(
        json.dumps(
            {
                "setup": args.setup,
                "rest": args.rest,
                "opponent": args.opponent,
                "players": args.players,
                "seed": args.seed,
                "wins": wins,
                "games": games,
                "win_rate": round(wins / games, 4),
                "win_rate_ci95": [round(low, 4), round(high, 4)],
                "pips_after_setup": {name: round(float(v), 2) for name, v in zip(RESOURCE_NAMES, rows.mean(axis=0))},
            }
        )
    )


if __name__ == "__main__":
    main()
