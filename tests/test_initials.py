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
    assert initials(["Anna Maria", "Anne"]) == {"Anna Maria": "AM", "Anne": "Anne"}


def test_names_no_prefix_tells_apart_get_their_seat_number() -> None:
    assert initials(["Ann", "Anna", "ANNA"]) == {"Ann": "An1", "Anna": "An2", "ANNA": "An3"}


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
        assert len(value) <= 8
