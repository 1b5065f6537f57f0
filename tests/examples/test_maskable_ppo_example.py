"""Tiny-budget smoke test of examples/maskable_ppo_catan.py (sb3-contrib: the rl and test extras)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo_catan.py"


def test_trains_evaluates_and_plots(tmp_path):
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("matplotlib")
    plot = tmp_path / "curve.png"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--timesteps",
            "64",
            "--eval-every",
            "64",
            "--eval-games",
            "1",
            "--turn-limit",
            "30",
            "--plot",
            str(plot),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    points = json.loads(plot.with_suffix(".json").read_text())
    assert [p["timesteps"] for p in points][0] == 0 and points[-1]["timesteps"] >= 64
    assert plot.stat().st_size > 1000
