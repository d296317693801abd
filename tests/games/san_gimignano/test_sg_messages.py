"""San Gimignano speaks through the catalogues: no sentence in the engine, every code in English and
Hungarian, the replay report and the moves list in Hungarian, ``--json`` the same in every language."""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove
from companion.games.messages import Message
from companion.games.san_gimignano import SanGimignano, geometry, views
from companion.games.san_gimignano.geometry import space_name
from companion.games.san_gimignano.moves import SegmentMove, TokenMove, TowerMove
from companion.i18n import LANGUAGES, catalogue, render, set_language
from companion.i18n.po import read_po
from tests.contract_kit import random_states
from tests.refusals import assert_message, assert_words, english_words_in

PACKAGE = Path(__file__).resolve().parents[3] / "companion" / "games" / "san_gimignano"
LOCALE = PACKAGE / "locale"
EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "san-gimignano.json"
GAME = SanGimignano()
G1, G2, G3, G4 = "guild-1", "guild-2", "guild-3", "guild-4"
S0 = {"at": [0, 0], "edges": [G1, G1, G2, G2, G3, G3]}
S1 = {"at": [1, 0], "edges": [G4, G4, G2, G2, G3, G3]}
S2 = {"at": [0, 1], "edges": [G4, G4, G1, G1, G3, G3]}
#: A holds four spaces of four guilds after these moves and must build (rulebook, hands empty).
TO_BUILD = [("A", [0, 0, G1]), ("B", [0, 1, G1]), ("A", [0, 0, G2]), ("B", [0, 1, G3]),
            ("A", [1, 0, G3]), ("B", [0, 1, G4]), ("A", [1, 0, G4])]


# -- no sentence in the engine -------------------------------------------------

def _is_code(argument: ast.expr) -> bool:
    """``msg("code", ...)`` or ``Message(...)``: the way an engine says something."""
    return (isinstance(argument, ast.Call) and isinstance(argument.func, ast.Name)
            and argument.func.id in ("msg", "Message"))


