"""Campanile speaks through the catalogues: message codes in the engine, English and Hungarian words.

- no refusal or record error of the engine is a sentence written in code (an ast walk);
- every Campanile code the code uses is in the catalogues and every catalogued one is used;
- ``companion --lang hu replay`` and ``moves`` on the example record print no English words
  (the names that come from the record aside), through real processes;
- ``--json`` output is byte-identical in English and Hungarian, and carries the code, the
  parameters and the English text of every explanation.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.campanile import Campanile
from companion.games.campanile.moves import Build, Influence, Take, Valuation
from companion.games.campanile.rules import win_reason
from companion.games.campanile.state import Group
from companion.games.campanile.valuation import value_tower
from companion.games.messages import Message
from companion.i18n import render, set_language, summary_json
from companion.i18n.po import read_po
from tests.conftest import EXAMPLES
from tests.helpers_campanile import explained
from tests.refusals import assert_message, english_words_in, refuses

#: The catalogues Campanile ships (its descriptor names them).
CATALOGUES = Path(__file__).resolve().parents[3] / "companion" / "games" / "campanile" / "locale"

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "companion" / "games" / "campanile"
CLI_MODULE = ROOT / "companion" / "cli" / "commands" / "campanile.py"
COMPANION = Path(sys.executable).with_name("companion")
EXAMPLE = EXAMPLES / "campanile-3p.json"
GAME = Campanile()
#: The exceptions whose argument must be a message, never a sentence.
CARRIERS = {"IllegalMove", "RecordError", "UserError"}


# -- no sentence left in the code ---------------------------------------------

def _sentences_in_code(source: str) -> list[int]:
    """Lines where IllegalMove/RecordError/UserError is given a string literal or an f-string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        first = node.args[0]
        is_text = isinstance(first, ast.JoinedStr) or (isinstance(first, ast.Constant)
                                                       and isinstance(first.value, str))
        is_text = is_text or (isinstance(first, ast.BinOp) and any(
            isinstance(side, ast.JoinedStr | ast.Constant) for side in (first.left, first.right)))
        if name in CARRIERS and is_text:
            found.append(node.lineno)
    return found


@pytest.mark.parametrize("path", [*sorted(PACKAGE.glob("*.py")), CLI_MODULE], ids=lambda p: p.name)
def test_no_refusal_or_record_error_is_a_sentence_written_in_code(path: Path) -> None:
    assert _sentences_in_code(path.read_text(encoding="utf-8")) == [], \
        f"{path.name}: give these a message code (msg(...)) instead of words"


@pytest.mark.parametrize(("source", "lines"), [
    ('raise IllegalMove("it is not your turn")\n', [1]),
    ('raise RecordError(f"{x} is wrong", "setup")\n', [1]),
    ('raise errors.IllegalMove("a" + name)\n', [1]),
    ('raise IllegalMove(msg("campanile.game.over"))\n', []),
    ('raise RecordError(error.message, path)\n', []),
])
def test_the_walk_finds_sentences_and_lets_codes_through(source: str, lines: list[int]) -> None:
    assert _sentences_in_code(source) == lines


# -- the catalogues hold exactly the codes in use ---------------------------------

def _codes_in_code() -> set[str]:
    pattern = re.compile(r'''\b(?:text|msg|Message)\(\s*["'](campanile\.[\w.]+)["']''')
    used: set[str] = set()
    for path in (ROOT / "companion").rglob("*.py"):
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    used |= set(re.findall(r'help="(campanile\.[\w.]+)"', CLI_MODULE.read_text(encoding="utf-8")))
    return used


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_campanile_catalogue_holds_every_code_in_use_and_no_other(language: str) -> None:
    catalogued = {entry.msgid for entry in read_po(CATALOGUES / language / "campanile.po") if entry.msgid}
    used = _codes_in_code()
    assert "campanile.marker.none_left" in used  # the scan finds codes
    assert used - catalogued == set(), "codes without a text"
    assert catalogued - used == set(), "texts no code uses any more"
    assert all(code.startswith("campanile.") for code in catalogued)


