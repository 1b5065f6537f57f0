"""A bounded load on ``boardzero serve``: players and spectators over HTTP on 127.0.0.1 for a fixed time.

Starts a real server on a free loopback port with a fresh games file, then runs
``--players`` threads that each create a game against an agent and play it
(a new game when one ends, abandoned at the end) and ``--spectators`` threads
that poll the games being played, for ``--seconds``. Prints games created,
requests per second, latency percentiles, errors by kind, and the server's
resident memory at the start and the end. Everything is bounded: at most 64
players and 64 spectators, at most 65 minutes, and the server is stopped
(SIGTERM, then SIGKILL) however the run ends.

A soak: ``--seconds 3600 --sample-every 60`` also samples the server's memory
every minute and prints the series and its trend over the second half (a leak
grows it). After the server stops, the games file is read: every game a player
created must be there, with at least the moves the server acknowledged.

    nice -n 5 python bench/web_load.py --players 4 --spectators 8 --seconds 120
    nice -n 5 python bench/web_load.py --players 2 --spectators 4 --seconds 3600 --sample-every 60
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

LOOPBACK = "127.0.0.1"
MAX_CLIENTS = 64
MAX_SECONDS = 3900.0
GAMES = [("connect4", {}), ("tictactoe", {}), ("catan", {"players": 2})]


class Stats:
    """Latencies and outcomes of every request, shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.errors: Counter = Counter()
        self.created = 0
        self.acknowledged: Counter = Counter()  # game id -> moves the server answered 200 to

    def record(self, seconds: float, error: str | None) -> None:
        with self.lock:
            self.latencies.append(seconds)
            if error:
                self.errors[error] += 1


def call(stats: Stats, url: str, method: str = "GET", body=None, token: str | None = None):
    """One request, timed; returns the JSON answer or None (the error counted by status or exception)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
        stats.record(time.perf_counter() - started, None)
        return answer
    except urllib.error.HTTPError as exc:
        stats.record(time.perf_counter() - started, f"HTTP {exc.code}")
    except OSError as exc:
        stats.record(time.perf_counter() - started, type(exc).__name__)
    return None


def player(base: str, stats: Stats, live: list, until: float, rng: random.Random) -> None:
    """Create a game against the default opponent, play the first legal move whenever it is this seat's turn."""
    while time.monotonic() < until:
        name, options = rng.choice(GAMES)
        seats = ["human"] + ["random"] * ((options.get("players") or 2) - 1)
        created = call(
            stats, base + "/api/games", "POST", {"game": name, "options": options, "seats": seats, "delay": 0.05}
        )
        if created is None:
            time.sleep(0.5)
            continue
        with stats.lock:
            stats.created += 1
            stats.acknowledged[created["id"]] += 0
            live.append(created["id"])
        game_id, token = created["id"], created["tokens"]["0"]
        while time.monotonic() < until:
            snap = call(stats, f"{base}/api/games/{game_id}?seat=0", token=token)
            if snap is None or snap["over"]:
                break
            if snap["legal"]:
                move = rng.choice(snap["legal"])
                answer = call(
                    stats,
                    f"{base}/api/games/{game_id}/actions",
                    "POST",
                    {"seat": 0, "action": move["action"]},
                    token=token,
                )
                if answer is not None:
                    with stats.lock:
                        stats.acknowledged[game_id] += 1
            else:
                time.sleep(0.1)
        else:
            call(stats, f"{base}/api/games/{game_id}/abandon", "POST", token=created["tokens"]["host"])
        with stats.lock:
            live.remove(game_id)


def spectator(base: str, stats: Stats, live: list, until: float, rng: random.Random) -> None:
    """Poll a game being played, as the page does (the log from where it left off), and the game list."""
    seen: dict[str, int] = {}
    while time.monotonic() < until:
        with stats.lock:
            game_id = rng.choice(live) if live else None
        if game_id is None:
            call(stats, base + "/api/games")
        else:
            snap = call(stats, f"{base}/api/games/{game_id}?since={seen.get(game_id, 0)}")
            if snap is not None:
                seen[game_id] = snap["version"]
        time.sleep(0.25)


def rss_mib(pid: int) -> tuple[float, float, int]:
    """Resident memory (Linux /proc, MiB) of the server process alone, of it with its fork server and workers
    (pages they share counted in each), and how many processes that is."""
    sizes = []
    for proc in [pid, *_descendants(pid)]:
        try:
            fields = Path(f"/proc/{proc}/status").read_text().split("\n")
        except OSError:
            continue
        sizes.append(next((int(line.split()[1]) for line in fields if line.startswith("VmRSS:")), 0) / 1024)
    return (sizes[0] if sizes else float("nan")), sum(sizes), len(sizes)


