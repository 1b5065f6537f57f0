"""Opening values by Monte Carlo: a copy of a TD network fitted to the final results of self-play games whose
first decisions were drawn broadly, for the deeper search over a game's opening (Catan's setup).

TD(lambda) reaches the opening only through a hundred or so successive predictions, and learns it from the
openings its own greedy self-play picks; openings it rarely plays stay misjudged (in Catan a balanced setup,
valued 0.08 below the results it reaches). Here the network plays every seat greedily except for the game's
first ``moves`` decisions, drawn from the softmax of its values at ``temperature``; each opening move's
position (as its mover sees it) is recorded with the game's final result (undiscounted) for the mover,
and a copy of the network is fitted to those results, the epoch with the lowest loss on held-out games kept.
Targets are game results alone: zero knowledge is kept.

    boardzero opening src/boardzero/models/catan/model-2p.json --out runs/opening2p \\
        --minutes 35 --workers 2 --moves 8 --temperature 0.05

writes ``games_<seed>.npz`` (one per worker and call; a later call adds more, e.g. at another temperature,
``--epochs 0`` collecting only) and fits ``opening.json`` on all of them; ``boardzero export ...
--opening runs/opening2p/opening.json`` ships it beside a model, and ``td:...,opening_model=PATH`` plays it
(``runs/opening2p/opening.json``, or a shipped one: ``model-2p.json#opening``). A second round draws the openings
from the fitted network (``--draws MODEL.json#opening``) and goes on fitting it (``--init``). ``--later N`` records
the greedy moves after the opening too (for ``td:...,early=H``); ``--threads 1`` when another process shares the cores.
"""

from __future__ import annotations

import copy
import io
import multiprocessing
import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from boardzero.agents.td import TD_TRAINERS
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import make
from boardzero.learn.td import afterstate_values, segment_argmax, softmax_draw
from boardzero.nn.base import Network
from boardzero.nn.checkpoint import atomic_write_bytes, load_network, save_network
from boardzero.nn.evaluator import rotate_to_relative


def _game_of(meta: dict[str, Any]):
    """The game (with its options) a checkpoint was made for."""
    return make(meta["game"], **meta.get("game_options", {}))


def collect(
    model: str,
    *,
    seed: int,
    moves: int,
    temperature: float,
    minutes: float = 0.0,
    games: int = 0,
    batch: int = 256,
    later: int = 0,
    share: float = 1.0,
    draws: str = "",
) -> dict[str, np.ndarray]:
    """Self-play of ``model`` with its first ``moves`` decisions drawn at ``temperature`` from the softmax of its
    values, or of the network ``draws`` names (e.g. an opening network fitted before), for ``minutes`` or
    until ``games`` games ended: ``obs`` [N, ...] (float16) of each opening move's position as its mover
    sees it, ``target`` [N, P] the game's returns relative to that mover, ``game`` [N] a game number,
    ``decision`` [N] the move's number among the game's decisions with a choice. The ``later`` greedy decisions
    that follow the opening are recorded too, each with probability ``share``."""
    net, meta = load_network(model, trainers=TD_TRAINERS)
    game = _game_of(meta)
    drawer = load_network(draws, game=game, trainers=TD_TRAINERS)[0] if draws else net
    rng = np.random.default_rng(seed)
    env = game.batched(batch, seed=seed, observation_key=net.spec.observation_key)
    env.reset()
    made = [0] * env.num_envs
    opened: list[list[tuple[np.ndarray, int, int]]] = [[] for _ in range(env.num_envs)]
    obs, seats, results, numbers, decisions = [], [], [], [], []
    start, finished = time.monotonic(), 0
    while (games and finished < games) or (not games and time.monotonic() - start < minutes * 60):
        actions = np.argmax(env.masks, axis=1)
        rows = np.flatnonzero(env.masks.sum(axis=1) > 1)
        if len(rows):
            after = env.afterstates(rows)
            values = afterstate_values(net, after, env.seats[after.row])[:, 0]
            chosen = segment_argmax(values, after.starts)
            ends = np.r_[after.starts[1:], len(after.row)]
            opening = np.array([made[i] < moves for i in rows])
            if drawer is not net and opening.any():  # the drawing network values the opening rows' moves
                idx = np.concatenate([np.arange(after.starts[j], ends[j]) for j in np.flatnonzero(opening)])
                part = SimpleNamespace(obs=after.obs[idx], terminal=after.terminal[idx], returns=after.returns[idx])
                values[idx] = afterstate_values(drawer, part, env.seats[after.row[idx]])[:, 0]
            for j, i in enumerate(rows):
                if opening[j]:
                    chosen[j] = after.starts[j] + softmax_draw(values[after.starts[j] : ends[j]], temperature, rng)
                if made[i] < moves or (made[i] < moves + later and rng.random() < share):
                    opened[i].append((after.obs[chosen[j]].astype(np.float16), int(env.seats[i]), made[i]))
                made[i] += 1
            actions[rows] = after.action[chosen]
        _, _, _, rewards, done = env.step(actions)
        for i in np.flatnonzero(done):
            for position, seat, decision in opened[i]:
                obs.append(position)
                seats.append(seat)
                results.append(rewards[i].copy())
                numbers.append(finished)
                decisions.append(decision)
            opened[i], made[i] = [], 0
            finished += 1
    if not obs:
        raise ConfigError("opening", "no game ended; collect longer (--minutes)")
    target = rotate_to_relative(np.stack(results), np.asarray(seats)).astype(np.float32)
    return {
        "obs": np.stack(obs),
        "target": target,
        "game": np.asarray(numbers, np.int64),
        "decision": np.asarray(decisions, np.int16),
    }


