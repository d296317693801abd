"""The catalogues: complete in both languages, placeholders that match, argparse in Hungarian,
and the choice of language (``--lang``, ``$COMPANION_LANG``, the table's setting, English)."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import i18n
from companion.games.base import IllegalMove
from companion.games.messages import Message, msg
from companion.i18n import (
    LANGUAGES,
    Catalogue,
    LanguageError,
    catalogue,
    choose_language,
    join_list,
    message_files,
    render,
    render_json,
    set_language,
)
from companion.i18n.po import PoError, header_fields, parse_po, read_po

ROOT = Path(__file__).resolve().parent.parent


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _percent_fields(text: str) -> list[str]:
    return sorted(re.findall(r"%(?:\(\w+\))?[sr]", text))


# -- the .po reader ------------------------------------------------------------

PO = r'''
# a comment
msgid ""
msgstr ""
"Language: hu\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "a.code"
msgstr "egy "
"sor\ttab \"idéz\""

msgctxt "tower"
msgid "red"
msgstr "piros"

msgid "card"
msgid_plural "cards"
msgstr[0] "{count} kártya"
msgstr[1] "{count} kártyák"

#, fuzzy
msgid "unsure"
msgstr "bizonytalan"
'''


def test_the_reader_keeps_continuations_escapes_contexts_and_plurals() -> None:
    entries = {entry.key: entry for entry in parse_po(PO)}
    assert entries[(None, "a.code")].msgstr == {0: 'egy sor\ttab "idéz"'}
    assert entries[("tower", "red")].msgstr == {0: "piros"}
    assert entries[(None, "card")].msgid_plural == "cards"
    assert entries[(None, "unsure")].fuzzy
    assert header_fields(parse_po(PO))["Plural-Forms"] == "nplurals=2; plural=(n != 1);"


def test_a_catalogue_chooses_plural_forms_by_its_rule_and_skips_fuzzy_entries() -> None:
    cat = Catalogue(parse_po(PO), "n != 1")
    assert cat.ngettext("card", "cards", 1) == "{count} kártya"
    assert cat.ngettext("card", "cards", 4) == "{count} kártyák"
    assert cat.pgettext("tower", "red") == "piros"
    assert cat.gettext("red") == "red"  # no entry without the context
    assert cat.gettext("unsure") == "unsure"
    assert cat.lookup("unsure") is None


@pytest.mark.parametrize(("text", "where"), [
    ('msgid "a"\n', "<po>:1: msgid without msgstr"),
    ('msgid "a"\nmsgstr "b\\q"\n', "<po>:2: unknown escape"),
    ('msgid "a"\nmsgstr b\n', "<po>:2: cannot read this line"),
    ('msgstr "b"\n', "<po>:1: msgstr before msgid"),
])
def test_a_damaged_catalogue_is_refused_naming_the_line(text: str, where: str) -> None:
    with pytest.raises(PoError, match=re.escape(where)):
        parse_po(text)


@given(st.text(alphabet=st.sampled_from(list('msgidtrx_[]01 "\\\n#,fuzzy')), max_size=200))
def test_the_reader_fails_only_with_its_own_error(text: str) -> None:
    try:
        parse_po(text)
    except PoError as error:
        assert "\n" not in str(error)


# -- the shipped catalogues ----------------------------------------------------

def test_every_code_has_a_text_in_every_language_with_the_same_placeholders() -> None:
    english = catalogue("en")
    assert english.msgids, "the English catalogue is empty"
    for language in LANGUAGES:
        cat = catalogue(language)
        assert cat.msgids == english.msgids, f"{language}: codes differ from English"
        for _, code in english.msgids:
            for count in (1, 2):
                theirs, ours = cat.lookup(code, count=count), english.lookup(code, count=count)
                assert theirs and theirs.strip(), f"{language}: {code} has no text"
                assert _fields(theirs) == _fields(ours or ""), f"{language}: {code} placeholders differ"


def test_a_code_is_defined_in_exactly_one_file_of_a_language() -> None:
    for language in LANGUAGES:
        seen: dict[str, str] = {}
        for path in message_files(language):
            for entry in read_po(path):
                if entry.msgid:
                    assert entry.msgid not in seen, \
                        f"{language}: {entry.msgid} is in both {seen[entry.msgid]} and {path.name}"
                    seen[entry.msgid] = path.name
        assert seen, f"{language}: no message files"


def _argparse_msgids() -> set[str]:
    tree = ast.parse(inspect.getsource(argparse))
    found = set()
    for node in ast.walk(tree):
        is_gettext = (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                      and node.func.id in ("_", "ngettext"))
        if is_gettext and node.args and isinstance(first := node.args[0], ast.Constant) \
                and isinstance(first.value, str):
            found.add(first.value)
    return found


def test_every_argparse_text_has_a_hungarian_translation_with_the_same_placeholders() -> None:
    hungarian = catalogue("hu", "argparse")
    msgids = _argparse_msgids()
    assert "the following arguments are required: %s" in msgids  # the extraction works
    for msgid in msgids:
        translated = hungarian.lookup(msgid, count=2) if "%s argument" in msgid else hungarian.lookup(msgid)
        assert translated, f"argparse text without Hungarian: {msgid!r}"
        assert _percent_fields(translated) == _percent_fields(msgid), msgid


def test_every_code_the_code_uses_is_in_the_catalogue() -> None:
    used = set()
    pattern = re.compile(r'''\b(?:text|msg|Message)\(\s*["']([a-z][\w.-]*\.[\w.-]+)["']''')
    for path in (ROOT / "companion").rglob("*.py"):
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    assert "cli.language.unknown" in used  # the scan finds codes
    missing = {code for code in used if catalogue("en").lookup(code) is None}
    assert not missing, f"codes without an English text: {sorted(missing)}"


# -- rendering -----------------------------------------------------------------

def test_render_fills_placeholders_in_the_chosen_language() -> None:
    message = msg("cli.language.unknown", value="fr", source="--lang", choices="en, hu")
    assert render(message, "en") == '--lang: no language "fr" here (choose en, hu)'
    assert render(message, "hu") == "--lang: nincs „fr” nyelv (választható: en, hu)"


def test_a_list_of_names_is_joined_the_languages_way() -> None:
    assert join_list(["Albert"], "hu") == "Albert"
    assert join_list(["Albert", "Birgit"], "en") == "Albert and Birgit"
    assert join_list(["Albert", "Birgit", "Helmut"], "en") == "Albert, Birgit and Helmut"
    assert join_list(["Albert", "Birgit", "Helmut"], "hu") == "Albert, Birgit és Helmut"
    message = Message("cli.language.unknown", {"value": "xx", "source": "--lang", "choices": ["en", "hu"]})
    assert render(message, "hu").endswith("(választható: en és hu)")
    assert message.to_json()["params"]["choices"] == ["en", "hu"]


def test_a_refusal_reads_in_the_current_language_and_keeps_its_code() -> None:
    refusal = IllegalMove(msg("cli.language.unknown", value="xx", source="--lang", choices="en"))
    assert str(refusal) == '--lang: no language "xx" here (choose en)'
    set_language("hu")
    assert str(refusal) == "--lang: nincs „xx” nyelv (választható: en)"
    assert isinstance(refusal.reason, Message) and refusal.reason.code == "cli.language.unknown"


def test_a_refusal_quoting_a_line_break_stays_one_line() -> None:
    refusal = IllegalMove(msg("cli.language.unknown", value="x\ny", source="--lang", choices="en"))
    assert "\n" not in str(refusal)


def test_render_shows_an_unknown_code_instead_of_crashing() -> None:
    assert render(msg("no.such.code", player="Albert"), "hu") == "no.such.code(player=Albert)"


def test_json_carries_the_code_the_parameters_and_the_english_text() -> None:
    message = Message("cli.language.unknown", {"value": "xx", "source": "--lang", "choices": "en, hu"})
    assert render_json(message) == {"code": "cli.language.unknown",
                                    "params": {"value": "xx", "source": "--lang", "choices": "en, hu"},
                                    "text": '--lang: no language "xx" here (choose en, hu)'}


# -- choosing the language -----------------------------------------------------

def test_the_option_wins_then_the_variable_then_the_table_then_english() -> None:
    asked = []

    def table() -> str:
        asked.append(True)
        return "hu"

    assert choose_language("en", {"COMPANION_LANG": "hu"}, table) == "en"
    assert choose_language(None, {"COMPANION_LANG": "HU"}, table) == "hu"
    assert not asked  # the store is not opened when the option or the variable says
    assert choose_language(None, {}, table) == "hu"
    assert choose_language(None, {}, None) == "en"
    assert choose_language(None, {}, lambda: "klingon") == "en"  # a stored value never stops the app


@pytest.mark.parametrize(("option", "environ", "source"), [
    ("fr", {}, "--lang"), (None, {"COMPANION_LANG": "de"}, "COMPANION_LANG")])
def test_an_unknown_language_is_an_error_naming_where_it_came_from(option, environ, source) -> None:
    with pytest.raises(LanguageError, match=f"^{source}: no language"):
        choose_language(option, environ)


def test_the_command_line_speaks_hungarian_with_lang(run_cli) -> None:
    code, out, err = run_cli("--lang", "hu", "replay")
    assert code == 2 and out == ""
    assert err == ("companion: `replay`: ezek az argumentumok kötelezők: FÁJL "
                   "(lásd: `companion replay --help`)\n")


def test_the_command_line_speaks_hungarian_with_the_variable(run_cli, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_LANG", "hu")
    code, out, _ = run_cli("--help")
    assert code == 0
    assert out.startswith("használat: companion")
    assert "kapcsolók:" in out and "options:" not in out
    assert "az üzenetek nyelve" in out


def test_an_unknown_language_on_the_command_line_is_one_line_and_exit_2(run_cli) -> None:
    code, out, err = run_cli("--lang=xx", "sessions")
    assert (code, out) == (2, "")
    assert err == 'companion: --lang: no language "xx" here (choose en, hu)\n'


def test_english_comes_back_after_hungarian(run_cli) -> None:
    run_cli("--lang", "hu", "replay")
    code, _, err = run_cli("replay")
    assert code == 2 and "the following arguments are required: FILE" in err
    assert i18n.current_language() == "en"


def test_the_tables_language_speaks_when_nothing_else_says(run_cli, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    assert run_cli("settings", "language", "hu")[0] == 0
    assert run_cli("sessions")[0] == 0
    assert i18n.current_language() == "hu"  # the store was opened and its setting read
    assert run_cli("--lang", "en", "sessions")[0] == 0
    assert i18n.current_language() == "en"  # the option wins over the table


def test_replay_reports_in_the_tables_language_and_its_json_reads_no_store(run_cli, tmp_path,
                                                                           monkeypatch) -> None:
    """A Hungarian table reads `replay` in Hungarian without `--lang hu` (issue 36); the record
    replays the same everywhere, only its words differ, and `--json` is the same in every language."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.delenv("COMPANION_LANG", raising=False)
    record = str(ROOT / "tests" / "data" / "examples" / "campanile-3p.json")
    english = run_cli("--lang", "en", "replay", record)[1]
    assert run_cli("settings", "language", "hu")[0] == 0
    i18n.set_language("en")
    code, hungarian, _ = run_cli("replay", record)
    assert code == 0 and "véget ért" in hungarian and hungarian != english
    i18n.set_language("en")
    assert run_cli("replay", record, "--json")[0] == 0
    assert i18n.current_language() == "en"  # the machine output opened no store
    assert run_cli("--lang", "en", "replay", record)[1] == english  # the option wins over the table


