"""Why the crash test reads its child through :class:`ChildOutput`: the old reading dropped lines.

The crash test used to read the child's first lines with ``readline()`` and
the rest with ``communicate()``; ``communicate`` reads the pipe underneath the
lines ``readline`` had already buffered, so they were lost and the test failed
now and then (the ``ok N`` numbers had a gap). Here the child has printed all
its lines before the parent reads, which makes the loss certain rather than
occasional: the old reading must lose them, the new one must not.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.child_output import ChildEnded, ChildOutput

LINES = [f"ok {n}" for n in range(1, 201)]
PRINT_ALL = "import sys; sys.stdout.write(''.join(f'ok {n}\\n' for n in range(1, 201))); sys.stdout.flush()"


def _child_that_has_printed_everything() -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", PRINT_ALL], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    proc.wait(timeout=60)  # all 200 lines now sit in the pipe (far less than its capacity)
    return proc


def test_readline_then_communicate_drops_the_buffered_lines() -> None:
    proc = _child_that_has_printed_everything()
    assert proc.stdout is not None
    first = proc.stdout.readline().rstrip("\n")
    rest, _ = proc.communicate(timeout=60)
    seen = [first, *rest.splitlines()]
    assert seen[0] == "ok 1"
    assert len(seen) < len(LINES)  # the lines readline had buffered are gone


def test_child_output_keeps_every_line() -> None:
    proc = _child_that_has_printed_everything()
    output = ChildOutput(proc)
    assert output.next_line() == "ok 1"
    assert output.wait_for({"ok 7"}) == "ok 7"
    assert output.finish() == LINES


def test_child_output_says_when_the_child_ended_without_the_line() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import sys; print('ready'); sys.exit('gave up')"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    output = ChildOutput(proc)
    with pytest.raises(ChildEnded, match="gave up"):
        output.wait_for({"ok 1"})
    assert output.finish() == ["ready"]
    assert proc.returncode == 1
