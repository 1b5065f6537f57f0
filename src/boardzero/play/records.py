"""Game records: one JSON object per line, each game replayable exactly from its setup and actions.

A record is ``State.to_record()`` (game, options, setup seed, every action id including chance outcomes,
returns) plus ``agents``: the agent of each seat, and where the game came from (``index`` in an arena,
``lineup`` and ``game`` in a tournament); a web game's record has ``seats``.

``replay`` is the one way a record is played back, for everyone: ``boardzero replay``, the web server
reviving a stored game or showing a record, an agent worker catching up with a game, and the figures of a
records file. It rebuilds the game's ``GameSession`` and applies every action through it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from boardzero.core.api import Game, State
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import make
from boardzero.play.session import GameSession


class RecordWriter:
    """Appends records to a JSON-lines file, one flushed line per game (a killed run keeps every full line)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def numbered_records(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) for every record in a JSON-lines file; a line may also hold an object with the
    record under ``record``. A line that is not a game record is a ConfigError naming the file and line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError("records", f"cannot read {path}: {exc.strerror or exc}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError("records", f"{path} line {number} is not JSON ({exc.msg})") from None
        record = item.get("record", item) if isinstance(item, dict) else None
        if not isinstance(record, dict) or "actions" not in record or "game" not in record:
            raise ConfigError("records", f"{path} line {number} is not a game record (needs 'game' and 'actions')")
        yield number, record


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """Every record in a JSON-lines file (``numbered_records`` without the line numbers)."""
    return [record for _, record in numbered_records(path)]


def record_game(record: dict[str, Any]) -> Game:
    """The game (with its options) a record was played in."""
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise ConfigError("record.options", f"expected an object, got {options!r}")
    return make(str(record["game"]), **options)


def replay(
    record: dict[str, Any],
    game: Game | None = None,
    *,
    on_step: Callable[[State, int, int], None] | None = None,
    with_agents: bool = False,
    keep_log: bool = True,
) -> GameSession:
    """Replay a record to its end: the game's session after every action (its ``state``, ``moves`` and, with
    ``keep_log``, its log). ``on_step(position before, player, action)`` is called before each step;
    ``with_agents`` builds the agents of the record's ``seats`` (specs) so the session can go on playing.
    A record that does not replay (a foreign game, an illegal action, stored returns that differ from the
    replayed ones) is a ConfigError."""
    game = game or record_game(record)
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, int) for a in actions):
        raise ConfigError("record.actions", "expected a list of integer action ids")
    game.state_from_record(dict(record, actions=[]))  # checks the game, its options and the setup
    seats = record.get("seats") or [f"seat {i}" for i in range(game.num_players)]
    session = GameSession(game, seats, seed=record.get("seed"), with_agents=with_agents, keep_log=keep_log)
    for number, action in enumerate(actions, 1):
        if on_step is not None:
            on_step(session.state, session.state.current_player, action)
        try:
            session.apply(action)
        except IllegalActionError as exc:
            raise ConfigError("record.actions", f"step {number} does not replay: {exc}") from None
    stored = record.get("returns")
    final = session.state.returns().tolist()
    if stored is not None and [float(r) for r in stored] != final:
        raise ConfigError("record.returns", f"stored returns {stored} differ from the replayed {final}")
    return session
