"""Seat panels: one small board per seat on USB serial, speaking ``docs/serial-protocol.md``.

:class:`SeatPanels` keeps every configured port (a name, a URL such as
``loop://`` or ``socket://host:port``, or a glob such as ``/dev/ttyACM*``)
connected for as long as the companion runs, and never lets a panel hold up
the game:

- **one reader thread per port** opens it with :func:`serial.serial_for_url`
  (so ``loop://``, ``socket://`` and a pseudo-terminal take exactly the path
  a real port takes), cuts what arrives into bounded lines and parses them; a
  line that is not the protocol is counted and ignored. A port that cannot be
  opened, or fails, is closed and opened again with a growing back-off (a
  panel unplugged and plugged back in is picked up again); a glob is looked
  at again every few seconds for new boards.
- **one writer thread per port** empties a small bounded queue: the main
  loop only appends to it, so a panel that stops reading (or a port stuck in
  ``write``) never blocks the main loop; when the queue is full the oldest
  line goes.
- **a panel is paired, not trusted**: the seat in its ``HELLO`` is a request.
  It is granted when the configuration wires the port to that seat
  (``serial.wired``) or a person allowed this panel's identity (its id and
  USB serial number, :mod:`hardware.panel_pairing`) there before; otherwise
  :attr:`SeatPanels.on_request` asks (the OLED menu) and :meth:`SeatPanels.answer`
  takes the answer. A second claim of a held seat is refused and shown
  (:attr:`SeatPanels.on_refused`); a panel without a seat enters nothing.
- **the game is touched only on the main loop**: what a panel asks (its
  ``HELLO``, a key, a move) is posted with :meth:`Table.submit`, and the
  answers are computed there. A move is entered with the source
  ``panel:<seat>``; whether accepted or refused, the answer goes to the panel
  that entered it only. After every :class:`~companion.service.table.TableEvent` each
  panel that has said its seat is told whose turn it is, a short status and
  its seat's score.

Wiring it into an app (the headless composition, ``companion hardware test``)::

    panels = from_config(config, table)      # None without ports or with COMPANION_PANELS=none
    if panels is not None:
        panels.start()                       # returns at once; ports open in the background
    ...                                      # the main loop drains table.commands
    panels.close()

    for result in echo_from_config(config):  # the hardware test, while the app is not running
        print(str(result.message))           # in the current language

Every word a panel shows is from the catalogues (``panel.*`` in
``companion/locale/*/panels.po``), in the table's language (the current one,
:func:`companion.i18n.current_language`).
"""

from __future__ import annotations

import errno
import glob
import logging
import os
import secrets
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import serial

from companion.games.base import Game, IllegalMove, RecordError, StateT
from companion.games.messages import Message, msg
from companion.games.notation import LANGUAGES as NOTATION_LANGUAGES
from companion.games.notation import NotationError
from companion.i18n import current_language, text
from companion.service.table import Table, TableEvent
from hardware import panel_protocol as protocol
from hardware.panel_pairing import PAIRINGS, Identity, PairingRequest, Pairings, wired_seat, wired_seats
from hardware.panel_pairing import usb_serial as find_usb_serial

if TYPE_CHECKING:
    from companion.service.config import ConfigValues

log = logging.getLogger(__name__)

PortOpener = Callable[..., Any]

#: How long a read waits before looking at the stop flag again (seconds).
READ_TIMEOUT = 0.2
#: How long one write may take before the line is given up (seconds).
WRITE_TIMEOUT = 2.0
#: The first and the longest wait before opening a failed port again (seconds).
FIRST_RETRY = 0.5
LONGEST_RETRY = 10.0
#: How often a glob is looked at again for new boards (seconds).
SCAN_EVERY = 2.0
#: Lines waiting for a panel; beyond this the oldest is dropped.
QUEUE_LIMIT = 64
#: The raw lines kept per port for diagnostics (``companion hardware test``, the tests).
HEARD_LIMIT = 64
#: The environment variable that chooses the panels' backend (as for the buttons and the OLED).
BACKEND_VARIABLE = "COMPANION_PANELS"
BACKENDS = ("auto", "real", "mock", "none")


def is_glob(port: str) -> bool:
    """Whether ``port`` is a pattern of device names (``/dev/ttyACM*``) rather than one port or URL."""
    return "://" not in port and any(ch in port for ch in "*?[")


