"""The training runtime every method shares: run directory and resume, checkpoints, actors, metrics,
periodic evaluation, progress on the terminal, Ctrl-C, SIGTERM and errors handled without losing learned steps.

A method is one module with a ``Method`` subclass (the learner: networks, optimizer,
loss, what to do with samples) and a worker (what an actor process plays)::

    collect  -> samples from the actors go to ``method.ingest`` (unless older than ``selfplay.max_staleness``
                publications)
    update   -> ``method.update()`` is one learner step, whenever ``method.ready()``
    publish  -> every ``selfplay.publish_every`` steps the actors get ``method.payload()``
    evaluate -> every ``eval.every`` steps, ``method.evaluate()``
    log, checkpoint

``train(config, run_dir)`` picks the method named by ``config.method``, starts
the run or resumes it from its newest checkpoint.
"""

from __future__ import annotations

import abc
import bisect
import copy
import dataclasses
import signal
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import torch
from rich.console import Console

from boardzero.core.api import Game
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import make
from boardzero.learn.actors import ActorPool, Delivery, Worker, open_actor_pool
from boardzero.learn.augment import augment
from boardzero.learn.config import Config
from boardzero.learn.evaluation import against_opponents
from boardzero.learn.methods import agent_for_checkpoint as agent_for_checkpoint, method_class
from boardzero.learn.metrics import MetricsLog
from boardzero.learn.replay import ReplayBuffer
from boardzero.learn.rundir import RunDir
from boardzero.nn.base import Network
from boardzero.nn.checkpoint import (
    check_game,
    load_optimizer,
    load_state,
    optimizer_tensors,
    read_extra,
    read_metadata,
    read_tensors,
    resized_to,
    resolve_checkpoint,
    save_network,
)
from boardzero.nn.nets import NetworkSpec, build_network
from boardzero.nn.precision import learner_device


