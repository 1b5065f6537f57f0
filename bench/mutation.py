"""Mutation score of the modules whose slips the tests must catch: ``make mutation`` (not part of CI).

For each module, mutmut (3.x) mutates that file alone and runs only the test files that cover it; the
score is the share of mutants the tests kill. Each module runs in a scratch copy of the checkout under
``.bench/mutation/<module>/`` (src/, tests/ and a pyproject.toml whose ``[tool.mutmut]`` names the module
and its tests), so runs never touch the working tree and a module's results stay for ``mutmut browse``.

    python bench/mutation.py                       # every module below
    python bench/mutation.py eval/ratings.py       # some of them
    python bench/mutation.py --list                # the modules and their tests
    python bench/mutation.py --deadline 04:05      # stop starting mutants at that UTC time

mutmut leaves decorated functions alone, so a module whose functions are all numba-compiled (``@njit``) is
listed in ``NUMBA_MODULES`` and scored by bench/mutation_numba.py with cosmic-ray instead, on a seeded sample
of its mutants (each is compiled again): ``--sample N`` sets the sample (0: every mutant), ``--seed`` its seed.

A surviving mutant is a change to the code that no test notices: read it (``mutmut show NAME`` in the
module's scratch directory), then either add the test that kills it or accept it as equivalent.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutation_numba  # noqa: E402 (the sibling script for numba-compiled modules)

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".bench" / "mutation"

# module (under src/boardzero/) -> the test files that cover it
MODULES: dict[str, list[str]] = {
    "learn/td.py": ["tests/learn/test_td.py"],
    # the pieces on their own, and test_ppo.py but its training run (minutes a mutant)
    "learn/ppo.py": [
        "tests/learn/test_ppo_parts.py",
        *(
            f"tests/learn/test_ppo.py::{name}"
            for name in (
                "test_gae_by_hand",
                "test_the_reward_reaches_the_learner_on_its_last_decision_whoever_ends_the_game",
                "test_games_keep_playing_when_the_bank_drops_the_member_they_drew",
                "test_the_activity_loss_pulls_rare_legal_logits_back_towards_zero",
                "test_bank_admission_rule_and_members",
                "test_the_clipped_objective_takes_the_pessimistic_side_of_each_sample",
                "test_the_admission_trial_scores_the_learner_not_the_best",
            )
        ),
    ],
    "learn/bank.py": ["tests/learn/test_bank.py"],
    "learn/evaluation.py": [
        "tests/learn/test_evaluation.py",
        "tests/learn/test_train.py::test_evaluation_openings_vary_deterministic_games",
    ],
    "eval/paired.py": ["tests/eval/test_paired.py"],
    "eval/ratings.py": ["tests/eval/test_ratings.py", "tests/eval/test_tournament.py"],
    "games/catan/observe.py": [
        "tests/games/catan/test_observe.py",
        "tests/games/catan/test_interface.py",
        "tests/games/catan/test_symmetry.py",
    ],
    # the bots one decision at a time, and the fairness tests (the whole games take minutes a mutant)
    "integrations/catanatron/bots.py": [
        "tests/integrations/test_catanatron_bots.py",
        *(
            f"tests/integrations/test_catanatron.py::{name}"
            for name in (
                "test_fair_bot_sees_the_same_position_whatever_the_hidden_cards",
                "test_fair_bot_is_handed_a_sampled_state_never_the_true_one",
                "test_full_sight_is_granted_only_to_agents_that_ask",
                "test_a_game_with_trading_is_refused_and_changes_nothing",
            )
        ),
    ],
    # the games without HTTP (the server's tests through HTTP start worker processes: minutes a mutant)
    "web/games.py": ["tests/web/test_games.py"],
    "web/store.py": ["tests/web/test_store.py"],
    # playing games (play/__init__.py only re-exports: no functions, so no mutants)
    "play/opening.py": ["tests/learn/test_train.py::test_evaluation_openings_vary_deterministic_games"],
    "play/records.py": ["tests/play/test_records.py", "tests/play/test_session.py"],
    "play/rotation.py": ["tests/play/test_rotation.py", "tests/play/test_runner.py"],
    "play/runner.py": ["tests/play/test_runner.py", "tests/play/test_records.py"],
    "play/session.py": ["tests/play/test_session.py"],
    "play/workers.py": ["tests/play/test_runner.py", "tests/eval/test_arena.py"],
}
# modules whose functions are all numba-compiled: mutmut leaves decorated functions alone, so these go to
# bench/mutation_numba.py (cosmic-ray, a compile per mutant): module -> mutants sampled (None: all)
NUMBA_MODULES: dict[str, int | None] = {"games/catan/observe.py": 60}
# survivors judged equivalent (no test can tell them from the original): mutant name -> why; they are left
# out of the score's denominator. A name that no longer survives (or no longer exists) is ignored, so
# re-check this list after the module changes: mutmut numbers a function's mutants in order.
SQL_CASE = (
    "an SQL statement in other letter case: SQLite reads keywords and names in any case (its quoted values keep theirs)"
)
EQUIVALENT: dict[str, dict[str, str]] = {
    "learn/td.py": {
        **{
            f"xǁTDWorkerǁ__init____mutmut_{n}": "the league's version before any as None or -2 for -1: a bank's "
            "versions count from 0, so the first league read differs from any of them"
            for n in (7, 9)
        },
        "xǁTDWorkerǁ_new_game__mutmut_3": "> for >= between a uniform draw and league_share: equal only with a "
        "chance of about 2**-53 a game",
        "xǁTDWorkerǁ_choose__mutmut_23": "<= for < between a uniform draw and explore: as above",
        "xǁTDWorkerǁ_choose__mutmut_30": "rng.integers(sizes) draws the same numbers from the same stream as "
        "rng.integers(0, sizes)",
        **{
            f"xǁTDWorkerǁ_choose__mutmut_{n}": "a list of bools becomes a bool array without dtype=bool"
            for n in (35, 37)
        },
        **{
            f"xǁTDWorkerǁ_samples__mutmut_{n}": "a list of seat numbers becomes an int64 array without the dtype"
            for n in (22, 24)
        },
        "xǁTDWorkerǁ_samples__mutmut_30": "targets left in float64: the replay buffer stores them in its float32 "
        "field, the same numbers",
        "xǁTDWorkerǁ_league_moves__mutmut_46": "None assigned into a bool array is False",
        "xǁTDǁ__init____mutmut_2": "keyword arguments dropped: runtime.Trainer builds the method with positional "
        "ones only",
    },
    "learn/evaluation.py": {
        "x_score__mutmut_6": 'float("NAN") is nan as float("nan") is',
        "x_score__mutmut_21": "the match's seed drawn from 3**31 values, not 2**31: numpy seeds its generators from keys of "
        "any size alike",
        "x_score__mutmut_38": "the opening moves' stream keyed (seed, block, 2), not 1: still one stream per rotation "
        "block, shared by its games and apart from the games' own (two-number) keys",
        **{
            f"x_evaluate__mutmut_{n}": "network_agent gives the policy agent when greedy or sims == 0, so dropping "
            "either (or sims 1 / None with greedy) builds the same agent"
            for n in (5, 6, 10, 11, 12)
        },
        "x_evaluate__mutmut_3": "the greedy policy agent never reads its game (it plays from the view alone)",
        "x_evaluate__mutmut_28": "the random agent never reads its game (it plays from the view alone)",
    },
    "eval/ratings.py": {
        "x_pairwise_scores__mutmut_7": "range(s + 1) pairs each seat with those before it, not after: still each "
        "pair once (a seat with itself is the same agent, skipped), and a pair scores the same either way round",
        "x_pairwise_scores__mutmut_19": ">= in place of > is reached only when the returns differ (equal ones are "
        "a draw first), where the two agree",
        "x_fit_bradley_terry__mutmut_3": "max_iterations 201: Newton's method converges long before 200 steps",
        "x_fit_bradley_terry__mutmut_43": "size >= 1e-6: size is a power of two, never exactly 1e-6",
        "x_fit_bradley_terry__mutmut_51": "_log_likelihood does not read its games argument",
        "x_fit_bradley_terry__mutmut_55": "> in place of >= against a 1e-12 slack: an equal likelihood passes both",
        "x_fit_bradley_terry__mutmut_59": "_log_likelihood does not read its games argument",
        "x_fit_bradley_terry__mutmut_71": "size / step never passes the convergence test, so all 200 iterations run; "
        "past convergence each adds a step of about 0, so the fit is the same, only slower",
        "x_fit_bradley_terry__mutmut_72": "<= in place of < against the tolerance: equal only at exactly 1e-10",
        "x__derivatives__mutmut_22": "adds the diagonal of weight, which is 0 (an agent plays no games against itself)",
    },
    "integrations/catanatron/bots.py": {
        "x_catanatron_version__mutmut_3": "importlib.metadata finds a distribution by its name in any letter case",
        "xǁCatanatronAgentǁact__mutmut_17": "the spectator's public view for the seat's: catanatron_game reads the "
        "seat's own cards from the state's view of that seat when the view given is not the seat's, and the rest "
        "of a view is public",
        **{
            f"xǁCatanatronAgentǁact__mutmut_{n}": "catanatron_game given no view makes the seat's public view itself"
            for n in (30, 34)
        },
        "xǁCatanatronAgentǁ__init____mutmut_11": "getattr without a default for a game with no name: the message "
        "reads game.name, so such a game fails either way",
        **{
            f"xǁCatanatronAgentǁ__init____mutmut_{n}": "another default for a Catan game's options without trading: "
            "Catan's options always have it (other games are refused just before)"
            for n in (25, 28, 31)
        },
        "xǁCatanatronAgentǁ__init____mutmut_66": "the agent's game kept as None: nothing reads it",
        "xǁCatanatronAgentǁ__init____mutmut_95": "no plan as None rather than []: act reads it as false either way "
        "and reset sets []",
    },
    "web/games.py": {
        **{
            f"xǁGameManagerǁresume__mutmut_{n}": "a limit of 11**6 or 10**7 live games for 10**6: they differ only "
            "past a million live games, and max_active_games keeps far fewer"
            for n in (8, 9)
        },
        "xǁGameManagerǁsnapshot__mutmut_53": "returns shown while the game is live: a live game's returns are None "
        "(they are set with the status that ends it)",
        "xǁGameManagerǁcreate__mutmut_28": "with_agents=None is falsy, as False is",
        **{
            f"xǁGameManagerǁcreate__mutmut_{n}": "a field of the new StoredGame that LiveGame does not read (its game "
            "name, seed, seats, updated time, move count, over): the session holds those"
            for n in (81, 83, 84, 88, 89, 90, 103, 104)
        },
        "xǁGameManagerǁcreate__mutmut_111": "keep=None: a new game is live, never among the ended games forgotten",
        **{
            f"xǁGameManagerǁget__mutmut_{n}": "the game in memory not looked up: _revive's setdefault hands back that "
            "same game after reading the file (only slower)"
            for n in (1, 2)
        },
        **{
            f"{function}__mutmut_{n}": "replay given no game builds it from the record's name and options, the "
            "same game"
            for function, numbers in {"xǁGameManagerǁ_revive": (11, 13), "xǁGameManagerǁ_persist": (20, 22)}.items()
            for n in numbers
        },
    },
    "web/store.py": {
        **{
            f"{function}__mutmut_{n}": SQL_CASE
            for function, numbers in {
                "x__migrate_0_to_1": [5, 6, 12, 16],
                "xǁGameStoreǁ__init__": [24, 25, 28, 29],
                "xǁGameStoreǁ_upgrade": [4, 5, 10],
                "xǁGameStoreǁcreate": [7, 8, 10],
                "xǁGameStoreǁappend": [6, 7, 14, 15],
                "xǁGameStoreǁend": [9, 10],
                "xǁGameStoreǁset_seats": [6, 7],
                "xǁGameStoreǁidle_since": [6, 7],
                "xǁGameStoreǁset_delay": [6, 7],
                "xǁGameStoreǁload": [13, 14],
                "xǁGameStoreǁcount_live": [6, 7],
            }.items()
            for n in numbers
        },
        **{
            f"xǁGameStoreǁ__init____mutmut_{n}": "the folder made for ':memory:' is Path(':memory:').parent, '.', "
            "which is there already"
            for n in (3, 5, 6)
        },
        "xǁGameStoreǁappend__mutmut_20": "no returns stored as the JSON text null rather than NULL: read back as "
        "None either way",
        "xǁGameStoreǁend__mutmut_12": "as xǁGameStoreǁappend__mutmut_20",
        "xǁGameStoreǁgames__mutmut_5": "'XXXX' in place of no WHERE clause is read by SQLite as an alias of the table",
        "xǁGameStoreǁ_upgrade__mutmut_26": "version = 1 in place of version += 1: the same while the one migration "
        "is from 0",
    },
    "learn/ppo.py": {
        **{f"x_gae__mutmut_{n}": "np.zeros without a dtype is float64, as asked for" for n in (3, 5)},
        **{
            f"xǁPPOWorkerǁ_samples__mutmut_{n}": "np.asarray without the dtype: the actions are numpy int64 "
            "(argmax) and the log-probs numpy float32 already"
            for n in (24, 26, 30, 32)
        },
        "xǁPPOWorkerǁstep__mutmut_29": "multi | (not the learner) for multi & (not the learner): the opponent's "
        "network also 'chooses' its forced moves, and a masked policy over one legal move picks it",
        "xǁPPOWorkerǁstep__mutmut_43": "record=None is falsy, as False is",
        "x_ppo_loss__mutmut_80": "illegal log-probs filled with 1 rather than 0 before the product with their "
        "probabilities, which are exactly 0 (MASKED_LOGIT underflows exp)",
        "x_ppo_loss__mutmut_118": ">= for > in the clip fraction: differs only for a float32 ratio exactly 1 +- clip",
        "xǁPPOǁ__init____mutmut_2": "keyword arguments dropped: runtime.Trainer builds the method with positional "
        "ones only",
        **{
            f"xǁPPOǁpayload__mutmut_{n}": "best=None / False for the first member: Bank.add makes an empty bank's "
            "first member its best whatever best says"
            for n in (6, 11)
        },
        "xǁPPOǁupdate__mutmut_16": "std - 1e-8 for std + 1e-8: a difference of 2e-8 in the divisor (advantages "
        "all equal give 0 either way)",
        "xǁPPOǁupdate__mutmut_28": "metrics None before the loop: epochs >= 1 and a minibatch never exceeds the "
        "batch, so the loop always sets it before it is read",
        "xǁPPOǁupdate__mutmut_31": ".to(None) keeps the shuffled indices on the CPU: the same on a CPU learner, "
        "and torch indexes a tensor on another device with CPU indices alike",
    },
    "learn/bank.py": {
        "xǁBankǁadd__mutmut_39": "missing_ok=None: the glob has just listed the file and only the learner's Bank "
        "deletes members, so it is there to unlink",
        "xǁBankǁadd__mutmut_40": "missing_ok=False: as above",
        "x_draw_opponent__mutmut_1": "<= in place of <: differs only when the uniform draw equals best_share "
        "exactly, a chance of about 2**-53 a draw",
    },
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
    mutation_numba.copy_checkout(where)
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
    equivalent = sorted(name for name in survivors if name.split(".")[-1] in EQUIVALENT.get(module, {}))
    score = caught / (caught + missed - len(equivalent)) if caught + missed > len(equivalent) else float("nan")
    return {
        "module": module,
        "tests": tests,
        "counts": counts,
        "score": score,
        "survivors": survivors,
        "equivalent": equivalent,
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
    parser.add_argument(
        "--sample",
        type=int,
        help=f"mutants sampled from each numba module (default {NUMBA_MODULES}; 0: all)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed of that sample")
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
        if module in NUMBA_MODULES:
            sample = NUMBA_MODULES[module] if args.sample is None else (args.sample or None)
            report = mutation_numba.run(module, MODULES[module], sample, args.seed, deadline, timeout=600.0)
            reports.append(report)
            print(mutation_numba.summary(report))
            continue
        report = run_module(module, MODULES[module], deadline, args.jobs)
        reports.append(report)
        counts = ", ".join(f"{k} {v}" for k, v in sorted(report["counts"].items()))
        note = " (stopped at the deadline: partial)" if report["stopped_at_deadline"] else ""
        if not report["counts"]:  # mutmut leaves decorated functions alone: list such modules in NUMBA_MODULES
            print(
                f"{module}: no mutants tested (see {report['scratch']}/mutmut.log; mutmut skips decorated "
                f"functions such as numba's @njit ones: name the module in NUMBA_MODULES){note}"
            )
            continue
        same = f", {len(report['equivalent'])} of the survivors equivalent" if report["equivalent"] else ""
        print(f"{module}: score {report['score']:.2f} ({counts}{same}) in {report['seconds']} s{note}")
        for name in report["survivors"]:
            reason = EQUIVALENT.get(module, {}).get(name.split(".")[-1])
            print(f"    survived: {name}" + (f" (equivalent: {reason})" if reason else ""))
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
