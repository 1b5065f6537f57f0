"""Periodic evaluation: the trained agent takes every seat in turn, and its score is counted from its own seat."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from boardzero.agents.az import AZAgent, PolicyAgent
from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.learn import evaluation
from boardzero.learn.config import EvalConfig
from boardzero.learn.evaluation import AGENT, OPPONENT, _agent_score, against_opponents, elo_difference, evaluate, score
from boardzero.nn import build_network, spec_for_game
from boardzero.play.runner import MatchGame


class SeatRecorder(Agent):
    """A random player that notes the seat of every game it plays (its first decision of each game)."""

    def __init__(self, game):
        self.inner = make_agent("random", game)
        self.spec = "random"
        self.seats: list[int] = []
        self._new_game = True

    def reset(self) -> None:
        self._new_game = True

    def act(self, view, rng):
        if self._new_game:
            self.seats.append(view.seat)
            self._new_game = False
        return self.inner.act(view, rng)


@pytest.mark.parametrize("name,options,games", [("tictactoe", {}, 6), ("kuhn_poker", {"players": 3}, 9)])
def test_score_rotates_the_agent_over_every_seat(name, options, games):
    game = make(name, **options)
    agent = SeatRecorder(game)
    score(game, agent, lambda: make_agent("random", game), games, np.random.default_rng(0))
    assert sorted(agent.seats) == sorted(list(range(game.num_players)) * (games // game.num_players))


def test_training_evaluation_against_opponents_rotates_seats_too():
    game = make("tictactoe")
    agent = SeatRecorder(game)
    results = against_opponents(game, agent, EvalConfig(opponents=["random"], games=4), np.random.default_rng(1))
    assert set(results) == {"eval/vs_random"}
    assert sorted(agent.seats) == [0, 0, 1, 1]


class FirstDecision(Agent):
    """Plays the lowest legal move and notes the history it saw at its first decision of each game."""

    spec = "first"

    def __init__(self):
        self.seen: list[tuple[int, tuple[int, ...]]] = []  # (seat, history) at each game's first decision
        self._new_game = True

    def reset(self) -> None:
        self._new_game = True

    def act(self, view, rng):
        if self._new_game:
            self.seen.append((view.seat, tuple(view.history)))
            self._new_game = False
        return int(min(view.legal_actions))


def _session(returns):
    return SimpleNamespace(state=SimpleNamespace(returns=lambda: np.array(returns, dtype=float)))


@pytest.mark.parametrize(
    "returns,seat,expected",
    [
        ([1, -1], 0, 1.0),  # a win
        ([0, 0], 1, 0.5),  # a draw
        ([-1, 1], 0, 0.0),  # a loss
        ([1, 0, 1], 0, 0.75),  # above one seat, level with the other
        ([1, 0, 1], 1, 0.0),
        ([0, 0, -1], 1, 0.75),
    ],
)
def test_the_agent_scores_its_place_among_the_seats(returns, seat, expected):
    seats = tuple(AGENT if s == seat else OPPONENT for s in range(len(returns)))
    assert _agent_score(_session(returns), MatchGame((0, 0), seats)) == expected


def test_a_drawn_match_scores_one_half():
    game = make("tictactoe")
    solver = make_agent("solver", game)  # perfect play: every game of tic-tac-toe a draw
    assert score(game, solver, lambda: make_agent("solver", game), 4, np.random.default_rng(0)) == 0.5
    assert score(game, solver, lambda: make_agent("random", game), 4, np.random.default_rng(0)) > 0.5


def test_no_games_score_nan_and_one_game_a_result():
    game = make("tictactoe")
    agent, opponent = make_agent("solver", game), (lambda: make_agent("solver", game))
    assert math.isnan(score(game, agent, opponent, 0, np.random.default_rng(0)))
    assert math.isnan(score(game, agent, opponent, -3, np.random.default_rng(0)))
    assert score(game, agent, opponent, 1, np.random.default_rng(0)) == 0.5


def test_random_opening_moves_only_when_asked_and_shared_by_a_rotation_block():
    game = make("tictactoe")
    agent = FirstDecision()
    score(game, agent, FirstDecision, 4, np.random.default_rng(0))
    # no opening by default: the agent in seat 0 moves first, the one in seat 1 after one move
    assert [(seat, len(history)) for seat, history in agent.seen] == [(0, 0), (1, 1), (0, 0), (1, 1)]

    agent = FirstDecision()
    score(game, agent, FirstDecision, 8, np.random.default_rng(0), opening_plies=2)
    assert [(seat, len(history)) for seat, history in agent.seen] == [(0, 2), (1, 3)] * 4
    openings = [history[:2] for _, history in agent.seen]
    # the two games of each block (the agent in seat 0, then in seat 1) open alike; the blocks vary
    assert all(openings[i] == openings[i + 1] for i in range(0, 8, 2))
    assert len(set(openings)) > 1


def test_each_evaluation_plays_games_of_a_fresh_seed(monkeypatch):
    keys = []

    class Recorder:
        def __init__(self, *args, **kwargs):
            pass

        def play(self, task):
            keys.append(task.key)
            return 0.5

    monkeypatch.setattr(evaluation, "Table", Recorder)
    game = make("tictactoe")
    for i in range(300):
        assert score(game, None, None, 2, np.random.default_rng(i)) == 0.5
    seeds = {key[0] for key in keys[::2]}
    assert len(seeds) == 300  # drawn from 2**31 seeds: 300 distinct
    assert keys[1::2] == [(key[0], 1) for key in keys[::2]]


def test_against_opponents_builds_each_opponent_for_the_game_and_skips_when_no_games():
    game = make("tictactoe")
    config = EvalConfig(opponents=["solver", "random"], games=4)
    results = against_opponents(game, make_agent("random", game), config, np.random.default_rng(0))
    assert set(results) == {"eval/vs_solver", "eval/vs_random"}
    assert results["eval/vs_solver"] <= 0.5  # random never beats perfect play
    assert against_opponents(game, make_agent("random", game), EvalConfig(opponents=["random"], games=0), None) == {}


def test_elo_difference_of_a_score():
    assert elo_difference(0.5, 10) == pytest.approx(0.0)
    # a clean sweep of 4 games counts as 4.5 of 5: 400 * log10(0.9 / 0.1)
    assert elo_difference(1.0, 4) == pytest.approx(381.697, abs=1e-3)
    assert elo_difference(0.0, 4) == pytest.approx(-381.697, abs=1e-3)
    assert elo_difference(0.75, 3) == pytest.approx(136.96, abs=1e-2)  # 2.75 of 4


def test_evaluate_plays_each_match_with_its_agents_games_and_openings(monkeypatch):
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    best = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    config = EvalConfig(
        games_vs_random=3, games_vs_mcts=5, mcts_simulations=7, games_vs_best=4, simulations=6, opening_plies=2
    )
    calls = []

    def recorded(game_, agent, opponent_factory, games, rng, *, opening_plies=0):
        calls.append((game_, agent, opponent_factory(), games, rng, opening_plies))
        return 0.25

    monkeypatch.setattr(evaluation, "score", recorded)
    rng = np.random.default_rng(0)
    results = evaluate(game, net, best, config, rng)
    assert results == {"eval/greedy_vs_random": 0.25, "eval/search_vs_mcts": 0.25, "eval/search_vs_best": 0.25}
    (g1, greedy, random, n1, r1, o1), (g2, search, mcts, n2, r2, o2), (g3, search3, rival, n3, r3, o3) = calls
    assert g1 is g2 is g3 is game and r1 is r2 is r3 is rng
    assert isinstance(greedy, PolicyAgent) and greedy.evaluator.net is net
    assert (random.spec, n1, o1) == ("random", 3, 0)
    assert isinstance(search, AZAgent) and search.evaluator.net is net and search.sims == 6 and search3 is search
    assert (mcts.spec, n2, o2) == ("mcts:sims=7", 5, 2)
    assert isinstance(rival, AZAgent) and rival.evaluator.net is best and rival.sims == 6
    assert (n3, o3) == (4, 2)

    calls.clear()
    assert set(evaluate(game, net, None, config, rng)) == {"eval/greedy_vs_random", "eval/search_vs_mcts"}
    off = EvalConfig(games_vs_random=0, games_vs_mcts=0, games_vs_best=0)
    assert evaluate(game, net, best, off, rng) == {}
    assert len(calls) == 2


def test_evaluate_plays_its_matches():
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    config = EvalConfig(games_vs_random=2, games_vs_mcts=2, mcts_simulations=2, games_vs_best=2, simulations=2)
    results = evaluate(game, net, net, config, np.random.default_rng(0))
    assert set(results) == {"eval/greedy_vs_random", "eval/search_vs_mcts", "eval/search_vs_best"}
    assert all(0.0 <= value <= 1.0 for value in results.values())
