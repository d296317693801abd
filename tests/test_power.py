"""Power off, restart and maintenance: the command lines, why the system refused (``companion.system``,
plain values) and what the players are told then (``companion.service.power``, messages)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import pytest

from companion.service.power import perform
from companion.system import power
from companion.system.power import PowerAction, Refused, command_for
from tests.refusals import assert_words


@pytest.mark.parametrize(("action", "command"), [
    (PowerAction.POWER_OFF, ["systemctl", "--no-ask-password", "poweroff"]),
    (PowerAction.RESTART, ["systemctl", "--no-ask-password", "reboot"]),
    (PowerAction.MAINTENANCE, ["systemctl", "--no-ask-password", "stop", "companion.service",
                               "companion-headless.service"]),
])
def test_each_action_is_one_systemctl_call_without_a_password_prompt(action: PowerAction,
                                                                     command: list[str]) -> None:
    assert command_for(action) == command


def test_an_accepted_action_says_nothing() -> None:
    asked: list[Sequence[str]] = []

    def accept(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        asked.append(command)
        return subprocess.CompletedProcess(command, 0, "", "")

    assert power.perform(PowerAction.RESTART, accept) is None
    assert perform(PowerAction.RESTART, accept) is None
    assert asked == [command_for(PowerAction.RESTART)] * 2


@pytest.mark.parametrize("action", list(PowerAction))
def test_a_refusal_says_what_was_refused_and_why_in_every_language(action: PowerAction) -> None:
    def refuse(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "Access denied\n(polkit)")

    assert power.perform(action, refuse) == Refused(action, "refused", "Access denied (polkit)")
    reason = perform(action, refuse)
    assert reason is not None and reason.code == "power.refused"
    assert reason.params["detail"] == "Access denied (polkit)"
    texts = assert_words(reason, ("Access denied (polkit)",))
    assert "Access denied (polkit)" in texts["hu"]


def test_a_machine_without_systemctl_is_told_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    assert power.perform(PowerAction.POWER_OFF) == Refused(PowerAction.POWER_OFF, "no_systemctl")
    reason = perform(PowerAction.POWER_OFF)  # the real runner: systemctl cannot be found
    assert reason is not None and reason.code == "power.no_systemctl"
    assert_words(reason)


def test_a_hung_system_is_told_so() -> None:
    def hang(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        raise subprocess.TimeoutExpired(list(command), 30)

    assert power.perform(PowerAction.RESTART, hang) == Refused(PowerAction.RESTART, "no_answer")
    reason = perform(PowerAction.RESTART, hang)
    assert reason is not None and reason.code == "power.no_answer"
    assert_words(reason)
    assert power.UNITS == ("companion.service", "companion-headless.service")
