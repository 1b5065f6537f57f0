"""How many games a paired comparison needs when both games of a pair roll the same dice (chance from the game's
own stream, keyed by the game, the chance lane and the count drawn in it), against when their dice differ.

Two agents A and B each play the same games against one opponent O: game ``i`` of both matches has the key
``(seed, i)`` and the seats of the one rotation, as ``boardzero arena --seed`` plays it. Each game's record
goes to a JSON-lines file per side and way (``--records DIR``: ``<way>-a.jsonl``, ``<way>-b.jsonl``), and the
pairs are compared by ``eval.paired.compare_records``, what ``boardzero compare`` prints. The ways of drawing
chance, pair by pair on the same keys (interleaved, so stopping early leaves the ways with as many pairs):

- ``shared dice`` (boardzero's): every chance outcome of both games from the game's stream keyed by its setup
  seed, its lane and the count drawn in that lane (Catan: the k-th roll of the dice; the j-th card drawn or
  steal), so the two games roll the same dice turn by turn even after one of them made more moves;
- ``own dice`` (as before boardzero keyed chance by the game): B's game draws its chance outcomes from the
  same kind of stream keyed by another seed (its setup seed plus ``2**31``), so the two games of a pair share
  the board and the seats but not the dice;
- ``shared by ply`` (how boardzero keyed chance before): both games draw from the game's stream keyed by the
  ply, so they roll the same dice only as long as their move counts agree.

Whatever function turns a seed and a key into an outcome, only the numbers it is given change, so the figures
do not depend on that function. A pair's difference is ``d = won_a - won_b`` (1, 0 or -1). The sign test's
``z`` over ``n`` pairs is about ``mean(d) sqrt(n) / sd(d)``, and the mean of ``d`` is the same every way
(chance is drawn with the same probabilities), so the pairs needed for a given z go as ``var(d)``: the ratio
of two ways' variances is the ratio of the games they need. It prints each way's discordant share and
``var(d)`` with 95 % intervals, and var(own dice) / var(way) with a 95 % bootstrap interval.

    python bench/paired_chance.py [--players 2] [--pairs 400] [--a best:fast] [--b best:greedy] \
        [--opponent heuristic] [--seed 0] [--records DIR] [--ways "shared dice,own dice"] [--summary-only] [--json]
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
from boardzero.core.chance import keyed_chance
from boardzero.core.registry import make
from boardzero.eval.paired import compare_records
from boardzero.eval.stats import wilson_interval
from boardzero.play.rotation import seating
from boardzero.play.runner import MatchGame, Table, record_of
from boardzero.play.session import GameSession

WAYS = ("shared dice", "own dice", "shared by ply")
OTHER_DICE = 2**31  # added to B's setup seed to key its chance in "own dice"


@contextmanager
def chance_keyed_by_ply():
    """While it lasts, a session draws each chance outcome keyed by the ply instead of its lane and the count
    drawn in that lane (how boardzero keyed chance before), so two games roll the same dice only while they
    have made the same number of moves. Only the number the session's stream is keyed with changes."""
    original = GameSession._choose

    def _choose(self, pending):
        if pending.kind != "chance":
            return original(self, pending)
        return int(keyed_chance(self.state, self.seed or 0, self.ply))

    GameSession._choose = _choose
    try:
        yield
    finally:
        GameSession._choose = original


@contextmanager
def chance_seed_offset(offset: int):
    """While it lasts, sessions draw each chance outcome as they always do but keyed by ``seed + offset``
    instead of their setup seed (the setup is already dealt; the agents draw from their own stream)."""
    original = GameSession._choose

    def _choose(self, pending):
        if pending.kind != "chance":
            return original(self, pending)
        seed = self.seed
        self.seed = (seed or 0) + offset
        try:
            return original(self, pending)
        finally:
            self.seed = seed

    GameSession._choose = _choose
    try:
        yield
    finally:
        GameSession._choose = original


