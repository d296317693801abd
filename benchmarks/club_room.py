"""A club room: ``.venv/bin/python benchmarks/club_room.py [--update-docs] [--seconds 60]``.

Starts Debian's Mosquitto (tests/broker_kit.py) and ``companion club serve`` (a real process,
uvicorn, the subscriber), then, from a second process, for ``--seconds`` (60) seconds:

- **50 tables**, each a paho client of its own, publish their status every second (retained,
  QoS 1, the contract's payload: players, scores, whose turn, the last move) and a finished play
  every 10 s (staggered; the record and the summary the project's replay gives, QoS 1, retained);
- **20 phones**, each from a loopback address of its own, hold ``/events`` and, at each
  ``change``, fetch the club page again on a connection kept alive, as ``web/static/live.js`` does.

It prints against the budgets: **page p99 ≤ 100 ms** (a phone's request → the whole page read),
**a table's change on the club page ≤ 1 s** (table 1 numbers its last move; from publishing
number N to the first page a phone reads that shows it, one clock: the load process's), and the
club server's **memory** (RSS sampled every 5 s: flat — the end at most 25 % over the sample after
the warm-up, though the store grows by 300 plays). ``--update-docs`` writes the figures into
``docs/performance.md``. Exit 1 when a budget is over.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import machine, percentile, report, spread, write_block  # noqa: E402
from benchmarks.web_load import Connection, _phone_address, _rss_kb  # noqa: E402

DATA = ROOT / "tests" / "data"
RECORDS = [DATA / "over" / "campanile-5p-tiebreak.json", DATA / "over" / "castelli-4p-shared.json",
           DATA / "played" / "castelli-4p-cards.json", DATA / "over" / "san-gimignano-3p-shared.json",
           DATA / "over" / "san-gimignano-4p-tiebreak.json"]
CLUB = "Benchmark club"
TABLES = 50
PHONES = 20
STATUS_EVERY = 1.0
PLAY_EVERY = 10.0
RSS_EVERY = 5.0
PAGE_P99_BUDGET = 100.0
CHANGE_BUDGET = 1000.0
BEGIN, END = "<!-- club-room:begin -->", "<!-- club-room:end -->"
INTRO = """## A club room: the club server