def save_games(path: Path, data: dict[str, np.ndarray]) -> None:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **data)  # type: ignore[arg-type]  # numpy's stub: **kwds could be allow_pickle
    atomic_write_bytes(path, buffer.getvalue())


def load_games(paths: list[Path]) -> tuple[torch.Tensor, torch.Tensor, np.ndarray]:
    """(obs, targets, held-out mask): the last tenth of each file's games are held out."""
    obs, target, held = [], [], []
    for path in paths:
        with np.load(path, allow_pickle=False) as data:
            numbers = data["game"]
            obs.append(data["obs"])
            target.append(data["target"])
            held.append(numbers >= np.quantile(numbers, 0.9))
    return torch.from_numpy(np.concatenate(obs)), torch.from_numpy(np.concatenate(target)), np.concatenate(held)


def fit(
    model: str,
    paths: list[Path],
    *,
    epochs: int = 8,
    lr: float = 1e-4,
    batch: int = 512,
    seed: int = 0,
    threads: int = 0,
    init: str = "",
) -> tuple[Network, dict[str, Any]]:
    """A copy of ``model``'s network, or of the network ``init`` names (e.g. ``model.json#opening``, to go on
    from an opening network fitted before), fitted to the recorded results; the epoch with the lowest held-out
    loss (epoch 0: the network as it started), on ``threads`` CPU threads (0: one per core)."""
    net, meta = load_network(model, trainers=TD_TRAINERS)
    if init:
        net = load_network(init, game=_game_of(meta), trainers=TD_TRAINERS)[0]
    torch.set_num_threads(threads or os.cpu_count() or 1)  # loading for play left one thread
    obs, target, held = load_games(paths)
    train, valid = np.flatnonzero(~held), np.flatnonzero(held)
    if len(train) < batch or not len(valid):
        raise ConfigError("opening", f"{len(train) + len(valid)} positions are too few to fit; collect more")

    def held_out() -> tuple[float, float]:
        net.eval()
        with torch.no_grad():
            predicted = torch.cat(
                [net.values(obs[valid[k : k + 4096]].float()).float() for k in range(0, len(valid), 4096)]
            )
        truth = target[valid]
        return float(F.mse_loss(predicted, truth)), float(np.corrcoef(predicted[:, 0], truth[:, 0])[0, 1])

    optimizer = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    history = [held_out()]
    best = (history[0][0], copy.deepcopy(net.state_dict()), 0)
    for epoch in range(1, epochs + 1):
        net.train()
        order = rng.permutation(train)
        for k in range(0, len(order) - batch + 1, batch):
            rows = order[k : k + batch]
            loss = F.huber_loss(net.values(obs[rows].float()).float(), target[rows], delta=1.0)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
        history.append(held_out())
        print(f"epoch {epoch}: held-out mse {history[-1][0]:.4f}, correlation {history[-1][1]:.3f}", flush=True)
        if history[-1][0] < best[0]:
            best = (history[-1][0], copy.deepcopy(net.state_dict()), epoch)
    net.load_state_dict(best[1])
    net.eval()
    report = {
        "epoch": best[2],
        **({"init": init} if init else {}),
        "positions": len(obs),
        "held_out": len(valid),
        "lr": lr,
        "held_out_mse": [round(m, 5) for m, _ in history],
        "held_out_correlation": [round(c, 4) for _, c in history],
    }
    return net, {
        **{k: meta[k] for k in ("game", "game_options", "step", "config", "trainer") if k in meta},
        "play": {},
        "notes": {"opening_fit": report},
    }


