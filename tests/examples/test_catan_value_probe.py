"""examples/catan_value_probe.py: the probe reads one value per mark, after the setup, with the decisions left
to the end, and the script's games are the games it says it played."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import torch

from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from tests.examples import EXAMPLES, load_example

SCRIPT = EXAMPLES / "catan_value_probe.py"
MODEL = EXAMPLES.parent / "src" / "boardzero" / "models" / "catan" / "model-2p.json"


class CountingNet(torch.nn.Module):
    """Values each observation by how many times it was asked so far (0, 1, 2, ...)."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def values(self, obs):
        self.calls += 1
        return torch.full((len(obs), 2), float(self.calls - 1))


def test_one_value_per_mark_in_order_and_the_true_result():
    module = load_example("catan_value_probe")
    game = make("catan", players=2)
    net = CountingNet()
    agents = [make_agent("heuristic", game), make_agent("heuristic", game)]
    result, values = module.probe_game(game, agents, 1, net, "rich", np.random.default_rng([7, 0]))
    assert result in (0.0, 1.0)
    assert values and set(values) <= set(module.MARKS) and 0 in values
    assert net.calls == len(values)  # read once per mark reached, never during the setup's own moves
    marks = sorted(values)
    assert [values[m][0] for m in marks] == list(range(len(marks)))  # read in the order of the marks
    left = [values[m][1] for m in marks]  # decisions with a choice from each mark to the end: never more later
    assert all(n > 0 for n in left) and left == sorted(left, reverse=True) and left[0] > left[-1]


def test_script_reports_its_games():
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--setup",
            "heuristic",
            "--rest",
            "heuristic",
            "--opponent",
            "heuristic",
            "--probe",
            str(MODEL),
            "-n",
            "2",
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout.strip().splitlines()[-1])
    assert row["games"] == 2 and 0 <= row["wins"] <= 2
    first = row["marks"][0]
    assert first["decisions_after_first_roll"] == 0 and first["games"] == 2
    assert 0.0 <= first["mean_value"] <= 1.0
    assert first["mean_result"] == row["wins"] / 2
    # the discounted result: the result times gamma (the probed network's td.gamma) per choice left
    assert row["gamma"] == 0.997 and first["mean_choices_left"] > 0
    assert 0.0 <= first["mean_discounted_result"] <= first["mean_result"]
