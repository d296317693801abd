"""The seat panels' line protocol: parsing what a panel says, writing what it is told (no I/O)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import panel_protocol as protocol
from hardware.panel_protocol import (
    MAX_LINE,
    Echo,
    Hello,
    Key,
    LineSplitter,
    MoveJson,
    MoveText,
    Ping,
    ProtocolError,
    format_line,
    parse_line,
)


@pytest.mark.parametrize(("raw", "parsed"), [
    (b"HELLO 1 2", Hello(1, 2)),
    (b"hello 1 3 reference-panel v0.4", Hello(1, 3, "reference-panel")),  # the id; what follows is for later
    (b"HELLO 1 3 p-00112233:a.b_c", Hello(1, 3, "p-00112233:a.b_c")),
    (b"HELLO 1 3 abc", Hello(1, 3)),  # too short to be an id: a panel without one
    (b"HELLO 1 3 " + b"x" * 33, Hello(1, 3)),  # too long
    ("HELLO 1 3 bírgit".encode(), Hello(1, 3)),  # not the id's characters
    (b"\xef\xbb\xbfHELLO 1 1\r", Hello(1, 1)),  # a byte-order mark and a CR are dropped
    (b"KEY next", Key("NEXT")),
    (b"KEY OK", Key("OK")),
    (b"MOVE brown +3", MoveText("brown +3")),
    (b"MOVE  Birgit:   barna +2 ", MoveText("Birgit:   barna +2")),
    (b'JSON {"type": "build", "player": "Ann", "tower": "red", "stories": 1}',
     MoveJson({"type": "build", "player": "Ann", "tower": "red", "stories": 1})),
    (b"ECHO 3fa9", Echo("3fa9")),
    (b"PING", Ping()),
    (b"", None),
    (b"   ", None),
    (b"# a comment from the panel's own debugging", None),
])
def test_a_panel_line_is_read_into_its_meaning(raw: bytes, parsed: object) -> None:
    assert parse_line(raw) == parsed


@pytest.mark.parametrize(("raw", "kind"), [
    (b"HELLO", "malformed"),
    (b"HELLO 1", "malformed"),
    (b"HELLO one 2", "malformed"),
    (b"HELLO 1 0", "malformed"),
    (b"HELLO 1 10", "malformed"),
    (b"HELLO 1 \xd9\xa3", "malformed"),  # an Arabic-Indic digit is a digit, not a seat
    (b"KEY", "malformed"),
    (b"KEY SELFDESTRUCT", "malformed"),
    (b"KEY OK OK", "malformed"),
    (b"MOVE", "malformed"),
    (b"MOVE brown\x07 +3", "malformed"),
    (b"JSON", "malformed"),
    (b"JSON [1, 2]", "malformed"),
    (b"JSON {\"type\": ", "malformed"),
    (b"JSON " + b"[" * 150, "malformed"),
    (b"ECHO", "malformed"),
    (b"ECHO " + b"x" * 33, "malformed"),
    (b"ECHO \xc3\xa9t\xc3\xa9", "malformed"),
    (b"TURN you Ann", "unknown"),  # the companion's own line, heard back over loop://
    (b"MicroPython v1.22.2 on 2024-02-22; Raspberry Pi Pico", "unknown"),
    (b"\xff\xfeHELLO", "encoding"),
    (b"MOVE " + b"a" * MAX_LINE, "overlong"),
])
def test_a_line_that_is_not_the_protocol_is_refused_with_its_kind(raw: bytes, kind: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_line(raw)
    assert refused.value.kind == kind


@given(st.binary(max_size=400))
def test_any_bytes_parse_or_raise_only_the_protocols_own_error(raw: bytes) -> None:
    try:
        parse_line(raw)
    except ProtocolError as error:
        assert error.kind in ("unknown", "malformed", "overlong", "encoding")


_PANEL_WORDS = st.sampled_from(["HELLO", "KEY", "MOVE", "JSON", "ECHO", "PING", "NEXT", "OK", "1", "2",
                                "{", "}", "[", '"', ":", "é", "\r", "\t", " ", "\x00", "+3"])


@given(st.lists(_PANEL_WORDS, max_size=40).map("".join))
def test_near_misses_of_the_protocol_parse_or_raise_only_its_own_error(text: str) -> None:
    try:
        parse_line(text.encode("utf-8"))
    except ProtocolError as error:
        assert error.kind in ("unknown", "malformed", "overlong", "encoding")


def test_the_splitter_cuts_lines_across_reads_and_drops_the_carriage_return() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"HELLO 1") == []
    assert splitter.feed(b" 2\r\nKEY OK\nPI") == [b"HELLO 1 2", b"KEY OK"]
    assert splitter.feed(b"NG\n") == [b"PING"]
    assert splitter.pending == 0


def test_an_overlong_line_is_reported_once_and_dropped_up_to_its_end() -> None:
    splitter = LineSplitter()
    out = splitter.feed(b"MOVE " + b"x" * 1000)
    out += splitter.feed(b"y" * 5000)
    out += splitter.feed(b"z\nPING\n")
    assert [type(item) for item in out] == [ProtocolError, bytes]
    assert out[0].kind == "overlong" and out[1] == b"PING"


def test_a_line_of_exactly_the_limit_passes_with_or_without_a_carriage_return() -> None:
    line = b"MOVE " + b"a" * (MAX_LINE - 5)
    assert LineSplitter().feed(line + b"\n") == [line]
    assert LineSplitter().feed(line + b"\r\n") == [line]
    assert isinstance(LineSplitter().feed(line + b"a\n")[0], ProtocolError)


@given(st.lists(st.binary(max_size=700), max_size=20))
def test_the_splitter_never_holds_or_returns_more_than_the_limit(chunks: list[bytes]) -> None:
    splitter = LineSplitter()
    for chunk in chunks:
        for item in splitter.feed(chunk):
            if isinstance(item, bytes):
                assert len(item) <= MAX_LINE and b"\n" not in item
            else:
                assert item.kind == "overlong"
        assert splitter.pending <= MAX_LINE + 1


@given(st.lists(st.binary(max_size=60), max_size=10), st.integers(1, 50))
def test_the_same_bytes_split_the_same_in_any_chunks(lines: list[bytes], size: int) -> None:
    stream = b"".join(line.replace(b"\n", b"") + b"\n" for line in lines)
    whole = LineSplitter().feed(stream)
    chunked_splitter = LineSplitter()
    chunked = [item for start in range(0, len(stream), size)
               for item in chunked_splitter.feed(stream[start:start + size])]
    assert [i if isinstance(i, bytes) else i.kind for i in chunked] == \
           [i if isinstance(i, bytes) else i.kind for i in whole]


@given(st.text(max_size=400))
def test_what_the_companion_writes_is_one_bounded_utf8_line(words: str) -> None:
    line = format_line("STATUS", words)
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and b"\r" not in line
    assert len(line) <= MAX_LINE + 1
    keyword, rest = protocol.read_companion_line(line)
    assert keyword == "STATUS"
    cleaned = "".join(ch if ch.isprintable() else " " for ch in words)
    if len(f"STATUS {cleaned}".encode()) <= MAX_LINE:
        assert rest == cleaned
    else:
        assert rest.endswith("…") and cleaned.startswith(rest[:-1])


def test_a_long_text_is_cut_at_a_character_boundary_with_an_ellipsis() -> None:
    line = protocol.refused_line("ő" * 300)
    assert len(line) <= MAX_LINE + 1
    assert line.decode("utf-8").endswith("ő…\n")


def test_the_companions_lines_read_as_documented() -> None:
    assert protocol.hello_line() == b"HELLO 1\n"
    assert protocol.seat_line(2, "Birgit") == b"SEAT 2 Birgit\n"
    assert protocol.seat_line(4, None) == b"SEAT 4\n"
    assert protocol.turn_line("you", "Birgit") == b"TURN you Birgit\n"
    assert protocol.turn_line("none", None) == b"TURN none\n"
    assert protocol.score_line(17) == b"SCORE 17\n"
    assert protocol.score_line(None) == b"SCORE -\n"
    assert protocol.pick_line(2, 5, "brown +3") == b"PICK 2 5 brown +3\n"
    assert protocol.echo_line("ab12") == b"ECHO ab12\n"
    assert protocol.status_line("Nev\nline") == b"STATUS Nev line\n"
    with pytest.raises(ProtocolError):
        protocol.echo_line("two words")