def test_tower_colours_are_said_in_the_players_language_and_other_names_as_they_are() -> None:
    state = GAME.start(["Ann", "Bob", "Cid"], {}, {"towers": ["grey", "brown", "Bell", "blue", "x"]})
    with refuses("campanile.tower.unknown", tower="nope") as caught:
        GAME.apply(state, Build("Ann", "nope", 1))
    reason = caught.value.reason
    assert isinstance(reason, Message)
    assert render(reason, "en").endswith("(the towers are grey, brown, Bell, blue and x)")
    assert render(reason, "hu").endswith("(a tornyok: szürke, barna, Bell, kék és x)")


# -- explanations and the win -------------------------------------------------------

def test_every_kind_of_explanation_sentence_reads_in_both_languages() -> None:
    cases = [
        value_tower("grey", 1, (4, 2), ()),
        value_tower("red", 1, (6, 4, 2),
                    (Group("A", (2,)), Group("B", (1, 1)), Group("C", (2,)), Group("D", (1,)))),
        value_tower("blue", 2, (5, 3, 1), (Group("A", (1,)),)),
        value_tower("Bell", 3, (2,), (Group("A", (1,)), Group("B", (1,)))),
    ]
    codes = set()
    for result in cases:
        explained(result.explanation)  # every sentence checked in English and Hungarian
        codes |= {sentence.code for sentence in result.explanation}
    assert codes == {"campanile.explain.nobody", "campanile.explain.influence", "campanile.explain.tie_two",
                     "campanile.explain.tie_many", "campanile.explain.points", "campanile.explain.nothing",
                     "campanile.explain.unclaimed"}
    assert explained(cases[2].explanation, "hu") == (
        "A kék torony, zászló: 5/3/1; befolyás: A 1. Győzelmi pontok: A 5. "
        "A zászló 3/1 értékeit senki sem kapja meg: csak 1 játékosnak van itt jelzője.")


groups = st.lists(st.tuples(st.sampled_from(["Ann", "Bob", "Cid", "Dora", "Émile"]),
                            st.lists(st.integers(1, 3), min_size=1, max_size=4)),
                  max_size=5, unique_by=lambda group: group[0]).map(
    lambda found: tuple(Group(player, tuple(markers)) for player, markers in found))
flags = st.lists(st.integers(1, 6), min_size=1, max_size=4).map(lambda row: tuple(sorted(row, reverse=True)))


@given(st.sampled_from(["grey", "red", "Bell"]), flags, groups)
def test_any_valuation_is_explained_in_both_languages_and_says_who_got_what(tower: str, flag: tuple[int, ...],
                                                                            stack: tuple[Group, ...]) -> None:
    result = value_tower(tower, 1, flag, stack)
    explained(result.explanation)  # every sentence: a code, words in both languages, no English in Hungarian
    codes = [sentence.code for sentence in result.explanation]
    if not stack:
        assert codes == ["campanile.explain.nobody"]
        return
    points = next(s for s in result.explanation if s.code == "campanile.explain.points")
    assert [(m.params["player"], m.params["figure"]) for m in points.params["awards"]] == \
        [(a.player, a.points) for a in result.awards]
    assert ("campanile.explain.nothing" in codes) == (len(stack) > len(flag))
    assert ("campanile.explain.unclaimed" in codes) == (len(flag) > len(stack))
    tied_sentences = [s for s in result.explanation if s.code.startswith("campanile.explain.tie_")]
    for sentence in tied_sentences:  # a tie is explained only between players with equal influence
        names = [sentence.params["first"], sentence.params.get("second")] if "second" in sentence.params \
            else sentence.params["players"]
        assert len({g.influence for g in stack if g.player in names}) == 1


def _finished(*moves: Any) -> Any:
    state = GAME.start(["A", "B", "C"], {}, {})
    for move in moves:
        state = GAME.apply(state, move)
    return state


