"""The live page under a table's load: ``.venv/bin/python benchmarks/web_load.py [--update-docs]``.

Starts ``companion web`` (a real process, uvicorn) over a store holding the example games and
a Campanile game in progress, then for ``--seconds`` (60) seconds, from a second process:

- **50 phones**, each from a loopback address of its own as phones at a table are (the page
  caps the connections of one address), hold ``/events``; on each ``change`` every phone
  re-fetches its game's page, as ``web/static/live.js`` does, on a connection of its own kept
  alive as a browser keeps it;
- **10 page loads a second** (the index, each game, the statistics in turn), each on a new
  connection, as phones opening the page;
- a **move every 2 s** stored through the service (the app's path: ``Session.propose`` on the
  store with the writer's lock), undone every fourth time.

It prints against the budgets: **page p99 ≤ 100 ms** (every page load, the re-fetches after a
change included), **event lag p99 ≤ 1 s** (a move committed → the phone has the event; both
ends in the one load process, one clock), and the server's **memory** (RSS after the warm-up
and at the end: flat). Beside it, the **touchscreen's tap → widgets median** (the Campanile
screen's benchmark, ``benchmarks/ui_campanile.py``) with this load running and without: the
machine's cores are shared, so the touchscreen may slow while phones load pages.

``--update-docs`` writes the figures into ``docs/performance.md``. Exit 1 when a budget is over.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import machine, percentile, report, spread, write_block  # noqa: E402

EXAMPLES = ROOT / "tests" / "data" / "examples"
BEGIN, END = "<!-- web-load:begin -->", "<!-- web-load:end -->"
INTRO = """## The live page for phones

`.venv/bin/python benchmarks/web_load.py [--update-docs]` starts `companion web` over a store with
the example games and a Campanile game in progress, and loads it from a second process for 60 s:
50 phones hold `/events` and re-fetch their page at each change (as `live.js` does, on a
connection kept alive), 10 more
page loads a second on new connections, and a move stored through the service every 2 s (every
fourth one undone). *Page*: a request sent → the whole page read, every page load counted;
budget p99 ≤ 100 ms. *Event lag*: the move committed → the phone has its `change` event (both in
the one load process); budget p99 ≤ 1 s (the server polls the store every 0.2 s). *Memory*: the
server's RSS after the warm-up and at the end. Beside it, the Campanile screen's tap → widgets
median (`ui_campanile.py`) with this load running and without: on this shared 2-core machine the
touchscreen and the server compete for the cores (a Pi 4 has four).
"""
PHONES = 50
PAGES_PER_SECOND = 10
MOVE_EVERY = 2.0
PAGE_P99_BUDGET = 100.0
LAG_P99_BUDGET = 1000.0


# -- the load (the second process) ------------------------------------------------------------------
def _phone_address(number: int) -> str:
    """Phone ``number``'s own source address (each phone at a table has one; the page caps the
    connections of one address, web/connections.py): 127.0.3.1 and up, loopback all the same."""
    return f"127.0.{3 + number // 250}.{1 + number % 250}"


async def _get(host: str, port: int, target: str, source: str = "127.0.0.1") -> tuple[int, int]:
    """One GET on a new connection from ``source``: the status and the body's length."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    try:
        writer.write(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), len(body)


