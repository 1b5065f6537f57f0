"""A training method written outside boardzero (docs/contributing.md, "Adding a training method"): AlphaZero's
self-play, with the values fitted by a Huber loss instead of the squared error, so a few surprising results
pull the value head less.

Register it by import path, and the config's ``method`` takes its name (the self-play actors, separate
processes, find it the same way):

    from boardzero.learn import register_method
    register_method("huber_az", "huber_az:HuberAlphaZero")   # this folder's parent on sys.path / PYTHONPATH

It reads AlphaZero's settings (``reads_settings_of``): ``selfplay.simulations``, ``train.value_weight`` and the
others tagged for alphazero apply to it too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch.nn.functional as F

from boardzero.agents.az import network_agent
from boardzero.learn.runtime import ReplayMethod
from boardzero.learn.selfplay import SelfPlayWorker


class HuberAlphaZero(ReplayMethod):
    name = "huber_az"
    agent = "az"  # its checkpoints are policy-value networks: the az agent plays them
    reads_settings_of = ("alphazero",)

    def replay_fields(self) -> dict[str, tuple[tuple[int, ...], type]]:
        spec = self.spec
        return {
            "obs": (spec.input_shape, np.float32),
            "mask": ((spec.num_actions,), np.bool_),
            "policy": ((spec.num_actions,), np.float32),
            "value": ((spec.num_players,), np.float32),
        }

    @classmethod
    def worker(cls, actor_id: int, payload: dict[str, Any]):
        return SelfPlayWorker(actor_id, payload)  # MCTS self-play: visit distributions and final returns

    def update(self) -> dict[str, float]:
        self.net.train()
        batch = self.tensors(self.sample_batch())
        logits, values = self.net(batch["obs"], batch["mask"])
        policy_loss = -(batch["policy"] * F.log_softmax(logits, dim=1)).sum(1).mean()
        value_loss = F.huber_loss(values, batch["value"], delta=0.5)
        loss = policy_loss + self.config.train.value_weight * value_loss
        metrics = {"losses/policy": policy_loss.item(), "losses/value": value_loss.item(), "losses/total": loss.item()}
        self.optimize(loss, metrics)
        self.net.eval()
        self.trained += self.config.train.batch_size
        return metrics

    def play_agent(self):
        return network_agent(self.game, self.play_net(), sims=self.config.eval.simulations)
