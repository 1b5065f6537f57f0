"""AlphaZero: self-play with network-guided MCTS feeds a replay buffer; the learner fits the policy to the
search's visit distributions and the values (one per seat, seat-relative) to the final returns.

The actor side is ``selfplay.SelfPlay``; the run, actors, checkpoints and
metrics are the shared runtime's (``learn.runtime``). A checkpoint that beats
the previous best in the periodic evaluation becomes ``checkpoints/best``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from boardzero.agents.az import network_agent
from boardzero.learn.evaluation import against_opponents, elo_difference, evaluate
from boardzero.learn.runtime import ReplayMethod, train as run
from boardzero.learn.selfplay import SelfPlayWorker
from boardzero.nn.checkpoint import load_network, save_network


def policy_value_loss(net, batch: dict[str, torch.Tensor], value_weight: float) -> tuple[torch.Tensor, dict]:
    logits, values = net(batch["obs"], batch["mask"])
    log_probs = F.log_softmax(logits, dim=1)
    policy_loss = -(batch["policy"] * log_probs).sum(1).mean()
    value_loss = F.mse_loss(values, batch["value"])
    entropy = -(log_probs.exp() * log_probs).sum(1).mean()
    loss = policy_loss + value_weight * value_loss
    return loss, {
        "losses/policy": policy_loss.item(),
        "losses/value": value_loss.item(),
        "losses/entropy": entropy.item(),
        "losses/total": loss.item(),
    }


class AlphaZero(ReplayMethod):
    name = "alphazero"
    agent = "az"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ratings: dict[str, Any] = {"elo": 0.0, "best_step": None, "best_elo": 0.0}

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
        return SelfPlayWorker(actor_id, payload)

    # ---- learner -----------------------------------------------------------------------------
    def update(self) -> dict[str, float]:
        self.net.train()
        batch = self.tensors(self.sample_batch())
        loss, metrics = policy_value_loss(self.net, batch, self.config.train.value_weight)
        self.optimize(loss, metrics)
        self.net.eval()
        self.trained += self.config.train.batch_size
        return metrics

    # ---- evaluation --------------------------------------------------------------------------
    def play_agent(self):
        return network_agent(self.game, self.play_net(), sims=self.config.eval.simulations)

    def evaluate(self) -> dict[str, float]:
        cfg = self.config.eval
        best_path = self.rundir.best_stem.with_suffix(".json")
        best_net = load_network(best_path, game=self.game)[0] if best_path.is_file() else None
        results = evaluate(self.game, self.play_net(), best_net, cfg, self.rng)
        if cfg.opponents:
            results.update(against_opponents(self.game, self.play_agent(), cfg, self.rng))
        versus_best = results.get("eval/search_vs_best")
        best_elo = self.ratings.get("best_elo", 0.0)
        gap = 0.0 if versus_best is None else elo_difference(versus_best, cfg.games_vs_best)
        promote = best_net is None or (versus_best is not None and versus_best >= cfg.promote_threshold)
        self.ratings["elo"] = best_elo + gap
        if promote:
            self.ratings.update(best_step=self.step, best_elo=self.ratings["elo"])
            save_network(
                self.rundir.best_stem,
                self.net,
                {
                    "game": self.game.name,
                    "game_options": self.game.options_dict(),
                    "step": self.step,
                    "trainer": self.name,
                    "config": self.config.to_dict(),
                    "ratings": self.ratings,
                },
            )
        results["eval/promoted"] = float(promote)
        results["eval/elo"] = self.ratings["elo"]
        return results

    # ---- checkpoints -------------------------------------------------------------------------
    def metadata(self) -> dict[str, Any]:
        return {"ratings": self.ratings}

    def restore(self, json_path: Path, meta: dict[str, Any]) -> None:
        super().restore(json_path, meta)
        self.ratings = meta.get("ratings", self.ratings)


def train(config, run_dir, **kwargs) -> dict[str, Any]:
    """Start or resume an AlphaZero run (``learn.runtime.train`` with ``method = "alphazero"``)."""
    return run(config.changed({"method": "alphazero"}), run_dir, **kwargs)
