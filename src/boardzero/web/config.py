"""Settings of the web server (``boardzero serve``), one line of documentation per field."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from boardzero.core.errors import ConfigError
from boardzero.core.registry import option


def default_db_path() -> Path:
    """Where games are kept unless told otherwise: ``$XDG_DATA_HOME/boardzero/games.sqlite``."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "boardzero" / "games.sqlite"


@dataclasses.dataclass
class ServerConfig:
    host: str = option("127.0.0.1", "address to listen on (127.0.0.1: this machine only)")
    port: int = option(8000, "TCP port")
    db: Path = option(None, "SQLite file that keeps every game (default: $XDG_DATA_HOME/boardzero/games.sqlite)")
    max_active_games: int = option(32, "games in progress at once; creating one more is refused")
    max_body_bytes: int = option(16_384, "largest request body accepted")
    bot_delay: float = option(0.6, "default seconds an agent waits before each of its moves (adjustable per game)")
    max_delay: float = option(10.0, "largest delay a client may set")
    opponents: dict = option(
        None,
        "default agent spec per game offered on the page, e.g. {'catan': 'heuristic'}; "
        "otherwise the shipped model, else heuristic, else mcts",
    )
    hint_agent: dict = option(
        None,
        "agent spec per game for hints ('*' for any game); otherwise the shipped "
        "model, else mcts:sims=200; {'*': 'off'} turns hints off",
    )
    hint_top: int = option(3, "moves listed by a hint")
    workers: int = option(2, "worker processes that compute agents' moves and hints")
    records: list = option(None, "JSON-lines files of game records offered for replay")
    idle_minutes: float = option(
        60.0, "a live game with no move for this long ends as expired (checked every minute and at start)"
    )
    max_sims: int = option(
        5000, "most simulations a requested agent may search per move (sims, opening_sims; sims x rollouts for mcts)"
    )
    max_depth: int = option(4, "most decisions deep a requested agent may plan (depth, prior_depth)")
    max_width: int = option(64, "most positions a requested agent may keep per planning step (width)")
    move_seconds: float = option(
        60.0,
        "longest an agent may think about one move (or a hint); past it the move is "
        "stopped and a random legal move is played",
    )
    models: list = option(None, "directories (besides the shipped models) agents named by a path may load from")

    def __post_init__(self):
        self.db = Path(self.db) if self.db else default_db_path()
        self.opponents = dict(self.opponents or {})
        self.hint_agent = dict(self.hint_agent or {})
        self.records = [Path(p) for p in self.records or []]
        self.models = [Path(p) for p in self.models or []]
        for folder in self.models:
            if not folder.is_dir():
                raise ConfigError("models", f"{folder} is not a directory")
        if not 0 < self.port < 65536:
            raise ConfigError("port", f"must be 1..65535, got {self.port}")
        for name in ("max_active_games", "max_body_bytes", "workers", "hint_top", "max_sims", "max_depth", "max_width"):
            if getattr(self, name) < 1:
                raise ConfigError(name, f"must be at least 1, got {getattr(self, name)}")
        for name in ("idle_minutes", "move_seconds"):
            if not getattr(self, name) > 0:  # not nan either
                raise ConfigError(name, f"must be above 0, got {getattr(self, name)}")
        if not 0 <= self.bot_delay <= self.max_delay:
            raise ConfigError("bot_delay", f"must be 0..max_delay ({self.max_delay}), got {self.bot_delay}")

    def hint_spec(self, game: str) -> str | None:
        """The hint agent asked for ``game`` ('' for the default chain, None when hints are off)."""
        spec = self.hint_agent.get(game, self.hint_agent.get("*", ""))
        return None if spec == "off" else spec
