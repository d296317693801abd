"""Whether the wall clock can be trusted yet.

A Raspberry Pi has no battery-backed clock, and a games table often has no
network: until systemd-timesyncd has synchronised the clock, "now" may be the
last shutdown's time or a day in 1970. A game started then is stored with an
unsure date, and the players confirm or set the date before it goes to BG
Stats. Nothing the companion orders (which game is newest, which backup is
oldest) depends on the wall clock: the store orders by its own sequence.
"""

from __future__ import annotations

from pathlib import Path

#: systemd-timesyncd creates this file once the clock is synchronised (systemd-timesyncd.service(8)).
SYNCHRONISED = Path("/run/systemd/timesync/synchronized")


def clock_is_sure(synchronised: Path = SYNCHRONISED) -> bool:
    """False only where timesyncd runs (its folder exists) and has not synchronised the clock yet.

    A laptop or a box whose clock is kept some other way (an RTC, chrony)
    has no such folder: its clock is taken as it is.
    """
    if synchronised.exists():
        return True
    return not synchronised.parent.is_dir()
