"""Search priors from a TD value network's policy head: one network row per node instead of one per legal move.

A value network's priors (``agents.td.ValuePriorEvaluator``) value the position after every legal move, so a
node with 54 moves (a Catan settlement) costs 54 rows. A network whose policy head learned the search's visit
counts (``learn.expert``) gives them from the node's own observation, seen by the seat to move: one row. The
leaves are still valued as a TD network learned them, by the seat that moved into them (``ValueEvaluator``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from boardzero.core.api import State
from boardzero.nn.evaluator import ValueEvaluator
from boardzero.nn.precision import autocast
from boardzero.search.evaluator import uniform_priors


class PolicyPriorEvaluator(ValueEvaluator):
    """A TD network with a trained policy head as a search evaluator: priors are the softmax of its masked
    policy logits at each decision node (uniform where a node has one legal move or is not a decision), values
    as ``ValueEvaluator``. Priors are asked only where a simulation chooses (``defers_priors``)."""

    defers_priors = True

    def evaluate(self, states: Sequence[State], movers: Sequence[int] | None = None):
        return self.priors(states), self.values(states, movers)

    @torch.no_grad()
    def priors(self, states: Sequence[State]) -> np.ndarray:
        priors = uniform_priors(states, self.spec.num_actions)
        choosing = [i for i, state in enumerate(states) if state.current_player >= 0 and len(state.legal_actions()) > 1]
        if not choosing:
            return priors
        obs = np.stack([states[i].observe(states[i].current_player)[self.key] for i in choosing]).astype(np.float32)
        masks = np.stack([states[i].legal_mask() for i in choosing])
        with autocast(self.precision):
            logits, _ = self.net(torch.from_numpy(obs), torch.from_numpy(masks))
        chosen = torch.softmax(logits.float(), dim=1).numpy() * masks
        priors[choosing] = chosen / np.maximum(chosen.sum(axis=1, keepdims=True), 1e-12)
        return priors
