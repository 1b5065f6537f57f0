"""Game records of a fixed list of matches, to prove a change of the engines, bots or agents plays the same games.

Plays each match of ``MATCHES`` (Catan with 2, 3 and 4 players, Connect 4, tic-tac-toe and Kuhn poker; the bots,
the solvers, rollout MCTS and the shipped learned agents; fixed seeds) through ``eval.arena.run_arena`` with one worker and its record writer, the path ``boardzero arena
--records`` takes, then writes every game's record as ``<match>-<game>.json`` (sorted keys) and
``digests.txt``: one ``sha256  file`` line per record. Two runs play the same games exactly when their
``digests.txt`` are equal:

    python bench/record_identity.py /tmp/before      # on the old tree
    python bench/record_identity.py /tmp/after       # on the new one
    diff /tmp/before/digests.txt /tmp/after/digests.txt

Every bot and every chance draw reads its generator from the arena's seed, so a difference means the engine
applied an action differently, offered different legal actions, or a bot read the state differently.
Usage: ``python bench/record_identity.py OUT_DIR [--quick]`` (``--quick``: the first game of each match).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

from boardzero.eval.arena import run_arena
from boardzero.play.records import read_records

# (name, game, options, agents, games, seed): a few games each; the searching agents play fewer
MATCHES = [
    ("p2-heuristic-weighted", "catan", {"players": 2, "board": "random"}, ["heuristic", "weighted"], 4, 11),
    ("p2-heuristic-random", "catan", {"players": 2, "board": "beginner"}, ["heuristic", "random"], 2, 12),
    (
        "p3-heuristic-weighted-random",
        "catan",
        {"players": 3, "board": "random"},
        ["heuristic", "weighted", "random"],
        3,
        13,
    ),
    (
        "p4-heuristic-weighted-random",
        "catan",
        {"players": 4, "board": "random"},
        ["heuristic", "weighted", "random", "heuristic"],
        4,
        14,
    ),
    ("p4-weighted-random", "catan", {"players": 4, "board": "fixed:3"}, ["weighted", "random"], 2, 15),
    ("p2-best-heuristic", "catan", {"players": 2, "board": "random"}, ["best:fast", "heuristic"], 1, 16),
    ("p3-best-heuristic", "catan", {"players": 3, "board": "random"}, ["best:fast", "heuristic", "weighted"], 1, 17),
    (
        "p4-best-heuristic",
        "catan",
        {"players": 4, "board": "random"},
        ["best:fast", "heuristic", "weighted", "random"],
        1,
        18,
    ),
    ("p2-best-searching", "catan", {"players": 2, "board": "random"}, ["best", "heuristic"], 1, 19),
    ("connect4-best-mcts", "connect4", {}, ["best:sims=64", "mcts:sims=64"], 2, 20),
    ("connect4-solver-random", "connect4", {}, ["solver", "random"], 2, 21),
    ("tictactoe-best-solver", "tictactoe", {}, ["best", "solver"], 2, 22),
    ("kuhn-best-random", "kuhn_poker", {"players": 3}, ["best", "random", "mcts:sims=32"], 3, 23),
]


def play_matches(out: Path, *, quick: bool = False) -> list[str]:
    """Play every match, write each record and return the digest lines."""
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, game, options, agents, games, seed in MATCHES:
        start = time.process_time()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "records.jsonl"
            run_arena(
                game, agents, num_games=1 if quick else games, seed=seed, workers=1, records=path, options=options
            )
            records = sorted(read_records(path), key=lambda r: r["index"])
        for record in records:
            text = json.dumps(record, sort_keys=True, separators=(",", ":"))
            file = f"{name}-{record['index']}.json"
            (out / file).write_text(text + "\n", encoding="utf-8")
            lines.append(f"{hashlib.sha256(text.encode()).hexdigest()}  {file}")
        print(
            f"{name}: {len(records)} games, {sum(len(r['actions']) for r in records)} actions, "
            f"{time.process_time() - start:.1f} s CPU",
            file=sys.stderr,
        )
    (out / "digests.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="directory for the records and digests.txt")
    parser.add_argument("--quick", action="store_true", help="only the first game of each match")
    args = parser.parse_args(argv)
    lines = play_matches(args.out, quick=args.quick)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
