"""Training metrics: one JSON line per record in ``metrics.jsonl`` and the same names in TensorBoard."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np


class MetricsLog:
    """metrics.jsonl and TensorBoard, the same names in both. Every line has the learner ``step``, the
    ``time`` it was written and ``wall``: the run's training seconds so far, summed over resumes."""

    def __init__(self, path: Path, tensorboard_dir: Path | None):
        self.path = Path(path)
        self.writer = None
        if tensorboard_dir is not None:
            try:
                from torch.utils.tensorboard import SummaryWriter

                self.writer = SummaryWriter(str(tensorboard_dir))
            except Exception:  # pragma: no cover - tensorboard missing: JSONL only
                self.writer = None

    def log(self, step: int, wall: float, metrics: dict[str, float]) -> None:
        record = {"step": step, "time": time.time(), "wall": round(wall, 2), **metrics}
        with self.path.open("a") as f:
            f.write(json.dumps(record) + "\n")
        if self.writer is not None:
            for name, value in metrics.items():
                if isinstance(value, (int, float)) and np.isfinite(value):
                    self.writer.add_scalar(name, value, step)
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def read_metrics(path: Path) -> list[dict]:
    """Every record of a ``metrics.jsonl`` (a torn last line from a killed run is skipped)."""
    records = []
    for line in Path(path).read_text().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records
