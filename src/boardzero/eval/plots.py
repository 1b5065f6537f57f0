"""PNG plots (matplotlib's object API with the Agg canvas: no pyplot, no global backend, no display).

Each function draws one figure into ``path`` and returns the path.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from boardzero.eval.figures import GameFigures
from boardzero.eval.ratings import Ratings

DPI = 110


def _save(figure: Figure, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    return path


def _grid(panels: int, columns: int = 3, size: tuple[float, float] = (4.2, 3.0)) -> tuple[Figure, list]:
    columns = max(1, min(columns, panels))
    rows = max(1, math.ceil(panels / columns))
    figure = Figure(figsize=(size[0] * columns, size[1] * rows))
    axes = [figure.add_subplot(rows, columns, i + 1) for i in range(max(panels, 1))]
    return figure, axes


def learning_curves(rows: Sequence[dict[str, Any]], path: str | Path, title: str = "") -> Path:
    """One panel per metric of a run's ``metrics.jsonl`` rows (value against training step)."""
    series: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        for key, value in row.items():
            if key not in ("step", "time") and isinstance(value, (int, float)) and math.isfinite(value):
                series.setdefault(key, []).append((row["step"], value))
    names = sorted(series, key=lambda k: (k.split("/")[0] != "eval", k.split("/")[0] != "losses", k))
    figure, axes = _grid(len(names), columns=4, size=(3.6, 2.6))
    for ax, name in zip(axes, names):
        steps, values = zip(*series[name])
        ax.plot(steps, values, marker="." if len(steps) < 40 else None, linewidth=1.2)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("step", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    if not names:
        axes[0].text(0.5, 0.5, "no metrics yet", ha="center", va="center")
    if title:
        figure.suptitle(title)
    return _save(figure, path)


def matrix_heatmap(
    names: list[str],
    matrix: np.ndarray,
    games: np.ndarray,
    path: str | Path,
    title: str = "mean reward of row against column",
) -> Path:
    size = 1.6 + 0.9 * len(names)
    figure = Figure(figsize=(size + 1.5, size))
    ax = figure.add_subplot(1, 1, 1)
    finite = matrix[np.isfinite(matrix)]
    bound = float(np.max(np.abs(finite))) if finite.size else 1.0
    image = ax.imshow(
        np.ma.masked_invalid(matrix), cmap="RdYlGn", vmin=-bound if finite.min(initial=0) < 0 else 0, vmax=bound
    )
    for i in range(len(names)):
        for j in range(len(names)):
            if np.isfinite(matrix[i, j]):
                dark = abs(matrix[i, j]) > 0.6 * bound
                ax.text(
                    j,
                    i,
                    f"{matrix[i, j]:+.2f}\n{games[i, j]} g",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if dark else "black",
                )
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.set_title(title, fontsize=10)
    figure.colorbar(image, ax=ax, shrink=0.8)
    return _save(figure, path)


def rating_bars(ratings: Ratings, path: str | Path, title: str = "") -> Path:
    """Each agent's rating with its 95 % interval, strongest on top."""
    order = np.argsort(ratings.elo)
    figure = Figure(figsize=(7, 1.2 + 0.45 * len(order)))
    ax = figure.add_subplot(1, 1, 1)
    y = np.arange(len(order))
    elo = ratings.elo[order]
    ax.errorbar(elo, y, xerr=[elo - ratings.low[order], ratings.high[order] - elo], fmt="o", capsize=4)
    ax.set_yticks(y, [ratings.names[i] for i in order], fontsize=8)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel(f"rating (Elo scale, {ratings.anchor} = 0; 95 % {ratings.interval} intervals)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or f"ratings from {ratings.games} games", fontsize=10)
    return _save(figure, path)


def ratings_over_steps(ratings: Ratings, steps: dict[str, int], path: str | Path, title: str = "") -> Path:
    """Checkpoint ratings against training step with 95 % intervals; fixed agents as horizontal lines."""
    figure = Figure(figsize=(8, 4.5))
    ax = figure.add_subplot(1, 1, 1)
    index = {name: i for i, name in enumerate(ratings.names)}
    points = sorted((step, index[name]) for name, step in steps.items() if name in index)
    if points:
        x = np.array([step for step, _ in points], dtype=float)
        rows = [i for _, i in points]
        ax.fill_between(x, ratings.low[rows], ratings.high[rows], alpha=0.25, label="95 % interval")
        ax.plot(x, ratings.elo[rows], marker="o", label="checkpoints")
    for name, i in index.items():
        if name not in steps:
            line = ax.axhline(ratings.elo[i], linestyle="--", linewidth=1, color=f"C{2 + i % 7}")
            line.set_label(f"{name} ({ratings.elo[i]:+.0f})")
    ax.set_xlabel("training step")
    ax.set_ylabel(f"rating (Elo scale, {ratings.anchor} = 0)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title or f"ratings over training ({ratings.games} games, {ratings.interval} intervals)", fontsize=10)
    return _save(figure, path)


def distributions(figures: GameFigures, path: str | Path, title: str = "") -> Path:
    """Histograms of game length, of every per-game number the game reports (Catan: turns, dice rolls) and
    of every per-seat number split into winners and the other seats (Catan: victory points)."""
    panels = [("decisions (player actions) per game", figures.lengths, None)]
    panels += [(f"{key} per game", values, None) for key, values in figures.per_game.items()]
    panels += [(f"{key}: winner and other seats", figures.winners[key], figures.losers[key]) for key in figures.winners]
    figure, axes = _grid(len(panels), columns=2, size=(5.0, 3.2))
    for ax, (name, values, others) in zip(axes, panels):
        everything = list(values) + list(others or [])
        if not everything:
            continue
        integral = all(float(v).is_integer() for v in everything) and max(everything) - min(everything) <= 40
        bins = np.arange(min(everything) - 0.5, max(everything) + 1.5) if integral else 30
        if others is None:
            ax.hist(values, bins=bins, color="C0")
        else:
            ax.hist([values, others], bins=bins, label=["winner", "other seats"], color=["C2", "C7"])
            ax.legend(fontsize=8)
        ax.set_title(name, fontsize=9)
        ax.set_ylabel("count", fontsize=8)
        ax.tick_params(labelsize=7)
    if title:
        figure.suptitle(title)
    return _save(figure, path)


def outcomes(figures: GameFigures, path: str | Path, title: str = "") -> Path:
    """Win rate by seat (95 % intervals), the winners' breakdowns (Catan: where their points came from) and
    how often each kind of action was played."""
    panels = 2 + len(figures.winner_parts)
    figure, axes = _grid(panels, columns=panels, size=(4.6, 3.6))
    rows = figures.seat_rows()
    rates = np.array([r["win_rate"] for r in rows])
    low, high = np.array([r["ci95"] for r in rows]).T if rows else (np.zeros(0), np.zeros(0))
    axes[0].bar([f"seat {r['seat'] + 1}" for r in rows], rates, yerr=[rates - low, high - rates], capsize=4)
    axes[0].set_title("win rate by seat (95 % intervals)", fontsize=9)
    for ax, (key, parts) in zip(axes[1:], figures.winner_parts.items()):
        means = [float(np.mean(v)) for v in parts.values()]
        ax.bar(range(len(parts)), means, color="C2")
        ax.set_xticks(range(len(parts)), list(parts), rotation=30, ha="right", fontsize=8)
        ax.set_title(f"winners' {key} (mean)", fontsize=9)
    kinds = figures.actions.most_common()
    ax = axes[-1]
    per_game = [count / max(figures.games, 1) for _, count in kinds]
    ax.barh(range(len(kinds)), per_game, color="C1")
    ax.set_yticks(range(len(kinds)), [kind for kind, _ in kinds], fontsize=7)
    ax.invert_yaxis()
    wide = bool(per_game) and max(per_game) > 50 * min(per_game)
    if wide:  # a few kinds (rolls, turn ends) would flatten the rest
        ax.set_xscale("log")
    ax.set_title("actions per game, by kind" + (" (log scale)" if wide else ""), fontsize=9)
    if title:
        figure.suptitle(title)
    return _save(figure, path)


def win_rates_over_time(curves: dict[str, list[dict[str, Any]]], path: str | Path, title: str = "") -> Path:
    """One panel per opponent: each curve's win share (with its 95 % interval) against training minutes.
    ``curves`` maps a label (a method, a run) to points with ``train_seconds``, ``opponent``, ``score`` and
    ``ci95`` (``eval.curve``); a point may also be an in-training evaluation (``ci95`` None)."""
    opponents = sorted({p["opponent"] for points in curves.values() for p in points})
    figure, axes = _grid(len(opponents), columns=len(opponents) or 1, size=(5.0, 3.6))
    for ax, opponent in zip(axes, opponents):
        for label, points in curves.items():
            mine = sorted((p for p in points if p["opponent"] == opponent), key=lambda p: p["train_seconds"])
            if not mine:
                continue
            minutes = np.array([p["train_seconds"] / 60.0 for p in mine])
            score = np.array([p["score"] for p in mine])
            line = ax.plot(
                minutes, score, marker="o" if len(mine) < 30 else None, markersize=3, linewidth=1.4, label=label
            )[0]
            if all(p.get("ci95") for p in mine):
                low, high = np.array([p["ci95"] for p in mine]).T
                ax.fill_between(minutes, low, high, color=line.get_color(), alpha=0.15)
        ax.set_title(f"against {opponent}", fontsize=10)
        ax.set_xlabel("training wall-clock minutes", fontsize=9)
        ax.set_ylabel("win share", fontsize=9)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    if title:
        figure.suptitle(title)
    return _save(figure, path)
