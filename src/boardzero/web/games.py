"""The games a server holds: sessions in memory, kept in SQLite after every action, seats guarded by tokens.

Nothing here knows HTTP: the FastAPI layer (``app.py``) turns ``ApiError`` into
a JSON error with its status, and drives agents' moves with ``choose`` (in a
worker thread) and ``apply_automatic``. Every method that changes a game holds
the game's lock; reads hold it too, so a client never sees half a move.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from pathlib import Path

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import games, make, option_docs
from boardzero.eval.records import numbered_records
from boardzero.eval.session import (
    HINT_FALLBACKS,
    HUMAN,
    OPPONENT_FALLBACKS,
    GameSession,
    LogEntry,
    agent_for,
    win_chances,
)
from boardzero.web.config import ServerConfig
from boardzero.web.store import GameStore, StoredGame

HOST = "host"  # the token name of whoever created a game (may change its settings)
FINISHED_KEPT = 16  # finished games kept in memory for replays


class ApiError(Exception):
    """A refused request: HTTP status, a short code and a sentence that says why."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class LiveGame:
    """A game in memory: its session, token hashes, delay, and what its driver and hints need."""

    def __init__(self, stored: StoredGame, session: GameSession):
        self.id = stored.id
        self.session = session
        self.token_hashes = stored.token_hashes
        self.delay = stored.delay
        self.created = stored.created
        self.lock = threading.RLock()
        self.hint_lock = threading.Lock()
        self.last_move_at = time.monotonic()
        self.error: str | None = None  # an agent that failed: the game waits
        self.driver = None  # the asyncio task that plays agents' and chance moves
        self.hint_agent: tuple[str, Agent] | None = None
        self.hint_cache: dict[tuple[int, int], dict] = {}

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def over(self) -> bool:
        return self.session.state.is_terminal()

    def token_ok(self, name: str, token: str | None) -> bool:
        expected = self.token_hashes.get(name)
        return bool(token) and expected is not None and hmac.compare_digest(expected, _hash(token))


