"""SQLite store of the web server's games: one row per game, one row per action, written as it happens.

A game is its setup (game name, options, seed, seat specs) plus its action
list, so a stored game replays exactly. Each action is committed before the
server answers, so a restart loses nothing. Seat tokens are kept only as
SHA-256 hashes.

A game's ``status`` says whether it goes on (``live``) or how it ended:
``finished`` (played out), ``resigned`` (no person left at the table),
``abandoned`` (its creator ended it) or ``expired`` (idle too long). The
schema carries a version (``PRAGMA user_version``); opening an older file
migrates it in place without touching a game's setup or actions.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from boardzero.core.errors import ConfigError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,          -- JSON object of game options
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,            -- JSON list: 'human' or an agent spec per seat
    token_hashes TEXT NOT NULL,     -- JSON object: seat number or 'host' -> sha256 hex
    delay REAL NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    moves INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0,
    returns TEXT,                   -- JSON list once over
    status TEXT NOT NULL DEFAULT 'live'  -- live, finished, resigned, abandoned or expired
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"""
SCHEMA_VERSION = 1  # 0: before ``status`` (a game had only ``over``)

LIVE = "live"
ENDINGS = ("finished", "resigned", "abandoned", "expired")  # how a game may end
STATUSES = (LIVE, *ENDINGS)


def _migrate_0_to_1(db: sqlite3.Connection) -> None:
    """Add ``status``: finished where ``over`` was set, live otherwise."""
    columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
    if "status" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'live'")
    db.execute("UPDATE games SET status = 'finished' WHERE over = 1")


MIGRATIONS = {0: _migrate_0_to_1}  # from version -> the step to the next


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict
    seed: int
    seats: list[str]
    token_hashes: dict[str, str]
    delay: float
    created: float
    updated: float
    moves: int
    over: bool
    returns: list[float] | None
    status: str = LIVE
    actions: list[int] | None = None  # filled by ``load``

    def summary(self) -> dict:
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "moves": self.moves,
            "over": self.over,
            "status": self.status,
            "returns": self.returns,
            "created": self.created,
            "updated": self.updated,
        }


class GameStore:
    """Thread-safe access to one SQLite file (one connection, one lock; WAL journal)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._upgrade()

    def _upgrade(self) -> None:
        """Create the tables, or bring an older file to ``SCHEMA_VERSION`` in one transaction per step."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        fresh = self._db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'games'").fetchone()[0] == 0
        if fresh:
            self._db.executescript(SCHEMA)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
        if version > SCHEMA_VERSION:
            raise ConfigError(
                "db",
                f"{self.path} was written by a newer boardzero (schema {version}; this one "
                f"reads up to {SCHEMA_VERSION})",
            )
        while version < SCHEMA_VERSION:
            with self._transaction():
                MIGRATIONS[version](self._db)
                version += 1
                self._db.execute(f"PRAGMA user_version = {version}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(
        self,
        game_id: str,
        game: str,
        options: dict,
        seed: int,
        seats: list[str],
        token_hashes: dict[str, str],
        delay: float,
    ) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, game, options, seed, seats, token_hashes, delay, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    game,
                    json.dumps(options),
                    seed,
                    json.dumps(seats),
                    json.dumps(token_hashes),
                    delay,
                    now,
                    now,
                ),
            )

    def append(self, game_id: str, ply: int, action: int, *, over: bool, returns: list[float] | None) -> None:
        """Store the action at ``ply`` and the game's progress in one transaction."""
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO actions (game_id, ply, action) VALUES (?, ?, ?)", (game_id, ply, int(action)))
            self._db.execute(
                "UPDATE games SET moves = ?, over = ?, returns = ?, updated = ?, status = ? WHERE id = ?",
                (
                    ply + 1,
                    int(over),
                    json.dumps(returns) if returns is not None else None,
                    time.time(),
                    "finished" if over else LIVE,
                    game_id,
                ),
            )

    def end(self, game_id: str, status: str, returns: list[float] | None) -> bool:
        """Mark a live game ended as ``status`` (with its ``returns`` where it has a result); False (nothing
        changed) when it had already ended."""
        if status not in ENDINGS:
            raise ValueError(f"status must be one of {ENDINGS}, got {status!r}")
        with self._lock:
            changed = self._db.execute(
                "UPDATE games SET status = ?, returns = ?, updated = ? WHERE id = ? AND status = ?",
                (status, json.dumps(returns) if returns is not None else None, time.time(), game_id, LIVE),
            )
            return changed.rowcount == 1

    def set_seats(self, game_id: str, seats: list[str], token_hashes: dict[str, str]) -> None:
        """A seat changed hands (a person resigned and an agent took over)."""
        with self._lock:
            self._db.execute(
                "UPDATE games SET seats = ?, token_hashes = ?, updated = ? WHERE id = ?",
                (json.dumps(seats), json.dumps(token_hashes), time.time(), game_id),
            )

    def idle_since(self, before: float) -> list[str]:
        """Live games whose last change (creation, move, seat change) is older than ``before`` (wall clock)."""
        with self._lock:
            return [
                gid
                for (gid,) in self._db.execute("SELECT id FROM games WHERE status = ? AND updated < ?", (LIVE, before))
            ]

    def set_delay(self, game_id: str, delay: float) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET delay = ? WHERE id = ?", (delay, game_id))

    @contextlib.contextmanager
    def _transaction(self):
        self._db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _row(self, row) -> StoredGame:
        (gid, game, options, seed, seats, hashes, delay, created, updated, moves, over, returns, status) = row
        return StoredGame(
            gid,
            game,
            json.loads(options),
            seed,
            json.loads(seats),
            json.loads(hashes),
            delay,
            created,
            updated,
            moves,
            bool(over),
            json.loads(returns) if returns else None,
            status,
        )

    _COLUMNS = "id, game, options, seed, seats, token_hashes, delay, created, updated, moves, over, returns, status"

    def load(self, game_id: str) -> StoredGame | None:
        """The game with its actions, or None."""
        with self._lock:
            row = self._db.execute(f"SELECT {self._COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            actions = [
                a for (a,) in self._db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,))
            ]
        stored = self._row(row)
        stored.actions = actions
        return stored

    def games(self, *, live: bool | None = None, limit: int = 200) -> list[StoredGame]:
        """Games newest first (without actions); ``live`` filters games going on (True) or ended (False)."""
        where = "" if live is None else f"WHERE status {'=' if live else '!='} '{LIVE}'"
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._COLUMNS} FROM games {where} ORDER BY created DESC LIMIT ?", (limit,)
            ).fetchall()
        return [self._row(row) for row in rows]

    def count_live(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM games WHERE status = ?", (LIVE,)).fetchone()[0]
