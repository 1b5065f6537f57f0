"""Periodic evaluation during training: the trained agent against opponent specs (every method), and for
AlphaZero the greedy network vs random, search vs rollout MCTS and vs the previous best. The games are
played here, in the training process, by the match runner (``play.runner.Table``) that plays the arena's
and tournaments' games."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

from boardzero.agents.az import network_agent
from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.api import Game
from boardzero.learn.config import EvalConfig
from boardzero.nn.base import Network
from boardzero.play.rotation import seating
from boardzero.play.runner import MatchGame, Table
from boardzero.play.session import GameSession

AGENT, OPPONENT = "agent", "opponent"  # the entrants of an evaluation match


def _agent_score(session: GameSession, task: MatchGame) -> float:
    """The agent's result from its own seat: 1 above each other seat, 0.5 level, 0 below, averaged."""
    seat = task.seats.index(AGENT)
    returns = session.state.returns()
    others = np.delete(returns, seat)
    return float(np.mean(np.where(returns[seat] > others, 1.0, np.where(returns[seat] == others, 0.5, 0.0))))


def score(
    game: Game,
    agent: Agent,
    opponent_factory: Callable[[], Agent],
    games: int,
    rng: np.random.Generator,
    *,
    opening_plies: int = 0,
) -> float:
    """Mean score of ``agent`` (win 1, draw or shared place 0.5, loss 0) over ``games`` games of the match
    runner (``play.runner``): the agent in one seat, an opponent from ``opponent_factory`` in each other, the
    seats rotated by the one seat rotation (``play.rotation``), each game keyed by a seed drawn from ``rng``.

    A seat's result is ranked against the others' returns, so it works for any number of players.
    The first ``opening_plies`` moves of each game are random, for both sides, the same in the games of a
    rotation block.
    """
    if games <= 0:
        return float("nan")
    table = Table(
        game, {AGENT: lambda: agent, OPPONENT: opponent_factory}, opening_plies=opening_plies, finish=_agent_score
    )
    seed = int(rng.integers(2**31))
    players = game.num_players
    tasks = [
        MatchGame((seed, i), seating((AGENT, OPPONENT), players, i), opening=(seed, i // players, 1))
        for i in range(games)
    ]
    return sum(table.play(task) for task in tasks) / games


def against_opponents(game: Game, agent: Agent, config: EvalConfig, rng: np.random.Generator) -> dict[str, float]:
    """``eval/vs_<spec>``: the agent's mean score against each of ``config.opponents`` (one seat for the agent,
    the opponent in the others, seats rotated; win 1, draw or shared place 0.5, loss 0)."""
    results = {}
    for spec in config.opponents if config.games else []:
        results[f"eval/vs_{spec}"] = score(game, agent, functools.partial(make_agent, spec, game), config.games, rng)
    return results


def elo_difference(score_: float, games: int) -> float:
    """Elo gap implied by a mean score over ``games``; half a game is added to each side so that
    a clean sweep of a few games gives a finite, modest gap."""
    smoothed = (score_ * games + 0.5) / (games + 1.0)
    return -400.0 * math.log10(1.0 / smoothed - 1.0)


def evaluate(
    game: Game, net: Network, best_net: Network | None, config: EvalConfig, rng: np.random.Generator
) -> dict[str, float]:
    """Scores of the network: greedy vs random, with search vs rollout MCTS and vs the previous best."""
    results: dict[str, float] = {}
    if config.games_vs_random:
        greedy = network_agent(game, net, sims=0, greedy=True)
        results["eval/greedy_vs_random"] = score(
            game, greedy, lambda: make_agent("random", game), config.games_vs_random, rng
        )
    searcher = network_agent(game, net, sims=config.simulations)
    if config.games_vs_mcts:
        spec = f"mcts:sims={config.mcts_simulations}"
        results["eval/search_vs_mcts"] = score(
            game,
            searcher,
            lambda: make_agent(spec, game),
            config.games_vs_mcts,
            rng,
            opening_plies=config.opening_plies,
        )
    if config.games_vs_best and best_net is not None:
        results["eval/search_vs_best"] = score(
            game,
            searcher,
            lambda: network_agent(game, best_net, sims=config.simulations),
            config.games_vs_best,
            rng,
            opening_plies=config.opening_plies,
        )
    return results
