"""`boardzero play` on a real terminal (a pseudo-terminal): colours, and a bot that shows it is thinking."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

from boardzero.cli.play import PROMPT, WATCH_DELAY, watch_delay


def run_on_terminal(args: list[str], answers: list[str], timeout: float = 120) -> str:
    """Run the command with a pseudo-terminal as its input and output; answer each prompt in turn."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm-256color", "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardzero.cli.main", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    out, pending = b"", list(answers)
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], timeout)
            assert ready, f"no output for {timeout} s:\n{out[-2000:]!r}"
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # the command exited and closed the terminal
                break
            if not chunk:
                break
            out += chunk
            if out.rstrip().endswith(PROMPT.strip().encode()) and pending:
                os.write(leader, (pending.pop(0) + "\n").encode())
    finally:
        proc.wait(timeout=60)
        os.close(leader)
    return out.decode(errors="replace")


def test_play_on_a_terminal_has_colours_and_shows_the_bot_thinking():
    out = run_on_terminal(["play", "connect4", "--against", "random", "--seed", "1"], ["3", "q"])
    assert "\x1b[1;31mX" in out  # the person's disc in red
    assert "seat 1 (random) is thinking" in out
    assert "seat 1 (random) plays:" in out and "game over: you left the game" in out


def test_watching_waits_on_a_terminal_but_not_into_a_pipe():
    assert watch_delay(None, watch=True, on_terminal=True) == WATCH_DELAY > 0
    assert watch_delay(None, watch=True, on_terminal=False) == 0.0
    assert watch_delay(None, watch=False, on_terminal=True) == 0.0
    assert watch_delay(0.0, watch=True, on_terminal=True) == 0.0