def test_the_win_is_explained_by_points_by_the_highest_chip_or_as_shared() -> None:
    by_points = _finished(Build("A", "red", 3), Influence("A", "red"), Valuation("finito"))
    assert_message(win_reason(by_points), "campanile.outcome.points", player="A", points=6)
    assert render(win_reason(by_points), "hu") == "A nyert a legtöbb ponttal (6)."
    assert GAME.outcome(by_points).decided_by == "score"
    shared = _finished(Build("A", "red", 1), Valuation("finito"))
    assert GAME.outcome(shared).decided_by == "shared"
    assert_message(win_reason(shared), "campanile.outcome.shared", players=["A", "B", "C"], points=0, chip=0)


def test_the_summary_carries_each_explanation_in_english_with_its_codes() -> None:
    state = _finished(Build("A", "red", 2), Influence("A", "red"), Build("B", "blue", 1),
                      Influence("B", "red"), Valuation("finito"))
    summary = summary_json(GAME.summary(state))  # the summary as replay --json writes it
    red = next(e for e in summary["explanations"] if e["tower"] == "red")
    assert red["text"] == ("The red tower, flag 6/4/2: influence A 2 and B 1. Points: A 6 and B 4. "
                           "The 2 is not given: only 2 players have markers here.")
    assert red["text"] == " ".join(sentence["text"] for sentence in red["sentences"])
    assert red["sentences"][1] == {
        "code": "campanile.explain.points",
        "params": {"awards": [
            {"code": "campanile.explain.player_figure", "params": {"player": "A", "figure": 6}},
            {"code": "campanile.explain.player_figure", "params": {"player": "B", "figure": 4}}]},
        "text": "Points: A 6 and B 4."}
    assert red["sentences"][0]["params"]["tower"] == {"code": "campanile.colour.red", "params": {}}
    assert summary["win_reason"]["code"] == "campanile.outcome.points"
    json.dumps(summary)  # plain JSON, nothing else


def test_an_unfinished_summary_before_a_valuation_has_no_win_reason_nor_explanations() -> None:
    state = GAME.start(["A", "B", "C"], {}, {"display": ["red", "red", "blue"]})
    state = GAME.apply(state, Build("A", "red", 1))
    state = GAME.apply(state, Take("A", "blue"))
    summary = GAME.summary(state)
    assert summary["win_reason"] is None and summary["explanations"] == []


# -- the command line in Hungarian, through real processes -----------------------------

def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(COMPANION), *args], capture_output=True, text=True, timeout=120, check=False)


def _names(record: dict[str, Any]) -> tuple[str, ...]:
    return tuple(record["players"])


def _prefix(tmp_path: Path, count: int) -> tuple[Path, dict[str, Any]]:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["moves"] = record["moves"][:count]
    path = tmp_path / f"prefix-{count}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path, record


def test_replay_in_hungarian_prints_no_english(tmp_path: Path) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    done = _run("--lang", "hu", "replay", str(EXAMPLE))
    assert done.returncode == 0 and done.stderr == ""
    assert english_words_in(done.stdout, _names(record)) == set(), done.stdout
    lines = done.stdout.splitlines()
    assert lines[0] == "Campanile — véget ért"
    assert ("  piros      magasság 26  helyezés 1  zászló: 6/4/2  "
            "Birgit 3+2+2, Franziska 3+2, Albert 3+1+1") in lines
    assert "Franziska és Albert befolyása egyaránt 5; Franziska jelzői vannak közelebb a torony aljához." \
        in done.stdout
    assert lines[-1] == "Albert nyert a legtöbb ponttal (21)."
    english = _run("replay", str(EXAMPLE))
    assert english.stdout.splitlines()[0] == "Campanile — finished"
    assert english.stdout != done.stdout


