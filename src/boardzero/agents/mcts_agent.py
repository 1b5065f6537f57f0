"""The ``mcts`` agent: plain UCT with random rollouts over the Game API, any number of players.

``mcts:sims=400`` searches 400 simulations per move; the move played is the
most visited one. Values are backed up as vectors (max^n), chance nodes are
sampled by their probabilities, and in games with hidden information each
simulation starts from a state sampled from the seat's view.
"""

from __future__ import annotations

from typing import Literal, cast

import numpy as np

from boardzero.agents.base import Advice, Agent, ranked_advice
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.search import MCTS, MCTSConfig, RolloutEvaluator, SearchResult


class MCTSAgent(Agent):
    def __init__(
        self,
        game: Game,
        *,
        sims: int = 400,
        c: float = 1.0,
        rollouts: int = 1,
        batch: int = 1,
        reuse: bool = True,
        temperature: float = 0.0,
        selection: str = "uct",
        solver: bool = False,
        infoset: bool = False,
    ):
        """UCT search with random rollouts, any number of players (max^n), chance and hidden information.

        sims: simulations per move
        c: exploration weight
        rollouts: random playouts per leaf
        batch: leaves per evaluation round (virtual loss)
        reuse: keep the tree between moves
        temperature: 0 plays the most visited move, >0 samples visits ** (1/temperature)
        selection: uct (default) or puct (uniform priors)
        solver: prove wins and losses from terminal states (off by default, so ``mcts`` stays the plain
            rollout baseline)
        infoset: one tree node per information set of the seat (hidden chance outcomes share a node; moves
            explored by how often they were legal): information-set MCTS; off: a node per sampled history
        """
        if sims < 1:
            raise ConfigError("agent mcts.sims", f"must be at least 1, got {sims}")
        if rollouts < 1:
            raise ConfigError("agent mcts.rollouts", f"must be at least 1, got {rollouts}")
        if batch < 1:
            raise ConfigError("agent mcts.batch", f"must be at least 1, got {batch}")
        if c < 0:
            raise ConfigError("agent mcts.c", f"must be >= 0, got {c}")
        if temperature < 0:
            raise ConfigError("agent mcts.temperature", f"must be >= 0, got {temperature}")
        if selection not in ("uct", "puct"):
            raise ConfigError("agent mcts.selection", f"{selection!r} is not allowed; allowed: uct, puct")
        self.game = game
        self.temperature = temperature
        config = MCTSConfig(
            simulations=sims,
            selection=cast(Literal["uct", "puct"], selection),
            c_uct=c,
            c_puct=c,
            batch_size=batch,
            reuse_tree=reuse,
            virtual_loss=1.0 if batch > 1 else 0.0,
            solver=solver,
            information_sets=infoset,
        )
        self.mcts = MCTS(game, RolloutEvaluator(game, rollouts=rollouts), config)
        self.last_result: SearchResult | None = None  # the last search's result, for inspection

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return int(legal[0])
        result = self.mcts.search(view, rng)
        self.last_result = result
        if self.temperature > 0:
            return int(rng.choice(len(result.visits), p=result.policy(self.temperature)))
        return result.best_action()

    def advise(self, view: SeatView, rng: np.random.Generator, *, top: int = 3) -> Advice:
        """The most visited moves of a search from here, with their mean values and the root's value vector."""
        result = self.mcts.search(view, rng)
        return ranked_advice(result.visits, view.legal_mask, result.value, top, result.q)

    def reset(self) -> None:
        self.mcts.reset()
        self.last_result = None
