"""The games a server holds: sessions in memory, kept in SQLite after every action, seats guarded by tokens.

Nothing here knows HTTP: the FastAPI layer (``app.py``) turns ``ApiError`` into
a JSON error with its status, and drives agents' moves (computed in worker
processes, ``workers.py``) with ``apply_automatic``. Every method that changes
a game holds the game's lock; reads hold it too, so a client never sees half a
move.

A game is ``live`` until it ends: ``finished`` when played out, ``resigned``
when its last person resigns, ``abandoned`` by its creator, ``expired`` when
no move came for ``idle_minutes``. An ended game refuses moves and stays
replayable. A seat's person who resigns while other people play on hands the
seat to the server's default opponent for that game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from pathlib import Path

import numpy as np

from boardzero.agents.registry import make_agent
from boardzero.core.api import Game, State
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import games, make, option_docs
from boardzero.play.records import numbered_records, replay
from boardzero.play.session import (
    HINT_FALLBACKS,
    HUMAN,
    OPPONENT_FALLBACKS,
    GameSession,
    LogEntry,
    agent_for,
)
from boardzero.web.config import ServerConfig
from boardzero.web.limits import AgentLimits, SpecRefused
from boardzero.web.store import LIVE, GameStore, StoredGame
from boardzero.web.workers import Job

HOST = "host"  # the token name of whoever created a game (may change its settings, abandon it)
FINISHED_KEPT = 16  # finished games kept in memory for replays
ENDED_HOW = {
    "finished": "played to the end",
    "resigned": "the last person at the table resigned",
    "abandoned": "its creator abandoned it",
    "expired": "no move came for longer than the server waits",
}


class ApiError(Exception):
    """A refused request: HTTP status, a short code and a sentence that says why."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class LiveGame:
    """A game in memory: its session, token hashes, delay, status, and what its driver and hints need."""

    def __init__(self, stored: StoredGame, session: GameSession):
        self.id = stored.id
        self.session = session
        self.options = stored.options
        self.token_hashes = stored.token_hashes
        self.delay = stored.delay
        self.created = stored.created
        self.status = stored.status
        self.returns = stored.returns
        self.lock = threading.RLock()
        self.last_move_at = time.monotonic()
        self.error: str | None = None  # an agent that failed: the game waits
        self.overruns = 0  # agent moves stopped at move_seconds (a random legal move played instead)
        self.driver = None  # the asyncio task that plays agents' and chance moves
        self.hint_cache: dict[tuple[int, int], dict] = {}

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def over(self) -> bool:
        """Played out or ended otherwise: no more moves."""
        return self.status != LIVE or self.session.state.is_terminal()

    @property
    def ended(self) -> bool:
        return self.status != LIVE

    def job(self, hint: str | None = None, top: int = 3) -> Job:
        """What a worker needs to compute this game's next agent move (or a hint): its setup and actions."""
        session = self.session
        return Job(
            self.id, session.game.name, self.options, session.seed, list(session.seats), session.actions, hint, top
        )

    def refuse_if_ended(self) -> None:
        if self.status != LIVE:
            raise ApiError(
                409,
                "game_ended",
                f"game {self.id} has ended ({self.status}: {ENDED_HOW[self.status]}); it can be replayed, not played",
            )

    def token_ok(self, name: str, token: str | None) -> bool:
        expected = self.token_hashes.get(name)
        return bool(token) and expected is not None and hmac.compare_digest(expected, _hash(token))


