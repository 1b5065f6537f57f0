"""Reports: PNG plots and a short Markdown summary of a training run, a tournament, or a file of game records.

- a run directory: learning curves from ``metrics.jsonl``, and the checkpoints' ratings over training
  steps when ``boardzero ratings`` has made ``ratings.json``;
- a tournament file: the standings and ratings table, the mean reward matrix (table and heat map), the
  ratings with their intervals and the figures of its games (win rate by seat, game lengths, and what the
  game reports: Catan's victory points, turns, dice rolls, where the winners' points came from);
- a records file (JSON lines): the figures of its games, replayed.

The tables are built once as rows (``standings_rows``, ``matrix_rows``) for the terminal and for Markdown.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from boardzero.core.errors import ConfigError
from boardzero.eval import plots
from boardzero.eval.figures import GameFigures, collect, figures_markdown, game_facts
from boardzero.eval.ratings import Ratings
from boardzero.eval.tournament import Tournament, load_tournament
from boardzero.learn.metrics import read_metrics
from boardzero.learn.rundir import RunDir
from boardzero.play.records import read_records, record_game, replay

Table = tuple[list[str], list[list[str]]]  # headers, rows of cells


def standings_rows(tournament: Tournament, ratings: Ratings | None) -> Table:
    headers = ["agent", "games", "win %", "win % 95 % interval", "wins", "draws", "losses", "mean return"]
    if ratings is not None:
        headers += ["rating", "rating 95 % interval"]
    rows = []
    for i, row in enumerate(tournament.standings()):
        low, high = row["ci95"]
        cells = [
            row["name"],
            str(row["games"]),
            f"{100 * row['win_rate']:.1f}",
            f"{100 * low:.1f}–{100 * high:.1f}",
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
            f"{row['mean_return']:+.3f}",
        ]
        if ratings is not None:
            cells += [f"{ratings.elo[i]:+.0f}", f"{ratings.low[i]:+.0f} to {ratings.high[i]:+.0f}"]
        rows.append(cells)
    if ratings is not None:
        rows.sort(key=lambda cells: -float(cells[8]))
    return headers, rows


def matrix_rows(tournament: Tournament) -> Table:
    matrix, _ = tournament.matrix()
    names = tournament.names
    rows = [[name] + ["·" if math.isnan(v) else f"{v:+.2f}" for v in matrix[i]] for i, name in enumerate(names)]
    return ["row vs column"] + names, rows


def markdown_table(table: Table) -> str:
    headers, rows = table
    align = ["---"] + ["---:"] * (len(headers) - 1)
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    return "\n".join(lines + ["| " + " | ".join(cells) + " |" for cells in rows])


def _write(out_dir: Path, name: str, text: str) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / name
    path.write_text(text, encoding="utf-8")
    return path


def report_run(run_dir: str | Path, out_dir: str | Path | None = None) -> list[Path]:
    """Plots and ``report.md`` for a training run, in ``<run>/report`` by default."""
    run_dir = Path(run_dir)
    metrics_path = RunDir(run_dir).metrics
    if not metrics_path.is_file():
        raise ConfigError("run", f"{run_dir} has no metrics.jsonl (is it a training run directory?)")
    out = Path(out_dir) if out_dir is not None else run_dir / "report"
    rows = read_metrics(metrics_path)  # a killed run's torn last line is skipped
    written = [plots.learning_curves(rows, out / "learning_curves.png", title=str(run_dir))]
    lines = [f"# Training run {run_dir}", "", _run_summary(rows), "", "![learning curves](learning_curves.png)"]
    ratings_path = run_dir / "ratings.json"
    if ratings_path.is_file():
        tournament = load_tournament(ratings_path)
        if tournament.current_games():
            ratings = tournament.ratings()
            steps = {e.name: e.step for e in tournament.entrants if e.step is not None}
            written.append(plots.ratings_over_steps(ratings, steps, out / "ratings.png"))
            lines += [
                "",
                "## Ratings of the checkpoints",
                "",
                f"{ratings.games} games (`{ratings_path.name}`); Bradley-Terry fit, {ratings.anchor} = 0, "
                f"95 % {ratings.interval} intervals.",
                "",
                markdown_table(standings_rows(tournament, ratings)),
                "",
                "![ratings over training](ratings.png)",
            ]
    written.append(_write(out, "report.md", "\n".join(lines) + "\n"))
    return written


def _run_summary(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No metrics logged yet."
    last = rows[-1]
    evals = [r for r in rows if any(k.startswith("eval/") for k in r)]
    text = f"{len(rows)} metric rows up to step {last['step']}"
    games = [r["charts/games_total"] for r in rows if "charts/games_total" in r]
    if games:
        text += f", {games[-1]:.0f} self-play games"
    if evals:
        latest = {k: v for k, v in evals[-1].items() if k.startswith("eval/")}
        text += f". Latest evaluation (step {evals[-1]['step']}): " + ", ".join(
            f"{k} {v:.3g}" for k, v in latest.items()
        )
    return text + "."


def report_tournament(
    path: str | Path, out_dir: str | Path | None = None, *, anchor: str | None = None, interval: str = "bootstrap"
) -> list[Path]:
    """Plots and ``report.md`` for a tournament file, in ``<file stem>_report/`` beside it by default."""
    path = Path(path)
    tournament = load_tournament(path)
    out = Path(out_dir) if out_dir is not None else path.with_name(path.stem + "_report")
    games = tournament.current_games()
    if not games:
        raise ConfigError("tournament", f"{path} has no games between its agents yet")
    ratings = tournament.ratings(anchor, interval=interval)
    matrix, count = tournament.matrix()
    options = ", ".join(f"{k}={v}" for k, v in tournament.options.items()) or "default options"
    written = [
        plots.matrix_heatmap(tournament.names, matrix, count, out / "matrix.png"),
        plots.rating_bars(ratings, out / "ratings.png"),
    ]
    lines = [
        f"# Tournament: {tournament.game} ({options})",
        "",
        f"{len(games)} games, {tournament.games_per_lineup} per lineup, seats rotated"
        f"{f', {tournament.opening_plies} random opening plies' if tournament.opening_plies else ''}; "
        f"{tournament.spent_s / 60:.1f} min of play. Ratings: Bradley-Terry fit to every game "
        f"(multiplayer games as pairwise outcomes), {ratings.anchor} = 0, 95 % {ratings.interval} intervals; "
        "win % with 95 % Wilson intervals.",
        "",
        markdown_table(standings_rows(tournament, ratings)),
        "",
        "![ratings](ratings.png)",
        "",
        "## Mean reward, row against column",
        "",
        markdown_table(matrix_rows(tournament)),
        "",
        "![reward matrix](matrix.png)",
    ]
    steps = {e.name: e.step for e in tournament.entrants if e.step is not None}
    if steps:
        written.append(plots.ratings_over_steps(ratings, steps, out / "ratings_over_steps.png"))
        lines += ["", "![ratings over training](ratings_over_steps.png)"]
    figure_paths, figure_lines = _figures_section(collect(g.facts for g in games), out)
    written += figure_paths
    written.append(_write(out, "report.md", "\n".join(lines + figure_lines) + "\n"))
    return written


def report_records(path: str | Path, out_dir: str | Path | None = None) -> list[Path]:
    """Plots and ``report.md`` of the games in a records file (replayed), in ``<file stem>_games/``."""
    path = Path(path)
    records = read_records(path)
    if not records:
        raise ConfigError("records", f"{path} holds no games")
    out = Path(out_dir) if out_dir is not None else path.with_name(path.stem + "_games")
    games = {}
    figures = GameFigures()
    for record in records:
        key = (record["game"], json.dumps(record.get("options", {}), sort_keys=True))
        game = games.get(key) or games.setdefault(key, record_game(record))
        figures.add(game_facts(game, replay(record, game, keep_log=False), record.get("agents")))
    names = ", ".join(sorted({g.name for g in games.values()}))
    figure_paths, figure_lines = _figures_section(figures, out)
    lines = [f"# Games in {path.name} ({names})"] + figure_lines[3:]
    return figure_paths + [_write(out, "report.md", "\n".join(lines) + "\n")]


def _figures_section(figures: GameFigures, out: Path) -> tuple[list[Path], list[str]]:
    written = [plots.distributions(figures, out / "distributions.png"), plots.outcomes(figures, out / "outcomes.png")]
    return written, [
        "",
        "## The games",
        "",
        figures_markdown(figures),
        "",
        "![distributions](distributions.png)",
        "",
        "![outcomes](outcomes.png)",
    ]


def report(target: str | Path, out_dir: str | Path | None = None, **ratings_options: Any) -> list[Path]:
    """A report of a run directory, a tournament file (.json) or a records file (.jsonl)."""
    target = Path(target)
    if target.is_dir():
        return report_run(target, out_dir)
    if target.suffix == ".jsonl":
        return report_records(target, out_dir)
    if target.is_file():
        return report_tournament(target, out_dir, **ratings_options)
    raise ConfigError("report", f"{target} is neither a run directory, a tournament file nor a records file")
