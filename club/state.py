"""When the club's broker last answered this table: a small file in the data directory.

``companion club status`` says it; the publisher (``club run``) and ``club publish`` write it when
the broker accepts their connection or acknowledges a play. A file of its own, not the store: the
publisher only reads the store (its one write is the outbox's ``sent``).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from datetime import datetime
from pathlib import Path

FILENAME = "club-state.json"


def state_path(data_dir: Path) -> Path:
    return data_dir / FILENAME


def broker_answered(data_dir: Path, when: datetime) -> None:
    """Keep ``when`` as the broker's last answer (written atomically; a failure only logs nothing)."""
    path = state_path(data_dir)
    with contextlib.suppress(OSError):
        handle, temporary = tempfile.mkstemp(prefix=".club-state-", dir=data_dir)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump({"answered": when.isoformat(timespec="seconds")}, file)
        os.replace(temporary, path)


def last_answer(data_dir: Path) -> datetime | None:
    """When the broker last answered, or ``None`` (never, or the file does not read)."""
    try:
        data = json.loads(state_path(data_dir).read_text(encoding="utf-8"))
        return datetime.fromisoformat(str(data["answered"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
