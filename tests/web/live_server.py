"""A real ``boardzero serve`` process on 127.0.0.1 for the load and browser tests, and a tiny JSON client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

QUICK_OPPONENTS = ["catan=heuristic", "connect4=random", "tictactoe=random", "kuhn_poker=random"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class HttpError(Exception):
    def __init__(self, status: int, body: dict):
        super().__init__(f"{status}: {body}")
        self.status, self.body = status, body


def call(url: str, method: str = "GET", body=None, token: str | None = None, timeout: float = 30.0):
    """One JSON request; raises HttpError for a 4xx/5xx answer, OSError when the server is away."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise HttpError(exc.code, json.loads(exc.read() or b"{}")) from None


class LiveServer:
    """``with LiveServer(db, "--delay", "0") as server: call(server.url + "/api/meta")``."""

    def __init__(self, db: Path, *args: str, port: int | None = None, log: Path | None = None):
        self.db, self.args, self.port = Path(db), list(args), port or free_port()
        self.log = log or self.db.with_suffix(".log")
        self.process = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 180.0) -> float:
        """Start the server and wait until it answers; returns the seconds that took."""
        started = time.monotonic()
        command = [
            sys.executable,
            "-m",
            "boardzero.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
            *[f"--opponent={o}" for o in QUICK_OPPONENTS],
            *self.args,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(command, stdout=self.log.open("a"), stderr=subprocess.STDOUT, env=env)
        while True:
            try:
                call(self.url + "/api/meta", timeout=60)
                return time.monotonic() - started
            except (OSError, HttpError):
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}") from None
                if time.monotonic() - started > timeout:
                    raise TimeoutError(f"the server did not answer within {timeout} s") from None
                time.sleep(0.2)

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL): only what was stored survives."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
