"""A Hungarian table's session from the first command to a finished game: no English word printed.

The table's language is set once (`companion settings language hu`, no `--lang`, no
`$COMPANION_LANG`); then a person types what a newcomer types: help, mistakes argparse refuses,
`új` for each game, refusals, `status`, `moves`, and a whole game in the console (a real
`companion` process fed on standard input, the moves of an example record as players type them).

What a person types stays as it is, marked as something to type, so the detector first removes
backticked spans, quoted spans, JSON, flags, paths, the players' names, the record's ids and
numbers; every word left is looked up in a list of English words: the words of the companion's
English catalogues, less those that are Hungarian too or proper names (issue 36).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n.po import read_po
from companion.registry import get_game
from tests.conftest import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
COMPANION = [sys.executable, "-m", "companion"]
GUARD = 120  # seconds: a hang fails the test instead of stalling the suite

#: Words of the English catalogues that are Hungarian words too, or names and abbreviations that
#: read the same in both languages: games, people of the examples, products, file formats, units.
NOT_ENGLISH = frozenset({
    *"abcdefghijklmnopqrstuvwxyz",  # one letter: an id (segment B, column c), never prose
    "be", "is", "most",
    "en", "hu", "magyar", "dilemma", "campanile", "castelli", "san", "gimignano", "intermezzo", "finito",
    "companion", "albert", "anna", "bela", "csaba", "dora", "birgit", "franziska", "ada", "bo", "cy",
    "bg", "bgg", "stats", "bgstats", "boardgamegeek", "oled", "usb", "json", "qr", "png", "sqlite", "toml",
    "gpio", "bcm", "ctrl", "utf", "unicode", "mb", "wal", "mm", "yyyy", "hhmmss", "dd", "md", "docs",
    "kivy", "opengl", "mesa", "systemctl", "ttyacm", "ttyama", "ui", "rowid", "mime", "dialout", "pip",
    "apt", "libgl", "libegl", "dri", "dev", "nplurals", "charset", "hello",
    "panel", "port", "program", "as",  # Hungarian words too ("3-as": the suffix)
    "english",  # the language's own name on the language menu
    "token",  # the phone link's token: a loanword in Hungarian ("hozzáférési token")
})


def _catalogue_words(language: str) -> set[str]:
    folders = [ROOT / "companion" / "locale" / language,
               *sorted((ROOT / "companion" / "games").glob(f"*/locale/{language}"))]
    words: set[str] = set()
    for folder in folders:
        for path in sorted(folder.glob("*.po")):
            for entry in read_po(path):
                for text in entry.msgstr.values():
                    text = re.sub(r"\{[^}]*\}", " ", text.replace("\\n", " "))
                    words |= {word.lower() for word in re.findall(r"[^\W\d_]+", text)}
    return words


#: The English words the companion itself uses: what a Hungarian session must not print.
ENGLISH = frozenset(_catalogue_words("en") - NOT_ENGLISH
                    | {"argument", "arguments", "invalid", "choice", "choose", "from", "unrecognized",
                       "usage", "error", "required", "expected", "see", "the", "of", "and", "or"})

_STRIPPED = [
    re.compile(r"`[^`\n]*`"),                      # something to type, marked as such
    re.compile(r"„[^”\n]*”|“[^”\n]*”|\"[^\"\n]*\"|'[^'\n]*'"),  # quoted: a typed value shown back
    re.compile(r"\{.*\}"),                          # a move's JSON
    re.compile(r"(?<!\w)--?[\w-]+(=\S*)?"),          # a flag, as typed
    re.compile(r"(?:/|\b[\w.-]+/)[\w./-]+"),         # a path
    re.compile(r"(?<=\w)-[^\W\d_]+"),                # a Hungarian suffix after a hyphen ("pendrive-on")
]


def english_words_in(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English words left in ``text`` once what is typed, quoted, named or counted is removed."""
    for pattern in _STRIPPED:
        text = pattern.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", text)
    words = re.findall(r"[^\W\d_]+", text)  # numbers are not words
    return [word for word in words if word.lower() in ENGLISH]


