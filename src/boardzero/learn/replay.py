"""A fixed-size ring buffer of training samples, stored as preallocated arrays, one per named field."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from boardzero.core.errors import CheckpointError


class ReplayBuffer:
    """Samples with the named fields ``{name: (shape, dtype)}``, e.g. AlphaZero's observation, legal mask,
    visit distribution and seat-relative value, or TD's observation and lambda-return."""

    def __init__(self, capacity: int, fields: dict[str, tuple[tuple[int, ...], type]]):
        self.capacity = capacity
        self.arrays: dict[str, np.ndarray] = {
            name: np.zeros((capacity, *shape), dtype) for name, (shape, dtype) in fields.items()
        }
        self.size = 0
        self.cursor = 0  # next slot to write
        self.added = 0  # samples ever added

    def __len__(self) -> int:
        return self.size

    def add(self, batch: dict[str, np.ndarray]) -> None:
        count = len(next(iter(batch.values())))
        if count > self.capacity:
            batch = {k: v[-self.capacity :] for k, v in batch.items()}
            count = self.capacity
        slots = (self.cursor + np.arange(count)) % self.capacity
        for name, array in self.arrays.items():
            array[slots] = batch[name]
        self.cursor = int((self.cursor + count) % self.capacity)
        self.size = min(self.capacity, self.size + count)
        self.added += count

    def sample(self, batch_size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        index = rng.integers(0, self.size, size=batch_size)
        return {name: array[index] for name, array in self.arrays.items()}

    def state_arrays(self) -> dict[str, np.ndarray]:
        """The filled part, oldest first, for saving."""
        order = (self.cursor - self.size + np.arange(self.size)) % self.capacity
        arrays = {name: array[order] for name, array in self.arrays.items()}
        arrays["added"] = np.array([self.added], np.int64)
        return arrays

    def load_arrays(self, arrays: dict[str, np.ndarray], where: Path | str = "replay buffer") -> None:
        for name, array in self.arrays.items():
            saved = arrays.get(name)
            if saved is None or saved.shape[1:] != array.shape[1:]:
                raise CheckpointError(f"{where}: the saved replay buffer's {name!r} does not fit this game and network")
        self.size = self.cursor = 0
        added = int(arrays["added"][0])
        self.add({name: arrays[name] for name in self.arrays})
        self.added = added
