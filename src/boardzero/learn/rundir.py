"""The layout of a training run's directory, in one place.

    <run>/config.json          the validated config (config.toml: a copy of the file it came from)
    <run>/checkpoints/         step_<N>.json + .safetensors (+ .optim / .replay extras), best.json + best.safetensors
    <run>/bank/                past networks kept by a trainer that plays against them (bank.json lists them)
    <run>/metrics.jsonl        one JSON object per logged step or evaluation
    <run>/tb/                  TensorBoard events (``tensorboard --logdir <run>/tb``)

A run belongs to one method, game and set of game options; reusing its
directory for another is refused before anything is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from boardzero.core.errors import CheckpointError
from boardzero.nn.checkpoint import atomic_write_json, extra_path, find_checkpoints


class RunDir:
    def __init__(self, path: str | Path):
        self.path = Path(path)

    @property
    def config_json(self) -> Path:
        return self.path / "config.json"

    @property
    def checkpoints(self) -> Path:
        return self.path / "checkpoints"

    @property
    def bank(self) -> Path:
        return self.path / "bank"

    @property
    def metrics(self) -> Path:
        return self.path / "metrics.jsonl"

    @property
    def tensorboard(self) -> Path:
        return self.path / "tb"

    @property
    def best_stem(self) -> Path:
        return self.checkpoints / "best"

    def step_stem(self, step: int) -> Path:
        return self.checkpoints / f"step_{step:08d}"

    def latest_checkpoint(self) -> Path | None:
        found = find_checkpoints(self.checkpoints)
        return found[-1][1] if found else None

    def claim(self, config: dict[str, Any], config_text: str | None) -> None:
        """Create the directory, or check that an existing run is of the same method, game and options;
        then record the config."""
        self.path.mkdir(parents=True, exist_ok=True)
        if self.config_json.is_file():
            try:
                previous = json.loads(self.config_json.read_text())
            except json.JSONDecodeError as exc:
                raise CheckpointError(f"{self.config_json}: not valid JSON ({exc})") from None
            keys = ("method", "game", "game_options")
            before = {k: previous.get(k, "alphazero" if k == "method" else None) for k in keys}
            now = {k: config.get(k) for k in keys}
            if before != now:
                raise CheckpointError(
                    f"{self.path} is a run of {before['game']} {before['game_options']} by "
                    f"{before['method']}, not {now['game']} {now['game_options']} by "
                    f"{now['method']}; use another --run directory"
                )
        atomic_write_json(self.config_json, config)
        if config_text is not None:
            (self.path / "config.toml").write_text(config_text)

    def prune(self, keep: int, extras_of_newest_only: tuple[str, ...] = ("replay",), *, every: int = 0) -> None:
        """Keep the newest ``keep`` checkpoints (0 = all); only the newest keeps its large extras.

        With ``every`` (the checkpoint interval), a checkpoint whose step is off that schedule is where a run
        stopped (its time ran out, or it was interrupted): it is always kept, so resuming a run never rotates
        away the network that an earlier session ended with."""
        found = find_checkpoints(self.checkpoints)
        for index, (step, json_path) in enumerate(found):
            newest = index == len(found) - 1
            stop_point = every > 0 and step % every != 0
            if keep and index < len(found) - keep and not stop_point:
                json_path.unlink(missing_ok=True)  # metadata first: the rest is then an incomplete leftover
                for leftover in json_path.parent.glob(json_path.stem + ".*safetensors"):
                    leftover.unlink(missing_ok=True)
            elif not newest:
                for name in extras_of_newest_only:
                    extra_path(json_path, name).unlink(missing_ok=True)
