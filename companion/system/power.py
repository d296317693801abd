"""Switching the Pi off, restarting it, or stopping the companion for maintenance.

Pulling the plug must not be the only way to switch the appliance off. The
menus (a long press on the touchscreen, the OLED menu) offer these actions
behind a protected step; this module does the action itself, through
``systemctl``, which asks logind (power off, restart) or the service manager
(stop the unit) on the companion's behalf. The polkit rule that
``systemd/install.sh`` writes allows exactly these to the service's user, and
nothing else.

"Maintenance" stops the unit by hand: ``Restart=always`` does not restart a
unit stopped on purpose, and the unit is enabled, so the companion is back at
the next boot.

A refusal comes back as a plain :class:`Refused` (why, and what systemctl
said), not as a message: ``companion.system`` knows nothing of message codes,
and :mod:`companion.service.power` words it for the screens.
"""

from __future__ import annotations

import enum
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

#: The units a maintenance stop ends (whichever of them runs).
UNITS = ("companion.service", "companion-headless.service")


class PowerAction(enum.Enum):
    POWER_OFF = "power_off"
    RESTART = "restart"
    MAINTENANCE = "maintenance"


def command_for(action: PowerAction) -> list[str]:
    """The command line that does ``action`` (``--no-ask-password``: never a prompt on a kiosk)."""
    if action is PowerAction.POWER_OFF:
        return ["systemctl", "--no-ask-password", "poweroff"]
    if action is PowerAction.RESTART:
        return ["systemctl", "--no-ask-password", "reboot"]
    return ["systemctl", "--no-ask-password", "stop", *UNITS]


@dataclass(frozen=True)
class Refused:
    """Why ``action`` was not done: ``no_systemctl`` (a machine without it), ``no_answer`` (it
    timed out) or ``refused`` (it said no; ``detail`` is what it said, on one line)."""

    action: PowerAction
    reason: Literal["no_systemctl", "no_answer", "refused"]
    detail: str = ""


Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=30, check=False)


def perform(action: PowerAction, run: Runner = _run) -> Refused | None:
    """Do ``action``; ``None`` when it was accepted, else why not."""
    command = command_for(action)
    try:
        done = run(command)
    except FileNotFoundError:
        return Refused(action, "no_systemctl")
    except subprocess.TimeoutExpired:
        return Refused(action, "no_answer")
    if done.returncode != 0:
        detail = " ".join((done.stderr or done.stdout or "").split())[:120]
        return Refused(action, "refused", detail)
    return None