class Method(abc.ABC):
    """One training algorithm on the shared runtime. Subclasses set ``name`` and ``agent`` and fill the
    learner side; ``worker`` builds the actor side in each self-play process."""

    name: ClassVar[str]
    agent: ClassVar[str]  # the agent spec name that plays this method's checkpoints
    large_extras: ClassVar[tuple[str, ...]] = ()  # checkpoint extras kept only with the newest checkpoint
    # other methods whose method-specific config fields this one reads too (a method built on AlphaZero's
    # self-play names "alphazero", so selfplay.simulations and the like apply to it); see learn.methods
    reads_settings_of: ClassVar[tuple[str, ...]] = ()
    init_from: ClassVar[tuple[str, ...]] = ()  # other methods whose checkpoints may start a run of this one (--init)

    def __init__(self, config: Config, game: Game, rundir: RunDir, console: Console):
        self.config, self.game, self.rundir, self.console = config, game, rundir, console
        self.rng = np.random.default_rng(config.train.seed)
        self.spec = self.network_spec()
        torch.manual_seed(config.train.seed)
        self.device = learner_device(config.train.device)
        self.net: Network = build_network(self.spec).to(self.device)
        self.optimizer = torch.optim.AdamW(
            self.net.parameters(), lr=config.train.lr, weight_decay=config.train.weight_decay
        )
        self.step = 0

    def tensors(self, arrays: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
        """Arrays as tensors on the learner's device."""
        return {k: torch.from_numpy(v).to(self.device) for k, v in arrays.items()}

    def play_net(self) -> Network:
        """The current network for agents that play (they feed CPU tensors): itself on a CPU learner, else a
        CPU copy."""
        if self.device.type == "cpu":
            return self.net
        return copy.deepcopy(self.net).cpu().eval()

    def network_spec(self) -> NetworkSpec:
        return self.config.network.spec_for(self.game)

    # ---- actor side --------------------------------------------------------------------------
    @classmethod
    @abc.abstractmethod
    def worker(cls, actor_id: int, payload: dict[str, Any]) -> Worker:
        """The self-play of one actor process, from ``actor_payload()``."""

    def actor_payload(self, generation: int) -> dict[str, Any]:
        """What every actor process is started with (picklable)."""
        return {
            "config": self.config.to_dict(),
            "network": self.spec.to_dict(),
            "generation": generation,
            "run": str(self.rundir.path),
        }

    def payload(self) -> Any:
        """What the actors get at each publication: by default the network's weights."""
        return {k: v.detach().cpu().numpy().copy() for k, v in self.net.state_dict().items()}

    # ---- learner side ------------------------------------------------------------------------
    @abc.abstractmethod
    def ingest(self, version: int, samples: dict[str, np.ndarray]) -> int:
        """Take samples from an actor (made with weights ``version``); returns how many it kept."""

    @abc.abstractmethod
    def ready(self) -> bool:
        """Whether enough new data is there for an update."""

    @abc.abstractmethod
    def update(self) -> dict[str, float]:
        """One learner step; returns its metrics (``losses/...``)."""

    def evaluate(self) -> dict[str, float]:
        """Scores of the current network (``eval/...``)."""
        agent = self.play_agent()
        return against_opponents(self.game, agent, self.config.eval, self.rng)

    @abc.abstractmethod
    def play_agent(self):
        """An agent that plays with the current in-memory network, as the method's agent spec would."""

    def snapshot_metadata(self) -> dict[str, Any]:
        """Metadata of a past network the method keeps in the run (a bank or league member): enough to load
        and play it as a checkpoint of this run."""
        return {
            "game": self.game.name,
            "game_options": self.game.options_dict(),
            "trainer": self.name,
            "config": self.config.to_dict(),
        }

    def metadata(self) -> dict[str, Any]:
        """Extra metadata stored with a checkpoint (the runtime adds game, step, config, trainer)."""
        return {}

    def extras(self) -> dict[str, dict[str, np.ndarray]]:
        """Extra arrays stored with a checkpoint besides network and optimizer (e.g. a replay buffer)."""
        return {}

    def restore(self, json_path: Path, meta: dict[str, Any]) -> None:
        """Load what ``metadata``/``extras`` stored (network and optimizer are already loaded)."""

    def optimize(self, loss: torch.Tensor, metrics: dict[str, float]) -> None:
        """One AdamW step on ``loss`` with the configured gradient clipping and learning-rate warm-up."""
        train = self.config.train
        if self.step < train.warmup_steps:  # its last step sets lr itself, which later steps keep
            for group in self.optimizer.param_groups:
                group["lr"] = train.lr * (self.step + 1) / train.warmup_steps
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if train.grad_clip > 0:
            metrics["losses/grad_norm"] = float(torch.nn.utils.clip_grad_norm_(self.net.parameters(), train.grad_clip))
        self.optimizer.step()


class ReplayMethod(Method):
    """A method that learns from a ring buffer of samples (``replay_fields``): it trains at most
    ``train.sample_reuse`` samples per sample generated and stores the buffer with its checkpoints when
    ``train.save_replay`` (only the newest checkpoint keeps it)."""

    large_extras: ClassVar[tuple[str, ...]] = ("replay",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.replay = ReplayBuffer(self.config.train.replay_size, self.replay_fields())
        self.trained = 0  # samples trained on by this process
        self.generated = 0  # samples received by this process
        self.symmetries = self.game.symmetries() if self.config.train.symmetries else []

    def sample_batch(self) -> dict[str, np.ndarray]:
        """``train.batch_size`` samples from the replay buffer, each as itself or as its image under a random
        symmetry of the game (``train.symmetries``)."""
        sample = self.replay.sample(self.config.train.batch_size, self.rng)
        return augment(sample, self.symmetries, self.spec.observation_key, self.rng)

    @abc.abstractmethod
    def replay_fields(self) -> dict[str, tuple[tuple[int, ...], type]]:
        """{name: (shape, dtype)} of a sample."""

    def ingest(self, version: int, samples: dict[str, np.ndarray]) -> int:
        count = len(next(iter(samples.values())))
        self.replay.add(samples)
        self.generated += count
        return count

    def ready(self) -> bool:
        train = self.config.train
        return len(self.replay) >= max(
            train.min_replay, train.batch_size
        ) and self.trained + train.batch_size <= train.sample_reuse * max(self.generated, 1)

    def extras(self) -> dict[str, dict[str, np.ndarray]]:
        if not self.config.train.save_replay or len(self.replay) == 0:
            return {}
        return {"replay": self.replay.state_arrays()}

    def restore(self, json_path: Path, meta: dict[str, Any]) -> None:
        if self.config.train.save_replay:
            arrays = read_extra(json_path, meta, "replay")
            if arrays is not None:
                self.replay.load_arrays(arrays, json_path)
            self.console.log(f"replay buffer: {len(self.replay)} samples")


class Trainer:
    """Runs a method: collect, update, publish, evaluate, log, checkpoint; resumes a run."""

    def __init__(
        self,
        config: Config,
        run_dir: str | Path,
        *,
        config_text: str | None = None,
        console: Console | None = None,
        init: str | Path | None = None,
    ):
        torch.set_num_threads(1)
        self.config = config
        self.console = console or Console()
        if not config.game:
            raise ConfigError("game", 'no game given (set game = "..." in the config or pass GAME)')
        self.game = make(config.game, **config.game_options)
        self.rundir = RunDir(run_dir)
        self.rundir.claim(config.to_dict(), config_text)
        self.method = method_class(config.method)(config, self.game, self.rundir, self.console)
        self.saved_step = -1
        self.generation = 0  # how many times this run was started (varies the actors' seeds)
        self.wall = 0.0  # training seconds of the run so far, over all resumes
        self.latest_eval: dict[str, float] = {}
        self.totals = Tally()  # games and samples of the run so far, over all resumes
        self.initialised_from: dict[str, Any] | None = None  # the checkpoint a new run took its weights from
        self._resume()
        if init is not None:
            if self.step or self.rundir.latest_checkpoint() is not None:
                self.console.log(
                    f"{self.rundir.path} resumes from its own checkpoint; the initial network "
                    f"{init} is for starting a run"
                )
            else:
                self._initialise(init)

    @property
    def step(self) -> int:
        return self.method.step

    def _load_weights(self, source: Path, remedy: str, *, starting: bool = False) -> dict[str, Any]:
        """Check that ``source`` is a checkpoint of this game, method (or, ``starting`` a run, of one in the
        method's ``init_from``) and network, load its weights; its metadata.

        A value method (``td``) starting a run of a game with player-to-player trading may start from a
        checkpoint of the same game without trading: the observations are the same; its values are taken, and
        the policy layer, which a value method does not use, keeps its fresh weights for the larger action
        space."""
        meta = read_metadata(source)
        plain = getattr(self.game, "without_trading", lambda: self.game)()
        widen = (
            starting
            and self.method.name == "td"
            and plain is not self.game
            and meta.get("game_options", {}).get("trading") is False
        )
        check_game(meta, plain if widen else self.game, source)
        trainers = (self.method.name, *self.method.init_from) if starting else (self.method.name,)
        if meta.get("trainer", "alphazero") not in trainers:
            raise ConfigError(
                "method", f"{source} was made by the {meta.get('trainer')} trainer, not {self.method.name}"
            )
        wanted = dataclasses.replace(self.method.spec, num_actions=plain.num_actions) if widen else self.method.spec
        if NetworkSpec.from_dict(meta.get("network", {})) != wanted:
            raise CheckpointError(
                f"{source}: checkpoint network {meta.get('network')} differs from the "
                f"configured network {wanted.to_dict()}; {remedy}"
            )
        tensors = read_tensors(source.with_name(meta["weights"]), sha256=meta.get("weights_sha256"))
        if widen:  # the policy layer is sized by the action space; the value method leaves it as initialised
            tensors = resized_to(tensors, self.method.net)
        load_state(self.method.net, tensors, source)
        return meta

    def _initialise(self, init: str | Path) -> None:
        """Start a new run from the weights of another run's checkpoint or of a shipped model (a fresh optimizer)."""
        source = resolve_checkpoint(init)
        meta = self._load_weights(source, "use a config with the checkpoint's [network] settings", starting=True)
        self.initialised_from = {
            "checkpoint": str(source),
            "weights_sha256": meta.get("weights_sha256", ""),
            "step": int(meta.get("step", 0)),
        }
        self.console.log(f"new run {self.rundir.path}: network from {source} (its step {meta.get('step', 0)})")

    def _resume(self) -> None:
        latest = self.rundir.latest_checkpoint()
        if latest is None:
            return
        meta = self._load_weights(latest, "use a new --run directory or the checkpoint's [network] settings")
        self.initialised_from = meta.get("initialised_from")
        optimizer = read_extra(latest, meta, "optim")
        if optimizer is not None:
            load_optimizer(self.method.optimizer, optimizer, meta.get("optimizer_param_groups", []), latest)
        for group in self.method.optimizer.param_groups:  # the config may change these on resume
            group["lr"], group["weight_decay"] = self.config.train.lr, self.config.train.weight_decay
        self.method.step = int(meta["step"])
        self.method.restore(latest, meta)
        self.latest_eval = meta.get("latest_eval", {})
        self.generation = int(meta.get("generation", 0)) + 1
        self.wall = float(meta.get("train_seconds", 0.0))
        totals = meta.get("selfplay_totals", {})
        self.totals = Tally(
            games=int(totals.get("games", 0)),
            samples=int(totals.get("samples", 0)),
            dropped=int(totals.get("samples_dropped", 0)),
        )
        self.method.rng = np.random.default_rng([self.config.train.seed, self.step, self.generation])
        self.console.log(
            f"resumed {self.rundir.path} from {latest.name} (step {self.step}, {self.wall / 60:.1f} min trained so far)"
        )

    def metadata(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "game_options": self.game.options_dict(),
            "step": self.step,
            "trainer": self.method.name,
            "config": self.config.to_dict(),
            "latest_eval": self.latest_eval,
            "generation": self.generation,
            "train_seconds": round(self.wall, 2),
            "selfplay_totals": {
                "games": self.totals.games,
                "samples": self.totals.samples,
                "samples_dropped": self.totals.dropped,
            },
            **({"initialised_from": self.initialised_from} if self.initialised_from else {}),
            **self.method.metadata(),
        }

    def save_checkpoint(self) -> Path:
        self.saved_step = self.step
        tensors, groups = optimizer_tensors(self.method.optimizer)
        extras: dict[str, Mapping[str, torch.Tensor | np.ndarray]] = {"optim": tensors, **self.method.extras()}
        path = save_network(
            self.rundir.step_stem(self.step),
            self.method.net,
            {**self.metadata(), "optimizer_param_groups": groups},
            extras,
        )
        self.rundir.prune(
            self.config.train.keep_checkpoints, self.method.large_extras, every=self.config.train.checkpoint_every
        )
        self.console.log(f"checkpoint {path.name}")
        return path

    def run(self, *, steps: int | None = None, minutes: float | None = None) -> dict[str, Any]:
        """Collect, update, publish, evaluate, log and checkpoint until ``steps`` learner steps or ``minutes``."""
        cfg = self.config
        target = steps if steps is not None else cfg.train.steps
        minutes = minutes if minutes is not None else cfg.train.minutes
        started = time.monotonic()
        deadline = started + 60.0 * minutes if minutes else float("inf")
        wall_at_start = self.wall
        self.console.log(
            f"training {self.game!r} by {self.method.name} with a {self.method.spec.kind} network "
            f"({sum(p.numel() for p in self.method.net.parameters()):,} parameters), "
            f"{cfg.selfplay.actors} {cfg.selfplay.backend} actor(s) x {cfg.selfplay.games_per_actor} "
            f"games, steps {self.step} -> {target}"
            + (f", for at most {minutes:g} min" if minutes else "")
            + f"; metrics in {self.rundir.metrics}, TensorBoard: tensorboard --logdir {self.rundir.tensorboard}"
        )
        actors = open_actor_pool(cfg.selfplay, self.method.name, self.method.actor_payload(self.generation))
        stop = StopRequest.install()
        metrics_log = MetricsLog(self.rundir.metrics, self.rundir.tensorboard)
        published = Publications(cfg.selfplay.max_staleness)
        self._publish(actors, published)
        progress = _Progress(self.step, target, deadline)
        tally, window = Tally(), Tally()  # this invocation; since the last metrics line
        losses: dict[str, float] = {}
        try:
            while self.step < target and time.monotonic() < deadline and not stop.requested:
                for delivery in actors.collect(wait=0.05):
                    self._ingest(delivery, published, tally, window, self.totals)
                self.wall = wall_at_start + time.monotonic() - started
                if not self.method.ready():
                    if progress.idle_due():
                        self.console.log(f"waiting for self-play: {tally.games} games, {tally.samples} samples so far")
                    continue
                losses = self.method.update()
                self.method.step += 1
                window.steps += 1
                if self.step % cfg.selfplay.publish_every == 0:
                    self._publish(actors, published)
                if self.step % cfg.train.log_every == 0:
                    self._log(metrics_log, losses, window, actors.stats(), progress)
                    window = Tally()
                if cfg.eval.every and self.step % cfg.eval.every == 0:
                    self._evaluate(metrics_log)
                if self.step % cfg.train.checkpoint_every == 0:
                    self.save_checkpoint()
        except KeyboardInterrupt:  # a second Ctrl-C or SIGTERM: stop at once
            self.console.log("interrupted; saving a checkpoint")
        except Exception:  # e.g. a failing evaluation: keep the steps learned so far, then report the error
            if self.step > 0 and self.saved_step != self.step:
                self.console.log("error; saving a checkpoint before stopping")
                self.save_checkpoint()
            raise
        finally:
            stop.uninstall()
            actors.close()
            metrics_log.close()
        if stop.requested:
            self.console.log(f"{stop.requested}: stopping at step {self.step} with a checkpoint")
        self.wall = wall_at_start + time.monotonic() - started
        if self.step > 0 and self.saved_step != self.step:
            self.save_checkpoint()
        seconds = time.monotonic() - started
        dropped = f" ({tally.dropped} stale samples dropped)" if tally.dropped else ""
        self.console.log(
            f"stopped at step {self.step} after {seconds:.0f} s: {tally.games} games, {tally.samples} samples{dropped}"
        )
        return {
            "step": self.step,
            "games": tally.games,
            "samples": tally.samples,
            "samples_dropped": tally.dropped,
            "seconds": seconds,
            "losses": losses,
            "latest_eval": self.latest_eval,
        }

    def _publish(self, actors: ActorPool, published: Publications) -> None:
        actors.publish(self.step, self.method.payload())
        published.add(self.step)

    def _ingest(self, delivery: Delivery, published: Publications, *tallies: Tally) -> None:
        """Count an actor's delivery and hand its samples to the method, unless they are too stale."""
        version, games, batch = delivery
        count = len(next(iter(batch.values()))) if batch else 0
        age = published.age(version)
        stale = published.too_old(age)
        kept = self.method.ingest(version, batch) if count and not stale else 0
        for tally in tallies:
            tally.add(games, count, kept, age, stale)

    def _log(
        self,
        metrics_log: MetricsLog,
        losses: dict[str, float],
        window: Tally,
        actor_stats: dict[str, float],
        progress: _Progress,
    ) -> None:
        elapsed = max(time.monotonic() - window.since, 1e-6)
        rates = {
            "charts/games_per_s": window.games / elapsed,
            "charts/samples_per_s": window.samples / elapsed,
            "charts/SPS": window.steps / elapsed,
            "charts/games_total": float(self.totals.games),
            "charts/sample_age": window.mean_age(),
            "charts/samples_stale_dropped": float(self.totals.dropped),
            **actor_stats,
        }
        metrics_log.log(self.step, self.wall, {**losses, **rates})
        loss_text = "  ".join(f"{k.split('/')[-1]} {v:.4f}" for k, v in losses.items() if k.startswith("losses/"))
        self.console.log(
            f"step {self.step:>7}  games/s {rates['charts/games_per_s']:6.2f}  samples/s "
            f"{rates['charts/samples_per_s']:7.1f}  steps/s {rates['charts/SPS']:5.2f}  {loss_text}  "
            f"eval {_format_eval(self.latest_eval) or '-'}  left {progress.left(self.step)}"
        )

    def _evaluate(self, metrics_log: MetricsLog) -> None:
        started = time.monotonic()
        results = self.method.evaluate()
        results["eval/seconds"] = time.monotonic() - started
        self.latest_eval = {k: round(v, 4) for k, v in results.items()}
        metrics_log.log(self.step, self.wall, results)
        self.console.log(f"step {self.step} evaluation: {_format_eval(results)}")


class Publications:
    """The weight versions published to the actors in this invocation, to tell how stale a sample is: its age is
    the number of publications after the one that made it (0: the newest weights)."""

    def __init__(self, max_staleness: int):
        self.max_staleness = max_staleness  # 0 = keep every sample
        self.versions: list[int] = []  # increasing learner steps

    def add(self, version: int) -> None:
        self.versions.append(version)

    def age(self, version: int) -> int:
        return len(self.versions) - bisect.bisect_right(self.versions, version)

    def too_old(self, age: int) -> bool:
        return 0 < self.max_staleness < age


@dataclasses.dataclass
class Tally:
    """Games and samples received since ``since``: kept ones, stale ones dropped, and their age."""

    games: int = 0
    samples: int = 0  # kept by the method
    dropped: int = 0  # too stale
    received: int = 0
    age_sum: int = 0  # publications behind, summed over the samples received
    steps: int = 0
    since: float = dataclasses.field(default_factory=time.monotonic)

    def add(self, games: int, received: int, kept: int, age: int, stale: bool) -> None:
        self.games += games
        self.samples += kept
        self.dropped += received if stale else 0
        self.received += received
        self.age_sum += age * received

    def mean_age(self) -> float:
        return self.age_sum / self.received if self.received else 0.0


def _format_eval(results: dict[str, float]) -> str:
    return "  ".join(
        f"{k.removeprefix('eval/')} {v:.2f}"
        for k, v in results.items()
        if k.startswith("eval/") and k != "eval/seconds"
    )


class _Progress:
    """Time left, from the learner's pace since this invocation started and the deadline."""

    def __init__(self, step: int, target: int, deadline: float):
        self.first_step, self.target, self.deadline = step, target, deadline
        self.started = time.monotonic()
        self.last_idle_note = self.started

    def left(self, step: int) -> str:
        now = time.monotonic()
        done = step - self.first_step
        by_steps = (self.target - step) * (now - self.started) / done if done > 0 else float("inf")
        seconds = min(by_steps, self.deadline - now)
        if not np.isfinite(seconds):
            return "?"
        return f"{int(seconds // 3600)}:{int(seconds % 3600 // 60):02d}:{int(seconds % 60):02d}"

    def idle_due(self) -> bool:
        """True every 10 s while the learner waits for data, so a long wait is never silent."""
        now = time.monotonic()
        if now - self.last_idle_note >= 10.0:
            self.last_idle_note = now
            return True
        return False


class StopRequest:
    """Ctrl-C (SIGINT) and ``kill PID`` (SIGTERM) ask a run to stop after its current step, with a checkpoint.

    The first signal only sets ``requested`` (its name): raised in the middle of reading a batch of samples from
    the actors, an exception would leave half a message in the pipe and break the final drain. A second signal
    raises ``KeyboardInterrupt`` at once. Off the main thread, where Python cannot take signals, nothing is
    installed."""

    def __init__(self):
        self.requested = ""
        self.previous: dict[int, Any] = {}

    @classmethod
    def install(cls) -> StopRequest:
        stop = cls()
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                stop.previous[signum] = signal.signal(signum, stop._handle)
        return stop

    def _handle(self, signum, frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = signal.Signals(signum).name

    def uninstall(self) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous = {}


def train(
    config: Config,
    run_dir: str | Path,
    *,
    steps: int | None = None,
    minutes: float | None = None,
    config_text: str | None = None,
    console: Console | None = None,
    init: str | Path | None = None,
) -> dict[str, Any]:
    """Start or resume the run in ``run_dir`` with the method the config names; returns a summary. A new run
    takes its first weights from the checkpoint ``init`` when given."""
    return Trainer(config, run_dir, config_text=config_text, console=console, init=init).run(
        steps=steps, minutes=minutes
    )
