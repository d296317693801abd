"""Bounded input: records, boards and ``--like`` files are regular files of a few MB, numbers sane.

Issue 21, defect 9: ``new … --like /dev/urandom`` grew to about 24 GB before
the kernel killed it, ``import /dev/zero`` and ``replay /dev/zero`` ended in
MemoryError, and a record holding a 5,000-digit number was "unexpected
error". Every file a command reads as JSON goes through one reader
(:func:`companion.service.records.read_json`): a file that is not a regular
file, or is larger than :data:`~companion.service.records.MAX_FILE_BYTES`, is
refused in one line before anything is read, exit 2; so is a number of more
than :data:`~companion.service.records.MAX_DIGITS` digits.

The devices here are ``/dev/null`` and a pipe, which cost nothing whether or
not they are refused; the oversized file is sparse.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from companion.games.base import RecordError
from companion.service.records import MAX_DIGITS, MAX_FILE_BYTES, read_json

EXAMPLES = Path(__file__).parent / "data" / "examples"
BOARD = Path(__file__).resolve().parent.parent / "companion/games/castelli/layouts/example-2p.json"

#: How each reading command names its file (the record, the --like record, the board).
COMMANDS = {
    "import": lambda file: ["import", file],
    "replay": lambda file: ["replay", file],
    "moves": lambda file: ["moves", file],
    "new --like": lambda file: ["new", "campanile", "Ann", "Bob", "--like", file],
    "board import": lambda file: ["board", "import", file, "--name", "big"],
}


def _one_line_refusal(result: tuple[int, str, str], words: str) -> None:
    code, out, err = result
    assert (code, out) == (2, ""), err
    assert err.startswith("companion: ") and err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_device_is_refused_before_it_is_read(cli, command: str) -> None:
    _one_line_refusal(cli(*COMMANDS[command]("/dev/null")), "/dev/null is not a regular file")


@pytest.mark.parametrize("command", ["import", "new --like", "board import"])
def test_a_file_larger_than_the_limit_is_refused_even_when_it_is_a_good_record(
        cli, tmp_path: Path, command: str) -> None:
    """A real record (or board) padded with spaces past the limit: valid JSON, too big all the same."""
    source = BOARD if command.startswith("board") else EXAMPLES / "campanile-3p.json"
    padded = tmp_path / "padded.json"
    padded.write_text(source.read_text(encoding="utf-8") + " " * MAX_FILE_BYTES, encoding="utf-8")
    _one_line_refusal(cli(*COMMANDS[command](str(padded))), f"larger than {MAX_FILE_BYTES // 2 ** 20} MB")


def test_a_sparse_file_of_gigabytes_costs_nothing_to_refuse(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(8 * 2 ** 30)  # sparse: 8 GiB that take no room
    with pytest.raises(RecordError, match="larger than"):
        read_json(huge)


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """Opening a FIFO for reading blocks until someone writes; the reader never waits for one."""
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def read() -> None:
        try:
            read_json(fifo)
            outcome.append(None)
        except RecordError as error:
            outcome.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # a blocked reader: free it before failing
        with open(fifo, "w"):
            pass
        reader.join(30)
        pytest.fail("reading a pipe waited for a writer")
    assert outcome and "is not a regular file" in str(outcome[0])


@pytest.mark.parametrize("digits", [5000, MAX_DIGITS + 1])
@pytest.mark.parametrize("command", ["import", "replay", "new --like"])
def test_a_number_of_too_many_digits_is_a_record_error(cli, tmp_path: Path, command: str,
                                                       digits: int) -> None:
    text = (EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8")
    sign = "-" if command == "new --like" else ""
    number = sign + "9" * digits  # written as text: 5,000 digits are beyond int()'s own limit
    record = tmp_path / "huge.json"
    record.write_text(text.replace('"stories": 2', f'"stories": {number}', 1), encoding="utf-8")
    _one_line_refusal(cli(*COMMANDS[command](str(record))), f"a number of more than {MAX_DIGITS} digits")


def test_numbers_up_to_the_limit_and_the_example_records_still_read(tmp_path: Path) -> None:
    fine = tmp_path / "fine.json"
    fine.write_text(json.dumps({"n": int("9" * MAX_DIGITS), "m": -1, "x": 1.5e300}), encoding="utf-8")
    assert read_json(fine)["n"] == int("9" * MAX_DIGITS)
    for example in EXAMPLES.glob("*.json"):
        assert read_json(example) == json.loads(example.read_text(encoding="utf-8"))
