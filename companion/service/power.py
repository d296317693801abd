"""Power off, restart, maintenance as the front ends ask for them: a refusal worded as a message.

:mod:`companion.system.power` does the action and reports a refusal as a plain
:class:`~companion.system.power.Refused`; this module turns it into the
:class:`~companion.games.messages.Message` (``power.*``, in ``appliance.po``)
that the touchscreen's banner and the OLED show.
"""

from __future__ import annotations

from companion.games.messages import Message
from companion.system import power


def refusal_message(refusal: power.Refused) -> Message:
    """What the players are told when ``refusal`` came back."""
    if refusal.reason == "refused":
        return Message("power.refused", {"action": Message(f"power.action.{refusal.action.value}"),
                                         "detail": refusal.detail})
    return Message(f"power.{refusal.reason}")


def perform(action: power.PowerAction, run: power.Runner | None = None) -> Message | None:
    """Do ``action`` (through ``run`` instead of ``systemctl`` when given: the tests' stand-in);
    ``None`` when it was accepted, else why not, for the screen and the OLED."""
    refusal = power.perform(action) if run is None else power.perform(action, run)
    return None if refusal is None else refusal_message(refusal)
