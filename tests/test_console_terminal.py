"""The console at a real terminal (a pseudo-terminal): a prompt naming who acts, and Tab completion.

The child runs ``companion run --headless`` with its standard input and
output on the slave side of a pseudo-terminal, as when a person types in a
terminal window; the test reads the master side, one way only (a thread
collects everything the child writes), and waits on what it expects with
generous time-outs — nothing here measures speed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.console.loop import completions_for, prompt_for
from companion.service.app import Companion

PATIENCE = 60.0
ROOT = Path(__file__).resolve().parent.parent


class Terminal:
    """The master side of a pseudo-terminal whose slave side is a child's console."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        master, slave = os.openpty()
        self.child = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                      start_new_session=True)
        os.close(slave)
        self.master = master
        self.seen = b""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the child closed the terminal (it ended)
                return
            if not chunk:
                return
            with self._lock:
                self.seen += chunk

    def expect(self, text: str, after: int = 0) -> int:
        """Wait until ``text`` shows after position ``after``; where it ends."""
        wanted = text.encode()
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            with self._lock:
                found = self.seen.find(wanted, after)
            if found >= 0:
                return found + len(wanted)
            time.sleep(0.05)
        raise AssertionError(f"waited {PATIENCE} s for {text!r}; the terminal shows {self.seen[after:]!r}")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        """Wait for the child to end (killed when it does not: the test has failed already)."""
        try:
            return self.child.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.child.kill()
            return self.child.wait()
        finally:
            self._reader.join(timeout=PATIENCE)
            os.close(self.master)


@pytest.fixture
def store(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        app.start("campanile", ["Albert", "Birgit", "Franziska"])
    return tmp_path


def test_a_person_at_a_terminal_sees_who_acts_and_completes_moves_with_tab(store):
    env = {**os.environ, "COMPANION_DATA": str(store), "TERM": "dumb", "PYTHONPATH": str(ROOT)}
    env.pop("COMPANION_LANG", None)
    terminal = Terminal([sys.executable, "-m", "companion", "run", "--headless"], env)
    try:
        at = terminal.expect("Albert> ")
        terminal.type("brown +3\r")
        at = terminal.expect("ok 1: Albert: brown +3", at)
        # his marker may still come, and Birgit may already build: the prompt names both
        at = terminal.expect("Albert (next: Birgit)> ", at)
        terminal.type("Bir\t")  # only Birgit's moves start so: the line completes to her name
        at = terminal.expect("git: ", at)  # (a dumb terminal rings its bell between the two parts)
        terminal.type("grey +1\r")
        at = terminal.expect("ok 2: Birgit: grey +1", at)
        at = terminal.expect("Birgit (next: Franziska)> ", at)
        terminal.type("quit\r")
    finally:
        code = terminal.close()
    assert code == 0


def test_the_prompt_names_the_acting_player_and_nobody_once_the_game_is_over(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start("campanile", ["Albert", "Birgit", "Franziska"]).session
        assert prompt_for(session) == "Albert> "
        assert prompt_for(None) == "> "
        for move in ({"type": "build", "player": "Albert", "tower": "red", "stories": 1},
                     {"type": "valuation", "phase": "finito"}):
            session.propose(session.game.parse_move(move))
        assert prompt_for(session) == "> "


def test_tab_offers_every_move_allowed_now_in_the_notation_and_the_commands(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start("campanile", ["Albert", "Birgit", "Franziska"]).session
        offered = completions_for(session)
    assert "Albert: brown +3" in offered and "undo" in offered and "visszavon" in offered
    assert len([line for line in offered if line.startswith("Albert: ")]) == len(
        [m for m in session.game.legal_moves(session.state) if m.get("player") == "Albert"])
    assert "new castelli " in completions_for(None)
