"""The reference seat panel's logic: what it knows, what it shows, what it answers. No hardware.

Runs unchanged on MicroPython (the board, through ``main.py``) and on CPython
(the companion's tests drive it over a pseudo-terminal), so the reference
panel that people copy is the one that is tested. See docs/serial-protocol.md.
"""

VERSION = 1
MAX_LINE = 200

# The board's built-in font is ASCII: accented letters are shown as their base letter.
_FOLD = {"á": "a", "é": "e", "í": "i", "ó": "o", "ö": "o", "ő": "o", "ú": "u", "ü": "u", "ű": "u",
         "Á": "A", "É": "E", "Í": "I", "Ó": "O", "Ö": "O", "Ő": "O", "Ú": "U", "Ü": "U", "Ű": "U",
         "…": "~"}


def ascii_fold(text):
    """``text`` in the characters the board's font has (others become ``?``)."""
    out = []
    for ch in text:
        ch = _FOLD.get(ch, ch)
        out.append(ch if " " <= ch <= "~" else "?")
    return "".join(out)


# The panel's id: made once from random bytes, kept in a file on the board, sent in every HELLO.
# The companion remembers which id it allowed at which seat (docs/serial-protocol.md, "Pairing").
ID_FILE = "panel_id.txt"
_ID_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:"


def is_id(text):
    """Whether ``text`` is a panel id: 4 to 32 letters, digits or ``- _ . :``."""
    return 4 <= len(text) <= 32 and all(ch in _ID_CHARACTERS for ch in text)


def new_id(random_bytes):
    """A fresh id: ``p-`` and 16 hex digits from 8 random bytes (``random_bytes(8)``: os.urandom)."""
    return "p-" + "".join(f"{byte:02x}" for byte in random_bytes(8))


def load_or_make_id(path, random_bytes):
    """The id kept in ``path``; made and written there the first time (or when the file is not one)."""
    try:
        with open(path) as kept:
            found = kept.read().strip()
        if is_id(found):
            return found
    except OSError:  # no file yet
        pass
    made = new_id(random_bytes)
    with open(path, "w") as kept:
        kept.write(made)
    return made


class LineReader:
    """Cuts the bytes from the companion into lines; a line longer than MAX_LINE is dropped."""

    def __init__(self):
        self._pending = b""
        self._skipping = False

    def feed(self, data):
        lines = []
        for byte in data:
            if byte == 10:  # "\n"
                if not self._skipping:
                    lines.append(self._pending.rstrip(b"\r").decode("utf-8", "ignore"))
                self._pending, self._skipping = b"", False
            elif not self._skipping:
                self._pending += bytes((byte,))
                if len(self._pending) > MAX_LINE + 1:
                    self._pending, self._skipping = b"", True
        return lines


class Panel:
    """One seat's panel: fed the companion's lines, it keeps what to show and says what to send."""

    def __init__(self, seat, panel_id):
        self.seat = seat
        self.panel_id = panel_id
        self.player = ""
        self.whose = "none"
        self.acting = ""
        self.status = ""
        self.score = "-"
        self.pick = ""
        self.answer = ""
        self.changed = True

    def hello(self):
        return f"HELLO {VERSION} {self.seat} {self.panel_id}"

    def key(self, name):
        """The line for a key press: ``NEXT``, ``PREV`` or ``OK``."""
        return "KEY " + name

    def receive(self, line):
        """Take one line from the companion; returns the lines to send back (often none)."""
        keyword, _, rest = line.partition(" ")
        if keyword == "HELLO":  # the companion opened the port: introduce ourselves
            return [self.hello()]
        if keyword == "ECHO":  # the hardware test
            return ["ECHO " + rest.strip()]
        if keyword == "SEAT":  # the game changed (or the panel was just allowed): an old answer is stale
            _, _, self.player = rest.partition(" ")
            self.answer = ""
        elif keyword == "TURN":
            self.whose, _, self.acting = rest.partition(" ")
        elif keyword == "STATUS":
            self.status = rest
        elif keyword == "SCORE":
            self.score = rest
        elif keyword == "PICK":
            index, _, more = rest.partition(" ")
            count, _, words = more.partition(" ")
            self.pick = words if count == "0" else f"{index}/{count} {words}"
            self.answer = ""
        elif keyword == "ACCEPTED":
            self.answer, self.pick = "= " + rest, ""
        elif keyword == "REFUSED":
            self.answer = "! " + rest
        else:
            return []  # PONG, or a line of a later version: nothing to show
        self.changed = True
        return []

    def screen(self, width=16):
        """The rows to show: seat, name and score; the status; the chosen move or the last answer."""
        mark = "*" if self.whose == "you" else " "
        head = ascii_fold(f"{mark}{self.seat} {self.player}")
        score = ascii_fold(self.score)
        head = head[:max(0, width - len(score) - 1)]
        rows = [head + " " * (width - len(head) - len(score)) + score]
        for text in (self.status, self.pick or self.answer):
            text = ascii_fold(text)
            while text and len(rows) < 6:
                rows.append(text[:width])
                text = text[width:]
        return rows
