"""Catan through the public per-step Game API: random games/s vs catanatron, and the time of each call.

This is the path Python agents, search, the gym environments and the web server use: one Python
call per action, chance drawn with ``boardzero.sample_chance(state, rng)`` from an
``np.random.Generator``. (``catan_engine.py`` times the compiled random-play loop instead, which no
Python agent can use.) All in one process on one core, side by side in the same run:

1. Random games, full rules, 10 points, 1000-turn cap (as in ``catan_engine.py``), a fresh random
   board per game, interleaved in ``--rounds`` chunks so that other load hits every loop alike:
   - ``arena``: ``play.runner.play_game`` with ``random`` agents, the loop of ``boardzero arena``:
     per decision a ``SeatView``, its legal actions, ``rng.integers``, ``state.apply``; per chance
     node ``sample_chance(state, rng)``;
   - ``arena+observe``: the same, and each decision also reads ``view.observation`` (all the
     observation arrays a network agent may use), as a network agent does;
   - catanatron 3.2.1 (``make bench``): ``Game([RandomPlayer(color), ...]).play()``, its own loop.
   The ratio is games/s over catanatron's games/s, by wall clock and by this process's CPU time (steadier
   when other programs load the machine). The engines split decisions differently (boardzero
   discards card by card and names the robber's hex and victim in two steps), so steps per game are
   printed too.
2. Per call, in microseconds of CPU time, averaged over positions taken from random games (decision positions
   for the decision calls, chance positions for ``sample_chance``): ``legal_mask``,
   ``legal_actions``, ``clone``, ``clone`` + ``apply`` of a legal action, ``sample_chance``,
   ``observe``, and a whole ``SeatView`` decision of the random agent.

Usage: ``python bench/catan_per_step.py [--games N] [--catanatron-games M] [--players 4] [--quick] [--json]``
(``boardzero bench catan_per_step``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from boardzero.agents.random_agent import RandomAgent  # noqa: E402
from boardzero.core.api import CHANCE, sample_chance  # noqa: E402
from boardzero.core.view import SeatView  # noqa: E402
from boardzero.games.catan import Catan, CatanOptions  # noqa: E402
from boardzero.play.runner import play_game  # noqa: E402
from catan_engine import TURN_CAP, Tally, catanatron_or_hint, comparison_parser, json_line, play_catanatron  # noqa: E402


class ObservingRandomAgent(RandomAgent):
    """A random agent that reads its observation first, as a network agent would."""

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        view.observation  # noqa: B018 - computed (and discarded) like a network agent's input
        return super().act(view, rng)


LOOPS = {"arena": RandomAgent, "arena+observe": ObservingRandomAgent}


def play_arena(game: Catan, agent_class: type, seeds: range, tally: Tally, steps: list[int]) -> None:
    agents = [agent_class(game) for _ in range(game.num_players)]
    with tally.timing():
        for seed in seeds:
            state = play_game(game, agents, np.random.default_rng(seed), seed=seed)
            tally.turns.append(state.turn)
            tally.won.append(state.winner >= 0)
            steps.append(len(state.history))


def compare(
    players: int, games: int, catanatron_games: int, rounds: int, seed: int, *, trading: bool = False
) -> list[dict]:
    game = Catan(CatanOptions(players=players, turn_limit=TURN_CAP, board="random", trading=trading))
    play_arena(game, ObservingRandomAgent, range(seed, seed + 1), Tally(), [])  # compile / load caches untimed
    tallies = {name: (Tally(), []) for name in LOOPS}
    theirs = Tally() if catanatron_games > 0 else None
    rounds = max(1, min(rounds, games, catanatron_games or games))
    for k in range(rounds):
        chunk = range(seed + k * games // rounds, seed + (k + 1) * games // rounds)
        for name, agent_class in LOOPS.items():
            play_arena(game, agent_class, chunk, *tallies[name])
        if theirs is not None:
            play_catanatron(
                players,
                range(seed + k * catanatron_games // rounds, seed + (k + 1) * catanatron_games // rounds),
                theirs,
            )
    rows = []
    reference = None
    if theirs is not None:
        reference = theirs.row("catanatron", players)
        rows.append(dict(reference, benchmark="per_step_games"))
    for name, (tally, steps) in tallies.items():
        row = dict(tally.row(f"boardzero {name}", players), benchmark="per_step_games")
        row["steps_per_game"] = float(np.mean(steps))
        row["us_per_step"] = 1e6 * tally.seconds / sum(steps)
        row["cpu_us_per_step"] = 1e6 * tally.cpu_seconds / sum(steps)
        row["ratio_vs_catanatron"] = row["games_per_s"] / reference["games_per_s"] if reference else None
        row["cpu_ratio_vs_catanatron"] = row["cpu_games_per_s"] / reference["cpu_games_per_s"] if reference else None
        rows.append(row)
    return rows


# ----------------------------------------------------------------------------- per call
def sample_positions(game: Catan, count: int, seed: int) -> tuple[list, list]:
    """(decision positions, chance positions) visited by random games."""
    rng = np.random.default_rng(seed)
    decisions, chances = [], []
    game_seed = seed
    while len(decisions) < count or len(chances) < count:
        state = game.new_state(seed=game_seed)
        game_seed += 1
        while not state.is_terminal():
            keep = rng.random() < 0.05
            if state.current_player == CHANCE:
                if keep and len(chances) < count:
                    chances.append(state.clone())
                state.apply(sample_chance(state, rng))
            else:
                if keep and len(decisions) < count:
                    decisions.append(state.clone())
                legal = state.legal_actions()
                state.apply(int(legal[rng.integers(len(legal))]))
    return decisions, chances


def per_call_us(fn, items: list, repeat: int = 5) -> float:
    """Best of ``repeat`` passes over ``items``: microseconds of this process's CPU time per call of
    ``fn(item)`` (CPU time, so that other programs on a busy machine do not count)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return 1e6 * best / len(items)


