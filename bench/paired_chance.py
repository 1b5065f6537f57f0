"""How many games a paired comparison needs when both games of a pair roll the same dice (chance from the game's
own stream, keyed by the game and the ply), against when their dice differ.

Two agents A and B each play the same games against one opponent O: game ``i`` of both matches has the key
``(seed, i)`` and the seats of the one rotation, as ``boardzero arena --seed`` plays it. Each game's record
goes to a JSON-lines file per side and way (``--records DIR``: ``<way>-a.jsonl``, ``<way>-b.jsonl``), and the
pairs are compared by ``eval.paired.compare_records``, what ``boardzero compare`` prints. Two ways of drawing
chance, pair by pair on the same keys (interleaved, so stopping early leaves both ways with as many pairs):

- ``shared dice`` (boardzero's): every chance outcome of both games from the game's stream keyed by its setup
  seed and the ply, so the two games roll the same dice as long as their positions agree;
- ``own dice`` (as before boardzero keyed chance by the game): B's game draws its chance outcomes from the
  same kind of stream keyed by another seed (its setup seed plus ``2**31``), so the two games of a pair share
  the board and the seats but not the dice. Whatever function turns a seed and a ply into an outcome, only the
  seed it is given differs.

A pair's difference is ``d = won_a - won_b`` (1, 0 or -1). The sign test's ``z`` over ``n`` pairs is
``mean(d) sqrt(n) / sd(d)`` (for the discordant pairs, ``(only_a - only_b) / sqrt(only_a + only_b)``), and the
mean of ``d`` is the same both ways (chance is drawn with the same probabilities), so the pairs needed for a
given z go as ``var(d)``: the ratio of the two variances is the ratio of the games needed. It prints each
way's discordant share and ``var(d)`` with 95 % intervals, and that ratio with a 95 % bootstrap interval.

    python bench/paired_chance.py [--players 2] [--pairs 400] [--a best:fast] [--b best:greedy] \
        [--opponent heuristic] [--seed 0] [--records DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.eval.paired import compare_records
from boardzero.eval.stats import wilson_interval
from boardzero.play.rotation import seating
from boardzero.play.runner import MatchGame, Table, record_of
from boardzero.play.session import GameSession

WAYS = ("shared dice", "own dice")
OTHER_DICE = 2**31  # added to B's setup seed to key its chance in "own dice"


@contextmanager
def chance_seed_offset(offset: int):
    """While it lasts, sessions draw each chance outcome as they always do but keyed by ``seed + offset``
    instead of their setup seed (the setup is already dealt; the agents draw from their own stream)."""
    original = GameSession.choose

    def choose(self):
        if self.pending().kind != "chance":
            return original(self)
        seed = self.seed
        self.seed = (seed or 0) + offset
        try:
            return original(self)
        finally:
            self.seed = seed

    GameSession.choose = choose
    try:
        yield
    finally:
        GameSession.choose = original


def play_pairs(game, specs: dict[str, str], pairs: int, seed: int, folder: Path, log=None) -> None:
    """``pairs`` pairs per way into ``folder``'s record files, interleaved: pair i of every way, then i + 1."""
    tables = {
        side: Table(game, {side: lambda s=specs[side]: make_agent(s, game), "O": lambda: make_agent(specs["O"], game)})
        for side in "AB"
    }
    files = {
        (way, side): (folder / f"{way.replace(' ', '-')}-{side.lower()}.jsonl").open("a")
        for way in WAYS
        for side in "AB"
    }
    try:
        for i in range(pairs):
            for way in WAYS:
                for side in "AB":
                    task = MatchGame((seed, i), seating((side, "O"), game.num_players, i))
                    if way == "own dice" and side == "B":
                        with chance_seed_offset(OTHER_DICE):
                            session = tables[side].play(task)
                    else:
                        session = tables[side].play(task)
                    record = record_of(session, index=i)
                    record["agents"] = [specs[name] if name != side else f"{side}={specs[side]}" for name in task.seats]
                    files[way, side].write(json.dumps(record) + "\n")
                    files[way, side].flush()
            if log is not None and (i + 1) % 10 == 0:
                log(f"{i + 1} pairs per way")
    finally:
        for f in files.values():
            f.close()


