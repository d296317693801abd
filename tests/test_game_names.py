"""Game names only where a game lives: its own package or module in each layer, and the layers' registries.

Adding a game means its package, its descriptor in the registry and, where
it wants more than the generic front ends give, its own module in a layer's
list; no other product module may name a game. This test greps
companion/, hardware/, ui/ and web/ for the shipped games' ids and names.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = re.compile(r"campanile|castelli|san-gimignano|san_gimignano|san gimignano", re.IGNORECASE)
GAME = r"(campanile|castelli|san_gimignano)"

#: Where a game may be named: its own package or module in a layer.
GAME_MODULES = [
    re.compile(rf"^companion/games/{GAME}/"),
    re.compile(rf"^companion/service/{GAME}\.py$"),
    re.compile(rf"^companion/cli/commands/{GAME}\.py$"),
    re.compile(rf"^hardware/games/{GAME}\.py$"),
    re.compile(rf"^ui/games/{GAME}/"),
    re.compile(rf"^web/pages/games/{GAME}\.py$"),
]
#: Each layer's one list of games, keyed by the descriptors' names.
REGISTRIES = {
    "companion/games/registry.py",
    "companion/service/games.py",
    "companion/cli/games.py",
    "hardware/games/__init__.py",
    "ui/games/__init__.py",
    "web/pages/games/__init__.py",
}
#: Modules that still name a game, each with why (a debt to pay, not a place where a name is welcome).
#: The list may only shrink, and is empty now: a module that names a game outside its own modules and
#: the registries fails the first test below.
PENDING: dict[str, str] = {}


def _allowed(path: str) -> bool:
    return path in REGISTRIES or any(pattern.match(path) for pattern in GAME_MODULES)


def naming_modules() -> dict[str, list[str]]:
    """Each product module outside the game modules and registries that names a game: its lines."""
    found: dict[str, list[str]] = {}
    for folder in ("companion", "hardware", "ui", "web"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if _allowed(where):
                continue
            lines = [f"{n}: {line.strip()}" for n, line in
                     enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if NAMES.search(line)]
            if lines:
                found[where] = lines
    return found


def test_no_product_module_names_a_game_outside_its_modules_and_the_registries() -> None:
    found = naming_modules()
    new = {where: lines for where, lines in found.items() if where not in PENDING}
    assert not new, "\n".join(f"{where}:{line}" for where, lines in new.items() for line in lines)


def test_the_pending_list_only_shrinks() -> None:
    """A module that no longer names a game leaves :data:`PENDING` (so the list never hides a new name)."""
    found = naming_modules()
    assert not [where for where in PENDING if where not in found]


def test_the_grep_sees_the_games_where_they_live() -> None:
    """The walk finds the packages (it is not looking at nothing), and the registries name every game."""
    assert any(_allowed(p.relative_to(ROOT).as_posix()) for p in (ROOT / "hardware" / "games").glob("*.py"))
    for registry in REGISTRIES:
        text = (ROOT / registry).read_text(encoding="utf-8")
        assert NAMES.search(text), registry
