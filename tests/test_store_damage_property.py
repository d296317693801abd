"""The repair's promise as a property: whatever single row, value or page is damaged, the doctor
names it (or every game still replays as it did), and after the repair the companion starts and plays.

For a random damage to one value of one row (JSON that no longer parses,
a value outside every constraint, a wrong type, a move of another game) or
to one page (overwritten, zeroed, the first page lost), on a copy of a small
real store:

- ``examine`` (what ``companion doctor`` says) names damage, or says all good
  only if every session, the settings and the profiles read back as before;
- after ``repair`` (``companion doctor --repair``), unless the file was found
  not to be a store at all, the store is written again (no damage, not
  read-only), ``run`` and ``doctor`` work, the service lists and reads everything, and a
  new game stores a move.

Fixed examples under CI (``CI=true``), new ones on every other run;
``COMPANION_DAMAGE_EXAMPLES`` raises the count (200 and more were run while writing it).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.registry import looks_like_a_name
from companion.service.app import Companion
from companion.service.damage import damage
from companion.storage import doctor
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store
from tests import helpers_campanile as camp
from tests.test_store_damage import Clock

EXAMPLES = int(os.environ.get("COMPANION_DAMAGE_EXAMPLES", "10"))
#: A move of another game (San Gimignano's first move in its example record).
FOREIGN_MOVE = json.dumps({"type": "token", "player": "Ada", "space": [0, 0, "guild-4"]})
#: Values of the wrong type (and outside every constraint) for any column.
WRONG_TYPES: list[Any] = [-1, 7, 2 ** 62, 1.5, float("-inf"), b"\x00\xff", None]
#: Texts where a value the companion parses is stored: JSON that does not parse or has the wrong
#: shape, a word outside a constraint, a time that is none, another game's move.
WRONG_TEXTS: list[Any] = ['{"type": "bui', "", "not json", "bogus", "[]", '"Albert"', "{}",
                          "2024-13-45T99:00:00+00:00", FOREIGN_MOVE, "null"]
#: Columns of free text (a name, a key, a time only sorted by): another text there is a changed
#: value, not damage, so only a blob or NULL is written into them. (Settings' values are JSON
#: the settings table checks when it reads them: only JSON that does not parse is damage here.)
FREE_TEXT = {("players", "name"), ("players", "created"), ("players", "last_played"),
             ("settings", "key"), ("settings", "updated"), ("sessions", "record_hash")}
#: The tables and columns the companion reads (rowid-less tables by their key).
COLUMNS: dict[str, list[str]] = {
    "sessions": ["game", "players", "options", "setup", "started", "finished", "source", "record_hash",
                 "abandoned", "log_version", "date_unsure", "played_seconds"],
    "moves": ["session_id", "idx", "move"],
    "redo": ["session_id", "pos", "move"],
    "results": ["session_id", "seat", "player", "score", "winner"],
    "settings": ["key", "value", "updated"],
    "players": ["name", "created", "last_played"],
    "player_colours": ["player_id", "game", "colour"],
}


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A small store: a finished game, two unfinished ones (one with moves undone), settings, a colour."""
    path = tmp_path_factory.mktemp("template") / DB_FILENAME
    with Companion.open(path, clock=Clock()) as app:
        app.change_setting("language", "hu")
        app.store.set_setting("note", {"kept": [1, 2]})
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        for move in camp.random_game(1, 40, finish=True):
            live.session.propose(move)
        for seed in (2, 3):
            live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
            for move in camp.random_game(seed, 12, finish=False):
                live.session.propose(move)
        live.session.undo()
        app.set_preferred_colour("Albert", "campanile", app.seat_colours("campanile", ["Albert"])["Albert"])
    path.with_name(path.name + ".lock").unlink()
    return path


@pytest.fixture(scope="module")
def before(template: Path) -> dict[str, Any]:
    """What the players see of the template, read once."""
    return read_back(template)


def read_back(path: Path) -> dict[str, Any]:
    """What the players see: each session's log, redo, finish and results; the settings; the profiles."""
    with Companion(Store.open(path, read_only=True)) as app:
        store = app.store
        results: dict[int, list[tuple[str, int, bool]]] = {}
        for row in store.results():
            results.setdefault(row.session_id, []).append((row.player, row.score, row.winner))
        sessions = {}
        for row in store.list_sessions():
            live = app.open_game(row.id)
            sessions[row.id] = (store.stored_moves(row.id), live.session.game.is_finished(live.session.state),
                                row.is_finished, results.get(row.id), row.started, row.source,
                                row.abandoned, row.date_unsure, row.played_seconds)
        return {"sessions": sessions, "settings": store.settings(), "players": store.players(),
                "colours": store.player_colours()}


