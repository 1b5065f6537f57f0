"""examples/catan_setup_swap.py: the setup agent plays exactly the setup, the other agent the rest, and the
script's match is boardzero arena's match."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.registry import make
from boardzero.eval.arena import run_arena
from boardzero.games.catan import engine as E
from boardzero.play.runner import play_game
from tests.examples import EXAMPLES, load_example

SCRIPT = EXAMPLES / "catan_setup_swap.py"


class Recorder(Agent):
    """Plays the first legal move and records the true phase of every decision it was asked for."""

    def __init__(self):
        self.phases: list[int] = []

    def act(self, view, rng):
        self.phases.append(int(view._state.s[E.G_PHASE]))
        return int(view.legal_actions[0])


def test_setup_agent_plays_the_setup_and_only_the_setup():
    game = make("catan", players=2)
    swap = load_example("catan_setup_swap").SetupSwap(game, "random", "random")
    swap.setup, swap.rest = Recorder(), Recorder()
    play_game(game, [swap, Recorder()], np.random.default_rng(0), seed=3)  # the turn limit ends it
    setup = {E.PH_SETUP_SETTLEMENT, E.PH_SETUP_ROAD}
    assert sorted(swap.setup.phases) == [E.PH_SETUP_SETTLEMENT] * 2 + [E.PH_SETUP_ROAD] * 2
    assert swap.rest.phases and not setup & set(swap.rest.phases)
    assert len(swap.production) == 1 and swap.production[0].sum() > 0  # two settlements produce something


def test_script_reproduces_the_arena_match():
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--setup",
            "heuristic",
            "--rest",
            "heuristic",
            "--opponent",
            "weighted",
            "-n",
            "4",
            "--seed",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout.strip().splitlines()[-1])
    arena = run_arena("catan", ["heuristic", "weighted"], num_games=4, options={"players": 2}, seed=5, workers=1)
    assert (row["wins"], row["games"]) == (arena.entrants[0].wins, arena.entrants[0].results)
    assert set(row["pips_after_setup"]) == {"wood", "brick", "sheep", "wheat", "ore"}
    assert 0.0 <= row["win_rate_ci95"][0] <= row["win_rate"] <= row["win_rate_ci95"][1] <= 1.0
