"""A bank of past networks to play against: ``<run>/bank/`` holds them as checkpoints and ``bank.json``
lists them with the current best.

Opponents are drawn from it by a configurable rule: the best network with
probability ``best_share``, otherwise any member uniformly. A network joins the
bank, and becomes its best, when it scores at least ``admit_score`` against
the best over a trial of games (``admits``). The bank keeps its newest
``size`` members; the best is never dropped. Actors hold the members' networks
in a ``MemberNets`` (PPO's opponents, TD's league), which loads each once and
tells a member the bank has since dropped from one that is broken.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from torch import nn

from boardzero.core.errors import CheckpointError
from boardzero.nn.base import Network
from boardzero.nn.checkpoint import atomic_write_json, load_network, save_network


def admits(score: float, admit_score: float) -> bool:
    """Whether a trial score against the best admits a network as the new best."""
    return score >= admit_score


class Bank:
    def __init__(self, directory: str | Path, size: int):
        self.directory = Path(directory)
        self.size = size
        self.members: list[dict[str, Any]] = []  # {"step": int, "path": str (checkpoint JSON, relative)}
        self.best: int | None = None  # step of the best member
        self.version = 0  # changes whenever the members or the best change
        self._load()

    @property
    def index_path(self) -> Path:
        return self.directory / "bank.json"

    def _load(self) -> None:
        if not self.index_path.is_file():
            return
        try:
            data = json.loads(self.index_path.read_text())
            self.members, self.best, self.version = list(data["members"]), data["best"], int(data["version"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise CheckpointError(f"{self.index_path}: not a valid bank index ({exc})") from None
        for member in self.members:
            if not (self.directory / member["path"]).is_file():
                raise CheckpointError(f"{self.index_path}: member {member['path']} is missing")

    def __len__(self) -> int:
        return len(self.members)

    def add(self, net: Network, step: int, metadata: dict[str, Any], *, best: bool) -> None:
        """Store ``net`` as a member (the best if ``best``), dropping the oldest beyond ``size``."""
        stem = self.directory / f"member_{step:08d}"
        save_network(stem, net, {**metadata, "step": step})
        self.members = [m for m in self.members if m["step"] != step] + [{"step": step, "path": stem.name + ".json"}]
        if best or self.best is None:
            self.best = step
        while len(self.members) > self.size:
            oldest = next(m for m in self.members if m["step"] != self.best)
            self.members.remove(oldest)
            for leftover in self.directory.glob(Path(oldest["path"]).stem + ".*"):
                leftover.unlink(missing_ok=True)
        self.version += 1
        atomic_write_json(self.index_path, {"members": self.members, "best": self.best, "version": self.version})

    def best_path(self) -> Path:
        return self.directory / next(m["path"] for m in self.members if m["step"] == self.best)

    def payload(self) -> dict[str, Any]:
        """What actors need to draw opponents: absolute paths of the members and of the best."""
        return {
            "version": self.version,
            "members": [str(self.directory / m["path"]) for m in self.members],
            "best": str(self.best_path()) if self.members else None,
        }


def draw_opponent(bank: dict[str, Any], best_share: float, rng: np.random.Generator) -> str:
    """A member's path from a bank payload: the best with probability ``best_share``, else any member."""
    if rng.random() < best_share:
        return bank["best"]
    return bank["members"][int(rng.integers(len(bank["members"])))]


class MemberNets:
    """An actor's networks of bank members: each loaded once, when a game first plays it (``fetch`` turns a
    member's path into a readable one: the actor's ``run_file``), and forgotten when no longer wanted."""

    def __init__(self, fetch: Callable[[str], str], game, trainers: tuple[str, ...] | None = None):
        self.fetch, self.game, self.trainers = fetch, game, trainers
        self.nets: dict[str, nn.Module] = {}

    def get(self, path: str) -> nn.Module | None:
        """The member's network; None if the bank dropped it (deleted its files) before this actor loaded it.
        A member whose files are there but unreadable is a ``CheckpointError``."""
        if path not in self.nets:
            try:
                net, _ = load_network(self.fetch(path), game=self.game, trainers=self.trainers)
            except CheckpointError:
                if Path(path).is_file() and Path(path).with_suffix(".safetensors").is_file():
                    raise
                return None
            self.nets[path] = net.eval()
        return self.nets[path]

    def keep(self, paths) -> None:
        """Forget the loaded networks whose paths are not in ``paths``."""
        wanted = set(paths)
        self.nets = {path: net for path, net in self.nets.items() if path in wanted}
