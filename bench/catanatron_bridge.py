"""Decision time of catanatron's bots inside catanatron against the same bots bridged into boardzero.

What is measured, one process, one core, side by side in the same run (2-player games, 10 points):

- inside catanatron: ``Game([bot, bot]).play()`` on catanatron's own engine, the bot's ``decide`` timed
  at every decision with more than one playable action (forced moves are not asked of a bridged bot
  either);
- bridged: a boardzero game between two ``catanatron:<bot>`` agents (fair sight); the time of each
  decision the bot is asked for, from the seat view to the chosen boardzero action: drawing the hidden
  cards (``view.sample_state``), building catanatron's position, the bot's ``decide`` and mapping its
  choice back. The bot's own ``decide`` share is printed beside it.

Both sides play whole games on random boards (different positions, so the per-decision figures are means
over comparable but not identical positions); they run interleaved game by game so other load on the
machine hits both alike. ``ratio`` = bridged ms per decision / inside-catanatron ms per decision.
Usage: ``python bench/catanatron_bridge.py [--games N] [--bots value alphabeta ...] [--quick] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

try:
    from catanatron import Color, Game

    from boardzero.agents.registry import make_agent
    from boardzero.core.registry import make
    from boardzero.integrations.catanatron import BOTS, available_bots
    from boardzero.integrations.catanatron.bots import _bot_class
    from boardzero.play.runner import play_game
except Exception as exc:  # noqa: BLE001 - the message names the missing extra
    print(f"cannot run: {exc}", file=sys.stderr)
    sys.exit(0)


class Timed:
    """Wraps a catanatron player's decide with a timer (decisions with one playable action not counted)."""

    def __init__(self, player):
        self.player, self.seconds, self.decisions = player, 0.0, 0
        self.color = player.color
        self.is_bot = True

    def decide(self, game, playable_actions):
        start = time.perf_counter()
        action = self.player.decide(game, playable_actions)
        if len(playable_actions) > 1:
            self.seconds += time.perf_counter() - start
            self.decisions += 1
        return action

    def reset_state(self):
        self.player.reset_state()


def inside(bot: str, seed: int, tally: dict) -> None:
    cls = _bot_class(bot)
    players = [Timed(cls(color)) for color in (Color.RED, Color.BLUE)]
    saved = random.getstate()
    Game(players, seed=seed + 1).play()
    random.setstate(saved)
    for p in players:
        tally["seconds"] += p.seconds
        tally["decisions"] += p.decisions


def bridged(bot: str, seed: int, tally: dict) -> None:
    game = make("catan", players=2, turn_limit=1000)
    agents = [make_agent(f"catanatron:{bot}", game) for _ in range(2)]
    play_game(game, agents, np.random.default_rng(seed), seed=seed)
    for a in agents:
        tally["seconds"] += a.seconds
        tally["bot_seconds"] += a.bot_seconds
        tally["decisions"] += a.decisions
        tally["fallbacks"] += a.fallbacks


def measure(bot: str, games: int, seed: int = 0) -> dict:
    ours = {"seconds": 0.0, "bot_seconds": 0.0, "decisions": 0, "fallbacks": 0}
    theirs = {"seconds": 0.0, "decisions": 0}
    bridged(bot, seed + 10_000, dict(ours))  # load compiled code and caches outside the timing
    for g in range(games):
        inside(bot, seed + g, theirs)
        bridged(bot, seed + g, ours)
    inside_ms = 1000 * theirs["seconds"] / theirs["decisions"]
    bridged_ms = 1000 * ours["seconds"] / ours["decisions"]
    return {
        "bot": bot,
        "games": games,
        "inside_decisions": theirs["decisions"],
        "inside_ms": inside_ms,
        "bridged_decisions": ours["decisions"],
        "bridged_ms": bridged_ms,
        "bridged_bot_ms": 1000 * ours["bot_seconds"] / ours["decisions"],
        "ratio": bridged_ms / inside_ms,
        "fallbacks": ours["fallbacks"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per side and bot")
    parser.add_argument("--bots", nargs="*", default=list(BOTS), help="bots to time")
    parser.add_argument("--quick", action="store_true", help="a tiny budget (smoke test)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.bots = 1, [b for b in args.bots if b in ("random", "weighted")][:1] or ["random"]
    have = available_bots()
    for bot in args.bots:
        if not have.get(bot):
            print(f"skipping {bot}: not in this catanatron install", file=sys.stderr)
            continue
        row = measure(bot, args.games)
        if args.json:
            print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
        else:
            print(
                f"{bot:>10}: inside catanatron {row['inside_ms']:8.2f} ms/decision ({row['inside_decisions']}), "
                f"bridged {row['bridged_ms']:8.2f} ms/decision ({row['bridged_decisions']}; the bot's own "
                f"decide {row['bridged_bot_ms']:.2f} ms)  ratio {row['ratio']:.2f}x  "
                f"fallbacks {row['fallbacks']}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
