"""Ids out of range are a one-line refusal, exit 2 (issue 34, defect 19).

``export 99999999999999999999999`` reached SQLite, which keeps an id in 64 bits, and failed with
"unexpected error: Python int too large to convert to SQLite INTEGER" (exit 1); so did
``abandon``, ``run --game``, ``championship status`` and ``export --championship``. Every id the
command line reads now goes through one argparse type (:func:`companion.cli.ids.store_id`).
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli.ids import LARGEST, store_id
from tests.test_cli_library import CAMPANILE

TOO_LARGE = "99999999999999999999999"

#: Every command that reads an id, with the id in its place.
COMMANDS = [
    ("export", "{id}"),
    ("abandon", "{id}"),
    ("rematch", "{id}"),
    ("run", "--game", "{id}"),
    ("championship", "status", "{id}"),
    ("championship", "next", "{id}"),
    ("championship", "decide", "Albert", "--championship", "{id}"),
    ("export", "--championship", "{id}"),
]


def _store_digest(data: Path) -> str:
    return "".join(hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(data.glob("*.sqlite3*")))


@pytest.mark.parametrize("words", COMMANDS, ids=lambda words: " ".join(words[:2]))
@pytest.mark.parametrize("value", [TOO_LARGE, str(LARGEST + 1)])
def test_an_id_beyond_64_bits_is_refused_in_one_line_exit_2(cli, words, value) -> None:
    assert cli("import", str(CAMPANILE))[0] == 0
    before = _store_digest(cli.data)
    code, out, err = cli(*(word.format(id=value) for word in words))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "unexpected" not in err
    assert f'"{value}" is not an id: an id is a whole number from 1 to {LARGEST}' in err
    assert _store_digest(cli.data) == before  # nothing was written


@pytest.mark.parametrize("value", ["0", "-7", "+3", " 3", "1_000", "3.0", "١٢", "0x10", "9" * 5000])
def test_other_ids_that_are_no_ids_are_refused_the_same_way(cli, value) -> None:
    """The variation: not only too large, but zero, signs, spaces, other scripts' digits, and a
    number longer than Python will convert."""
    code, out, err = cli("export", "--", value) if value.startswith("-") else cli("export", value)
    assert (code, out) == (2, "") and err.count("\n") == 1 and "is not an id" in err
    assert len(err) < 300  # the refusal quotes a long value shortened


def test_the_refusal_speaks_hungarian(cli) -> None:
    code, _, err = cli("--lang", "hu", "abandon", TOO_LARGE)
    assert code == 2 and f"„{TOO_LARGE}” nem azonosító" in err


def test_the_largest_id_is_still_looked_up(cli) -> None:
    assert cli("import", str(CAMPANILE))[0] == 0
    assert cli("export", str(LARGEST)) == (
        2, "", f"companion: there is no session {LARGEST} (see `companion sessions`)\n")
    assert cli("export", "1")[0] == 0


@given(st.text(max_size=40))
def test_store_id_returns_an_id_in_range_or_refuses_and_nothing_else(value: str) -> None:
    try:
        number = store_id(value)
    except argparse.ArgumentTypeError as refusal:
        assert "\n" not in str(refusal)
        assert not (value.isascii() and value.isdigit() and 1 <= int(value) <= LARGEST)
    else:
        assert 1 <= number <= LARGEST and str(number) == value.lstrip("0")


@given(st.integers(min_value=-(2 ** 70), max_value=2 ** 70))
def test_a_number_is_an_id_exactly_when_it_lies_between_1_and_the_largest(number: int) -> None:
    if 1 <= number <= LARGEST:
        assert store_id(str(number)) == number
    else:
        with pytest.raises(argparse.ArgumentTypeError):
            store_id(str(number))
