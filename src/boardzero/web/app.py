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
    GET  /api/games/{id}/hint?seat=      the hint agent's top moves and chances to win, with the seat's token
    GET  /api/games/{id}/record          the replayable record (hidden cards only once over)
    GET  /api/games/{id}/replay?ply=     a spectator's view after ``ply`` actions, with the log up to it
    GET  /api/records                    records loaded from files (``--records``)
    GET  /api/records/{n}/replay?ply=    the same replay view for one of them

A seat's token travels as ``Authorization: Bearer TOKEN``. Agents' moves and
chance outcomes are played by one asyncio task per game (the agent thinks in
a worker thread), after the game's delay; on start-up every unfinished game
in the store is resumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Optional, Union

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.exceptions import HTTPException

from boardzero.core.errors import BoardzeroError, ConfigError, IllegalActionError
from boardzero.eval.session import GameSession, NotYourTurnError
from boardzero.web.config import ServerConfig
from boardzero.web.games import ApiError, GameManager, LiveGame
from boardzero.web.store import GameStore

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("boardzero.web")


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    options: dict[str, Union[bool, int, float, str]] = Field(default_factory=dict, max_length=20)
    seats: list[str] = Field(min_length=1, max_length=8)
    seed: Optional[int] = Field(default=None, ge=0, lt=2**31)
    delay: Optional[float] = None


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt
    action: StrictInt


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    delay: float


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
    """One asyncio task per game that plays its agents' and chance moves; agents think in worker threads."""

    def __init__(self, manager: GameManager, workers: int):
        self.manager = manager
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="boardzero-agent")

    def kick(self, live: LiveGame) -> None:
        """Make sure the game's driver runs if an agent or chance is to move."""
        if live.driver is not None and not live.driver.done():
            return
        if live.session.pending().kind in ("agent", "chance") and live.error is None:
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        while True:
            with live.lock:
                pending = live.session.pending()
                ply = live.session.ply
            if pending.kind not in ("agent", "chance"):
                return
            while pending.kind == "agent" and (wait := live.delay - (loop.time() - live.last_move_at)) > 0:
                await asyncio.sleep(min(wait, 0.1))  # short naps, so a delay lowered meanwhile counts
            try:
                action = await loop.run_in_executor(self.pool, live.session.choose)
                await loop.run_in_executor(self.pool, self.manager.apply_automatic, live, ply, action)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an agent that fails stops its game, visibly, not the server
                log.exception("game %s stopped: the move at ply %d failed", live.id, ply)
                live.error = f"the move at ply {ply} failed: {type(exc).__name__}: {exc}"
                return

    async def stop(self) -> None:
        tasks = [g.driver for g in self.manager.live.values() if g.driver is not None and not g.driver.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # a move being computed or stored finishes (and is stored) before the store closes
        await asyncio.get_running_loop().run_in_executor(None, functools.partial(
            self.pool.shutdown, wait=True, cancel_futures=True))


def create_app(config: ServerConfig) -> FastAPI:
    """The web app for ``config``; its games live in ``config.db``."""
    store = GameStore(config.db)
    manager = GameManager(config, store)
    drivers = Drivers(manager, config.workers)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for live in manager.resume():
            drivers.kick(live)
        # build the proposed opponents now (shipped models load in seconds), not on the first page view
        asyncio.get_running_loop().run_in_executor(drivers.pool, manager.meta)
        yield
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
    def meta():
        return manager.meta()

    @app.get("/api/games")
    def list_games():
        return {"games": manager.list_games()}

    @app.post("/api/games", status_code=201)
    async def create(body: NewGame):
        live, tokens = await asyncio.get_running_loop().run_in_executor(
            drivers.pool, functools.partial(manager.create, body.game, body.options, body.seats, body.seed,
                                            body.delay))
        drivers.kick(live)
        return {"id": live.id, "tokens": tokens, "seats": live.session.seats}

    @app.get("/api/games/{game_id}")
    def game_state(game_id: str, seat: Optional[int] = None, since: int = Query(0, ge=0),
                   authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        manager.authorize(live, seat, _bearer(authorization))
        return manager.snapshot(live, seat, since)

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: Move, authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        entry = manager.play(live, body.seat, _bearer(authorization), body.action)
        drivers.kick(live)
        return {"version": entry.ply + 1, "entry": entry.for_viewer(body.seat)}

    @app.post("/api/games/{game_id}/settings")
    def settings(game_id: str, body: Settings, authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        manager.set_delay(live, _bearer(authorization), body.delay)
        return {"delay": live.delay}

    @app.get("/api/games/{game_id}/hint")
    async def hint(game_id: str, seat: int, authorization: Optional[str] = Header(None)):
        live = manager.get(game_id)
        return await asyncio.get_running_loop().run_in_executor(
            drivers.pool, manager.hint, live, seat, _bearer(authorization))

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str):
        return manager.record(manager.get(game_id))

    @app.get("/api/games/{game_id}/replay")
    def replay_game(game_id: str, ply: int = Query(0, ge=0)):
        live = manager.get(game_id)
        with live.lock:
            record = {**live.session.state.to_record(), "seats": live.session.seats}
            over = live.over
        return replay(record, ply, reveal=over)

    @app.get("/api/records")
    def records():
        return {"records": [{"index": i, "game": r["game"], "source": r["source"], "moves": len(r["actions"]),
                             "seats": r.get("seats"), "returns": r.get("returns")}
                            for i, r in enumerate(manager.records)]}

    @app.get("/api/records/{index}/replay")
    def replay_record(index: int, ply: int = Query(0, ge=0)):
        if not 0 <= index < len(manager.records):
            raise ApiError(404, "unknown_record", f"records are 0..{len(manager.records) - 1}, not {index}")
        return replay(manager.records[index], ply, reveal=True)


@functools.lru_cache(maxsize=8)
def _replayed(record_json: str) -> GameSession:
    return GameSession.from_record(json.loads(record_json))


def replay(record: dict[str, Any], ply: int, *, reveal: bool) -> dict:
    """A spectator's view after ``ply`` actions of a record, with the log up to there (every hidden
    outcome shown when ``reveal``, i.e. the game is over)."""
    key = json.dumps({k: record[k] for k in ("game", "options", "seed", "actions", "seats") if k in record},
                     sort_keys=True)
    try:
        full = _replayed(key)
    except (BoardzeroError, KeyError, TypeError, ValueError) as exc:
        raise ConfigError("record", f"does not replay: {exc}") from None
    total = len(full.log)
    ply = min(ply, total)
    state = full.game.new_state(seed=full.seed)
    for entry in full.log[:ply]:
        state.apply(entry.action)
    return {"game": full.game.name, "seats": [{"seat": i, "player": s} for i, s in enumerate(full.seats)],
            "ply": ply, "total": total, "over": ply == total and state.is_terminal(),
            "view": state.public_view(None), "log": [entry.for_viewer(None, reveal) for entry in full.log[:ply]]}
