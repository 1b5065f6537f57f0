"""Training samples through a game's symmetries: each sample of a batch is kept or replaced by
its image under one of the game's symmetries, drawn uniformly (the identity included)."""

from __future__ import annotations

import numpy as np

from boardzero.core.api import Symmetry


def augment(
    batch: dict[str, np.ndarray], symmetries: list[Symmetry], observation_key: str, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """``batch`` (obs, and mask and policy where it has them; values are unchanged) with every row mapped by a
    random symmetry or left as is."""
    if not symmetries:
        return batch
    choice = rng.integers(0, len(symmetries) + 1, size=len(batch["obs"]))  # 0: identity
    by_action = [name for name in ("mask", "policy") if name in batch]
    out = {**batch, **{name: batch[name].copy() for name in ["obs", *by_action]}}
    shape = batch["obs"].shape[1:]
    for k, symmetry in enumerate(symmetries, start=1):
        rows = np.flatnonzero(choice == k)
        if not len(rows):
            continue
        flat = batch["obs"][rows].reshape(len(rows), -1)
        out["obs"][rows] = flat[:, symmetry.observation[observation_key]].reshape(len(rows), *shape)
        for name in by_action:
            out[name][rows] = batch[name][rows[:, None], symmetry.actions]
    return out
