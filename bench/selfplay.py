"""Self-play speed on Catan per core: environment steps/s with a network choosing every move, for each training
method (TD, PPO, AlphaZero), next to the batched engine alone (random moves); TD also in games with
player-to-player trading (an offer is weighed by the trade it leads to: more afterstates per decision).

Each row runs one actor's self-play in this process, on one thread, for ``--seconds`` of CPU time, with an
untrained network of the configs' size (residual MLP 256 x 4; the cross-dimensional net as extra rows) and
the number format of the configs (``--precision``). An environment step is one move of one game (forced moves
and chance outcomes included); a decision is a move with more than one legal choice. Rows are interleaved in
``--rounds`` so a change of machine load hits all of them.

    python bench/selfplay.py [--players 2] [--seconds 20] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from boardzero.core.registry import make
from boardzero.learn.config import config_from_dict
from boardzero.nn import spec_for_game


def _payload(config: dict, spec) -> dict:
    return {"config": config_from_dict(config).to_dict(), "network": spec.to_dict(), "generation": 0, "run": ""}


class EngineAlone:
    """The batched engine with uniformly random legal moves: the ceiling without any network."""

    def __init__(self, game, batch: int):
        self.env = game.batched(batch, seed=0)
        self.env.reset()
        self.rng = np.random.default_rng(0)
        self.games_finished = 0

    def step(self):
        masks = self.env.masks
        scores = self.rng.random(masks.shape) * masks
        _, _, _, _, done = self.env.step(np.argmax(scores, axis=1))
        self.games_finished += int(done.sum())
        return []


def _td(game, players, batch, precision, kind="mlp", trading=False):
    from boardzero.learn.td import TDWorker

    if trading:
        game = make("catan", players=players, trading=True)
    spec = spec_for_game(game, kind, hidden=256 if kind == "mlp" else 64, blocks=4, channels=16)
    config = {
        "method": "td",
        "game": "catan",
        "game_options": {"players": players, "trading": trading},
        "selfplay": {"games_per_actor": batch, "precision": precision},
    }
    return TDWorker(0, _payload(config, spec))


def _ppo(game, players, batch, precision, kind="mlp"):
    import tempfile
    from pathlib import Path

    from boardzero.learn.ppo import PPOWorker
    from boardzero.nn import build_network, save_network

    spec = spec_for_game(game, kind, hidden=256 if kind == "mlp" else 64, blocks=4, channels=16)
    config = {
        "method": "ppo",
        "game": "catan",
        "game_options": {"players": players},
        "selfplay": {"games_per_actor": batch, "precision": precision},
    }
    worker = PPOWorker(0, _payload(config, spec))
    net = build_network(spec)
    member = save_network(
        Path(tempfile.mkdtemp()) / "member", net, {"game": "catan", "game_options": game.options_dict()}
    )
    worker.load(
        0,
        {
            "weights": {k: v.numpy() for k, v in net.state_dict().items()},
            "bank": {"version": 0, "members": [str(member)], "best": str(member)},
        },
    )
    return worker


def _alphazero(game, players, batch, precision, simulations=32):
    from boardzero.learn.selfplay import SelfPlayWorker

    spec = spec_for_game(game, "mlp", hidden=256, blocks=4)
    config = {
        "method": "alphazero",
        "game": "catan",
        "game_options": {"players": players},
        "selfplay": {"games_per_actor": batch, "precision": precision, "simulations": simulations},
    }
    return SelfPlayWorker(0, _payload(config, spec))


class _Counted:
    """Counts the environment steps and decisions of a worker by watching its games' move counters."""

    def __init__(self, name, worker, moves):
        self.name, self.worker, self.moves = name, worker, moves
        self.cpu = 0.0
        self.steps = self.decisions = self.games = 0

    def run(self, seconds: float) -> None:
        start_games = self.worker.games_finished
        steps_before, decisions_before = self.moves(self.worker)
        began = time.process_time()
        while time.process_time() - began < seconds:
            self.worker.step()
        self.cpu += time.process_time() - began
        steps_after, decisions_after = self.moves(self.worker)
        self.steps += steps_after - steps_before
        self.decisions += decisions_after - decisions_before
        self.games += self.worker.games_finished - start_games

    def row(self, engine_steps_per_s: float | None) -> dict:
        rate = self.steps / self.cpu
        return {
            "row": self.name,
            "env_steps_per_cpu_s": round(rate),
            "decisions_per_cpu_s": round(self.decisions / self.cpu),
            "games_per_cpu_s": round(self.games / self.cpu, 2),
            "share_of_engine_alone": None if engine_steps_per_s is None else round(rate / engine_steps_per_s, 4),
        }


def _wrap(env):
    """Count the steps and decisions a batched environment takes."""
    counts = [0, 0]
    original = env.step

    def step(actions):
        actions = np.asarray(actions)
        counts[0] += int((actions >= 0).sum())
        counts[1] += int((env.masks.sum(axis=1) > 1)[actions >= 0].sum())
        return original(actions)

    env.step = step
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128, help="games per actor")
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per row and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--precision", default="auto", choices=["auto", "float32", "bfloat16"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    game = make("catan", players=args.players)
    rows = []
    for name, build in (
        ("engine alone (random moves)", lambda: EngineAlone(game, args.batch)),
        ("td (afterstate values, mlp)", lambda: _td(game, args.players, args.batch, args.precision)),
        (
            "td (mlp), trading games",
            lambda: _td(game, args.players, args.batch, args.precision, trading=True),
        ),
        ("td (afterstate values, xdim 16x64x4)", lambda: _td(game, args.players, args.batch, args.precision, "xdim")),
        ("ppo (policy, mlp)", lambda: _ppo(game, args.players, args.batch, args.precision)),
        ("ppo (policy, xdim 16x64x4)", lambda: _ppo(game, args.players, args.batch, args.precision, kind="xdim")),
        (
            "alphazero (32 simulations, mlp)",
            lambda: _alphazero(game, args.players, min(args.batch, 32), args.precision),
        ),
    ):
        worker = build()
        env = worker.env if hasattr(worker, "env") else None
        if env is not None:
            counts = _wrap(env)
            moves = lambda w, c=counts: (c[0], c[1])  # noqa: E731
        else:  # AlphaZero plays State objects and counts its own moves
            moves = lambda w: (w.selfplay.plies, w.selfplay.moves)  # noqa: E731
        worker.step()  # compile and warm up outside the timing
        rows.append(_Counted(name, worker, moves))
    for _ in range(args.rounds):
        for row in rows:
            row.run(args.seconds / args.rounds)
    engine = rows[0].steps / rows[0].cpu
    table = [row.row(engine) for row in rows]
    if args.json:
        print(
            json.dumps(
                {"players": args.players, "batch": args.batch, "precision": args.precision, "rows": table}, indent=2
            )
        )
        return
    print(f"Catan {args.players} players, {args.batch} games per actor, precision {args.precision}, one thread")
    print(f"{'row':34} {'env steps/cpu-s':>16} {'decisions/cpu-s':>16} {'games/cpu-s':>12} {'vs engine':>10}")
    for r in table:
        share = "" if r["share_of_engine_alone"] is None else f"{r['share_of_engine_alone']:.3f}"
        print(
            f"{r['row']:34} {r['env_steps_per_cpu_s']:>16,} {r['decisions_per_cpu_s']:>16,} "
            f"{r['games_per_cpu_s']:>12} {share:>10}"
        )


if __name__ == "__main__":
    main()
