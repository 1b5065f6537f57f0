"""Learning curves from a run's checkpoints: each chosen checkpoint plays fixed opponents, and its score is set
against the training seconds it had (summed over resumes), for every training method the same way.

``boardzero curve runs/X -a weighted -a heuristic -n 40`` rates up to ``-c``
checkpoints spread over the run (first and last included): each plays ``-n``
games against each opponent, its agent at one seat and the opponent at the
others, seats rotated, in the standard game with the checkpoint's model
options (e.g. its player count; match rules such as a training turn limit are
not carried over). The score is the mean of win 1, shared result 0.5, loss 0
(in games of more than two players: the share of games it won), with a
Wilson 95 % interval.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from boardzero.core.errors import ConfigError
from boardzero.core.registry import game_class
from boardzero.eval.arena import run_arena
from boardzero.eval.checkpoints import run_checkpoints, spread
from boardzero.eval.stats import wilson_interval
from boardzero.learn.metrics import read_metrics
from boardzero.learn.rundir import RunDir
from boardzero.nn.checkpoint import atomic_write_json, read_metadata


@dataclass
class CurvePoint:
    step: int
    train_seconds: float
    opponent: str
    games: int
    wins: int
    score: float  # wins + half the shared results, per game
    ci95: tuple[float, float]  # Wilson interval of the win share


def model_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options of ``options`` that a trained model depends on (all when the game does not say)."""
    keys = game_class(game).model_options
    return dict(options) if keys is None else {k: options[k] for k in keys if k in options}


def checkpoint_curve(
    run_dir: str | Path,
    opponents: list[str],
    *,
    games: int,
    most: int = 6,
    agent_options: str = "",
    seed: int = 0,
    workers: int | None = None,
) -> list[CurvePoint]:
    points = []
    for checkpoint in spread(run_checkpoints(run_dir), most):
        meta = read_metadata(checkpoint.path)
        spec = f"{checkpoint.agent}:{checkpoint.path.resolve()}" + (f",{agent_options}" if agent_options else "")
        options = model_options(checkpoint.game, checkpoint.options)
        for opponent in opponents:
            result = run_arena(
                checkpoint.game, [spec, opponent], num_games=games, options=options, seed=seed, workers=workers
            )
            mine = result.entrants[0]
            points.append(
                CurvePoint(
                    checkpoint.step,
                    float(meta.get("train_seconds", 0.0)),
                    opponent,
                    mine.games,
                    mine.wins,
                    (mine.wins + 0.5 * mine.draws) / max(mine.games, 1),
                    wilson_interval(mine.wins, mine.games),
                )
            )
    return points


def metrics_curve(run_dir: str | Path) -> list[CurvePoint]:
    """The run's own periodic evaluations (``eval/vs_<opponent>`` lines of ``metrics.jsonl``) as curve points:
    nothing is played. The game count is the run's ``eval.games``; the score is what the evaluation logged, its
    mean score for the learner's seat. Where that is the win share (two players, no draws, ``returns = "win"``)
    the Wilson interval is the win share's; otherwise it is only that of a win share equal to the score."""
    run = RunDir(run_dir)
    try:
        games = int(json.loads(run.config_json.read_text())["eval"]["games"])
        rows = read_metrics(run.metrics)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(
            "curve", f"{run.path} has no readable config.json and metrics.jsonl of a training run ({exc})"
        ) from None
    points = []
    for row in rows:
        for key, score in row.items():
            if key.startswith("eval/vs_"):
                wins = round(float(score) * games)
                points.append(
                    CurvePoint(
                        int(row["step"]),
                        float(row.get("wall", 0.0)),
                        key[len("eval/vs_") :],
                        games,
                        wins,
                        float(score),
                        wilson_interval(wins, games),
                    )
                )
    if not points:
        raise ConfigError("curve", f"{run.metrics} has no evaluation lines (eval.every was 0?)")
    return points


def save_curve(points: list[CurvePoint], path: str | Path, run: str | Path) -> Path:
    atomic_write_json(Path(path), {"run": str(run), "points": [asdict(p) for p in points]})
    return Path(path)


def load_curve(path: str | Path) -> dict[str, Any]:
    """A curve file ``save_curve`` wrote (``run`` and ``points``); anything else is a ConfigError naming it."""
    try:
        saved = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError("curve", f"{path} is not a curve JSON written by `boardzero curve` ({exc})") from None
    if not isinstance(saved, dict) or not {"run", "points"} <= saved.keys():
        raise ConfigError(
            "curve", f"{path} is not a curve JSON written by `boardzero curve` (needs 'run' and 'points')"
        )
    return saved
