"""Player names match in any case or Unicode form; new games may not hold names that clash."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.base import RecordError
from companion.service.names import PlayerNameError, check_distinct, match_player, name_key, same_name

PLAYERS = ("Albert", "Zoë", "Straße")


@pytest.mark.parametrize(("typed", "player"), [
    ("albert", "Albert"), ("ALBERT", "Albert"), ("Albert", "Albert"),
    ("zoë", "Zoë"), ("Zoe\u0308", "Zoë"), ("ZOË", "Zoë"),  # decomposed ë, capitals
    ("STRASSE", "Straße"), ("strasse", "Straße"),
])
def test_a_typed_name_finds_its_player(typed, player):
    assert match_player(PLAYERS, typed) == player


def test_an_unknown_name_is_refused_listing_the_real_players():
    with pytest.raises(PlayerNameError) as caught:
        match_player(PLAYERS, "Alberta")
    assert str(caught.value) == '"Alberta" is not playing in this game; the players are Albert, Zoë, Straße'


def test_an_unknown_name_with_control_characters_is_quoted_escaped():
    with pytest.raises(PlayerNameError) as caught:
        match_player(PLAYERS, "\x1b[2J")
    assert str(caught.value).startswith('"\\x1b[2J" is not playing')


def test_an_old_game_with_names_differing_in_case_matches_exactly_or_asks():
    players = ("Ann", "ANN", "Bob")
    assert match_player(players, "ANN") == "ANN"
    assert match_player(players, "Ann") == "Ann"
    assert match_player(players, "bob") == "Bob"
    with pytest.raises(PlayerNameError) as caught:
        match_player(players, "ann")
    assert str(caught.value) == '"ann" could be Ann or ANN; type the name exactly as it was entered'


@pytest.mark.parametrize(("players", "message"), [
    (["Ann", "Bob", "ANN"], 'players[2]: duplicate name "ANN" (the same as "Ann" but for case or '
                            "Unicode form; give the players names that differ in their letters)"),
    (["Zoë", "Zoe\u0308"], 'players[1]: duplicate name "Zoe\u0308" (the same as "Zoë" but for case or '
                           "Unicode form; give the players names that differ in their letters)"),
])
def test_new_games_refuse_names_that_differ_only_in_case_or_form(players, message):
    with pytest.raises(RecordError) as caught:
        check_distinct(players)
    assert str(caught.value) == message


def test_exact_duplicates_are_left_to_the_record_check_and_distinct_names_pass():
    check_distinct(["Ann", "Ann"])  # refused by check_players as 'duplicate name "Ann"'
    check_distinct(["Ann", "Anna", "Bob"])


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@given(names)
def test_every_unicode_form_and_the_case_folded_name_have_the_same_key(name):
    for variant in (unicodedata.normalize("NFD", name), unicodedata.normalize("NFC", name),
                    unicodedata.normalize("NFC", name).casefold()):
        assert same_name(variant, name), ascii(variant)


@given(st.lists(names, min_size=1, max_size=5, unique_by=name_key), st.data())
def test_distinct_keys_pass_the_check_and_each_name_is_found_in_any_case(players, data):
    check_distinct(players)
    player = data.draw(st.sampled_from(players))
    typed = data.draw(st.sampled_from([player, player.casefold(), unicodedata.normalize("NFD", player)]))
    assert match_player(players, typed) == player