class GameManager:
    def __init__(self, config: ServerConfig, store: GameStore):
        self.config = config
        self.store = store
        self.live: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self._default_opponents: dict[str, str] = {}
        self.records = load_records(config.records)
        for name in config.opponents:
            self.default_opponent(name)  # a bad configured spec fails at start, naming itself
        for name, spec in config.hint_agent.items():
            if name != "*" and spec != "off":
                agent_for(make(name), spec, ())

    # ------------------------------------------------------------------ what the page offers
    def default_opponent(self, name: str) -> str:
        """The agent spec the page proposes for ``name``: the configured one, else the first of
        ``OPPONENT_FALLBACKS`` that plays it (the shipped model, the Catan bot, plain search)."""
        if name not in self._default_opponents:
            game = make(name)
            spec, _ = agent_for(game, self.config.opponents.get(name), OPPONENT_FALLBACKS)
            self._default_opponents[name] = spec
        return self._default_opponents[name]

    def meta(self) -> dict:
        catalogue = []
        for name in games():
            options = [{"name": o, "type": t, "default": d, "doc": doc} for o, t, d, doc in option_docs(name)]
            game = make(name)
            catalogue.append({"name": name, "players": game.num_players, "options": options,
                              "default_opponent": self.default_opponent(name),
                              "hints": self.config.hint_spec(name) is not None})
        return {"games": catalogue, "bot_delay": self.config.bot_delay, "max_delay": self.config.max_delay,
                "max_active_games": self.config.max_active_games, "records": len(self.records)}

    # ------------------------------------------------------------------ creating and finding games
    def create(self, name: str, options: dict, seats: list[str], seed: int | None,
               delay: float | None) -> tuple[LiveGame, dict[str, str]]:
        """A new game; returns it and the tokens (seat number or 'host' -> token), shown only now."""
        game = make(name, **options)
        delay = self.config.bot_delay if delay is None else self.check_delay(delay)
        seed = int(np.random.default_rng().integers(2**31)) if seed is None else seed
        seats = [HUMAN if spec.strip().lower() == HUMAN else spec.strip() for spec in seats]
        try:
            session = GameSession(game, seats, seed=seed)
        except CheckpointError as exc:
            raise ConfigError("seats", str(exc)) from None
        with self._lock:
            active = sum(1 for g in self.live.values() if not g.over)
            if active >= self.config.max_active_games:
                raise ApiError(429, "too_many_games", f"{active} games are in progress, the most this server "
                                                      f"holds (max_active_games); finish or wait for one")
            tokens = {str(i): secrets.token_urlsafe(18) for i, spec in enumerate(seats) if spec == HUMAN}
            tokens[HOST] = secrets.token_urlsafe(18)
            game_id = secrets.token_hex(6)
            hashes = {k: _hash(v) for k, v in tokens.items()}
            self.store.create(game_id, name, game.options_dict(), seed, seats, hashes, delay)
            stored = StoredGame(game_id, name, game.options_dict(), seed, seats, hashes, delay, time.time(),
                                time.time(), 0, False, None)
            live = LiveGame(stored, session)
            self.live[game_id] = live
        return live, tokens

    def get(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self.live.get(game_id)
        if live is not None:
            return live
        stored = self.store.load(game_id)
        if stored is None:
            raise ApiError(404, "unknown_game", f"no game {game_id!r} on this server")
        return self._revive(stored)

    def _revive(self, stored: StoredGame) -> LiveGame:
        game = make(stored.game, **stored.options)
        live = LiveGame(stored, GameSession(game, stored.seats, seed=stored.seed, actions=stored.actions))
        with self._lock:
            live = self.live.setdefault(stored.id, live)
            finished = [g for g in self.live.values() if g.over]
            for old in sorted(finished, key=lambda g: g.created)[:-FINISHED_KEPT]:
                if old is not live:
                    del self.live[old.id]
        return live

    def resume(self) -> list[LiveGame]:
        """Load every unfinished game from the store (after a restart); returns them."""
        return [self.get(stored.id) for stored in self.store.games(over=False, limit=10**6)]

    def list_games(self) -> list[dict]:
        return [stored.summary() for stored in self.store.games()]

    # ------------------------------------------------------------------ seats and tokens
    def authorize(self, live: LiveGame, seat: int | None, token: str | None) -> None:
        """Refuse unless ``seat`` is None (a spectator) or ``token`` is that person's seat token."""
        if seat is None:
            return
        self.check_seat(live, seat)
        if live.session.seats[seat] != HUMAN:
            raise ApiError(403, "not_a_person", f"seat {seat} is played by {live.session.seats[seat]}; only a "
                                                "person's seat has a token (watch without a seat instead)")
        if not token:
            raise ApiError(401, "missing_token", f"seat {seat} needs its token: send 'Authorization: Bearer TOKEN'")
        if not live.token_ok(str(seat), token):
            raise ApiError(403, "wrong_token", f"that is not seat {seat}'s token")

    def authorize_host(self, live: LiveGame, token: str | None) -> None:
        """Settings may be changed with the host token or any person's seat token."""
        if not token:
            raise ApiError(401, "missing_token",
                           "send the game's host token or a seat token as 'Authorization: Bearer TOKEN'")
        if not any(live.token_ok(name, token) for name in live.token_hashes):
            raise ApiError(403, "wrong_token", "that token belongs to no seat of this game and is not its host token")

    def check_seat(self, live: LiveGame, seat: int) -> None:
        if not 0 <= seat < live.game.num_players:
            raise ApiError(404, "unknown_seat", f"game {live.id} has seats 0..{live.game.num_players - 1}, not {seat}")

    def check_delay(self, delay: float) -> float:
        if not 0 <= delay <= self.config.max_delay:
            raise ApiError(422, "bad_delay", f"delay must be 0..{self.config.max_delay} seconds, got {delay}")
        return float(delay)

    # ------------------------------------------------------------------ reading
    def snapshot(self, live: LiveGame, seat: int | None, since: int = 0) -> dict:
        """What ``seat`` (None: a spectator) may know of the game: its public view, its legal moves when it
        is to move, and the log from ``since``."""
        with live.lock:
            session = live.session
            pending = session.pending()
            since = min(max(since, 0), session.ply)
            return {
                "id": live.id,
                "game": session.game.name,
                "seats": [{"seat": i, "player": spec, "human": spec == HUMAN} for i, spec in enumerate(session.seats)],
                "viewer": seat,
                "version": session.ply,
                "pending": {"kind": pending.kind, "seat": pending.seat},
                "over": pending.kind == "over",
                "delay": live.delay,
                "error": live.error,
                "hints": self.config.hint_spec(session.game.name) is not None,
                "view": session.view(seat),
                "legal": session.legal_moves(seat) if seat is not None else [],
                "log_from": since,
                "log": session.log_for(seat, since),
            }

    def record(self, live: LiveGame) -> dict:
        """The replayable record; for games with hidden cards only once they are over."""
        with live.lock:
            if live.game.has_hidden_information and not live.over:
                raise ApiError(403, "hidden_until_over", "the record holds every hidden card; it is available "
                                                         "once the game is over")
            return live.session.record()

    # ------------------------------------------------------------------ moving
    def play(self, live: LiveGame, seat: int, token: str | None, action: int) -> LogEntry:
        """A person's move; refused (nothing changes) when out of turn, illegal or unauthorized."""
        self.authorize(live, seat, token)
        with live.lock:
            entry = live.session.play(seat, action)
            self._persist(live, entry)
            return entry

    def apply_automatic(self, live: LiveGame, ply: int, action: int) -> LogEntry | None:
        """Apply an agent's or chance's move chosen at ``ply``; ignored if the game moved on meanwhile."""
        with live.lock:
            if live.session.ply != ply or live.session.pending().kind not in ("agent", "chance"):
                return None
            entry = live.session.apply(action)
            self._persist(live, entry)
            return entry

    def _persist(self, live: LiveGame, entry: LogEntry) -> None:
        state = live.session.state
        over = state.is_terminal()
        try:
            self.store.append(live.id, entry.ply, entry.action, over=over,
                              returns=[float(r) for r in state.returns()] if over else None)
        except Exception:
            live.session = GameSession(live.game, live.session.seats, seed=live.session.seed,
                                       actions=live.session.actions[:-1])  # back to what is stored
            raise
        live.last_move_at = time.monotonic()

    def set_delay(self, live: LiveGame, token: str | None, delay: float) -> None:
        self.authorize_host(live, token)
        delay = self.check_delay(delay)
        with live.lock:
            live.delay = delay
            self.store.set_delay(live.id, delay)

    # ------------------------------------------------------------------ hints
    def hint(self, live: LiveGame, seat: int, token: str | None) -> dict:
        """What the hint agent would play for ``seat`` now and each seat's estimated chance to win (slow:
        call it from a worker thread). Cached per position."""
        self.authorize(live, seat, token)
        spec = self.config.hint_spec(live.game.name)
        if spec is None:
            raise ApiError(409, "hints_off", "hints are turned off on this server")
        with live.hint_lock:
            with live.lock:
                if live.session.state.current_player != seat:
                    raise ApiError(409, "not_your_turn", f"hints are for the seat to move; seat {seat} is not")
                ply = live.session.ply
                if (ply, seat) in live.hint_cache:
                    return live.hint_cache[(ply, seat)]
                view, rng = live.session.seat_view(seat), live.session.rng()
            if live.hint_agent is None:
                live.hint_agent = agent_for(live.game, spec, HINT_FALLBACKS)
            spec_used, agent = live.hint_agent
            started = time.monotonic()
            advice = agent.advise(view, rng, top=self.config.hint_top)
            chances = None if advice.values is None else win_chances(live.game, advice.values)
            moves = [{"action": m.action, "name": view.action_name(m.action), "weight": m.weight,
                      "win_chance": None if m.value is None else win_chances(live.game, [m.value])[0]}
                     for m in advice.moves]
            result = {"agent": spec_used, "ply": ply, "seat": seat, "moves": moves, "win_chances": chances,
                      "seconds": round(time.monotonic() - started, 3)}
            live.hint_cache = {(ply, seat): result}
            return result


def load_records(paths: list[Path]) -> list[dict]:
    """Game records from JSON-lines files (``eval.records.numbered_records``), each with its ``source``:
    file name and line."""
    return [{**record, "source": f"{Path(path).name}:{number}"}
            for path in paths for number, record in numbered_records(path)]
