"""Tiny-budget smoke test of bench/readme_loop.py: both ways run, the same setups, and the ratio is theirs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "readme_loop.py"


def test_readme_loop_times_both_ways_side_by_side():
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--game",
            "tictactoe",
            "--players",
            "0",
            "--games",
            "3",
            "--rounds",
            "1",
            "--positions",
            "20",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["figure"], r["way"]) for r in rows] == [
        ("loop", "rng.choice"),
        ("loop", "state.random_action"),
        ("draw", "rng.choice"),
        ("draw", "state.random_action"),
    ]
    assert all(r["us_each"] > 0 and r["count"] > 0 for r in rows)
    assert rows[2]["count"] == rows[3]["count"] == 20  # the draw alone: the same positions for both ways
    for old, new in ((rows[0], rows[1]), (rows[2], rows[3])):
        assert new["speedup_vs_choice"] == pytest.approx(old["us_each"] / new["us_each"])
