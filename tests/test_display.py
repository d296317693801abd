"""What is printed of names and values is escaped, and long values are cut with an ellipsis."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from companion.console.display import VALUE_LIMIT, clip, clip_values, shown, shown_line


def test_an_escape_sequence_cannot_reach_the_terminal():
    assert shown_line('"\x1b[2J\x1b[31mAnn" is not playing') == '"\\x1b[2J\\x1b[31mAnn" is not playing'
    assert shown_line("two\nlines") == "two\\nlines"


def test_lone_surrogates_and_byte_order_marks_are_shown_as_escapes():
    assert shown_line('"\ud800" and "\ufeffAnn"') == '"\\ud800" and "\\ufeffAnn"'


def test_a_long_quoted_value_is_cut_to_the_limit_with_an_ellipsis():
    value = "x" * 200
    assert shown_line(f'there is no tower called "{value}" here') == \
        f'there is no tower called "{"x" * 79}…" here'
    spaced = "a b " * 50
    assert clip_values(f'unknown field "{spaced}"') == f'unknown field "{spaced[:79]}…"'


def test_a_long_unquoted_number_is_cut_but_short_values_and_prose_stay():
    assert clip_values(f"stories must be from 1 to 3 (not {'9' * 100})") == \
        f"stories must be from 1 to 3 (not {'9' * 79}…"
    prose = 'the "red" tower is taller than the ' + "very " * 40 + 'tall "blue" one'
    assert clip_values(prose) == prose
    assert clip("x" * VALUE_LIMIT) == "x" * VALUE_LIMIT


def test_reports_keep_their_lines():
    assert shown("Campanile\n  Ann 12\n  Bob 9") == "Campanile\n  Ann 12\n  Bob 9"


@given(st.text())
def test_every_shown_line_is_printable_one_line_and_encodable(text):
    line = shown_line(text)
    assert line.isprintable()
    line.encode("utf-8")  # no lone surrogate left to make printing fail
    for run in re.findall(r'"([^"]*)"', line) + re.findall(r'[^\s"]+', line):
        assert len(run) <= VALUE_LIMIT


@given(st.text(min_size=VALUE_LIMIT + 1))
def test_a_cut_value_keeps_its_beginning(value):
    cut = clip(value)
    assert len(cut) == VALUE_LIMIT and cut.endswith("…") and value.startswith(cut[:-1])
