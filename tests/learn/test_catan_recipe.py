"""The recipe in docs/training.md that reproduces the shipped Catan models runs, at a tiny budget.

The bash block under "Reproducing the shipped Catan models from scratch" is run as written, with only the
budget cut: each ``--steps N`` becomes ``N // 1000 + 2`` (and the checkpoint names that follow from it),
each collection two minutes, and the networks are exported into a temporary folder instead of the package.
A flag renamed, a config moved or a checkpoint path that no step leaves breaks it. The run is slow
(``make test-all``); reading the recipe is not.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADING = "### Reproducing the shipped Catan models from scratch"
MODELS = "src/boardzero/models/catan/"
TINY = "--set train.min_replay=64 --set train.batch_size=32 --set selfplay.games_per_actor=8"


def shipped_files() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in (ROOT / MODELS).iterdir() if path.is_file()}


def recipe() -> str:
    text = (ROOT / "docs" / "training.md").read_text()
    start = text.index("```bash\n", text.index(HEADING)) + len("```bash\n")
    return text[start : text.index("```\n", start)]


def shrink(block: str, tmp: Path) -> str:
    """The recipe with its budget cut and everything it writes under ``tmp``."""
    block = re.sub(r"\\\n\s*", "", block)  # one command a line
    block = re.sub(r"--steps (\d+)", lambda m: f"--steps {int(m.group(1)) // 1000 + 2}", block)
    block = re.sub(r"step_(\d{8})", lambda m: f"step_{int(m.group(1)) // 1000 + 2:08d}", block)
    block = re.sub(r"--minutes [1-9]\d* ", "--minutes 2 ", block)
    block = block.replace("--actors 7", "--actors 2").replace(MODELS, f"{tmp}/models/")
    block = re.sub(r"^R=runs\b", f"R={tmp}/runs", block, flags=re.M)
    lines = []
    for line in block.splitlines():
        line = re.sub(r"(^|\s+)#.*$", "", line)  # a comment would swallow what is added after it
        if line.startswith("boardzero train"):
            line = f"{line} {TINY}"
        line = line.replace("boardzero export ", f"boardzero export --out {tmp}/models ")
        lines.append(re.sub(r"(^|; )boardzero ", rf"\g<1>{sys.executable} -m boardzero.cli.main ", line))
    return "\n".join(lines)


def test_the_recipe_is_found_and_shrunk(tmp_path):
    script = shrink(recipe(), tmp_path)
    assert script.count("boardzero.cli.main train catan") == 11
    assert script.count("boardzero.cli.main opening") == 6
    assert "--steps 9 " in script and "step_00000043.json" in script  # 7,158 and 41,000 steps
    assert MODELS not in script and "--minutes 35" not in script and "#" not in script
    assert script.count(f"boardzero.cli.main export --out {tmp_path}/models ") == 4


@pytest.mark.slow
def test_the_recipe_trains_and_exports_all_three_models(tmp_path):
    before = shipped_files()
    script = tmp_path / "recipe.sh"
    script.write_text("set -euxo pipefail\n" + shrink(recipe(), tmp_path) + "\n")
    done = subprocess.run(
        ["bash", str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert shipped_files() == before
    for players, step in ((2, 9), (3, 10), (4, 14)):
        made = json.loads((tmp_path / "models" / f"model-{players}p.json").read_text())
        shipped = json.loads((ROOT / MODELS / f"model-{players}p.json").read_text())
        assert made["game_options"]["players"] == players and made["step"] == step
        assert made["play"] == shipped["play"]  # the search best ships with
        assert set(made["extras"]) == set(shipped["extras"])  # 2 players: the opening and mean networks