`.venv/bin/python benchmarks/club_room.py [--update-docs]` starts Mosquitto and `companion club
serve`, and loads them from a second process for 60 s: 50 tables (a paho client each) publish their
status every second and a finished play every 10 s (the contract's payloads: a real record and the
summary the project's replay gives, which the club server replays again to check), and 20 phones hold
`/events` and fetch the club page again at each change, as `live.js` does. *Page*: a phone's request →
the whole page read; budget p99 ≤ 100 ms. *Change visible*: table 1 numbers its last move; from
publishing number N to the first page a phone reads that shows it; budget ≤ 1 s (the page looks for
changes every 0.25 s and makes the page before it tells the phones). *Memory*: the club server's RSS
sampled every 5 s; flat (the end within 25 % of the sample after the warm-up, while the store grows
by 300 plays).
"""


# -- the load (the second process) ------------------------------------------------------------------
def _payloads() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each record and its summary as ``companion replay --json`` gives it (made once)."""
    from companion.i18n import summary_json
    from companion.service.records import final_state, parse_record

    made = []
    for path in RECORDS:
        record = json.loads(path.read_text(encoding="utf-8"))
        parsed = parse_record(record)
        made.append((record, summary_json(parsed.game.summary(final_state(parsed)))))
    return made


class Tables:
    """50 tables publishing from threads of their own (one paho client and one thread each)."""

    def __init__(self, broker_url: str) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        parts = urlsplit(broker_url)
        self.plays = _payloads()
        self.clients = []
        for number in range(TABLES):
            client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-table-{number}")
            client.connect(parts.hostname or "127.0.0.1", parts.port or 1883)
            client.loop_start()
            self.clients.append(client)
        self.stop = threading.Event()
        #: When table 1 published its last move number N (monotonic), by N.
        self.marked: dict[int, float] = {}
        self.sent_plays = 0

    def status(self, number: int, tick: int) -> bytes:
        seats = [("Anna", tick % 40), ("Bela", (tick * 3) % 40), ("Csaba", (tick * 7) % 40)]
        return json.dumps({
            "v": 1, "kind": "status", "club": CLUB, "table": f"Table {number + 1}", "online": True,
            "sent_at": datetime.now(UTC).isoformat(), "clock_sure": True, "language": "en",
            "game": "campanile", "play": None,
            "players": [{"name": name, "colour": None, "score": score} for name, score in seats],
            "turn": seats[tick % 3][0], "finished": False,
            "last_move": {"player": seats[tick % 3][0], "text": f"move #{tick}"}, "championship": None,
        }).encode()

    def play(self, number: int, tick: int) -> tuple[str, bytes]:
        record, summary = self.plays[(number + tick) % len(self.plays)]
        id = str(uuid.uuid4())
        return f"companion/{CLUB}/plays/{id}", json.dumps({
            "v": 1, "kind": "play", "id": id, "club": CLUB, "table": f"Table {number + 1}",
            "finished_at": datetime.now(UTC).isoformat(), "clock_sure": True, "record": record,
            "summary": summary, "championship": None}).encode()

    def run_table(self, number: int, start: float, seconds: float) -> None:
        client = self.clients[number]
        offset = number / TABLES  # the statuses spread over each second, the plays over 10 s
        tick = 0
        while not self.stop.is_set():
            at = start + offset + tick * STATUS_EVERY
            if at > start + seconds:
                return
            time.sleep(max(0.0, at - time.monotonic()))
            client.publish(f"companion/{CLUB}/tables/Table {number + 1}/status", self.status(number, tick),
                           qos=1, retain=True)
            if number == 0:
                self.marked[tick] = time.monotonic()
            if tick % int(PLAY_EVERY / STATUS_EVERY) == number % int(PLAY_EVERY / STATUS_EVERY):
                client.publish(*self.play(number, tick), qos=1, retain=True)
                self.sent_plays += 1
            tick += 1

    def close(self) -> None:
        for client in self.clients:
            client.disconnect()
            client.loop_stop()


class Phones:
    def __init__(self, url: str, tables: Tables) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.token = parts.query.removeprefix("t=")
        self.tables = tables
        self.pages: list[float] = []
        self.lags: list[float] = []
        self.seen_marks: set[int] = set()
        self.failures: list[str] = []
        self.sizes: list[int] = []

    async def fetch(self, connection: Connection) -> None:
        start = time.perf_counter()
        try:
            status, length, body = await connection.get_body(f"/?t={self.token}")
        except OSError as error:
            self.failures.append(str(error))
            return
        self.pages.append((time.perf_counter() - start) * 1000)
        self.sizes.append(length)
        if status != 200:
            self.failures.append(str(status))
            return
        arrived = time.monotonic()
        found = re.search(rb"Anna|Bela|Csaba", body) and re.search(rb"Table 1<.*?move #(\d+)", body, re.S)
        if found:
            mark = int(found.group(1))
            if mark not in self.seen_marks and mark in self.tables.marked:
                self.seen_marks.add(mark)
                self.lags.append((arrived - self.tables.marked[mark]) * 1000)

    async def phone(self, number: int, ready: list[int]) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port,
                                                       local_addr=(_phone_address(number), 0))
        writer.write(f"GET /events?t={self.token} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        await writer.drain()
        ready.append(number)
        connection = Connection(self.host, self.port, _phone_address(number))
        fetching: asyncio.Future[None] | None = None
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"data: ") and (fetching is None or fetching.done()):
                    fetching = asyncio.ensure_future(self.fetch(connection))  # (one at a time, as live.js)
        finally:
            writer.close()


