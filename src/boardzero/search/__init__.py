"""Search over the Game API: MCTS with max^n backup, chance nodes and determinization.

Public API::

    from boardzero.search import MCTS, MCTSConfig, RolloutEvaluator
    mcts = MCTS(game, RolloutEvaluator(game), MCTSConfig(simulations=400, selection="uct"))
    result = mcts.search(view, rng)            # result.visits, result.value, result.policy(temperature)
    results = mcts.search_many(views, rng)     # leaf evaluations batched across games
"""

from boardzero.search.evaluator import (
    DeferringEvaluator,
    Evaluator,
    RolloutEvaluator,
    UniformEvaluator,
    random_playout,
    uniform_priors,
)
from boardzero.search.mcts import MCTS, MCTSConfig, SearchResult
from boardzero.search.tree import ROOT_INDEX, UNEXPANDED, UNVISITED, Tree

__all__ = [
    "MCTS",
    "MCTSConfig",
    "SearchResult",
    "Evaluator",
    "DeferringEvaluator",
    "RolloutEvaluator",
    "UniformEvaluator",
    "Tree",
    "ROOT_INDEX",
    "UNVISITED",
    "UNEXPANDED",
    "random_playout",
    "uniform_priors",
]
