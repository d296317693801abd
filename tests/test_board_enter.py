"""The table's own board from the first game (issue 36, item 1): ``companion board enter NAME`` asks for
the board a question at a time, keeps the answers in the store and resumes them, checks the result as
``board validate`` does and stores it for new games; and an example board or layout is said to be one."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.castelli.board import board_to_json, load_layout
from companion.games.castelli.descriptor import BOARD_DRAFTS
from companion.games.castelli.descriptor import example as castelli_example
from companion.games.descriptor import EXAMPLE_EXTRA, EXAMPLE_FRONT_ENDS
from companion.games.san_gimignano.descriptor import example as san_gimignano_example
from companion.games.san_gimignano.layout import default_setup
from companion.service.castelli_board_entry import BoardEntry
from companion.service.errors import AppError
from companion.storage.store import Store

Cli = Callable[..., tuple[int, str, str]]


def answers_for(board: dict[str, Any], rows: int, columns: int) -> list[str]:
    """The answers that enter ``board`` (inline JSON on the checkerboard), in the order asked."""
    entry = BoardEntry("x", rows, columns)
    found = []
    for question in entry.questions()[1:]:
        r, c = question.cell
        if question.kind == "area":
            area = board["areas"][f"a{r}{c}"]
            numbers = [area[k] for k in ("yield", "spots", "tents") if k in area]
            settlement = board.get("settlements", {}).get(f"a{r}{c}")
            found.append(" ".join([area["kind"], *map(str, numbers), *([settlement] if settlement else [])]))
        else:
            sides = board["spaces"][f"s{r}{c}"]["sides"]
            found.append(" ".join(sides["NESW"[i]].removeprefix("frame:") for i in question.sides))
    return found


def own_board() -> dict[str, Any]:
    """The 2-player example with one forest's yield changed: a board of the table's, no shipped layout."""
    board = board_to_json(load_layout("example-2p"))
    forest = next(name for name, area in board["areas"].items() if area["kind"] == "forest")
    board["areas"][forest]["yield"] = 5 if board["areas"][forest]["yield"] != 5 else 4
    return board


def typed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def drafts(data: Path) -> Any:
    with Store.open(data / "companion.sqlite3") as store:
        return store.get_setting(BOARD_DRAFTS, {})


def test_a_board_entered_by_answers_is_stored_and_new_games_start_on_it(
        cli: Cli, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = own_board()
    typed(monkeypatch, "4 8", *answers_for(board, 4, 8))
    code, out, err = cli("board", "enter", "home")
    assert code == 0, err
    assert "ok: 16 tile spaces, 16 areas" in out  # board validate's words
    assert 'Stored the board "home".' in out and "every new Castelli game starts on it" in out
    assert drafts(data_dir) == {}  # finished: no draft left
    code, out, _ = cli("new", "castelli", "Anna", "Bela")
    assert code == 0 and "example" not in out  # the table's own board: nothing to say
    record = json.loads(cli("export")[1])
    assert record["setup"]["board"] == board


def test_stopping_keeps_the_answers_and_the_same_command_goes_on(
        cli: Cli, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = answers_for(own_board(), 4, 8)
    typed(monkeypatch, "4 8", *answers[:10])  # the input ends: stopped, nothing lost
    code, out, _ = cli("board", "enter", "home")
    assert code == 0
    assert "Stopped: the 11 answers of 27 are kept. `companion board enter home` goes on from here." in out
    assert drafts(data_dir)["home"] == {"rows": 4, "columns": 8, "answers": answers[:10]}
    typed(monkeypatch, *answers[10:15], "quit")
    code, out, _ = cli("board", "enter", "home")
    assert out.startswith('Going on with the board "home": 11 of 27 questions answered')
    assert drafts(data_dir)["home"]["answers"] == answers[:15]
    typed(monkeypatch, *answers[15:])
    code, out, _ = cli("board", "enter", "home")
    assert code == 0 and 'Stored the board "home".' in out
    assert "home: 16 tile spaces, 16 areas (stored here)" in cli("board", "layouts")[1]


def test_a_refused_answer_changes_nothing_and_back_takes_one_back(
        cli: Cli, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    typed(monkeypatch, "2 4", "mine", "wood", "mine", "forest 9", "rock 2 1 7", "plain castle", "back")
    code, out, _ = cli("board", "enter", "tiny")
    assert code == 0
    assert "not taken: a board has one silver mine, and yours is at row 1, column 1; answer again" in out
    assert 'not taken: "forest 9": after the kind comes its yield, 1–5, or nothing for 2' in out
    assert 'not taken: "rock 2 1 7"' in out and 'not taken: "plain castle"' in out
    assert drafts(data_dir)["tiny"] == {"rows": 2, "columns": 4, "answers": ["mine"]}  # back took "wood"


def test_answers_in_hungarian_words_and_the_usual_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = BoardEntry("x")
    entry.answer("")  # Enter: the four board parts
    assert (entry.rows, entry.columns) == (8, 8)
    entry.answer("erdő")
    entry.answer("Gabona")
    entry.answer("szikla 3")
    entry.answer("semmi")
    entry.answer("síkság falu")
    assert entry.answers == ["forest 2", "grain", "rock 3 1", "neutral", "plain village"]
    with pytest.raises(AppError):
        entry.answer("wood grain")  # a space at the top edge has one frame side
    assert entry.answers[-1] == "plain village"


@pytest.mark.parametrize("name", ["example-4p", "", "a\u202eb"])
def test_a_name_that_cannot_be_kept_is_refused_before_any_question(cli: Cli, name: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    typed(monkeypatch, "4 8")
    code, out, err = cli("board", "enter", name)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_again_starts_from_the_first_question(cli: Cli, data_dir: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    typed(monkeypatch, "4 8", "forest")
    cli("board", "enter", "home")
    typed(monkeypatch, "2 2")
    _, out, _ = cli("board", "enter", "home", "--again")
    assert out.startswith('Entering the board "home"')
    assert drafts(data_dir)["home"] == {"rows": 2, "columns": 2, "answers": []}


@settings(max_examples=25, deadline=None)
@given(size=st.tuples(st.integers(2, 6), st.integers(2, 6)), data=st.data())
def test_any_answers_make_the_board_they_say_or_are_refused(size: tuple[int, int],
                                                           data: st.DataObject) -> None:
    """Drawn answers: each one is taken or refused; every taken set makes a valid board once finished,
    the drawing has a row for each grid row and the frame, and a draft read back is the same entry."""
    entry = BoardEntry("x")
    entry.answer(f"{size[0]} {size[1]}")
    area = st.sampled_from(["forest", "field 3", "rock 1 4", "market 5", "mine", "plain", "plain town",
                            "plain village", "lake", "forest 0"])
    gift = st.sampled_from(["wood", "grain", "stone", "silver", "card", "neutral", "gold"])
    while (question := entry.next_question()) is not None:
        if question.kind == "area":
            answer = data.draw(area)
        else:
            answer = " ".join(data.draw(gift) for _ in question.sides)
        before = list(entry.answers)
        try:
            entry.answer(answer)
        except AppError:
            assert entry.answers == before
            entry.answer("plain") if question.kind == "area" else entry.answer(
                " ".join("neutral" for _ in question.sides))
        assert len(entry.drawing()) == size[0] + 2
        assert BoardEntry.from_draft("x", json.loads(json.dumps(entry.to_draft()))) == entry
    board = entry.board()
    assert len(board.areas) + len(board.spaces) == size[0] * size[1]


# -- the example board or layout, said from the game's own fact ---------------------------------

@pytest.mark.parametrize("name", ["example-2p", "example-4p", "example-2p-extra-mine"])
def test_every_shipped_layout_is_an_example_by_name_and_inline(name: str) -> None:
    for board in (name, board_to_json(load_layout(name)), json.loads((Path(__file__).parents[1] / "companion"
                                                                     / "games" / "castelli" / "layouts"
                                                                     / f"{name}.json").read_text())):
        if isinstance(board, dict):
            board.pop("comment", None)
        found = castelli_example({"board": board}, {}, ["A", "B"])
        assert found is not None and found.name == name and found.field == "board"
        assert set(EXAMPLE_FRONT_ENDS) <= set(found.said) <= {*EXAMPLE_FRONT_ENDS, *EXAMPLE_EXTRA}
    assert castelli_example({"groups": [["A", "B"], ["C", "D"]], "boards": [own_board(), name]}, {},
                            ["A", "B", "C", "D"]) is not None


def test_the_tables_own_board_is_no_example() -> None:
    assert castelli_example({"board": own_board()}, {}, ["A", "B"]) is None
    assert castelli_example({"board": {"areas": "broken"}}, {}, ["A", "B"]) is None


def test_the_offered_segments_are_an_example_and_other_ones_are_not() -> None:
    players = ["Ann", "Bob", "Cid"]
    offered = default_setup(players, {})
    found = san_gimignano_example(offered, {}, players)
    assert found is not None and found.field == "segments"
    assert san_gimignano_example({**offered, "segments": list(reversed(offered["segments"]))}, {}, players)
    turned = [dict(s) for s in offered["segments"]]
    turned[0] = {**turned[0], "at": [5, 5]}
    assert san_gimignano_example({**offered, "segments": turned}, {}, players) is None
    assert san_gimignano_example(offered, {"rules": "clarified"}, players) is None  # four laid, not three


def test_the_console_says_it_at_new_and_in_status_also_after_a_resume(
        cli: Cli, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = cli("new", "castelli", "Anna", "Bela", "Csaba", "Dora")
    sentence = "This game is on the example board `example-4p`, not on your box's printed board"
    assert code == 0 and sentence in out and "`companion board enter home`" in out
    typed(monkeypatch, "status", "quit")  # the game resumed from the store: its board is inline there
    code, out, _ = cli("run", "--headless")
    assert out.count(sentence) == 1
    code, out, _ = cli("--lang", "hu", "new", "san-gimignano", "Ann", "Bob")
    assert "Ez a játék a program által felkínált elrendezésből indul" in out


def _record(cli: Cli, *new: str) -> dict[str, Any]:
    assert cli("new", *new)[0] == 0
    record: dict[str, Any] = json.loads(cli("export")[1])
    return record


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_phone_page_says_it_once_and_not_for_the_tables_board(cli: Cli, language: str) -> None:
    from web.pages import game_page

    on_example = game_page(_record(cli, "castelli", "Anna", "Bela", "Csaba"), game_id=1, lang=language,
                           token="tok")
    sentence = {"en": "This game is on the example board example-4p, not on the table&#39;s own board",
                "hu": "Ez a játék egy mintatáblán (example-4p) folyik"}[language]
    assert on_example.count(sentence) == 1 and 'class="quiet example"' in on_example
    offered = game_page(_record(cli, "san-gimignano", "Ann", "Bob"), game_id=2, lang=language, token="tok")
    assert offered.count('class="quiet example"') == 1
    own = json.loads((Path(__file__).parent / "data" / "examples" / "castelli.json").read_text())
    assert 'class="quiet example"' not in game_page(own, game_id=3, lang=language, token="tok")


@pytest.mark.parametrize(("game", "players", "title"), [
    ("castelli", ["Anna", "Bela"], "Example board"), ("san-gimignano", ["Ann", "Bob"], "Offered layout"),
    ("campanile", ["Ann", "Bob", "Cid"], None)])
def test_the_oled_says_it_when_a_game_starts_from_its_menu(tmp_path: Path, game: str, players: list[str],
                                                           title: str | None) -> None:
    from companion.registry import get_game
    from companion.service.app import Companion
    from companion.service.table import Table
    from hardware.navigator import Navigator

    shown: list[Any] = []
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        navigator = Navigator(Table(app), notify=shown.extend)
        navigator._start(get_game(game), players)()
    if title is None:
        assert shown == []
        return
    (page,) = shown
    assert page.text().splitlines()[0] == title
    assert len(page.text().splitlines()) <= 5 and not page.text().rstrip().endswith("…")  # it all fits
