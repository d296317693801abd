"""Initials beside player colours: short, and never the same for two players at a table."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.service.names import initials, name_key


def test_two_letters_when_they_tell_the_players_apart() -> None:
    assert initials(["Albert", "Birgit", "Franziska"]) == {"Albert": "Al", "Birgit": "Bi", "Franziska": "Fr"}


def test_a_shared_start_is_told_apart_by_the_second_letter_or_a_longer_prefix() -> None:
    assert initials(["Albert", "Anna"]) == {"Albert": "Al", "Anna": "An"}
    assert initials(["Alfons", "Albert"]) == {"Alfons": "Alf", "Albert": "Alb"}


def test_words_give_their_first_letters_when_the_prefix_is_taken() -> None:
    assert initials(["Anna Maria", "Anne"]) == {"Anna Maria": "AM", "Anne": "An2"}


def test_names_no_prefix_tells_apart_get_their_seat_number() -> None:
    assert initials(["Ann", "Anna", "ANNA"]) == {"Ann": "An1", "Anna": "An2", "ANNA": "An3"}
    # a longer prefix was wider than a San Gimignano token ("Annam"): three characters at most
    assert initials(["Anna", "Annamária", "Bo"]) == {"Anna": "An1", "Annamária": "An2", "Bo": "Bo"}
    assert initials(["Franziska", "Csaba", "Franz"]) == {"Franziska": "Fr1", "Csaba": "Cs", "Franz": "Fr3"}


def test_accented_and_one_letter_names() -> None:
    assert initials(["Ödön", "Őze", "É"]) == {"Ödön": "Öd", "Őze": "Őz", "É": "É"}


names = st.text(st.characters(categories=("L", "N", "Zs")), min_size=1, max_size=12).filter(
    lambda name: name.strip() != "")


@given(st.lists(names, min_size=1, max_size=6, unique=True))
def test_initials_are_unique_short_and_start_like_the_name(players: list[str]) -> None:
    found = initials(players)
    assert list(found) == players
    shown = [name_key(value) for value in found.values()]
    assert len(set(shown)) == len(shown), found
    for name, value in found.items():
        first = name.strip()[0]
        assert name_key(value[0]) == name_key(first.upper()[:1]) or value[0] == first, (name, value)
        assert len(value) <= (3 if len(players) < 10 else 4), found


def test_the_oled_the_touchscreen_and_the_console_use_the_one_initials(tmp_path) -> None:
    """Ann, Anna, Bob: the touchscreen showed An1/Anna/Bo and the OLED Ann/Anna/Bo (two copies); now
    one function, in the core, and no front end keeps a copy of its own."""
    from pathlib import Path

    from companion.service.app import Companion
    from hardware.oled_pages import scores_lines, status_pages
    from ui.players import initials as touchscreen_initials

    players = ["Ann", "Anna", "Bob"]
    assert initials(players) == {"Ann": "An1", "Anna": "An2", "Bob": "Bo"}
    assert touchscreen_initials is initials
    assert scores_lines(players, {"Ann": 1, "Anna": 2, "Bob": 3}) == ["An1 1  An2 2  Bo 3"]
    with Companion.open(tmp_path / "store.db") as app:
        live = app.start("campanile", players)
        page = status_pages(live.session.game, live.session.state)[0]
        assert "An1 0  An2 0  Bo 0" in [line.text for line in page.lines]
    root = Path(__file__).resolve().parent.parent
    sources = [path for folder in ("companion", "hardware", "ui") for path in (root / folder).rglob("*.py")]
    copies = [p.relative_to(root).as_posix() for p in sources if _defines_initials(p)]
    assert copies == ["companion/service/names.py"]  # the console, the OLED and the screens import it


def _defines_initials(path) -> bool:
    """Whether ``path`` defines a function ``initials`` of its own (a class's member named so, such
    as a board's ``initials`` property a screen asks for, is not a copy of the rule)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    methods = {id(node) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) for node in cls.body}
    return any(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "initials"
               and id(node) not in methods for node in ast.walk(tree))
