"""The one list of games the companion knows, built from the installed packages' entry points.

A game is a package that declares its :class:`GameDescriptor` in the entry-point
group ``companion.games`` of its distribution (``pyproject.toml``'s
``[project.entry-points."companion.games"]`` table, the way gpiozero finds
its pin factories): the entry point's name is the record's ``game`` name,
its value names the descriptor object. The companion's own three games are
declared there like any plug-in, and that table is the one place that lists
them. The CLI, the store, the service and every front end find a game here
by name and iterate :func:`descriptors` wherever they offer every game, in
the order of :attr:`GameDescriptor.order` (entry points have none).

A test or a plug-in author registers a game in one call, :func:`register`
(or :func:`registered`, for a ``with`` block); its catalogues come with it.

Only what a command needs is loaded: looking up the game a record names reads
this distribution's own table (one small file, found without
``importlib.metadata``, which alone costs more than a cold start can spare)
and imports that game's descriptor only; the other distributions' tables are
read when a game is not found there, or when every game is asked for. A
plug-in that fails to load (its module is missing, raises, or names another
game) is logged and left out, never stopping start-up; its stored games are
shown as "game not installed", and a record of it is refused saying so.

Reading the installed packages' metadata is the one thing here that touches
files, and only through the import system's own places (``sys.path``); the
engines themselves stay pure.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.games.base import Game, RecordError
from companion.games.descriptor import GameDescriptor
from companion.games.messages import msg

if TYPE_CHECKING:
    import logging

#: The entry-point group every game declares its descriptor in.
GROUP = "companion.games"
#: This distribution's name as its metadata folder spells it (``<name>-<version>.dist-info``).
OWN_DISTRIBUTION = "tabletop_companion"

#: name -> descriptor of every game loaded so far (registered by a call, or found installed).
_LOADED: dict[str, GameDescriptor] = {}
#: name -> why an installed game's plug-in could not be loaded (logged once; :func:`descriptor`
#: then refuses its records as a game not installed rather than an unknown one).
_FAILED: dict[str, str] = {}
#: What has been read of the installed entry points: name -> "module:attribute".
_FOUND: dict[str, str] = {}
#: Names registered by a call (a test's game, a plug-in registering itself), kept apart so that
#: :func:`unregister` forgets only those.
_BY_CALL: set[str] = set()
_read: dict[str, bool] = {"own": False, "all": False}
#: Bumped at every change of the list, so that caches built from it (the catalogues) know.
_generation = [0]


def catalogue_folder(game: GameDescriptor) -> Path | None:
    """The folder of ``game``'s catalogues (:attr:`GameDescriptor.catalogues`, then ``locale``),
    found without importing its package; ``None`` when it has none or its package is not there."""
    if game.catalogues is None:
        return None
    package = sys.modules.get(game.catalogues)  # imported already with the game's descriptor, mostly
    if package is not None:
        places = list(getattr(package, "__path__", []))
    else:
        from importlib.util import find_spec  # not on a replay's path: its package is there already

        try:
            spec = find_spec(game.catalogues)
        except (ImportError, ValueError):
            return None
        places = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(places[0]) / "locale" if places else None


def generation() -> int:
    """A number that changes whenever a game is registered, forgotten or loaded: a cache keyed on it
    (:func:`companion.i18n.catalogue`) never serves the list as it was."""
    return _generation[0]


# -- reading the entry points ------------------------------------------------------------------

def _log() -> logging.Logger:
    """This module's logger; :mod:`logging` is imported only when something goes wrong (5 ms of a
    replay's cold start otherwise)."""
    import logging

    return logging.getLogger(__name__)


def _entry_table(path: Path) -> dict[str, str]:
    """The ``companion.games`` section of an ``entry_points.txt`` (an INI file: ``name = module:attr``)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    found: dict[str, str] = {}
    section = None
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
        elif section == GROUP and "=" in stripped and not stripped.startswith(("#", ";")):
            name, _, value = stripped.partition("=")
            found[name.strip()] = value.strip()
    return found


def _read_own() -> None:
    """This distribution's table, from the first ``tabletop_companion-*.dist-info`` on ``sys.path``."""
    if _read["own"]:
        return
    _read["own"] = True
    prefix = OWN_DISTRIBUTION + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(prefix) and name.endswith(".dist-info"):
                for game, where in _entry_table(Path(entry or ".", name, "entry_points.txt")).items():
                    _FOUND.setdefault(game, where)
                return


