"""``boardzero replay``: a recorded game move by move in the terminal: the board, who did what, the dice.

Interactive when standard input is a terminal (step forward and back, jump, run at a chosen speed);
``--speed`` runs through the game at that many steps per second; ``--print`` writes every step (and with
``--boards`` the board after each) without pausing, for scripts and tests.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional, TextIO

import typer

from boardzero.core.api import CHANCE, State
from boardzero.core.errors import ConfigError
from boardzero.eval.figures import winner_of
from boardzero.play.records import read_records, record_game, replay as replay_record

CLEAR = "\x1b[2J\x1b[H"
RECENT = 10  # steps listed under the board
HELP = (
    "enter/n: next step   b: back   t: next turn of another player   NUMBER: go to step   "
    "s/e: start/end   r [STEPS/S]: run to the end   q: quit"
)


class Replay:
    """A recorded game, replayed: every position, and a line saying who did what at each step."""

    def __init__(self, record: dict):
        self.record = record
        self.game = record_game(record)
        self.positions: list[State] = []
        self.lines: list[str] = []
        self.players: list[int] = []
        self.final = replay_record(record, self.game, on_step=self._keep).state
        self.positions.append(self.final)

    def _keep(self, state: State, player: int, action: int) -> None:
        self.positions.append(state.clone())
        self.players.append(player)
        who = "chance" if player == CHANCE else f"seat {player} ({self.seats_of(player)})"
        self.lines.append(f"{len(self.lines) + 1:>5}. {who}: {state.action_name(action)}")

    def seats_of(self, seat: int) -> str:
        names = self.record.get("names") or self.record.get("agents")
        return names[seat] if names and seat < len(names) else "?"

    @property
    def steps(self) -> int:
        return len(self.lines)

    def header(self) -> str:
        options = ", ".join(f"{k}={v}" for k, v in self.game.options_dict().items())
        seats = ", ".join(f"seat {s}: {self.seats_of(s)}" for s in range(self.game.num_players))
        return f"{self.game.name}{f' ({options})' if options else ''} — {seats} — {self.steps} steps"

    def result(self) -> str:
        returns = self.final.returns().tolist()
        winner = winner_of(returns)
        lead = f"seat {winner} ({self.seats_of(winner)}) wins" if winner is not None else "no single winner"
        return f"result: {lead}; returns {returns}"

    def screen(self, step: int) -> str:
        """The position after ``step`` steps, with the steps that led to it."""
        recent = self.lines[max(0, step - RECENT) : step]
        status = self.result() if step == self.steps else f"step {step} of {self.steps}"
        return "\n".join([self.header(), self.positions[step].render(), *recent, status])

    def next_turn(self, step: int) -> int:
        """The first step after ``step`` at which a different player than the last one decides."""
        last = next((p for p in reversed(self.players[:step]) if p != CHANCE), None)
        for index in range(step, self.steps):
            if self.players[index] not in (CHANCE, last):
                return index
        return self.steps


def replay(
    file: Path = typer.Argument(..., help="Records file (JSON lines), from --records of arena or tournament."),
    game: int = typer.Option(0, "--game", "-g", help="Which game of the file (0 = the first)."),
    list_games: bool = typer.Option(False, "--list", help="List the games in the file and stop."),
    speed: Optional[float] = typer.Option(None, "--speed", help="Run through the game at this many steps per second."),
    print_steps: bool = typer.Option(False, "--print", help="Print every step without pausing (no terminal needed)."),
    boards: bool = typer.Option(False, "--boards", help="With --print: the board after every step too."),
) -> None:
    """Show a recorded game move by move: the board, who did what, the dice; step forward and back, or run."""
    records = read_records(file)
    if list_games:
        for index, record in enumerate(records):
            listed = Replay(record)
            print(f"{index:>4}  {listed.header()}  {listed.result()}")
        return
    if not 0 <= game < len(records):
        raise ConfigError("--game", f"{file} holds games 0..{len(records) - 1}, not {game}")
    shown = Replay(records[game])
    if print_steps:
        print_all(shown, boards, sys.stdout)
    elif speed is not None:
        run(shown, 0, speed, sys.stdout)
    elif sys.stdin.isatty():
        interactive(shown, sys.stdin, sys.stdout)
    else:
        print_all(shown, boards, sys.stdout)


def print_all(shown: Replay, boards: bool, out: TextIO) -> None:
    out.write(shown.header() + "\n" + shown.positions[0].render() + "\n")
    for step, line in enumerate(shown.lines, 1):
        out.write(line + "\n")
        if boards:
            out.write(shown.positions[step].render() + "\n")
    out.write(shown.positions[-1].render() + "\n" + shown.result() + "\n")


def run(shown: Replay, step: int, speed: float, out: TextIO) -> int:
    if speed <= 0:
        raise ConfigError("--speed", f"must be more than 0 steps per second, got {speed}")
    while step < shown.steps:
        step += 1
        out.write(CLEAR + shown.screen(step) + "\n")
        out.flush()
        time.sleep(1.0 / speed)
    return step


def interactive(shown: Replay, stdin: TextIO, out: TextIO) -> None:
    step = 0
    while True:
        out.write(CLEAR + shown.screen(step) + "\n" + HELP + "\n> ")
        out.flush()
        line = stdin.readline()
        if not line:
            return
        command, _, argument = line.strip().lower().partition(" ")
        if command in ("q", "quit"):
            return
        step = _move(shown, step, command, argument, out)


def _move(shown: Replay, step: int, command: str, argument: str, out: TextIO) -> int:
    if command in ("", "n"):
        return min(step + 1, shown.steps)
    if command == "b":
        return max(step - 1, 0)
    if command == "t":
        return shown.next_turn(step)
    if command == "s":
        return 0
    if command == "e":
        return shown.steps
    if command.isdigit():
        return min(int(command), shown.steps)
    if command == "r":
        try:
            return run(shown, step, float(argument or 5), out)
        except (ValueError, ConfigError):
            return step
    return step
