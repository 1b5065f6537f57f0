"""``boardzero curve``: a training run's learning curve from its checkpoints against fixed opponents."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from boardzero.core.errors import ConfigError
from boardzero.eval.curve import checkpoint_curve, load_curve, metrics_curve, save_curve
from boardzero.eval.plots import win_rates_over_time


def curve(
    run: Path = typer.Argument(
        ...,
        help="Training run directory (with checkpoints/step_<N>.json), or a curve "
        "JSON an earlier `curve` wrote (nothing is played then: its plot is redrawn).",
    ),
    against: list[str] = typer.Option(["random"], "--against", "-a", help="Opponent agent spec (repeatable)."),
    games: int = typer.Option(40, "--games", "-n", help="Games of each checkpoint against each opponent."),
    checkpoints: int = typer.Option(
        6, "--checkpoints", "-c", help="At most this many checkpoints, spread over the run."
    ),
    agent_options: str = typer.Option(
        "", "--agent-options", help="Options added to every checkpoint's agent, e.g. sims=32."
    ),
    seed: int = typer.Option(0, "--seed", help="Base seed; game i uses (seed, i)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Worker processes (default: one per core)."),
    out: Optional[Path] = typer.Option(None, "--out", help="JSON file (default: RUN/curve.json)."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Also draw the curve into this PNG."),
    from_metrics: bool = typer.Option(
        False,
        "--from-metrics",
        help="Take the run's own periodic evaluations from its metrics.jsonl instead of playing its checkpoints.",
    ),
    beside: Optional[list[Path]] = typer.Option(
        None, "--beside", help="Another run's curve JSON drawn in the same plot, e.g. to compare methods (repeatable)."
    ),
) -> None:
    """Rate a run's checkpoints against fixed opponents and set the scores against training time (any method).

    Example: boardzero curve runs/catan_td -a weighted -a heuristic -n 40 --plot runs/catan_td/curve.png
    """
    redraw = run.is_file()  # a saved curve: nothing is played
    if redraw and plot is None:
        raise ConfigError("--plot", "a saved curve is only redrawn: name the PNG to draw")
    saved = [load_curve(path) for path in ([run] if redraw else []) + list(beside or [])]
    curves = {Path(curve["run"]).name: curve["points"] for curve in saved}
    if redraw:
        typer.echo(f"wrote {win_rates_over_time(curves, plot)}")
        return

    for name, value, least in (("--games", games, 1), ("--checkpoints", checkpoints, 2), ("--seed", seed, 0)):
        if value < least:
            raise ConfigError(name, f"must be >= {least}, got {value}")
    if from_metrics:
        points = metrics_curve(run)
    else:
        points = checkpoint_curve(
            run, against, games=games, most=checkpoints, agent_options=agent_options, seed=seed, workers=workers
        )
    path = save_curve(points, out or run / "curve.json", run)
    for p in points:
        typer.echo(
            f"step {p.step:>8}  {p.train_seconds / 60:7.1f} min  vs {p.opponent:12} {p.wins:>4}/{p.games} "
            f"won  score {p.score:.3f}  95 % {p.ci95[0]:.3f}-{p.ci95[1]:.3f}"
        )
    typer.echo(f"wrote {path}")
    if plot is not None:
        from dataclasses import asdict

        curves = {run.name: [asdict(p) for p in points], **curves}
        typer.echo(f"wrote {win_rates_over_time(curves, plot, title=run.name if len(curves) == 1 else '')}")