def bench_calls(players: int, positions: int, seed: int, *, trading: bool = False) -> dict:
    game = Catan(CatanOptions(players=players, trading=trading))
    decisions, chances = sample_positions(game, positions, seed)
    rng = np.random.default_rng(seed)
    agent = RandomAgent(game)
    first_legal = [int(s.legal_actions()[0]) for s in decisions]
    pairs = list(zip(decisions, first_legal))
    seats = [(s, s.current_player) for s in decisions]
    calls = {
        "legal_mask": per_call_us(lambda s: s.legal_mask(), decisions),
        "legal_actions": per_call_us(lambda s: s.legal_actions(), decisions),
        "clone": per_call_us(lambda s: s.clone(), decisions),
        "clone_apply": per_call_us(lambda p: p[0].clone().apply(p[1]), pairs),
        "sample_chance": per_call_us(lambda s: sample_chance(s, rng), chances),
        "observe": per_call_us(lambda p: p[0].observe(p[1]), seats),
        "random_agent_act": per_call_us(lambda p: agent.act(SeatView(p[0], p[1]), rng), seats),
    }
    return {
        "benchmark": "per_call",
        "engine": "boardzero",
        "players": players,
        "positions": positions,
        **{f"{name}_us": value for name, value in calls.items()},
    }


# ----------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = comparison_parser(__doc__.splitlines()[0], games=100, rounds=10, players=[4])
    parser.add_argument("--positions", type=int, default=500, help="positions per call timed (per kind)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.catanatron_games = min(args.games, 2), min(args.catanatron_games, 1)
        args.positions = min(args.positions, 20)

    emit = json_line if args.json else _text_line
    have_catanatron = catanatron_or_hint(args.json)
    for players in args.players:
        emit(bench_calls(players, args.positions, args.seed, trading=args.trading))
        for row in compare(
            players,
            args.games,
            args.catanatron_games if have_catanatron else 0,
            args.rounds,
            args.seed,
            trading=args.trading,
        ):
            emit(row)
    return 0


def _text_line(row: dict) -> None:
    if row["benchmark"] == "per_call":
        calls = "  ".join(f"{k[:-3]} {v:.2f}" for k, v in row.items() if k.endswith("_us"))
        print(f"  per call {row['players']}p (us of CPU time, {row['positions']} positions): {calls}", flush=True)
        return
    ratio, cpu_ratio = row.get("ratio_vs_catanatron"), row.get("cpu_ratio_vs_catanatron")
    extra = f"  {ratio:5.2f}x catanatron (CPU time: {cpu_ratio:5.2f}x)" if ratio else ""
    steps = (
        f"  {row['steps_per_game']:6.0f} steps/game, {row['us_per_step']:5.1f} us/step"
        if "steps_per_game" in row
        else ""
    )
    print(
        f"{row['engine']:>24} {row['players']}p: {row['games_per_s']:7.2f} games/s "
        f"({row['cpu_games_per_s']:7.2f} per CPU second)  "
        f"{row['turns_per_game']:6.1f} turns/game{steps}  ({row['games']} games, "
        f"{100 * row['won_before_cap']:.0f}% won before {TURN_CAP} turns){extra}",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
