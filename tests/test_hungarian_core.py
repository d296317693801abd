"""The core, the CLI and the console in Hungarian: record errors, help, CLI errors and a console session.

Each check renders what a person reads with ``--lang hu`` (or the console
after ``set_language("hu")``) and fails on English left in it; the JSON path
or the move number of a record error stays as it is, since it points into the
file. Record errors are checked by code as well (``rejects_record``), in both
languages.
"""

from __future__ import annotations

import copy
import io
import json
import re

import pytest

from companion.cli.commands.run import starter
from companion.console.loop import headless_loop
from companion.games.messages import msg
from companion.i18n import set_language
from companion.service.app import Companion
from companion.service.records import ReplayError, parse_record
from tests.conftest import EXAMPLES
from tests.refusals import english_words_in, rejects_record

RECORD = json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8"))


def _record(**changes) -> dict:
    record = copy.deepcopy(RECORD)
    record.update(changes)
    return record


# -- record errors by code, in both languages ------------------------------------------

@pytest.mark.parametrize(("changes", "code", "path", "params"), [
    ({"players": ["Ann", "Ann", "Cid"]}, "records.players.duplicate", "players[1]", {"name": "Ann"}),
    ({"players": "Ann"}, "records.players.not_list", "players", {}),
    ({"players": ["Ann", " Bob", "Cid"]}, "records.players.spaces", "players[1]", {"name": " Bob"}),
    ({"players": ["Ann", "mine", "Cid"]}, "records.players.reserved", "players[1]", {"name": "mine"}),
    ({"players": ["Ann"]}, "records.players.count", "players", {"count": 1}),
    ({"format": "companion-record/2"}, "records.format.wrong", "format", {}),
    ({"game": "chess"}, "records.game.unknown", "game", {"name": "chess"}),
    ({"game": 7}, "records.game.not_text", "game", {}),
    ({"moves": {}}, "records.moves.not_list", "moves", {}),
    ({"extra": 1}, "records.field.unknown", "", {"key": "extra"}),
])
def test_a_bad_record_is_refused_by_code_at_its_path(changes, code, path, params) -> None:
    with rejects_record(code, path=path, **params):
        parse_record(_record(**changes))


def test_a_bad_move_field_keeps_the_move_number_and_its_reason() -> None:
    moves = copy.deepcopy(RECORD["moves"])
    moves[2] = {**moves[2], "colour": "red"}
    with rejects_record("records.field.unknown", path="move 3", key="colour"):
        parse_record(_record(moves=moves))


def test_a_replay_error_reads_in_the_language_current_when_it_is_shown() -> None:
    refusal = ReplayError(6, "Albert", msg("common.player.not_playing", player="Zed"))
    assert str(refusal).startswith("move 7 (Albert): ")
    set_language("hu")
    assert str(refusal).startswith("7. lépés (Albert): ")
    assert refusal.message.code == "records.replay.move_by"


# -- the command line in Hungarian ---------------------------------------------------------

def _no_english(text: str, allowed: tuple[str, ...] = ()) -> set[str]:
    """English give-away words in ``text``, leaving out what the reader types as it is: commands in
    backquotes, option names, metavars (``PLAYER``) and record keys (``two_player_move=true``)."""
    text = re.sub(r"`[^`]*`|--?[\w-]+|\b[A-Z][A-Z_.]+\b|\b\w+_\w+\S*", " ", text)
    return english_words_in(text, allowed)


@pytest.mark.parametrize(("changes", "expected"), [
    ({"players": ["Ann", "Ann", "Cid"]}, "players[1]: kétszer szereplő név: „Ann”"),
    ({"format": "x"}, 'format: értéke „companion-record/1” kell legyen (ebben a fájlban: "x")'),
    ({"players": ["Ann"]}, "players: a Campanile játékot 2–5 fő játszhatja, 1 nem"),
])
def test_replay_of_a_bad_record_says_why_in_hungarian(run_cli, write_record, changes, expected) -> None:
    code, out, err = run_cli("--lang", "hu", "replay", write_record(_record(**changes)))
    assert (code, out) == (2, "")
    assert err == f"companion: {expected}\n"