class GameManager:
    def __init__(self, config: ServerConfig, store: GameStore):
        self.config = config
        self.store = store
        self.limits = AgentLimits(config)
        self.live: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self._default_opponents: dict[str, str] = {}
        self.records = load_records(config.records)
        for name in config.opponents:
            self.default_opponent(name)  # a bad configured spec fails at start, naming itself
        for name, spec in config.hint_agent.items():
            if name != "*" and spec != "off":  # '' asks for the default chain, as a hint does
                agent_for(make(name), spec, HINT_FALLBACKS)

    # ------------------------------------------------------------------ what the page offers
    def default_opponent(self, name: str, game: Game | None = None) -> str:
        """The agent spec the page proposes for ``name`` (with ``game``'s options, else the defaults): the
        configured one, else the first of ``OPPONENT_FALLBACKS`` that plays it (the shipped model, the Catan
        bot, plain search). In a game with trading the shipped model trained without it trades by its values
        (``agents.td_trading``)."""
        game = game if game is not None else make(name)
        key = f"{name} {sorted(game.options_dict().items())}"
        if key not in self._default_opponents:
            spec, _ = agent_for(game, self.config.opponents.get(name), OPPONENT_FALLBACKS)
            self._default_opponents[key] = spec
        return self._default_opponents[key]

    def meta(self) -> dict:
        catalogue = []
        for name in games():
            try:
                options = [{"name": o, "type": t, "default": d, "doc": doc} for o, t, d, doc in option_docs(name)]
                game = make(name)
            except ConfigError:  # registered, but its module does not import here: the page offers the others
                continue
            catalogue.append(
                {
                    "name": name,
                    "players": game.num_players,
                    "options": options,
                    "default_opponent": self.default_opponent(name),
                    # the page ticks trading where a person plays; its proposed opponent must play that
                    **(
                        {"default_opponent_trading": self.default_opponent(name, make(name, trading=True))}
                        if any(o["name"] == "trading" for o in options)
                        else {}
                    ),
                    "hints": self.config.hint_spec(name) is not None,
                }
            )
        return {
            "games": catalogue,
            "bot_delay": self.config.bot_delay,
            "max_delay": self.config.max_delay,
            "max_active_games": self.config.max_active_games,
            "records": len(self.records),
            "caps": {**self.limits.describe(), "move_seconds": self.config.move_seconds},
            "idle_minutes": self.config.idle_minutes,
        }

    # ------------------------------------------------------------------ creating and finding games
    def create(
        self, name: str, options: dict, seats: list[str], seed: int | None, delay: float | None
    ) -> tuple[LiveGame, dict[str, str]]:
        """A new game; returns it and the tokens (seat number or 'host' -> token), shown only now."""
        game = make(name, **options)
        delay = self.config.bot_delay if delay is None else self.check_delay(delay)
        seed = int(np.random.default_rng().integers(2**31)) if seed is None else seed
        seats = [HUMAN if spec.strip().lower() == HUMAN else spec.strip() for spec in seats]
        session = GameSession(game, seats, seed=seed, with_agents=False)
        for spec in dict.fromkeys(s for s in seats if s != HUMAN):
            self.check_agent(spec, game)
        with self._lock:
            active = self.store.count_live()
            if active >= self.config.max_active_games:
                raise ApiError(
                    429,
                    "too_many_games",
                    f"{active} games are live, the most this server holds "
                    f"(max_active_games); finish, resign or abandon one, or wait "
                    f"for an idle one to expire",
                )
            tokens = {str(i): secrets.token_urlsafe(18) for i, spec in enumerate(seats) if spec == HUMAN}
            tokens[HOST] = secrets.token_urlsafe(18)
            game_id = secrets.token_hex(6)
            hashes = {k: _hash(v) for k, v in tokens.items()}
            self.store.create(game_id, name, game.options_dict(), seed, seats, hashes, delay)
            stored = StoredGame(
                game_id, name, game.options_dict(), seed, seats, hashes, delay, time.time(), time.time(), 0, False, None
            )
            live = LiveGame(stored, session)
            self.live[game_id] = live
            self._forget_finished(keep=live)
        return live, tokens

    def check_agent(self, spec: str, game: Game) -> None:
        """Refuse a requested agent over the operator's caps or loading from outside the allowed directories
        (before anything is built or opened), then build it once to check that it plays ``game``."""
        try:
            self.limits.check(spec, game)
        except SpecRefused as exc:
            raise ApiError(exc.status, exc.code, exc.message) from None
        try:
            make_agent(spec, game)
        except CheckpointError as exc:
            raise ConfigError("seats", str(exc)) from None

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
        live = LiveGame(stored, replay(session_record(game, stored.seed, stored.seats, stored.actions or []), game))
        with self._lock:
            live = self.live.setdefault(stored.id, live)
            self._forget_finished(keep=live)
        return live

    def _forget_finished(self, keep: LiveGame) -> None:
        """Keep only the newest ``FINISHED_KEPT`` games that are over in memory (the store has them all, and
        ``get`` revives one on demand), so a long-running server does not grow with every game it hosted."""
        finished = [g for g in self.live.values() if g.over]
        for old in sorted(finished, key=lambda g: g.created)[:-FINISHED_KEPT]:
            if old is not keep:
                del self.live[old.id]

    def resume(self) -> list[LiveGame]:
        """Load every live game from the store (after a restart); returns them."""
        return [self.get(stored.id) for stored in self.store.games(live=True, limit=10**6)]

    def list_games(self) -> list[dict]:
        return [stored.summary() for stored in self.store.games()]

    # ------------------------------------------------------------------ seats and tokens
    def authorize(self, live: LiveGame, seat: int | None, token: str | None) -> None:
        """Refuse unless ``seat`` is None (a spectator) or ``token`` is that person's seat token."""
        if seat is None:
            return
        self.check_seat(live, seat)
        if live.session.seats[seat] != HUMAN:
            raise ApiError(
                403,
                "not_a_person",
                f"seat {seat} is played by {live.session.seats[seat]}; only a "
                "person's seat has a token (watch without a seat instead)",
            )
        if not token:
            raise ApiError(401, "missing_token", f"seat {seat} needs its token: send 'Authorization: Bearer TOKEN'")
        if not live.token_ok(str(seat), token):
            raise ApiError(403, "wrong_token", f"that is not seat {seat}'s token")

    def authorize_host(self, live: LiveGame, token: str | None) -> None:
        """Settings may be changed with the host token or any person's seat token."""
        if not token:
            raise ApiError(
                401, "missing_token", "send the game's host token or a seat token as 'Authorization: Bearer TOKEN'"
            )
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
                "pending": {"kind": "over", "seat": None}
                if live.ended
                else {"kind": pending.kind, "seat": pending.seat},
                "over": live.over,
                "status": live.status,
                "returns": live.returns if live.ended else None,
                "overruns": live.overruns,
                "delay": live.delay,
                "error": live.error,
                "hints": self.config.hint_spec(session.game.name) is not None,
                "view": session.view(seat),
                "legal": session.legal_moves(seat) if seat is not None and not live.ended else [],
                "log_from": since,
                "log": session.log_for(seat, since),
            }

    def record(self, live: LiveGame) -> dict:
        """The replayable record; for games with hidden cards only once they are over."""
        with live.lock:
            if live.game.has_hidden_information and not live.over:
                raise ApiError(
                    403,
                    "hidden_until_over",
                    "the record holds every hidden card; it is available once the game is over",
                )
            return live.session.record()

    # ------------------------------------------------------------------ moving
    def play(self, live: LiveGame, seat: int, token: str | None, action: int) -> LogEntry:
        """A person's move; refused (nothing changes) when the game has ended, out of turn, illegal or
        unauthorized."""
        self.authorize(live, seat, token)
        with live.lock:
            live.refuse_if_ended()
            entry = live.session.play(seat, action)
            self._persist(live, entry)
            return entry

    def apply_automatic(self, live: LiveGame, ply: int, action: int) -> LogEntry | None:
        """Apply an agent's or chance's move chosen at ``ply``; ignored if the game moved on meanwhile."""
        with live.lock:
            if live.ended or live.session.ply != ply or live.session.pending().kind not in ("agent", "chance"):
                return None
            entry = live.session.apply(action)
            self._persist(live, entry)
            return entry

    def _persist(self, live: LiveGame, entry: LogEntry) -> None:
        state = live.session.state
        over = state.is_terminal()
        returns = [float(r) for r in state.returns()] if over else None
        try:
            self.store.append(live.id, entry.ply, entry.action, over=over, returns=returns)
        except Exception:
            session = live.session
            live.session = replay(  # as stored
                session_record(live.game, session.seed, session.seats, session.actions[:-1]), live.game
            )
            raise
        if over:
            live.status, live.returns = "finished", returns
        live.last_move_at = time.monotonic()

    # ------------------------------------------------------------------ ending early
    def resign(self, live: LiveGame, seat: int, token: str | None) -> str:
        """``seat``'s person leaves: the server's default opponent takes the seat while other people play on;
        the last person's resignation ends the game (``resigned``). Returns the game's status."""
        self.authorize(live, seat, token)
        with live.lock:
            live.refuse_if_ended()
            seats = list(live.session.seats)
            seats[seat] = self.default_opponent(live.game.name, live.game)
            if HUMAN not in seats:
                self._end(live, "resigned", resignation_returns(live.game, live.session.state, seat))
                return live.status
            hashes = {name: h for name, h in live.token_hashes.items() if name != str(seat)}
            self.store.set_seats(live.id, seats, hashes)
            live.session.seats[seat] = seats[seat]
            live.token_hashes = hashes
            live.error = None
            live.hint_cache = {}
            return live.status

    def abandon(self, live: LiveGame, token: str | None) -> None:
        """The game's creator (its host token) ends it as ``abandoned``, with no result."""
        if not token:
            raise ApiError(
                401,
                "missing_token",
                "abandoning a game needs the host token it was created with: send 'Authorization: Bearer TOKEN'",
            )
        if not live.token_ok(HOST, token):
            raise ApiError(
                403,
                "wrong_token",
                "only the game's host token (returned when it was created) abandons "
                "it; a seat's person may resign instead",
            )
        with live.lock:
            live.refuse_if_ended()
            self._end(live, "abandoned", None)

    def expire_idle(self, now: float | None = None) -> list[str]:
        """End as ``expired`` every live game with no move (nor seat change) for ``idle_minutes``."""
        before = (time.time() if now is None else now) - self.config.idle_minutes * 60
        expired = []
        for game_id in self.store.idle_since(before):
            live = self.get(game_id)
            with live.lock:
                if not live.ended and self._end(live, "expired", None):
                    expired.append(game_id)
        return expired

    def _end(self, live: LiveGame, status: str, returns: list[float] | None) -> bool:
        if not self.store.end(live.id, status, returns):
            return False
        live.status, live.returns = status, returns
        if live.driver is not None and not live.driver.done():
            live.driver.get_loop().call_soon_threadsafe(live.driver.cancel)  # its agent's move is no longer wanted
        return True

    def set_delay(self, live: LiveGame, token: str | None, delay: float) -> None:
        self.authorize_host(live, token)
        delay = self.check_delay(delay)
        with live.lock:
            live.delay = delay
            self.store.set_delay(live.id, delay)

    # ------------------------------------------------------------------ hints
    def hint_job(self, live: LiveGame, seat: int, token: str | None) -> tuple[dict | None, Job]:
        """A hint for ``seat`` now: the cached answer for this position, else None and the job a worker
        computes (the hint agent's top moves and each seat's estimated chance to win)."""
        self.authorize(live, seat, token)
        spec = self.config.hint_spec(live.game.name)
        if spec is None:
            raise ApiError(409, "hints_off", "hints are turned off on this server")
        with live.lock:
            live.refuse_if_ended()
            if live.session.state.current_player != seat:
                raise ApiError(409, "not_your_turn", f"hints are for the seat to move; seat {seat} is not")
            return live.hint_cache.get((live.session.ply, seat)), live.job(hint=spec, top=self.config.hint_top)

    def keep_hint(self, live: LiveGame, seat: int, ply: int, advice: dict, seconds: float) -> dict:
        result = {**advice, "ply": ply, "seat": seat, "seconds": round(seconds, 3)}
        with live.lock:
            live.hint_cache = {(ply, seat): result}
        return result


