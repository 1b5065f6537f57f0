"""Mutation score of a module whose functions are numba-compiled (``@njit``), with cosmic-ray.

mutmut leaves decorated functions alone, so bench/mutation.py hands such modules (``NUMBA_MODULES`` there)
to this script. cosmic-ray mutates the source file itself, decorated functions included, and runs the tests
once per mutant. Each mutant must be compiled again: before each test run the numba cache of the module and
of the modules whose compiled code calls into it (``RECOMPILE``) is deleted, since numba's cache does not
notice that a function a cached caller inlined has changed. That costs about 20 s a mutant on a loaded
two-core machine, so with ``--sample N`` a seeded random sample of N mutants is run (the others are marked
skipped) and the score comes with a 95 % Wilson interval for the whole set.

    python bench/mutation_numba.py games/catan/observe.py --sample 60 --seed 0 --deadline 19:30

A mutant is named ``operator#occurrence`` (cosmic-ray's own numbering, stable while the file is unchanged)
and shown with its line and diff. Equivalent survivors are listed in ``EQUIVALENT`` with the reason and left
out of the denominator, as in bench/mutation.py.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from boardzero.eval.stats import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".bench" / "mutation"

# module (under src/boardzero/) -> the modules whose numba cache holds compiled calls into it
RECOMPILE: dict[str, list[str]] = {
    "games/catan/observe.py": ["games/catan/observe.py", "games/catan/batched.py"],
}
# survivors judged equivalent: "operator#occurrence" -> why (re-check after the module changes)
EQUIVALENT: dict[str, dict[str, str]] = {
    "games/catan/observe.py": {},
}


def copy_checkout(where: Path) -> None:
    """A fresh copy of src/ and tests/ at ``where`` (anything there before is removed), without caches."""
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", "*.egg-info")
    shutil.copytree(ROOT / "src", where / "src", ignore=ignore)
    shutil.copytree(ROOT / "tests", where / "tests", ignore=ignore)


def scratch_copy(module: str) -> Path:
    where = SCRATCH / ("cr_" + module.replace("/", "_").removesuffix(".py"))
    copy_checkout(where)
    (where / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\nmarkers = ["slow: long-running checks, run with -m slow"]\n'
    )
    return where


def test_command(module: str, tests: list[str]) -> str:
    caches = " ".join(
        f"src/boardzero/{Path(m).parent}/__pycache__/{Path(m).stem}.*.nb[ic]" for m in RECOMPILE.get(module, [])
    )
    pytest = f"{sys.executable} -m pytest -x -q -n 0 -p no:cacheprovider -m 'not slow' {' '.join(tests)} 2>&1"
    # cosmic-ray splits the command with shlex and runs it without a shell, in its own working directory
    return shlex.join(["sh", "-c", f"rm -f {caches}; PYTHONPATH=src {pytest}"])


def run(
    module: str, tests: list[str], sample: int | None, seed: int, deadline: dt.datetime | None, timeout: float
) -> dict:
    from cosmic_ray.testing import run_tests
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    where = scratch_copy(module)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = test_command(module, tests)
    config = where / "cosmic-ray.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {json.dumps('src/boardzero/' + module)}\n"
        f"timeout = {timeout}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(command)}\n"
        '[cosmic-ray.distributor]\nname = "local"\n'
    )
    started = time.monotonic()
    # the tests must pass unmutated (this also compiles the rest of the engine into the scratch cache once)
    # (through cosmic-ray's own runner, so that a command it cannot run fails here, not as "killed" mutants)
    here = Path.cwd()
    os.chdir(where)
    try:
        outcome, output = run_tests(command, timeout)
    finally:
        os.chdir(here)
    if outcome != TestOutcome.SURVIVED:
        raise SystemExit(f"{module}: the tests fail without any mutant ({outcome}):\n{output[-3000:]}")
    session = where / "session.sqlite"
    cosmic_ray = [sys.executable, "-m", "cosmic_ray.cli"]
    subprocess.run([*cosmic_ray, "init", str(config), str(session)], cwd=where, env=env, check=True)
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = sorted(db.work_items, key=lambda w: (w.mutations[0].operator_name, w.mutations[0].occurrence))
        total = len(items)
        chosen = items if sample is None or sample >= total else random.Random(seed).sample(items, sample)
        keep = {w.job_id for w in chosen}
        skip = [w.job_id for w in items if w.job_id not in keep]
        if skip:
            db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    process = subprocess.Popen(
        [*cosmic_ray, "exec", str(config), str(session)],
        cwd=where,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    stopped = False
    while process.poll() is None:
        if deadline is not None and dt.datetime.now(dt.UTC) >= deadline:
            # cosmic-ray runs each mutant's tests in a session of their own: stop the run first (so that it
            # records no verdict for the mutant in hand), then those tests; only the groups this run started
            children = subprocess.run(
                ["ps", "-o", "pgid=", "--ppid", str(process.pid)], capture_output=True, text=True, check=False
            ).stdout.split()
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
            for group in {int(g) for g in children} - {os.getpgid(0), process.pid}:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(group, signal.SIGTERM)
            stopped = True
            break
        time.sleep(1.0)
    killed, survived, others = [], [], []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            spec = item.mutations[0]
            entry = {
                "name": f"{spec.operator_name}#{spec.occurrence}",
                "line": spec.start_pos[0],
                "diff": "\n".join(
                    line
                    for line in (result.diff or "").splitlines()
                    if line[:1] in "+-" and not line.startswith(("+++", "---"))
                ),
            }
            if result.test_outcome == TestOutcome.KILLED:
                killed.append(entry)
            elif result.test_outcome == TestOutcome.SURVIVED:
                survived.append(entry)
            else:
                others.append({**entry, "outcome": str(result.worker_outcome), "output": (result.output or "")[-500:]})
    equivalent = [s for s in survived if s["name"] in EQUIVALENT.get(module, {})]
    judged = len(killed) + len(survived) - len(equivalent)
    score = len(killed) / judged if judged else float("nan")
    low, high = wilson_interval(len(killed), judged) if judged else (float("nan"), float("nan"))
    return {
        "module": module,
        "tests": tests,
        "mutants": total,
        "sampled": len(chosen),
        "seed": seed,
        "killed": killed,
        "survived": survived,
        "incompetent": others,
        "equivalent": [s["name"] for s in equivalent],
        "score": score,
        "interval": [low, high],
        "seconds": round(time.monotonic() - started, 1),
        "stopped_at_deadline": stopped,
        "scratch": str(where.relative_to(ROOT)),
    }


def summary(report: dict) -> str:
    module = report["module"]
    reached = len(report["killed"]) + len(report["survived"]) + len(report["incompetent"])
    sampled = (
        f"a seeded sample (seed {report['seed']}) of {report['sampled']} of its {report['mutants']} mutants"
        if report["sampled"] < report["mutants"]
        else f"all {report['mutants']} mutants"
    )
    note = " (stopped at the deadline: partial)" if report["stopped_at_deadline"] else ""
    lines = [
        f"{module}: score {report['score']:.2f}, 95 % interval {report['interval'][0]:.2f}-{report['interval'][1]:.2f} "
        f"(cosmic-ray, {sampled}; {reached} run: killed {len(report['killed'])}, survived "
        f"{len(report['survived'])}, {len(report['equivalent'])} of them equivalent, not run to a verdict "
        f"{len(report['incompetent'])}) in {report['seconds']} s{note}"
    ]
    for s in report["survived"]:
        reason = EQUIVALENT.get(module, {}).get(s["name"])
        lines.append(f"    survived: {s['name']} line {s['line']}" + (f" (equivalent: {reason})" if reason else ""))
        lines.extend(f"        {d}" for d in s["diff"].splitlines())
    for s in report["incompetent"]:
        lines.append(f"    {s['outcome']}: {s['name']} line {s['line']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", help="a module under src/boardzero/")
    parser.add_argument("--tests", nargs="+", required=True, help="the test files that cover it")
    parser.add_argument("--sample", type=int, help="run a seeded random sample of this many mutants")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for one mutant's tests")
    parser.add_argument("--deadline", help="UTC HH:MM after which the run stops")
    parser.add_argument("--json", type=Path, help="also write the results there")
    args = parser.parse_args(argv)
    deadline = None
    if args.deadline:
        hour, minute = (int(x) for x in args.deadline.split(":"))
        deadline = dt.datetime.now(dt.UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
    report = run(args.module, args.tests, args.sample, args.seed, deadline, args.timeout)
    print(summary(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