def _descendants(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            children += [int(c) for c in (task / "children").read_text().split()]
    return children + [d for c in children for d in _descendants(c)]


def sample_memory(pid: int, every: float, until: float, samples: list) -> None:
    """(seconds since start, server MiB, with workers MiB) every ``every`` seconds until ``until``."""
    started = time.monotonic()
    while time.monotonic() < until:
        alone, total, _ = rss_mib(pid)
        samples.append((time.monotonic() - started, alone, total))
        time.sleep(max(0.0, min(every, until - time.monotonic())))


def trend_mib_per_hour(samples: list, column: int) -> float:
    """Least-squares slope of one memory column over the second half of the samples, in MiB per hour."""
    half = samples[len(samples) // 2 :]
    if len(half) < 2:
        return float("nan")
    xs, ys = [s[0] for s in half], [s[column] for s in half]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return 3600 * sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var else float("nan")


def stored(db: Path) -> dict[str, int]:
    """Game id -> actions stored, read from the games file once the server has stopped."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        counts = dict(con.execute("SELECT game_id, COUNT(*) FROM actions GROUP BY game_id"))
        return {game_id: counts.get(game_id, 0) for (game_id,) in con.execute("SELECT id FROM games")}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def start_server(port: int, db: Path, log: Path, extra: list[str]) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "boardzero.cli.main",
        "serve",
        "--host",
        LOOPBACK,
        "--port",
        str(port),
        "--db",
        str(db),
        "--delay",
        "0.05",
        "--max-games",
        "256",
        *extra,
    ]
    process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 180
    while True:
        try:
            with urllib.request.urlopen(f"http://{LOOPBACK}:{port}/api/meta", timeout=60):
                return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}") from None
            time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--players", type=int, default=4, help=f"players, each playing one game at a time (<= {MAX_CLIENTS})"
    )
    parser.add_argument("--spectators", type=int, default=8, help=f"spectators polling games (<= {MAX_CLIENTS})")
    parser.add_argument("--seconds", type=float, default=120.0, help=f"how long the load runs (<= {MAX_SECONDS:g})")
    parser.add_argument("--sample-every", type=float, default=0.0, help="seconds between memory samples (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--server-arg", action="append", default=[], help="an extra flag for boardzero serve")
    args = parser.parse_args()
    if not (
        0 < args.players <= MAX_CLIENTS and 0 <= args.spectators <= MAX_CLIENTS and 0 < args.seconds <= MAX_SECONDS
    ):
        parser.error(f"players 1..{MAX_CLIENTS}, spectators 0..{MAX_CLIENTS}, seconds up to {MAX_SECONDS:g}")
    with tempfile.TemporaryDirectory(prefix="boardzero-load-") as folder:
        with socket.socket() as probe:
            probe.bind((LOOPBACK, 0))
            port = probe.getsockname()[1]
        log = Path(folder) / "server.log"
        db = Path(folder) / "games.sqlite"
        process = start_server(port, db, log, args.server_arg)
        try:
            time.sleep(2.0)  # the agent workers' fork server finishes its imports
            rss_start = rss_mib(process.pid)
            stats, live, base = Stats(), [], f"http://{LOOPBACK}:{port}"
            until = time.monotonic() + args.seconds
            threads = [
                threading.Thread(target=player, args=(base, stats, live, until, random.Random(args.seed + i)))
                for i in range(args.players)
            ]
            threads += [
                threading.Thread(target=spectator, args=(base, stats, live, until, random.Random(-1 - i)))
                for i in range(args.spectators)
            ]
            samples: list = []
            if args.sample_every > 0:
                threads.append(
                    threading.Thread(target=sample_memory, args=(process.pid, args.sample_every, until, samples))
                )
            started = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(args.seconds + 120)
            elapsed = time.monotonic() - started
            rss_end = rss_mib(process.pid)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
        ms = [1000 * s for s in stats.latencies]
        print(f"players {args.players}, spectators {args.spectators}, {elapsed:.0f} s on {LOOPBACK}")
        print(f"games created {stats.created}; requests {len(ms)} ({len(ms) / elapsed:.1f}/s)")
        print(
            f"latency ms: p50 {percentile(ms, 0.5):.1f}, p95 {percentile(ms, 0.95):.1f}, "
            f"p99 {percentile(ms, 0.99):.1f}, max {max(ms, default=float('nan')):.1f}"
        )
        print(f"errors {sum(stats.errors.values())}: {dict(stats.errors) or 'none'}")
        for when, (alone, total, count) in (("start", rss_start), ("end", rss_end)):
            print(
                f"server RSS at the {when}: {alone:.0f} MiB; with its fork server and workers {total:.0f} MiB "
                f"({count} processes)"
            )
        print(f"server exit code after SIGTERM: {process.returncode} (cpu count {os.cpu_count()})")
        if samples:
            step = max(1, len(samples) // 12)
            series = ", ".join(f"{s[0] / 60:.0f} min {s[1]:.0f}/{s[2]:.0f}" for s in samples[::step])
            print(f"memory samples (server / with workers, MiB): {series}")
            print(
                f"trend over the second half: server {trend_mib_per_hour(samples, 1):+.1f} MiB/h, "
                f"with workers {trend_mib_per_hour(samples, 2):+.1f} MiB/h"
            )
        kept = stored(db)
        missing = [g for g in stats.acknowledged if g not in kept]
        short = [g for g, n in stats.acknowledged.items() if g in kept and kept[g] < n]
        print(
            f"games file: {len(kept)} games; created by the players {len(stats.acknowledged)}, missing {len(missing)}; "
            f"moves acknowledged {sum(stats.acknowledged.values())}, games storing fewer {len(short)}"
        )


if __name__ == "__main__":
    main()
