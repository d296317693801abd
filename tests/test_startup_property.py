"""Start-up is total, as a property: whatever one value of one row holds, or whichever bit of the
file is flipped, the app opens (``companion run``'s way), builds its console, its OLED and its
buttons, answers ``status`` and ``help``, and either plays on or says what is wrong and offers a
way out. Nothing raises.

In process, on copies of one small real store (a championship whose round is in progress, a
Campanile game with moves, a setting, a profile with a colour), so that hundreds of cases run in
seconds; ``tests/test_startup_total.py`` runs the real command for the issue's cases. Fixed
examples under CI (``CI=true``); ``COMPANION_STARTUP_EXAMPLES`` raises the count (300 were run while
writing it).
"""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.console.loop import headless_loop
from companion.console.rescue import TableRescue
from companion.service import rescue
from companion.service.app import Companion
from companion.service.damage import damage, offers
from companion.service.table import Table
from companion.storage.paths import DB_FILENAME
from tests.test_hardware_buttons import Box, _config

EXAMPLES = int(os.environ.get("COMPANION_STARTUP_EXAMPLES", "25"))
MOVE = {"type": "build", "player": "Ann", "tower": "red", "stories": 1}
#: What a spoiled value may be: text that is not JSON, JSON of the wrong shape, a time that is
#: none, text that is not UTF-8 (a blob cast to text), numbers and a blob where text belongs.
VALUES: list[tuple[str, Any]] = [
    ("text", "not json"), ("text", "[1,2]"), ("text", "{}"), ("text", ""), ("text", "null"),
    ("text", "yesterday"), ("text", '"Ann"'), ("text", "[[\"Ann\"]]"), ("text", "x" * 5000),
    ("cast", "7B22ff227D"), ("cast", "5B22416E6EFF225D"), ("cast", "ff"),
    ("value", -1), ("value", 2), ("value", 999), ("value", 2 ** 62), ("value", 2.5), ("value", b"\x00\xff"),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("template")
    with Companion.open(folder / DB_FILENAME) as app:
        live = app.start("campanile", ["Ann", "Bob", "Cid"])
        live.session.propose(live.session.game.parse_move(MOVE))
        app.set_preferred_colour("Ann", "castelli", "blue")
        app.change_setting("table.name", "Kitchen")
        app.championships.new(2, ["Ann", "Bob", "Cid", "Dan"])  # its round: the game resumed at start
    return folder / DB_FILENAME


def _columns(path: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(path)
    try:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [(table, row[1]) for table in sorted(tables)
                for row in db.execute(f"PRAGMA table_info({table})")]
    finally:
        db.close()


def starts_and_answers(path: Path) -> list[str]:
    """Open the app as ``run`` does, build the box on mock pins, feed the console; what it said."""
    app = rescue.open_companion(path)
    try:
        live = rescue.first_game(app)
        table = Table(app)
        if live is not None:
            table.open(live)
        box = Box(table, _config())
        try:
            box.appliance.step(timeout=0)
            box.appliance.navigator._menu_listing()
            out = io.StringIO()
            headless_loop(table.session, ["status", "help", '{"type": "build", "player": "bob", '
                                          '"tower": "red", "stories": 1}'], out,
                          rescue=TableRescue(table, path.parent / "no-stick"))
        finally:
            box.close()
            table.close()
        if damage(app) is not None:
            assert offers(app), damage(app)  # something is offered whenever something is wrong
        return out.getvalue().splitlines()
    finally:
        app.close()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_value_of_any_column_starts_the_app(template: Path, tmp_path: Path, data: st.DataObject) -> None:
    table, column = data.draw(st.sampled_from(_columns(template)), label="column")
    kind, value = data.draw(st.sampled_from(VALUES), label="value")
    folder = tmp_path / f"case-{os.urandom(4).hex()}"
    folder.mkdir()
    path = folder / DB_FILENAME
    shutil.copy(template, path)
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA ignore_check_constraints=ON")
        sql = f"UPDATE {table} SET {column} = " + (f"CAST(X'{value}' AS TEXT)" if kind == "cast" else "?")
        try:
            db.execute(sql, () if kind == "cast" else (value,))
            db.commit()
        except sqlite3.IntegrityError:
            assume(False)  # a key taken twice, a NOT NULL: not a value SQLite lets be written
    finally:
        db.close()
    said = starts_and_answers(path)
    assert said, "the console said nothing"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(offset=st.integers(min_value=0), bit=st.integers(min_value=0, max_value=7))
def test_any_bit_flipped_anywhere_starts_the_app(template: Path, tmp_path: Path, offset: int,
                                                bit: int) -> None:
    folder = tmp_path / f"case-{os.urandom(4).hex()}"
    folder.mkdir()
    path = folder / DB_FILENAME
    content = bytearray(template.read_bytes())
    content[offset % len(content)] ^= 1 << bit
    path.write_bytes(bytes(content))
    said = starts_and_answers(path)
    assert said, "the console said nothing"
