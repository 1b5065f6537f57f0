"""Search and solver speed: rollout MCTS per move, batched PUCT tree overhead, Connect 4 solver by ply, and
Catan search with a network: simulations per CPU second, split into network time and tree-plus-engine time."""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from _positions import random_positions  # bench/_positions.py, beside this script
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.games.connect4.solver import default_solver
from boardzero.search import MCTS, MCTSConfig, RolloutEvaluator, UniformEvaluator


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_rollout_mcts(game, positions, sims):
    mcts = MCTS(
        game,
        RolloutEvaluator(game),
        MCTSConfig(simulations=sims, selection="uct", c_uct=1.0, batch_size=1, virtual_loss=0.0, reuse_tree=False),
    )
    rng = np.random.default_rng(0)
    walls, cpus = [], []
    for state in positions:
        wall, cpu = timed(lambda state=state: mcts.search(SeatView(state, state.current_player), rng))
        walls.append(wall)
        cpus.append(cpu)
    return {
        "sims": sims,
        "moves": len(positions),
        "wall_s_per_move": float(np.mean(walls)),
        "cpu_s_per_move": float(np.mean(cpus)),
        "sims_per_cpu_s": sims / float(np.mean(cpus)),
    }


def bench_batched_puct(game, positions, sims):
    mcts = MCTS(game, UniformEvaluator(game), MCTSConfig(simulations=sims, batch_size=8, reuse_tree=False))
    views = [SeatView(s, s.current_player) for s in positions]
    wall, cpu = timed(lambda: mcts.search_many(views, np.random.default_rng(0), add_noise=True))
    return {"games": len(views), "sims": sims, "leaves_per_cpu_s": len(views) * sims / cpu, "wall_s": wall}


def bench_solver(game, rng, plies, per_ply):
    solver = default_solver()
    solver.move_values([0, 6, 1, 6, 2, 5])  # compile / load the cache outside the timings
    out = {}
    for ply in plies:
        times = []
        for state in random_positions(game, per_ply, rng, ply, ply):
            times.append(timed(lambda state=state: solver.move_values(state.history))[1])
        out[str(ply)] = {"positions": per_ply, "cpu_s_mean": float(np.mean(times)), "cpu_s_max": float(np.max(times))}
    return out


def catan_positions(game, count, rng):
    """Decision positions with a choice, from random play of ``game``."""
    from boardzero.core.api import CHANCE, sample_chance

    positions = []
    while len(positions) < count:
        state = game.new_state(seed=int(rng.integers(2**31)))
        for _ in range(int(rng.integers(20, 300))):
            if state.is_terminal():
                break
            if state.current_player == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(int(rng.choice(state.legal_actions())))
        while state.current_player == CHANCE:
            state.apply(sample_chance(state, rng))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            positions.append(state)
    return positions


class _TimedEvaluator:
    """Wraps an evaluator and adds up the CPU time spent inside it (observations, network call, priors),
    through whichever entry the search calls: ``evaluate``, or ``values`` and ``priors`` apart where the
    evaluator defers its priors."""

    TIMED = ("evaluate", "values", "priors")

    def __init__(self, inner):
        self.inner, self.cpu = inner, 0.0

    def __getattr__(self, name):
        found = getattr(self.inner, name)
        if name not in self.TIMED:
            return found

        def timed_call(*args, **kwargs):
            began = time.process_time()
            try:
                return found(*args, **kwargs)
            finally:
                self.cpu += time.process_time() - began

        return timed_call


class _NetworkClock:
    """CPU time inside a network's parts (trunk and heads: every forward pass, whichever entry point)."""

    def __init__(self, net):
        self.cpu, self._began = 0.0, 0.0
        for part in net.children():
            part.register_forward_pre_hook(self._start)
            part.register_forward_hook(self._stop)

    def _start(self, *_):
        self._began = time.process_time()

    def _stop(self, *_):
        self.cpu += time.process_time() - self._began


