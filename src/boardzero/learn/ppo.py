"""PPO against a bank of past networks: a policy-value network plays one seat of each game, opponents
drawn from the bank play the others.

Self-play (``PPOWorker``, many games in one batch): each game seats the
learner at a random seat and draws one opponent network from the bank for the
other seats (``ppo.best_share`` of games the bank's best, the rest any member).
Moves are sampled from masked policies. The learner's transitions are its own
decisions with more than one legal move; its reward is the game's return for
its seat, delayed to its last decision before the game ended (whoever made
the final move).

Learner (``PPO``): generalised advantage estimates (GAE), the clipped
surrogate objective (``ppo.clip = 0`` gives plain advantage actor-critic, the
A2C setting), a value loss, an entropy bonus and an L2 activity loss on the
legal logits (it keeps the logits of rare actions such as monopoly from
drifting to minus infinity). One update (``ppo.epochs`` passes over the
collected batch) is one learner step. Every ``ppo.admit_every`` steps the
network plays ``ppo.admit_games`` games against the bank's best and joins the
bank as the new best if it scores at least ``ppo.admit_score``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from boardzero.agents.az import PolicyAgent
from boardzero.core.errors import CheckpointError
from boardzero.learn.actors import BatchedWorker
from boardzero.learn.bank import Bank, MemberNets, admits, draw_opponent
from boardzero.learn.evaluation import score
from boardzero.learn.runtime import Method
from boardzero.nn.checkpoint import load_network
from boardzero.nn.precision import autocast


def gae(values: np.ndarray, final_reward: float, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """(advantages, returns) of one game's learner decisions with ``values`` [T] and the final reward given at
    the last decision."""
    advantages = np.zeros(len(values), np.float64)
    running, next_value = 0.0, 0.0
    for t in range(len(values) - 1, -1, -1):
        reward = final_reward if t == len(values) - 1 else 0.0
        delta = reward + gamma * next_value - values[t]
        running = delta + gamma * lam * running
        advantages[t] = running
        next_value = values[t]
    return advantages, advantages + values


def sample_actions(logits: torch.Tensor, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Actions drawn from masked logits [B, A] (Gumbel-max with the given generator) and their log-probs."""
    logp = torch.log_softmax(logits.float(), dim=1).numpy()
    gumbel = -np.log(-np.log(rng.random(logp.shape)))
    actions = np.argmax(logp + gumbel, axis=1)
    return actions, logp[np.arange(len(actions)), actions]


class _Game:
    __slots__ = ("seat", "opponent", "obs", "mask", "action", "logp", "value")

    def __init__(self, seat: int, opponent: str):
        self.seat, self.opponent = seat, opponent
        self.obs: list[np.ndarray] = []
        self.mask: list[np.ndarray] = []
        self.action: list[int] = []
        self.logp: list[float] = []
        self.value: list[float] = []


