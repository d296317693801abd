"""The log: one line for the first fault, then a count, never a flood."""

from __future__ import annotations

import io
import logging

import pytest

from companion.system.logs import RepeatFilter, configure


@pytest.fixture(autouse=True)
def _root_logger_restored():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_a_repeating_fault_is_logged_once_per_interval_with_a_count() -> None:
    now = [0.0]
    stream = io.StringIO()
    handler = configure(logging.INFO, stream)
    handler.filters[0] = RepeatFilter(every=60.0, clock=lambda: now[0])
    log = logging.getLogger("hardware.oled")
    try:
        for frame in range(1000):
            now[0] = frame * 0.05  # a frame every 50 ms for 50 s
            log.warning("the OLED does not answer: %s", f"I2C error on frame {frame}")
        now[0] = 61.0
        log.warning("the OLED does not answer: %s", "I2C error again")
        log.info("a move was stored")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert lines == ["WARNING hardware.oled: the OLED does not answer: I2C error on frame 0",
                     "WARNING hardware.oled: the OLED does not answer: I2C error again "
                     "(and 999 more like it since the last one)",
                     "INFO hardware.oled: a move was stored"]


def test_different_faults_are_each_logged() -> None:
    keep = RepeatFilter(every=60.0, clock=lambda: 0.0)

    def record(name: str, msg: str) -> logging.LogRecord:
        return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, None, None)

    assert keep.filter(record("hardware.oled", "no OLED"))
    assert keep.filter(record("hardware.panels", "no OLED"))
    assert keep.filter(record("hardware.oled", "no buttons"))
    assert not keep.filter(record("hardware.oled", "no OLED"))


def test_below_the_level_nothing_is_written() -> None:
    stream = io.StringIO()
    handler = configure(logging.WARNING, stream)
    try:
        logging.getLogger("companion").info("quiet")
    finally:
        logging.getLogger().removeHandler(handler)
    assert stream.getvalue() == ""
