"""Training checkpoints of a run: the network (see ``nn.checkpoint``) plus optimizer state and replay buffer.

``<run>/checkpoints/step_<N>.json`` + ``.safetensors`` hold the network and the
metadata; ``step_<N>.optim.safetensors`` the AdamW moments (param groups in the
JSON) and, optionally, ``step_<N>.replay.safetensors`` the replay buffer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from torch import nn

from boardzero.core.errors import CheckpointError
from boardzero.learn.replay import ReplayBuffer
from boardzero.nn.checkpoint import (
    atomic_write_bytes,
    find_checkpoints,
    read_metadata,
    read_tensors,
    save_network,
    tensors_to_bytes,
)


def optimizer_tensors(optimizer: torch.optim.Optimizer) -> tuple[dict[str, torch.Tensor], list[dict[str, Any]]]:
    state = optimizer.state_dict()
    tensors = {}
    for index, entries in state["state"].items():
        for name, value in entries.items():
            tensors[f"state.{index}.{name}"] = value if isinstance(value, torch.Tensor) else torch.tensor(value)
    return tensors, state["param_groups"]


def load_optimizer(optimizer: torch.optim.Optimizer, tensors: dict, groups: list[dict[str, Any]], where: Path) -> None:
    state: dict[int, dict[str, torch.Tensor]] = {}
    for key, value in tensors.items():
        _, index, name = key.split(".", 2)
        state.setdefault(int(index), {})[name] = torch.from_numpy(value.copy())
    try:
        optimizer.load_state_dict({"state": state, "param_groups": groups})
    except (ValueError, KeyError, TypeError) as exc:
        raise CheckpointError(f"{where}: optimizer state does not fit the network ({exc})") from None


def save_training(directory: Path, step: int, net: nn.Module, optimizer: torch.optim.Optimizer,
                  replay: ReplayBuffer | None, metadata: dict[str, Any], keep: int = 0) -> Path:
    """Write one checkpoint (JSON last, so a complete JSON marks a complete checkpoint) and prune old ones."""
    directory = Path(directory)
    stem = directory / f"step_{step:08d}"
    tensors, groups = optimizer_tensors(optimizer)
    atomic_write_bytes(stem.with_name(stem.name + ".optim.safetensors"), tensors_to_bytes(tensors))
    has_replay = replay is not None and len(replay) > 0
    if has_replay:
        atomic_write_bytes(stem.with_name(stem.name + ".replay.safetensors"), tensors_to_bytes(replay.state_arrays()))
    meta = dict(metadata, step=step, optimizer_param_groups=groups, replay=has_replay)
    json_path = save_network(stem, net, meta)
    _prune(directory, keep)
    return json_path


def _prune(directory: Path, keep: int) -> None:
    found = find_checkpoints(directory)
    for index, (_, json_path) in enumerate(found):
        newest = index == len(found) - 1
        if keep and index < len(found) - keep:
            json_path.unlink(missing_ok=True)  # metadata first: the rest is then an incomplete leftover
            for suffix in (".safetensors", ".optim.safetensors", ".replay.safetensors"):
                json_path.with_name(json_path.stem + suffix).unlink(missing_ok=True)
        elif not newest:  # only the newest checkpoint keeps its (large) replay buffer
            json_path.with_name(json_path.stem + ".replay.safetensors").unlink(missing_ok=True)


def latest_checkpoint(directory: Path) -> Path | None:
    found = find_checkpoints(directory)
    return found[-1][1] if found else None


def restore_training(json_path: Path, net: nn.Module, optimizer: torch.optim.Optimizer,
                     replay: ReplayBuffer | None) -> dict[str, Any]:
    """Load network, optimizer and replay buffer from a checkpoint written by ``save_training``."""
    from boardzero.nn.checkpoint import load_state

    meta = read_metadata(json_path)
    if meta.get("network") != net.spec.to_dict():
        raise CheckpointError(f"{json_path}: checkpoint network {meta.get('network')} differs from the "
                              f"configured network {net.spec.to_dict()}; use a new --run directory or the "
                              "checkpoint's [network] settings")
    load_state(net, read_tensors(json_path.with_name(meta["weights"]), sha256=meta.get("weights_sha256")), json_path)
    optim_path = json_path.with_name(json_path.stem + ".optim.safetensors")
    load_optimizer(optimizer, read_tensors(optim_path), meta.get("optimizer_param_groups", []), optim_path)
    replay_path = json_path.with_name(json_path.stem + ".replay.safetensors")
    if replay is not None and meta.get("replay") and replay_path.is_file():
        arrays = read_tensors(replay_path)
        if arrays.get("obs") is None or arrays["obs"].shape[1:] != replay.obs.shape[1:]:
            raise CheckpointError(f"{replay_path}: replay buffer shapes do not fit this game and network")
        replay.load_arrays(arrays)
    return meta
