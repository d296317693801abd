"""How the box is wired to the Raspberry Pi's 40-pin header: the table and the pictures, from the code's pins.

The BCM numbers of the buttons and the encoder are the configuration's
(``companion.service.config``: its defaults, or a file's values); the OLED's
I2C lines are the header's bus 1, its SPI lines SPI0's, and an SPI OLED's DC
and RST are luma.core's defaults (GPIO 24 and 25, which
:func:`hardware.oled.luma_arguments` leaves as they are). This module turns
them into what a person wires: physical header pins beside the BCM numbers,
with the ground and 3.3 V pins each part takes. docs/appliance.md's table and
the pictures ``docs/wiring.svg`` (I2C OLED) and ``docs/wiring-spi.svg`` (SPI
OLED) are drawn from it, so a pin changed in the code and not in the docs
fails ``tests/test_wiring.py``. Standard library only: it runs anywhere.

Regenerate the pictures with ``python -m hardware.wiring docs``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from companion.service.config import ConfigValues, defaults

#: The header's fixed pins: physical number -> "3.3 V", "5 V" or "GND".
POWER = {1: "3.3 V", 2: "5 V", 4: "5 V", 17: "3.3 V",
         **{pin: "GND" for pin in (6, 9, 14, 20, 25, 30, 34, 39)}}
#: The header's GPIO pins: physical number -> BCM number (every Raspberry Pi with 40 pins).
GPIO = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
        21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
        36: 16, 37: 26, 38: 20, 40: 21}
#: What a GPIO is also known as, where the wiring uses that role.
ROLE = {2: "SDA", 3: "SCL", 14: "TXD", 15: "RXD", 10: "MOSI", 9: "MISO", 11: "SCLK", 8: "CE0", 7: "CE1"}
#: I2C bus 1 (``oled.bus = 1``, the only one on the header): (SDA, SCL) as BCM numbers.
I2C1 = (2, 3)
#: The SPI buses by ``oled.spi_port``: (MOSI, SCLK, chip selects by ``oled.spi_device``) as BCM numbers.
SPI = {0: (10, 11, (8, 7)), 1: (20, 21, (18, 17))}
#: An SPI OLED's data/command and reset lines: luma.core's defaults (its arguments ``gpio_data_command``
#: and ``gpio_reset``), which :func:`hardware.oled.luma_arguments` does not change.
SPI_DC = 24
SPI_RESET = 25
#: The pins a part's supply and ground go to (nearest its signals, so each part's wires stay together).
THREE_V3_OLED, THREE_V3_ENCODER = 1, 17
GROUND_OLED_I2C, GROUND_ENCODER, GROUND_BUTTONS, GROUND_OLED_SPI, GROUND_PANEL = 9, 25, 39, 20, 6

BUTTONS = (("buttons.undo", "Undo button"), ("buttons.confirm", "Next button"),
           ("buttons.valuation", "Valuation button"), ("buttons.menu", "Menu button"))
ENCODER = "KY-040 encoder"
OLED = "OLED"
PANEL = "seat panel on the UART"


def header_pin(bcm: int) -> int:
    """The physical header pin of a BCM GPIO number."""
    for pin, number in GPIO.items():
        if number == bcm:
            return pin
    raise ValueError(f"GPIO {bcm} is not on the 40-pin header")


def pin_name(pin: int) -> str:
    """What the header calls a physical pin: ``3.3 V``, ``GND``, ``GPIO 2 (SDA)``."""
    if pin in POWER:
        return POWER[pin]
    bcm = GPIO[pin]
    return f"GPIO {bcm} ({ROLE[bcm]})" if bcm in ROLE else f"GPIO {bcm}"


@dataclass(frozen=True)
class Wire:
    """One wire: a part's terminal to a header pin, and where in the code that pin is decided."""

    part: str
    terminal: str
    pin: int      # the physical header pin, 1-40
    source: str   # a configuration key, or what else fixes the pin
    optional: bool = False

    @property
    def bcm(self) -> int | None:
        """The BCM number of a GPIO pin; ``None`` for 3.3 V and ground."""
        return GPIO.get(self.pin)


