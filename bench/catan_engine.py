"""Catan engine speed: random games/s vs catanatron (2-4 players), batched policy-steps/s, clone() time.

What is measured, all in one process on one core, side by side in the same run:

1. Random legal play with the full rules, complete games, for 2, 3 and 4 players.
   - boardzero: ``game.initial_array(seed)`` (a fresh random board each game, created inside the timed
     loop) then ``random_playout(s, seed)``, the compiled loop that picks uniformly among the legal
     actions and draws chance (dice, card draws, steals) with the true probabilities.
   - catanatron (the ``catanatron`` package, ``pip install catanatron==3.2.1`` or ``make bench``):
     ``Game([RandomPlayer(color), ...], seed=...).play()``, its random players and random maps.
   (``playout_only_games_per_s`` in the JSON leaves out the board creation, for information; the
   compared figure ``games_per_s`` includes it, as catanatron's includes its map creation.)
   The two engines run interleaved, in ``--rounds`` chunks each, so that other load on the machine
   hits both alike (the ratio of this process's CPU time, ``cpu_ratio_vs_catanatron``, is steadier still on a
   loaded machine). Both play to 10 victory points with a cap of 1000 turns (catanatron's built-in
   ``TURNS_LIMIT``; boardzero's ``turn_limit`` option set to match), and the fraction of games won
   before the cap is printed.
   Turns: a "turn" is one player's turn after the setup placements, and the turn in which the game is
   won is not counted, on both sides. boardzero: ``G_TURN`` (completed turns after setup). catanatron:
   ``state.num_turns`` minus the 2*(players-1) seat changes it also counts during the setup round.
   The engines split decisions differently (boardzero discards card by card and chooses the robber's
   hex and the victim in two steps; catanatron discards in one action that draws the cards at random
   and moves the robber and names the victim in one action), so random play is not move-for-move
   the same game, which is why the mean turns per game are printed beside the games/s.
2. The batched interface: ``BatchedCatan`` steps B games at once; each step chooses one random legal
   action per game from the legal masks (a small compiled sampler standing in for a policy), applies
   it, resolves chance and encodes the flat observation of the seat to move. Reported as
   policy-steps/s = B * steps / seconds (observation encoding on). All B games start together and a
   random game lasts ~1300 steps, so in a short run few games end: the refill of a finished row (a
   new board, ~0.2 ms in Python) is then mostly outside the timing; spread over a game it is ~0.1 us
   per step.
3. ``clone()``: ``CatanState.clone()`` (Python object plus one array copy) and the raw engine array
   copy ``s.copy()``, in microseconds of CPU time per call (best of several timeit repeats).
Rates are given per wall-clock second and per second of this process's CPU time; on a machine busy
with other work the second is what one free core would give.

Usage: ``python bench/catan_engine.py [--games N] [--catanatron-games M] [--players 4] [--quick] [--json]``
(``boardzero bench catan_engine --quick`` from the CLI). With ``--json``, one JSON object per line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import timeit

import numpy as np
from numba import njit

from boardzero.games.catan import BatchedCatan, Catan, CatanOptions, engine as E, random_playout

TURN_CAP = 1000  # catanatron's TURNS_LIMIT; boardzero's turn_limit is set to the same
INSTALL_HINT = (
    "catanatron is not installed; install it with `pip install catanatron==3.2.1` "
    "(or `make bench`, which installs the 'bench' extra) to run the side-by-side comparison"
)


# ----------------------------------------------------------------------------- random games
class Tally:
    """Accumulated time (wall clock and this process's CPU time), turns and outcomes of one engine's games."""

    def __init__(self) -> None:
        self.seconds, self.cpu_seconds, self.playing, self.turns, self.won = 0.0, 0.0, 0.0, [], []

    def timing(self):
        """``with tally.timing():`` adds the block's wall-clock and CPU seconds."""
        return _Timing(self)

    def row(self, engine: str, players: int) -> dict:
        games = len(self.turns)
        row = {
            "benchmark": "random_games",
            "engine": engine,
            "players": players,
            "games": games,
            "seconds": round(self.seconds, 4),
            "games_per_s": games / self.seconds,
            "cpu_games_per_s": games / self.cpu_seconds,  # steadier than wall clock on a loaded machine
            "turns_per_game": float(np.mean(self.turns)),
            "won_before_cap": float(np.mean(self.won)),
        }
        if self.playing:
            row["playout_only_games_per_s"] = games / self.playing  # without creating the random boards
        return row


class _Timing:
    def __init__(self, tally: Tally) -> None:
        self.tally = tally

    def __enter__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def __exit__(self, *exc) -> None:
        self.tally.seconds += time.perf_counter() - self.wall
        self.tally.cpu_seconds += time.process_time() - self.cpu


def play_boardzero(game: Catan, seeds: range, tally: Tally) -> None:
    with tally.timing():
        for seed in seeds:
            s = game.initial_array(seed)
            begin = time.perf_counter()
            random_playout(s, seed)
            tally.playing += time.perf_counter() - begin
            tally.turns.append(int(s[E.G_TURN]))
            tally.won.append(bool(s[E.G_WINNER] >= 0))


def catanatron_available() -> bool:
    try:
        import catanatron  # noqa: F401
    except ImportError:
        return False
    return True


def play_catanatron(players: int, seeds: range, tally: Tally) -> None:
    from catanatron import Color, Game, RandomPlayer

    colors = list(Color)[:players]
    saved = random.getstate()
    with tally.timing():
        for seed in seeds:
            match = Game([RandomPlayer(c) for c in colors], seed=seed + 1, vps_to_win=10)  # seed 0 means "random"
            winner = match.play()
            tally.turns.append(match.state.num_turns - 2 * (players - 1))
            tally.won.append(winner is not None)
    random.setstate(saved)  # catanatron seeds the global `random` module


def compare(
    players: int, games: int, catanatron_games: int, rounds: int, seed: int = 0, *, trading: bool = False
) -> list[dict]:
    """Both engines' random games, interleaved in ``rounds`` chunks so a change of machine load hits both."""
    game = Catan(CatanOptions(players=players, turn_limit=TURN_CAP, board="random", trading=trading))
    random_playout(game.initial_array(seed), seed)  # compile (or load the numba cache) outside the timing
    ours, theirs = Tally(), Tally() if catanatron_games > 0 else None
    rounds = max(1, min(rounds, games, catanatron_games or games))
    for k in range(rounds):
        play_boardzero(game, range(seed + k * games // rounds, seed + (k + 1) * games // rounds), ours)
        if theirs is not None:
            chunk = range(seed + k * catanatron_games // rounds, seed + (k + 1) * catanatron_games // rounds)
            play_catanatron(players, chunk, theirs)
    rows = [theirs.row("catanatron", players)] if theirs is not None else []
    row = ours.row("boardzero", players)
    row["ratio_vs_catanatron"] = row["games_per_s"] / rows[0]["games_per_s"] if rows else None
    row["cpu_ratio_vs_catanatron"] = row["cpu_games_per_s"] / rows[0]["cpu_games_per_s"] if rows else None
    return rows + [row]


# ----------------------------------------------------------------------------- batched stepping
@njit(cache=True)
def random_legal_actions(masks, out):
    """One uniformly random legal action per row of ``masks`` (numba's generator)."""
    for i in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            if masks[i, a]:
                count += 1
        k = np.random.randint(0, count)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


def bench_batched(players: int, batch_size: int, steps: int, seed: int = 0, *, trading: bool = False) -> dict:
    game = Catan(CatanOptions(players=players, trading=trading))
    env = BatchedCatan(game, batch_size, seed)
    masks, obs, seats = env.reset()
    actions = np.empty(batch_size, dtype=np.int64)
    for _ in range(3):  # compile / warm up
        random_legal_actions(masks, actions)
        masks, obs, seats, rewards, done = env.step(actions)
    finished = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(steps):
        random_legal_actions(masks, actions)
        masks, obs, seats, rewards, done = env.step(actions)
        finished += int(done.sum())
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {
        "benchmark": "batched",
        "engine": "boardzero",
        "players": players,
        "batch_size": batch_size,
        "steps": steps,
        "seconds": round(elapsed, 4),
        "steps_per_s": batch_size * steps / elapsed,
        "cpu_steps_per_s": batch_size * steps / cpu,
        "games_finished": finished,
        "observation_size": int(obs.shape[1]),
    }


# ----------------------------------------------------------------------------- clone
def bench_clone(players: int, seed: int = 0, *, trading: bool = False) -> dict:
    game = Catan(CatanOptions(players=players, trading=trading))
    state = game.new_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(200):  # a mid-game position with some history
        if state.is_terminal():
            break
        if state.current_player < 0:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
    array = state.s
    number = 200_000
    cpu = time.process_time  # CPU time: steady when other programs load the machine
    clone_us = min(timeit.repeat(state.clone, number=number, repeat=5, timer=cpu)) / number * 1e6
    copy_us = min(timeit.repeat(array.copy, number=number, repeat=5, timer=cpu)) / number * 1e6
    return {
        "benchmark": "clone",
        "engine": "boardzero",
        "players": players,
        "state_clone_us": clone_us,
        "array_copy_us": copy_us,
        "state_bytes": int(array.nbytes),
    }


# ----------------------------------------------------------------------------- main
def comparison_parser(description: str, *, games: int, rounds: int, players: list[int]) -> argparse.ArgumentParser:
    """The options every side-by-side Catan benchmark takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=games, help="boardzero games per player count (and loop)")
    parser.add_argument("--catanatron-games", type=int, default=40, help="catanatron games per player count")
    parser.add_argument(
        "--rounds",
        type=int,
        default=rounds,
        help="interleave the engines in this many chunks (fair under changing load)",
    )
    parser.add_argument("--players", type=int, nargs="*", default=players, help="player counts to run")
    parser.add_argument("--quick", action="store_true", help="a tiny budget (smoke test): few games and steps")
    parser.add_argument("--json", action="store_true", help="one JSON object per line instead of a table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--trading", action="store_true", help="boardzero games with player-to-player trading (catanatron's without)"
    )
    return parser


def catanatron_or_hint(as_json: bool) -> bool:
    """Whether catanatron is installed; if not, says how to install it."""
    if catanatron_available():
        return True
    print(INSTALL_HINT, file=sys.stderr if as_json else sys.stdout, flush=True)
    return False


def main(argv: list[str] | None = None) -> int:
    parser = comparison_parser(__doc__.splitlines()[0], games=2000, rounds=8, players=[2, 3, 4])
    parser.add_argument(
        "--batch-size",
        type=int,
        nargs="*",
        default=[64, 1024],
        help="games stepped at once (batched benchmark; one line per size)",
    )
    parser.add_argument("--steps", type=int, default=300, help="batched steps to time")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.catanatron_games = min(args.games, 50), min(args.catanatron_games, 2)
        args.batch_size, args.steps = [min(b, 64) for b in args.batch_size[:1]], min(args.steps, 20)

    emit = json_line if args.json else _text_line
    have_catanatron = catanatron_or_hint(args.json)
    for players in args.players:
        for row in compare(
            players,
            args.games,
            args.catanatron_games if have_catanatron else 0,
            args.rounds,
            args.seed,
            trading=args.trading,
        ):
            emit(row)
    for batch_size in args.batch_size:
        steps = max(args.steps, 20_000 // batch_size)
        emit(bench_batched(max(args.players), batch_size, steps, args.seed, trading=args.trading))
    emit(bench_clone(max(args.players), args.seed, trading=args.trading))
    return 0


def json_line(row: dict) -> None:
    print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)


def _text_line(row: dict) -> None:
    kind = row["benchmark"]
    if kind == "random_games":
        ratio, cpu_ratio = row.get("ratio_vs_catanatron"), row.get("cpu_ratio_vs_catanatron")
        extra = f"  {ratio:7.1f}x catanatron (CPU time: {cpu_ratio:.1f}x)" if ratio else ""
        print(
            f"{row['engine']:>11} {row['players']}p: {row['games_per_s']:10.1f} games/s "
            f"({row['cpu_games_per_s']:8.1f} per CPU second)  "
            f"{row['turns_per_game']:6.1f} turns/game  ({row['games']} games, "
            f"{100 * row['won_before_cap']:.0f}% won before {TURN_CAP} turns){extra}",
            flush=True,
        )
    elif kind == "batched":
        print(
            f"    batched {row['players']}p: {row['steps_per_s']:10.0f} policy-steps/s "
            f"({row['cpu_steps_per_s']:8.0f} per CPU second)  (batch {row['batch_size']}, "
            f"{row['steps']} steps, random legal actions from the masks, observations encoded, one core)",
            flush=True,
        )
    else:
        print(
            f"      clone {row['players']}p: CatanState.clone() {row['state_clone_us']:.2f} us, "
            f"raw array copy {row['array_copy_us']:.2f} us of CPU time ({row['state_bytes']} bytes)",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
