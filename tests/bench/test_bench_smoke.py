"""Tiny-budget smoke test of bench/catan_engine.py: it runs, prints JSON lines, and compares when it can."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "catan_engine.py"


def run_bench(*args: str) -> tuple[list[dict], str]:
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--quick",
            "--json",
            "--games",
            "3",
            "--catanatron-games",
            "1",
            "--players",
            "2",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")], done.stderr


def test_our_side_always_runs_and_prints_json():
    rows, stderr = run_bench()
    ours = [r for r in rows if r["engine"] == "boardzero" and r["benchmark"] == "random_games"]
    assert len(ours) == 1
    row = ours[0]
    assert row["players"] == 2 and row["games_per_s"] > 0 and row["turns_per_game"] > 0
    assert "ratio_vs_catanatron" in row
    kinds = {r["benchmark"] for r in rows}
    assert {"random_games", "batched", "clone"} <= kinds
    if importlib.util.find_spec("catanatron") is None:
        assert row["ratio_vs_catanatron"] is None and "pip install catanatron" in stderr


def test_side_by_side_with_catanatron():
    pytest.importorskip("catanatron")
    rows, _ = run_bench()
    engines = {r["engine"]: r for r in rows if r["benchmark"] == "random_games"}
    assert set(engines) == {"boardzero", "catanatron"}
    theirs = engines["catanatron"]
    assert theirs["games_per_s"] > 0 and theirs["turns_per_game"] > 0
    assert engines["boardzero"]["ratio_vs_catanatron"] == pytest.approx(
        engines["boardzero"]["games_per_s"] / theirs["games_per_s"], rel=1e-3
    )


def test_gym_envs_bench_runs_side_by_side():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    script = SCRIPT.with_name("gym_envs.py")
    done = subprocess.run(
        [sys.executable, str(script), "--quick", "--json", "--seconds", "0.2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    rows = {r["benchmark"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert set(rows) == {"gym", "pettingzoo", "vector"}
    assert rows["gym"]["ratio_vs_gym"] == 1.0 and all(r["steps"] > 0 for r in rows.values())


PER_STEP = SCRIPT.with_name("catan_per_step.py")


def test_per_step_benchmark_times_every_call_and_the_arena_loop():
    done = subprocess.run(
        [sys.executable, str(PER_STEP), "--quick", "--json", "--players", "2", "--positions", "5"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    calls = next(r for r in rows if r["benchmark"] == "per_call")
    for name in ("legal_mask", "legal_actions", "clone", "clone_apply", "sample_chance", "observe", "random_agent_act"):
        assert calls[f"{name}_us"] > 0
    loops = {r["engine"]: r for r in rows if r["benchmark"] == "per_step_games"}
    assert {"boardzero arena", "boardzero arena+observe"} <= set(loops)
    arena = loops["boardzero arena"]
    assert arena["games"] == 2 and arena["steps_per_game"] > 100 and arena["us_per_step"] > 0
    if "catanatron" in loops:
        assert arena["ratio_vs_catanatron"] == pytest.approx(
            arena["games_per_s"] / loops["catanatron"]["games_per_s"], rel=1e-3
        )
    else:
        assert arena["ratio_vs_catanatron"] is None and "pip install catanatron" in done.stderr


def test_busy_core_bench_runs_with_a_tiny_budget():
    script = SCRIPT.with_name("busy_core.py")
    done = subprocess.run(
        [sys.executable, str(script), "--moves", "2", "--default-moves", "1", "--agent", "best:sims=8", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    runs = [json.loads(line) for line in done.stdout.splitlines()]
    assert runs[0]["play_threads"] == runs[0]["threads"] == 1
    assert [len(run["idle_s"]) for run in runs] == [len(run["busy_s"]) for run in runs] == [2, 1][: len(runs)]
    assert all(run["busy_over_idle"] > 0 and len(run["load_average_before"]) == 3 for run in runs)


def test_decision_time_bench_times_the_agents_real_decisions():
    script = SCRIPT.with_name("decision_time.py")
    done = subprocess.run(
        [
            sys.executable,
            str(script),
            "tictactoe",
            "--agent",
            "greedy",
            "--against",
            "random",
            "--players",
            "0",
            "--games",
            "3",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout.splitlines()[-1])
    assert row["games"] == 3 and row["decisions"] >= 3 and row["players"] == 2
    assert 0 < row["cpu"]["median_ms"] <= row["cpu"]["p95_ms"] <= row["cpu"]["max_ms"]


def test_catan_search_split_counts_the_evaluator_however_the_search_calls_it():
    # the shipped TD model's value priors are asked apart from the values (`values`, `priors`, not `evaluate`):
    # both must count as evaluator time, so every share lies in [0, 1] and the network is part of the evaluator
    spec = importlib.util.spec_from_file_location("bench_search", SCRIPT.with_name("search.py"))
    bench_search = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        spec.loader.exec_module(bench_search)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    row = bench_search.bench_catan_network_search(2, 2, 4, "float32", shipped=True, prior=0.02)
    assert row["sims_per_cpu_s"] > 0
    assert 0 < row["network_share"] <= row["evaluator_share"] <= 1
    assert row["tree_and_engine_share"] == pytest.approx(1 - row["evaluator_share"])
    # priors from a policy head (the shipped model has the layer, untrained: the speed is what is measured)
    from boardzero.agents.best import MODELS_DIR

    policy = bench_search.bench_catan_network_search(
        2, 2, 4, "float32", information_sets=True, policy_model=MODELS_DIR / "catan" / "model-2p.json"
    )
    assert "policy priors" in policy["network"] and policy["sims_per_cpu_s"] > 0
    assert 0 < policy["network_share"] <= policy["evaluator_share"] <= 1


def test_catan_engine_bench_with_trading():
    rows, _ = run_bench("--trading")
    ours = [r for r in rows if r["engine"] == "boardzero" and r["benchmark"] == "random_games"]
    assert len(ours) == 1 and ours[0]["games_per_s"] > 0


def test_trading_games_bench_runs():
    done = subprocess.run(
        [sys.executable, str(SCRIPT.with_name("catan_trading_games.py")), "--games", "2", "--players", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and "trading off" in lines[0] and "trading on" in lines[1]
    assert all("stopped by the turn limit" in line for line in lines)


def test_two_trees_side_by_side_prints_ratios():
    root = SCRIPT.parents[1]
    args = ["--rounds", "1", "--", "catan_engine.py", "--quick", "--games", "2", "--catanatron-games", "0"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT.with_name("catan_ab.py")), str(root), str(root), *args, "--players", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    ratios = [line for line in done.stdout.splitlines() if "B/A" in line]
    assert any("random_games boardzero 2p cpu_games_per_s" in line for line in ratios)
