"""`boardzero play catan`: a person can play a whole game in the terminal against the bots.

The "person" is a script that reads the listing of legal moves and answers with
the first one listed (typing "roll" by name whenever the dice can be rolled).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import select
import subprocess
import sys

from boardzero.cli.play import PROMPT, MovePrompt, Narrator, drive, result_line, wants_color
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.games.catan import action_id, testing as T
from boardzero.play.session import HUMAN, GameSession

LISTED = re.compile(r"^\s+(\d+)\s+(\S.*)$")


def scripted_answer(screen: str) -> str:
    """The first move of the last 'legal moves' listing on the screen ("roll" by name when listed)."""
    listing = screen[screen.rindex("legal moves:") :]
    moves = [m.groups() for m in map(LISTED.match, listing.splitlines()[1:]) if m]
    assert moves, f"no moves listed in:\n{listing[-500:]}"
    if any(name == "roll dice" for _, name in moves):
        return "roll"
    return moves[0][0]


class ScriptedPerson(io.StringIO):
    """Standard input that answers from what was written to ``screen`` so far."""

    def __init__(self, screen: io.StringIO):
        super().__init__()
        self.screen, self.answers = screen, 0

    def readline(self, *args) -> str:
        self.answers += 1
        return scripted_answer(self.screen.getvalue()[-20000:]) + "\n"


def test_a_person_plays_a_whole_two_player_game_against_the_heuristic_through_the_session():
    game = make("catan", players=2)
    screen = io.StringIO()
    person = ScriptedPerson(screen)
    session = GameSession(game, [HUMAN, "heuristic"], seed=5)
    final = drive(session, MovePrompt(person, screen), Narrator(session.seats, 0, None, 0.0))
    assert final is session.state and session.pending().kind == "over"
    assert final.winner >= 0  # played to a finish, not stopped by the turn limit
    assert person.answers > 10  # forced moves (a roll with no card to play first, ...) are not asked
    assert "is not a legal move" not in screen.getvalue()
    assert result_line(final, 0).startswith("result: ")


def answer_prompts(proc: subprocess.Popen, limit: int = 5000) -> tuple[str, int]:
    """Answer every prompt of a running `boardzero play` until it exits; returns (all output, answers)."""
    out, answers = "", 0
    fd = proc.stdout.fileno()
    decoder = codecs.getincrementaldecoder("utf-8")()
    while True:
        ready, _, _ = select.select([fd], [], [], 120)
        assert ready, f"no output for 120 s; last output:\n{out[-2000:]}"
        raw = os.read(fd, 1 << 16)
        if not raw:
            proc.wait(timeout=60)
            return out, answers
        out += decoder.decode(raw)
        if out.endswith(PROMPT):
            answers += 1
            assert answers < limit, "the game did not end"
            proc.stdin.write(scripted_answer(out[-20000:]) + "\n")
            proc.stdin.flush()


def test_boardzero_play_catan_to_the_end_through_the_command():
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "boardzero.cli.main", "play", "catan", "--seed", "4", "--against", "heuristic"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        out, answers = answer_prompts(proc)
    finally:
        proc.kill()
    assert proc.returncode == 0, out[-3000:]
    assert "seat 1: heuristic, seat 2: heuristic, seat 3: heuristic" in out
    assert "seat 1 (heuristic) plays:" in out
    assert "result: " in out and answers > 10
    assert "Traceback" not in out


def discard_position():
    """Seat 0 holds 10 cards and rolls a 7: five discards in a row."""
    state = T.scenario(players=2)
    T.give(state, 0, wood=5, brick=5)
    T.set_turn(state, 0, "pre_roll")
    state.apply(action_id("roll"))
    state.apply(7)
    return state


def test_the_board_is_drawn_when_it_changed_not_before_every_decision():
    state = discard_position()
    screen = io.StringIO()
    prompt = MovePrompt(io.StringIO("discard wood\n" * 3 + "b\ndiscard brick\n" * 2), screen, color=False)
    for _ in range(5):
        state.apply(prompt.ask(SeatView(state, 0)))
    out = screen.getvalue()
    assert out.count("#18") == 3  # the board: once at first, then only when asked ('b', twice)
    assert out.count("hand: ") == 5 + 2  # the own hand changes with every discard
    assert T.hand(state, 0) == {"wood": 2, "brick": 3, "sheep": 0, "wheat": 0, "ore": 0}
    assert "\x1b[" not in out


def test_colour_where_asked():
    state = discard_position()
    screen = io.StringIO()
    MovePrompt(io.StringIO("discard wood\n"), screen, color=True).ask(SeatView(state, 0))
    assert "\x1b[31m" in screen.getvalue()  # seat 0 in red
    assert not wants_color(io.StringIO())


def test_a_forced_move_is_played_without_asking():
    state = T.scenario(players=2)
    T.set_turn(state, 0, "pre_roll")  # no card to play: rolling is the only move
    prompt = MovePrompt(io.StringIO(""), io.StringIO(), color=False)
    assert prompt.ask(SeatView(state, 0)) == action_id("roll")


class TradingPerson(io.StringIO):
    """Standard input that types trade moves by name: every offer it may make (first listed), accept, the
    first partner; otherwise the first legal move by number. ``view`` is the position being asked about."""

    def __init__(self):
        super().__init__()
        self.view, self.typed = None, []

    def readline(self, *args) -> str:
        legal = [int(a) for a in self.view.legal_actions]
        for lo, hi in ((364, 365), (366, 370), (244, 364)):
            choice = next((a for a in legal if lo <= a < hi), None)
            if choice is not None:
                name = self.view.action_name(choice)
                self.typed.append((name, choice))
                return name + "\n"
        return str(legal[0]) + "\n"


class TypingPrompt(MovePrompt):
    """The terminal's prompt, showing the typing person the position it asks about."""

    def ask(self, view: SeatView) -> int:
        self.stdin.view = view
        return super().ask(view)


def test_trade_moves_are_typed_by_name_in_a_game_with_trading():
    game = make("catan", players=3, trading=True, turn_limit=40)
    person, screen = TradingPerson(), io.StringIO()
    session = GameSession(game, [HUMAN, "heuristic", "heuristic"], seed=2)
    played = []
    drive(session, TypingPrompt(person, screen, color=False), lambda state, player, action: played.append(action))
    kinds = {name.split()[0] for name, _ in person.typed}
    assert {"offer", "accept"} <= kinds, kinds
    assert all(action in played for _, action in person.typed)  # each typed name became that very move
    assert "is not a legal move" not in screen.getvalue()
