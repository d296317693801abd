"""A stand-in for ``systemctl`` that the power menus run instead: it notes each command line and
answers through a real process (exit status and standard error as systemctl's would be)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence


class Systemctl:
    """Runs a real child that exits with ``status`` and says ``complaint`` on standard error."""

    def __init__(self, status: int = 0, complaint: str = "") -> None:
        self.status = status
        self.complaint = complaint
        self.commands: list[list[str]] = []

    def __call__(self, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        self.commands.append(list(command))
        script = f"import sys; sys.stderr.write({self.complaint!r}); sys.exit({self.status})"
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                              check=False)
