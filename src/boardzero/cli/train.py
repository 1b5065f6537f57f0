"""``boardzero train``: start or resume a self-play training run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from boardzero.cli.options import checked
from boardzero.cli.progress import still_running
from boardzero.core.errors import ConfigError
from boardzero.learn.config import load_config
from boardzero.learn.runtime import train as run_training


def train(
    game: str = typer.Argument(..., help="Game name (see `boardzero games`); must match the config's `game` if set."),
    config: Path = typer.Option(..., "--config", "-c", help="TOML config file, e.g. configs/connect4.toml."),
    run: Path = typer.Option(
        ..., "--run", "-r", help="Run directory; an existing run resumes from its newest checkpoint."
    ),
    steps: Optional[int] = checked(None, "--steps", help="Learner steps to reach (overrides train.steps)", minimum=1),
    minutes: Optional[float] = checked(
        None, "--minutes", help="Stop after this many minutes (overrides train.minutes)", minimum=0, above=True
    ),
    actors: Optional[int] = checked(
        None, "--actors", help="Self-play processes (overrides selfplay.actors)", minimum=1
    ),
    init: Optional[Path] = typer.Option(
        None,
        "--init",
        help="Start a new run from these weights: a run directory, "
        "a checkpoint .json or a shipped model .json of the same game, method and "
        "network (a fresh optimizer; ignored when the run resumes).",
    ),
    backend: Optional[str] = typer.Option(
        None,
        "--backend",
        help="Where the actors run: local processes or ray (a Ray cluster; overrides selfplay.backend).",
    ),
    overrides: Optional[list[str]] = typer.Option(
        None,
        "--set",
        help="Change one config field, section.field=value "
        "(repeatable), e.g. --set train.lr=0.00003 --set "
        "game_options.returns=win_vp; the run records the result.",
    ),
    ray_address: Optional[str] = typer.Option(
        None,
        "--ray-address",
        help="Ray cluster address, e.g. HOST:6379 "
        "(overrides selfplay.ray_address; default: the one `ray start` made "
        "here, else a local Ray instance).",
    ),
) -> None:
    """Train by self-play with the method the config names (alphazero, td or ppo); killing and restarting continues from the last checkpoint.

    Example: boardzero train connect4 --config configs/connect4.toml --run runs/c4 --minutes 60
    From the shipped 2-player Catan model: boardzero train catan --config configs/catan_td_rich_phase2.toml --run runs/more --init src/boardzero/models/catan/model-2p.json
    One field changed: boardzero train catan --config configs/catan_td_rich_phase3.toml --run runs/p3 --set train.lr=0.00001 --init src/boardzero/models/catan/model-2p.json
    On a Ray cluster: boardzero train catan --config configs/catan_td.toml --run runs/td --backend ray --actors 63
    """
    cfg = load_config(config, overrides or ())
    if cfg.game and cfg.game != game:
        raise ConfigError("game", f"{config} is a config for {cfg.game!r}, not {game!r}")
    options = {
        "game": game,
        "train.steps": steps,
        "train.minutes": minutes,
        "selfplay.actors": actors,
        "selfplay.backend": backend,
        "selfplay.ray_address": ray_address,
    }
    cfg = cfg.changed({key: value for key, value in options.items() if value is not None})
    console = Console(width=None if sys.stdout.isatty() else 200)
    with still_running(console, f"training {game} in {run} (Ctrl-C stops it with a checkpoint)"):
        summary = run_training(
            cfg,
            run,
            console=console,
            init=init,
            config_text=recorded_config_text(config, overrides or ()),
        )
    evaluation = summary["latest_eval"]
    typer.echo(
        f"run {run}: step {summary['step']}, {summary['games']} games, {summary['samples']} samples "
        f"in {summary['seconds']:.0f} s" + (f"; latest evaluation {evaluation}" if evaluation else "")
    )
    typer.echo(tensorboard_line(run))


def recorded_config_text(config: Path, overrides: list[str]) -> str:
    """The config file's text as the run keeps it, with the command line's changes noted at the end
    (the run's config.json holds the values in force)."""
    text = config.read_text()
    if overrides:
        text += "\n# changed on the command line:\n" + "".join(f"#   --set {o}\n" for o in overrides)
    return text


def tensorboard_line(run: Path) -> str:
    """How to watch a run's curves."""
    return (
        f"metrics: {run / 'metrics.jsonl'}; curves in TensorBoard: tensorboard --logdir {run / 'tb'} "
        "(then open http://localhost:6006)"
    )
