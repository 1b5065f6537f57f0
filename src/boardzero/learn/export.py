"""Ship a trained network as a game's default model: ``src/boardzero/models/<game>/<name>.{safetensors,json}``.

    boardzero export runs/c4 --sims 400
    boardzero export runs/catan_td --latest --name model-2p --play depth=3 --play fast.depth=1

copies the run's best (or newest) network with the settings that ``best`` plays
it with (``--sims`` for AlphaZero models, ``--play KEY=VALUE`` for any, ``fast.``
keys for ``best:fast``), and the run's step, ratings and config for the record.
``source`` names the checkpoint by its run folder and file
(``catan_td/checkpoints/step_00041000.json``), not by where the run lay on the
machine that exported it. A shipped model exported again keeps what it had
unless told otherwise: the source it names, its play settings (each ``--play``
key replaces its own), and its opening network, its averaged-in network (``--mean-with``)
and their notes (``--opening`` and ``--mean-with`` ship others):

    boardzero export src/boardzero/models/catan/model-2p.json --name model-2p --play sims=96
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardzero.agents.best import MODELS_DIR
from boardzero.agents.settings import stored_play
from boardzero.core.errors import CheckpointError
from boardzero.learn.config import apply_overrides
from boardzero.nn.checkpoint import load_network, read_extra, resolve_checkpoint, save_network


def export_model(
    checkpoint: str | Path,
    *,
    play: dict[str, Any],
    latest: bool = False,
    out_dir: Path | None = None,
    name: str = "model",
    notes: dict[str, Any] | None = None,
    opening: str | Path | None = None,
    mean_with: str | Path | None = None,
) -> Path:
    """Write ``<name>.safetensors`` + ``<name>.json`` for the checkpoint's game; returns the JSON path.

    A run directory gives its best network (``checkpoints/best.json``) unless ``latest``. ``opening``: a TD
    checkpoint of the same network shape (``boardzero.learn.opening``) shipped beside it as the extra
    ``opening``, whose values ``best`` searches the opening with. ``mean_with``: another TD checkpoint of that
    shape shipped as the extra ``mean_with``, whose values ``best`` averages with the model's (``nn.ensemble``).
    A shipped model (one with play settings) exported again keeps each setting ``play`` does not name, and each
    such network not given again.
    """
    checkpoint = Path(checkpoint)
    best = checkpoint / "checkpoints" / "best.json"
    use_best = checkpoint.is_dir() and best.is_file() and not latest
    source = best if use_best else resolve_checkpoint(checkpoint)
    net, meta = load_network(source)
    out_dir = Path(out_dir) if out_dir is not None else MODELS_DIR / meta["game"]
    keep = {
        k: meta[k] for k in ("game", "game_options", "step", "ratings", "latest_eval", "config", "trainer") if k in meta
    }
    keep["play"] = merge_play(meta.get("play", {}), play)
    for fast in (False, True):  # what best and best:fast will play it with must be valid settings
        stored_play({**meta, "play": keep["play"]}, fast=fast, where="--play" + (" (fast)" if fast else ""))
    keep["source"] = meta.get("source") or source_label(source)  # a shipped model exported again keeps its own
    extras, kept_notes = {}, {}
    for role, given in (("opening", opening), ("mean_with", mean_with)):
        if given is None:
            kept = read_extra(source, meta, role)
            if kept is not None:
                extras[role], kept_notes[role] = kept, meta.get("notes", {}).get(role, {})
            continue
        extra_net, extra_meta = load_network(given, trainers=("td",))
        if extra_net.spec.to_dict() != net.spec.to_dict() or extra_meta["game"] != meta["game"]:
            raise CheckpointError(
                f"{given}: its network ({extra_meta['game']}, {extra_net.spec.to_dict()}) is not "
                f"the shape of {source}'s; a network shipped beside a model must share its shape"
            )
        extras[role] = extra_net.state_dict()
        label = source_label(resolve_checkpoint(given))
        if role == "opening":
            kept_notes[role] = {"source": label, **extra_meta.get("notes", {}).get("opening_fit", {})}
        else:  # a shipped or kept checkpoint names the run it came from
            kept_notes[role] = {
                "source": extra_meta.get("source") or label,
                **{k: extra_meta[k] for k in ("step",) if k in extra_meta},
            }
    if kept_notes or notes:
        keep["notes"] = {**kept_notes, **(notes or {})}  # a new dict: the caller's ``notes`` stays as it was
    return save_network(out_dir / name, net, keep, extras or None)


def source_label(checkpoint: Path) -> str:
    """``<run>/checkpoints/<file>`` for a checkpoint inside a run, else the file's name alone."""
    checkpoint = Path(checkpoint).resolve()
    if checkpoint.parent.name == "checkpoints":
        return Path(*checkpoint.parts[-3:]).as_posix()
    return checkpoint.name


def merge_play(stored: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """``stored`` with each key of ``given`` in its place, a table (``fast``) merged key by key; both left
    unchanged."""
    merged = {**stored, **given}
    for key, value in given.items():
        if isinstance(value, dict) and isinstance(stored.get(key), dict):
            merged[key] = {**stored[key], **value}
    return merged


def parse_play(pairs: list[str]) -> dict[str, Any]:
    """``["sims=96", "fast.depth=1", "infoset=true"]`` -> ``{"sims": 96, "fast": {"depth": 1}, "infoset": True}``
    (each value read as TOML where it parses, else kept as a string; see ``learn.config.apply_overrides``)."""
    return apply_overrides({}, pairs, flag="--play", examples="sims=96 or fast.depth=1")