def _sentences_given_to_exceptions(tree: ast.AST) -> list[tuple[int, str]]:
    """``IllegalMove(...)``/``RecordError(...)`` calls whose message is a text built in code
    (a literal, an f-string, or any expression holding one, such as ``"a" + b`` or ``", ".join``)."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("IllegalMove", "RecordError")):
            continue
        given = node.args[:1] + [k.value for k in node.keywords if k.arg in ("reason", "message")]
        for argument in given:
            if not _is_code(argument) and any(
                    isinstance(part, ast.JoinedStr)
                    or (isinstance(part, ast.Constant) and isinstance(part.value, str))
                    for part in ast.walk(argument)):
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_scan_finds_a_sentence_and_lets_a_code_pass() -> None:
    tree = ast.parse('IllegalMove("no")\nIllegalMove(f"{p} no")\nRecordError("a" + b, "x")\n'
                     'RecordError(message=f"x")\nIllegalMove(", ".join(names))\n'
                     'IllegalMove(msg("san_gimignano.game.over"))\n'
                     'RecordError(error.message, "path")\nRecordError(problem)\n')
    assert [line for line, _ in _sentences_given_to_exceptions(tree)] == [1, 2, 3, 4, 5]


def test_no_refusal_or_record_error_in_the_engine_is_a_sentence() -> None:
    calls = 0
    left = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls += sum(1 for node in ast.walk(tree) if isinstance(node, ast.Call)
                     and isinstance(node.func, ast.Name) and node.func.id in ("IllegalMove", "RecordError"))
        left += [f"{path.name}:{line}: {call}" for line, call in _sentences_given_to_exceptions(tree)]
    assert calls > 40, "the scan found too few refusals: has the engine moved?"
    assert not left, "sentences instead of message codes:\n" + "\n".join(left)


def _codes_in_the_engine() -> set[str]:
    codes = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"san_gimignano(\.[a-z_]+)+", node.value):
                codes.add(node.value)
    return codes


def test_every_code_of_the_engine_has_its_words_and_every_entry_is_used() -> None:
    used = _codes_in_the_engine()
    assert len(used) > 60
    for language in LANGUAGES:
        missing = sorted(code for code in used if not catalogue(language).lookup(code))
        assert not missing, f"{language}: no text for {missing}"
        entries = {entry.msgid for entry in read_po(LOCALE / language / "san_gimignano.po") if entry.msgid}
        assert entries == used, \
            f"{language}: unused {sorted(entries - used)}, missing {sorted(used - entries)}"


# -- explanations --------------------------------------------------------------

def new(rules="rulebook", variant="four", segments=(S0, S1, S2), players=("A", "B"), **setup):
    if rules == "rulebook":
        setup.setdefault("hands", dict.fromkeys(players, 0))
    return GAME.start(list(players), {"rules": rules, "variant": variant},
                      {"segments": list(segments), **setup})


def play(state, *tokens):
    for player, space in tokens:
        state = GAME.apply(state, GAME.parse_move({"type": "token", "player": player, "space": space}))
    return state


def test_the_reports_notes_are_messages_that_read_in_both_languages() -> None:
    state = play(new(), *TO_BUILD)
    notes = views.notes(state)
    assert [note.code for note in notes] == [
        "san_gimignano.report.segments_left", "san_gimignano.report.can_build",
        "san_gimignano.report.one_short", "san_gimignano.report.one_short",
        "san_gimignano.report.must_build", "san_gimignano.report.next"]
    group = [space_name(s, state.segments) for s in sorted([(0, 0, G1), (0, 0, G2), (1, 0, G3), (1, 0, G4)])]
    texts = assert_message(notes[1], "san_gimignano.report.can_build", player="A", spaces=group)
    assert texts["hu"] == ("A tornyot építhet erre a csoportra: A tábla 1. céh, A tábla 2. céh, "
                           "B tábla 3. céh és B tábla 4. céh")
    assert texts["en"].endswith("Guild 1 on A, Guild 2 on A, Guild 3 on B and Guild 4 on B")
    # one gap or several: the catalogue chooses the form by the count
    one = assert_message(notes[2], "san_gimignano.report.one_short", player="A", count=1)
    two = assert_message(notes[3], "san_gimignano.report.one_short", player="B", count=2)
    assert one["hu"].endswith("korong ide: B tábla 2. céh")
    assert two["en"].endswith("a token on one of Guild 2 on A and Guild 2 on B")
    assert two["hu"].endswith("korong ezek egyikére: A tábla 2. céh és B tábla 2. céh")
    assert_message(notes[4], "san_gimignano.report.must_build", player="A")
    assert_message(notes[0], "san_gimignano.report.segments_left")
    assert render(notes[0], "hu") == "hátralévő táblák: A 0 és B 0"


def test_the_clarified_report_counts_the_pool_and_names_the_rules_and_variant() -> None:
    state = new(rules="clarified", variant="string", pool=5)
    heading = assert_message(views.heading(state, GAME.title), "san_gimignano.report.heading")
    assert heading["en"] == "San Gimignano: in progress (clarified rules, string groups)"
    assert heading["hu"] == "San Gimignano: folyamatban (pontosított szabályokkal, láncolt csoportokkal)"
    pool = views.notes(state)[0]
    assert assert_message(pool, "san_gimignano.report.pool_left", count=5)["en"] == \
        "segments left in the pool: 5"


@pytest.mark.parametrize(("towers", "tokens", "code", "params", "english"), [
    ({"A": 3, "B": 2, "C": 3}, {"A": 4, "B": 9, "C": 5}, "san_gimignano.outcome.tokens_decide",
     {"player": "C"}, "C wins: tied on towers, most tokens on the board"),
    ({"A": 2, "B": 3, "C": 3}, {"A": 9, "B": 5, "C": 5}, "san_gimignano.outcome.shared",
     {"players": ["B", "C"]}, "B and C share the win: tied on towers and on tokens on the board"),
    ({"A": 4, "B": 3, "C": 3}, {"A": 0, "B": 5, "C": 5}, "san_gimignano.outcome.most_towers",
     {"player": "A", "count": 4}, "A wins with the most towers (4)"),
])
def test_the_report_says_why_the_winners_won(towers, tokens, code, params, english) -> None:
    state = replace(new(players=("A", "B", "C")), finished=True, tower_count=towers, on_board=tokens)
    reason = views.outcome_reason(state)
    assert assert_message(reason, code, **params)["en"] == english
    assert views.notes(state)[-1] == reason  # the last line: nobody plays next
    assert views.outcome_reason(replace(state, finished=False)) is None
    decided = GAME.outcome(state).decided_by
    assert decided == {"san_gimignano.outcome.tokens_decide": "tokens_on_board",
                       "san_gimignano.outcome.shared": "shared",
                       "san_gimignano.outcome.most_towers": "score"}[code]


def test_the_table_keeps_its_columns_when_the_headings_are_longer() -> None:
    state = play(new(), *TO_BUILD)
    for language in LANGUAGES:
        set_language(language)
        lines = GAME.report(state).splitlines()
        heading, rows = lines[1], lines[2:4]
        assert all(len(row) == len(heading) for row in rows), (language, lines[1:4])
        assert rows[0].split() == ["A", "0", "4", "16", "1"]
    assert not english_words_in(GAME.report(state), ("A", "B", "San Gimignano", G1, G2, G3, G4))
    long_name = "Annamária Kovácsné Szabó-Tóth Eszter"  # longer than the player column
    lines = GAME.report(new(players=(long_name, "B"))).splitlines()
    assert len(lines[1]) == len(lines[2]) == len(lines[3])
    assert lines[2].startswith(f"  {long_name} ")


# -- the command line in Hungarian ---------------------------------------------

def _names(record: dict) -> tuple[str, ...]:
    guilds = record.get("setup", {}).get("guilds") or [G1, G2, G3, G4]
    return (*record["players"], *guilds, "San Gimignano")


def _record_to_build() -> dict:
    return {"format": "companion-record/1", "game": "san-gimignano", "players": ["A", "B"],
            "options": {"rules": "rulebook", "variant": "four"},
            "setup": {"segments": [S0, S1, S2], "hands": {"A": 0, "B": 0}},
            "moves": [{"type": "token", "player": p, "space": s} for p, s in TO_BUILD]}


def _record_finished() -> dict:
    """Two segments, four tokens: nobody can build any more, a shared win (test_sg_rules)."""
    return {"format": "companion-record/1", "game": "san-gimignano", "players": ["A", "B"],
            "options": {"rules": "rulebook", "variant": "four"},
            "setup": {"segments": [S0, S1], "hands": {"A": 0, "B": 0}},
            "moves": [{"type": "token", "player": p, "space": s} for p, s in
                      [("A", [1, 0, G3]), ("B", [0, 0, G1]), ("A", [1, 0, G3]), ("B", [0, 0, G1])]]}


def _example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


@pytest.fixture(params=[_example, _record_to_build, _record_finished])
def record(request) -> dict:
    return request.param()


def test_replay_speaks_hungarian_with_no_english_left(run_cli, write_record, record) -> None:
    path = write_record(record)
    code, english, _ = run_cli("--lang", "en", "replay", path)
    assert code == 0
    code, hungarian, err = run_cli("--lang", "hu", "replay", path)
    assert (code, err) == (0, "")
    assert hungarian.startswith("San Gimignano: ")
    assert hungarian != english
    assert len(hungarian.splitlines()) == len(english.splitlines())
    assert not english_words_in(hungarian, _names(record)), hungarian


@pytest.mark.parametrize(("make", "word"), [(_example, " korong "), (_record_to_build, " torony ")])
def test_moves_speaks_hungarian_with_no_english_left(run_cli, write_record, make, word) -> None:
    record = make()
    code, hungarian, err = run_cli("--lang", "hu", "moves", write_record(record))
    assert (code, err) == (0, "")
    listed = hungarian.splitlines()
    assert listed and all(re.match(r"\s*\d+\. ", line) for line in listed)
    assert all(word in line for line in listed)
    assert not english_words_in(hungarian, _names(record)), hungarian


def test_the_tower_moves_read_in_hungarian(run_cli, write_record) -> None:
    code, hungarian, _ = run_cli("--lang", "hu", "moves", write_record(_record_to_build()))
    assert code == 0
    # the space in the words of the map (its guild, its segment's letter); the group goes without
    # saying when the space lies in one group only
    assert hungarian.splitlines()[0] == "  1. A: torony A tábla 1. céh"


@pytest.mark.parametrize("command", ["replay", "moves"])
def test_json_output_is_the_same_in_every_language(run_cli, write_record, record, command) -> None:
    path = write_record(record)
    outputs = {language: run_cli("--lang", language, command, path, "--json") for language in LANGUAGES}
    assert outputs["en"][0] == 0
    assert outputs["en"][1].strip() and json.loads(outputs["en"][1]) is not None
    assert all(output == outputs["en"] for output in outputs.values())


def test_a_refused_move_in_a_record_is_told_in_hungarian(run_cli, write_record) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["moves"].insert(2, {"type": "token", "player": "Cy", "space": [0, 0, G1]})
    code, out, err = run_cli("--lang", "hu", "replay", write_record(data))
    assert (code, out) == (2, "")
    assert "nem Cy van soron: Bo következik" in err


def test_a_nested_space_is_rendered_in_the_same_language() -> None:
    message = space_name((2, -1, G1))
    assert isinstance(message, Message)
    assert assert_words(message) == {"en": "guild-1 at [2, -1]", "hu": "guild-1 ([2, -1])"}
    assert message.to_json() == {"code": "san_gimignano.space",
                                 "params": {"guild": G1, "q": 2, "r": -1}}
    # on the board, a space is its guild's name and its segment's letter, as the map draws them
    segments = {(0, 0): (), (2, -1): (), (1, 0): ()}
    named = space_name((2, -1, G1), segments)
    assert assert_words(named) == {"en": "Guild 1 on B", "hu": "B tábla 1. céh"}
    assert assert_words(space_name((1, 0, "wool"), segments)) == {"en": "wool on C", "hu": "C tábla wool"}


# -- every refusal and note of a random game reads in both languages -----------

def _wrong_moves(state, rnd: random.Random) -> list:
    """Moves the engine offers for someone (candidates), given to anyone, plus moves off the board."""
    candidates = views.candidate_moves(state, rnd.sample(geometry.all_outlines(state.guilds), 3))
    moved = [replace(move, player=rnd.choice([*state.players, "Zed"])) for move in candidates]
    off_board = [TokenMove(state.players[0], (9, 9, G1)),
                 SegmentMove(state.players[0], (0, 0), (G1, G1, G2, G2, G3, G3)),
                 TowerMove(state.players[0], (0, 0, G1), ((0, 0, G1), (0, 0, G2), (9, 9, G3)))]
    return rnd.sample(moved, min(len(moved), 25)) + off_board


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_refusal_and_note_of_a_random_game_reads_in_both_languages(seed: int) -> None:
    rnd = random.Random(seed)
    codes = set()
    for game, state, _ in itertools.islice(random_states("san-gimignano", seed, 120), 0, None, 7):
        for move in _wrong_moves(state, rnd):
            try:
                game.apply(state, move)
            except IllegalMove as refusal:
                assert isinstance(refusal.reason, Message)
                assert_words(refusal.reason)
                codes.add(refusal.reason.code)
        for note in views.notes(state):
            assert_words(note)
        assert_words(views.heading(state, game.title))
    assert codes, "no move was refused: the game offered nothing to refuse"