def source_of(seat: int) -> str:
    """The :class:`TableEvent` source of a move a panel entered."""
    return f"panel:{seat}"


class PanelPort:
    """One port (a name or URL): its reader and writer threads, what it heard, and its seat.

    ``seat`` and ``cursor`` belong to the main loop (set only by what
    :class:`SeatPanels` runs there); the queue, the counters and the port
    object are guarded by a condition shared by the two threads.
    """

    def __init__(self, owner: SeatPanels, url: str, from_glob: bool = False) -> None:
        self.url = url
        self.from_glob = from_glob
        self.seat: int | None = None
        #: The seat this port's panel asked for and waits to be allowed at (``None``: not waiting).
        self.asking: int | None = None
        #: Who the panel said it is in its last HELLO (``None`` before one, or on a wired port).
        self.identity: Identity | None = None
        #: The USB serial number of the device behind the port, looked up when it opens.
        self.usb_serial: str | None = None
        #: The move chosen with NEXT/PREV (an index into the seat's moves), -1 before the first.
        self.cursor = -1
        self.counts: Counter[str] = Counter()
        self.heard: deque[bytes] = deque(maxlen=HEARD_LIMIT)
        self._owner = owner
        self._out: deque[bytes] = deque(maxlen=owner.queue_limit)
        self._lock = threading.Condition()
        self._port: Any = None
        self._writing = False
        self.connected = False
        self.ended = threading.Event()
        self._reader = threading.Thread(target=self._read_loop, name=f"panel reader {url}", daemon=True)
        self._writer = threading.Thread(target=self._write_loop, name=f"panel writer {url}", daemon=True)

    def start(self) -> None:
        self._writer.start()
        self._reader.start()

    def join(self, timeout: float) -> None:
        with self._lock:
            self._lock.notify_all()
        self._reader.join(timeout)
        self._writer.join(timeout)

    def heard_lines(self) -> list[bytes]:
        """The last lines this port heard (parsed or not), oldest first: for diagnostics and tests."""
        with self._lock:
            return list(self.heard)

    # -- the main loop's side -------------------------------------------------
    def send(self, line: bytes) -> None:
        """Queue ``line`` for the panel; never blocks. Dropped while the port is not open."""
        with self._lock:
            if self._port is None:
                return
            full = len(self._out) == self._out.maxlen
            self._out.append(line)
            self._lock.notify_all()
        if full:  # counted outside the lock: wait_for holds its condition while it reads the counts
            self._count("dropped")

    # -- the writer thread ------------------------------------------------------
    def _write_loop(self) -> None:
        stop = self._owner._stop
        while True:
            with self._lock:
                while not stop.is_set() and not (self._out and self._port is not None):
                    self._lock.wait()
                if stop.is_set():
                    return
                line, port = self._out.popleft(), self._port
                self._writing = True
            try:
                port.write(line)
            except serial.SerialTimeoutException:
                self._count("write_timeout")
            except Exception as error:  # OSError, SerialException, a port closed under it: the reader retries
                log.debug("writing to the seat panel on %s failed: %s", self.url, error)
                self._count("write_failed")
                with self._lock:
                    self._out.clear()
            finally:
                with self._lock:
                    self._writing = False
                    self._lock.notify_all()

    # -- the reader thread ---------------------------------------------------------
    def _read_loop(self) -> None:
        owner, stop = self._owner, self._owner._stop
        delay = owner.first_retry
        complained = False
        try:
            while not stop.is_set():
                try:
                    port = owner.open_port(self.url, baudrate=owner.baudrate, timeout=READ_TIMEOUT,
                                           write_timeout=WRITE_TIMEOUT, exclusive=True)
                except Exception as error:  # SerialException (an OSError), ValueError for a bad URL
                    self._count("open_failed")
                    if not complained:
                        log.warning("seat panel %s cannot be opened (%s); trying again", self.url, error)
                        complained = True
                    if self.from_glob and not os.path.exists(self.url):
                        return  # the board is gone; the glob finds it again when it is back
                    stop.wait(delay)
                    delay = min(delay * 2, owner.longest_retry)
                    continue
                complained, delay = False, owner.first_retry
                log.info("seat panel on %s connected", self.url)
                self._serve(port)
                if not stop.is_set():
                    log.warning("seat panel on %s went away; trying again", self.url)
                    stop.wait(delay)
        finally:
            self.ended.set()
            owner._changed_now()

    def _serve(self, port: Any) -> None:
        splitter = protocol.LineSplitter()
        self.usb_serial = self._owner.usb_serial(self.url)  # before any HELLO is posted
        with self._lock:
            self._port = port
            self._out.clear()
            self._out.append(protocol.hello_line())
            self._lock.notify_all()
        self.connected = True
        self._count("connected")
        stop = self._owner._stop
        try:
            while not stop.is_set():
                data = port.read(max(1, min(port.in_waiting, 4096)))
                for item in splitter.feed(data):
                    self._heard(item)
        except Exception as error:  # a pulled plug is an OSError/SerialException; nothing here is fatal
            log.debug("reading from the seat panel on %s failed: %s", self.url, error)
        finally:
            with self._lock:
                self._port = None
                self._out.clear()
                while self._writing:
                    self._lock.wait(WRITE_TIMEOUT)
            try:
                port.close()
            except Exception as error:
                log.debug("closing the seat panel on %s failed: %s", self.url, error)
            self.connected = False
            self._count("disconnected")
            self._owner._post(lambda panels: panels._forget(self))

    def _heard(self, item: bytes | protocol.ProtocolError) -> None:
        if isinstance(item, protocol.ProtocolError):
            self._count(item.kind)
            return
        with self._lock:
            self.heard.append(item)
        try:
            line = protocol.parse_line(item)
        except protocol.ProtocolError as error:
            self._count(error.kind)
            return
        if line is None:
            return
        self._count("lines")
        owner = self._owner
        if isinstance(line, protocol.Hello):
            owner._post(lambda panels: panels._greet(self, line))
        elif isinstance(line, protocol.Key):
            owner._post(lambda panels: panels._key(self, line.name))
        elif isinstance(line, protocol.MoveText):
            owner._post(lambda panels: panels._enter(self, line.text))
        elif isinstance(line, protocol.MoveJson):
            owner._post(lambda panels: panels._enter(self, line.data))
        elif isinstance(line, protocol.Ping):
            self.send(protocol.pong_line())
        else:  # an Echo outside the hardware test: nothing to do
            self._count("echo")

    def _count(self, kind: str) -> None:
        with self._lock:
            self.counts[kind] += 1
        self._owner._changed_now()


