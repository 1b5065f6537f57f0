"""AlphaZero training: self-play actor processes feed a replay buffer; the learner fits
policy (MCTS visit distributions) and values (final returns per seat, seat-relative).

A run is a directory::

    <run>/config.json         the validated config (config.toml: a copy of the file it came from)
    <run>/checkpoints/        step_<N>.json + .safetensors (+ .optim / .replay), best.json + best.safetensors
    <run>/metrics.jsonl       one JSON object per logged step or evaluation
    <run>/tb/                 TensorBoard events

``train(...)`` starts a run or resumes it from its newest checkpoint; writes are
atomic, so a killed run loses at most one checkpoint interval.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import queue
import signal
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from rich.console import Console

from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import make
from boardzero.learn.augment import augment
from boardzero.learn.checkpoint import latest_checkpoint, restore_training, save_training
from boardzero.learn.config import Config
from boardzero.learn.evaluation import elo_difference, evaluate
from boardzero.learn.replay import ReplayBuffer
from boardzero.learn.selfplay import actor_main
from boardzero.nn.checkpoint import atomic_write_json, load_network, save_network
from boardzero.nn.nets import build_network, spec_for_game


def policy_value_loss(net, batch: dict[str, torch.Tensor], value_weight: float) -> tuple[torch.Tensor, dict]:
    logits, values = net(batch["obs"], batch["mask"])
    log_probs = F.log_softmax(logits, dim=1)
    policy_loss = -(batch["policy"] * log_probs).sum(1).mean()
    value_loss = F.mse_loss(values, batch["value"])
    entropy = -(log_probs.exp() * log_probs).sum(1).mean()
    loss = policy_loss + value_weight * value_loss
    return loss, {"losses/policy": policy_loss.item(), "losses/value": value_loss.item(),
                  "losses/entropy": entropy.item(), "losses/total": loss.item()}


class MetricsLog:
    """metrics.jsonl and TensorBoard, the same names in both."""

    def __init__(self, run_dir: Path):
        self.path = run_dir / "metrics.jsonl"
        try:
            from torch.utils.tensorboard import SummaryWriter
            self.writer = SummaryWriter(str(run_dir / "tb"))
        except Exception:  # pragma: no cover - tensorboard missing: JSONL only
            self.writer = None

    def log(self, step: int, metrics: dict[str, float]) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps({"step": step, "time": time.time(), **metrics}) + "\n")
        if self.writer is not None:
            for name, value in metrics.items():
                if isinstance(value, (int, float)) and np.isfinite(value):
                    self.writer.add_scalar(name, value, step)
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Trainer:
    def __init__(self, config: Config, run_dir: str | Path, *, config_text: str | None = None,
                 console: Console | None = None):
        torch.set_num_threads(1)
        self.config, self.run_dir = config, Path(run_dir)
        self.console = console or Console()
        if not config.game:
            raise ConfigError("game", "no game given (set game = \"...\" in the config or pass GAME)")
        self.game = make(config.game, **config.game_options)
        net_cfg = config.network
        self.spec = spec_for_game(self.game, net_cfg.kind, hidden=net_cfg.hidden, blocks=net_cfg.blocks,
                                  channels=net_cfg.channels)
        torch.manual_seed(config.train.seed)
        self.net = build_network(self.spec)
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=config.train.lr,
                                           weight_decay=config.train.weight_decay)
        self.replay = ReplayBuffer(config.train.replay_size, self.spec.input_shape, self.spec.num_actions,
                                   self.spec.num_players)
        self.symmetries = self.game.symmetries() if config.train.symmetries else []
        self.step = 0
        self.saved_step = -1  # step of the last checkpoint written by this process
        self.ratings: dict[str, Any] = {"elo": 0.0, "best_step": None, "best_elo": 0.0}
        self.latest_eval: dict[str, float] = {}
        self.generation = 0  # how many times this run was started (varies the actors' seeds)
        self._prepare_run_dir(config_text)
        self.rng = np.random.default_rng([config.train.seed, self.step, self.generation])

    # ---- run directory -------------------------------------------------------------------------
    @property
    def checkpoint_dir(self) -> Path:
        return self.run_dir / "checkpoints"

    def _prepare_run_dir(self, config_text: str | None) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        saved = self.run_dir / "config.json"
        if saved.is_file():
            try:
                previous = json.loads(saved.read_text())
            except json.JSONDecodeError as exc:
                raise CheckpointError(f"{saved}: not valid JSON ({exc})") from None
            if previous.get("game") != self.config.game or previous.get("game_options") != self.config.game_options:
                raise CheckpointError(f"{self.run_dir} is a run of {previous.get('game')} "
                                      f"{previous.get('game_options')}, not {self.config.game} "
                                      f"{self.config.game_options}; use another --run directory")
        atomic_write_json(saved, self.config.to_dict())
        if config_text is not None:
            (self.run_dir / "config.toml").write_text(config_text)
        latest = latest_checkpoint(self.checkpoint_dir)
        if latest is not None:
            meta = restore_training(latest, self.net, self.optimizer,
                                    self.replay if self.config.train.save_replay else None)
            if meta.get("game") != self.game.name or meta.get("game_options", {}) != self.game.options_dict():
                raise CheckpointError(f"{latest}: checkpoint is for {meta.get('game')} "
                                      f"{meta.get('game_options')}, not {self.game!r}")
            for group in self.optimizer.param_groups:  # the config may change these on resume
                group["lr"], group["weight_decay"] = self.config.train.lr, self.config.train.weight_decay
            self.step = int(meta["step"])
            self.ratings = meta.get("ratings", self.ratings)
            self.latest_eval = meta.get("latest_eval", {})
            self.generation = int(meta.get("generation", 0)) + 1
            self.console.log(f"resumed {self.run_dir} from {latest.name} (step {self.step}, "
                             f"{len(self.replay)} replay samples)")

    def _metadata(self) -> dict[str, Any]:
        return {"game": self.game.name, "game_options": self.game.options_dict(), "step": self.step,
                "config": self.config.to_dict(), "ratings": self.ratings, "latest_eval": self.latest_eval,
                "generation": self.generation, "trainer": "alphazero"}

    def save_checkpoint(self) -> Path:
        self.saved_step = self.step
        path = save_training(self.checkpoint_dir, self.step, self.net, self.optimizer,
                             self.replay if self.config.train.save_replay else None, self._metadata(),
                             keep=self.config.train.keep_checkpoints)
        self.console.log(f"checkpoint {path.name}")
        return path

    # ---- learning ------------------------------------------------------------------------------
    def train_step(self) -> dict[str, float]:
        self.net.train()
        sample = self.replay.sample(self.config.train.batch_size, self.rng)
        sample = augment(sample, self.symmetries, self.spec.observation_key, self.rng)
        batch = {k: torch.from_numpy(v) for k, v in sample.items()}
        loss, metrics = policy_value_loss(self.net, batch, self.config.train.value_weight)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if self.config.train.grad_clip > 0:
            metrics["losses/grad_norm"] = float(torch.nn.utils.clip_grad_norm_(self.net.parameters(),
                                                                              self.config.train.grad_clip))
        self.optimizer.step()
        self.net.eval()
        self.step += 1
        return metrics

    def weights(self) -> dict[str, np.ndarray]:
        return {k: v.detach().cpu().numpy().copy() for k, v in self.net.state_dict().items()}

    # ---- evaluation ----------------------------------------------------------------------------
    def run_evaluation(self) -> dict[str, float]:
        best_path = self.checkpoint_dir / "best.json"
        best_net = load_network(best_path, game=self.game)[0] if best_path.is_file() else None
        started = time.monotonic()
        results = evaluate(self.game, self.net, best_net, self.config.eval, self.rng)
        versus_best = results.get("eval/search_vs_best")
        best_elo = self.ratings.get("best_elo", 0.0)
        gap = 0.0 if versus_best is None else elo_difference(versus_best, self.config.eval.games_vs_best)
        promote = best_net is None or (versus_best is not None and versus_best >= self.config.eval.promote_threshold)
        self.ratings["elo"] = best_elo + gap
        if promote:
            self.ratings.update(best_step=self.step, best_elo=self.ratings["elo"])
            save_network(self.checkpoint_dir / "best", self.net, self._metadata())
        results["eval/promoted"] = float(promote)
        results["eval/elo"] = self.ratings["elo"]
        results["eval/seconds"] = time.monotonic() - started
        self.latest_eval = {k: round(v, 4) for k, v in results.items()}
        return results

    # ---- orchestration -------------------------------------------------------------------------
    def run(self, *, steps: int | None = None, minutes: float | None = None) -> dict[str, Any]:
        """Collect, update, evaluate and log until ``steps`` learner steps or ``minutes`` have passed."""
        cfg = self.config
        target = steps if steps is not None else cfg.train.steps
        minutes = minutes if minutes is not None else cfg.train.minutes
        deadline = time.monotonic() + 60.0 * minutes if minutes else float("inf")
        restore_sigterm = _sigterm_as_interrupt()
        metrics_log = MetricsLog(self.run_dir)
        actors = ActorPool(cfg, self.spec, self.generation)
        actors.publish(self.step, self.weights())
        started = last_log = time.monotonic()
        games = samples = trained = 0
        window = {"games": 0, "samples": 0, "steps": 0}
        losses: dict[str, float] = {}
        self.console.log(f"training {self.game!r} with {self.spec.kind} network "
                         f"({sum(p.numel() for p in self.net.parameters()):,} parameters), "
                         f"{cfg.selfplay.actors} actor(s) x {cfg.selfplay.games_per_actor} games, "
                         f"steps {self.step} -> {target}")
        try:
            while self.step < target and time.monotonic() < deadline:
                new_games, new_samples = actors.collect(self.replay, wait=0.05)
                games, samples = games + new_games, samples + new_samples
                window["games"] += new_games
                window["samples"] += new_samples
                if len(self.replay) < max(cfg.train.min_replay, cfg.train.batch_size) or \
                        trained + cfg.train.batch_size > cfg.train.sample_reuse * max(samples, 1):
                    continue
                losses = self.train_step()
                trained += cfg.train.batch_size
                window["steps"] += 1
                if self.step % cfg.selfplay.publish_every == 0:
                    actors.publish(self.step, self.weights())
                if self.step % cfg.train.log_every == 0:
                    self._log(metrics_log, losses, window, time.monotonic() - last_log, games)
                    window = {"games": 0, "samples": 0, "steps": 0}
                    last_log = time.monotonic()
                if cfg.eval.every and self.step % cfg.eval.every == 0:
                    self._evaluate(metrics_log)
                if self.step % cfg.train.checkpoint_every == 0:
                    self.save_checkpoint()
        except KeyboardInterrupt:
            self.console.log("interrupted; saving a checkpoint")
        except Exception:  # e.g. a failing evaluation: keep the steps learned so far, then report the error
            if self.step > 0 and self.saved_step != self.step:
                self.console.log("error; saving a checkpoint before stopping")
                self.save_checkpoint()
            raise
        finally:
            actors.close()
            metrics_log.close()
            restore_sigterm()
        if self.step > 0 and self.saved_step != self.step:
            self.save_checkpoint()
        wall = time.monotonic() - started
        self.console.log(f"stopped at step {self.step} after {wall:.0f} s: {games} games, {samples} samples")
        return {"step": self.step, "games": games, "samples": samples, "seconds": wall, "losses": losses,
                "latest_eval": self.latest_eval}

    def _log(self, metrics_log: MetricsLog, losses: dict[str, float], window: dict[str, int], elapsed: float,
             games: int) -> None:
        elapsed = max(elapsed, 1e-6)
        rates = {"charts/games_per_s": window["games"] / elapsed,
                 "charts/samples_per_s": window["samples"] / elapsed,
                 "charts/steps_per_s": window["steps"] / elapsed,
                 "charts/replay_size": float(len(self.replay)),
                 "charts/games_total": float(games)}
        metrics_log.log(self.step, {**losses, **rates})
        self._progress(rates, losses)

    def _evaluate(self, metrics_log: MetricsLog) -> None:
        results = self.run_evaluation()
        metrics_log.log(self.step, results)
        self.console.log(f"step {self.step} evaluation: " + self._format_eval(results))

    def _progress(self, rates: dict[str, float], losses: dict[str, float]) -> None:
        self.console.log(
            f"step {self.step:>6}  games/s {rates['charts/games_per_s']:6.2f}  "
            f"samples/s {rates['charts/samples_per_s']:7.1f}  replay {len(self.replay):>7}  "
            f"loss {losses.get('losses/total', float('nan')):.3f} (policy {losses.get('losses/policy', float('nan')):.3f}"
            f", value {losses.get('losses/value', float('nan')):.3f})  "
            f"eval {self._format_eval(self.latest_eval) or '-'}")

    @staticmethod
    def _format_eval(results: dict[str, float]) -> str:
        names = {"eval/greedy_vs_random": "greedy-vs-random", "eval/search_vs_mcts": "vs-mcts",
                 "eval/search_vs_best": "vs-best", "eval/elo": "elo"}
        return "  ".join(f"{label} {results[key]:.2f}" for key, label in names.items() if key in results)


def _sigterm_as_interrupt():
    """Let ``kill PID`` (SIGTERM) stop a run like Ctrl-C does: with a final checkpoint. Returns the undo."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    return lambda: signal.signal(signal.SIGTERM, previous)


