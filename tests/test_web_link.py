"""``companion web``'s phone link: the URL first, then the QR code in the terminal, the line saying
when the address reaches this computer alone, and tokens without look-alike characters (issue 36)."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
import zxingcpp  # a dev dependency: a real decoder, as a phone would read the terminal's code
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from starlette.testclient import TestClient

from companion.cli.commands.web import announcer
from companion.service.qr_text import HALF_BLOCKS, half_block_lines, qr_modules, qr_text
from companion.service.web_link import only_this_computer, port_of
from companion.storage.paths import DB_FILENAME
from tests.child_output import PATIENCE, ChildOutput
from web.app import create_app
from web.store_reader import StoreReader
from web.token import TOKEN_ALPHABET, TOKEN_LENGTH, load_token, new_token

LOOK_ALIKES = "Il1O0o"
URL = "http://127.0.0.1:8080/?t=AbCdEfGhJkMnPqRsTuVwXyZ2"
TOKEN = r"[A-HJ-NP-Za-km-np-z2-9]{24}"


def _drawn_image(lines: list[str], scale: int = 6) -> Image.Image:
    """The terminal's lines as a picture: a drawn half white (a light module), an undrawn one black,
    each character one module wide and two high, as a dark terminal shows them."""
    back = {char: pair for pair, char in HALF_BLOCKS.items()}
    width, height = len(lines[0]), 2 * len(lines)
    image = Image.new("L", (width, height), 0)
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            upper, lower = back[char]
            image.putpixel((column, 2 * row), 255 if upper else 0)
            image.putpixel((column, 2 * row + 1), 255 if lower else 0)
    framed = Image.new("L", (width + 8, height + 8), 0)  # the terminal's dark background around it
    framed.paste(image, (4, 4))
    return framed.resize(((width + 8) * scale, (height + 8) * scale), Image.Resampling.NEAREST)


def _decoded(lines: list[str]) -> str:
    (found,) = zxingcpp.read_barcodes(_drawn_image(lines))
    return str(found.text)


def test_the_terminal_code_decodes_to_the_url() -> None:
    assert _decoded(qr_text(URL)) == URL
    lan = "http://192.168.1.23:8080/?t=" + new_token()
    assert _decoded(qr_text(lan)) == lan


@settings(max_examples=15, deadline=None)
@given(token=st.text(TOKEN_ALPHABET, min_size=24, max_size=24), port=st.integers(1, 65535),
       host=st.sampled_from(["127.0.0.1", "10.0.0.7", "[::1]", "192.168.178.100"]))
def test_any_page_url_decodes_back(token: str, port: int, host: str) -> None:
    url = f"http://{host}:{port}/?t={token}"
    assert _decoded(qr_text(url)) == url


@settings(max_examples=40, deadline=None)
@given(modules=st.integers(1, 12).flatmap(
    lambda width: st.lists(st.lists(st.booleans(), min_size=width, max_size=width), min_size=1, max_size=13)))
def test_half_blocks_hold_every_module(modules: list[list[bool]]) -> None:
    """Read back, the lines give the module matrix (an odd last row with a light one under it)."""
    lines = half_block_lines(modules)
    back = {char: pair for pair, char in HALF_BLOCKS.items()}
    read: list[list[bool]] = []
    for line in lines:
        pairs = [back[char] for char in line]
        read.append([not upper for upper, _ in pairs])
        read.append([not lower for _, lower in pairs])
    expected = modules + ([[False] * len(modules[0])] if len(modules) % 2 else [])
    assert read == expected
    assert len(lines) == (len(modules) + 1) // 2


def test_the_code_has_its_quiet_zone_drawn() -> None:
    modules = qr_modules(URL)
    lines = qr_text(URL)
    assert len(lines[0]) == len(modules[0])
    assert set(lines[0]) == {HALF_BLOCKS[(True, True)]}  # the top of the quiet zone: all light
    assert all(line[0] == line[-1] == HALF_BLOCKS[(True, True)] for line in lines)


def test_new_tokens_have_no_look_alikes() -> None:
    assert not set(LOOK_ALIKES) & set(TOKEN_ALPHABET)
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    assert all(len(t) == TOKEN_LENGTH and set(t) <= set(TOKEN_ALPHABET) for t in tokens)
    assert set("".join(tokens)) == set(TOKEN_ALPHABET)  # 4,800 draws: every character comes up


def test_a_token_issued_before_still_opens_the_page(tmp_path: Path) -> None:
    """A phone that scanned the old code (a token with I, l, 0, - and _) still follows the table
    until ``--new-token``; only then does the old one stop opening the page."""
    old = "Il1O0o-_issued-before-the-new-alphabet"
    (tmp_path / "web-token").write_text(old + "\n")
    (tmp_path / "web-token").chmod(0o600)
    token = load_token(tmp_path)
    assert token == old
    with TestClient(create_app(StoreReader(tmp_path / DB_FILENAME), token)) as client:
        assert client.get("/", params={"t": old}).status_code == 200
    renewed = load_token(tmp_path, new=True)
    assert re.fullmatch(TOKEN, renewed)
    with TestClient(create_app(StoreReader(tmp_path / DB_FILENAME), renewed)) as client:
        assert client.get("/", params={"t": old}).status_code == 403
        assert client.get("/", params={"t": renewed}).status_code == 200


@pytest.mark.parametrize(("url", "alone"), [
    ("http://127.0.0.1:8080/?t=x", True), ("http://127.3.4.5:9/?t=x", True), ("http://[::1]:8080/?t=x", True),
    ("http://localhost:8080/?t=x", True), ("http://192.168.1.5:8080/?t=x", False),
    ("http://[fd00::5]:8080/?t=x", False), ("http://10.0.0.2/?t=x", False)])
def test_which_addresses_reach_this_computer_alone(url: str, alone: bool) -> None:
    assert only_this_computer(url) is alone


def test_the_lines_after_the_url() -> None:
    out = io.StringIO()
    announcer(out, draw=False)("http://192.168.1.5:8080/?t=x")
    assert out.getvalue() == ""  # the table's network: nothing to add
    announcer(out, draw=False)("http://127.0.0.1:8123/?t=x")
    assert out.getvalue().splitlines() == [
        "This address opens on this computer only. To serve the phones at the table, start it with "
        "`companion web --listen 0.0.0.0:8123`: every device on your network can then open the page "
        "with this token."]
    assert port_of("http://127.0.0.1/?t=x") == 80
    drawn = io.StringIO()
    announcer(drawn, draw=True)("http://10.1.2.3:8080/?t=x")
    assert _decoded(drawn.getvalue().splitlines()) == "http://10.1.2.3:8080/?t=x"


def _web(data: Path, *extra: str, **streams: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(data), "web", "--listen", "127.0.0.1:0",
         *extra],
        text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1]), "COMPANION_LANG": "en"},
        **streams)  # type: ignore[call-overload]


@pytest.mark.parametrize("qr", [False, True])
def test_companion_web_into_a_pipe(tmp_path: Path, qr: bool) -> None:
    """Into a pipe the URL is the first line, the QR code only with ``--qr``, the loopback line always."""
    output = ChildOutput(_web(tmp_path, *(["--qr"] if qr else []), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE))
    try:
        url = output.next_line()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?t=" + TOKEN, url), url
        code = []
        line = output.next_line()
        while not line.startswith("This address"):
            code.append(line)
            line = output.next_line()
        assert f"--listen 0.0.0.0:{port_of(url)}`" in line
        assert (_decoded(code) == url) if qr else code == []
    finally:
        output.proc.terminate()
        output.finish()
    assert output.proc.returncode == 0, output.stderr_so_far()


def test_companion_web_at_a_terminal_draws_the_code(tmp_path: Path) -> None:
    """Standard output a terminal (a pseudo-terminal here): the code is drawn without ``--qr``."""
    leader, follower = os.openpty()
    child = _web(tmp_path, stdout=follower, stderr=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    try:
        waited_until = time.monotonic() + PATIENCE
        while b"0.0.0.0" not in seen and time.monotonic() < waited_until:
            ready, _, _ = select.select([leader], [], [], 1.0)
            if ready:
                try:
                    seen += os.read(leader, 65536)
                except OSError:  # the child ended: nothing more to read
                    break
    finally:
        child.terminate()
        child.wait(timeout=PATIENCE)
        os.close(leader)
    lines = seen.decode("utf-8").replace("\r\n", "\n").splitlines()
    url = lines[0]
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?t=" + TOKEN, url), lines[:2]
    assert _decoded(lines[1:-1]) == url
    assert lines[-1].startswith("This address opens on this computer only.")
