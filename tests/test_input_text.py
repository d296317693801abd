"""Reading console lines and command words: BOM, bytes that are not UTF-8, quotes, JSON, depth."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.console.errors import InputError
from companion.console.reading import clean_line, decode_json, split_words, with_player_names
from companion.service.names import PlayerNameError


def test_a_byte_order_mark_and_spaces_are_stripped():
    assert clean_line('\ufeff{"type": "x"}\n') == '{"type": "x"}'
    assert clean_line("  undo \r\n") == "undo"


def test_lines_too_deep_or_with_too_long_numbers_are_refused_before_any_reader_sees_them():
    assert clean_line("[" * 100 + "]" * 100) == "[" * 100 + "]" * 100
    with pytest.raises(InputError, match=DEEP):
        clean_line("[" * 101)
    with pytest.raises(InputError, match=DEEP):
        clean_line('{"a": ' * 101)
    assert clean_line("7" * 1000) == "7" * 1000
    with pytest.raises(InputError, match=LONG):
        clean_line("-" + "7" * 1001)
    inside_a_text = '{"player": "' + "[" * 500 + "7" * 2000 + '\\" ]"}'
    assert clean_line(inside_a_text) == inside_a_text  # brackets and digits in a text do not count


def test_a_line_with_bytes_that_are_not_utf8_is_refused():
    raw = b'{"player": "\xff"}'.decode("utf-8", "surrogateescape")
    with pytest.raises(InputError, match=r"^the line holds bytes that are not UTF-8 text$"):
        clean_line(raw)


DEEP = r"^the line is nested too deeply \(more than 100 levels of brackets\)$"
LONG = r"^a number in the line has too many digits \(more than 1000\)$"


def test_deep_nesting_and_huge_numbers_are_input_errors():
    with pytest.raises(InputError, match=DEEP):
        decode_json("[" * 1000 + "]" * 1000)
    with pytest.raises(InputError, match=LONG):
        decode_json("1" * 5000)
    with pytest.raises(InputError, match=r"^--setup towers: the value is nested too deeply$"):
        decode_json("[" * 5000, what="--setup towers")
    with pytest.raises(json.JSONDecodeError):
        decode_json("{oops")


@pytest.mark.parametrize(("line", "words"), [
    ("campanile Ann Bob Cid", ["campanile", "Ann", "Bob", "Cid"]),
    ('campanile "Anna Maria" O\'Brien Cid', ["campanile", "Anna Maria", "O'Brien", "Cid"]),
    ('--setup towers=["red", "blue", "yellow"]', ["--setup", 'towers=["red", "blue", "yellow"]']),
    ("--setup 'towers=[\"red\",\"blue\"]'", ["--setup", 'towers=["red","blue"]']),
    ('--option flags={"intermezzo": [[3], [2]]} x', ["--option", 'flags={"intermezzo": [[3], [2]]}', "x"]),
    ('"Zo\\u00eb" k="two words"', ["Zoë", 'k="two words"']),
    ("Ann[2] a]b \x1b[2JCid", ["Ann[2]", "a]b", "\x1b[2JCid"]),
])
def test_words_split_like_a_shell_but_json_values_keep_their_quotes(line, words):
    assert split_words(line) == words


@pytest.mark.parametrize(("line", "message"), [
    ('campanile "Ann Bob', 'a quote (") is not closed'),
    ("--setup towers=[1, 2", "[ is not closed by ]"),
    ("--setup towers=[1}", "[ is closed by }"),
])
def test_unbalanced_words_say_what_is_open(line, message):
    with pytest.raises(InputError) as caught:
        split_words(line)
    assert str(caught.value) == message


@given(st.text())
def test_splitting_any_text_gives_words_or_an_input_error(text):
    try:
        words = split_words(text)
    except InputError:
        return
    assert all(word for word in words)


def test_typed_names_in_player_fields_become_the_players_names():
    players = ("Albert", "Birgit")
    move = {"type": "play", "player": "albert", "card": "traitor", "target": "BIRGIT"}
    assert with_player_names(move, players) == dict(move, player="Albert", target="Birgit")
    assert move["player"] == "albert"  # the typed data is not changed
    with pytest.raises(PlayerNameError, match=r"the players are Albert, Birgit$"):
        with_player_names({"player": "Carl"}, players)
    assert with_player_names({"player": 3}, players) == {"player": 3}  # the engine refuses the type
