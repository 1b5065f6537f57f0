"""Checkpoints: safetensors weights + JSON metadata, never pickle. The one module that reads and writes them.

A checkpoint is ``<name>.safetensors`` (the network's weights) and
``<name>.json`` (metadata: format, game and options, network spec, trainer,
step, config, ratings, sha256 of every file), plus for training checkpoints
optional extras ``<name>.<extra>.safetensors`` (optimizer moments, replay
buffer). The JSON is written last, so a checkpoint whose JSON exists is
complete. Every write is atomic (temporary file + ``os.replace``). Anything
wrong on load is a ``CheckpointError`` that names the file and the problem:
a missing file, a checksum that does not match (a flipped byte), a foreign
format, or a checkpoint of another game or options (``check_game``, the one
place that decides whether a checkpoint fits a game).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch
from safetensors import SafetensorError
from safetensors.numpy import load as load_numpy_bytes, save as save_numpy_bytes
from torch import nn

from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.nn.base import Network
from boardzero.nn.nets import NetworkSpec, build_network
from boardzero.nn.threads import use_play_threads

FORMAT = "boardzero-checkpoint"
FORMAT_VERSION = 1
CHECKPOINT_RE = re.compile(r"^step_(\d+)\.json$")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; checkpoints and shipped models are meant to be shared
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def tensors_to_bytes(tensors: Mapping[str, torch.Tensor | np.ndarray]) -> bytes:
    arrays = {
        k: (v.detach().cpu().contiguous().numpy() if isinstance(v, torch.Tensor) else np.ascontiguousarray(v))
        for k, v in tensors.items()
    }
    return save_numpy_bytes(arrays)


def read_tensors(path: Path, *, sha256: str | None = None) -> dict[str, np.ndarray]:
    """Load a safetensors file as numpy arrays; a missing, altered or corrupt file is a CheckpointError."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot read weights ({exc.strerror or exc})") from None
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise CheckpointError(
            f"{path}: contents do not match the checksum in the metadata "
            "(file corrupt or replaced); delete this checkpoint to fall back to an earlier one"
        )
    try:
        return load_numpy_bytes(data)
    except (SafetensorError, ValueError, Exception) as exc:  # safetensors raises several types on garbage
        raise CheckpointError(f"{path}: not a valid safetensors file ({exc})") from None


def save_network(
    path_stem: Path,
    net: Network,
    metadata: dict[str, Any],
    extras: Mapping[str, Mapping[str, torch.Tensor | np.ndarray]] | None = None,
) -> Path:
    """Write ``<stem>.safetensors``, each extra as ``<stem>.<name>.safetensors``, then ``<stem>.json``;
    returns the JSON path."""
    path_stem = Path(path_stem)
    weights = tensors_to_bytes(net.state_dict())
    weights_path = path_stem.with_name(path_stem.name + ".safetensors")
    atomic_write_bytes(weights_path, weights)
    extra_sums = {}
    for name, tensors in (extras or {}).items():
        data = tensors_to_bytes(tensors)
        atomic_write_bytes(path_stem.with_name(f"{path_stem.name}.{name}.safetensors"), data)
        extra_sums[name] = hashlib.sha256(data).hexdigest()
    meta = dict(metadata)
    meta.update(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "network": net.spec.to_dict(),
            "weights": weights_path.name,
            "weights_sha256": hashlib.sha256(weights).hexdigest(),
            "extras": extra_sums,
        }
    )
    json_path = path_stem.with_name(path_stem.name + ".json")
    atomic_write_json(json_path, meta)
    return json_path


def read_metadata(json_path: Path) -> dict[str, Any]:
    json_path = Path(json_path)
    try:
        meta = json.loads(json_path.read_text())
    except OSError as exc:
        raise CheckpointError(f"{json_path}: cannot read checkpoint metadata ({exc.strerror or exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"{json_path}: checkpoint metadata is not valid JSON ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f'{json_path}: not a boardzero checkpoint (missing "format": "{FORMAT}")')
    if meta.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(
            f"{json_path}: checkpoint format version {meta.get('format_version')!r}, "
            f"this boardzero reads version {FORMAT_VERSION}"
        )
    for key in ("game", "network", "weights", "weights_sha256"):
        if key not in meta:
            raise CheckpointError(f"{json_path}: checkpoint metadata lacks {key!r}")
    return meta


def extra_path(json_path: Path, name: str) -> Path:
    return Path(json_path).with_name(f"{Path(json_path).stem}.{name}.safetensors")


def read_extra(json_path: Path, meta: dict[str, Any], name: str) -> dict[str, np.ndarray] | None:
    """The arrays of a checkpoint's extra ``name`` (checked against its checksum), or None if it has none
    or it was pruned (runs keep large extras only with their newest checkpoint)."""
    sums = meta.get("extras") or {}
    path = extra_path(json_path, name)
    if name not in sums or not path.is_file():
        return None
    return read_tensors(path, sha256=sums[name])


def optimizer_tensors(optimizer: torch.optim.Optimizer) -> tuple[dict[str, torch.Tensor], list[dict[str, Any]]]:
    """An optimizer's state as named tensors plus its param groups (JSON-ready)."""
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