def test_a_plural_comes_from_the_catalogue_in_each_language(run_cli, tmp_path) -> None:
    from companion.service.app import Companion

    with Companion.open(tmp_path / "companion.sqlite3") as app:
        app.start("campanile", ["Ann", "Bob", "Cid"])
    assert run_cli("--data-dir", str(tmp_path), "doctor")[1].splitlines()[-1] == "all good: 1 session"
    assert run_cli("--data-dir", str(tmp_path), "--lang", "hu", "doctor")[1].splitlines()[-1] == \
        "minden rendben: 1 játszma"
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        app.start("campanile", ["Ann", "Bob", "Cid"])
    assert run_cli("--data-dir", str(tmp_path), "doctor")[1].splitlines()[-1] == "all good: 2 sessions"


# -- no sentence left in the code ------------------------------------------------

#: The errors whose words a person reads: each takes a message code, never a sentence.
MESSAGE_ERRORS = frozenset({"RecordError", "IllegalMove", "UserError", "AppError", "StoreError", "Unusable",
                            "StaleLog", "SessionError", "NoGame", "SettingError", "DataDirError",
                            "InputError", "PlayerNameError", "NotationError"})

#: The game packages and their CLI helpers check themselves (each game's own tests).
GAME_FILES = ("companion/games/campanile/", "companion/games/castelli/", "companion/games/san_gimignano/",
              "companion/cli/commands/campanile.py", "companion/cli/commands/castelli.py")


