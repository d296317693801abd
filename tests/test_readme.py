"""The README is a first guide: the two set-up commands, then a first game, then short sections.

Its long tail (escapes, byte-order marks, limits, every command in order)
lives in docs/, linked from it; each dependency is still named with why it
is there. (That its blocks run is tests/test_docs_commands.py's; that its
test command is CI's, tests/test_packaging.py's.)
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _sections() -> list[str]:
    return re.findall(r"^## (.+)$", README, flags=re.MULTILINE)


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    after = README.find("\n## ", start + 1)
    return README[start:after if after != -1 else None]


def test_it_opens_with_the_set_up_then_the_first_game():
    assert _sections()[:2] == ["Set up", "Your first game"]
    set_up = _section("Set up")
    assert len(re.findall(r"^```sh\n", set_up, flags=re.MULTILINE)) == 2
    first_game = _section("Your first game")
    block = re.search(r"^```companion-console\n(.*?)^```", first_game, flags=re.MULTILINE | re.DOTALL)
    assert block, "Your first game: the lines to type, in a companion-console block the docs test runs"
    lines = block.group(1).splitlines()
    assert 4 <= len(lines) <= 10 and lines[0].startswith("new ")


def test_no_paragraph_is_a_wall_of_text():
    """A paragraph of prose (not a table, a list or a block) stays under ten lines."""
    prose = re.sub(r"^```.*?^```", "", README, flags=re.MULTILINE | re.DOTALL)
    paragraphs = [p for p in prose.split("\n\n") if p.strip() and not p.lstrip().startswith(("|", "#", "- "))]
    assert [p[:60] for p in paragraphs if p.count("\n") >= 10] == []


def test_the_long_tail_is_in_the_docs_and_linked():
    for detail in ("byte-order mark", "1,000 digits", "bidi", "9223372036854775807"):
        assert detail not in README
        assert detail in (ROOT / "docs" / "console.md").read_text(encoding="utf-8")
    for page in ("docs/console.md", "docs/commands.md", "docs/testing.md", "docs/appliance.md"):
        assert f"]({page})" in README
        assert (ROOT / page).is_file()


def test_every_dependency_says_why_it_is_here():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"].values()
    wanted = [*project["dependencies"], *(r for extra in extras for r in extra)]
    names = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in wanted}
    table = _section("Why each dependency is here")
    rows = {line.split("|")[1] for line in table.splitlines() if line.startswith("| `")}
    named = {name.lower() for row in rows for name in re.findall(r"`([^`]+)`", row)}
    assert names - named == set()
    why = [line.split("|")[2].strip() for line in table.splitlines() if line.startswith("| `")]
    assert all(len(reason) >= 20 for reason in why)


def test_no_doc_keeps_the_old_harness_marker():
    """Blocks not run say so to a reader, above the block (tests/test_docs_commands.py)."""
    old = "# not run" + " here:"  # (spelt in two parts, so that this file does not find itself)
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    assert [str(p.relative_to(ROOT)) for p in pages if old in p.read_text(encoding="utf-8")] == []