@pytest.mark.parametrize("count", [0, 1, 2, 27, 28, 40])
def test_moves_and_replay_in_hungarian_print_no_english_at_any_point_of_the_game(tmp_path: Path,
                                                                                count: int) -> None:
    path, record = _prefix(tmp_path, count)
    for command in ("moves", "replay"):
        done = _run("--lang", "hu", command, str(path))
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.strip()
        assert english_words_in(done.stdout, _names(record)) == set(), done.stdout


def test_moves_in_hungarian_use_the_notations_hungarian_words(tmp_path: Path) -> None:
    path, _ = _prefix(tmp_path, 1)  # Albert built: his marker, or the next build
    done = _run("--lang", "hu", "moves", str(path))
    assert "Albert: jelző 2 barna alá" in done.stdout
    assert "Albert: marker 2 under brown" in _run("moves", str(path)).stdout


@pytest.mark.parametrize("command", ["replay", "moves"])
@pytest.mark.parametrize("count", [28, 64])
def test_json_output_is_byte_identical_in_every_language(tmp_path: Path, command: str, count: int) -> None:
    path, _ = _prefix(tmp_path, count)
    english = _run("--lang", "en", command, str(path), "--json")
    hungarian = _run("--lang", "hu", command, str(path), "--json")
    assert english.returncode == hungarian.returncode == 0
    assert english.stdout == hungarian.stdout
    assert english.stdout.strip()


def test_flags_command_speaks_hungarian(run_cli, tmp_path: Path) -> None:
    code, out, _ = run_cli("--lang", "hu", "--data-dir", str(tmp_path), "campanile", "flags")
    assert code == 0
    assert out.startswith("még nincs megerősített 2 fős zászlótábla")
    code, out, err = run_cli("--lang", "hu", "--data-dir", str(tmp_path), "campanile", "flags",
                             "--intermezzo", "4/x 3/1 2 1", "--finito", "5 4 3 2 1")
    assert (code, out) == (2, "")
    assert "„4/x” nem zászló" in err and english_words_in(err) == set()
    code, out, err = run_cli("--lang", "hu", "--data-dir", str(tmp_path), "campanile", "flags",
                             "--intermezzo", "4/2 3/1 2", "--finito", "5 4 3 2 1")
    assert code == 2
    assert "intermezzo: pontosan 4 zászló kell (minden zászlós toronyhoz egy), nem 3" in err
    code, out, _ = run_cli("--lang", "hu", "--data-dir", str(tmp_path), "campanile", "flags", "--help")
    assert code == 0 and "a megerősített tábla törlése" in out and "Mindkét értékelést meg kell adni" in out


def test_a_record_error_of_this_game_reads_in_hungarian(run_cli, write_record) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["setup"]["towers"] = ["red", "red", "yellow", "brown", "grey"]
    code, out, err = run_cli("--lang", "hu", "replay", write_record(record))
    assert (code, out) == (2, "")
    assert "setup.towers[1]: ez a torony már szerepelt: „red”" in err


def test_an_explanation_is_data_and_reads_as_words_in_the_current_language() -> None:
    result = value_tower("red", 2, (3, 1), (Group("A", (2,)), Group("B", (2,)), Group("C", (1,))))
    assert str(result.explanation) == ("The red tower, flag 3/1: influence A 2, B 2 and C 1. "
                                       "A and B both have 2; A's markers are closer to the base. "
                                       "Points: A 3 and B 1. C gets nothing.")
    set_language("hu")  # a screen shows str(result.explanation) in the table's language
    assert str(result.explanation) == explained(result.explanation, "hu")
    assert str(result.explanation).startswith("A piros torony, zászló: 3/1; befolyás: A 2, B 2 és C 1.")
    assert result.explanation == tuple(result.explanation)  # still the messages themselves


def test_messages_are_data_the_engine_never_renders() -> None:
    state = _finished(Build("A", "red", 1), Valuation("finito"))
    for valuation in state.valuations:
        for flag in valuation.flags:
            assert flag.explanation and all(isinstance(s, Message) for s in flag.explanation)
