"""Help that stands alone, in the table's language (issue 36, items 6 and 2).

Every argument of every command is described, in English and in Hungarian, placeholders
included; ``new --help`` lists each game's setup keys from the game's own descriptor, and a
wrong key is refused with the named game's; a mistyped command, subcommand or player name gets
the close ones ("did you mean …"), never the list of everything; and help and argparse's
mistakes speak the language the table keeps in its store (``companion settings language hu``)
when neither ``--lang`` nor ``$COMPANION_LANG`` says another. The tests walk the parser the
program itself builds, so a command added later is held to the same rules.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli.main import build_parser
from companion.games.base import RecordError
from companion.i18n import LANGUAGES, catalogue, known_text, set_language
from companion.i18n.suggest import MOST, close_words, did_you_mean
from companion.registry import descriptors, get_game
from tests.refusals import english_words_in


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every parser of the tree (the top one first) with the words that reach it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _parsers(child, (*path, name))


def _tree(language: str) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    set_language(language)  # argparse words its own headings as each parser is built
    return list(_parsers(build_parser()))


def _words(code: str) -> str | None:
    """The text of a help code in the current language, ``None`` when no catalogue has it."""
    shown = known_text(code)
    return None if shown == code and re.fullmatch(r"[a-z][\w-]*(\.[\w-]+)+", code) else shown


@pytest.fixture(autouse=True)
def _english_after(data_dir):
    """Each test reads a store of its own (never the user's), and leaves the language as it found it."""
    yield
    set_language("en")


# -- every argument described, in both languages -------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_every_command_and_argument_has_a_description_in_each_language(language) -> None:
    undescribed: list[str] = []
    for path, parser in _tree(language):
        where = " ".join(("companion", *path))
        if path and (parser.description is None or _words(parser.description) is None):
            undescribed.append(f"{where}: no description")
        for action in parser._actions:
            if action.help is None or _words(action.help) is None:
                undescribed.append(f"{where} {action.option_strings or action.dest}: no help ({action.help})")
            if isinstance(action, argparse._SubParsersAction):
                undescribed.extend(f"{where} {choice.dest}: no help line"
                                   for choice in action._choices_actions
                                   if not choice.help or _words(choice.help) is None)
    assert not undescribed, "\n".join(undescribed)


def test_the_walk_reaches_the_commands_a_newcomer_asked_about() -> None:
    reached = {" ".join(path) for path, _ in _tree("en")}
    assert {"players add", "players colour", "players list", "players remove", "board layouts",
            "board validate", "championship new", "config check", "hardware test"} <= reached


def _placeholders(parser: argparse.ArgumentParser) -> set[str]:
    found: set[str] = set()
    for action in parser._actions:
        metavar = action.metavar
        found.update(metavar if isinstance(metavar, tuple) else [metavar] if metavar else [])
    return found


def test_every_placeholder_is_written_and_has_a_hungarian_word() -> None:
    """A positional argument without a metavar shows its ``dest`` (``file``), which no catalogue
    words; each written placeholder with a letter in it has Hungarian words of its own."""
    for path, parser in _tree("en"):
        for action in parser._actions:
            if not action.option_strings and not isinstance(action, argparse._SubParsersAction):
                assert action.metavar is not None, f"companion {' '.join(path)}: {action.dest} has no metavar"
    hungarian = catalogue("hu")
    for placeholder in set().union(*(_placeholders(parser) for _, parser in _tree("en"))):
        name = re.sub(r"[^a-z0-9]+", "_", placeholder.lower()).strip("_")
        if re.match(r"[a-z]", name):
            words = hungarian.lookup(f"help.metavar.{name}")
            assert words and words != placeholder, f"{placeholder}: no Hungarian placeholder"


@pytest.mark.parametrize("path", [path for path, _ in _tree("en")], ids=lambda path: " ".join(path) or "-")
def test_each_help_in_hungarian_has_no_english_words_nor_placeholders(run_cli, path) -> None:
    code, out, _ = run_cli("--lang", "hu", *path, "--help")
    assert code == 0 and out.startswith("használat: companion")
    assert "argumentumok:" in out or "kapcsolók:" in out
    assert not {"usage", "options", "positional"} & set(re.findall(r"\w+", out))
    english_placeholders = {"GAME", "PLAYER", "KEY", "VALUE", "NAME", "FILE", "COMMAND", "SESSION", "RECORD",
                            "COLOUR", "DIR", "LANG", "GROUP1", "ID"}
    assert not english_placeholders & set(re.findall(r"\b[A-Z][A-Z0-9]*\b", out)), out
    prose = re.sub(r"`[^`]*`|--?[\w-]+|'[^']*'|\b\w+_\w+\S*", " ", out)  # what is typed stays as typed
    assert not english_words_in(prose), out


def _help_codes(parser: argparse.ArgumentParser) -> Iterator[str]:
    for text in (parser.description, parser.epilog):
        if text:
            yield text
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            yield action.help
        if isinstance(action, argparse._SubParsersAction):
            yield from (choice.help for choice in action._choices_actions if choice.help)


def test_a_flag_in_a_hungarian_help_text_is_marked_as_typed() -> None:
    """``A --option és a --setup értéke …`` reads the flag as a word; `` `--option` `` as what to type."""
    hungarian = catalogue("hu")
    unmarked = {}
    for _, parser in _tree("en"):
        for code in _help_codes(parser):
            words = hungarian.lookup(code) or ""
            prose = re.sub(r"`[^`]*`|'[^']*'", " ", words)
            flags = re.findall(r"(?<![\w-])--?[a-z][\w-]*", prose)
            if flags:
                unmarked[code] = flags
    assert not unmarked, unmarked


# -- new --help: each game's setup keys ------------------------------------------------------

def _new_help(run_cli, *language: str) -> list[str]:
    code, out, _ = run_cli(*language, "new", "--help")
    assert code == 0
    return out.splitlines()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", ["option", "setup"])
def test_new_help_lists_every_games_keys_under_the_game_one_line_each(run_cli, language, kind) -> None:
    lines = _new_help(run_cli, "--lang", language)
    sections = [index for index, line in enumerate(lines) if re.match(r"\S.*`--(option|setup)`.*:$", line)]
    assert len(sections) == 2, lines
    start, end = (sections[0], sections[1]) if kind == "option" else (sections[1], len(lines))
    assert f"`--{kind}`" in lines[start]
    part = lines[start + 1:end]
    games = [found for found in descriptors() if getattr(found, f"{kind}_keys")]
    assert len(games) >= 3
    heads = [next(index for index, line in enumerate(part)
                  if re.fullmatch(rf"  {re.escape(get_game(found.name).title)}( \(.*\))?:", line))
             for found in games]
    assert heads == sorted(heads), "the games in their menu order"
    for found, first, last in zip(games, heads, [*heads[1:], len(part)], strict=True):
        rows = [line.split()[0] for line in part[first + 1:last] if re.match(r"    \S", line)]
        assert rows == list(getattr(found, f"{kind}_keys")), f"{found.name}: {rows}"


def test_a_narrow_terminal_folds_a_key_s_words_under_its_column(run_cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    lines = _new_help(run_cli)
    setup = lines[next(index for index, line in enumerate(lines) if "`--setup` takes" in line):]
    assert all(len(line) <= 60 for line in setup if line.startswith("    ")), setup
    folded = [line for line in setup if line.startswith("    ") and not re.match(r"    \S", line)]
    assert folded and all(line.startswith(" " * 14) for line in folded)  # 4 + "segments" + 2


@pytest.mark.parametrize("found", list(descriptors()), ids=lambda found: found.name)
def test_every_listed_key_is_one_the_engine_takes(found) -> None:
    """The listing and the engine read one list: a key it shows is never refused as unknown."""
    engine = get_game(found.name)
    players = [f"P{n}" for n in range(engine.min_players)]
    tried = [({}, {key: object()}) for key in found.setup_keys]
    tried += [({key: object()}, {}) for key in found.option_keys]
    assert tried
    for options, setup in tried:
        try:
            engine.start(players, options, setup)
        except RecordError as error:
            assert error.as_message().code != "records.field.unknown_listed", (options, setup)
        except (TypeError, ValueError, KeyError):
            pass  # refused for its value, which is all this asks


@pytest.mark.parametrize(("game", "keys", "not_keys"), [
    ("castelli", ("colors", "board", "mine"), ("towers", "segments")),
    ("san-gimignano", ("segments", "guilds", "hands", "pool"), ("colors", "towers")),
])
def test_a_wrong_setup_key_is_refused_with_the_named_games_keys(run_cli, game, keys, not_keys) -> None:
    stored = run_cli("sessions")[1]
    code, _, err = run_cli("new", game, "Anna", "Bela", "Csaba", "--setup", "bogus=1")
    assert code == 2 and '"bogus"' in err
    assert all(f"`{key}`" in err for key in keys), err
    assert not any(f"`{key}`" in err for key in not_keys), err
    code, _, err = run_cli("--lang", "hu", "new", game, "Anna", "Bela", "Csaba", "--setup", "bogus=1")
    assert code == 2 and "ismeretlen mező: „bogus”" in err and all(f"`{key}`" in err for key in keys)
    assert run_cli("sessions")[1] == stored  # nothing stored


@pytest.mark.parametrize(("game", "keys"), [("san-gimignano", ("rules", "variant")),
                                           ("campanile", ("two_player_move", "flags"))])
def test_a_wrong_option_is_refused_with_the_named_games_options(run_cli, game, keys) -> None:
    code, _, err = run_cli("new", game, "Anna", "Bela", "Csaba", "--option", "bogus=1")
    assert code == 2 and err.startswith('companion: options: unknown field "bogus" (this game takes ')
    assert all(f"`{key}`" in err for key in keys) and "`modules`" not in err


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_top_level_help_says_the_championship_is_castellis(run_cli, language) -> None:
    _, out, _ = run_cli("--lang", language, "--help")
    line = " ".join(out.split("    championship", 1)[1].split("\n    config")[0].split())
    assert "Castelli" in line


# -- did you mean … --------------------------------------------------------------------------

def test_a_mistyped_command_gets_the_close_one_not_every_command(run_cli) -> None:
    code, out, err = run_cli("sesions")
    assert (code, out) == (2, "")
    assert "did you mean `sessions`?" in err
    assert "'replay'" not in err and "`replay`" not in err and "choose from" not in err
    code, _, err = run_cli("--lang", "hu", "statz")
    assert code == 2 and "erre gondoltatok: `stats`?" in err and "nincs `statz` parancs" in err


def test_a_word_close_to_no_command_is_unknown_and_points_to_help(run_cli) -> None:
    code, _, err = run_cli("xyzzy")
    assert code == 2
    assert err == "companion: there is no command `xyzzy` (see companion --help)\n"


@pytest.mark.parametrize(("words", "meant"), [(("players", "colur"), "colour"), (("players", "lsit"), "list"),
                                              (("board", "validat"), "validate"),
                                              (("config", "exampel"), "example")])
def test_a_mistyped_subcommand_gets_the_close_one(run_cli, words, meant) -> None:
    code, _, err = run_cli(*words)
    assert code == 2 and err.startswith(f"companion: {words[0]}: there is no command `{words[1]}`")
    assert f"did you mean `{meant}`?" in err


def test_a_mistyped_player_name_gets_the_close_one_and_changes_nothing(run_cli) -> None:
    assert run_cli("players", "add", "Anna")[0] == 0
    code, _, err = run_cli("players", "colour", "Ann", "castelli", "red")
    assert (code, err) == (2, 'companion: there is no player "Ann"; did you mean `Anna`?\n')
    assert run_cli("players", "list")[1] == "Anna\n"  # no colour kept for anyone
    code, _, err = run_cli("--lang", "hu", "players", "remove", "anna")
    assert (code, err) == (2, "companion: nincs „anna” nevű játékos; erre gondoltatok: `Anna`?\n")
    assert run_cli("players", "list")[1] == "Anna\n"
    code, _, err = run_cli("players", "remove", "Zed")  # close to nobody: the refusal as before
    assert code == 2 and "did you mean" not in err


@given(st.text(min_size=1, max_size=12), st.lists(st.text(min_size=1, max_size=12), max_size=8))
def test_suggestions_are_known_words_at_most_a_few(typed, known) -> None:
    found = close_words(typed, known)
    assert len(found) <= MOST
    assert all(word in known for word in found)
    if typed in known:
        assert found and found[0].casefold() == typed.casefold()


def test_nothing_close_is_no_suggestion_and_something_close_is_marked_to_type() -> None:
    assert did_you_mean("zzzz", ["sessions", "stats"]) is None
    message = did_you_mean("Csab", ["Anna", "Csaba"])
    assert message is not None and message.code == "help.suggest.did_you_mean"
    assert list(message.params["words"]) == ["`Csaba`"]


# -- in the table's language -----------------------------------------------------------------

def test_help_and_mistakes_speak_the_tables_language(run_cli) -> None:
    assert run_cli("settings", "language", "hu")[0] == 0
    code, out, _ = run_cli("--help")
    assert code == 0 and out.startswith("használat: companion") and "kapcsolók:" in out
    assert "[--lang NYELV]" in out and "PARANCS" in out
    code, out, _ = run_cli("players")  # a group named alone prints its help
    assert code == 0 and out.startswith("használat: companion players") and "argumentumok:" in out
    code, out, _ = run_cli("new", "--help")
    assert "JÁTÉK JÁTÉKOS [JÁTÉKOS ...]" in out and "A `--setup` mezői játékonként:" in out
    assert "A `--option` szabálybeállításai játékonként:" in out
    code, _, err = run_cli("new")
    assert err == ("companion: `new`: ezek az argumentumok kötelezők: JÁTÉK, JÁTÉKOS "
                   "(lásd: `companion new --help`)\n")
    code, _, err = run_cli("sesions")
    assert "erre gondoltatok: `sessions`?" in err


def test_the_option_and_the_variable_still_win_over_the_table(run_cli, monkeypatch) -> None:
    assert run_cli("settings", "language", "hu")[0] == 0
    assert run_cli("--lang", "en", "--help")[1].startswith("usage: companion")
    monkeypatch.setenv("COMPANION_LANG", "en")
    assert run_cli("--help")[1].startswith("usage: companion")
    assert "there is no command `sesions`" in run_cli("sesions")[2]


def test_reading_the_tables_language_leaves_the_data_directory_as_it_was(run_cli, data_dir) -> None:
    assert run_cli("settings", "language", "hu")[0] == 0
    before = {path.name: path.read_bytes() for path in data_dir.iterdir()}
    assert "erre gondoltatok" in run_cli("sesions")[2]
    assert run_cli("--help")[1].startswith("használat:")
    assert run_cli("players")[1].startswith("használat:")
    assert {path.name: path.read_bytes() for path in data_dir.iterdir()} == before


def test_help_without_a_store_is_english_and_creates_nothing(run_cli, data_dir) -> None:
    code, out, _ = run_cli("--data-dir", str(data_dir / "none"), "--help")
    assert code == 0 and out.startswith("usage: companion")
    assert not (data_dir / "none").exists()