class Connection:
    """A phone's connection for its re-fetches, kept alive between them as a browser keeps it."""

    def __init__(self, host: str, port: int, source: str) -> None:
        self.host, self.port, self.source = host, port, source
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, target: str) -> tuple[int, int]:
        status, length, _ = await self.get_body(target)
        return status, length

    async def get_body(self, target: str) -> tuple[int, int, bytes]:
        """One GET on the kept connection: its status, length and body."""
        for attempt in range(2):
            if self.streams is None:
                self.streams = await asyncio.open_connection(self.host, self.port,
                                                             local_addr=(self.source, 0))
            reader, writer = self.streams
            try:
                writer.write(f"GET {target} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                body = await reader.readexactly(length)
                return int(head.split(b" ", 2)[1]), len(body), body
            except (OSError, asyncio.IncompleteReadError, StopIteration):
                writer.close()
                self.streams = None  # closed by the server while idle: once more on a new one
                if attempt:
                    raise
        raise OSError("unreachable")


class Load:
    def __init__(self, url: str, store: Path, seconds: float) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.token = parts.query.removeprefix("t=")
        self.store = store
        self.seconds = seconds
        self.pages: list[float] = []
        self.refetches: list[float] = []
        self.lags: list[float] = []
        self.failures: list[str] = []
        #: When each move was committed (monotonic), by the order of the commits.
        self.commits: list[float] = []
        self.stop = threading.Event()
        self.game_id = 0
        #: The re-fetches under way (kept, so that none is collected before it ends).
        self.tasks: set[asyncio.Future[None]] = set()

    async def page(self, target: str, into: list[float], connection: Connection | None = None) -> None:
        start = time.perf_counter()
        try:
            status, length = await (connection.get(target) if connection is not None
                                    else _get(self.host, self.port, target,
                                              _phone_address(len(self.pages) % PHONES)))
        except OSError as error:
            self.failures.append(f"{target}: {error}")
            return
        into.append((time.perf_counter() - start) * 1000)
        if status != 200 or not length:
            self.failures.append(f"{target}: {status}")

    async def phone(self, number: int, ready: asyncio.Event, opened: list[int]) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port,
                                                       local_addr=(_phone_address(number), 0))
        writer.write(f"GET /events?t={self.token} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        await writer.drain()
        opened.append(number)
        if len(opened) == PHONES:
            ready.set()
        seen = 0
        refetching = Connection(self.host, self.port, _phone_address(number))
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    arrived = time.monotonic()
                    version = int(json.loads(line[6:])["version"])
                    # the version counts the server's changes: every commit is one
                    for index in range(seen, min(version, len(self.commits))):
                        self.lags.append((arrived - self.commits[index]) * 1000)
                    seen = max(seen, version)
                    self.tasks.add(asyncio.ensure_future(
                        self.page(f"/game/{self.game_id}?t={self.token}", self.refetches, refetching)))
        finally:
            writer.close()

    def mover(self) -> None:
        """A move every MOVE_EVERY seconds through the service (the app's path), every fourth undone."""
        from companion.service.app import Companion

        with Companion.open(self.store) as app:
            live = app.resume(self.game_id)
            session = live.session
            count = 0
            while not self.stop.wait(MOVE_EVERY):
                count += 1
                if count % 4 == 0 and session.can_undo:
                    session.undo()
                else:
                    template = session.game.legal_moves(session.state)[0]
                    session.propose(session.game.parse_move(template))
                self.commits.append(time.monotonic())

    async def run(self) -> dict[str, Any]:
        ready, opened = asyncio.Event(), []
        phones = [asyncio.ensure_future(self.phone(n, ready, opened)) for n in range(PHONES)]
        await asyncio.wait_for(ready.wait(), 60)
        mover = threading.Thread(target=self.mover, daemon=True)
        targets = [f"/?t={self.token}", f"/stats?t={self.token}",
                   *[f"/game/{n}?t={self.token}" for n in range(1, self.game_id + 1)]]
        start = time.monotonic()
        mover.start()
        loads = []
        for tick in range(int(self.seconds * PAGES_PER_SECOND)):
            await asyncio.sleep(max(0.0, start + tick / PAGES_PER_SECOND - time.monotonic()))
            loads.append(asyncio.ensure_future(self.page(targets[tick % len(targets)], self.pages)))
        await asyncio.gather(*loads)
        self.stop.set()
        mover.join()
        await asyncio.sleep(2)  # the last move's events and re-fetches
        for phone in phones:
            phone.cancel()
        return {"pages": self.pages, "refetches": self.refetches, "lags": self.lags,
                "failures": self.failures[:20], "failed": len(self.failures), "moves": len(self.commits)}


def load_main(url: str, store: str, seconds: float, game_id: int) -> None:
    load = Load(url, Path(store), seconds)
    load.game_id = game_id
    print(json.dumps(asyncio.run(load.run())), flush=True)


# -- the benchmark (the first process) ------------------------------------------------------------
def _stock(data: Path) -> int:
    """The example games and a Campanile game in progress (its id returned)."""
    from companion.service.app import Companion

    data.mkdir(parents=True)
    with Companion.open(data / "companion.sqlite3") as app:
        for name in ("campanile-3p.json", "castelli.json", "san-gimignano.json"):
            app.import_record(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
        live = app.start("campanile", ["Albert", "Birgit", "Franziska"])
        return live.id


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _tap_median(rounds: int) -> float:
    """The Campanile screen's tap → widgets median over ``rounds`` games (benchmarks/ui_campanile.py)."""
    from benchmarks.ui_campanile import EXAMPLE, play_round
    from tests.ui_campanile_kit import Harness

    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    taps: list[float] = []
    with tempfile.TemporaryDirectory() as out:
        harness = Harness(Path(out))
        for _ in range(rounds):
            taps += play_round(harness, record)["tap"]
    return statistics.median(taps)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--update-docs", action="store_true",
                        help="write the figures into docs/performance.md")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load runs (default 60)")
    parser.add_argument("--load", nargs=3, metavar=("URL", "STORE", "GAME"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.load:
        load_main(args.load[0], args.load[1], args.seconds, int(args.load[2]))
        return 0

    from tests.child_output import ChildOutput
    from tests.ui_campanile_kit import prepare_environment

    prepare_environment()
    _tap_median(1)  # warm-up: the window, fonts and catalogues
    quiet_tap = _tap_median(2)

    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        game_id = _stock(data)
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        server = ChildOutput(subprocess.Popen(
            [sys.executable, "-m", "companion", "--data-dir", str(data), "web", "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment))
        try:
            url = server.next_line()
            asyncio.run(_warm_up(url, game_id))
            rss_start = _rss_kb(server.proc.pid)
            load = ChildOutput(subprocess.Popen(
                [sys.executable, __file__, "--seconds", str(args.seconds), "--load", url,
                 str(data / "companion.sqlite3"), str(game_id)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment))
            loaded_taps: list[float] = []
            while load.proc.poll() is None:
                loaded_taps.append(_tap_median(1))
            results = json.loads(load.next_line(timeout=120))
            load.finish()
            rss_end = _rss_kb(server.proc.pid)
        finally:
            server.proc.terminate()
            server.finish()

    pages = results["pages"] + results["refetches"]
    lags = results["lags"] or [float("inf")]
    page_p99, lag_p99 = percentile(pages, 0.99), percentile(lags, 0.99)
    loaded_tap = statistics.median(loaded_taps)
    rows = [
        ("page load, every one (median / p99 / max)", spread(pages, 1), f"p99 ≤ {PAGE_P99_BUDGET:g} ms",
         page_p99 <= PAGE_P99_BUDGET and results["failed"] == 0),
        ("… of which the steady 10 a second (median / p99 / max)", spread(results["pages"], 1), "", None),
        ("… of which the re-fetches after a change (median / p99 / max)", spread(results["refetches"], 1),
         "", None),
        ("event lag: move committed → the phone has the event (median / p99 / max)", spread(lags, 0),
         f"p99 ≤ {LAG_P99_BUDGET:g} ms", lag_p99 <= LAG_P99_BUDGET),
        ("server memory (RSS) after the warm-up → at the end",
         f"{rss_start / 1024:.1f} → {rss_end / 1024:.1f} MB", "flat", rss_end <= rss_start * 1.25),
        ("touchscreen tap → widgets median, without load → with it",
         f"{quiet_tap:.2f} → {loaded_tap:.2f} ms", "", None),
    ]
    over = report(rows, (80, 30, 14))
    summary = (f": {args.seconds:g} s, {PHONES} phones on /events, {PAGES_PER_SECOND} page loads a second, "
               f"{results['moves']} moves ({len(pages)} page loads, {len(results['lags'])} events, "
               f"{results['failed']} failed).")
    print(summary.removeprefix(": ") + f" Machine: {machine()}")
    if results["failures"]:
        print("failures:", *results["failures"], sep="\n  ")
    if args.update_docs:
        write_block((BEGIN, END), INTRO, summary, rows)
    return 1 if over else 0


async def _warm_up(url: str, game_id: int) -> None:
    """Every page once (the engines, catalogues and templates loaded) before memory is read."""
    parts = urlsplit(url)
    token = parts.query.removeprefix("t=")
    for target in ("/", "/stats", *[f"/game/{n}" for n in range(1, game_id + 1)]):
        await _get(parts.hostname or "127.0.0.1", parts.port or 80, f"{target}?t={token}")


if __name__ == "__main__":
    sys.exit(main())
