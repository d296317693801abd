"""The wiring the docs show is the wiring the code uses (hardware/wiring.py, docs/wiring*.svg, the tables).

The pictures are checked twice: drawn again from the code and compared with
the committed files, and read back pin by pin against the code's pins (the
configuration's defaults, the I2C and SPI buses, luma.core's DC and RST) and
against the Raspberry Pi's header as this test writes it down on its own. A
pin changed in the code, and not in the picture and the table, fails here.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.service.config import KEYS, defaults
from hardware import wiring

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"

#: The 40-pin header, from the Raspberry Pi's pinout, written here apart from hardware/wiring.py:
#: physical pin -> "3.3 V", "5 V", "GND" or the BCM number.
HEADER = {1: "3.3 V", 2: "5 V", 3: 2, 4: "5 V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
          11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3.3 V", 18: 24, 19: 10, 20: "GND",
          21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
          31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21}
#: The configuration's keys that name a GPIO pin: every one must be drawn.
PIN_KEYS = {"buttons.undo", "buttons.confirm", "buttons.valuation", "buttons.menu",
            "encoder.a", "encoder.b", "encoder.push"}


def _luma_default(name: str) -> int:
    from luma.core import cmdline

    return int(getattr(cmdline.create_parser(description="test").parse_args([]), name))


def _expected_bcm(source: str, terminal: str, config: dict) -> object:
    """What the code says the wire's pin is: a BCM number, "3.3 V" or "GND"."""
    if source == "3.3 V":
        return "3.3 V"
    if source == "ground":
        return "GND"
    if source.startswith("luma.core: "):
        return _luma_default(source.removeprefix("luma.core: "))
    if source == "oled.bus":
        assert config["oled.bus"] == 1, "the header carries I2C bus 1 only"
        return {"SDA": 2, "SCL": 3}[terminal]
    if source == "oled.spi_port":
        assert config["oled.spi_port"] == 0
        return {"D1 (MOSI)": 10, "D0 (SCLK)": 11}[terminal]
    if source == "oled.spi_device":
        return {0: 8, 1: 7}[config["oled.spi_device"]]
    if source == "serial.wired":  # the Pi's UART: its TXD to the panel's RX, its RXD to the panel's TX
        return {"RX": 14, "TX": 15}[terminal]
    return config[source]


def picture_problems(text: str, config: dict) -> list[str]:
    """Every wire of a picture whose pin is not where the code and the header put it."""
    problems = []
    drawn = ET.fromstring(text.encode("utf-8")).iter(f"{SVG}g")
    sources = set()
    for wire in (g for g in drawn if g.get("class") == "wire"):
        pin, source, terminal = int(wire.get("data-pin")), wire.get("data-source"), wire.get("data-terminal")
        sources.add(source)
        bcm = wire.get("data-bcm")
        on_header = HEADER[pin]
        if (bcm or None) != (None if isinstance(on_header, str) else str(on_header)):
            problems.append(f"pin {pin} is drawn as GPIO {bcm}, the header has {on_header}")
        expected = _expected_bcm(source, terminal, config)
        if on_header != expected:
            problems.append(f"{wire.get('data-part')} {terminal} ({source}): drawn on pin {pin} "
                            f"({on_header}), the code uses {expected}")
        if on_header == "5 V":
            problems.append(f"{wire.get('data-part')} {terminal}: on 5 V")
    problems += [f"{key}: not in the picture" for key in sorted(PIN_KEYS - sources)]
    return problems


@pytest.mark.parametrize("name, interface", sorted(wiring.PICTURES.items()))
def test_the_committed_picture_is_what_the_code_draws(name, interface):
    committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert wiring.svg(interface=interface) == committed, f"docs/{name}: python -m hardware.wiring docs"


@pytest.mark.parametrize("name", sorted(wiring.PICTURES))
def test_every_pin_in_the_picture_is_the_one_the_code_uses(name):
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert picture_problems(text, dict(defaults().values)) == []


def test_the_pin_keys_are_all_the_configurations_pins():
    """A new pin key in the configuration must be drawn: this list is the configuration's, not a guess."""
    pins = {key.name for key in KEYS if key.name.startswith(("buttons.", "encoder."))
            and isinstance(key.default, int) and not isinstance(key.default, bool)}
    assert pins == PIN_KEYS


@pytest.mark.parametrize("key, moved_to", [("buttons.undo", 26), ("encoder.push", 23), ("buttons.menu", 16)])
def test_a_pin_moved_in_the_code_and_not_in_the_picture_fails(key, moved_to):
    config = {**defaults().values, key: moved_to}
    committed = (ROOT / "docs" / "wiring.svg").read_text(encoding="utf-8")
    problems = picture_problems(committed, config)
    assert len(problems) == 1 and key in problems[0], problems
    assert wiring.svg(config) != committed  # and the drawing follows the code
    assert picture_problems(wiring.svg(config), config) == []


def test_luma_moved_its_spi_pins_and_the_picture_not(monkeypatch):
    """DC and RST are luma.core's defaults: a luma that changes them fails the committed SPI picture."""
    committed = (ROOT / "docs" / "wiring-spi.svg").read_text(encoding="utf-8")
    monkeypatch.setitem(globals(), "_luma_default", lambda name: 23)
    problems = picture_problems(committed, dict(defaults().values))
    assert any("gpio_data_command" in p for p in problems) and any("gpio_reset" in p for p in problems)


def test_the_header_of_the_code_is_the_pis():
    assert {pin: wiring.POWER.get(pin, wiring.GPIO.get(pin)) for pin in range(1, 41)} == HEADER


@pytest.mark.parametrize("page", ["docs/appliance.md"])
def test_the_wiring_table_in_the_docs_is_the_codes(page):
    assert wiring.markdown_table() in (ROOT / page).read_text(encoding="utf-8")


def test_the_table_follows_a_configuration():
    table = wiring.markdown_table({**defaults().values, "buttons.confirm": 12})
    assert "| Next button | one leg | GPIO 12 | 32 | `buttons.confirm` |" in table


def test_every_part_is_wired_to_ground_and_3v3_only_never_5v():
    for interface in ("i2c", "spi"):
        found = wiring.wires(interface=interface)
        parts = {wire.part for wire in found}
        grounded = {wire.part for wire in found if HEADER[wire.pin] == "GND"}
        assert parts - grounded <= {name for _, name in wiring.BUTTONS}  # the buttons share one ground wire
        assert not [wire for wire in found if HEADER[wire.pin] == "5 V"]
        assert len({wire.pin for wire in found}) == len(found), "two wires on one pin"


def test_writing_the_pictures(tmp_path):
    assert wiring.main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(wiring.PICTURES)
    assert wiring.main([str(tmp_path / "missing")]) == 2


def test_the_pin_table_of_hardware_md_is_the_codes():
    """docs/hardware.md's short table: each "GPIO n (pin)" is on the header so, and is its key's default."""
    text = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    section = text[text.index("## Wiring"):text.index("\n## ", text.index("## Wiring") + 1)]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "`" in line]
    checked = 0
    for row in rows:
        pins = [(int(bcm), int(pin)) for bcm, pin in re.findall(r"(\d+) \((\d+)\)", row)]
        keys = [key for key in re.findall(r"`((?:buttons|encoder)\.\w+)`", row) if key in PIN_KEYS]
        for bcm, pin in pins:
            assert HEADER[pin] == bcm, row
        for key, (bcm, _) in zip(keys, pins if keys else [], strict=True):
            assert defaults()[key] == bcm, row
            checked += 1
    assert checked == len(PIN_KEYS)