def test_replay_of_a_bad_move_keeps_its_number_in_hungarian(run_cli, write_record) -> None:
    moves = copy.deepcopy(RECORD["moves"])
    moves[6] = {**moves[6], "colour": "red"}
    code, _, err = run_cli("--lang", "hu", "replay", write_record(_record(moves=moves)))
    assert code == 2
    assert err == "companion: move 7: ismeretlen mező: „colour”\n"
    code, _, err = run_cli("replay", write_record(_record(moves=moves)))
    assert err == 'companion: move 7: unknown field "colour"\n'


def test_a_missing_file_and_a_usage_mistake_in_hungarian(run_cli, tmp_path) -> None:
    code, _, err = run_cli("--lang", "hu", "replay", str(tmp_path / "nincs.json"))
    assert (code, err) == (2, f"companion: nincs ilyen fájl: {tmp_path / 'nincs.json'}\n")
    code, _, err = run_cli("--lang", "hu", "abandon", "x")
    assert code == 2 and err.startswith("companion: `abandon`: ") and err.endswith(
        "(lásd: `companion abandon --help`)\n")
    assert not _no_english(err)


def test_the_top_level_help_has_no_english_left(run_cli) -> None:
    code, out, _ = run_cli("--lang", "hu", "--help")
    assert code == 0 and out.startswith("használat: companion")
    left = _no_english(out)
    assert not left, f"English left in the Hungarian help: {sorted(left)}\n{out}"


@pytest.mark.parametrize("command", ["replay", "moves", "export", "import", "sessions", "stats", "run",
                                     "new", "rematch", "abandon", "settings", "players", "config",
                                     "doctor", "backup", "campanile", "campanile flags", "castelli",
                                     "castelli resolve", "board", "board validate", "board import",
                                     "board layouts", "hardware", "hardware test", "snapshot"])
def test_a_subcommands_help_has_no_english_left(run_cli, command) -> None:
    code, out, _ = run_cli("--lang", "hu", *command.split(), "--help")
    assert code == 0 and out.startswith("használat: companion")
    left = _no_english(out)
    assert not left, f"English left in the Hungarian help of {command}: {sorted(left)}\n{out}"


def test_the_stores_commands_speak_hungarian(run_cli, tmp_path) -> None:
    data = str(tmp_path)
    assert run_cli("--data-dir", data, "--lang", "hu", "sessions")[1] == \
        "Még nincs tárolt játszma. Kezdjetek egyet: `companion new JÁTÉK JÁTÉKOS...`.\n"
    code, out, err = run_cli("--data-dir", data, "--lang", "hu", "new", "campanile", "Ann", "Bob", "Cid")
    assert code == 0 and out.splitlines()[0] == "elindult az 1. játszma: Campanile, Ann, Bob, Cid"
    code, out, _ = run_cli("--data-dir", data, "--lang", "hu", "sessions")
    assert out.splitlines()[0].split() == ["azon.", "játék", "játékosok", "lépések", "kezdés", "állapot"]
    assert out.splitlines()[1].endswith("folyamatban")
    code, _, err = run_cli("--data-dir", data, "--lang", "hu", "abandon", "7")
    assert (code, err) == (2, "companion: nincs 7. játszma (lásd `companion sessions`)\n")
    code, _, err = run_cli("--data-dir", data, "--lang", "hu", "settings", "volume")
    assert code == 2 and err.startswith("companion: nincs „volume” beállítás; a beállítások: language")


# -- the console in Hungarian ---------------------------------------------------------------

def _console(tmp_path, *lines: str) -> list[str]:
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        live = app.start("campanile", ["Ann", "Bob", "Cid"], setup={"display": ["grey", "brown", "red"]})
        out = io.StringIO()
        headless_loop(live.session, list(lines), out, start=starter(app))
    return out.getvalue().splitlines()


def _without_json(line: str) -> str:
    """A console line without the move it quotes in the record's JSON (field names are the format's)."""
    return re.sub(r"\{.*\}", " ", line)