def _collect_worker(args: tuple) -> str:
    model, out, seed, moves, temperature, minutes, later, share, draws = args
    torch.set_num_threads(1)
    path = Path(out) / f"games_{seed}.npz"
    save_games(
        path,
        collect(
            model,
            seed=seed,
            moves=moves,
            temperature=temperature,
            minutes=minutes,
            later=later,
            share=share,
            draws=draws,
        ),
    )
    return str(path)


def record_and_fit(
    model: str,
    out: Path,
    *,
    minutes: float = 35.0,
    workers: int = 2,
    moves: int = 8,
    temperature: float = 0.05,
    draws: str = "",
    init: str = "",
    later: int = 0,
    share: float = 1.0,
    epochs: int = 8,
    lr: float = 1e-4,
    threads: int = 0,
    seed: int = 11,
    report=print,
) -> Path | None:
    """Record ``workers`` x ``minutes`` of self-play of ``model`` in ``out`` (``games_<seed>.npz``, one per
    worker and seed), then fit ``out/opening.json`` to every game recorded there (``epochs`` 0: record only);
    returns the fitted network's metadata path. ``report`` gets a line for each file written. Bad values and
    networks are ConfigErrors, raised before any self-play."""
    checks = (
        ("minutes", minutes >= 0, "must be >= 0 (0: fit only)"),
        ("temperature", temperature > 0, "must be > 0"),
        ("lr", lr > 0, "must be > 0"),
        ("threads", threads >= 0, "must be >= 0 (0: one per core)"),
        ("workers", workers >= 1, "must be >= 1"),
        ("later", later >= 0, "must be >= 0"),
        ("share", 0 < share <= 1, "must lie in (0, 1]"),
    )
    for name, fine, rule in checks:
        if not fine:
            raise ConfigError(f"--{name}", f"{rule}, got {locals()[name]}")
    try:  # the networks named, checked before any self-play
        meta = load_network(model, trainers=TD_TRAINERS)[1]
        for other in filter(None, (draws, init)):
            load_network(other, game=_game_of(meta), trainers=TD_TRAINERS)
    except CheckpointError as exc:
        raise ConfigError("model", str(exc)) from None
    out.mkdir(parents=True, exist_ok=True)
    if minutes > 0:
        seeds = range(seed, seed + workers)
        taken = [s for s in seeds if (out / f"games_{s}.npz").exists()]
        if taken:
            raise ConfigError("--seed", f"{out} already has the games of seeds {taken}; pass another --seed")
        jobs = [(model, str(out), s, moves, temperature, minutes, later, share, draws) for s in seeds]
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for path in pool.imap_unordered(_collect_worker, jobs):
                report(f"wrote {path}")
    if epochs <= 0:
        return None
    paths = sorted(out.glob("games_*.npz"))
    if not paths:
        raise ConfigError("--epochs", f"{out} has no games_*.npz to fit; collect first (--minutes > 0)")
    try:
        net, fitted = fit(model, paths, epochs=epochs, lr=lr, threads=threads, init=init)
    except CheckpointError as exc:
        raise ConfigError("model", str(exc)) from None
    written = save_network(out / "opening", net, fitted)
    report(f"wrote {written}")
    return written
