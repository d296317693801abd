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