def _read_all() -> None:
    """Every installed distribution's table (``importlib.metadata``: read only when needed)."""
    if _read["all"]:
        return
    _read_own()
    _read["all"] = True
    from importlib.metadata import entry_points  # ~10 ms to import: not on the record's path

    for point in entry_points(group=GROUP):
        if point.name in _FOUND and _FOUND[point.name] != point.value:
            _log().warning("game %s is declared twice (%s and %s): the first is used",
                           point.name, _FOUND[point.name], point.value)
        _FOUND.setdefault(point.name, point.value)


def _load(name: str) -> GameDescriptor | None:
    """The descriptor the entry point ``name`` names, loaded once; ``None`` (logged) when it fails."""
    if name in _LOADED:
        return _LOADED[name]
    if name in _FAILED or name not in _FOUND:
        return None
    where = _FOUND[name]
    module_name, _, attribute = where.partition(":")
    try:
        found = getattr(import_module(module_name), attribute) if attribute else import_module(module_name)
        if not isinstance(found, GameDescriptor):
            raise TypeError(f"{where} is a {type(found).__name__}, not a GameDescriptor")
        if found.name != name:
            raise ValueError(f"{where} describes {found.name!r}, not {name!r}")
    except Exception as error:  # a broken plug-in is left out, never stops the box
        _log().exception("the game %s (%s) cannot be loaded and is left out", name, where)
        _FAILED[name] = f"{type(error).__name__}: {error}"
        return None
    _LOADED[name] = found
    _generation[0] += 1
    return found


# -- asking --------------------------------------------------------------------------------------

def descriptors() -> tuple[GameDescriptor, ...]:
    """Every game the companion knows, in the order the menus show them (:attr:`GameDescriptor.order`,
    then the name)."""
    _read_all()
    for name in list(_FOUND):
        _load(name)
    return tuple(sorted(_LOADED.values(), key=lambda found: (found.order, found.name)))


def loaded() -> tuple[GameDescriptor, ...]:
    """The games loaded so far (registered by a call, or asked for by name), without reading the
    other installed packages: what a cache of their words needs now."""
    return tuple(_LOADED.values())


def game_names() -> tuple[str, ...]:
    """The names of :func:`descriptors`, in menu order."""
    return tuple(found.name for found in descriptors())


def with_capability(capability: str) -> tuple[GameDescriptor, ...]:
    """The games that declare ``capability`` (:attr:`GameDescriptor.capabilities`), in menu order."""
    return tuple(found for found in descriptors() if capability in found.capabilities)


def find(name: str) -> GameDescriptor | None:
    """The descriptor of ``name``, or ``None`` when no installed game loads under that name.

    Reads this distribution's table first and the others' only when the name is not there.
    """
    if name in _LOADED:
        return _LOADED[name]
    _read_own()
    if name not in _FOUND:
        _read_all()
    return _load(name)


_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


def looks_like_a_name(value: object) -> bool:
    """Whether ``value`` could be a game's name (lower-case words of letters and digits joined by
    ``-`` or ``_``, as entry points name games): a stored game of such a name that no installed
    package declares is *not installed*; anything else where a name belongs (a number, an empty
    text, ``-1``) is damage."""
    return isinstance(value, str) and len(value) <= 64 and _NAME.fullmatch(value) is not None


def descriptor(name: str) -> GameDescriptor:
    """The descriptor of ``name``; :class:`RecordError` for a game the companion does not know
    (or whose plug-in fails to load: the message says it is not installed)."""
    found = find(name)
    if found is not None:
        return found
    if name in _FAILED:
        raise RecordError(msg("records.game.not_installed", name=name), "game")
    raise RecordError(msg("records.game.unknown", name=name, games=", ".join(game_names())), "game")


def game_named(typed: str) -> str:
    """The name of the game a person typed: any case, with spaces, ``_`` or ``-`` between words.

    A game's name in any case, with spaces or ``_`` in place of ``-``, is the game a
    player means; records keep the exact name (:func:`descriptor` reads those).
    :class:`RecordError` for a game the companion does not know.
    """
    if find(typed) is not None:
        return typed
    key = _typed_key(typed)
    found = [name for name in game_names() if _typed_key(name) == key]
    return found[0] if len(found) == 1 else descriptor(typed).name