def test_the_detector_finds_english_and_leaves_what_is_typed() -> None:
    assert english_words_in("companion: argument COMMAND: invalid choice: 'sesions'") == \
        ["argument", "COMMAND", "invalid", "choice"]
    assert english_words_in("feltételezve: colors Anna kék; board example-4p", ("Anna",)) == \
        ["colors", "board", "example"]
    assert english_words_in("elutasítva: {reason}; a listához írja be: moves") == ["moves"]
    assert english_words_in("Ann a castelli játékban ezzel a színnel játszik: red", ("Ann",)) == ["red"]
    # typed, quoted, flagged, named and counted things are not English prose
    assert english_words_in("feltételezve: `colors`: Anna kék; `board`: `example-4p` "
                            "(mást így adhattok meg: `--setup KULCS=ÉRTÉK`)", ("Anna",)) == []
    assert english_words_in("rendben 3: Anna: „moves” --setup {\"type\": \"build\"}", ("Anna",)) == []
    assert english_words_in("A pendrive-on nincs mentés; a 3-as jelző") == []


def _environment(data_dir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("STATE_DIRECTORY", "COMPANION_LANG")}  # the table's setting must speak
    env.update(COMPANION_DATA=str(data_dir), PYTHONIOENCODING="utf-8")
    return env


def _companion(data_dir: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMPANION, *args], input=stdin, capture_output=True, cwd=ROOT, text=True,
                          encoding="utf-8", env=_environment(data_dir), timeout=GUARD, check=False)


@pytest.fixture
def hungarian_table(tmp_path: Path) -> Path:
    """A data directory whose table speaks Hungarian, set as a newcomer sets it."""
    done = _companion(tmp_path, "settings", "language", "hu")
    assert done.returncode == 0, done.stderr
    return tmp_path


