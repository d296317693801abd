"""The table's access token and the URL file, kept in the data directory (never in the store).

The token is what a phone proves it was at the table with: it is in the QR code on the
touchscreen, and every route but the landing page asks for it. It is written once,
atomically and readable by the service user only (0600), and replaced only on request
(``companion web --new-token``), so a phone that scanned it yesterday still follows
today's game.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path

from companion.service.web_link import token_file, url_file

#: The characters a new token is made of: letters and digits without the ones a person copying it
#: from a screen mistakes for each other (I, l and 1; O, o and 0). A token issued before (any
#: letters, digits, ``-`` and ``_``) stays valid until it is renewed: :func:`load_token` reads
#: any valid token from the file, whatever its characters.
TOKEN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"
#: Characters in a new token: 24 of the 56 are 139 bits, not guessable at any rate a rate-limited
#: server answers, still short enough to type and for a QR code a phone reads across the table.
TOKEN_LENGTH = 24


def _write_atomically(path: Path, content: str, mode: int) -> None:
    """Write ``content`` to ``path`` through a temporary file beside it and a rename.

    The temporary file is made with ``mode`` before anything is written to it (a token
    is never readable by others, not even for a moment), synced, then renamed over
    ``path``: a reader sees the old file or the new one, never half of one.
    """
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _valid(token: str) -> bool:
    return len(token) >= 16 and all(c.isalnum() or c in "-_" for c in token)


def load_token(data_dir: Path, *, new: bool = False) -> str:
    """The table's token: the one in the data directory, or a new one written there.

    ``new`` replaces it (``--new-token``: every phone must scan the code again). A file
    that does not hold a token (emptied, edited by hand) is replaced as well.
    """
    path = token_file(data_dir)
    if not new:
        with contextlib.suppress(FileNotFoundError, UnicodeDecodeError):
            found = path.read_text(encoding="utf-8").strip()
            if _valid(found):
                return found
    token = new_token()
    _write_atomically(path, token + "\n", 0o600)
    return token


def new_token() -> str:
    """A new token: :data:`TOKEN_LENGTH` characters drawn from :data:`TOKEN_ALPHABET` by ``secrets``."""
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def same_token(given: str | None, token: str) -> bool:
    """Whether ``given`` is the token, compared in constant time (no timing tells how much matched)."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode("utf-8"))


def write_url(data_dir: Path, url: str) -> None:
    """Say where the page is, for the touchscreen's QR code and the OLED (0600: the token is in it)."""
    _write_atomically(url_file(data_dir), url + "\n", 0o600)


def remove_url(data_dir: Path) -> None:
    """The page is no longer served (the process stops, or the table switched it off)."""
    with contextlib.suppress(FileNotFoundError):
        url_file(data_dir).unlink()
