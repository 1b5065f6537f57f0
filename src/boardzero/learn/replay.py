"""A fixed-size ring buffer of self-play samples, stored as preallocated arrays."""

from __future__ import annotations

import numpy as np

FIELDS = ("obs", "mask", "policy", "value")


class ReplayBuffer:
    """Samples: observation of the player to move, its legal mask, the MCTS visit
    distribution and the final returns seen from that player (seat-relative)."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], num_actions: int, num_players: int):
        self.capacity = capacity
        self.obs = np.zeros((capacity, *obs_shape), np.float32)  # [N, *obs]
        self.mask = np.zeros((capacity, num_actions), bool)  # [N, A]
        self.policy = np.zeros((capacity, num_actions), np.float32)  # [N, A]
        self.value = np.zeros((capacity, num_players), np.float32)  # [N, P] seat-relative
        self.size = 0
        self.cursor = 0  # next slot to write
        self.added = 0  # samples ever added

    def __len__(self) -> int:
        return self.size

    def add(self, batch: dict[str, np.ndarray]) -> None:
        count = len(batch["obs"])
        if count > self.capacity:
            batch = {k: v[-self.capacity:] for k, v in batch.items()}
            count = self.capacity
        slots = (self.cursor + np.arange(count)) % self.capacity
        for name in FIELDS:
            getattr(self, name)[slots] = batch[name]
        self.cursor = int((self.cursor + count) % self.capacity)
        self.size = min(self.capacity, self.size + count)
        self.added += count

    def sample(self, batch_size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        index = rng.integers(0, self.size, size=batch_size)
        return {name: getattr(self, name)[index] for name in FIELDS}

    def state_arrays(self) -> dict[str, np.ndarray]:
        """The filled part, oldest first, for saving."""
        order = (self.cursor - self.size + np.arange(self.size)) % self.capacity
        arrays = {name: getattr(self, name)[order] for name in FIELDS}
        arrays["added"] = np.array([self.added], np.int64)
        return arrays

    def load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.size = self.cursor = 0
        added = int(arrays["added"][0])
        self.add({name: arrays[name] for name in FIELDS})
        self.added = added