async def _load(url: str, broker_url: str, seconds: float) -> dict[str, Any]:
    tables = Tables(broker_url)
    phones = Phones(url, tables)
    ready: list[int] = []
    holders = [asyncio.ensure_future(phones.phone(n, ready)) for n in range(PHONES)]
    while len(ready) < PHONES:
        await asyncio.sleep(0.05)
    start = time.monotonic() + 0.5
    threads = [threading.Thread(target=tables.run_table, args=(n, start, seconds), daemon=True)
               for n in range(TABLES)]
    for thread in threads:
        thread.start()
    await asyncio.get_running_loop().run_in_executor(None, lambda: [t.join() for t in threads])
    await asyncio.sleep(3)  # the last statuses reach the page
    for holder in holders:
        holder.cancel()
    tables.close()
    return {"pages": phones.pages, "lags": phones.lags, "failures": phones.failures[:20],
            "failed": len(phones.failures), "plays": tables.sent_plays, "marks": len(tables.marked),
            "largest_page": max(phones.sizes or [0])}


# -- the benchmark (the first process) ------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--update-docs", action="store_true",
                        help="write the figures into docs/performance.md")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load runs (default 60)")
    parser.add_argument("--load", nargs=2, metavar=("URL", "BROKER"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.load:
        print(json.dumps(asyncio.run(_load(args.load[0], args.load[1], args.seconds))), flush=True)
        return 0

    from tests.broker_kit import running_broker
    from tests.child_output import ChildOutput

    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as folder, running_broker(Path(folder) / "broker") as broker:
        server = ChildOutput(subprocess.Popen(
            [sys.executable, "-m", "companion", "--data-dir", str(Path(folder) / "data"), "club", "serve",
             "--broker", broker.url, "--club", CLUB, "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment))
        samples: list[int] = []
        try:
            url = server.next_line()
            with urllib.request.urlopen(url, timeout=60) as answer:  # warm-up: the templates and catalogues
                answer.read()
            load = ChildOutput(subprocess.Popen(
                [sys.executable, __file__, "--seconds", str(args.seconds), "--load", url, broker.url],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment))
            while load.proc.poll() is None:
                samples.append(_rss_kb(server.proc.pid))
                time.sleep(RSS_EVERY)
            results = json.loads(load.next_line(timeout=120))
            load.finish()
            samples.append(_rss_kb(server.proc.pid))
        finally:
            server.proc.terminate()
            server.finish()
        refused = server.stderr_so_far().count("refused")

    pages = results["pages"] or [float("inf")]
    lags = results["lags"] or [float("inf")]
    page_p99, lag_worst = percentile(pages, 0.99), max(lags)
    warm = samples[min(2, len(samples) - 1)]  # after the first 10 s: engines, catalogues, templates loaded
    rows = [
        ("page: a phone's request → the whole page (median / p99 / max)", spread(pages, 1),
         f"p99 ≤ {PAGE_P99_BUDGET:g} ms", page_p99 <= PAGE_P99_BUDGET and results["failed"] == 0),
        ("a table's change visible on a phone's page (median / p99 / max)", spread(lags, 0),
         f"≤ {CHANGE_BUDGET:g} ms", lag_worst <= CHANGE_BUDGET),
        ("club server memory (RSS) after the warm-up → at the end",
         f"{warm / 1024:.1f} → {samples[-1] / 1024:.1f} MB", "flat", samples[-1] <= warm * 1.25),
        ("club server memory, every 5 s (MB)", " ".join(f"{s / 1024:.0f}" for s in samples), "", None),
    ]
    over = report(rows, (70, 40, 14))
    summary = (f": {args.seconds:g} s, {TABLES} tables (a status a second each), {results['plays']} plays, "
               f"{PHONES} phones on /events ({len(results['pages'])} page loads, the largest "
               f"{results['largest_page'] / 1024:.0f} kB, {results['failed']} failed; {len(results['lags'])} "
               f"changes followed; {refused} messages refused).")
    print(summary.removeprefix(": ") + f" Machine: {machine()}")
    if results["failures"]:
        print("failures:", *results["failures"], sep="\n  ")
    if args.update_docs:
        write_block((BEGIN, END), INTRO, summary, rows)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
