"""``companion hardware test`` (for whoever wires the box) and ``companion snapshot`` (PNG frames).

Both import the hardware layer only when they run (the layering rule: nothing
in ``companion`` imports ``hardware`` at module level).

``snapshot`` calls every writer of :data:`SNAPSHOT_WRITERS` with the record,
its final state and the output directory; the OLED's writer is the first,
and the touchscreen adds its own (``"ui.snapshot:write_for_snapshot"``) to the list.
With ``--check`` each writer is also given ``problems=[]`` and adds a line for
each problem it finds in what it drew (the layout check, docs/ui.md); the lines
are printed after the files and the command ends with status 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
from importlib import import_module
from pathlib import Path
from typing import Any

from companion.cli.commands.run import read_config
from companion.cli.main import UserError, add_command_group
from companion.i18n import text
from companion.service.records import final_state, load_record

#: ``module:function`` of each snapshot writer: ``writer(record, state, out_dir) -> [paths written]``
#: (``writer(..., problems=[...])`` with ``--check``: it adds a line per problem found).
SNAPSHOT_WRITERS: list[str] = ["hardware.snapshot:write_oled"]
#: How long ``hardware test`` runs where the buttons are simulated (a laptop): nobody can press
#: them, so it shows the OLED pattern, asks the panels and ends.
SIMULATED_SECONDS = 10.0
#: The touchscreen's writer, used where the ``ui`` extra (Kivy) is installed.
TOUCHSCREEN_WRITER = "ui.snapshot:write_for_snapshot"
#: What the touchscreen's offscreen window loads at run time (SDL's EGL and the OpenGL Kivy draws
#: with). Without either, Kivy ends the process with status 1 and not a word (seen in an arm64 root
#: without them, and here with either hidden), so the snapshot looks for them first.
GL_LIBRARIES = ("libEGL.so.1", "libGL.so.1")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = add_command_group(subparsers, "hardware", "hardware.help.group",
                              "hardware.description.group")
    test = group.add_parser(
        "test", help="hardware.help.test",
        description="hardware.description.test")
    test.add_argument("--config", metavar="FILE", help="hardware.help.config")
    test.add_argument("--seconds", type=float, metavar="N", help="hardware.help.seconds")
    test.set_defaults(handler=run_test)

    snapshot = subparsers.add_parser(
        "snapshot", help="hardware.help.snapshot",
        description="hardware.description.snapshot")
    snapshot.add_argument("record", metavar="RECORD", help="hardware.help.record")
    snapshot.add_argument("--out", required=True, metavar="DIR", help="hardware.help.out")
    snapshot.add_argument("--only", choices=("oled", "screens"), help="hardware.help.only")
    snapshot.add_argument("--check", action="store_true", help="hardware.help.check")
    snapshot.set_defaults(handler=run_snapshot)


def snapshot_writer(spec: str) -> Any:
    module, _, name = spec.partition(":")
    return getattr(import_module(module), name)


def run_snapshot(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(text("hardware.snapshot.out_not_dir", path=args.out))
    record = load_record(args.record)
    state = final_state(record)
    out.mkdir(parents=True, exist_ok=True)
    writers = [] if args.only == "screens" else list(SNAPSHOT_WRITERS)
    if args.only != "oled" and importlib.util.find_spec("kivy") is not None:
        writers.append(TOUCHSCREEN_WRITER)
    problems: list[str] = []
    for spec in writers:
        if spec == TOUCHSCREEN_WRITER and (missing := missing_gl_libraries()):
            print(text("hardware.snapshot.no_gl", libraries=", ".join(missing)), file=sys.stderr)
            return 1
        found = {"problems": problems} if args.check else {}
        for path in snapshot_writer(spec)(record, state, out, **found):
            print(text("hardware.snapshot.wrote", path=str(path)))
    for line in problems:
        print(line)
    return 1 if problems else 0


def missing_gl_libraries() -> list[str]:
    """Which of :data:`GL_LIBRARIES` the dynamic loader cannot load here."""
    import ctypes

    missing = []
    for name in GL_LIBRARIES:
        try:
            ctypes.CDLL(name)
        except OSError:
            missing.append(name)
    return missing


def run_test(args: argparse.Namespace) -> int:
    # The hardware is imported when it is tested, not when the command line starts: it loads
    # gpiozero and luma (this command drives the devices on its own, like the composition root).
    from hardware.backends import BackendError
    from hardware.hardware_test import HardwareTest

    config = read_config(args.config)
    stop = threading.Event()
    try:
        test = HardwareTest(config, lambda line: print(line, flush=True))
    except BackendError as error:
        raise UserError(str(error)) from None
    seconds = args.seconds
    if test.buttons != "real":  # nothing here can be pressed: say so, and do not wait for ever
        seconds = SIMULATED_SECONDS if seconds is None else seconds
        print(text("hardware.test.simulated", seconds=seconds), flush=True)
    try:
        test.start()
        stop.wait(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        test.close()
    sys.stdout.flush()
    return 0
