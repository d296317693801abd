"""A panel id is bound to where it was paired (issue 34, defect 18).

A panel's id is only what a device says. With a USB serial number a paired panel is known by
both, and may move to another port; without one, nothing proved that a device on another port
saying ``HELLO 1 2 <the paired id>`` was the paired panel, yet after a restart it got
``SEAT 2 Birgit`` with no question; and two devices repeating the same HELLO took the seat from
each other. Real pseudo-terminals behind ``/dev/ttyACM*``-like links (a link per port, so that
two ports never share a name however the pseudo-terminals are numbered), real threads; every
wait is on a condition with a generous time-out.
"""

from __future__ import annotations

from pathlib import Path

from hardware.panel_pairing import PAIRINGS, Identity, Pairings
from tests import helpers_campanile as camp
from tests.panel_helpers import PtyPanel, pump
from tests.test_panel_pairing import BUILD, Asked, _hello, _move, panels_answer, started, table

__all__ = ["started", "table"]  # the fixtures, used by name

HELLO = "HELLO 1 2 birgit-panel"
BIRGIT = {**BUILD, "player": "Birgit"}


def _pair_birgit(table, started, port: Path, **options):
    """Birgit's panel (no USB serial number unless ``options`` give one) allowed at seat 2 on ``port``."""
    panel, asked = PtyPanel(port), Asked()
    panels = started([panel], asked, **options)
    _hello(table, panels, panel, HELLO)
    panels_answer(table, panels, asked.requests[-1], True)
    pump(table, lambda: panels.link(panel.name).seat == 2)
    return panels, panel


def test_after_a_restart_the_paired_id_on_another_port_without_a_usb_serial_is_asked_about(
        table, started, tmp_path) -> None:
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    panels, birgit = _pair_birgit(table, started, tmp_path / "ttyACM0")
    panels.close()
    birgit.unplug()

    other, asked = PtyPanel(tmp_path / "ttyACM1"), Asked()  # the companion started again
    panels = started([other], asked)
    _hello(table, panels, other, HELLO)
    assert other.got("SEAT") == [] and panels.link(other.name).seat is None
    assert other.got("REFUSED")[-1] == "allow this panel at seat 2 on the companion"
    assert [(r.port, r.seat, r.identity) for r in asked.requests] == [
        (other.name, 2, Identity("birgit-panel", port=other.name))]
    assert _move(table, other, BIRGIT) == "REFUSED waiting to be allowed at seat 2 on the companion"
    assert table.session.log == ()
    assert table.app.store.get_setting(PAIRINGS) == {  # the pairing holds its port
        "2": {"id": "birgit-panel", "usb": None, "port": str(tmp_path / "ttyACM0")}}


def test_while_it_runs_the_paired_id_on_another_port_is_asked_about_and_its_own_port_is_seated(
        table, started, tmp_path) -> None:
    """The variation: no restart; the paired panel unplugged, the id heard on another port, then the
    paired panel back on its own port (seated again without a question)."""
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    first = tmp_path / "ttyACM0"
    birgit, other, asked = PtyPanel(first), PtyPanel(tmp_path / "ttyACM1"), Asked()
    panels = started([birgit, other], asked)
    _hello(table, panels, birgit, HELLO)
    panels_answer(table, panels, asked.requests[-1], True)
    pump(table, lambda: panels.link(birgit.name).seat == 2)
    birgit.unplug()
    pump(table, lambda: panels.link(str(first)).seat is None)

    _hello(table, panels, other, HELLO)
    assert panels.link(other.name).seat is None and other.got("SEAT") == []
    assert asked.requests[-1].identity == Identity("birgit-panel", port=other.name)

    back = PtyPanel(first)  # the paired panel on its own port again
    pump(table, lambda: panels.link(str(first)).connected and "1" in back.got("HELLO"), timeout=60)
    _hello(table, panels, back, HELLO)
    assert back.got("SEAT")[-1] == "2 Birgit" and len(asked.requests) == 2
    back.unplug()


def test_a_device_repeating_a_seated_panels_hello_never_takes_its_seat(table, started, tmp_path) -> None:
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    birgit, copy, asked = PtyPanel(tmp_path / "ttyACM0"), PtyPanel(tmp_path / "ttyACM1"), Asked()
    panels = started([birgit, copy], asked)
    _hello(table, panels, birgit, HELLO)
    panels_answer(table, panels, asked.requests[-1], True)
    pump(table, lambda: panels.link(birgit.name).seat == 2)

    for _ in range(3):  # the copy repeats the very same HELLO; the seated panel answers with its own
        _hello(table, panels, copy, HELLO)
        assert copy.got("REFUSED")[-1] == "seat 2 has its panel already"
        assert panels.link(birgit.name).seat == 2 and panels.link(copy.name).seat is None
        _hello(table, panels, birgit, HELLO)
        assert birgit.got("SEAT")[-1] == "2 Birgit"
    assert "another panel took seat 2" not in birgit.got("REFUSED")
    # the seated panel still speaks for Birgit (the rules answer it); the copy speaks for nobody
    assert _move(table, birgit, BIRGIT) == "REFUSED it is Albert's turn to build, not Birgit's"
    assert _move(table, copy, BIRGIT) == "REFUSED say HELLO with your seat first"
    assert len(asked.requests) == 1


def test_a_usb_panel_moved_to_another_port_takes_its_seat_from_its_stale_port(table, started,
                                                                              tmp_path) -> None:
    """The serial number is the proof the id alone is not: the same board on a new port is the same
    panel (its old port, not yet noticed gone, is told)."""
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    old, new, asked = PtyPanel(tmp_path / "ttyACM0"), PtyPanel(tmp_path / "ttyACM1"), Asked()
    panels = started([old, new], asked, usb_serial=lambda url: "E660583883265F2A")
    _hello(table, panels, old, HELLO)
    panels_answer(table, panels, asked.requests[-1], True)
    pump(table, lambda: panels.link(old.name).seat == 2)
    _hello(table, panels, new, HELLO)
    assert new.got("SEAT")[-1] == "2 Birgit" and panels.link(old.name).seat is None
    assert len(asked.requests) == 1


def test_a_pairing_kept_without_its_port_pairs_nothing() -> None:
    """A pairing without a serial number written before ports were kept matches no panel (it asks
    again once); one with a serial number still does."""
    stored = {"value": {"1": {"id": "a", "usb": None}, "2": {"id": "b", "usb": "S1", "port": "/dev/x"},
                        "3": {"id": "c", "usb": None, "port": "/dev/ttyACM0"}}}
    pairings = Pairings(lambda: stored["value"], lambda value: stored.update(value=value))
    assert not pairings.allows(Identity.heard("a", None, "/dev/ttyACM0"), 1)
    assert pairings.allows(Identity.heard("b", "S1", "/dev/ttyACM9"), 2)
    assert pairings.allows(Identity.heard("c", None, "/dev/ttyACM0"), 3)
    assert not pairings.allows(Identity.heard("c", None, "/dev/ttyACM1"), 3)
