"""Game names only where a game lives: its own package or module in each layer, and one table.

Adding a game means its package, its descriptor named in the entry-point
table of ``pyproject.toml`` and, where it wants more than the generic front
ends give, its own module in a layer; no other product module, and no
catalogue every game shares, may name a game. This test greps companion/,
hardware/, ui/ and web/ and the shared catalogues for the shipped games' ids
and names.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = re.compile(r"campanile|castelli|san-gimignano|san_gimignano|san gimignano", re.IGNORECASE)
GAME = r"(campanile|castelli|san_gimignano)"

#: Where a game may be named: its own package or module in a layer (a layer's modules of one game are
#: named for it: ``castelli.py``, ``castelli_board_entry.py``).
GAME_MODULES = [
    re.compile(rf"^companion/games/{GAME}/"),
    re.compile(rf"^companion/service/{GAME}(_[a-z_]+)?\.py$"),
    re.compile(rf"^companion/cli/commands/{GAME}(_[a-z_]+)?\.py$"),
    re.compile(rf"^hardware/games/{GAME}\.py$"),
    re.compile(rf"^ui/games/{GAME}/"),
    re.compile(rf"^web/pages/games/{GAME}\.py$"),
]
#: No layer keeps a list of games: the one list is pyproject.toml's entry-point table.
REGISTRIES: set[str] = set()
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
    """The walk finds the packages (it is not looking at nothing)."""
    assert any(_allowed(p.relative_to(ROOT).as_posix()) for p in (ROOT / "hardware" / "games").glob("*.py"))
    assert naming_modules.__doc__ and NAMES.search("San Gimignano")


def test_the_one_list_of_the_shipped_games_is_the_entry_point_table() -> None:
    """pyproject.toml's ``companion.games`` table names every shipped game, and it is what the
    registry reads (the installed metadata is made from it)."""
    import tomllib

    from companion.registry import GROUP, game_names

    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = table["project"]["entry-points"][GROUP]
    packages = {f"companion.games.{path.parent.name}.descriptor:DESCRIPTOR"
                for path in (ROOT / "companion" / "games").glob("*/descriptor.py")}
    assert len(packages) >= 3 and set(declared.values()) == packages  # every game package, declared once
    assert set(declared) <= set(game_names())
    for name, where in declared.items():
        module, _, attribute = where.partition(":")
        assert (ROOT / module.replace(".", "/")).with_suffix(".py").exists(), name
        assert attribute == "DESCRIPTOR", name


def test_no_shared_catalogue_names_a_game() -> None:
    """Every catalogue under companion/locale is shared by all games: none of its codes or texts
    names a game (a game's words are in the catalogues its package ships)."""
    found = []
    for path in sorted((ROOT / "companion" / "locale").rglob("*.po")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith(("msgid", "msgstr")) and NAMES.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line}")
    assert not found, "\n".join(found)


def _owner(path: str) -> str | None:
    """The game whose own module or template ``path`` is, else ``None`` (a shared one)."""
    for pattern in (*GAME_MODULES, re.compile(rf"^web/templates/games/{GAME}\.html$")):
        found = pattern.match(path)
        if found:
            return found.group(1)
    return None


def test_no_shared_catalogue_holds_words_only_one_game_uses() -> None:
    """A code of a shared catalogue that only one game's modules use (a board editor's words, one
    game's OLED page) belongs in that game's catalogues."""
    from companion.i18n.po import read_po

    sources = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
               for folder in ("companion", "hardware", "ui", "web") for path in (ROOT / folder).rglob("*")
               if path.suffix in (".py", ".kv", ".html") and path.is_file()}
    only_one: list[str] = []
    for catalogue in sorted((ROOT / "companion" / "locale" / "en").glob("*.po")):
        for entry in read_po(catalogue):
            if not entry.msgid:
                continue
            users = {_owner(path) for path, text in sources.items()
                     if f'"{entry.msgid}"' in text or f"'{entry.msgid}'" in text}
            if len(users) == 1 and None not in users:
                only_one.append(f"{catalogue.name}: {entry.msgid} (only {users.pop()} uses it)")
    assert not only_one, "\n".join(only_one)
