"""The HTTP layer of ``boardzero serve``: a FastAPI app over a ``GameManager``.

Routes (JSON; errors are ``{"error": code, "message": why}`` with a 4xx status,
and a refused request changes nothing):

    GET  /                               the page (static files under /static)
    GET  /api/meta                       games, their options, the proposed opponents, limits
    GET  /api/games                      stored games, newest first
    POST /api/games                      {game, options, seats, seed?, delay?} -> id and tokens
    GET  /api/games/{id}?seat=&since=    a seat's (or a spectator's) view, legal moves, log from ``since``
    POST /api/games/{id}/actions         {seat, action} with the seat's token
    POST /api/games/{id}/settings        {delay} with the host token or a seat token
    POST /api/games/{id}/resign          {seat} with the seat's token: an agent takes the seat, or the game ends
    POST /api/games/{id}/abandon         with the host token: the game ends as abandoned
    GET  /api/games/{id}/hint?seat=      the hint agent's top moves and chances to win, with the seat's token
    GET  /api/games/{id}/record          the replayable record (hidden cards only once over)
    GET  /api/games/{id}/replay?ply=     a spectator's view after ``ply`` actions, with the log up to it
    GET  /api/records                    records loaded from files (``--records``)
    GET  /api/records/{n}/replay?ply=    the same replay view for one of them

A seat's token travels as ``Authorization: Bearer TOKEN``. Agents' moves and
chance outcomes are played by one asyncio task per game (the agent thinks in
a worker process, stopped after ``move_seconds``: a random legal move is
played instead), after the game's delay; on start-up idle games expire and
every live game in the store is resumed. Stopping the server kills the
workers, whatever they are computing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

import numpy as np
from fastapi import FastAPI, Header, Path as PathParam, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.exceptions import HTTPException

from boardzero.core.errors import BoardzeroError, ConfigError, IllegalActionError
from boardzero.play.records import replay as replay_record
from boardzero.play.session import GameSession, NotYourTurnError
from boardzero.web.config import ServerConfig
from boardzero.web.games import ApiError, GameManager, LiveGame
from boardzero.web.store import STATUSES, GameStore
from boardzero.web.workers import AgentWorkers, MoveOverrun, WorkerFailed

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("boardzero.web")


ID_LIMIT = 2**31  # every number a request carries (action, seat, ply, since, record index) is below this
MAX_SEATS = 8


def seat_query():  # a fresh declaration per route: FastAPI keeps state in each
    return Query(None, ge=0, lt=MAX_SEATS, description="a seat 0..7 (the game's own range is checked too)")


def ply_query():
    return Query(0, ge=0, lt=ID_LIMIT, description="actions from the start; past the end means the end")


def game_id_path():
    return PathParam(max_length=64)


OptionInt = Annotated[StrictInt, Field(ge=-ID_LIMIT, lt=ID_LIMIT)]
OptionFloat = Annotated[float, Field(allow_inf_nan=False)]
OptionText = Annotated[str, Field(max_length=200)]


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    options: dict[str, Union[OptionInt, bool, OptionFloat, OptionText]] = Field(default_factory=dict, max_length=20)
    seats: list[Annotated[str, Field(max_length=500)]] = Field(
        min_length=1, max_length=MAX_SEATS, description="'human' or an agent spec per seat"
    )
    seed: Optional[int] = Field(default=None, ge=0, lt=ID_LIMIT)
    delay: Optional[float] = Field(
        default=None, ge=0, allow_inf_nan=False, description="seconds before each agent move"
    )


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(ge=0, lt=MAX_SEATS)
    action: StrictInt = Field(ge=0, lt=ID_LIMIT, description="an action id of the game (see the legal moves)")


class SeatOnly(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(ge=0, lt=MAX_SEATS)


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    delay: float = Field(ge=0, allow_inf_nan=False)


class Created(BaseModel):
    id: str
    tokens: dict[str, str] = Field(description="seat number or 'host' -> token, shown only now")
    seats: list[str]


class Moved(BaseModel):
    version: int
    entry: dict[str, Any]


class Ended(BaseModel):
    id: str
    status: Literal[STATUSES]  # type: ignore[valid-type]
    seats: list[str]
    returns: Optional[list[float]]


class DelaySet(BaseModel):
    delay: float


class Snapshot(BaseModel):
    id: str
    game: str
    seats: list[dict[str, Any]]
    viewer: Optional[int]
    version: int
    pending: dict[str, Any]
    over: bool
    status: Literal[STATUSES]  # type: ignore[valid-type]
    returns: Optional[list[float]]
    overruns: int = Field(description="agent moves stopped at move_seconds, a random legal move played instead")
    delay: float
    error: Optional[str]
    hints: bool
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    log_from: int
    log: list[dict[str, Any]]


class Replay(BaseModel):
    game: str
    seats: list[dict[str, Any]]
    ply: int
    total: int
    over: bool
    view: dict[str, Any]
    log: list[dict[str, Any]]


class ErrorBody(BaseModel):
    error: str
    message: str


ERRORS = {status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 422, 429, 503)}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 before the app reads them."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self._refuse(send)
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                return await self._refuse(send)
            more = message.get("more_body", False)
        body, delivered = b"".join(chunks), False

        async def replay():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    async def _refuse(self, send):
        response = _error(413, "too_large", f"request bodies are limited to {self.limit} bytes")
        await response({"type": "http"}, None, send)


class Drivers:
    """One asyncio task per game that plays its agents' and chance moves; agents think in worker processes."""

    def __init__(self, manager: GameManager, workers: AgentWorkers):
        self.manager = manager
        self.workers = workers

    def kick(self, live: LiveGame) -> None:
        """Make sure the game's driver runs if an agent or chance is to move."""
        if live.driver is not None and not live.driver.done():
            return
        if not live.ended and live.session.pending().kind in ("agent", "chance") and live.error is None:
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        while True:
            with live.lock:
                pending = live.session.pending()
                ply = live.session.ply
                job = live.job()
            if live.ended or pending.kind not in ("agent", "chance"):
                return
            while pending.kind == "agent" and (wait := live.delay - (loop.time() - live.last_move_at)) > 0:
                await asyncio.sleep(min(wait, 0.1))  # short naps, so a delay lowered meanwhile counts
            try:
                if pending.kind == "chance":
                    with live.lock:
                        action = live.session.choose() if live.session.ply == ply else None
                else:
                    action = await self._agent_move(live, job, pending.seat, ply)
                if action is not None:
                    await loop.run_in_executor(None, self.manager.apply_automatic, live, ply, action)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an agent that fails stops its game, visibly, not the server
                log.error("game %s stopped: the move at ply %d failed: %s", live.id, ply, exc)
                live.error = f"the move at ply {ply} failed: {type(exc).__name__}: {exc}"
                return

    async def _agent_move(self, live: LiveGame, job, seat: int, ply: int) -> int:
        """The agent's move, or a random legal move when it overruns ``move_seconds`` (its worker is killed)."""
        try:
            return int(await self.workers.run(job))
        except MoveOverrun as exc:
            with live.lock:
                legal = live.session.state.legal_actions() if live.session.ply == ply else np.array([], int)
                action = int(live.session.rng(ply).choice(legal)) if len(legal) else None
            live.overruns += 1
            log.warning(
                "game %s: seat %d's agent %s gave %s at ply %d; played the random legal move %s instead",
                live.id,
                seat,
                live.session.seats[seat],
                exc,
                ply,
                action,
            )
            return action

    async def stop(self) -> None:
        """Stop every driver and kill the workers at once (a move being computed is lost, none half-stored)."""
        self.workers.closed = True  # no job starts from here on
        tasks = [g.driver for g in self.manager.live.values() if g.driver is not None and not g.driver.done()]
        for task in tasks:
            task.cancel()  # a driver waiting on a worker kills it (its pipe unwatched first)
        await asyncio.gather(*tasks, return_exceptions=True)
        self.workers.close()