class SeatPanels:
    """Every seat panel of the table: threads per port, answers computed on the main loop."""

    def __init__(self, table: Table, ports: Sequence[str], baudrate: int = 115200, *,
                 open_port: PortOpener | None = None, first_retry: float = FIRST_RETRY,
                 longest_retry: float = LONGEST_RETRY, scan_every: float = SCAN_EVERY,
                 queue_limit: int = QUEUE_LIMIT, wired: Mapping[str, int] | None = None,
                 usb_serial: Callable[[str], str | None] = find_usb_serial,
                 on_request: Callable[[PairingRequest], None] | None = None,
                 on_refused: Callable[[Message], None] | None = None) -> None:
        self.table = table
        self.ports = tuple(ports)
        self.baudrate = baudrate
        self.open_port: PortOpener = open_port or serial.serial_for_url
        self.first_retry = first_retry
        self.longest_retry = longest_retry
        self.scan_every = scan_every
        self.queue_limit = queue_limit
        #: Ports the configuration wires to a seat (``serial.wired``): seated without a question.
        self.wired: Mapping[str, int] = dict(wired or {})
        #: How a port's USB serial number is found (udev's, through pyserial; tests put their own).
        self.usb_serial = usb_serial
        #: Called on the main loop when a panel not yet allowed asks for a seat; the front end asks
        #: a person and calls :meth:`answer`. Without one, nobody can allow a new panel.
        self.on_request = on_request
        #: Called on the main loop with what a front end should show: a refused claim of a taken seat.
        self.on_refused = on_refused
        self.pairings = Pairings(lambda: table.app.store.get_setting(PAIRINGS),
                                 lambda value: table.app.store.set_setting(PAIRINGS, value))
        #: Panels a person refused, with the seat, while this runs: not asked about again (a device
        #: that repeats its HELLO cannot keep the OLED asking).
        self._refused: set[tuple[Identity, int]] = set()
        self._stop = threading.Event()
        self._changed = threading.Condition()
        self._links: dict[str, PanelPort] = {}
        self._links_lock = threading.Lock()
        self._scanner: threading.Thread | None = None
        self._unlisten: Callable[[], None] | None = None

    # -- life ------------------------------------------------------------------------
    def start(self) -> SeatPanels:
        """Listen to the table and open every port (in the background; nothing here waits for one)."""
        self._unlisten = self.table.listen(self._on_event)
        for port in self.ports:
            if not is_glob(port):
                self._add(port, from_glob=False)
        if any(is_glob(port) for port in self.ports):
            self._scan()
            self._scanner = threading.Thread(target=self._scan_loop, name="panel scanner", daemon=True)
            self._scanner.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop every thread and close every port (each thread notices within a read time-out)."""
        self._stop.set()
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        if self._scanner is not None:
            self._scanner.join(timeout)
        for link in self.links():
            link.join(timeout)

    def __enter__(self) -> SeatPanels:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _add(self, url: str, from_glob: bool) -> None:
        with self._links_lock:
            if url in self._links and not self._links[url].ended.is_set():
                return
            link = self._links[url] = PanelPort(self, url, from_glob)
        link.start()

    def _scan(self) -> None:
        for pattern in self.ports:
            if is_glob(pattern):
                for path in sorted(glob.glob(pattern)):
                    self._add(path, from_glob=True)

    def _scan_loop(self) -> None:
        while not self._stop.wait(self.scan_every):
            try:
                self._scan()
            except Exception:  # a scan that fails is tried again at the next one
                log.exception("looking for seat panels failed")

    # -- looking in (diagnostics, tests) ------------------------------------------------
    def links(self) -> list[PanelPort]:
        """The ports known now (a glob's boards as they were found)."""
        with self._links_lock:
            return list(self._links.values())

    def link(self, url: str) -> PanelPort | None:
        with self._links_lock:
            return self._links.get(url)

    def counts(self) -> Counter[str]:
        """What every port counted: ``lines``, ``unknown``, ``malformed``, ``overlong``,
        ``encoding``, ``connected``, ``disconnected``, ``open_failed``, ``dropped`` …"""
        total: Counter[str] = Counter()
        for link in self.links():
            with link._lock:
                total.update(link.counts)
        return total

    def wait_for(self, condition: Callable[[SeatPanels], bool], timeout: float) -> bool:
        """Wait until ``condition(self)`` holds (checked whenever a port counts something); for tests
        and the hardware test, never for the main loop."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.5))
        return True

    def _changed_now(self) -> None:
        with self._changed:
            self._changed.notify_all()

    # -- on the main loop ----------------------------------------------------------------
    def _post(self, command: Callable[[SeatPanels], None]) -> None:
        """Run ``command(self)`` on the main loop (from a reader thread)."""
        future = self.table.submit(lambda _table: command(self))
        future.add_done_callback(_log_failure)

    def _on_event(self, _table: Table, event: TableEvent) -> None:
        if event.kind == "refused":
            return  # a panel's own refusal is answered by _enter; another front end's is not its business
        for link in self.links():
            if link.seat is not None:
                link.cursor = -1
                self._push(link)

    def _greet(self, link: PanelPort, hello: protocol.Hello) -> None:
        """A panel's HELLO: seat it when its port is wired to that seat or the panel was allowed
        there; refuse it when another panel holds the seat; otherwise ask a person (:attr:`on_request`),
        once: a HELLO repeated while the question is open, or after a "no", asks nothing."""
        was_asking = (link.identity, link.asking)
        link.seat, link.asking, link.identity = None, None, None
        if hello.version != protocol.VERSION:
            link.send(protocol.refused_line(text("panel.hello.version", version=hello.version,
                                                 supported=protocol.VERSION)))
            return
        wired = wired_seat(self.wired, link.url)
        if wired is not None and hello.seat != wired:
            link.send(protocol.refused_line(text("panel.seat.wired", seat=wired)))
            return
        if wired is None and hello.panel_id is None:
            link.send(protocol.refused_line(text("panel.pair.no_id")))
            return
        identity = (None if wired is not None
                    else Identity.heard(str(hello.panel_id), link.usb_serial, link.url))
        link.identity = identity
        if not self._claim_free(link, hello.seat):
            return
        if wired is not None or (identity is not None and self.pairings.allows(identity, hello.seat)):
            self._seat(link, hello.seat)
            return
        assert identity is not None
        if (identity, hello.seat) in self._refused:
            link.send(protocol.refused_line(text("panel.pair.refused", seat=hello.seat)))
            return
        link.asking = hello.seat
        link.send(protocol.refused_line(text("panel.pair.asking", seat=hello.seat)))
        if was_asking == (identity, hello.seat):
            return  # the question is on the OLED already
        log.info("the panel %s on %s asks for seat %d", identity.shown(), link.url, hello.seat)
        if self.on_request is not None:
            self.on_request(PairingRequest(link.url, hello.seat, identity, self._player(hello.seat)))

    def _claim_free(self, link: PanelPort, seat: int) -> bool:
        """Whether ``link`` may have ``seat`` as far as other ports go; a second claim is refused and
        shown. The same USB panel (same id and serial number, not wired) on a new port takes its seat
        from its stale old port, which is told: one device cannot be on two ports. Without a serial
        number nothing proves that, so a device repeating a seated panel's HELLO on another port
        never takes the seat (its identity holds its own port, never equal to the holder's)."""
        holder = next((other for other in self.links() if other is not link and other.seat == seat), None)
        if holder is None:
            return True
        if (link.identity is not None and link.identity.usb_serial is not None
                and holder.identity == link.identity):
            holder.seat = None
            holder.send(protocol.refused_line(text("panel.seat.taken", seat=seat)))
            return True
        link.seat, link.asking = None, None
        link.send(protocol.refused_line(text("panel.seat.held", seat=seat)))
        log.warning("a panel on %s asked for seat %d, which the panel on %s holds: refused",
                    link.url, seat, holder.url)
        if self.on_refused is not None:
            self.on_refused(msg("panel.seat.second_claim", seat=seat, port=link.url))
        return False

    def _seat(self, link: PanelPort, seat: int) -> None:
        link.seat, link.asking, link.cursor = seat, None, -1
        self._push(link)

    def answer(self, request: PairingRequest, allowed: bool) -> None:
        """On the main loop: a person's answer to ``request``. Allowed, the panel is remembered at
        the seat (and seated, if it still waits on that port and nobody took the seat meanwhile);
        refused, it is told so."""
        link = self.link(request.port)
        waiting = (link is not None and link.connected and link.asking == request.seat
                   and link.identity == request.identity)
        if not allowed:
            self._refused.add((request.identity, request.seat))
            if waiting and link is not None:
                link.asking = None
                link.send(protocol.refused_line(text("panel.pair.refused", seat=request.seat)))
            return
        self._refused.discard((request.identity, request.seat))
        if waiting and link is not None and not self._claim_free(link, request.seat):
            return
        try:
            self.pairings.pair(request.identity, request.seat)
        except Exception as error:  # a store that cannot be written: seated now, asked again next time
            log.warning("the panel %s at seat %d cannot be remembered: %s", request.identity.shown(),
                        request.seat, error)
        if waiting and link is not None:
            self._seat(link, request.seat)

    def _forget(self, link: PanelPort) -> None:
        link.seat, link.asking = None, None  # a HELLO after the panel came back is posted after this

    def _unseated(self, link: PanelPort) -> str:
        """Why a panel without a seat may not play: it waits to be allowed, or never said HELLO."""
        if link.asking is not None:
            return text("panel.pair.waiting", seat=link.asking)
        return text("panel.seat.unknown")

    def _player(self, seat: int) -> str | None:
        session = self.table.session
        if session is None or not 1 <= seat <= len(session.players):
            return None
        return session.players[seat - 1]

    def _push(self, link: PanelPort) -> None:
        assert link.seat is not None
        for line in self.lines_for(link.seat):
            link.send(line)

    def lines_for(self, seat: int) -> list[bytes]:
        """What the panel at ``seat`` is told after every event: SEAT, TURN, STATUS and SCORE."""
        session = self.table.session
        player = self._player(seat)
        if session is None:
            return [protocol.seat_line(seat, None), protocol.turn_line("none", None),
                    protocol.status_line(text("panel.status.no_game")), protocol.score_line(None)]
        if player is None:
            return [protocol.seat_line(seat, None), protocol.turn_line("none", None),
                    protocol.status_line(text("panel.status.not_playing", seat=seat)),
                    protocol.score_line(None)]
        game, state = session.game, session.state
        outcome = game.outcome(state)
        score = next((s.score for s in outcome.standings if s.player == player), None)
        if game.is_finished(state):
            winners = list(outcome.winners)
            whose, acting = "none", None
            status = text("panel.status.over", winners=winners, count=len(winners))
        else:
            turn = game.turn(state)
            acting = turn.acting  # "the acting player" of every screen
            if turn.player is None and turn.may:  # between turns the table enters something (a refill)
                whose, acting = "table", turn.next
                status = (text("panel.status.table_then", player=turn.next) if turn.next
                          else text("panel.status.table"))
            elif acting == player:
                whose, status = "you", text("panel.status.your_turn")
            elif acting is not None:
                whose, status = "other", text("panel.status.turn_of", player=acting)
            else:
                whose, status = "table", text("panel.status.table")
        return [protocol.seat_line(seat, player), protocol.turn_line(whose, acting),
                protocol.status_line(status), protocol.score_line(score)]

    def _key(self, link: PanelPort, key: str) -> None:
        if link.seat is None:
            link.send(protocol.refused_line(self._unseated(link)))
            return
        session, player = self.table.session, self._player(link.seat)
        if session is None or player is None:
            link.send(protocol.refused_line(self._why_not_playing(link.seat)))
            return
        game, state = session.game, session.state
        choices = [t for t in game.move_templates(state) if t.get("player") == player]
        if not choices:
            link.cursor = -1
            link.send(protocol.pick_line(0, 0, text("panel.pick.none")))
            return
        if key == "OK":
            if not 0 <= link.cursor < len(choices):
                link.send(protocol.refused_line(text("panel.pick.first")))
                return
            self._enter(link, choices[link.cursor], template=True)
            return
        step = 1 if key == "NEXT" else -1
        if link.cursor < 0:
            link.cursor = 0 if step == 1 else len(choices) - 1
        else:
            link.cursor = (min(link.cursor, len(choices) - 1) + step) % len(choices)
        link.send(protocol.pick_line(link.cursor + 1, len(choices),
                                     game.describe(state, choices[link.cursor], _notation_language())))

    def _why_not_playing(self, seat: int) -> str:
        if self.table.session is None:
            return text("panel.status.no_game")
        return text("panel.status.not_playing", seat=seat)

    def _enter(self, link: PanelPort, move: str | Mapping[str, Any], template: bool = False) -> None:
        """Enter a move from the panel at ``link`` (the notation, record JSON or a chosen template)
        for its own seat, and tell that panel only what became of it."""
        seat = link.seat
        if seat is None:
            link.send(protocol.refused_line(self._unseated(link)))
            return
        session, player = self.table.session, self._player(seat)
        if session is None or player is None:
            link.send(protocol.refused_line(self._why_not_playing(seat)))
            return
        game, state, language = session.game, session.state, _notation_language()
        try:
            if isinstance(move, str):
                data = _read_notation(game, state, move, player, language)
                template = True
            else:
                data = dict(move)
            try:
                parsed = game.parse_move(data)
            except RecordError:
                if not template:
                    raise
                link.send(protocol.refused_line(text("panel.move.incomplete",
                                                     move=game.describe(state, data, language))))
                return
            if game.actor(parsed) != player:
                link.send(protocol.refused_line(text("panel.move.not_your_seat", player=player)))
                return
            words = game.describe(state, game.move_to_json(parsed), language)
            self.table.propose(parsed, source_of(seat))
        except (IllegalMove, NotationError, RecordError) as refusal:
            link.send(protocol.refused_line(str(refusal)))
            return
        except Exception:
            log.exception("a move from the seat panel at seat %d failed", seat)
            link.send(protocol.refused_line(text("panel.move.failed")))
            return
        link.send(protocol.accepted_line(words))


def _read_notation(game: Game[StateT, Any], state: StateT, said: str, player: str,
                   language: str) -> dict[str, Any]:
    """The move ``said`` means on ``player``'s panel: without a name it is the seat's player's move
    (not the acting player's, as on the shared console); a text that names someone is read as it is."""
    try:
        return game.parse_notation(state, f"{player}: {said}", language)
    except NotationError:
        return game.parse_notation(state, said, language)


def _notation_language() -> str:
    language = current_language()
    return language if language in NOTATION_LANGUAGES else "en"


def _log_failure(future: Any) -> None:
    error = future.exception()
    if error is not None:
        log.error("a seat panel's command failed: %s", error, exc_info=error)


# -- the composition ---------------------------------------------------------------------

def backend(environ: Mapping[str, str]) -> str:
    """The panels' backend from ``$COMPANION_PANELS`` (``auto`` when unset or not one of :data:`BACKENDS`)."""
    chosen = environ.get(BACKEND_VARIABLE, "").strip().lower() or "auto"
    if chosen not in BACKENDS:
        log.warning("%s=%s is not one of %s; using auto", BACKEND_VARIABLE, chosen, ", ".join(BACKENDS))
        return "auto"
    return chosen


def from_config(config: ConfigValues, table: Table,
                environ: Mapping[str, str] | None = None) -> SeatPanels | None:
    """The seat panels of ``config`` (``serial.panels``, ``serial.baudrate``), not started; ``None``
    when no port is configured or ``$COMPANION_PANELS`` is ``none``.

    A panel has no simulation of its own: ``real``, ``mock`` and ``auto`` all
    open the configured ports, and ``loop://`` or a pseudo-terminal is how a
    laptop simulates one (``docs/serial-protocol.md``).
    """
    environ = os.environ if environ is None else environ
    try:
        wired = wired_seats(config["serial.wired"])
    except KeyError:  # a configuration from before the key: nothing is wired
        wired = {}
    ports = list(config["serial.panels"])
    ports += [port for port in wired if port not in ports]  # a wired port is a panel's port too
    if not ports or backend(environ) == "none":
        return None
    return SeatPanels(table, ports, baudrate=int(config["serial.baudrate"]), wired=wired)


# -- the hardware test -------------------------------------------------------------------

@dataclass(frozen=True)
class EchoResult:
    """What one port did in the echo test; ``message`` says it in the player's words."""

    port: str
    ok: bool
    seat: int | None
    message: Message


def echo_test(ports: Iterable[str], baudrate: int = 115200, timeout: float = 2.0,
              open_port: PortOpener | None = None) -> list[EchoResult]:
    """Ask each panel (a glob is expanded) to echo a random token; one :class:`EchoResult` each.

    For ``companion hardware test``, while the app is not running (the ports
    are then free). A port that cannot be opened, or whose panel stays silent
    for ``timeout`` seconds, is reported, never raised.
    """
    opener = open_port or serial.serial_for_url
    urls: list[str] = []
    for port in ports:
        urls.extend(sorted(glob.glob(port)) if is_glob(port) else [port])
    if not urls:
        return []
    return [_echo_one(url, baudrate, timeout, opener) for url in urls]


def echo_from_config(config: ConfigValues, timeout: float = 2.0) -> list[EchoResult]:
    """:func:`echo_test` on the ports and baud rate of ``config`` (``serial.panels``, ``serial.baudrate``)."""
    return echo_test(config["serial.panels"], int(config["serial.baudrate"]), timeout)


def _cannot_open(url: str, error: Exception) -> Message:
    """Why ``url`` cannot be opened, in words for whoever wires the box (the two usual causes named)."""
    number = getattr(error, "errno", None)
    if number == errno.ENOENT:
        return msg("panel.echo.missing", port=url)
    if number in (errno.EACCES, errno.EPERM):
        return msg("panel.echo.no_permission", port=url)
    return msg("panel.echo.cannot_open", port=url, reason=str(error))


def _echo_one(url: str, baudrate: int, timeout: float, opener: PortOpener) -> EchoResult:
    try:
        port = opener(url, baudrate=baudrate, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT,
                      exclusive=True)
    except Exception as error:
        return EchoResult(url, False, None, _cannot_open(url, error))
    token = secrets.token_hex(4)
    seat: int | None = None
    try:
        port.write(protocol.hello_line() + protocol.echo_line(token))
        splitter = protocol.LineSplitter()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for item in splitter.feed(port.read(max(1, min(port.in_waiting, 4096)))):
                if isinstance(item, protocol.ProtocolError):
                    continue
                try:
                    line = protocol.parse_line(item)
                except protocol.ProtocolError:
                    continue
                if isinstance(line, protocol.Hello):
                    seat = line.seat
                elif isinstance(line, protocol.Echo) and line.token == token:
                    if seat is None:
                        return EchoResult(url, True, None, msg("panel.echo.ok_no_seat", port=url))
                    return EchoResult(url, True, seat, msg("panel.echo.ok", port=url, seat=seat))
    except Exception as error:
        return EchoResult(url, False, seat, msg("panel.echo.failed", port=url, reason=str(error)))
    finally:
        try:
            port.close()
        except Exception as error:
            log.debug("closing %s after the echo test failed: %s", url, error)
    return EchoResult(url, False, seat, msg("panel.echo.silent", port=url, seconds=timeout))
