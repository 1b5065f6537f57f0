"""The standard test set: grouping by phase and difficulty, drawing, and the committed Connect 4 set."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from boardzero.agents.base import Agent
from boardzero.agents.solver import ILLEGAL, solved_move_values
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.eval.accuracy import (
    DIFFICULTIES,
    PHASES,
    Position,
    difficulty_of,
    load_positions,
    move_accuracy,
    phase_of,
    position_group,
    save_positions,
)
from boardzero.eval.testset import draw_test_set

TESTSET = Path(__file__).resolve().parents[2] / "data" / "connect4_testset.json"
X = ILLEGAL


def test_phases_split_connect4_at_plies_14_and_28():
    assert [phase_of("connect4", ply) for ply in (0, 13, 14, 27, 28, 41)] == [
        "begin",
        "begin",
        "middle",
        "middle",
        "end",
        "end",
    ]
    with pytest.raises(ConfigError, match="move accuracy needs an exact solver; solved games: connect4, tictactoe"):
        phase_of("kuhn_poker", 3)


@pytest.mark.parametrize(
    "values, difficulty",
    [
        ([1, -1, -1, -1, -1, -1, -1], "hard"),  # one move keeps the win
        ([0, -1, X, X, X, X, X], "hard"),  # one of two legal moves
        ([1, 1, 1, 1, -1, -1, -1], "easy"),  # four of seven keep it
        ([0, 0, X, -1, X, X, X], "easy"),  # two of three legal moves
        ([1, 1, 1, 0, 0, -1, -1], "medium"),  # three of seven
        ([0, 0, -1, -1, X, X, X], "medium"),  # exactly half is not most
    ],
)
def test_difficulty_counts_the_legal_moves_that_keep_the_best_result(values, difficulty):
    assert difficulty_of(np.array(values)) == difficulty


class LeftmostAgent(Agent):
    """Always plays the leftmost legal column."""

    spec = "leftmost"

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        return int(view.legal_actions[0])


def random_history(game, ply: int) -> list[int]:
    """The moves of a game of uniformly random moves that is still going at ``ply``, with every column legal
    after them."""
    rng = np.random.default_rng(ply)
    while True:
        state = game.new_state()
        for _ in range(ply):
            state.apply(int(rng.choice(state.legal_actions())))
            if state.is_terminal():
                break
        if not state.is_terminal() and len(state.legal_actions()) == game.num_actions:
            return list(state.history)


def test_accuracy_is_counted_per_group_phase_difficulty_and_all():
    game = make("connect4")
    # the values are made up (only the counting is tested); the histories give the plies: 6, 20 and 30
    opening = Position(random_history(game, 6), np.array([1, -1, -1, -1, -1, -1, -1]))  # leftmost keeps it
    middle = Position(random_history(game, 20), np.array([1, 1, 1, 1, -1, -1, -1]))  # leftmost keeps it
    late = Position(random_history(game, 30), np.array([-1, 1, 1, 0, 0, 0, 0]))  # leftmost gives it away
    assert [position_group("connect4", p) for p in (opening, middle, late)] == [
        ("begin", "hard"),
        ("middle", "easy"),
        ("end", "medium"),
    ]
    result = move_accuracy(LeftmostAgent(), game, [opening, middle, late, opening])
    assert result.by_group == {
        "begin/hard": (2, 2),
        "begin/all": (2, 2),
        "all/hard": (2, 2),
        "middle/easy": (1, 1),
        "middle/all": (1, 1),
        "all/easy": (1, 1),
        "end/medium": (0, 1),
        "end/all": (0, 1),
        "all/medium": (0, 1),
        "all/all": (3, 4),
    }
    assert result.correct == 3
    group = result.to_dict()["by_group"]["end/medium"]
    assert group["positions"] == 1 and group["accuracy"] == 0.0
    assert group["interval"] == list(result.group_interval("end/medium"))


def test_draw_test_set_fills_each_group_and_is_reproducible(tmp_path):
    game = make("tictactoe")
    first = draw_test_set(game, 2, np.random.default_rng(7))
    again = draw_test_set(game, 2, np.random.default_rng(7))
    assert [p.history for p in first] == [p.history for p in again]
    groups = Counter(position_group("tictactoe", p) for p in first)
    assert max(groups.values()) == 2 and len(groups) >= 7  # a few tic-tac-toe groups hold almost no positions
    assert len({tuple(p.history) for p in first}) == len(first)
    for p in first:
        legal = p.values[p.values != ILLEGAL]
        assert legal.min() < legal.max()
        assert (p.values == solved_move_values(game, p.history)).all()
    path = tmp_path / "set.json"
    save_positions(path, game, first, about={"seed": 7})
    data = json.loads(path.read_text())
    assert data["about"] == {"seed": 7}
    assert [(r["phase"], r["difficulty"]) for r in data["positions"]] == [position_group("tictactoe", p) for p in first]
    assert [p.history for p in load_positions(path, game)] == [p.history for p in first]


def test_draw_test_set_refuses_bad_settings():
    game = make("connect4")
    with pytest.raises(ConfigError, match="per_group: must be >= 1, got 0"):
        draw_test_set(game, 0, np.random.default_rng(0))
    with pytest.raises(ConfigError, match="middle: plies 10..20 are not all in the middle phase"):
        draw_test_set(
            game, 1, np.random.default_rng(0), ply_ranges={"begin": (4, 13), "middle": (10, 20), "end": (28, 38)}
        )
    with pytest.raises(ConfigError, match="random_share"):
        draw_test_set(game, 1, np.random.default_rng(0), random_share=(0.9, 0.1))


def test_the_committed_connect4_test_set():
    game = make("connect4")
    data = json.loads(TESTSET.read_text())
    positions = load_positions(TESTSET, game)
    per_group = data["about"]["per_group"]
    groups = Counter(position_group("connect4", p) for p in positions)
    assert groups == {(phase, difficulty): per_group for phase in PHASES for difficulty in DIFFICULTIES}
    assert len({tuple(p.history) for p in positions}) == len(positions)
    for record, position in zip(data["positions"], positions):
        assert (record["phase"], record["difficulty"]) == position_group("connect4", position)
        state = game.new_state()
        for action in position.history:
            state.apply(action)
        assert not state.is_terminal()
        legal = np.flatnonzero(position.values != ILLEGAL)
        assert sorted(legal) == sorted(int(a) for a in state.legal_actions())
        assert position.values[legal].min() < position.values[legal].max()


def test_a_sample_of_the_committed_test_set_is_what_the_solver_says():
    game = make("connect4")
    positions = load_positions(TESTSET, game)
    rng = np.random.default_rng(0)
    # positions from ply 12 on solve in well under a second each; one per group where the group has them
    sample = []
    for phase in PHASES:
        for difficulty in DIFFICULTIES:
            group = [p for p in positions if position_group("connect4", p) == (phase, difficulty) and p.ply >= 12]
            sample += [group[i] for i in rng.choice(len(group), size=min(2, len(group)), replace=False)]
    assert len(sample) >= 12
    for position in sample:
        assert (solved_move_values(game, position.history) == position.values).all(), position.history


def test_the_committed_test_set_is_what_its_command_draws():
    """The first positions of data/connect4_testset.json are what ``draw_test_set`` draws with the seed and group
    size the file records (stopped after a few games: the draw is the same up to there)."""
    game = make("connect4")
    about = json.loads(TESTSET.read_text())["about"]
    drawn = draw_test_set(game, about["per_group"], np.random.default_rng(about["seed"]), max_tries=120)
    committed = load_positions(TESTSET, game)
    assert len(drawn) >= 4  # most games end early or reach a position with nothing to choose
    assert [p.history for p in drawn] == [p.history for p in committed[: len(drawn)]]
    assert all((a.values == b.values).all() for a, b in zip(drawn, committed))