def _rowids(db: sqlite3.Connection, table: str) -> list[Any]:
    try:
        return [r[0] for r in db.execute(f'SELECT rowid FROM "{table}"')]
    except sqlite3.OperationalError:  # WITHOUT ROWID: by the whole key
        keys = {"moves": "session_id, idx", "redo": "session_id, pos", "results": "session_id, seat",
                "settings": "key", "player_colours": "player_id, game"}[table]
        return list(db.execute(f'SELECT {keys} FROM "{table}"'))


def damage_value(path: Path, table: str, pick: int, column: str, value: Any) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA ignore_check_constraints = ON")
    try:
        rows = _rowids(db, table)
        assume(rows)
        key = rows[pick % len(rows)]
        if isinstance(key, tuple):
            names = {"moves": ("session_id", "idx"), "redo": ("session_id", "pos"),
                     "results": ("session_id", "seat"), "settings": ("key",),
                     "player_colours": ("player_id", "game")}[table]
            where, params = " AND ".join(f"{n} = ?" for n in names), list(key)
        else:
            where, params = "rowid = ?", [key]
        try:
            db.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE {where}', [value, *params])
        except sqlite3.IntegrityError:  # NOT NULL, UNIQUE, a primary key taken: SQLite refuses it anyway
            assume(False)
    finally:
        db.close()


def damage_page(path: Path, page: int, kind: str) -> None:
    pages = path.stat().st_size // 4096
    number = 1 if kind == "first page zeroed" else 2 + page % (pages - 1)
    with open(path, "r+b") as handle:
        handle.seek((number - 1) * 4096)
        handle.write(bytes(4096) if "zeroed" in kind else bytes((number * 7 + i) % 256 for i in range(4096)))


damages = st.one_of(
    st.tuples(st.just("value"), st.sampled_from(sorted(COLUMNS)), st.integers(0, 500), st.integers(0, 20),
              st.sampled_from(WRONG_TYPES + WRONG_TEXTS)),
    st.tuples(st.just("page"), st.sampled_from(["overwritten", "zeroed", "first page zeroed"]),
              st.integers(0, 500), st.just(0), st.just(None)),
)


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hurt=damages)
def test_the_doctor_names_the_damage_and_after_the_repair_the_companion_plays(
        template: Path, before: dict[str, Any], tmp_path_factory, run_cli, monkeypatch, hurt) -> None:
    kind, where, pick, column_pick, value = hurt
    data = tmp_path_factory.mktemp("case")
    path = data / DB_FILENAME
    shutil.copyfile(template, path)
    if kind == "value":
        columns = COLUMNS[where]
        column = columns[column_pick % len(columns)]
        # (a TEXT column stores a number as its digits: only a blob or NULL is of another type there)
        assume((where, column) not in FREE_TEXT or value is None or isinstance(value, bytes))
        if (where, column) in (("sessions", "played_seconds"), ("sessions", "log_version")):
            # (another count of seconds or of saves is a changed value nobody can see, not damage)
            assume(not isinstance(value, (int, float)) or value < 0 or value != value
                   or value == float("inf") or (column == "log_version" and isinstance(value, float)))
        if (where, column) == ("settings", "value"):  # (a number there is stored as its digits: JSON)
            assume(value is None or isinstance(value, bytes)
                   or value in ('{"type": "bui', "", "not json", "bogus"))
        damage_value(path, where, pick, column, value)
    else:
        damage_page(path, pick, where)

    try:
        checkup = doctor.examine(path)
        good = checkup.is_good
    except doctor.Unusable:
        good = False
    if good and kind == "value" and (where, column) == ("sessions", "game") and looks_like_a_name(value):
        # a game's name nobody here declares ("bogus") is a game not installed, not damage: said so,
        # and the session kept for the day it is installed (tests/test_plugins.py)
        assert [h.game for h in checkup.sessions if h.not_installed] == [value], hurt
    elif good:  # all good only if nothing the players see changed
        assert read_back(path) == before, hurt

    try:
        doctor.repair(path)
    except doctor.Unusable:
        return  # not a store at all: left as it is, and said so (exit 3)
    with Companion.open(path) as app:
        assert not app.store.read_only and app.store.damage == []
        app.unfinished()
        assert damage(app) is None, hurt
        app.store.settings(), app.store.players(), app.store.player_colours(), app.store.results()
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        live.session.propose(camp.legal_moves(live.session.state)[0])
        assert len(app.store.stored_moves(live.id)[0]) == 1
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for command in (["run", "--headless"], ["doctor"]):  # (the reading was done through the service above)
        code, out, err = run_cli("--data-dir", str(data), *command)
        assert code == 0, (hurt, command, out, err)
