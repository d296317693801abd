"""One answer to whose turn it is: the console's prompt and ``status`` say what the engine's facts
say (``Game.what_now`` and ``next_up``, as every screen does), in both languages; a word that
only looks like a command is called an unknown command, with the nearest one offered.

Before, the prompt and ``status`` read ``Game.turn`` for themselves: the prompt said ``Albert>``
while his build was refused as Birgit's turn, and San Gimignano's ``status`` said "next: Ann"
and then "next: Bob".
"""

from __future__ import annotations

import io
import json

import pytest

from companion.cli.commands.run import starter
from companion.console.loop import headless_loop, prompt_for
from companion.games.base import next_up
from companion.i18n import render, set_language
from companion.service.app import Companion
from tests.conftest import EXAMPLES


def _walk(tmp_path, example):
    """Each state of the example record, in a stored game: (app, session) after each move."""
    record = json.loads((EXAMPLES / f"{example}.json").read_text(encoding="utf-8"))
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start(record["game"], record["players"], options=record.get("options", {}),
                            setup=record.get("setup", {})).session
        for move in [None, *record["moves"]]:
            if move is not None:
                session.propose(session.game.parse_move(move))
            yield app, session


def _facts(session, language):
    """What the engine says now: the subject (or None: the table), its words, who may follow."""
    game, state = session.game, session.state
    now = game.what_now(state)
    subject = now.params.get("player")
    return subject, render(now, language), next_up(game.turn(state), game.legal_moves(state), subject)


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("example", ["campanile-3p", "castelli", "san-gimignano"])
def test_the_prompt_and_status_say_the_engine_s_facts_once(tmp_path, example, language):
    set_language(language)
    table = {"en": "the table", "hu": "az asztal"}[language]
    after = {"en": "next", "hu": "utána"}[language]
    checked = 0
    for app, session in _walk(tmp_path, example):
        if session.game.is_finished(session.state):
            break
        subject, words, following = _facts(session, language)
        who = subject if subject is not None else table
        assert prompt_for(session) == (f"{who} ({after}: {following})> " if following else f"{who}> ")
        out = io.StringIO()
        headless_loop(session, ["status"], out, start=starter(app))
        lines = out.getvalue().splitlines()
        expected = f"{words} — {after}: {following}" if following else words
        assert lines[-1].endswith(f"; {expected}"), (len(session.log), lines[-1])
        # said once: no other line of status names who is next
        assert not any(line.strip().startswith((f"{after}:", "next:", "következik:")) for line in lines[:-1])
        checked += 1
    assert checked > 10


def test_the_prompt_names_who_may_already_follow_as_the_refusal_does(tmp_path):
    for app, session in _walk(tmp_path, "campanile-3p"):
        if len(session.log) == 1:  # Albert built; his marker may come, Birgit may already build
            assert prompt_for(session) == "Albert (next: Birgit)> "
            out = io.StringIO()
            headless_loop(session, ["Albert: brown +3", "status"], out, start=starter(app))
            lines = out.getvalue().splitlines()
            assert "Birgit's turn" in lines[0]
            assert lines[-1] == "1 move; Albert: place your 2-marker under a tower — next: Birgit"
            return
    raise AssertionError("the example has no first move")


def test_the_table_is_named_when_the_table_must_act(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start("campanile", ["Ann", "Bob", "Cid"],
                            setup={"display": ["grey", "brown", "red"]}).session
        for move in ({"type": "build", "player": "Ann", "tower": "grey", "stories": 1},
                     {"type": "take", "player": "Ann", "card": "grey"}):
            session.propose(session.game.parse_move(move))
        assert prompt_for(session) == "the table (next: Bob)> "
        set_language("hu")
        assert prompt_for(session) == "az asztal (utána: Bob)> "


@pytest.mark.parametrize(("language", "typed", "answer"), [
    ("en", "statsu", "refused: `statsu` is not a command; did you mean `status`?"),
    ("en", "Undoo", "refused: `Undoo` is not a command; did you mean `undo`?"),
    ("en", "xyzzy", "refused: `xyzzy` is not a command; `help` lists them"),
    ("hu", "álás", "elutasítva: nincs `álás` parancs; erre gondoltatok: `állás`?"),
    ("hu", "statsu", "elutasítva: nincs `statsu` parancs; erre gondoltatok: `status`?"),
    ("hu", "xyzzy", "elutasítva: nincs `xyzzy` parancs; a `súgó` felsorolja a parancsokat"),
])
@pytest.mark.parametrize("with_game", [True, False])
def test_an_unknown_word_is_an_unknown_command_with_the_nearest_one(tmp_path, language, typed, answer,
                                                                  with_game):
    set_language(language)
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start("campanile", ["Ann", "Bob", "Cid"]).session if with_game else None
        out = io.StringIO()
        headless_loop(session, [typed], out, start=starter(app))
        assert out.getvalue().splitlines() == [answer]
        if session is not None:
            assert len(session.log) == 0


def test_a_player_s_name_alone_is_a_move_begun_not_an_unknown_command(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start("campanile", ["Ann", "Bob", "Cid"]).session
        out = io.StringIO()
        headless_loop(session, ["Bob", "bo"], out, start=starter(app))
    for line in out.getvalue().splitlines():
        assert "not a command" not in line and line.endswith("type moves for the list"), line


def test_a_one_word_move_is_still_a_move_not_an_unknown_command(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start("campanile", ["Ann", "Bob", "Cid"]).session
        out = io.StringIO()
        headless_loop(session, ["finito", "Ann: grey +1", "finito"], out, start=starter(app))
        lines = out.getvalue().splitlines()
        # read as the valuation it names: refused by the rules first, then entered
        assert lines[0].startswith("refused: move 1: a valuation card"), lines
        assert lines[2].startswith("ok 2: finito"), lines