async def _expire_periodically(manager: GameManager, drivers: Drivers, every: float) -> None:
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(every)
        try:
            expired = await loop.run_in_executor(None, manager.expire_idle)
        except Exception:  # a busy or failing store: try again next time
            log.exception("checking for idle games failed")
            continue
        if expired:
            log.info("expired %d idle games: %s", len(expired), ", ".join(expired))


def create_app(config: ServerConfig) -> FastAPI:
    """The web app for ``config``; its games live in ``config.db``."""
    store = GameStore(config.db)
    manager = GameManager(config, store)
    drivers = Drivers(manager, AgentWorkers(config.workers, config.move_seconds))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        drivers.workers.warm()
        manager.expire_idle()
        for live in manager.resume():
            drivers.kick(live)
        # build the proposed opponents now (shipped models load in seconds), not on the first page view
        asyncio.get_running_loop().run_in_executor(None, manager.meta)
        expiry = asyncio.get_running_loop().create_task(
            _expire_periodically(manager, drivers, min(60.0, config.idle_minutes * 60 / 4))
        )
        yield
        expiry.cancel()
        await drivers.stop()
        store.close()

    app = FastAPI(title="boardzero", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.manager, app.state.drivers = manager, drivers
    _install_errors(app)
    _install_routes(app, manager, drivers)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    return app


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(NotYourTurnError)
    async def not_your_turn(request: Request, exc: NotYourTurnError):
        return _error(409, "not_your_turn", exc.reason)

    @app.exception_handler(IllegalActionError)
    async def illegal(request: Request, exc: IllegalActionError):
        return _error(422, "illegal_action", str(exc))

    @app.exception_handler(WorkerFailed)
    async def worker_failed(request: Request, exc: WorkerFailed):
        return _error(503, "agent_failed", str(exc))

    @app.exception_handler(MoveOverrun)
    async def overrun(request: Request, exc: MoveOverrun):
        return _error(
            503, "too_slow", f"the hint agent gave {exc}; try again or ask the operator for a quicker hint agent"
        )

    @app.exception_handler(BoardzeroError)
    async def bad_config(request: Request, exc: BoardzeroError):
        return _error(400, "bad_request", str(exc))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5])
        return _error(400, "malformed", problems or "malformed request")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))


