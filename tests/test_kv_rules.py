"""The .kv files share one rule namespace: a class rule defined twice applies both (and Kivy asserts)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_two_kv_files_define_a_rule_for_the_same_class() -> None:
    rules: Counter[str] = Counter()
    for path in sorted((ROOT / "ui").rglob("*.kv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.match(r"^<([\w@+,\s-]+)>:", line)
            if found:
                rules.update(name.strip().split("@")[0] for name in found.group(1).split(","))
    assert rules, "no kv rules found"
    assert {name for name, count in rules.items() if count > 1} == set()


def test_no_rule_names_a_class_that_two_modules_define() -> None:
    """Kivy applies a rule to every widget class of its name, wherever it is defined: two games each
    with a ``PlayerCell`` would both take the one rule (a board would be laid out by another's)."""
    rules: set[str] = set()
    for path in sorted((ROOT / "ui").rglob("*.kv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            found = re.match(r"^<([\w@+,\s-]+)>:", line)
            if found:
                rules.update(name.strip().split("@")[0] for name in found.group(1).split(","))
    defined: dict[str, list[str]] = {}
    for path in sorted((ROOT / "ui").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        # a Protocol (what a screen asks of the board that opens it) is no widget
        for name in re.findall(r"^class (\w+)\((?!Protocol\))", text, re.MULTILINE):
            defined.setdefault(name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: where for name, where in defined.items() if name in rules and len(where) > 1} == {}