def test_a_console_session_in_hungarian_has_no_english_left(tmp_path) -> None:
    set_language("hu")
    build = json.dumps({"type": "build", "player": "Ann", "tower": "grey", "stories": 1})
    out = _console(tmp_path, json.dumps({"type": "build", "player": "Zed", "tower": "grey", "stories": 1}),
                   "[", "700", build, "undo", "redo", "status", "help", "new")
    assert out[0] == "elutasítva: 1. lépés: „Zed” nem játszik ebben a játszmában; a játékosok: Ann, Bob, Cid"
    assert out[1].startswith("elutasítva: se JSON-lépés, se parancs (")
    assert out[2] == "elutasítva: nincs 700. lépés a listában; a listához írjátok be: `lépések`"
    assert out[3] == "rendben 1: Ann: szürke +1"  # the notation in the session's language, not JSON
    assert out[4] == "visszavonva 1: Ann: szürke +1"
    assert out[5] == "újra végrehajtva 1: Ann: szürke +1"
    status = next(line for line in out if line.startswith("1 lépés; Ann: "))
    assert status == "1 lépés; Ann: az 1 értékű jelző letétele egy torony alá, aztán egy kártya elvétele"
    assert "parancsok, soronként egy:" in out
    assert out[-1] == ("elutasítva: `new`: ezek az argumentumok kötelezők: JÁTÉK, JÁTÉKOS "
                       "(lásd: `companion new --help`)")
    ours = [line for line in out
            if line.startswith(("elutasítva", "rendben", "visszavonva", "újra", "1 lépés"))
            or line in out[out.index("parancsok, soronként egy:"):]]
    for line in ours:
        left = english_words_in(_without_json(line), ("moves", "undo", "redo", "status", "help", "quit",
                                                      "exit", "new", "GAME", "PLAYER"))
        assert not left, f"English left in the Hungarian console: {sorted(left)} in {line!r}"


def test_the_same_console_session_in_english_keeps_its_words(tmp_path) -> None:
    build = json.dumps({"type": "build", "player": "Ann", "tower": "grey", "stories": 1})
    out = _console(tmp_path, build, "undo", "status")
    assert out[0] == 'ok 1: Ann: grey +1'
    assert out[1] == 'undone 1: Ann: grey +1'
    assert out[-1] == "0 moves; Ann: build 1, 2 or 3 stories on a tower"


@pytest.mark.parametrize("example", ["campanile-3p", "castelli", "san-gimignano"])
def test_machine_output_is_the_same_in_every_language(run_cli, example) -> None:
    path = str(EXAMPLES / f"{example}.json")
    for command in ("replay", "moves"):
        english = run_cli(command, path, "--json")
        assert english[0] == 0 and english[1]
        assert run_cli("--lang", "hu", command, path, "--json") == english, command


def test_the_moves_list_speaks_the_notation_of_the_language(run_cli, write_record) -> None:
    record = _record(moves=RECORD["moves"][:1])
    english = run_cli("moves", write_record(record))[1].splitlines()
    hungarian = run_cli("--lang", "hu", "moves", write_record(record))[1].splitlines()
    assert len(english) == len(hungarian) > 0
    assert any("grey" in line for line in english) and not any("grey" in line for line in hungarian)
    assert any("szürke" in line for line in hungarian)


@pytest.mark.parametrize("value, article", [
    (1, "az"), (2, "a"), (4, "a"), (5, "az"), (10, "a"), (15, "a"), (50, "az"), (100, "a"), (500, "az"),
    (1000, "az"), (1999, "az"), (2000, "a"), (10000, "a"), (1000000, "az"),
    ("Anna", "az"), ("Bela", "a"), ("Ödön", "az"), ("Campanile", "a"), ("/media/stick", "a(z)")])
def test_the_hungarian_article_is_chosen_by_how_the_word_or_number_is_read(value, article) -> None:
    from companion.i18n import hungarian_article

    assert hungarian_article(value) == article


def test_no_hungarian_text_leaves_the_article_to_the_reader_before_a_number_or_a_name() -> None:
    """"a(z) 4. játszma" reads as a form, not a sentence: the catalogues choose with ``{x:az}``."""
    from companion.games.messages import Message
    from companion.i18n import message_files, render

    left = [line for path in message_files("hu")
            for line in path.read_text(encoding="utf-8").splitlines()
            if re.search(r"\ba\(z\) \{", line, re.IGNORECASE)]
    assert left == []
    assert render(Message("cli.new.started", {"session": 5, "game": "Castelli", "players": "A, B"}), "hu") \
        .startswith("elindult az 5. játszma")