def _is_sentence(node: ast.expr) -> bool:
    """A string literal, an f-string, or a sentence built from them (``"a" + x``, ``"%s" % x``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_sentence(node.left) or _is_sentence(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _is_sentence(node.func.value)
    return False


def sentences_in_errors(source: str, filename: str) -> list[str]:
    """``file:line: Error(...)`` for every error above raised with a sentence instead of a code."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else None
        if name in MESSAGE_ERRORS and _is_sentence(node.args[0]):
            found.append(f"{filename}:{node.lineno}: {name}({ast.unparse(node.args[0])[:60]})")
    return found


def test_the_scan_finds_a_sentence_in_an_error() -> None:
    source = ('raise RecordError(f"{key} is missing", path)\n'
              'raise UserError("no such file")\n'
              'raise AppError("there is no " + name)\n'
              'raise errors.IllegalMove("{x} is bad".format(x=1))\n'
              'raise RecordError(msg("records.field.missing", key=key), path)\n'
              'raise UserError(*error.args)\n')
    assert [line.split(": ", 1)[1].split("(")[0] for line in sentences_in_errors(source, "x.py")] == \
        ["RecordError", "UserError", "AppError", "IllegalMove"]


def test_no_error_outside_the_games_is_raised_with_a_sentence() -> None:
    offenders = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(GAME_FILES):
            continue
        offenders += sentences_in_errors(path.read_text(encoding="utf-8"), relative)
    assert not offenders, "errors raised with an English sentence instead of a message code:\n" + \
        "\n".join(offenders)


def test_messages_are_equal_by_code_and_parameters_never_by_their_words() -> None:
    message = msg("records.field.unknown", key="colour")
    assert message == msg("records.field.unknown", key="colour") != msg("records.field.unknown", key="x")
    assert message != 'unknown field "colour"'  # words are compared after rendering, on purpose
