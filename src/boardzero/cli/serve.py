"""``boardzero serve``: the web page to play and watch games in a browser."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Optional

import typer

from boardzero.core.errors import ConfigError
from boardzero.core.registry import games


def _per_game(values: list[str] | None, flag: str) -> dict[str, str]:
    """``['catan=heuristic', 'mcts:sims=800']`` -> ``{'catan': 'heuristic', '*': 'mcts:sims=800'}``."""
    out = {}
    for value in values or []:
        name, sep, spec = value.partition("=")
        if sep and name in games():
            out[name] = spec
        elif sep and name == "*":
            out["*"] = spec
        else:
            out["*"] = value
    for name, spec in out.items():
        if not spec:
            raise ConfigError(flag, f"empty agent spec for {name!r}; expected GAME=SPEC or SPEC")
    return out


def _check_port_free(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise ConfigError(
                "--port",
                f"cannot listen on {host}:{port} ({exc.strerror}); choose another port "
                f"with --port (make play PORT=8001)",
            ) from None


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (127.0.0.1: this machine only)."),
    port: int = typer.Option(8000, "--port", "-p", help="TCP port."),
    db: Optional[Path] = typer.Option(
        None, "--db", help="SQLite file keeping the games (default: $XDG_DATA_HOME/boardzero/games.sqlite)."
    ),
    max_games: int = typer.Option(
        32, "--max-games", help="Live games at once (ended games do not count); one more is refused."
    ),
    max_body: int = typer.Option(16_384, "--max-body", help="Largest request body in bytes."),
    delay: float = typer.Option(0.6, "--delay", help="Default seconds before each agent move (adjustable per game)."),
    opponent: Optional[list[str]] = typer.Option(
        None,
        "--opponent",
        help="Agent proposed for the other seats: "
        "GAME=SPEC (e.g. catan=heuristic), repeatable; default: the shipped "
        "model, else heuristic, else mcts.",
    ),
    hint_agent: Optional[list[str]] = typer.Option(
        None,
        "--hint-agent",
        help="Agent for hints: SPEC or GAME=SPEC, 'off' for none; default: the shipped model, else mcts:sims=200.",
    ),
    workers: int = typer.Option(2, "--workers", help="Worker processes computing agents' moves and hints."),
    records: Optional[list[Path]] = typer.Option(
        None, "--records", help="JSON-lines file of game records to offer for replay (repeatable)."
    ),
    idle_minutes: float = typer.Option(
        60.0,
        "--idle-minutes",
        help="A live game with no move for this long ends as expired (checked every minute and at start).",
    ),
    max_sims: int = typer.Option(
        5000,
        "--max-sims",
        help="Most simulations per move a requested agent may search "
        "(sims, opening_sims; sims x rollouts for mcts); more is refused at create.",
    ),
    max_depth: int = typer.Option(
        4, "--max-depth", help="Most decisions deep a requested agent may plan (depth, prior_depth)."
    ),
    max_width: int = typer.Option(
        64, "--max-width", help="Most positions a requested agent may keep per planning step (width)."
    ),
    move_seconds: float = typer.Option(
        60.0,
        "--move-seconds",
        help="Longest an agent may think about one move or "
        "hint; past it the move is stopped and a random legal move played (logged).",
    ),
    models: Optional[list[Path]] = typer.Option(
        None,
        "--models",
        help="Directory that agents named by a path "
        "(az:PATH, td:PATH ...) may load from, besides the shipped models "
        "(repeatable); any other path is refused unopened.",
    ),
) -> None:
    """Serve the web page: play Catan, Connect 4 and the other games against any agent, watch and replay."""
    try:
        import uvicorn

        from boardzero.web.app import create_app
        from boardzero.web.config import ServerConfig
    except ImportError as exc:
        raise ConfigError(
            "serve",
            f"the web extra is not installed ({exc.name} is missing): "
            "pip install 'boardzero[web]' (make install does it)",
        ) from None
    config = ServerConfig(
        host=host,
        port=port,
        db=db,
        max_active_games=max_games,
        max_body_bytes=max_body,
        bot_delay=delay,
        opponents=_per_game(opponent, "--opponent"),
        hint_agent=_per_game(hint_agent, "--hint-agent"),
        workers=workers,
        records=records,
        idle_minutes=idle_minutes,
        max_sims=max_sims,
        max_depth=max_depth,
        max_width=max_width,
        move_seconds=move_seconds,
        models=models,
    )
    _check_port_free(host, port)
    app = create_app(config)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"boardzero: games are kept in {config.db}")
    typer.echo(f"boardzero: open http://{shown}:{port}/ in a browser (Ctrl-C stops the server)")
    # requests still open after 2 s of a shutdown are cut, so a stop never waits on a slow client
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
