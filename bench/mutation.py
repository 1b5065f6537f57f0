"""Mutation score of the modules whose slips the tests must catch: ``make mutation`` (not part of CI).

For each module, mutmut (3.x) mutates that file alone and runs only the test files that cover it; the
score is the share of mutants the tests kill. Each module runs in a scratch copy of the checkout under
``.bench/mutation/<module>/`` (src/, tests/ and a pyproject.toml whose ``[tool.mutmut]`` names the module
and its tests), so runs never touch the working tree and a module's results stay for ``mutmut browse``.

    python bench/mutation.py                       # every module below
    python bench/mutation.py eval/ratings.py       # some of them
    python bench/mutation.py --list                # the modules and their tests
    python bench/mutation.py --deadline 04:05      # stop starting mutants at that UTC time

A surviving mutant is a change to the code that no test notices: read it (``mutmut show NAME`` in the
module's scratch directory), then either add the test that kills it or accept it as equivalent.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".bench" / "mutation"

# module (under src/boardzero/) -> the test files that cover it
MODULES: dict[str, list[str]] = {
    "learn/td.py": ["tests/learn/test_td.py"],
    "learn/ppo.py": ["tests/learn/test_ppo.py"],
    "learn/bank.py": ["tests/learn/test_ppo.py", "tests/learn/test_td.py"],
    "learn/evaluation.py": ["tests/learn/test_evaluation.py", "tests/learn/test_train.py"],
    "eval/paired.py": ["tests/eval/test_paired.py"],
    "eval/ratings.py": ["tests/eval/test_ratings.py", "tests/eval/test_tournament.py"],
    "games/catan/observe.py": [
        "tests/games/catan/test_observe.py",
        "tests/games/catan/test_interface.py",
        "tests/games/catan/test_symmetry.py",
    ],
    "integrations/catanatron/bots.py": ["tests/integrations/test_catanatron.py"],
    "web/games.py": [
        "tests/web/test_api.py",
        "tests/web/test_hidden.py",
        "tests/web/test_restart.py",
        "tests/web/test_store.py",
    ],
    "web/store.py": ["tests/web/test_restart.py", "tests/web/test_store.py", "tests/web/test_api.py"],
}
STATUS = {
    "killed": "killed",
    "survived": "survived",
    "timeout": "timeout",
    "suspicious": "suspicious",
    "no tests": "no tests",
    "skipped": "skipped",
    "segfault": "killed",
    "not checked": "not checked",
}


def scratch_copy(module: str, tests: list[str]) -> Path:
    """A copy of src/ and tests/ with a pyproject.toml that points mutmut at ``module`` and ``tests``."""
    where = SCRATCH / module.replace("/", "_").removesuffix(".py")
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", "*.egg-info")
    shutil.copytree(ROOT / "src", where / "src", ignore=ignore)
    shutil.copytree(ROOT / "tests", where / "tests", ignore=ignore)
    options = ["-n", "0", "-p", "no:cacheprovider", "-m", "not slow", "-x", "-q"]
    (where / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        'source_paths = ["src/"]\n'
        f"only_mutate = [{json.dumps('src/boardzero/' + module)}]\n"
        f"pytest_add_cli_args = {json.dumps(options)}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        "mutate_only_covered_lines = false\n"
        "\n[tool.pytest.ini_options]\n"
        'testpaths = ["tests"]\n'
        'markers = ["slow: long-running checks, run with -m slow"]\n'
    )
    return where


def run_module(module: str, tests: list[str], deadline: dt.datetime | None, jobs: int) -> dict:
    where = scratch_copy(module, tests)
    # mutmut puts its mutated copy (mutants/src) first on the path itself; a PYTHONPATH entry would either
    # shadow it or, named before the copy exists, be cached by the import system as missing
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)]
    started = time.monotonic()
    process = subprocess.Popen(
        command, cwd=where, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    stopped = False
    try:
        while process.poll() is None:
            if deadline is not None and dt.datetime.now(dt.UTC) >= deadline:
                os.killpg(process.pid, signal.SIGTERM)  # the group this run started, nothing else
                stopped = True
                break
            time.sleep(1.0)
        output = process.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output = process.communicate()[0]
    (where / "mutmut.log").write_text(output)
    counts, survivors = results(where, env)
    caught = counts.get("killed", 0) + counts.get("timeout", 0)
    missed = counts.get("survived", 0) + counts.get("no tests", 0)  # a mutant no test runs is not caught either
    score = caught / (caught + missed) if caught + missed else float("nan")
    return {
        "module": module,
        "tests": tests,
        "counts": counts,
        "score": score,
        "survivors": survivors,
        "seconds": round(time.monotonic() - started, 1),
        "stopped_at_deadline": stopped,
        "scratch": str(where.relative_to(ROOT)),
    }


def results(where: Path, env: dict) -> tuple[dict[str, int], list[str]]:
    """Mutant counts by status and the names of survivors, from ``mutmut results --all true``."""
    listed = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    counts: dict[str, int] = {}
    survivors = []
    for line in listed.splitlines():
        match = re.match(r"\s*(\S+): (.+)$", line)
        if not match:
            continue
        name, status = match.group(1), STATUS.get(match.group(2).strip(), match.group(2).strip())
        counts[status] = counts.get(status, 0) + 1
        if status == "survived":
            survivors.append(name)
    return counts, survivors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules under src/boardzero/ (default: all of MODULES)")
    parser.add_argument("--list", action="store_true", help="print the modules and their tests, run nothing")
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2), help="mutants at once")
    parser.add_argument("--deadline", help="UTC HH:MM after which no module starts and a running one stops")
    parser.add_argument("--json", type=Path, help="also write the results there")
    args = parser.parse_args(argv)
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        parser.error(f"unknown module(s) {', '.join(unknown)}; known: {', '.join(MODULES)}")
    chosen = args.modules or list(MODULES)
    if args.list:
        for module in chosen:
            print(f"{module}: {' '.join(MODULES[module])}")
        return 0
    deadline = None
    if args.deadline:
        hour, minute = (int(x) for x in args.deadline.split(":"))
        now = dt.datetime.now(dt.UTC)
        deadline = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    reports = []
    for module in chosen:
        if deadline is not None and dt.datetime.now(dt.UTC) >= deadline:
            print(f"{module}: not started (deadline {args.deadline} UTC)")
            continue
        report = run_module(module, MODULES[module], deadline, args.jobs)
        reports.append(report)
        counts = ", ".join(f"{k} {v}" for k, v in sorted(report["counts"].items()))
        note = " (stopped at the deadline: partial)" if report["stopped_at_deadline"] else ""
        if not report["counts"]:  # mutmut leaves decorated functions alone: numba's @njit code has no mutants
            print(
                f"{module}: no mutants tested (see {report['scratch']}/mutmut.log; mutmut skips decorated "
                f"functions such as numba's @njit ones){note}"
            )
            continue
        print(f"{module}: score {report['score']:.2f} ({counts}) in {report['seconds']} s{note}")
        for name in report["survivors"]:
            print(f"    survived: {name}")
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
