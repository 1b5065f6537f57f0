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

A new network may take the play settings and the extra networks of a shipped model (``--like``; each
``--play``, ``--opening`` and ``--mean-with`` given still replaces its own). Catan's model trained with
trading takes them from the model without trading that its run started from; their policy layers, sized by
the action space and read by no TD agent, are those of the new network, as a run started with ``--init``
from a model without trading does:

    boardzero export runs/trading_2p --latest --name model-2p-trading --like src/boardzero/models/catan/model-2p.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardzero.agents.best import MODELS_DIR
from boardzero.agents.settings import stored_play
from boardzero.agents.td import TD_TRAINERS
from boardzero.core.errors import CheckpointError
from boardzero.learn.config import apply_overrides
from boardzero.nn.checkpoint import load_network, read_extra, resized_to, resolve_checkpoint, save_network


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
    like: str | Path | None = None,
) -> Path:
    """Write ``<name>.safetensors`` + ``<name>.json`` for the checkpoint's game; returns the JSON path.

    A run directory gives its best network (``checkpoints/best.json``) unless ``latest``. ``opening``: a TD
    checkpoint of the same network shape (``boardzero.learn.opening``) shipped beside it as the extra
    ``opening``, whose values ``best`` searches the opening with. ``mean_with``: another TD checkpoint of that
    shape shipped as the extra ``mean_with``, whose values ``best`` averages with the model's (``nn.ensemble``).
    A shipped model (one with play settings) exported again keeps each setting ``play`` does not name, and each
    such network not given again. ``like``: a shipped model of the same game and network whose play settings
    and extra networks stand in for the checkpoint's own (the same game without trading: its extras' policy
    layers become the new network's).
    """
    checkpoint = Path(checkpoint)
    best = checkpoint / "checkpoints" / "best.json"
    use_best = checkpoint.is_dir() and best.is_file() and not latest
    source = best if use_best else resolve_checkpoint(checkpoint)
    net, meta = load_network(source)
    out_dir = Path(out_dir) if out_dir is not None else MODELS_DIR / meta["game"]
    keep: dict[str, Any] = {
        k: meta[k] for k in ("game", "game_options", "step", "ratings", "latest_eval", "config", "trainer") if k in meta
    }
    model, extras_from = meta, source  # the model whose play settings and extras are kept where none is given
    if like is not None:
        extras_from = resolve_checkpoint(like)
        model = _like(extras_from, net, meta)
    keep["play"] = merge_play(model.get("play", {}), play)
    for fast in (False, True):  # what best and best:fast will play it with must be valid settings
        stored_play({**meta, "play": keep["play"]}, fast=fast, where="--play" + (" (fast)" if fast else ""))
    keep["source"] = meta.get("source") or source_label(source)  # a shipped model exported again keeps its own
    extras, kept_notes = {}, {}
    for role, given in (("opening", opening), ("mean_with", mean_with)):
        if given is None:
            kept = read_extra(extras_from, model, role)
            if kept is not None:
                extras[role], kept_notes[role] = resized_to(kept, net), model.get("notes", {}).get(role, {})
            continue
        extra_net, extra_meta = load_network(given, trainers=TD_TRAINERS)
        if not _fits(extra_net, extra_meta, net, meta):
            raise CheckpointError(
                f"{given}: its network ({extra_meta['game']}, {extra_net.spec.to_dict()}) is not "
                f"the shape of {source}'s; a network shipped beside a model must share its shape "
                "(or be the same game's without trading)"
            )
        extras[role] = resized_to(extra_net.state_dict(), net)
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


def _like(path: Path, net, meta: dict[str, Any]) -> dict[str, Any]:
    """The metadata of the shipped model ``path`` whose settings and extras a new network takes: the same game
    and network, or, for a network trained with trading, the same game without it (its action space only)."""
    other, other_meta = load_network(path, trainers=(meta.get("trainer", "alphazero"),))
    if not _fits(other, other_meta, net, meta):
        raise CheckpointError(
            f"--like {path}: its network ({other_meta['game']}, {other.spec.to_dict()}) is not that of the model "
            f"exported ({meta['game']}, {net.spec.to_dict()}); it must be the same, or the same game's without trading"
        )
    if "play" not in other_meta:
        raise CheckpointError(f"--like {path}: it has no play settings; name a shipped model (models/<game>/*.json)")
    return other_meta


def _fits(other, other_meta: dict[str, Any], net, meta: dict[str, Any]) -> bool:
    """Whether ``other``'s values may go with ``net``: the same game and network, or, for a network trained
    with trading, the same game's without it (a larger action space, the rest the same)."""
    ours, theirs = net.spec.to_dict(), other.spec.to_dict()
    widened = (
        meta.get("game_options", {}).get("trading") is True
        and other_meta.get("game_options", {}).get("trading") is False
        and {**theirs, "num_actions": ours["num_actions"]} == ours
    )
    return other_meta["game"] == meta["game"] and (theirs == ours or widened)


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
