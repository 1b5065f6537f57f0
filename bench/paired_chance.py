"""How many games a paired comparison needs when chance comes from the game's own stream, against when it came
from the agents' stream.

Two agents A and B each play the same games against one opponent O (2-player Catan by default): game ``i`` of
both matches has the key ``(seed, i)`` and the seats of the one rotation, as ``boardzero arena --seed`` plays
it and ``boardzero compare`` pairs it. The comparison is the sign test over the games won by one side only,
``z = (only_a - only_b) / sqrt(only_a + only_b)``; playing ``n`` pairs gives a z that grows with ``sqrt(n)``,
so the pairs needed for a target z are ``n * (target / z) ** 2``. Two ways of drawing chance, side by side on
the same keys:

- ``game stream`` (boardzero's): every chance outcome from the game's own stream keyed by (setup seed, ply);
- ``agents' stream`` (as boardzero drew it before): the chance outcomes drawn from the stream the agents draw
  from, emulated here by drawing each one from the session's ``agent_rng``.

It also prints the share of chance plies where both games of a pair stand at a chance node with the same
outcomes and draw the same one. Usage: ``python bench/paired_chance.py [--games N] [--target Z] [--seed S]``.
"""

from __future__ import annotations

import argparse
import math
import time
from contextlib import contextmanager

from boardzero.agents.registry import make_agent
from boardzero.core.api import CHANCE, sample_chance
from boardzero.core.registry import make
from boardzero.eval.figures import winner_of
from boardzero.play.rotation import seating
from boardzero.play.runner import MatchGame, Table
from boardzero.play.session import GameSession


@contextmanager
def chance_from_agents_stream():
    """Sessions with an ``agent_rng`` draw chance from it too (the earlier way), for as long as this lasts."""
    original = GameSession.choose

    def choose(self):
        if self.pending().kind == "chance" and self.agent_rng is not None:
            return int(sample_chance(self.state, self.agent_rng))
        return original(self)

    GameSession.choose = choose
    try:
        yield
    finally:
        GameSession.choose = original


def chance_plies(session: GameSession) -> dict[int, tuple[tuple, int]]:
    plies, state = {}, session.game.new_state(seed=session.seed)
    for ply, (player, action) in enumerate(session.moves):
        if player == CHANCE:
            plies[ply] = (tuple(state.chance_outcomes()), action)
        state.apply(action)
    return plies


def paired(game, specs: dict[str, str], games: int, seed: int) -> dict[str, float]:
    table = Table(game, {name: (lambda spec=spec: make_agent(spec, game)) for name, spec in specs.items()})
    only_a = only_b = same = chance = 0
    for i in range(games):
        played = {}
        for side in ("A", "B"):
            seats = seating((side, "O"), game.num_players, i)
            session = table.play(MatchGame((seed, i), seats))
            played[side] = (session, seats.index(side))
        won = {side: winner_of(s.state.returns().tolist()) == seat for side, (s, seat) in played.items()}
        only_a += won["A"] and not won["B"]
        only_b += won["B"] and not won["A"]
        first, second = (chance_plies(played[side][0]) for side in ("A", "B"))
        chance += len(first)
        same += sum(1 for ply, drawn in first.items() if second.get(ply) == drawn)
    split = only_a + only_b
    z = (only_a - only_b) / math.sqrt(split) if split else 0.0
    return {"only_a": only_a, "only_b": only_b, "z": z, "same_chance": same / max(chance, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="pairs of games per way of drawing chance")
    parser.add_argument("--target", type=float, default=2.0, help="the z a comparison should reach")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="heuristic")
    parser.add_argument("--b", default="weighted")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    game = make("catan", players=args.players)
    specs = {"A": args.a, "B": args.b, "O": args.opponent}
    print(f"catan, {args.players} players: {args.a} (A) and {args.b} (B) against {args.opponent}, {args.games} pairs")
    rows = {}
    for name in ("game stream", "agents' stream"):
        start = time.process_time()
        if name == "game stream":
            rows[name] = paired(game, specs, args.games, args.seed)
        else:
            with chance_from_agents_stream():
                rows[name] = paired(game, specs, args.games, args.seed)
        row = rows[name]
        needed = args.games * (args.target / row["z"]) ** 2 if row["z"] else math.inf
        row["needed"] = needed
        print(
            f"{name:>15}: only A {row['only_a']:>4}, only B {row['only_b']:>4}, z {row['z']:5.2f}, "
            f"same chance outcome at {100 * row['same_chance']:4.1f} % of chance plies, "
            f"pairs for z={args.target:g}: {needed:7.0f}  ({time.process_time() - start:.0f} s CPU)"
        )
    if all(math.isfinite(row["needed"]) for row in rows.values()):
        ratio = rows["agents' stream"]["needed"] / rows["game stream"]["needed"]
        print(f"pairs needed, agents' stream / game stream: {ratio:.2f}")
    else:
        print("pairs needed: no games won by one side only in one of the ways; take closer agents or more pairs")


if __name__ == "__main__":
    main()