class PPOWorker(BatchedWorker):
    """An actor's games against the bank: the learner's network at one seat, a bank member at the others."""

    def __init__(self, actor_id: int, payload: dict[str, Any]):
        super().__init__(actor_id, payload)
        self.config = self.run_config.ppo
        self.bank: dict[str, Any] = {"version": -1}
        self.opponents = MemberNets(self.run_file, self.game)
        self.games: list[_Game] = []

    def load(self, version: int, payload: dict[str, Any]) -> None:
        self.load_weights(version, payload["weights"])
        if payload["bank"]["version"] != self.bank["version"]:
            self.bank = payload["bank"]
            playing = {g.opponent for g in self.games}  # a game keeps its opponent to the end, even one evicted
            self.opponents.keep(set(self.bank["members"]) | playing)
        if not self.games:
            self.games = [self._new_game() for _ in range(self.env.num_envs)]

    def _new_game(self) -> _Game:
        seat = int(self.rng.integers(self.game.num_players))
        return _Game(seat, draw_opponent(self.bank, self.config.best_share, self.rng))

    def _opponent(self, path: str):
        """The network of a bank member; one the bank dropped (its files deleted) before this actor loaded
        it is replaced by the bank's best, for the games that drew it."""
        net = self.opponents.get(path)
        if net is not None:
            return net
        best = self.bank["best"]
        if path == best:
            raise CheckpointError(f"{path}: the bank's best is missing (a bank never drops its best)")
        for game in self.games:
            game.opponent = best if game.opponent == path else game.opponent
        return self._opponent(best)

    def _policy(self, net, rows: np.ndarray, record: bool) -> np.ndarray:
        env = self.env
        obs, mask = torch.from_numpy(env.obs[rows]), torch.from_numpy(env.masks[rows])
        with torch.no_grad(), autocast(self.precision):
            logits, values = net(obs, mask)
        actions, logp = sample_actions(logits, self.rng)
        if record:
            values = values[:, 0].float().numpy()
            for j, i in enumerate(rows):
                game = self.games[i]
                game.obs.append(env.obs[i].copy())
                game.mask.append(env.masks[i].copy())
                game.action.append(actions[j])
                game.logp.append(logp[j])
                game.value.append(values[j])
        return actions

    def step(self) -> list[dict[str, np.ndarray]]:
        env = self.env
        actions = np.argmax(env.masks, axis=1)  # the only legal move where there is one
        multi = env.masks.sum(axis=1) > 1
        learner_seat = np.array([g.seat for g in self.games])
        mine = np.flatnonzero(multi & (env.seats == learner_seat))
        if len(mine):
            actions[mine] = self._policy(self.net, mine, record=True)
        theirs = np.flatnonzero(multi & (env.seats != learner_seat))
        by_opponent: dict[str, list[int]] = {}
        for i in theirs:
            by_opponent.setdefault(self.games[i].opponent, []).append(int(i))
        for path, listed in by_opponent.items():
            rows = np.asarray(listed)
            actions[rows] = self._policy(self._opponent(path), rows, record=False)
        _, _, _, rewards, done = env.step(actions)
        finished = []
        for i in np.flatnonzero(done):
            game = self.games[i]
            if game.obs:
                finished.append(self._samples(game, float(rewards[i, game.seat])))
            self.games[i] = self._new_game()
            self.games_finished += 1
        return finished

    def _samples(self, game: _Game, reward: float) -> dict[str, np.ndarray]:
        values = np.asarray(game.value, np.float64)
        advantages, returns = gae(values, reward, self.config.gamma, self.config.gae_lambda)
        return {
            "obs": np.stack(game.obs),
            "mask": np.stack(game.mask),
            "action": np.asarray(game.action, np.int64),
            "logp": np.asarray(game.logp, np.float32),
            "advantage": advantages.astype(np.float32),
            "return": returns.astype(np.float32),
        }


def ppo_loss(
    net, batch: dict[str, torch.Tensor], config, value_weight: float, precision: str = "float32"
) -> tuple[torch.Tensor, dict[str, float]]:
    """Clipped surrogate (or plain advantage policy gradient when ``clip = 0``), value, entropy and
    activity losses of one minibatch."""
    with autocast(precision):
        logits, values = net(batch["obs"], batch["mask"])
    logits, values = logits.float(), values[:, 0].float()
    log_probs = torch.log_softmax(logits, dim=1)
    logp = log_probs.gather(1, batch["action"][:, None])[:, 0]
    ratio = torch.exp(logp - batch["logp"])
    advantage = batch["advantage"]
    if config.clip > 0:
        surrogate = torch.min(ratio * advantage, torch.clamp(ratio, 1 - config.clip, 1 + config.clip) * advantage)
    else:
        surrogate = ratio * advantage
    policy_loss = -surrogate.mean()
    value_loss = F.mse_loss(values, batch["return"])
    probs = log_probs.exp()
    entropy = -(probs * log_probs.masked_fill(~batch["mask"], 0.0)).sum(1).mean()
    legal = batch["mask"].float()
    activity = ((logits.masked_fill(~batch["mask"], 0.0) ** 2).sum(1) / legal.sum(1)).mean()
    loss = policy_loss + value_weight * value_loss - config.entropy_weight * entropy + config.activity_weight * activity
    with torch.no_grad():
        approx_kl = ((ratio - 1) - torch.log(ratio)).mean().item()
        clipfrac = ((ratio - 1).abs() > config.clip).float().mean().item() if config.clip > 0 else 0.0
    return loss, {
        "losses/policy": policy_loss.item(),
        "losses/value": value_loss.item(),
        "losses/entropy": entropy.item(),
        "losses/activity": activity.item(),
        "losses/approx_kl": approx_kl,
        "losses/clipfrac": clipfrac,
    }


