"""Which seat panel may stand at which seat: pairings remembered in the store, ports wired by the config.

A panel used to be whatever seat its ``HELLO`` said, so any device on a
panel's port could play every seat. Now a panel names itself with an id it
made once and keeps (the third field of its ``HELLO``), and a USB panel also
by the serial number udev reports for its port; together they are its
:class:`Identity`. A seat is given to an identity only after someone at the
companion allowed it (the OLED menu asks), and that is remembered here, in
the store's ``settings`` table under :data:`PAIRINGS` (a structured value
like the boards and flag tables: no schema change), so the same panel is
seated again without a question after a restart or a replug. A panel whose
port reports no USB serial number is known by its id *and its port*: the id
alone is only what a device says, and any device can say it, so the same id
on another port is asked about again.

A port the configuration lists as fixed wiring (``serial.wired``, a UART
inside the box) needs no question: the wire is the pairing, and a panel on it
can stand at that seat only.

Nothing here touches a port or a thread; :mod:`hardware.panels` asks.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: The store setting that keeps the pairings: ``{"<seat>": {"id": ..., "usb": ... or null}}``, and
#: ``"port"`` for a panel without a USB serial number.
PAIRINGS = "panels.paired"


@dataclass(frozen=True)
class Identity:
    """Who a panel says it is: its own id and, on a USB port, the serial number udev reports; without
    a serial number, the port it was heard on.

    Two identities are the same panel only when every part is equal: a
    device that copies a panel's id but sits on another USB board is not it,
    and neither is one that copies the id of a panel without a USB serial
    number from another port: nothing proves that it is the same device, so a
    pairing without a serial number holds on its own port only (on another
    port the panel is asked about again). Build one with :meth:`heard`.
    """

    panel_id: str
    usb_serial: str | None = None
    #: The port (its name or URL as configured or found) when there is no USB serial number.
    port: str | None = None

    @classmethod
    def heard(cls, panel_id: str, usb_serial: str | None, port: str) -> Identity:
        """The identity of a panel that said ``panel_id`` on ``port``: bound to its USB serial
        number when the port has one, else to the port."""
        return cls(panel_id, usb_serial, None if usb_serial is not None else port)

    def shown(self) -> str:
        """The identity in one short line for logs and the OLED (``id/usb`` or ``id@port``)."""
        if self.usb_serial is not None:
            return f"{self.panel_id}/{self.usb_serial}"
        return self.panel_id if self.port is None else f"{self.panel_id}@{self.port}"


@dataclass(frozen=True)
class PairingRequest:
    """A panel on ``port`` asks for ``seat``; a front end asks a person and calls the answer."""

    port: str
    seat: int
    identity: Identity
    #: Who sits at that seat in the open game (``None``: nobody, or no game), for the question.
    player: str | None


class Pairings:
    """The remembered pairings, seat by seat: read through ``read``, written through ``write``.

    A seat has at most one paired panel and a panel at most one seat: allowing
    a panel at a seat forgets whatever panel was paired there before, and the
    seat the panel had. A value in the store that is not the expected shape
    pairs nothing (a damaged pairing asks again rather than seating anyone).
    """

    def __init__(self, read: Callable[[], Any], write: Callable[[Any], None]) -> None:
        self._read = read
        self._write = write

    def _load(self) -> dict[int, Identity]:
        try:
            raw = self._read()
        except Exception as error:  # a store that cannot be read pairs nothing; every panel asks again
            log.warning("the panels' pairings cannot be read (%s)", error)
            return {}
        found: dict[int, Identity] = {}
        if not isinstance(raw, Mapping):
            return found
        for seat, entry in raw.items():
            if not (isinstance(seat, str) and seat.isascii() and seat.isdigit()):
                continue
            if not isinstance(entry, Mapping):
                continue
            panel_id, usb, port = entry.get("id"), entry.get("usb"), entry.get("port")
            if isinstance(panel_id, str) and (usb is None or isinstance(usb, str)):
                # a pairing without a serial number and without its port (from before ports were
                # kept) matches no panel: each is asked about once more
                found[int(seat)] = Identity(panel_id, usb, port if usb is None and isinstance(port, str)
                                            else None)
        return found

    def seats(self) -> dict[int, Identity]:
        """Every remembered pairing, by seat."""
        return self._load()

    def allows(self, identity: Identity, seat: int) -> bool:
        """Whether ``identity`` was allowed at ``seat`` (and not replaced there since)."""
        return self._load().get(seat) == identity

    def pair(self, identity: Identity, seat: int) -> None:
        """Remember ``identity`` at ``seat``; raises what the store raises when it cannot write."""
        paired = {s: who for s, who in self._load().items() if who != identity}
        paired[seat] = identity
        self._write({str(s): {"id": who.panel_id, "usb": who.usb_serial,
                              **({"port": who.port} if who.port is not None else {})}
                     for s, who in sorted(paired.items())})


def wired_seats(entries: Iterable[str]) -> dict[str, int]:
    """The configuration's fixed wiring (``serial.wired``: ``"PORT=SEAT"`` each) as port -> seat.

    The configuration's check (:mod:`companion.service.config`) refuses a bad
    entry before it gets here; one that still does not read is left out.
    """
    wired: dict[str, int] = {}
    for entry in entries:
        port, _, seat = entry.rpartition("=")
        if port and seat.isascii() and seat.isdigit():
            wired[port] = int(seat)
    return wired


def wired_seat(wired: Mapping[str, int], url: str) -> int | None:
    """The seat ``url`` is wired to, by its name or by the device a link points at (``None``: not wired)."""
    if url in wired:
        return wired[url]
    if "://" in url:
        return None
    real = os.path.realpath(url)
    for port, seat in wired.items():
        if "://" not in port and os.path.realpath(port) == real:
            return seat
    return None


def usb_serial(url: str) -> str | None:
    """The USB serial number udev reports for the device at ``url`` (``None``: not a USB device).

    pyserial's ``list_ports`` reads it from sysfs, where udev's
    ``ID_SERIAL_SHORT`` comes from too; a ``/dev/serial/by-id`` link is
    followed to its device first.
    """
    if "://" in url:
        return None
    from serial.tools import list_ports  # pyserial: loaded only where panels are configured

    real = os.path.realpath(url)
    try:
        ports = list_ports.comports()
    except Exception as error:  # sysfs unreadable: the panel is known by its id alone
        log.debug("listing the serial ports failed: %s", error)
        return None
    for port in ports:
        if os.path.realpath(port.device) == real:
            return port.serial_number or None
    return None
