"""The live page under attack: ``.venv/bin/python benchmarks/web_siege.py [--seconds N] [--update-docs]``.

Starts ``companion web`` (a real process, its own limits: ``web/connections.py``) over a store
holding the example games, then for ``--seconds`` (30) seconds, from a second process, holds
what issue 34 found starving the page:

- **500 idle connections** spread over the source addresses 127.0.0.2 and up (10 each), each
  opened again as soon as the server closes it;
- **4 heads of 64 MB** (127.0.1.1 to .4), each sent in 64 kB writes, started again when cut off;
- **a slow-header client** (127.0.2.1): a head one byte a second, opened again when closed;

while **the phones** (127.0.0.1) load pages as players do: 10 phones, each a page every 0.5 s on
a new connection (the index, each game, the statistics in turn), and one phone holding
``/events``. It prints against the budgets: **every phone page answered, p99 ≤ 100 ms** (a
request sent → the whole page read), and the server's **memory** (RSS, sampled every 0.2 s, and
its peak, VmHWM) **under 200 MB**, the unit's ``MemoryMax``. Exit 1 when a budget is over.
``--update-docs`` writes the figures into ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
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
BEGIN, END = "<!-- web-siege:begin -->", "<!-- web-siege:end -->"
INTRO = """## The live page under attack