def wires(config: ConfigValues | None = None, interface: str | None = None) -> tuple[Wire, ...]:
    """Every wire of the box for ``config`` (default: the defaults), the OLED on ``interface``.

    ``interface`` overrides ``oled.interface`` (the docs show both the I2C and the SPI OLED). The
    order is a builder's: part by part, each part's pins in the order its module prints them.
    """
    config = config if config is not None else defaults()
    found = [Wire(part, "one leg", header_pin(int(config[key])), key)
             for key, part in BUTTONS if config[key] is not None]
    found.append(Wire("4 buttons", "other legs, joined", GROUND_BUTTONS, "ground"))
    found += [Wire(ENCODER, terminal, header_pin(int(config[key])), key)
              for terminal, key in (("CLK", "encoder.a"), ("DT", "encoder.b"), ("SW", "encoder.push"))
              if config[key] is not None]
    found += [Wire(ENCODER, "+", THREE_V3_ENCODER, "3.3 V"), Wire(ENCODER, "GND", GROUND_ENCODER, "ground")]
    if (interface or str(config["oled.interface"])) == "i2c":
        sda, scl = I2C1
        found += [Wire(OLED, "GND", GROUND_OLED_I2C, "ground"), Wire(OLED, "VCC", THREE_V3_OLED, "3.3 V"),
                  Wire(OLED, "SCL", header_pin(scl), "oled.bus"),
                  Wire(OLED, "SDA", header_pin(sda), "oled.bus")]
    else:
        mosi, sclk, selects = SPI[int(config["oled.spi_port"])]
        found += [Wire(OLED, "GND", GROUND_OLED_SPI, "ground"), Wire(OLED, "VCC", THREE_V3_OLED, "3.3 V"),
                  Wire(OLED, "D0 (SCLK)", header_pin(sclk), "oled.spi_port"),
                  Wire(OLED, "D1 (MOSI)", header_pin(mosi), "oled.spi_port"),
                  Wire(OLED, "RES (RST)", header_pin(SPI_RESET), "luma.core: gpio_reset"),
                  Wire(OLED, "DC", header_pin(SPI_DC), "luma.core: gpio_data_command"),
                  Wire(OLED, "CS", header_pin(selects[int(config["oled.spi_device"])]), "oled.spi_device")]
    found += [Wire(PANEL, "RX", header_pin(14), "serial.wired", optional=True),
              Wire(PANEL, "TX", header_pin(15), "serial.wired", optional=True),
              Wire(PANEL, "GND", GROUND_PANEL, "ground", optional=True)]
    return tuple(found)


def _row(part: str, wire: Wire) -> str:
    source = "—" if wire.source in ("3.3 V", "ground") else f"`{wire.source}`"
    optional = " (optional)" if wire.optional else ""
    return f"| {part}{optional} | {wire.terminal} | {pin_name(wire.pin)} | {wire.pin} | {source} |"


def markdown_table(config: ConfigValues | None = None) -> str:
    """The wiring table of docs/appliance.md: every wire, both OLEDs, with the BCM and the header pin."""
    i2c, spi = wires(config, "i2c"), wires(config, "spi")
    rows = ["| part | its pin | to the Pi | header pin | set by |", "|---|---|---|---|---|"]
    rows += [_row(f"{OLED} on I2C" if w.part == OLED else w.part, w) for w in i2c if w.part != PANEL]
    rows += [_row(f"{OLED} on SPI", w) for w in spi if w.part == OLED]
    rows += [_row(w.part, w) for w in i2c if w.part == PANEL]
    return "\n".join(rows) + "\n"


# --- the picture -------------------------------------------------------------------------------

_COLOURS = {OLED: "#1565c0", ENCODER: "#6a1b9a", "buttons": "#2e7d32", PANEL: "#b35900"}
_PIN_FILL = {"3.3 V": "#f57c00", "5 V": "#c62828", "GND": "#212121"}
#: The layout: rows of the header, the two pin columns, the name chips beside them, the labels' ends.
_TOP, _ROW, _LEFT_X, _RIGHT_X, _WIDTH = 96, 26, 470, 520, 1000
_CHIP, _LABEL_GAP = 100, 34


def _colour(part: str) -> str:
    return _COLOURS.get(part, _COLOURS["buttons"])


def _place(pin: int) -> tuple[bool, int, int]:
    """(on the left column, x, y) of a header pin in the picture."""
    left = pin % 2 == 1
    return left, _LEFT_X if left else _RIGHT_X, _TOP + (pin - 1) // 2 * _ROW


def _wire_svg(wire: Wire) -> list[str]:
    left, x, y = _place(wire.pin)
    colour = _colour(wire.part)
    chip = x - 14 - _CHIP if left else x + 14
    end = chip - _LABEL_GAP if left else chip + _CHIP + _LABEL_GAP
    dash = ' stroke-dasharray="6 4"' if wire.optional else ""
    source = "" if wire.source in ("3.3 V", "ground") else wire.source
    anchor, text_x = ("end", end - 6) if left else ("start", end + 6)
    return [
        f'<g class="wire" data-part={quoteattr(wire.part)} data-terminal={quoteattr(wire.terminal)} '
        f'data-pin="{wire.pin}" data-bcm="{"" if wire.bcm is None else wire.bcm}" '
        f'data-source={quoteattr(wire.source)}>',
        f'  <line x1="{end}" y1="{y}" x2="{x}" y2="{y}" stroke="{colour}" stroke-width="4"{dash}/>',
        f'  <rect x="{chip}" y="{y - 10}" width="{_CHIP}" height="20" rx="4" fill="#ffffff" '
        f'stroke="{colour}" stroke-width="2"/>',
        f'  <text x="{text_x}" y="{y + 4}" text-anchor="{anchor}" class="label" fill="{colour}">'
        f"{escape(wire.part)}: {escape(wire.terminal)}"
        + (f'<tspan class="source"> {escape(source)}</tspan>' if source else "") + "</text>",
        "</g>",
    ]


