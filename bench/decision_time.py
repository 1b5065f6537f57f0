"""Time per decision of an agent in real games: median, 95th percentile and maximum, on one core.

After one untimed decision (first-use compiling), the agent plays whole
games against opponents (seats rotated); each of its decisions with more than
one legal move is timed in CPU seconds of this process (steady beside other
jobs) and in wall seconds. Forced moves are not
counted: every agent plays them at once. One line per player count (or one
JSON object each, ``--json``).

    python bench/decision_time.py catan --agent best --against heuristic --players 2 3 4 --games 6

``--first N`` stops each game after its first N decisions (every seat's): Catan's setup is ``4 x players``, so
``--first 16`` times the setup alone, quickly. The line also gives the number of legal moves at the slowest
decision.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time

import numpy as np
import torch

from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.core.view import SeatView, view_for
from boardzero.play.runner import play_game


def warm_up(game, spec: str, seed: int) -> None:
    """One untimed decision first: compiling the game's and the agent's code on first use is not a move's
    cost (the web server and ``boardzero play`` pay it once, at start)."""
    state = game.new_state(seed=seed)
    rng = np.random.default_rng(seed)
    while state.current_player < 0:
        state.apply(state.chance_outcome_at(rng.random()))
    make_agent(spec, game).act(view_for(state, state.current_player), rng)


class _Enough(Exception):
    """Raised to end a game once its first decisions are played (``--first``)."""


class _Stop:
    """``play_game``'s step hook that ends a game after its first ``first`` decisions (0: never)."""

    def __init__(self, first: int):
        self.first, self.made = first, 0

    def __call__(self, _state, player: int, _action: int) -> None:
        self.made += player >= 0
        if self.first and self.made >= self.first:
            raise _Enough


def time_decisions(
    game_name: str, spec: str, against: str, players: int | None, games: int, seed: int, first: int = 0
) -> dict:
    options = {"players": players} if players else {}
    game = make(game_name, **options)
    cpu: list[float] = []
    wall: list[float] = []
    legal: list[int] = []
    warm_up(game, spec, seed)
    for index in range(games):
        agent = make_agent(spec, game)
        seat = index % game.num_players
        original = agent.act

        def timed_act(view: SeatView, rng: np.random.Generator, act=original) -> int:
            if len(view.legal_actions) < 2:
                return act(view, rng)
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            action = act(view, rng)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start_wall)
            legal.append(len(view.legal_actions))
            return action

        agent.act = timed_act
        agents = [agent if s == seat else make_agent(against, game) for s in range(game.num_players)]
        with contextlib.suppress(_Enough):
            play_game(
                game, agents, np.random.default_rng([seed, index]), seed=seed * 1000 + index, on_step=_Stop(first)
            )

    def quantiles(values: list[float]) -> dict:
        array = np.asarray(values) * 1000.0
        return {
            "median_ms": float(np.median(array)),
            "p95_ms": float(np.percentile(array, 95)),
            "max_ms": float(array.max()),
        }

    return {
        "game": game_name,
        "players": game.num_players,
        "agent": spec,
        "against": against,
        "games": games,
        "first": first,
        "decisions": len(cpu),
        "legal_at_slowest": legal[int(np.argmax(cpu))],
        "threads": torch.get_num_threads(),
        "cpu": quantiles(cpu),
        "wall": quantiles(wall),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="catan", help="game name (default: catan)")
    parser.add_argument("--agent", default="best", help="agent spec timed (default: best)")
    parser.add_argument("--against", default="heuristic", help="the other seats' agent spec (default: heuristic)")
    parser.add_argument(
        "--players",
        type=int,
        nargs="*",
        default=[2, 3, 4],
        help="player counts (default: 2 3 4; 0: the game's default)",
    )
    parser.add_argument("--games", type=int, default=4, help="games per player count, at least 1")
    parser.add_argument(
        "--first", type=int, default=0, help="only each game's first N decisions, every seat's (0: whole games)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object per player count")
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if args.first < 0:
        parser.error(f"--first must be at least 0 (0: whole games), got {args.first}")
    for players in args.players:
        row = time_decisions(args.game, args.agent, args.against, players or None, args.games, args.seed, args.first)
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        c, w = row["cpu"], row["wall"]
        print(
            f"{row['game']} {row['players']}p {row['agent']} vs {row['against']}: {row['decisions']} decisions "
            f"in {row['games']} games{f' (first {first} decisions)' if (first := row['first']) else ''}; CPU ms median {c['median_ms']:.1f}, p95 {c['p95_ms']:.1f}, "
            f"max {c['max_ms']:.1f} ({row['legal_at_slowest']} legal); wall ms median {w['median_ms']:.1f}, p95 {w['p95_ms']:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