def find_checkpoints(directory: Path) -> list[tuple[int, Path]]:
    """(step, json path) of every checkpoint in ``directory``, oldest first."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in directory.iterdir() if (m := CHECKPOINT_RE.match(p.name))]
    return sorted(found)


def resolve_checkpoint(path: str | Path) -> Path:
    """The metadata JSON meant by ``path``: a run directory (its latest checkpoint), a checkpoints
    directory, a ``.json`` or a ``.safetensors`` file of a checkpoint."""
    path = Path(path).expanduser()
    if path.is_dir():
        for directory in (path / "checkpoints", path):
            found = find_checkpoints(directory)
            if found:
                return found[-1][1]
        if (path / "model.json").is_file():
            return path / "model.json"
        raise CheckpointError(f"{path}: no checkpoint found (expected checkpoints/step_*.json or model.json)")
    if path.suffix == ".safetensors":
        path = path.with_suffix(".json")
    if not path.is_file():
        raise CheckpointError(f"{path}: no such checkpoint")
    return path


def load_network(
    path: str | Path, *, game=None, trainers: tuple[str, ...] | None = None
) -> tuple[Network, dict[str, Any]]:
    """Load a network and its metadata; with ``game``, check that the checkpoint was made for it; with
    ``trainers``, that one of these methods made it (a TD value net cannot play as a policy).

    ``PATH#NAME`` loads the network a checkpoint keeps as its extra ``NAME`` (e.g. a shipped model's
    ``#opening``) in place of its main one. Loading is for play, so the process's networks then run on one
    thread (``nn.threads``).
    """
    path, _, extra = str(path).partition("#")
    json_path = resolve_checkpoint(path)
    meta = read_metadata(json_path)
    if game is not None:
        check_game(meta, game, json_path)
    made_by = meta.get("trainer", "alphazero")
    if trainers is not None and made_by not in trainers:
        raise CheckpointError(
            f"{json_path}: checkpoint was made by the {made_by} trainer, not "
            f"{' or '.join(trainers)}; play it with that method's agent"
        )
    try:
        spec = NetworkSpec.from_dict(meta["network"])
    except ConfigError as exc:
        raise CheckpointError(f"{json_path}: bad network spec in metadata ({exc})") from None
    if game is not None:
        expected = game.observation_spec.get(spec.observation_key)
        if (
            tuple(expected or ()) != spec.input_shape
            or spec.num_actions != game.num_actions
            or spec.num_players != game.num_players
        ):
            raise CheckpointError(
                f"{json_path}: network shapes (input {list(spec.input_shape)}, "
                f"{spec.num_actions} actions, {spec.num_players} players) do not fit {game!r}"
            )
    if extra:
        net = extra_network(json_path, meta, spec, extra)
        if net is None:
            raise CheckpointError(
                f"{json_path}: has no extra network {extra!r} (its extras: "
                f"{', '.join(sorted(meta.get('extras') or {})) or 'none'})"
            )
    else:
        net = build_network(spec)
        load_state(net, read_tensors(json_path.with_name(meta["weights"]), sha256=meta["weights_sha256"]), json_path)
        net.eval()
    use_play_threads()
    return net, meta


def extra_network(json_path: Path, meta: dict[str, Any], spec: NetworkSpec, name: str) -> Network | None:
    """The network of ``spec`` a checkpoint keeps as its extra ``name`` (a shipped model's ``opening`` or
    ``mean_with``), in eval mode, or None where it has none."""
    tensors = read_extra(json_path, meta, name)
    if tensors is None:
        return None
    net = build_network(spec)
    load_state(net, tensors, json_path)
    return net.eval()


def resized_to(tensors: dict[str, Any], net: nn.Module) -> dict[str, Any]:
    """``tensors`` with each array of a shape other than ``net``'s own replaced by ``net``'s (a value network of
    the same game without trading read at the larger action space: its policy layer, which value methods do
    not use, is ``net``'s)."""
    own = {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}
    return {k: (v if tuple(v.shape) == own[k].shape else own[k]) for k, v in tensors.items()}


def load_state(net: nn.Module, tensors: dict[str, np.ndarray], where: str | Path) -> None:
    """Copy arrays into ``net`` after checking names and shapes, with a readable error."""
    own = net.state_dict()
    missing = sorted(set(own) - set(tensors))
    extra = sorted(set(tensors) - set(own))
    if missing or extra:
        raise CheckpointError(
            f"{where}: weights do not match the network spec (missing: {missing[:5]}, unexpected: {extra[:5]})"
        )
    for name, tensor in own.items():
        if tuple(tensors[name].shape) != tuple(tensor.shape):
            raise CheckpointError(
                f"{where}: weight {name!r} has shape {list(tensors[name].shape)}, "
                f"the network needs {list(tensor.shape)}"
            )
    net.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in tensors.items()})


def check_game(meta: dict[str, Any], game, where: Path) -> None:
    """A checkpoint fits a game of the same name whose model options (``Game.model_options``: those that shape
    observations, actions and values, e.g. Catan's player count) are the ones it was trained with; match rules
    such as a turn limit may differ."""
    if meta.get("game") != game.name:
        raise CheckpointError(f"{where}: checkpoint is for game {meta.get('game')!r}, not {game.name!r}")
    options = meta.get("game_options", {})
    now = game.options_dict()
    keys = now.keys() if game.model_options is None else game.model_options
    differ = {k: (options.get(k), now.get(k)) for k in keys if options.get(k) != now.get(k)}
    if differ:
        changes = ", ".join(f"{k}={old!r} (here {new!r})" for k, (old, new) in differ.items())
        raise CheckpointError(f"{where}: checkpoint was trained for {meta['game']} with {changes}")
