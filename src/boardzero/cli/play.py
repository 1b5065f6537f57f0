"""``boardzero play``: a person plays a game in the terminal against agents (or watches agents play)."""

from __future__ import annotations

import shutil
import sys
import time
from typing import Optional, TextIO

import numpy as np
import typer

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.cli.options import parse_game_options
from boardzero.core.api import CHANCE, State
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.eval.match import play_game

# the bundled agent of each game: its shipped trained model, or Catan's hand-written bot
DEFAULT_OPPONENT = {"catan": "heuristic", "connect4": "best", "tictactoe": "best", "kuhn_poker": "best"}
FALLBACK_OPPONENT = "mcts:sims=400"
LIST_LIMIT = 60  # legal moves listed in full up to this many
COLUMNS_FROM = 12  # longer listings are laid out in columns (Catan's 54 setup spots fit one screen)


class QuitGame(Exception):
    """The person asked to leave the game (or standard input ended)."""


class HumanAgent(Agent):
    """Asks a person for each move; bad input is answered with a message and a new prompt."""

    spec = "human"

    def __init__(self, game, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout):
        self.game = game
        self.stdin, self.stdout = stdin, stdout

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        self._say(view.render())
        legal = [int(a) for a in view.legal_actions]
        self._list_moves(view, legal)
        while True:
            self.stdout.write("your move (number or name; '?' lists moves, 'q' quits): ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise QuitGame("input ended")
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise QuitGame("you left the game")
            if text in ("?", "help", ""):
                self._list_moves(view, legal, full=True)
                continue
            choice, problem = parse_move(text, legal, view.action_name)
            if choice is not None:
                return choice
            self._say(problem)

    def _list_moves(self, view: SeatView, legal: list[int], full: bool = False) -> None:
        shown = legal if full or len(legal) <= LIST_LIMIT else legal[:LIST_LIMIT]
        self._say("legal moves:\n" + in_columns([f"{a:>4}  {view.action_name(a)}" for a in shown]))
        if len(shown) < len(legal):
            self._say(f"  ... {len(legal) - len(shown)} more ('?' lists all)")

    def _say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()


def in_columns(entries: list[str], width: int | None = None) -> str:
    """One entry per line when few; otherwise as many columns as fit the terminal, read down each column."""
    if len(entries) <= COLUMNS_FROM:
        return "\n".join("  " + e for e in entries)
    width = width or shutil.get_terminal_size((100, 24)).columns
    cell = max(map(len, entries)) + 3
    columns = max(1, min(4, (width - 2) // cell))
    rows = -(-len(entries) // columns)
    return "\n".join("  " + "".join(entries[c * rows + r].ljust(cell) for c in range(columns)
                                     if c * rows + r < len(entries)).rstrip() for r in range(rows))


def parse_move(text: str, legal: list[int], name_of) -> tuple[int | None, str]:
    """Match typed text to a legal action id: the id itself, or a (unique prefix of a) move name."""
    if text.lstrip("-").isdigit():
        action = int(text)
        if action in legal:
            return action, ""
        return None, f"{action} is not a legal move now; type one of the numbers listed ('?' lists them)"
    names = {a: name_of(a).lower() for a in legal}
    wanted = text.lower()
    exact = [a for a, n in names.items() if n == wanted]
    matches = exact or [a for a, n in names.items() if n.startswith(wanted)]
    if len(matches) == 1:
        return matches[0], ""
    if matches:
        return None, f"{text!r} matches {len(matches)} moves; type more of the name or the number"
    return None, f"{text!r} is not a legal move; type a number from the list, or '?' to see it again"


def play(
    game: str = typer.Argument("connect4", help="Game name (see `boardzero games`)."),
    against: Optional[list[str]] = typer.Option(None, "--against", "-a",
                                                help="Agent spec for the other seats (repeatable; the last fills the rest)."),
    seat: int = typer.Option(0, "--seat", "-s", help="Your seat (0 moves first)."),
    watch: bool = typer.Option(False, "--watch", help="Watch agents play every seat instead of playing."),
    delay: float = typer.Option(0.0, "--delay", help="Seconds to pause after each move when watching."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the setup and the dice."),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="Game option KEY=VALUE (repeatable)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Number of players, where the game has that option."),
) -> None:
    """Play a game in the terminal against agents, e.g. `boardzero play connect4 --against mcts:sims=400`."""
    the_game = make(game, **parse_game_options(option, players))
    specs = against or [DEFAULT_OPPONENT.get(game, FALLBACK_OPPONENT)]
    if not 0 <= seat < the_game.num_players:
        raise ConfigError("--seat", f"must be 0..{the_game.num_players - 1} for {game}, got {seat}")
    others = [specs[min(i, len(specs) - 1)] for i in range(the_game.num_players - (0 if watch else 1))]
    agents: list[Agent] = [make_agent(spec, the_game) for spec in others]
    human_seat = None if watch else seat
    if human_seat is not None:
        agents.insert(seat, HumanAgent(the_game))
    rng = np.random.default_rng(seed)
    seats = ", ".join(f"seat {i}: {a.spec}" for i, a in enumerate(agents))
    print(f"{the_game.name} — {seats}")
    try:
        final = play_game(the_game, agents, rng, seed=seed, on_step=_narrator(agents, human_seat, watch, delay))
    except QuitGame as exc:
        print(f"game over: {exc}")
        return
    print(final.render())
    print(result_line(final, human_seat))


def _narrator(agents: list[Agent], human_seat: int | None, watch: bool, delay: float):
    last_player = [None]  # when watching, draw the board once per turn, not after every step

    def narrate(state: State, player: int, action: int) -> None:
        if player == CHANCE:
            viewer = human_seat if human_seat is not None else None
            hidden = viewer is not None and _outcome_hidden(state, viewer, action)
            print(f"chance: {'(hidden from you)' if hidden else state.action_name(action)}")
            return
        if player == human_seat:
            return
        if watch and player != last_player[0]:
            print(state.render())
        last_player[0] = player
        print(f"seat {player} ({agents[player].spec}) plays: {state.action_name(action)}")
        if delay:
            time.sleep(delay)

    return narrate


def _outcome_hidden(state: State, seat: int, outcome: int) -> bool:
    probe = state.clone()
    probe.apply(outcome)
    return probe.public_history(seat)[-1] is None


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
