"""The club's topics (docs/club.md): where a table writes its status, its plays and its championships.

Club ``C`` and table ``T`` are names checked by the one name rule and free of MQTT's ``+ # /``
(:func:`companion.service.config.topic_name_problem`), so each is exactly one topic level.
"""

from __future__ import annotations

import hashlib
import re

#: Home Assistant's discovery prefix (its default; docs/club.md, "Home Assistant").
DISCOVERY_PREFIX = "homeassistant"


def status_topic(club: str, table: str) -> str:
    """The table's live status, retained (and the broker's last will for it)."""
    return f"companion/{club}/tables/{table}/status"


def home_topic(club: str, table: str) -> str:
    """What Home Assistant's sensors read: the status's facts in the table's language, retained."""
    return f"companion/{club}/tables/{table}/home"


def play_topic(club: str, play: str) -> str:
    """One finished play, by its id, retained."""
    return f"companion/{club}/plays/{play}"


def championship_topic(club: str, championship: str) -> str:
    """A championship played at the table, by its id, retained."""
    return f"companion/{club}/championships/{championship}"


def node_id(club: str, table: str) -> str:
    """The table's id among Home Assistant's devices: only ``[a-zA-Z0-9_-]`` may be in a discovery
    topic, so the names' letters that may, and a hash of both names (two tables whose names
    differ only in accents are two devices)."""
    slug = re.sub(r"[^a-zA-Z0-9]+", "_", f"{club}_{table}").strip("_").lower()[:40]
    digest = hashlib.sha256(f"{club}\n{table}".encode()).hexdigest()[:8]
    return f"companion_{slug}_{digest}" if slug else f"companion_{digest}"


def discovery_topic(club: str, table: str, sensor: str) -> str:
    """Where one of the table's sensors announces itself to Home Assistant."""
    return f"{DISCOVERY_PREFIX}/sensor/{node_id(club, table)}/{sensor}/config"