def summary(folder: Path, bootstrap: int = 4000, seed: int = 0) -> dict:
    """Each way's comparison (``compare_records``), its discordant share and var(d) with 95 % intervals, and
    var(own dice) / var(shared dice) with a 95 % bootstrap interval over the pairs."""
    ways, diffs = {}, {}
    for way in WAYS:
        stem = way.replace(" ", "-")
        result = compare_records(folder / f"{stem}-a.jsonl", folder / f"{stem}-b.jsonl").to_dict()
        n, only_a, only_b = result["games"], result["only_a"], result["only_b"]
        d = np.r_[np.ones(only_a), -np.ones(only_b), np.zeros(n - only_a - only_b)]
        diffs[way] = d
        low, high = wilson_interval(only_a + only_b, n)
        rng = np.random.default_rng(seed)
        boot = [np.var(rng.choice(d, len(d))) for _ in range(bootstrap)]
        ways[way] = {
            **result,
            "discordant": (only_a + only_b) / n,
            "discordant_interval": [low, high],
            "var_d": float(np.var(d)),
            "var_d_interval": [float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))],
        }
    rng = np.random.default_rng(seed + 1)
    shared, own = diffs["shared dice"], diffs["own dice"]
    ratios = []
    for _ in range(bootstrap):
        vs = np.var(rng.choice(shared, len(shared)))
        vo = np.var(rng.choice(own, len(own)))
        if vs > 0:
            ratios.append(vo / vs)
    ratio = float(np.var(own) / np.var(shared)) if np.var(shared) > 0 else math.inf
    return {
        "ways": ways,
        "games_ratio": ratio,
        "games_ratio_interval": [float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975))]
        if ratios
        else [math.nan, math.nan],
    }


def report(result: dict, target: float) -> None:
    for way, row in result["ways"].items():
        dl, dh = row["discordant_interval"]
        vl, vh = row["var_d_interval"]
        a, b = row["a"], row["b"]
        print(
            f"{way:>11}: {row['games']} pairs; A {a['wins']} wins, B {b['wins']} wins; won by one only "
            f"{row['only_a']} + {row['only_b']} = {100 * row['discordant']:.1f} % [{100 * dl:.1f}, {100 * dh:.1f}]; "
            f"var(d) {row['var_d']:.3f} [{vl:.3f}, {vh:.3f}]; z {row['z']:.2f}"
        )
    low, high = result["games_ratio_interval"]
    print(
        f"games a paired comparison needs for the same z, own dice / shared dice: {result['games_ratio']:.2f} "
        f"[{low:.2f}, {high:.2f}] (so shared dice need {100 / result['games_ratio']:.0f} % of the games)"
    )
    shared = result["ways"]["shared dice"]
    if shared["z"]:
        print(
            f"pairs for z = {target:g} at this difference, shared dice: {shared['games'] * (target / shared['z']) ** 2:.0f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=400, help="pairs of games per way of drawing chance")
    parser.add_argument("--target", type=float, default=2.0, help="the z a comparison should reach")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="best:fast")
    parser.add_argument("--b", default="best:greedy")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--records", type=Path, help="folder for the record files (default: a temporary one)")
    parser.add_argument("--summary-only", action="store_true", help="only summarise the records in --records")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error(f"--pairs must be at least 1, got {args.pairs}")
    if args.summary_only and args.records is None:
        parser.error("--summary-only reads --records DIR: name it")
    game = make("catan", players=args.players)
    specs = {"A": args.a, "B": args.b, "O": args.opponent}
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.records or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        if not args.summary_only:
            start = time.process_time()
            print(f"catan, {args.players} players: {args.a} (A) and {args.b} (B) against {args.opponent}", flush=True)
            play_pairs(game, specs, args.pairs, args.seed, folder, log=lambda text: print(text, flush=True))
            print(f"{time.process_time() - start:.0f} s CPU", flush=True)
        result = summary(folder)
    if args.json:
        print(json.dumps(result))
    else:
        report(result, args.target)


if __name__ == "__main__":
    main()