class ActorPool:
    """Self-play processes: each gets weights through its own queue and sends samples through a shared one."""

    def __init__(self, config: Config, spec, generation: int):
        context = mp.get_context("spawn")
        self.stop = context.Event()
        self.samples = context.Queue()
        self.weight_queues = [context.Queue() for _ in range(config.selfplay.actors)]
        payload = {"config": config.to_dict(), "network": spec.to_dict(), "generation": generation}
        self.processes = [context.Process(target=actor_main, args=(i, payload, q, self.samples, self.stop),
                                          daemon=True, name=f"boardzero-actor-{i}")
                          for i, q in enumerate(self.weight_queues)]
        for process in self.processes:
            process.start()

    def publish(self, version: int, weights: dict[str, np.ndarray]) -> None:
        for q in self.weight_queues:
            q.put((version, weights))

    def collect(self, replay: ReplayBuffer, wait: float) -> tuple[int, int]:
        games = samples = 0
        deadline = time.monotonic() + wait
        while True:
            try:
                if games == 0 and wait > 0:
                    item = self.samples.get(timeout=max(deadline - time.monotonic(), 0.001))
                else:
                    item = self.samples.get_nowait()
                _, _, num_games, batch = item
            except queue.Empty:
                break
            replay.add(batch)
            games += num_games
            samples += len(batch["obs"])
        if games == 0:
            for process in self.processes:
                if not process.is_alive():
                    raise RuntimeError(f"self-play process {process.name} died (exit code {process.exitcode})")
        return games, samples

    def close(self) -> None:
        self.stop.set()
        deadline = time.monotonic() + 10.0
        while any(p.is_alive() for p in self.processes) and time.monotonic() < deadline:
            try:  # drain, so no actor blocks on a full pipe while exiting
                self.samples.get(timeout=0.1)
            except queue.Empty:
                pass
        for process in self.processes:
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)
        for q in [self.samples, *self.weight_queues]:
            q.cancel_join_thread()
            q.close()


def train(config: Config, run_dir: str | Path, *, steps: int | None = None, minutes: float | None = None,
          config_text: str | None = None, console: Console | None = None) -> dict[str, Any]:
    """Start or resume the run in ``run_dir``; returns a summary."""
    return Trainer(config, run_dir, config_text=config_text, console=console).run(steps=steps, minutes=minutes)