def bench_catan_network_search(
    players, games, sims, precision, *, shipped=False, prior=0.0, information_sets=False, policy_model=None
):
    """Batched PUCT over ``games`` Catan positions (hidden cards resampled per simulation), one thread, with
    an untrained residual MLP 256 x 4 over the flat observation at the leaves (network priors), or with
    ``shipped``: the shipped TD model for that player count (the same size over the rich observation) as
    ``best`` searches with it (``prior`` > 0: priors from its values after each move, else uniform), or with
    ``policy_model``: a checkpoint whose policy head learned search visits (``learn.expert``), priors from that
    head (one network row per node) and leaves valued as the others.
    Splits the CPU time into the network's forward passes, the rest of the evaluator (observations,
    afterstates) and the tree plus the engine."""
    import torch

    from boardzero.nn import NetworkEvaluator, build_network, spec_for_game

    torch.set_num_threads(1)
    game = make("catan", players=players)
    if policy_model is not None:
        from boardzero.nn.checkpoint import load_network
        from boardzero.nn.policy_prior import PolicyPriorEvaluator

        net, _ = load_network(policy_model, game=game)
        inner = PolicyPriorEvaluator(net, precision=precision)
    elif shipped:
        from boardzero.agents.best import MODELS_DIR
        from boardzero.agents.td import ValuePriorEvaluator
        from boardzero.nn.checkpoint import load_network
        from boardzero.nn.evaluator import ValueEvaluator

        net, _ = load_network(MODELS_DIR / "catan" / f"model-{players}p.json", game=game)
        inner = (
            ValuePriorEvaluator(net, temperature=prior, precision=precision)
            if prior > 0
            else ValueEvaluator(net, precision=precision)
        )
    else:
        net = build_network(spec_for_game(game, "mlp", hidden=256, blocks=4))
        inner = NetworkEvaluator(net, precision=precision)
    evaluator, clock = _TimedEvaluator(inner), _NetworkClock(net)
    mcts = MCTS(
        game, evaluator, MCTSConfig(simulations=sims, batch_size=8, reuse_tree=False, information_sets=information_sets)
    )
    views = [SeatView(s, s.current_player) for s in catan_positions(game, games, np.random.default_rng(2))]
    mcts.search_many(views[:2], np.random.default_rng(0))  # compile and warm up
    evaluator.cpu = clock.cpu = 0.0
    wall, cpu = timed(lambda: mcts.search_many(views, np.random.default_rng(0), add_noise=True))
    network = (
        "policy-head model (rich), policy priors"
        if policy_model is not None
        else "shipped TD model (rich)" + (f", value priors {prior:g}" if prior else ", uniform priors")
        if shipped
        else "untrained MLP (flat)"
    )
    return {
        "players": players,
        "games": games,
        "sims": sims,
        "precision": precision,
        "network": network,
        "tree": "information sets" if information_sets else "histories",
        "sims_per_cpu_s": games * sims / cpu,
        "network_share": clock.cpu / cpu,
        "evaluator_share": evaluator.cpu / cpu,
        "tree_and_engine_share": 1 - evaluator.cpu / cpu,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument(
        "--policy-model",
        help="also search 2-player Catan with the priors of this checkpoint's policy head (an expert run's), "
        "beside the shipped model's value priors on the same positions",
    )
    args = parser.parse_args()
    game = make("connect4")
    rng = np.random.default_rng(1)
    positions = random_positions(game, args.positions, rng, 0, 20)
    result = {
        "rollout_mcts_connect4": bench_rollout_mcts(game, positions, 400),
        "batched_puct_connect4": bench_batched_puct(game, positions[:16], 200),
        "connect4_solver_move_values_by_ply": bench_solver(game, rng, (10, 14, 18, 24), 5),
        "catan_network_search": [bench_catan_network_search(2, 16, 64, precision) for precision in ("float32", "auto")]
        + [
            bench_catan_network_search(2, 16, 32, "auto", shipped=True, prior=0.02, information_sets=infoset)
            for infoset in (False, True)
        ]
        + (
            [bench_catan_network_search(2, 16, 32, "auto", information_sets=True, policy_model=args.policy_model)]
            if args.policy_model
            else []
        ),
    }
    if args.json:
        print(json.dumps(result))
        return
    r = result["rollout_mcts_connect4"]
    print(
        f"rollout MCTS, connect4, {r['sims']} sims: {r['wall_s_per_move']:.3f} s/move wall, "
        f"{r['cpu_s_per_move']:.3f} s/move CPU, {r['sims_per_cpu_s']:.0f} sims per CPU second ({r['moves']} moves)"
    )
    b = result["batched_puct_connect4"]
    print(
        f"batched PUCT (uniform evaluator), {b['games']} games x {b['sims']} sims: "
        f"{b['leaves_per_cpu_s']:.0f} leaves per CPU second"
    )
    for ply, s in result["connect4_solver_move_values_by_ply"].items():
        print(
            f"connect4 solver, all 7 move values at ply {ply}: mean {s['cpu_s_mean']:.3f} s, "
            f"max {s['cpu_s_max']:.3f} s CPU ({s['positions']} random positions)"
        )
    for c in result["catan_network_search"]:
        print(
            f"catan {c['players']}p PUCT, {c['network']} 256x4 ({c['precision']}), tree of {c['tree']}, "
            f"{c['games']} games x {c['sims']} sims: "
            f"{c['sims_per_cpu_s']:.0f} sims per CPU second; network {100 * c['network_share']:.0f} %, the rest "
            f"of the evaluator {100 * (c['evaluator_share'] - c['network_share']):.0f} %, "
            f"tree and engine {100 * c['tree_and_engine_share']:.0f} %"
        )


if __name__ == "__main__":
    main()
