"""How much the agents of Catan games with player-to-player trading trade, read from game records.

For each records file (``boardzero arena catan ... -o trading=true --records FILE``) it replays every game and
prints, over the games: offers and trades per game and the share of answers that accepted; and for each agent
spec (per seat it held): offers made, trades completed (as the proposer or as the partner) and answers given per
game, and the share of its answers that accepted; with 95 %
intervals (normal approximation over games, and over answers for the share). Offers, answers and trades are
counted by the seat that chose them.

Usage: ``python bench/catan_trade_stats.py FILE.jsonl [FILE.jsonl ...]``
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

import numpy as np

from boardzero.core.registry import make
from boardzero.games.catan.offsets import A_ACCEPT, A_DECLINE, A_OFFER, A_TRADE_WITH, A_WITHDRAW
from boardzero.play.records import read_records


def game_counts(record: dict) -> list[dict[str, int]]:
    """Per seat: offers made, trades as proposer, trades as partner, accepts, declines."""
    options = dict(record["options"])
    game = make(record["game"], **options)
    state = game.new_state(seed=record["seed"])
    counts = [defaultdict(int) for _ in range(game.num_players)]
    for a in record["actions"]:
        seat = state.current_player
        if seat >= 0:
            if A_OFFER <= a < A_ACCEPT:
                counts[seat]["offers"] += 1
            elif a == A_ACCEPT:
                counts[seat]["accepts"] += 1
            elif a == A_DECLINE:
                counts[seat]["declines"] += 1
            elif A_TRADE_WITH <= a < A_WITHDRAW:
                counts[seat]["trades"] += 1
                counts[a - A_TRADE_WITH]["trades"] += 1
                counts[seat]["proposed_trades"] += 1
        state.apply(int(a))
    return [dict(c) for c in counts]


def mean_interval(values: list[float]) -> str:
    x = np.asarray(values, np.float64)
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return f"{x.mean():.2f} ± {half:.2f}"


def share_interval(hits: int, total: int) -> str:
    if total == 0:
        return "n/a (no answers)"
    p = hits / total
    return f"{100 * p:.1f} % ± {100 * 1.96 * math.sqrt(p * (1 - p) / total):.1f} ({hits}/{total})"


def report(path: str) -> None:
    records = read_records(path)
    per_game: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    answers: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    table_offers, table_trades, table_accepts, table_answers = [], [], 0, 0
    for record in records:
        counts = game_counts(record)
        seats = record.get("agents") or record.get("seats") or [f"seat {i}" for i in range(len(counts))]
        by_spec: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for spec, c in zip(seats, counts):
            for key, n in c.items():
                by_spec[spec][key] += n
            answers[spec][0] += c.get("accepts", 0)
            answers[spec][1] += c.get("accepts", 0) + c.get("declines", 0)
        for spec, c in by_spec.items():
            held = seats.count(spec)  # an agent filling several seats: per seat
            for key in ("offers", "trades", "proposed_trades"):
                per_game[spec][key].append(c.get(key, 0) / held)
            per_game[spec]["answers"].append((c.get("accepts", 0) + c.get("declines", 0)) / held)
        table_offers.append(sum(c.get("offers", 0) for c in counts))
        table_trades.append(sum(c.get("proposed_trades", 0) for c in counts))
        table_accepts += sum(c.get("accepts", 0) for c in counts)
        table_answers += sum(c.get("accepts", 0) + c.get("declines", 0) for c in counts)
    print(f"{path}: {len(records)} games")
    print(
        f"  table: offers per game {mean_interval(table_offers)}, trades per game {mean_interval(table_trades)}, "
        f"answers accepting {share_interval(table_accepts, table_answers)}"
    )
    for spec, stats in per_game.items():
        print(
            f"  {spec}: offers per game {mean_interval(stats['offers'])}, trades per game "
            f"{mean_interval(stats['trades'])} (as proposer {mean_interval(stats['proposed_trades'])}), answers "
            f"per game {mean_interval(stats['answers'])}, accepting {share_interval(*answers[spec])}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="JSON-lines game records of Catan games with trading")
    args = parser.parse_args(argv)
    for path in args.records:
        report(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
