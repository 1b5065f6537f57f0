"""Catan with player-to-player trading: do games still end, how long they take, how much the bots trade.

1. Random legal play (``random_playout``, the compiled loop that picks uniformly among the legal actions, the
   same choice the ``random`` agent makes), a fresh random board per game, the default 500-turn limit, with
   trading off and on: the share of games stopped by the turn limit, mean turns and steps per game, games per
   CPU second.
2. With ``--agent-games K``: K games per player count of the hand-written bots through the per-step loop
   (``play_game``), trading on: offers, completed trades and turn-limit stops per game.

Usage: ``python bench/catan_trading_games.py [--games 200] [--players 2 3 4] [--agent-games 0]
[--agents heuristic weighted random]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardzero.agents.registry import make_agent
from boardzero.games.catan import Catan, CatanOptions, engine as E, random_playout
from boardzero.play.runner import play_game


def random_games(players: int, games: int, trading: bool, seed: int) -> dict:
    game = Catan(CatanOptions(players=players, board="random", trading=trading))
    random_playout(game.initial_array(seed), seed)  # compile or load the cache outside the timing
    turns, steps, stopped = [], [], 0
    cpu = time.process_time()
    for g in range(seed, seed + games):
        s = game.initial_array(g)
        steps.append(random_playout(s, g))
        turns.append(int(s[E.G_TURN]))
        stopped += int(s[E.G_WINNER] < 0)
    cpu = time.process_time() - cpu
    return {
        "players": players,
        "trading": trading,
        "games": games,
        "turn_limit_share": stopped / games,
        "mean_turns": float(np.mean(turns)),
        "mean_steps": float(np.mean(steps)),
        "cpu_games_per_s": games / cpu,
    }


def agent_games(players: int, specs: list[str], games: int, seed: int) -> dict:
    game = Catan(CatanOptions(players=players, board="random", trading=True))
    agents = [make_agent(specs[p % len(specs)], game) for p in range(players)]
    offers = trades = stopped = turns = 0
    for g in range(seed, seed + games):
        state = play_game(game, agents, np.random.default_rng(g), seed=g)
        history = state.history
        offers += sum(E.A_OFFER <= a < E.A_ACCEPT for a in history)
        trades += sum(E.A_TRADE_WITH <= a < E.A_WITHDRAW for a in history)
        stopped += int(state.winner < 0)
        turns += state.turn
    return {
        "players": players,
        "agents": [specs[p % len(specs)] for p in range(players)],
        "games": games,
        "offers_per_game": offers / games,
        "trades_per_game": trades / games,
        "turn_limit_share": stopped / games,
        "mean_turns": turns / games,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per player count and setting")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--agent-games", type=int, default=0, help="bot games per player count (trading on)")
    parser.add_argument("--agents", nargs="*", default=["heuristic", "weighted", "random"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for players in args.players:
        for trading in (False, True):
            r = random_games(players, args.games, trading, args.seed)
            print(
                f"random {players}p trading {'on ' if trading else 'off'}: {r['games']} games, "
                f"{100 * r['turn_limit_share']:5.1f} % stopped by the turn limit, {r['mean_turns']:6.1f} turns, "
                f"{r['mean_steps']:7.0f} steps per game, {r['cpu_games_per_s']:7.1f} games per CPU second",
                flush=True,
            )
        if args.agent_games:
            r = agent_games(players, args.agents, args.agent_games, args.seed)
            print(
                f"bots {players}p {'/'.join(r['agents'])}: {r['games']} games, {r['offers_per_game']:.1f} offers and "
                f"{r['trades_per_game']:.1f} trades per game, {100 * r['turn_limit_share']:.0f} % stopped by the "
                f"turn limit, {r['mean_turns']:.0f} turns",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
