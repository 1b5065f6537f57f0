"""``boardzero bench``: run the benchmark scripts under ``bench/`` (speed is measured there, never in tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Optional

import typer

from boardzero.core.errors import ConfigError


def bench_dir() -> Path:
    """The repository's bench/ folder: beside the current directory, or beside the source tree."""
    for candidate in (Path.cwd() / "bench", Path(__file__).resolve().parents[3] / "bench"):
        if candidate.is_dir():
            return candidate
    raise ConfigError("bench", "no bench/ folder found; run from a boardzero checkout")


def bench(
    ctx: typer.Context,
    name: Optional[str] = typer.Argument(
        None, help="Benchmark to run (file name under bench/ without .py); all if omitted."
    ),
    list_only: bool = typer.Option(False, "--list", help="List the benchmarks and exit."),
) -> None:
    """Run benchmarks side by side and print ratios; extra arguments go to the script (e.g. --json)."""
    folder = bench_dir()
    scripts = {p.stem: p for p in sorted(folder.glob("*.py")) if not p.stem.startswith("_")}
    if list_only:
        for stem, path in scripts.items():
            doc = path.read_text().split('"""')[1].strip().splitlines()[0] if '"""' in path.read_text() else ""
            print(f"{stem:24} {doc}")
        return
    if name is not None and name not in scripts:
        raise ConfigError("bench", f"unknown benchmark {name!r}; available: {', '.join(scripts) or '(none)'}")
    failed = []
    for stem in [name] if name else list(scripts):
        print(f"== bench/{stem}.py", flush=True)
        if subprocess.call([sys.executable, str(scripts[stem]), *ctx.args]) != 0:
            failed.append(stem)
    if failed:
        raise typer.Exit(1)