def _install_routes(app: FastAPI, manager: GameManager, drivers: Drivers) -> None:
    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(STATIC / "index.html")

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        return manager.meta()

    @app.get("/api/games")
    def list_games() -> dict[str, list[dict[str, Any]]]:
        return {"games": manager.list_games()}

    @app.post("/api/games", status_code=201, response_model=Created, responses=ERRORS)
    async def create(body: NewGame):
        live, tokens = await asyncio.get_running_loop().run_in_executor(
            None, functools.partial(manager.create, body.game, body.options, body.seats, body.seed, body.delay)
        )
        drivers.kick(live)
        return {"id": live.id, "tokens": tokens, "seats": live.session.seats}

    @app.get("/api/games/{game_id}", response_model=Snapshot, responses=ERRORS)
    def game_state(
        game_id: str = game_id_path(),
        seat: Optional[int] = seat_query(),
        since: int = ply_query(),
        authorization: Optional[str] = Header(None),
    ):
        live = manager.get(game_id)
        manager.authorize(live, seat, _bearer(authorization))
        return manager.snapshot(live, seat, since)

    @app.post("/api/games/{game_id}/actions", response_model=Moved, responses=ERRORS)
    async def act(body: Move, game_id: str = game_id_path(), authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        entry = manager.play(live, body.seat, _bearer(authorization), body.action)
        drivers.kick(live)
        return {"version": entry.ply + 1, "entry": entry.for_viewer(body.seat)}

    @app.post("/api/games/{game_id}/resign", response_model=Ended, responses=ERRORS)
    async def resign(body: SeatOnly, game_id: str = game_id_path(), authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        # the seat's new agent is built (a shipped model loads in about a second) off the event loop
        await asyncio.get_running_loop().run_in_executor(None, manager.resign, live, body.seat, _bearer(authorization))
        drivers.kick(live)  # the agent that took the seat may be to move
        return _ended(live)

    @app.post("/api/games/{game_id}/abandon", response_model=Ended, responses=ERRORS)
    def abandon(game_id: str = game_id_path(), authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        manager.abandon(live, _bearer(authorization))
        return _ended(live)

    @app.post("/api/games/{game_id}/settings", response_model=DelaySet, responses=ERRORS)
    def settings(body: Settings, game_id: str = game_id_path(), authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        manager.set_delay(live, _bearer(authorization), body.delay)
        return {"delay": live.delay}

    @app.get("/api/games/{game_id}/hint", responses=ERRORS)
    async def hint(
        game_id: str = game_id_path(),
        seat: int = Query(ge=0, lt=MAX_SEATS),
        authorization: Optional[str] = Header(None),
    ) -> dict[str, Any]:
        live = manager.get(game_id)
        cached, job = manager.hint_job(live, seat, _bearer(authorization))
        if cached is not None:
            return cached
        started = time.monotonic()
        advice = await drivers.workers.run(job)
        return manager.keep_hint(live, seat, len(job.actions), advice, time.monotonic() - started)

    @app.get("/api/games/{game_id}/record", responses=ERRORS)
    def record(game_id: str = game_id_path()) -> dict[str, Any]:
        return manager.record(manager.get(game_id))

    @app.get("/api/games/{game_id}/replay", response_model=Replay, responses=ERRORS)
    def replay_game(game_id: str = game_id_path(), ply: int = ply_query()):
        live = manager.get(game_id)
        with live.lock:
            record = {**live.session.state.to_record(), "seats": live.session.seats}
            over = live.over
        return replay(record, ply, reveal=over)

    @app.get("/api/records")
    def records() -> dict[str, list[dict[str, Any]]]:
        return {
            "records": [
                {
                    "index": i,
                    "game": r["game"],
                    "source": r["source"],
                    "moves": len(r["actions"]),
                    "seats": r.get("seats"),
                    "returns": r.get("returns"),
                }
                for i, r in enumerate(manager.records)
            ]
        }

    @app.get("/api/records/{index}/replay", response_model=Replay, responses=ERRORS)
    def replay_record(index: int = PathParam(ge=0, lt=ID_LIMIT), ply: int = ply_query()):
        if not 0 <= index < len(manager.records):
            raise ApiError(404, "unknown_record", f"records are 0..{len(manager.records) - 1}, not {index}")
        return replay(manager.records[index], ply, reveal=True)


def _ended(live: LiveGame) -> dict:
    with live.lock:
        return {"id": live.id, "status": live.status, "seats": list(live.session.seats), "returns": live.returns}


@functools.lru_cache(maxsize=8)
def _replayed(record_json: str) -> GameSession:
    return replay_record(json.loads(record_json))


def replay(record: dict[str, Any], ply: int, *, reveal: bool) -> dict:
    """A spectator's view after ``ply`` actions of a record, with the log up to there (every hidden
    outcome shown when ``reveal``, i.e. the game is over)."""
    key = json.dumps(
        {k: record[k] for k in ("game", "options", "seed", "actions", "seats") if k in record}, sort_keys=True
    )
    try:
        full = _replayed(key)
    except (BoardzeroError, KeyError, TypeError, ValueError) as exc:
        raise ConfigError("record", f"does not replay: {exc}") from None
    total = len(full.log)
    ply = min(ply, total)
    state = replay_record(dict(json.loads(key), actions=full.actions[:ply]), full.game, keep_log=False).state
    return {
        "game": full.game.name,
        "seats": [{"seat": i, "player": s} for i, s in enumerate(full.seats)],
        "ply": ply,
        "total": total,
        "over": ply == total and state.is_terminal(),
        "view": state.public_view(None),
        "log": [entry.for_viewer(None, reveal) for entry in full.log[:ply]],
    }
