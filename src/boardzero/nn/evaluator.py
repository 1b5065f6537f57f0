"""Batched network inference for search and for network-only agents."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import torch

from boardzero.core.api import State
from boardzero.nn.base import Network
from boardzero.nn.precision import autocast, resolve
from boardzero.search.evaluator import uniform_priors


def rotate_to_absolute(relative: np.ndarray, players: np.ndarray) -> np.ndarray:
    """Seat-relative values [B, P] (entry i = seat ``(player + i) % P``) to absolute seat order."""
    num_players = relative.shape[1]
    seats = (players[:, None] + np.arange(num_players)[None, :]) % num_players  # [B, P] absolute seat of entry i
    absolute = np.empty_like(relative)
    np.put_along_axis(absolute, seats, relative, axis=1)
    return absolute


def rotate_to_relative(absolute: np.ndarray, players: np.ndarray) -> np.ndarray:
    """Absolute seat-order values [B, P] to the point of view of ``players`` [B]."""
    num_players = absolute.shape[1]
    seats = (players[:, None] + np.arange(num_players)[None, :]) % num_players
    return np.take_along_axis(absolute, seats, axis=1)


def afterstate_values(
    net: Network, after, seats: np.ndarray, precision: str = "float32", *, distinct: bool = False
) -> np.ndarray:
    """Seat-relative values [K, P] of afterstates (``core.batched.Afterstates``) for their movers ``seats`` [K]:
    the value network's, or the true returns where the move ends the game. TD learning and the TD agent both
    choose moves by them. ``distinct``: identical afterstates are valued once (``distinct_rows``), worth it
    where many are alike."""
    obs = np.ascontiguousarray(after.obs)
    first, inverse = distinct_rows(obs) if distinct else (None, None)
    with torch.no_grad(), autocast(precision):
        if first is None or len(first) == len(obs):  # every row valued as it is
            relative = net.values(torch.from_numpy(obs)).float().numpy().astype(np.float64)
        else:
            relative = net.values(torch.from_numpy(obs[first])).float().numpy().astype(np.float64)[inverse]
    if after.terminal.any():
        end = np.flatnonzero(after.terminal)
        relative[end] = rotate_to_relative(after.returns[end], seats[end])
    return relative


def distinct_rows(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the first index of each distinct row of ``obs`` [K, ...], the index into those of every row): identical
    positions are valued once. Many afterstates are alike: in a game with trading, an offer that no seat is known
    to be able to take leaves the position as it was, and about half of a 2-player decision's afterstates are
    such duplicates. Rows are grouped by a random projection (one pass over them, far cheaper than sorting the
    rows) and each row is checked equal to its group's first; a row that is not (two different rows with the
    same projection) is valued on its own."""
    rows = obs.reshape(len(obs), -1)
    # einsum sums each row the same way wherever it lies in memory (a BLAS product may not: equal rows at other
    # alignments could then project apart), and runs on this thread alone
    projected = np.einsum("ij,j->i", rows, _projection(rows.shape[1], rows.dtype))
    _, first, inverse = np.unique(projected, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    dup = np.flatnonzero(first[inverse] != np.arange(len(rows)))  # rows that would take another row's value
    apart = dup[(rows[dup] != rows[first[inverse[dup]]]).any(axis=1)]
    if len(apart):
        inverse[apart] = len(first) + np.arange(len(apart))
        first = np.concatenate([first, apart])
    return first, inverse


@functools.cache
def _projection(width: int, dtype: np.dtype) -> np.ndarray:
    return np.random.default_rng(width).standard_normal(width).astype(dtype)


class NetworkEvaluator:
    """Implements the search ``Evaluator`` protocol with one network forward per batch.

    ``evaluate(states)`` observes each decision state from its player to move,
    runs the network once on the whole batch and returns priors (0 on illegal
    moves) and values in absolute seat order.
    """

    def __init__(self, net: Network, *, max_batch: int = 1024, precision: str = "float32"):
        self.net = net.eval()
        self.precision = resolve(precision)
        self.spec = net.spec
        self.key = self.spec.observation_key
        self.max_batch = max_batch
        self.calls = 0  # forward passes made (for statistics)
        self.positions = 0  # positions evaluated

    @torch.no_grad()
    def predict(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """priors float32[B, A] and seat-relative values float32[B, P] for observations and legal masks."""
        priors, values = [], []
        for start in range(0, len(obs), self.max_batch):
            with autocast(self.precision):
                logits, value = self.net(
                    torch.from_numpy(np.ascontiguousarray(obs[start : start + self.max_batch])),
                    torch.from_numpy(np.ascontiguousarray(masks[start : start + self.max_batch])),
                )
            priors.append(torch.softmax(logits.float(), dim=1).numpy())
            values.append(value.float().numpy())
            self.calls += 1
        self.positions += len(obs)
        priors_all = np.concatenate(priors).astype(np.float32, copy=False)
        priors_all *= masks  # exact zeros on illegal moves
        priors_all /= np.maximum(priors_all.sum(axis=1, keepdims=True), 1e-12)
        return priors_all, np.concatenate(values).astype(np.float32, copy=False)

    def evaluate(self, states: Sequence[State]) -> tuple[np.ndarray, np.ndarray]:
        if len(states) == 0:
            return (np.zeros((0, self.spec.num_actions), np.float32), np.zeros((0, self.spec.num_players), np.float32))
        players = np.fromiter((s.current_player for s in states), dtype=np.int64, count=len(states))
        obs = np.stack([s.observe(int(p))[self.key] for s, p in zip(states, players)]).astype(np.float32, copy=False)
        masks = np.stack([s.legal_mask() for s in states])
        priors, relative = self.predict(obs, masks)
        return priors, rotate_to_absolute(relative, players)


class ValueEvaluator:
    """The search ``Evaluator`` for a value-only network (TD): uniform priors over the legal moves and the
    network's value vector of each state (absolute seat order).

    A TD network learned the positions *after a move*, each seen by the seat that made it, so the search
    hands over who made the last move into each leaf (``observes_mover``) and the state is observed by that
    seat, as in training; without it (``observer="to_move"``, or a leaf with no move above it) by the seat
    to move."""

    def __init__(self, net: Network, *, precision: str = "float32", observer: str = "mover"):
        if observer not in ("mover", "to_move"):
            raise ValueError(f"observer must be 'mover' or 'to_move', got {observer!r}")
        self.net = net.eval()
        self.spec = net.spec
        self.key = self.spec.observation_key
        self.precision = resolve(precision)
        self.observes_mover = observer == "mover"

    @torch.no_grad()
    def evaluate(self, states: Sequence[State], movers: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``movers``: the seat that made the last move into each state (-1: unknown), used as its observer."""
        return uniform_priors(states, self.spec.num_actions), self.values(states, movers)

    @torch.no_grad()
    def values(self, states: Sequence[State], movers: Sequence[int] | None = None) -> np.ndarray:
        """float32[B, P]: each state's value vector in absolute seat order, observed as ``evaluate`` says."""
        if len(states) == 0:
            return np.zeros((0, self.spec.num_players), np.float32)
        players = np.fromiter((s.current_player for s in states), dtype=np.int64, count=len(states))
        if movers is not None:
            moved = np.asarray(movers, dtype=np.int64)
            players = np.where(moved >= 0, moved, players)
        obs = np.stack([s.observe(int(p))[self.key] for s, p in zip(states, players)]).astype(np.float32, copy=False)
        with autocast(self.precision):
            relative = self.net.values(torch.from_numpy(obs)).float().numpy()
        return rotate_to_absolute(relative, players)