class PPO(Method):
    name = "ppo"
    agent = "ppo"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.bank = Bank(self.rundir.bank, self.config.ppo.bank_size)
        self.buffer: list[dict[str, np.ndarray]] = []
        self.buffered = 0
        self.latest_trial: float | None = None

    @classmethod
    def worker(cls, actor_id: int, payload: dict[str, Any]) -> PPOWorker:
        return PPOWorker(actor_id, payload)

    def payload(self) -> dict[str, Any]:
        if len(self.bank) == 0:  # the first opponent is the network as it starts
            self.bank.add(self.net, self.step, self.snapshot_metadata(), best=True)
        return {"weights": super().payload(), "bank": self.bank.payload()}

    def ingest(self, version: int, samples: dict[str, np.ndarray]) -> int:
        self.buffer.append(samples)
        count = len(samples["action"])
        self.buffered += count
        return count

    def ready(self) -> bool:
        return self.buffered >= self.config.ppo.batch_samples

    def update(self) -> dict[str, float]:
        cfg = self.config.ppo
        data = {k: np.concatenate([b[k] for b in self.buffer]) for k in self.buffer[0]}
        self.buffer, self.buffered = [], 0
        advantage = data["advantage"]
        data["advantage"] = ((advantage - advantage.mean()) / (advantage.std() + 1e-8)).astype(np.float32)
        tensors = self.tensors(data)
        count = len(data["action"])
        size = max(1, count // cfg.minibatches)
        metrics: dict[str, float] = {}
        self.net.train()
        for _ in range(cfg.epochs):
            order = torch.from_numpy(self.rng.permutation(count)).to(self.device)
            for start in range(0, count - size + 1, size):
                index = order[start : start + size]
                loss, metrics = ppo_loss(
                    self.net,
                    {k: v[index] for k, v in tensors.items()},
                    cfg,
                    self.config.train.value_weight,
                    self.config.train.precision,
                )
                self.optimize(loss, metrics)
        self.net.eval()
        metrics["charts/update_samples"] = float(count)
        metrics["charts/mean_return"] = float(data["return"].mean())
        if (self.step + 1) % cfg.admit_every == 0:  # self.step counts the updates before this one
            metrics.update(self._trial())
        return metrics

    def _trial(self) -> dict[str, float]:
        """Play the bank's best; admit this network as the new best if it scores enough."""
        best, _ = load_network(self.bank.best_path(), game=self.game)
        result = score(
            self.game,
            PolicyAgent(self.game, self.play_net(), temperature=1.0),
            lambda: PolicyAgent(self.game, best, temperature=1.0),
            self.config.ppo.admit_games,
            self.rng,
        )
        admitted = admits(result, self.config.ppo.admit_score)
        if admitted:
            self.bank.add(self.net, self.step + 1, self.snapshot_metadata(), best=True)
            self.console.log(
                f"step {self.step + 1}: scored {result:.2f} against the bank's best; admitted as the new "
                f"best ({len(self.bank)} in the bank)"
            )
        self.latest_trial = result
        return {"bank/trial_score": result, "bank/admitted": float(admitted), "bank/size": float(len(self.bank))}

    def play_agent(self):
        return PolicyAgent(self.game, self.play_net(), temperature=1.0)

    def metadata(self) -> dict[str, Any]:
        return {"bank": {"version": self.bank.version, "best": self.bank.best, "size": len(self.bank)}}
