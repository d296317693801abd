"""The commands in the README and docs/ run as written, and nothing in the project points outside it.

Every ``sh`` block of README.md and docs/*.md is run by bash, line by line
with ``set -e``, in a fresh folder that sees the checkout (its top-level
files and folders linked in) and a fresh data directory, with nothing on
standard input. Every ``companion-console`` block (lines a person types at
the console's prompt, as README's *Your first game*) is typed into
``companion run --headless`` the same way, and fails on any line the console
refuses.

A block that cannot run here (a Raspberry Pi, root, a benchmark of minutes,
the suite itself) says so to its reader, in a line of its own right before
it: ``(Not run by the docs test: REASON.)``. Only that line, directly above
the block, leaves it out; everything else runs.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: The note a reader sees right above a block the docs test leaves out (its own line).
NOTE = re.compile(r"^\(Not run by the docs test: (?P<reason>.+)\)$")
#: The kinds of block that are run: shell commands, and lines typed at the console.
KINDS = ("sh", "companion-console")
#: How long a block may take (generous: a loaded machine; nothing here measures speed).
PATIENCE = 300


@dataclass(frozen=True)
class Block:
    """One fenced block that the docs test knows: where it is, what kind, its text, why it is not run."""

    page: str
    line: int
    kind: str
    text: str
    not_run: str | None  # the reason of the note right above it; None: it is run

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks_of(page: str, text: str) -> list[Block]:
    """The ``sh`` and ``companion-console`` blocks of a page, each with the note right above it, if any."""
    found = []
    fence = r"^```(?P<kind>{})\n(?P<body>.*?)^```".format("|".join(map(re.escape, KINDS)))
    for match in re.finditer(fence, text, re.MULTILINE | re.DOTALL):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        note = NOTE.match(before.strip())
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, match.group("kind"),
                           match.group("body"), note.group("reason").strip() if note else None))
    return found


BLOCKS = [block for page in PAGES
          for block in blocks_of(str(page.relative_to(ROOT)), page.read_text(encoding="utf-8"))]
RUN = [block for block in BLOCKS if block.not_run is None]


def _refusal_prefix() -> str:
    """How the console begins a refusal ("refused: "), read from its English catalogue."""
    catalogue = (ROOT / "companion" / "locale" / "en" / "console.po").read_text(encoding="utf-8")
    text = re.search(r'^msgid "console\.refused"\nmsgstr "(.*)"$', catalogue, re.MULTILINE)
    assert text, "console.po has no console.refused"
    prefix = text.group(1).split("{", 1)[0]
    assert len(prefix.strip()) >= 3, prefix
    return prefix


def run_block(block: Block, tmp_path: Path) -> tuple[int, str]:
    """Run one block as a reader would, in a fresh folder seeing the checkout: (exit status, what it said).

    A console block fails (status 1) when the console refuses any of its lines.
    """
    here = tmp_path / "checkout"
    here.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".venv"):
            (here / entry.name).symlink_to(entry)
    (here / ".venv").symlink_to(Path(sys.prefix))  # the environment the suite runs in
    env = {**os.environ, "COMPANION_DATA": str(tmp_path / "data"), "HOME": str(tmp_path),
           "KIVY_HOME": str(tmp_path / "kivy"), "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1"}
    env.pop("COMPANION_LANG", None)
    if block.kind == "sh":
        command = ["bash", "-c", "set -e -o pipefail\n"
                   "trap 'echo \"failed: $BASH_COMMAND (exit $?)\" >&2' ERR\n" + block.text]
        stdin = None
    else:
        command = [str(here / ".venv" / "bin" / "companion"), "run", "--headless"]
        stdin = block.text
    shell = subprocess.Popen(command, cwd=here, env=env,
                             stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        out, err = shell.communicate(stdin, timeout=PATIENCE)
    except subprocess.TimeoutExpired:  # a command waits for ever: stop it and everything it started
        os.killpg(shell.pid, signal.SIGKILL)
        _, err = shell.communicate()
        return -1, f"still running after {PATIENCE} s:\n{err[-3000:]}"
    if block.kind == "companion-console":
        refused = [line for line in out.splitlines() if line.startswith(_refusal_prefix())]
        if refused and shell.returncode == 0:
            return 1, "the console refused:\n" + "\n".join(refused)
    return shell.returncode, err


def test_the_blocks_are_found_and_each_one_not_run_says_why():
    assert any(block.page == "docs/commands.md" and block.kind == "sh" for block in RUN)
    assert any(block.page == "README.md" and block.kind == "companion-console" for block in RUN)
    for block in BLOCKS:
        if block.not_run is not None:
            assert len(block.not_run) >= 10, f"{block.id}: say why the block is not run"


def test_only_a_note_of_its_own_right_above_a_block_leaves_it_out():
    """The note must be the line right above the fence; one further up, or inside a block, is not it."""
    page = ("(Not run by the docs test: it needs a Raspberry Pi.)\n```sh\nfalse\n```\n\n"
            "(Not run by the docs test: this note is a paragraph away.)\n\nSomething else.\n\n"
            "```sh\nfalse\n```\n"
            "```sh\n# not run here: the old marker, inside the block\nfalse\n```\n"
            "Text (Not run by the docs test: inside a sentence.)\n```sh\nfalse\n```\n"
            "(Not run by the docs test: lines typed at the console.)\n\n```companion-console\nstatus\n```\n"
            "```python\nnot a block the docs test knows\n```\n")
    found = blocks_of("page.md", page)
    assert [(block.kind, block.not_run) for block in found] == [
        ("sh", "it needs a Raspberry Pi."), ("sh", None), ("sh", None), ("sh", None),
        ("companion-console", "lines typed at the console.")]
    assert [block.line for block in found] == [2, 10, 13, 18, 23]


@pytest.mark.parametrize("kind, text", [
    ("sh", "true\nfalse\ntrue\n"),                                  # a command that fails midway
    ("sh", "echo x | grep -q y\n"),                                 # a pipe whose end fails
    ("sh", ".venv/bin/companion sesions\n"),                         # a mistake on the command line
    ("companion-console", "new campanile Albert Birgit Franziska\nBirgit: brown +3\n"),  # out of turn
    ("companion-console", "Albert: brown +3\n"),                    # no game started
])
def test_a_block_that_fails_fails_the_docs_test(kind, text, tmp_path):
    """The runner is honest: what fails for a reader fails here (a refused console line included)."""
    status, said = run_block(Block("page.md", 1, kind, text, None), tmp_path)
    assert status != 0, said


@pytest.mark.parametrize("block", RUN, ids=[block.id for block in RUN])
def test_every_command_of_a_block_runs_as_written(block, tmp_path):
    status, said = run_block(block, tmp_path)
    assert status == 0, f"{block.id}:\n{said[-3000:]}"


def test_no_file_of_the_project_points_outside_it():
    """A clone has no sibling folder: a path into one is a broken link for everyone else."""
    outside = "shared" + "/"  # (spelt in two parts, so that this file does not find itself)
    roots = [ROOT / name for name in ("README.md", "docs", "tests", "companion", "hardware", "ui", "web",
                                      "systemd", "benchmarks", ".ci", "pyproject.toml")]
    files = [path for root in roots if root.exists()
             for path in ([root] if root.is_file() else root.rglob("*")) if path.is_file()
             and path.suffix in (".py", ".md", ".toml", ".kv", ".po", ".sh", ".service", ".txt", "")]
    pointing = [str(path.relative_to(ROOT)) for path in files
                if outside in path.read_text(encoding="utf-8", errors="replace")]
    assert pointing == []


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_pages_leads_somewhere():
    """A relative link names a file of the project, and its #anchor a heading of that page."""
    broken = []
    for page in PAGES:
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and linked.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), flags=re.MULTILINE)
                if anchor not in {_slug(h) for h in headings}:
                    broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []
