"""Game records: one JSON object per line, each game replayable exactly from its setup and actions.

A record is ``State.to_record()`` (game, options, setup seed, every action id including chance outcomes,
returns) plus ``agents``: the agent of each seat, and where the game came from (``index`` in an arena,
``lineup`` and ``game`` in a tournament).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from boardzero.core.api import Game, State
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import make
from boardzero.eval.match import PlayedGame


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
    record: dict[str, Any], game: Game | None = None, *, on_step: Callable[[State, int, int], None] | None = None
) -> PlayedGame:
    """Replay a record to its end: the final position and every (player, action) step; ``on_step(position
    before, player, action)`` is called before each step, as in ``play_game``. A record that does not replay
    (a foreign game, an illegal action, stored returns that differ from the replayed ones) is a ConfigError."""
    game = game or record_game(record)
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, int) for a in actions):
        raise ConfigError("record.actions", "expected a list of integer action ids")
    state = game.state_from_record(dict(record, actions=[]))  # checks the game, its options and the setup
    moves: list[tuple[int, int]] = []
    for number, action in enumerate(actions, 1):
        player = state.current_player
        if on_step is not None:
            on_step(state, player, action)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise ConfigError("record.actions", f"step {number} does not replay: {exc}") from None
        moves.append((player, action))
    stored = record.get("returns")
    if stored is not None and [float(r) for r in stored] != state.returns().tolist():
        raise ConfigError(
            "record.returns", f"stored returns {stored} differ from the replayed {state.returns().tolist()}"
        )
    return PlayedGame(state, moves)