`.venv/bin/python benchmarks/web_siege.py [--update-docs]` starts `companion web` over the example
games and, from a second process, holds 500 idle connections (10 from each of 50 source addresses,
each opened again when closed), four 64 MB request heads (started again when cut off) and a
slow-header client (a byte a second), while ten phones on 127.0.0.1 load a page every 0.5 s each and
one holds `/events`. *Phone page*: a request sent → the whole page read; budget: every one answered,
p99 ≤ 100 ms. *Memory*: the server's RSS sampled every 0.2 s and its peak (VmHWM); budget: under the
unit's `MemoryMax=200M`.
"""
IDLE = 500
IDLE_PER_ADDRESS = 10
HUGE_HEADS = 4
HUGE_BYTES = 64 * 1024 * 1024
PHONES = 10
PHONE_EVERY = 0.5
PAGE_P99_BUDGET = 100.0
MEMORY_BUDGET_MB = 200.0


# -- the attack (the second process) ----------------------------------------------------------------
class Attack:
    """Holds the idle connections, the huge heads and the slow header until ``stop``."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.stop = asyncio.Event()
        self.opened = {"idle": 0, "huge": 0, "slow": 0}
        #: The most head bytes one connection wrote before the server cut it off.
        self.huge_most = 0

    async def _open(self, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            return await asyncio.open_connection(self.host, self.port, local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(0.1)
            return None

    async def idle(self, source: str) -> None:
        """One idle connection, opened again whenever the server closes it."""
        while not self.stop.is_set():
            streams = await self._open(source)
            if streams is None:
                continue
            self.opened["idle"] += 1
            reader, writer = streams
            with contextlib.suppress(OSError):
                closing = asyncio.ensure_future(reader.read())
                stopping = asyncio.ensure_future(self.stop.wait())
                await asyncio.wait((closing, stopping), return_when=asyncio.FIRST_COMPLETED)
                closing.cancel()
                stopping.cancel()
            writer.close()

    async def huge(self, source: str) -> None:
        """A 64 MB head in 64 kB writes, started again when cut off."""
        chunk = b"a" * 65536
        while not self.stop.is_set():
            streams = await self._open(source)
            if streams is None:
                continue
            self.opened["huge"] += 1
            _, writer = streams
            written = 0
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: table\r\nX-Huge: ")
                for _ in range(HUGE_BYTES // len(chunk)):
                    if self.stop.is_set() or writer.is_closing():
                        break
                    writer.write(chunk)
                    await writer.drain()
                    written += len(chunk)
            except OSError:
                pass
            self.huge_most = max(self.huge_most, written)
            writer.close()

    async def slow(self, source: str) -> None:
        """A head one byte a second, never ending; opened again when closed."""
        while not self.stop.is_set():
            streams = await self._open(source)
            if streams is None:
                continue
            self.opened["slow"] += 1
            _, writer = streams
            try:
                writer.write(b"GET / HTTP/1.1\r\nX-Slow: ")
                while not self.stop.is_set():
                    writer.write(b"a")
                    await writer.drain()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.stop.wait(), 1.0)
                    if writer.transport.is_closing():
                        break
            except OSError:
                pass
            writer.close()

    async def run(self, seconds: float) -> dict[str, Any]:
        tasks = [asyncio.ensure_future(self.idle(f"127.0.0.{2 + n // IDLE_PER_ADDRESS}"))
                 for n in range(IDLE)]
        tasks += [asyncio.ensure_future(self.huge(f"127.0.1.{1 + n}")) for n in range(HUGE_HEADS)]
        tasks.append(asyncio.ensure_future(self.slow("127.0.2.1")))
        print("attacking", flush=True)
        await asyncio.sleep(seconds)
        self.stop.set()
        await asyncio.wait(tasks, timeout=10)
        return {"opened": self.opened, "huge_most_kb": self.huge_most / 1024}


def attack_main(url: str, seconds: float) -> None:
    parts = urlsplit(url)
    result = asyncio.run(Attack(parts.hostname or "127.0.0.1", parts.port or 80).run(seconds))
    print(json.dumps(result), flush=True)


# -- the phones and the measuring (the first process) -------------------------------------------------
async def _get(host: str, port: int, target: str) -> int:
    """One GET from 127.0.0.1 on a new connection: the status (the whole answer read)."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=("127.0.0.1", 0))
    try:
        writer.write(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()
    return int(data.split(b" ", 2)[1]) if data else 0


class Phones:
    def __init__(self, url: str, games: int) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        token = parts.query.removeprefix("t=")
        self.targets = [f"/?t={token}", f"/stats?t={token}",
                        *[f"/game/{n}?t={token}" for n in range(1, games + 1)]]
        self.token = token
        self.times: list[float] = []
        self.failures: list[str] = []
        self.events_lines = 0

    async def phone(self, number: int, until: float) -> None:
        tick = number
        while time.monotonic() < until:
            target = self.targets[tick % len(self.targets)]
            tick += 1
            start = time.perf_counter()
            try:
                status = await _get(self.host, self.port, target)
            except (OSError, TimeoutError) as error:
                self.failures.append(f"{target.split('?')[0]}: {type(error).__name__}")
            else:
                self.times.append((time.perf_counter() - start) * 1000)
                if status != 200:
                    self.failures.append(f"{target.split('?')[0]}: {status}")
            await asyncio.sleep(PHONE_EVERY)

    async def events(self, until: float) -> None:
        """One phone holding /events for the whole run (its keep-alives counted)."""
        reader, writer = await asyncio.open_connection(self.host, self.port, local_addr=("127.0.0.1", 0))
        writer.write(f"GET /events?t={self.token} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        try:
            while time.monotonic() < until:
                line = await asyncio.wait_for(reader.readline(), max(0.1, until - time.monotonic()))
                if not line:
                    self.failures.append("/events: closed")
                    return
                self.events_lines += 1
        except TimeoutError:
            pass
        except OSError as error:
            self.failures.append(f"/events: {type(error).__name__}")
        finally:
            writer.close()

    async def run(self, seconds: float) -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(self.events(until), *[self.phone(n, until) for n in range(PHONES)])


def _status(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    return 0


def _stock(data: Path) -> int:
    from companion.service.app import Companion

    data.mkdir(parents=True)
    with Companion.open(data / "companion.sqlite3") as app:
        for name in ("campanile-3p.json", "castelli.json", "san-gimignano.json"):
            app.import_record(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
        return len(app.store.list_sessions())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the siege lasts (default 30)")
    parser.add_argument("--update-docs", action="store_true",
                        help="write the figures into docs/performance.md")
    parser.add_argument("--attack", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.attack:
        attack_main(args.attack, args.seconds)
        return 0

    from tests.child_output import ChildOutput

    rss: list[int] = []
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        games = _stock(data)
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        server = ChildOutput(subprocess.Popen(
            [sys.executable, "-m", "companion", "--data-dir", str(data), "web", "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment))
        try:
            url = server.next_line()
            phones = Phones(url, games)
            asyncio.run(_get_all(phones))  # warm-up: every page once
            rss_start = _status(server.proc.pid, "VmRSS")
            attack = ChildOutput(subprocess.Popen(
                [sys.executable, __file__, "--seconds", str(args.seconds + 5), "--attack", url],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment))
            assert attack.next_line(timeout=60) == "attacking"
            stop = threading.Event()

            def sample() -> None:
                while not stop.wait(0.2):
                    rss.append(_status(server.proc.pid, "VmRSS"))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            time.sleep(3)  # the attack in place before the phones start
            asyncio.run(phones.run(args.seconds))
            stop.set()
            sampler.join()
            if server.proc.poll() is not None:
                print("the server ended:", server.stderr_so_far()[-2000:], file=sys.stderr)
            peak = _status(server.proc.pid, "VmHWM")
            attacked = json.loads(attack.next_line(timeout=120))
            attack.finish()
        finally:
            server.proc.terminate()
            server.finish()

    times = phones.times or [float("inf")]
    page_p99 = percentile(times, 0.99)
    rows = [
        ("phone page on 127.0.0.1 under the siege (median / p99 / max)", spread(times, 1),
         f"p99 ≤ {PAGE_P99_BUDGET:g} ms", page_p99 <= PAGE_P99_BUDGET and not phones.failures),
        ("phone pages answered / failed", f"{len(phones.times)} / {len(phones.failures)}", "0 failed",
         not phones.failures),
        ("the phone holding /events: lines heard (keep-alives every 15 s)", str(phones.events_lines), "",
         None),
        ("server RSS: after the warm-up → highest sampled under the siege",
         f"{rss_start / 1024:.1f} → {max(rss, default=0) / 1024:.1f} MB", f"< {MEMORY_BUDGET_MB:g} MB",
         max(rss, default=0) / 1024 < MEMORY_BUDGET_MB),
        ("server peak RSS (VmHWM)", f"{peak / 1024:.1f} MB", f"< {MEMORY_BUDGET_MB:g} MB",
         peak / 1024 < MEMORY_BUDGET_MB),
        ("attack: idle / 64 MB-head / slow-header connections opened",
         "{idle} / {huge} / {slow}".format(**attacked["opened"]), "", None),
        ("attack: most head bytes one connection wrote before the cut",
         f"{attacked['huge_most_kb']:.0f} kB", "", None),
    ]
    over = report(rows, (70, 30, 14))
    summary = (f": {args.seconds:g} s, {IDLE} idle connections over {IDLE // IDLE_PER_ADDRESS} addresses, "
               f"{HUGE_HEADS} × 64 MB heads, 1 slow header, {PHONES} phones.")
    print(summary.removeprefix(": ") + f" Machine: {machine()}")
    if phones.failures:
        print("failures:", *sorted(set(phones.failures))[:20], sep="\n  ")
    if args.update_docs:
        write_block((BEGIN, END), INTRO, summary, rows)
    return 1 if over else 0


async def _get_all(phones: Phones) -> None:
    for target in phones.targets:
        await _get(phones.host, phones.port, target)


if __name__ == "__main__":
    sys.exit(main())