def session_record(game: Game, seed: int | None, seats: list[str], actions: list[int]) -> dict:
    """The record a stored game replays from (``play.records.replay``, the one replay path)."""
    return {"game": game.name, "options": game.options_dict(), "seed": seed, "seats": list(seats), "actions": actions}


def resignation_returns(game: Game, state: State, resigned: int) -> list[float]:
    """The result of a game its last person resigned: the resigning seat gets the game's lowest return; the
    other seats are ranked as a game cut short by a turn cap is, where the state scores seats
    (``victory_points``): the leaders share the win; else every other seat shares it. Seats that neither
    resigned nor lead get the lowest return too."""
    low, high = game.return_bounds or (0.0, 1.0)
    others = [p for p in range(game.num_players) if p != resigned]
    score = getattr(state, "victory_points", None)
    if callable(score):
        points = {p: score(p) for p in others}
        others = [p for p in others if points[p] == max(points.values())]
    share = low + (high - low) / len(others)
    return [share if p in others else float(low) for p in range(game.num_players)]


def load_records(paths: list[Path]) -> list[dict]:
    """Game records from JSON-lines files (``play.records.numbered_records``), each with its ``source``:
    file name and line."""
    return [
        {**record, "source": f"{Path(path).name}:{number}"}
        for path in paths
        for number, record in numbered_records(path)
    ]
