"""The kiosk's display and touch in the emulated box, for ``tests/test_pi_image.py``: where a tap
must land (the real shell's layout, found here by :mod:`tests.pi_display_child`), the frame qemu
shows, and the OLED's page drawn in the guest against the same drawn here.

The emulated box has a virtio GPU (Debian's ``virtio_gpu``: a KMS/DRM device) at the official
panel's 800×480 and qemu's tablet (an absolute pointer: single touch). The kiosk unit as installed
(``companion.service``, ``SDL_VIDEODRIVER=kmsdrm``) draws there with Mesa's software renderer.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.pi_kit import ROOT


def target(record: dict, upto: int, work: Path) -> tuple[float, float]:
    """The point of the display (pixels from its top left, rotation 0) a player taps to make the
    record's move ``upto`` when the moves before it are played."""
    work.mkdir(parents=True, exist_ok=True)
    prefix = work / f"upto-{upto}.json"
    prefix.write_text(json.dumps({**record, "moves": record["moves"][:upto]}), encoding="utf-8")
    Path(f"{prefix}.next").write_text(json.dumps(record["moves"][upto]), encoding="utf-8")
    out = work / f"targets-{upto}"
    done = subprocess.run([sys.executable, "-m", "tests.pi_display_child", str(prefix), str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "KIVY_HOME": str(work / "kivy"), "SDL_VIDEODRIVER": "offscreen"})
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads((out / "targets.json").read_text())
    assert (found["width"], found["height"]) == (800, 480), found
    return found["x"], found["y"]


def turned(point: tuple[float, float], rotation: int) -> tuple[float, float]:
    """Where ``point`` of the upright layout is on the panel when the screen is turned ``rotation``
    degrees (``screen.rotation``: 0 or 180, the panel's own size either way)."""
    x, y = point
    return (800 - x, 480 - y) if rotation == 180 else (x, y)


def oled_here(record: dict, work: Path) -> bytes:
    """The OLED's first page for ``record``'s position, drawn here (``companion snapshot --only oled``)."""
    path = work / "oled-record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "snapshot", str(path),
                           "--out", str(work / "oled"), "--only", "oled"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "COMPANION_DATA": str(work / "oled-data")})
    assert done.returncode == 0, done.stderr[-3000:]
    return (work / "oled" / "oled.png").read_bytes()


def decoded(output: str) -> bytes:
    """A file the guest printed as base64 (the serial console carries text)."""
    return base64.b64decode("".join(output.split()))
