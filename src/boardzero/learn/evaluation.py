"""Periodic evaluation during training: the trained agent against opponent specs (every method), and for
AlphaZero the greedy network vs random, search vs rollout MCTS and vs the previous best."""

from __future__ import annotations

import functools
import math

import numpy as np
from torch import nn

from boardzero.agents.az import network_agent
from boardzero.agents.base import Agent
from boardzero.agents.play import play_game
from boardzero.agents.registry import make_agent
from boardzero.core.api import Game
from boardzero.learn.config import EvalConfig


class RandomOpening(Agent):
    """Plays uniformly random moves for the first ``plies`` entries of the history, then defers to ``agent``.

    Two deterministic searchers would otherwise replay the same game over and over. The random moves come
    from ``rng`` when given (one generator shared by every seat of a game makes the opening a function of
    that generator's seed, so games with the seats swapped can share it), else from the rng ``act`` gets.
    """

    def __init__(self, agent: Agent, plies: int, rng: np.random.Generator | None = None):
        self.agent, self.plies, self.rng = agent, plies, rng
        self.spec = agent.spec

    def reset(self) -> None:
        self.agent.reset()

    def act(self, view, rng: np.random.Generator) -> int:
        if len(view.history) < self.plies:
            return int((self.rng or rng).choice(view.legal_actions))
        return self.agent.act(view, rng)


def score(
    game: Game, agent: Agent, opponent_factory, games: int, rng: np.random.Generator, *, opening_plies: int = 0
) -> float:
    """Mean score of ``agent`` (win 1, draw or shared place 0.5, loss 0), its seat rotated over the games.

    A seat's result is ranked against the others' returns, so it works for any number of players.
    The first ``opening_plies`` moves of each game are random, for both sides.
    """
    if games <= 0:
        return float("nan")
    total = 0.0
    for index in range(games):
        seat = index % game.num_players
        agents = [agent if s == seat else opponent_factory() for s in range(game.num_players)]
        if opening_plies:
            agents = [RandomOpening(a, opening_plies) for a in agents]
        returns = play_game(game, agents, rng, seed=int(rng.integers(2**31))).returns()
        others = np.delete(returns, seat)
        total += float(np.mean(np.where(returns[seat] > others, 1.0, np.where(returns[seat] == others, 0.5, 0.0))))
    return total / games


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
    game: Game, net: nn.Module, best_net: nn.Module | None, config: EvalConfig, rng: np.random.Generator
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
