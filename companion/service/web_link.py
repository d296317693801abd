"""Where the table's live page is: the files ``companion web`` keeps in the data directory.

The web process (``web/``, a front end of its own) writes its access token and
the URL it serves beside the store; the touchscreen (a QR code) and the OLED menu
read the URL from here. Both are kept out of the store on purpose: the store is
backed up to a stick and exported, the token must not travel with it, and the
web process never writes the store.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from urllib.parse import urlsplit

#: The access token (mode 0600): ``companion web`` writes it on first start, ``--new-token`` replaces it.
TOKEN_FILE = "web-token"
#: The URL the web process serves, the token in it (``http://HOST:PORT/?t=TOKEN``); gone when it stops.
URL_FILE = "web-url"
#: The setting that turns the live page on and off (a switch in Settings; on by default).
WEB_SETTING = "web.enabled"

#: The listening address that serves every interface, so that phones on the table's network reach
#: the page (``companion web --listen 0.0.0.0:8080``).
WILDCARD_LISTEN = "0.0.0.0"

#: A URL longer than this is not one the web process wrote (a QR code of it would not scan).
_MAX_URL = 200


def url_file(data_dir: Path) -> Path:
    return data_dir / URL_FILE


def token_file(data_dir: Path) -> Path:
    return data_dir / TOKEN_FILE


def read_url(data_dir: Path) -> str | None:
    """The URL the web process serves now, or ``None`` when it is not running (or not readable).

    Only an ``http://`` URL of one line is believed: the file is shown as a QR code
    and on the OLED, and anything else in it did not come from ``companion web``.
    """
    try:
        found = url_file(data_dir).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not found.startswith("http://") or len(found) > _MAX_URL or not found.isprintable():
        return None
    return found


def only_this_computer(url: str) -> bool:
    """Whether ``url`` reaches this computer alone (a loopback address, ``localhost``): no phone opens it."""
    host = urlsplit(url).hostname or ""
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def port_of(url: str) -> int:
    """The port ``url`` names (80 when it names none)."""
    return urlsplit(url).port or 80