def play_pairs(game, specs: dict[str, str], pairs: int, seed: int, folder: Path, log=None, ways=WAYS) -> None:
    """``pairs`` pairs per way into ``folder``'s record files, interleaved: pair i of every way, then i + 1."""
    tables = {
        side: Table(game, {side: lambda s=specs[side]: make_agent(s, game), "O": lambda: make_agent(specs["O"], game)})
        for side in "AB"
    }
    files = {
        (way, side): (folder / f"{way.replace(' ', '-')}-{side.lower()}.jsonl").open("a")
        for way in ways
        for side in "AB"
    }
    try:
        for i in range(pairs):
            for way in ways:
                for side in "AB":
                    task = MatchGame((seed, i), seating((side, "O"), game.num_players, i))
                    if way == "own dice" and side == "B":
                        with chance_seed_offset(OTHER_DICE):
                            session = tables[side].play(task)
                    elif way == "shared by ply":
                        with chance_keyed_by_ply():
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
    """Each way's comparison (``compare_records``) whose files ``folder`` holds, its discordant share and var(d)
    with 95 % intervals, and var(own dice) / var(way) for the others with 95 % bootstrap intervals over the
    pairs: how many times the games a way needs for the same z the own dice need."""
    ways, diffs = {}, {}
    for way in WAYS:
        stem = way.replace(" ", "-")
        if not (folder / f"{stem}-a.jsonl").exists():
            continue
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
    own = diffs.get("own dice")
    for way, d in diffs.items():
        if way == "own dice" or own is None:
            continue
        ratios = []
        for _ in range(bootstrap):
            vs, vo = np.var(rng.choice(d, len(d))), np.var(rng.choice(own, len(own)))
            if vs > 0:
                ratios.append(vo / vs)
        ways[way]["games_ratio"] = float(np.var(own) / np.var(d)) if np.var(d) > 0 else math.inf
        ways[way]["games_ratio_interval"] = (
            [float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975))] if ratios else [math.nan, math.nan]
        )
    return {"ways": ways}


def report(result: dict) -> None:
    for way, row in result["ways"].items():
        dl, dh = row["discordant_interval"]
        vl, vh = row["var_d_interval"]
        a, b = row["a"], row["b"]
        print(
            f"{way:>14}: {row['games']} pairs; A {a['wins']} wins, B {b['wins']} wins; won by one only "
            f"{row['only_a']} + {row['only_b']} = {100 * row['discordant']:.1f} % [{100 * dl:.1f}, {100 * dh:.1f}]; "
            f"var(d) {row['var_d']:.3f} [{vl:.3f}, {vh:.3f}]; z {row['z']:.2f}"
        )
    for way, row in result["ways"].items():
        if "games_ratio" in row:
            low, high = row["games_ratio_interval"]
            print(
                f"games for the same z, own dice / {way}: {row['games_ratio']:.2f} [{low:.2f}, {high:.2f}] "
                f"({way} needs {100 / row['games_ratio']:.0f} % of the games)"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=400, help="pairs of games per way of drawing chance")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="best:fast")
    parser.add_argument("--b", default="best:greedy")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--records", type=Path, help="folder for the record files (default: a temporary one)")
    parser.add_argument("--summary-only", action="store_true", help="only summarise the records in --records")
    parser.add_argument("--ways", default=",".join(WAYS), help=f"comma-separated, of: {', '.join(WAYS)}")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ways = [way.strip() for way in args.ways.split(",") if way.strip()]
    if not ways or any(way not in WAYS for way in ways):
        parser.error(f"--ways takes some of {', '.join(WAYS)}; got {args.ways!r}")
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
            play_pairs(game, specs, args.pairs, args.seed, folder, log=lambda text: print(text, flush=True), ways=ways)
            print(f"{time.process_time() - start:.0f} s CPU", flush=True)
        result = summary(folder)
    if args.json:
        print(json.dumps(result))
    else:
        report(result)


if __name__ == "__main__":
    main()