def _pin_svg(pin: int, used: bool) -> list[str]:
    left, x, y = _place(pin)
    kind = POWER.get(pin)
    fill = _PIN_FILL.get(kind or "", "#ffffff")
    ink = "#000000" if kind is None else "#ffffff"
    name_x, anchor = (x - 18, "end") if left else (x + 18, "start")
    return [
        f'<circle cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="#000000" stroke-width="1"/>',
        f'<text x="{x}" y="{y + 3.5}" text-anchor="middle" class="number" fill="{ink}">{pin}</text>',
        f'<text x="{name_x}" y="{y + 4}" text-anchor="{anchor}" class="{"used" if used else "unused"}">'
        f"{escape(pin_name(pin))}</text>",
    ]


def svg(config: ConfigValues | None = None, interface: str = "i2c") -> str:
    """The wiring picture: the header, pin 1 at the top left, each used pin labelled with its part."""
    chosen = wires(config, interface)
    rows = 20
    height = _TOP + rows * _ROW + 130
    oled = "an I2C OLED" if interface == "i2c" else "an SPI OLED"
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
        "<style>.label{font-size:11.5px;font-weight:bold}.source{font-weight:normal;fill:#555555}"
        ".number{font-size:9px;font-weight:bold}.used{font-size:10.5px;font-weight:bold;fill:#000000}"
        ".unused{font-size:10px;fill:#9e9e9e}.title{font-size:17px;font-weight:bold}"
        ".note{font-size:12px;fill:#333333}</style>",
        f'<rect width="{_WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="20" y="30" class="title">Wiring the box: 4 buttons, a KY-040 encoder and {oled}</text>',
        '<text x="20" y="52" class="note">The Raspberry Pi\'s 40-pin header from above, '
        "pin 1 (the square pad) at the top left; the odd pins are the row nearer the middle of the board."
        "</text>",
        '<text x="20" y="70" class="note">Each used pin: header number, BCM name, and the part\'s pin with '
        "the configuration key that sets it (companion.example.toml).</text>",
        f'<rect x="{_LEFT_X - 16}" y="{_TOP - 16}" width="{_RIGHT_X - _LEFT_X + 32}" '
        f'height="{rows * _ROW + 6}" rx="6" fill="#e0e0e0" stroke="#616161"/>',
    ]
    for wire in chosen:
        out += _wire_svg(wire)
    used = {wire.pin for wire in chosen}
    for pin in range(1, 41):
        out += _pin_svg(pin, pin in used)
    legend_y = _TOP + rows * _ROW + 22
    swatches = [("3.3 V", _PIN_FILL["3.3 V"]), ("5 V: never used", _PIN_FILL["5 V"]),
                ("ground (GND)", _PIN_FILL["GND"]), ("GPIO", "#ffffff")]
    x = 20
    for text, fill in swatches:
        out.append(f'<circle cx="{x + 8}" cy="{legend_y}" r="8" fill="{fill}" stroke="#000000"/>')
        out.append(f'<text x="{x + 22}" y="{legend_y + 4}" class="note">{escape(text)}</text>')
        x += 40 + 8 * len(text)
    notes = [
        "Every part takes 3.3 V, never 5 V: the KY-040's and the OLED's pull-up resistors go to their",
        "supply pin, and 5 V on a GPIO damages the Pi. Buttons: one leg to the GPIO, the other to ground.",
        "Dashed: a seat panel wired to the Pi's UART (serial.wired), crossed: the Pi's TXD to the panel's "
        "RX.",
        "Drawn by hardware/wiring.py from the code's pins: python -m hardware.wiring docs",
    ]
    for n, text in enumerate(notes):
        out.append(f'<text x="20" y="{legend_y + 28 + 18 * n}" class="note">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


#: The pictures docs/ holds: file name -> the OLED's interface.
PICTURES = {"wiring.svg": "i2c", "wiring-spi.svg": "spi"}


def main(argv: list[str]) -> int:
    """``python -m hardware.wiring DIR``: write the pictures into DIR (docs/), from the defaults."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python -m hardware.wiring DIR (the docs folder)", file=sys.stderr)
        return 2
    for name, interface in PICTURES.items():
        (Path(argv[0]) / name).write_text(svg(interface=interface), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