def _typed_key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@cache
def get_game(name: str) -> Game[Any, Any]:
    """The engine for ``name`` (one per process); :class:`RecordError` for an unknown game."""
    return descriptor(name).load()


def title(name: str) -> str:
    """What players call the game ``name`` (its engine's title); for a game not installed here (a
    stored game whose package is gone), its record name marked as not installed: every list of
    stored games shows it, none fails on it."""
    try:
        return get_game(name).title
    except (RecordError, ImportError):
        return str(msg("records.game.title_not_installed", name=name))


def load_named(where: str | None, owner: str) -> object | None:
    """The object ``"module:attribute"`` names (a part of the game ``owner`` for a front end),
    imported on first use; ``None`` for no name, for a module that is not installed (the
    touchscreen's part on a box without Kivy: said by nobody), and for one that fails to import
    or lacks the attribute (logged: the front end plays the game with its generic parts)."""
    if where is None:
        return None
    module_name, _, attribute = where.partition(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is None or not module_name.startswith(error.name):  # a module it imports is missing
            _log().exception("%s of %s cannot be imported", where, owner)
        return None
    except Exception:
        _log().exception("%s of %s cannot be imported", where, owner)
        return None
    found: object | None = getattr(module, attribute or "PART", None)
    if found is None:
        _log().error("%s of %s names nothing", where, owner)
    return found


def load_part(game: str, part: str) -> object | None:
    """The part of ``game`` its descriptor names in the field ``part`` (``"oled"``, ``"touchscreen"``,
    ``"web"``), loaded as :func:`load_named` does; ``None`` for a game not installed or without one."""
    found = find(game)
    return None if found is None else load_named(getattr(found, part), game)


# -- registering by a call -----------------------------------------------------------------------

def register(game: GameDescriptor) -> None:
    """Make ``game`` known (with its catalogues) from now on; :class:`ValueError` if its name is taken."""
    if find(game.name) is not None:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _LOADED[game.name] = game
    _BY_CALL.add(game.name)
    _FAILED.pop(game.name, None)
    _generation[0] += 1
    get_game.cache_clear()


def unregister(name: str) -> None:
    """Forget a game added by :func:`register` (its stored games then show as not installed).

    A game found installed is left alone (it is the package that decides, not a call).
    """
    if name in _BY_CALL:
        _BY_CALL.discard(name)
        _LOADED.pop(name, None)
        _generation[0] += 1
        get_game.cache_clear()


@contextmanager
def registered(game: GameDescriptor) -> Iterator[GameDescriptor]:
    """``game`` known for the ``with`` block only (a test's own game)."""
    register(game)
    try:
        yield game
    finally:
        unregister(game.name)


@contextmanager
def without(name: str) -> Iterator[None]:
    """The installed game ``name`` left out for the ``with`` block, as if its package were not
    installed (a test of what the companion does without a game); its stored games show as not
    installed meanwhile."""
    find(name)
    kept = _LOADED.pop(name, None)
    where = _FOUND.pop(name, None)
    _generation[0] += 1
    get_game.cache_clear()
    try:
        yield
    finally:
        if where is not None:
            _FOUND[name] = where
        if kept is not None:
            _LOADED[name] = kept
        _generation[0] += 1
        get_game.cache_clear()


@contextmanager
def replaced(game: GameDescriptor) -> Iterator[GameDescriptor]:
    """``game`` in the place of the game of the same name for the ``with`` block (a test that gives
    an installed game another part, say), the one it replaced back afterwards."""
    previous = find(game.name)
    if previous is None:
        raise ValueError(f"no game named {game.name!r} to replace")
    _LOADED[game.name] = game
    _generation[0] += 1
    get_game.cache_clear()
    try:
        yield game
    finally:
        _LOADED[game.name] = previous
        _generation[0] += 1
        get_game.cache_clear()


def __getattr__(name: str) -> Any:
    """``GAMES``: :func:`game_names`, read when asked, so that importing this module loads no game."""
    if name == "GAMES":
        return game_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
