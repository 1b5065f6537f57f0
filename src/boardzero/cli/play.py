"""``boardzero play``: a person plays a game in the terminal against agents (or watches agents play).

The terminal drives a ``GameSession`` as the web server does: it asks
``pending()`` who is to move, reads a person's move when it is a person's turn
(``play(seat, action)``), and lets the session choose for an agent or chance.

Seats count from 0 (seat 0 moves first). A move is typed as its number in the
list or by name (``core.moves``); the picture is redrawn part by part, only
where it changed since the person last saw it ('b' shows all of it), in colour
on a terminal; a bot that takes a while shows that it is thinking.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from typing import Optional, TextIO

import numpy as np
import typer
from rich.console import Console

from boardzero.cli.options import checked, parse_game_options
from boardzero.core.api import CHANCE, Game, State
from boardzero.core.errors import ConfigError
from boardzero.core.moves import MoveNames
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.play.session import HUMAN, OPPONENT_FALLBACKS, GameSession, agent_for

WATCH_DELAY = 0.5  # seconds after each move when watching on a terminal
LIST_LIMIT = 60  # legal moves listed in full up to this many
COLUMNS_FROM = 12  # longer listings are laid out in columns (Catan's 54 setup spots fit one screen)
PROMPT = "your move (number or name; '?' lists moves, 'b' shows the board, 'q' quits): "


def default_opponent(game: Game) -> str:
    """The agent that takes the other seats when none is asked for, as on the web page: the first of
    ``OPPONENT_FALLBACKS`` that plays ``game`` (its shipped model that fits, else Catan's bot, else plain search)."""
    return agent_for(game, None, OPPONENT_FALLBACKS)[0]


class QuitGame(Exception):
    """The person asked to leave the game (or standard input ended)."""


def wants_color(stream: TextIO) -> bool:
    """ANSI colours on a terminal, unless NO_COLOR is set or the terminal is dumb."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


class Picture:
    """Shows a position (``State.render_parts``: the board, then status parts) again only where it changed:
    the board when it changed, the status (every seat's line, so one's own hand is always in view) when any
    of it changed."""

    def __init__(self, out: TextIO, color: bool):
        self.out, self.color, self.shown = out, color, []

    def show(self, parts: list[str], everything: bool = False) -> None:
        board, status = parts[:1], parts[1:]
        text = [
            *(board if everything or board != self.shown[:1] else []),
            *(status if everything or status != self.shown[1:] else []),
        ]
        self.shown = parts
        if text:
            self.out.write("\n".join(text) + "\n")
            self.out.flush()


class MovePrompt:
    """Asks a person for a move; bad input is answered with the reason and a new prompt."""

    def __init__(self, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, *, color: bool | None = None):
        self.stdin, self.stdout = stdin, stdout
        self.picture = Picture(stdout, wants_color(stdout) if color is None else color)

    def ask(self, view: SeatView) -> int:
        """The move the person types for ``view``'s seat (a forced move without asking)."""
        self.picture.show(view.render_parts(color=self.picture.color))
        legal = [int(a) for a in view.legal_actions]
        if len(legal) == 1:  # nothing to decide (roll when no card can be played first, ...): the log says it
            return legal[0]
        self._list_moves(view, legal)
        names = MoveNames(view)
        while True:
            self.stdout.write(PROMPT)
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise QuitGame("input ended")
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise QuitGame("you left the game")
            if text.lower() in ("?", "help", ""):
                self._list_moves(view, legal, full=True)
            elif text.lower() in ("b", "board"):
                self.picture.show(view.render_parts(color=self.picture.color), everything=True)
            else:
                match = names.match(text)
                if match.action is not None:
                    return match.action
                self._say(match.message)

    def _list_moves(self, view: SeatView, legal: list[int], full: bool = False) -> None:
        shown = legal if full or len(legal) <= LIST_LIMIT else legal[:LIST_LIMIT]
        self._say("legal moves:\n" + in_columns([f"{a:>4}  {view.action_name(a)}" for a in shown]))
        if len(shown) < len(legal):
            self._say(f"  ... {len(legal) - len(shown)} more ('?' lists all)")

    def _say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()


def drive(
    session: GameSession,
    prompt: MovePrompt | None,
    narrate: Callable[[State, int, int], None],
    console: Console | None = None,
) -> State:
    """Play the session to its end: a person's seat answers ``prompt``, an agent's seat or chance is chosen
    by the session (under 'seat 1 (best) is thinking ...' when ``console`` is given). ``narrate(position
    before, player, action)`` is called before each move is applied; returns the final position."""
    while (pending := session.pending()).kind != "over":
        player = session.state.current_player
        if pending.kind == HUMAN and pending.seat is not None:
            if prompt is None:
                raise ConfigError("seats", f"seat {pending.seat} is a person's but nobody is asked for moves")
            action = prompt.ask(session.seat_view(pending.seat))
            narrate(session.state, player, action)
            session.play(pending.seat, action)
            continue
        if pending.kind == "agent" and console is not None:
            with console.status(f"seat {pending.seat} ({session.seats[player]}) is thinking ...", spinner="dots"):
                action = session.choose()
        else:
            action = session.choose()
        narrate(session.state, player, action)
        session.apply(action)
    return session.state


def in_columns(entries: list[str], width: int | None = None) -> str:
    """One entry per line when few; otherwise as many columns as fit the terminal, read down each column."""
    if len(entries) <= COLUMNS_FROM:
        return "\n".join("  " + e for e in entries)
    width = width or shutil.get_terminal_size((100, 24)).columns
    cell = max(map(len, entries)) + 3
    columns = max(1, min(4, (width - 2) // cell))
    rows = -(-len(entries) // columns)
    return "\n".join(
        "  "
        + "".join(entries[c * rows + r].ljust(cell) for c in range(columns) if c * rows + r < len(entries)).rstrip()
        for r in range(rows)
    )


def play(
    game: str = typer.Argument("connect4", help="Game name (see `boardzero games`)."),
    against: Optional[list[str]] = typer.Option(
        None,
        "--against",
        "-a",
        help="Agent spec for the other seats (repeatable; the last fills the "
        "rest; see `boardzero agents`). Default: the game's shipped "
        "model (best) where one fits, else heuristic, else "
        "mcts:sims=400.",
    ),
    seat: int = typer.Option(0, "--seat", "-s", help="Your seat; seats count from 0, seat 0 moves first."),
    watch: bool = typer.Option(False, "--watch", help="Watch agents play every seat instead of playing."),
    delay: Optional[float] = checked(
        None,
        "--delay",
        help=f"Seconds to pause after each move when watching "
        f"(default: {WATCH_DELAY} on a terminal, 0 into a pipe or file)",
        minimum=0,
    ),
    seed: Optional[int] = checked(None, "--seed", help="Seed for the setup and the dice (default: random)", minimum=0),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="Game option KEY=VALUE (repeatable)."),
    players: Optional[int] = typer.Option(
        None, "--players", "-p", help="Number of players, where the game has that option."
    ),
) -> None:
    """Play a game in the terminal against agents, e.g. `boardzero play connect4 --against mcts:sims=400`.

    Type a move's number from the list or its name; seats count from 0.
    """
    the_game = make(game, **parse_game_options(option, players))
    specs = against or [default_opponent(the_game)]
    if not 0 <= seat < the_game.num_players:
        raise ConfigError("--seat", f"must be 0..{the_game.num_players - 1} for {game}, got {seat}")
    on_terminal = sys.stdout.isatty()
    others = [specs[min(i, len(specs) - 1)] for i in range(the_game.num_players - (0 if watch else 1))]
    human_seat = None if watch else seat
    if human_seat is not None:
        others.insert(seat, HUMAN)
    session = GameSession(the_game, others, seed=int(np.random.default_rng().integers(2**31)) if seed is None else seed)
    delay = watch_delay(delay, watch, on_terminal)
    print(f"{the_game.name} — " + ", ".join(f"seat {i}: {spec}" for i, spec in enumerate(session.seats)))
    narrate = Narrator(
        session.seats, human_seat, Picture(sys.stdout, wants_color(sys.stdout)) if watch else None, delay
    )
    prompt = MovePrompt() if human_seat is not None else None
    try:
        final = drive(session, prompt, narrate, Console() if on_terminal else None)
    except QuitGame as exc:
        print(f"game over: {exc}")
        return
    print(final.render(human_seat, color=wants_color(sys.stdout)))
    print(result_line(final, human_seat))


def watch_delay(delay: float | None, watch: bool, on_terminal: bool) -> float:
    """The pause after each move: as given, else ``WATCH_DELAY`` when watching on a terminal (a person follows
    it), else none (output into a pipe or a file)."""
    if delay is not None:
        return delay
    return WATCH_DELAY if watch and on_terminal else 0.0


class Narrator:
    """The game log: one line per step, as the person's seat may know it; when watching, the picture once a turn."""

    def __init__(self, seats: list[str], human_seat: int | None, picture: Picture | None, delay: float):
        self.seats, self.human_seat, self.picture, self.delay = seats, human_seat, picture, delay
        self.last_player: int | None = None

    def __call__(self, state: State, player: int, action: int) -> None:
        line = state.describe_step(action, self.human_seat)
        if player == CHANCE:
            print(line)
            return
        if player == self.human_seat:
            forced = len(state.legal_actions()) == 1
            print(f"you play: {line}" + (" (your only move)" if forced else ""))
            return
        if self.picture is not None and player != self.last_player:
            self.picture.show(state.render_parts(color=self.picture.color))
        self.last_player = player
        print(f"seat {player} ({self.seats[player]}) plays: {line}", flush=True)
        if self.delay:
            time.sleep(self.delay)


def result_line(state: State, human_seat: int | None) -> str:
    returns = state.returns()
    top = np.flatnonzero(returns == returns.max())
    if len(top) == len(returns):
        return "result: draw"
    if human_seat is not None:
        if human_seat in top:
            return "result: you win!" if len(top) == 1 else "result: you share first place"
        return f"result: you lose (seat {', '.join(map(str, top))} first; returns {returns.tolist()})"
    return f"result: seat {', '.join(map(str, top))} first; returns {returns.tolist()}"
