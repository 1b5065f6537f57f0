"""Ratings of a training run's checkpoints over time, for every training method.

The checkpoints (``<run>/checkpoints/step_<N>.json``) play a tournament among themselves and against fixed
agents (``random`` by default, the anchor at 0), so a learning curve reads in rating points. The agent
that plays a checkpoint is the one its training method names (``learn.methods.agent_for_checkpoint``:
``az`` for alphazero, ``td``, ``ppo``); the games are kept in ``<run>/ratings.json``, so rating the run again
as it trains plays only the new checkpoints' games.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.eval.tournament import Entrant, Tournament, run_tournament
from boardzero.learn.methods import agent_for_checkpoint
from boardzero.nn.checkpoint import find_checkpoints, read_metadata

RATINGS_FILE = "ratings.json"


@dataclass(frozen=True)
class Checkpoint:
    step: int
    path: Path  # the checkpoint's metadata JSON
    agent: str  # the agent that plays it, from its training method (az, td, ppo)
    game: str
    options: dict[str, Any]  # the game options it was trained with

    def entrant(self, agent_options: str = "") -> Entrant:
        """The agent that plays this checkpoint; ``agent_options`` (e.g. ``sims=50`` or ``greedy``) are added
        to its spec and to its name, so games with other options are kept apart."""
        spec = f"{self.agent}:{self.path.resolve()}"
        name = f"step {self.step}"
        if agent_options:
            spec, name = f"{spec},{agent_options}", f"{name} ({agent_options})"
        return Entrant(name, spec, self.step)


def run_checkpoints(run_dir: str | Path) -> list[Checkpoint]:
    """Every checkpoint of a run, oldest first."""
    run_dir = Path(run_dir)
    found = find_checkpoints(run_dir / "checkpoints")
    if not found:
        raise ConfigError("run", f"{run_dir} has no checkpoints (expected {run_dir}/checkpoints/step_<N>.json)")
    checkpoints = []
    for step, path in found:
        try:
            meta = read_metadata(path)
            agent = agent_for_checkpoint(meta)
        except (CheckpointError, ConfigError) as exc:
            raise ConfigError("run", f"{path}: {exc}") from None
        checkpoints.append(Checkpoint(step, path, agent, str(meta["game"]), dict(meta.get("game_options", {}))))
    return checkpoints


def spread(checkpoints: list[Checkpoint], most: int) -> list[Checkpoint]:
    """At most ``most`` checkpoints evenly spread over the run, always the first and the last."""
    if most < 2:
        raise ConfigError("checkpoints", f"must be at least 2, got {most}")
    if len(checkpoints) <= most:
        return list(checkpoints)
    picks = np.unique(np.round(np.linspace(0, len(checkpoints) - 1, most)).astype(int))
    return [checkpoints[i] for i in picks]


def rate_run(
    run_dir: str | Path,
    *,
    games_per_lineup: int,
    against: list[str] | None = None,
    most: int = 8,
    agent_options: str = "",
    seed: int = 0,
    opening_plies: int = 0,
    workers: int | None = None,
    out: str | Path | None = None,
    records: str | Path | None = None,
    on_start=None,
    on_result=None,
    **where,
) -> Tournament:
    """Play the checkpoints' tournament (see the module docstring); ``where``: ``backend`` and ``address``
    of ``run_tournament``."""
    chosen = spread(run_checkpoints(run_dir), most)
    last = chosen[-1]
    entrants = [Entrant(spec, spec) for spec in (against or ["random"])]
    return run_tournament(
        last.game,
        entrants + [c.entrant(agent_options) for c in chosen],
        games_per_lineup=games_per_lineup,
        options=last.options,
        seed=seed,
        opening_plies=opening_plies,
        workers=workers,
        out=out or Path(run_dir) / RATINGS_FILE,
        records=records,
        on_start=on_start,
        on_result=on_result,
        **where,
    )
