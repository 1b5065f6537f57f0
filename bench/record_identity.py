"""Catan game records of a fixed list of matches, to prove a change of the engine or the bots plays the same games.

Plays each match of ``MATCHES`` (2, 3 and 4 players; heuristic, weighted, random and ``best:fast`` bots; fixed
seeds) through ``eval.arena.run_arena`` with one worker and its record writer, the path ``boardzero arena
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
from boardzero.eval.records import read_records

# (name, players, agents, games, seed, board): a few games each; best:fast searches, so it plays fewer
MATCHES = [
    ("p2-heuristic-weighted", 2, ["heuristic", "weighted"], 4, 11, "random"),
    ("p2-heuristic-random", 2, ["heuristic", "random"], 2, 12, "beginner"),
    ("p3-heuristic-weighted-random", 3, ["heuristic", "weighted", "random"], 3, 13, "random"),
    ("p4-heuristic-weighted-random", 4, ["heuristic", "weighted", "random", "heuristic"], 4, 14, "random"),
    ("p4-weighted-random", 4, ["weighted", "random"], 2, 15, "fixed:3"),
    ("p2-best-heuristic", 2, ["best:fast", "heuristic"], 1, 16, "random"),
    ("p3-best-heuristic", 3, ["best:fast", "heuristic", "weighted"], 1, 17, "random"),
    ("p4-best-heuristic", 4, ["best:fast", "heuristic", "weighted", "random"], 1, 18, "random"),
]


def play_matches(out: Path, *, quick: bool = False) -> list[str]:
    """Play every match, write each record and return the digest lines."""
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, players, agents, games, seed, board in MATCHES:
        start = time.process_time()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "records.jsonl"
            run_arena(
                "catan",
                agents,
                num_games=1 if quick else games,
                seed=seed,
                workers=1,
                records=path,
                options={"players": players, "board": board},
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