def _record(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def _names_of(record: dict) -> tuple[str, ...]:
    """The players, and the ids of the record's setup (spaces, areas, guild names) it quotes back."""
    ids = json.dumps(record.get("setup", {})).replace('"', " ").replace(",", " ").split()
    return (*record["players"], *(word for word in ids if any(ch.isdigit() for ch in word)))


def _english_lines(output: str, names: tuple[str, ...]) -> dict[str, list[str]]:
    found = {line: english_words_in(line, names) for line in output.splitlines()}
    return {line: words for line, words in found.items() if words}


MISTAKES = [
    ("sesions",),                                               # a mistyped command
    ("championship", "new", "--variant", "3", "A", "B", "C", "D"),  # a choice argparse refuses
    ("new", "castelli", "Anna", "Bela", "Csaba", "--bogus"),     # an option nobody has
    ("new", "bogus", "Anna", "Bela"),                           # a game nobody has
    ("new", "castelli", "Anna"),                                # too few players
    ("settings", "language", "xx"),                             # a language nobody speaks
    ("new", "castelli", "Anna", "Bela", "--setup", "bogus=1"),  # a setup key nobody has
]


@pytest.mark.parametrize("args", MISTAKES, ids=" ".join)
def test_a_mistake_on_the_command_line_is_one_hungarian_line(hungarian_table: Path,
                                                              args: tuple[str, ...]) -> None:
    done = _companion(hungarian_table, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert _english_lines(done.stderr, ("Anna", "Bela", "Csaba", "A", "B", "C", "D")) == {}


def test_starting_each_game_and_the_players_colours_speak_hungarian(hungarian_table: Path) -> None:
    printed = []
    for args in (("new", "castelli", "Anna", "Bela", "Csaba", "Dora"),
                 ("new", "campanile", "Albert", "Birgit", "Franziska"),
                 ("new", "san-gimignano", "Ada", "Bo", "Cy"),
                 ("players", "add", "Ann"),
                 ("players", "colour", "Ann", "castelli", "red"),
                 ("players", "list"),
                 ("sessions",),
                 ("replay", str(EXAMPLES / "castelli.json"))):
        done = _companion(hungarian_table, *args)
        assert done.returncode == 0, (args, done.stderr)
        printed.append(done.stdout + done.stderr)
    said = "\n".join(printed)
    names = ("Anna", "Bela", "Csaba", "Dora", "Albert", "Birgit", "Franziska", "Ada", "Bo", "Cy", "Ann",
             *_names_of(_record("castelli")))
    assert _english_lines(said, names) == {}
    # the colour typed in English is stored as the record spells it and said in the table's words
    assert "Ann a castelli játékban ezzel a színnel játszik: piros" in said
    assert "Ann (castelli piros)" in said


def test_players_colour_takes_the_tables_word_and_stores_the_records(hungarian_table: Path) -> None:
    assert _companion(hungarian_table, "players", "add", "Ann").returncode == 0
    said = _companion(hungarian_table, "players", "colour", "Ann", "castelli", "piros").stdout
    assert said.strip() == "Ann a castelli játékban ezzel a színnel játszik: piros"
    listed = _companion(hungarian_table, "--lang", "en", "players", "list").stdout
    assert listed.strip() == "Ann (castelli red)"


def _typed_moves(name: str) -> tuple[dict, list[str]]:
    """The example record and its moves as a Hungarian player types them (the notation)."""
    record = _record(name)
    game = get_game(record["game"])
    state = game.start(record["players"], record.get("options", {}), record.get("setup", {}))
    lines = []
    for move in record["moves"]:
        lines.append(game.describe(state, move, "hu"))
        state = game.apply(state, game.parse_move(move))
    return record, lines


def _new_line(record: dict) -> str:
    """`új` with the record's game, players, options and setup (compact JSON: one word each)."""
    words = ["új", record["game"], *record["players"]]
    for flag, values in (("--option", record.get("options", {})), ("--setup", record.get("setup", {}))):
        for key, value in values.items():
            words += [flag, f"{key}={json.dumps(value, separators=(',', ':'), ensure_ascii=False)}"]
    return " ".join(words)


@pytest.mark.parametrize("example", ["castelli", "campanile-3p", "san-gimignano"])
def test_a_console_session_in_hungarian_prints_no_english_word(hungarian_table: Path, example: str) -> None:
    record, moves = _typed_moves(example)
    lines = [
        "help", "súgó", "lépések", "állás", "statsu", "[",       # before any game
        f"új {record['game']} {' '.join(record['players'])}",     # the example board/layout assumed
        "status", "moves", "lépések", "700", "Zed: valami", "új",  # refusals in a game
        _new_line(record), *moves, "status", "állás", "kilép",     # a whole game, typed
    ]
    done = _companion(hungarian_table, "run", "--headless", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    confirmed = [line for line in out.splitlines() if line.startswith("rendben ")]
    assert len(confirmed) == len(moves), [line for line in out.splitlines() if line.startswith("elutasítva")]
    assert "elutasítva" in out and "parancsok, soronként egy:" in out
    assert _english_lines(out + done.stderr, (*_names_of(record), "Zed")) == {}


HELP_COMMANDS = [(), ("new",), ("run",), ("replay",), ("players",), ("players", "colour"), ("settings",),
                 ("championship", "new"), ("board",), ("web",)]


#: A line of argparse's listings: its first column is what is typed (a command, a flag with its
#: placeholder, a setup key); the words after it are the help's prose.
_LISTED = re.compile(r"^ {2,}\S+(?: \(\S+\))?(?:, \S+)*(?: [A-ZÁÉÍÓÖŐÚÜŰ=_|{},.\[\]-]+)*(?= {2,}|$)")


def help_prose(output: str) -> str:
    """What a person reads as words in a help: less the usage block (the syntax, typed), the first
    column of each listing, marked spans (a backticked one may wrap across lines) and variables."""
    output = re.sub(r"`[^`]*`", " ", output)
    output = re.sub(r"\$[A-Z_]+", " ", output)
    lines, in_usage = [], False
    for line in output.splitlines():
        if line.startswith("használat:"):
            in_usage = True
        if in_usage:
            in_usage = bool(line.strip())
            continue
        lines.append(_LISTED.sub(" ", line))
    return "\n".join(lines)


@pytest.mark.parametrize("command", HELP_COMMANDS, ids=lambda c: " ".join(c) or "companion")
def test_every_help_reads_in_the_tables_language(hungarian_table: Path, command: tuple[str, ...]) -> None:
    done = _companion(hungarian_table, *command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("használat:"), done.stdout[:200]
    assert _english_lines(help_prose(done.stdout), ()) == {}
