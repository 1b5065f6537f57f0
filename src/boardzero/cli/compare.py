"""``boardzero compare``: two agents on the same games, from two arena record files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from boardzero.cli.arena import JSON_OPTION
from boardzero.eval.paired import compare_records


def compare(
    first: Path = typer.Argument(..., help="Records of the first agent's match (`boardzero arena ... --records`)."),
    second: Path = typer.Argument(..., help="Records of the same games with the second agent in its seats."),
    agent_a: Optional[str] = typer.Option(
        None, "--agent-a", help="The first file's agent to compare (default: the one the second file does not have)."
    ),
    agent_b: Optional[str] = typer.Option(
        None, "--agent-b", help="The second file's agent (default: the one the first file does not have)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Compare two agents game by game: each one's wins on the games both files hold, the games won by one
    only, and the sign test's z over those (1.645: one-sided 5 %).

    Example: boardzero arena catan best heuristic -p 2 -n 400 --seed 7 --records a.jsonl, the same with
    another agent in place of best into b.jsonl, then boardzero compare a.jsonl b.jsonl
    """
    result = compare_records(first, second, agent_a=agent_a, agent_b=agent_b).to_dict()
    if as_json:
        print(json.dumps(result))
        return
    print(f"{result['games']} games in both files")
    for label in ("a", "b"):
        side = result[label]
        low, high = side["interval"]
        print(f"{label.upper()}: {side['agent']}  ({side['path']})")
        print(
            f"   {side['wins']} wins: {100 * side['share']:.1f} % [{100 * low:.1f}, {100 * high:.1f}]; "
            f"won by it only: {result['only_' + label]}"
        )
    print(f"game by game: {result['only_a']} against {result['only_b']}, z = {result['z']:.2f}")
