"""The reference seat panel on a board running MicroPython (e.g. a Raspberry Pi Pico).

Copy ``panel_logic.py`` and this file to the board (``mpremote cp panel_logic.py
main.py :``), set SEAT below, wire three buttons and an SSD1306 OLED, and plug
the board into the companion's USB. On its first start the panel makes its id
(``panel_id.txt`` on the board) and the companion's OLED asks whether it may
have its seat. The board's USB serial is its console:
this program reads the companion's lines from standard input and writes its
own to standard output. See docs/serial-protocol.md and docs/panel/README.md.
"""

import os
import select
import sys
import time

import machine
import micropython
from panel_logic import ID_FILE, LineReader, Panel, load_or_make_id

SEAT = 1                                   # this panel's seat, 1 = the first player
BUTTONS = {"PREV": 14, "NEXT": 15, "OK": 16}  # GPIO numbers, buttons to ground
I2C_BUS, SDA, SCL = 0, 4, 5                # the OLED (SSD1306 128x64 at 0x3C)
DEBOUNCE_MS = 40

micropython.kbd_intr(-1)  # a 0x03 byte from the companion must not stop the program

panel = Panel(SEAT, load_or_make_id(ID_FILE, os.urandom))  # the id is made on the first start, then kept
reader = LineReader()
pins = {name: machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP) for name, number in BUTTONS.items()}
was_up = {name: True for name in BUTTONS}
last_change = {name: 0 for name in BUTTONS}

try:
    import ssd1306
    oled = ssd1306.SSD1306_I2C(128, 64, machine.I2C(I2C_BUS, sda=machine.Pin(SDA), scl=machine.Pin(SCL)))
except Exception:  # no display wired (or no driver copied): the panel still works
    oled = None

stdin = getattr(sys.stdin, "buffer", sys.stdin)
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)


def send(line):
    sys.stdout.write(line + "\n")


def show():
    if oled is None:
        return
    oled.fill(0)
    for row, text in enumerate(panel.screen(16)):
        oled.text(text, 0, row * 10)
    oled.show()
    panel.changed = False


send(panel.hello())
while True:
    while poll.poll(0):
        data = stdin.read(1)
        data = data.encode() if isinstance(data, str) else data
        for line in reader.feed(data):
            for answer in panel.receive(line):
                send(answer)
    now = time.ticks_ms()
    for name, pin in pins.items():
        up = bool(pin.value())
        if up != was_up[name] and time.ticks_diff(now, last_change[name]) > DEBOUNCE_MS:
            was_up[name], last_change[name] = up, now
            if not up:  # pressed
                send(panel.key(name))
    if panel.changed:
        show()
    time.sleep_ms(5)
