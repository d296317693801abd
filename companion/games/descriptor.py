"""What the core asks of a game, in one object per game: :class:`GameDescriptor`.

Adding a game means writing its package (the engine, its rules, and a
``descriptor.py`` holding one :class:`GameDescriptor`) and declaring that
object as an entry point of the group ``companion.games``
(:mod:`companion.registry`). The service, the console and the front
ends ask the descriptor (never the game's name) for what differs between
games: the colours of the pieces, whether the record keeps each player's
colour, what a new game gets from the table's settings when the players do
not say (the 2-player flag table, a stored board, an offered layout), the
words the console shows for a move's observed fields, and where each front
end finds the game's own part.

Pure, like the engines: the standard library and :mod:`companion.games` only.
The engine itself is imported on first use (``engine`` names it), so that
reading the descriptors does not pay for every game's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import Any, Protocol

from companion.games.base import Game
from companion.games.messages import Message


class TableSettings(Protocol):
    """The table's settings as a descriptor may read them when it fills in a new game.

    The service implements it (the core decides where settings are kept);
    a descriptor never writes a setting.
    """

    def setting(self, key: str, default: Any = None) -> Any:
        """The value kept under ``key`` here (simple settings' defaults included), else ``default``."""

    def words(self, key: str) -> list[str]:
        """A setting typed as a list by commas ("a, b, c"), each word stripped."""


class SetupNeeded(Exception):
    """A new game cannot start until the table supplies something (the 2-player flag table).

    ``reason`` is the message the players read; the service turns it into its refusal.
    """

    def __init__(self, reason: Message) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class NewGame:
    """A new game's options and setup as the players gave them, for :attr:`GameDescriptor.defaults`."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    setup: Mapping[str, Any]


def split_words(value: str) -> list[str]:
    """A setting's list typed by commas ("a, b, c"), each word stripped."""
    return [word.strip() for word in value.split(",")]


@dataclass(frozen=True)
class TableSetting:
    """A setting players change that belongs to one game (its guild names, say): the settings
    table (:mod:`companion.service.settings`) and the settings screen take it from here."""

    #: Its key in the store, under the game's own prefix.
    key: str
    #: Its value until the players change it.
    default: Any
    #: ``check(value)``: ``None`` for a value the game can use, else the message saying why not.
    check: Callable[[Any], Message | None]
    #: The message code of the words beside it on the settings screen.
    label: str
    #: Record values the setting's list may hold that players read in words (a game's default
    #: guild names: ``guild-1`` -> "Guild 1"): the settings screen shows the words and keeps the value.
    named: Mapping[str, Message] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class ExampleSetup:
    """A game set up on an example, not on what lies on the table: a board layout the companion ships
    (the published board is not), or the starting layout it offers. The game's own fact, read from its
    stored setup (:attr:`GameDescriptor.example`), so that every front end says the same thing."""

    #: The setup field holding the example (``"board"``, ``"segments"``).
    field: str
    #: The example's name, when it has one (a shipped layout's, ``example-4p``).
    name: str | None
    #: One plain sentence for each front end that says it (:data:`EXAMPLE_FRONT_ENDS`): that the game
    #: is on an example and how to enter the table's own, in that front end's terms.
    said: Mapping[str, Message]


#: Where :attr:`ExampleSetup.said` is always said: the command line and the console, the touchscreen (its
#: sentence, and the two or three words of its game screen's bar that show it on a tap), the phone page.
EXAMPLE_FRONT_ENDS = ("console", "touchscreen", "touchscreen.tag", "web")
#: What a front end may say besides: the new-game screen's line before a game starts on the example
#: (``touchscreen.new``; a game that lets the players match the table in its setup form says none),
#: the OLED's notice under the touchscreen's tag when a game starts from its menu
#: (``oled``: four short lines).
EXAMPLE_EXTRA = ("touchscreen.new", "oled")

#: ``example(setup, options, players)``: the :class:`ExampleSetup` a game's setup (as its record keeps it,
#: or as a new game's is given) is on, or ``None`` when it is the table's own.
Example = Callable[[Mapping[str, Any], Mapping[str, Any], Sequence[str]], "ExampleSetup | None"]


def no_example(setup: Mapping[str, Any], options: Mapping[str, Any], players: Sequence[str]) -> None:
    """A game whose setup is never an example (nothing on the table to match)."""
    return None


#: ``defaults(new, table) -> (options, setup)``: the game's options and setup with what the table
#: supplies by default filled in (never overriding what the players gave); may raise :class:`SetupNeeded`.
Defaults = Callable[[NewGame, TableSettings], tuple[dict[str, Any], dict[str, Any]]]


def no_defaults(new: NewGame, table: TableSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game that takes nothing from the table: its options and setup as given."""
    return dict(new.options), dict(new.setup)


def _frozen(mapping: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, eq=False)  # one object per game: identity is its equality
class GameDescriptor:
    """Everything the companion asks of one game, declared once as an entry point of the group
    ``companion.games`` (:mod:`companion.registry`).

    The front ends' parts are named as ``"module:attribute"`` strings, imported by the front end that
    needs them, so that the engine's package never imports a front end and a box without Kivy never
    loads the game's touchscreen part.
    """

    #: The record's ``game`` value (``Game.name``), the key every layer's per-game list uses.
    name: str
    #: ``"module:Class"`` of the engine, imported on first use by :meth:`load`.
    engine: str
    #: The colours of the game's pieces, from the rulebook's component list, in the box's order
    #: (players get them by seat); ``None``: the rulebook names none, any colour name is taken.
    piece_colours: tuple[str, ...] | None = None
    #: Whether the record's setup keeps each player's colour (``setup.colors``), so that a new
    #: game must be given them (by the players, their profiles, or by seat).
    colours_in_setup: bool = False
    #: Move type -> message code of what to type for that template's observed fields (the console).
    observed_hints: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    #: The settings keys this game owns (its flag table, boards, guild names ...), for the settings table.
    setting_keys: tuple[str, ...] = ()
    #: What a new game gets from the table by default (see :data:`Defaults`).
    defaults: Defaults = no_defaults
    #: Setup field -> the message saying what the companion filled in for it when the players gave
    #: nothing, and how to give their own (a starting layout), for ``new``'s "assumed" line.
    assumed_notes: Mapping[str, Message] = field(default_factory=lambda: MappingProxyType({}))
    #: Setup key -> the message that says in one line what it holds: every key a record's setup
    #: may hold (a Championship round's excepted). The engine refuses any other key naming these,
    #: and ``new --help`` lists them under the game: one list, read by both.
    setup_keys: Mapping[str, Message] = field(default_factory=lambda: MappingProxyType({}))
    #: Option key -> the message that says in one line what it chooses: every rule option a record
    #: may hold, refused and listed as :attr:`setup_keys` are (``new --help`` under ``--option``).
    option_keys: Mapping[str, Message] = field(default_factory=lambda: MappingProxyType({}))
    #: What the players should know about a new game before they play it, though it may start
    #: (a board made for another player count): message codes, said by every front end.
    notices: Callable[[NewGame], list[Message]] = field(default=lambda new: [])
    #: Whether a game's setup is an example rather than the table's own (:data:`Example`): every front
    #: end says so, and how to enter the table's own, from this one answer.
    example: Example = no_example
    #: The game's simple settings players change (a subset of :attr:`setting_keys`; the others,
    #: such as a flag table or stored boards, have structured values and a service part of their own).
    settings: tuple[TableSetting, ...] = ()
    #: Where the game stands in every menu and list of games (smaller first; entry points have no
    #: order of their own). A game registered without one comes after the shipped games.
    order: int = 1000
    #: What the game supports beyond playing one game: ``"championship"`` (its rounds are played by
    #: :mod:`companion.service.championship`, two 2-player games at once: ``setup.groups``).
    capabilities: frozenset[str] = frozenset()
    #: The package whose folder holds the game's catalogues, ``locale/<language>/*.po`` (every word
    #: of the game: its engine's, its console's, OLED's, touchscreen's and phone page's); ``None``: none.
    catalogues: str | None = None
    #: ``"module:Class"`` of the game's part of the service (:mod:`companion.service.parts`): what only
    #: this game asks of the store (a flag table, boards), built once per service; ``None``: none.
    service: str | None = None
    #: The module under the command line that adds the game's own subcommands (``register(subparsers)``),
    #: and the subcommands it adds (so that a command line imports it only for one of them).
    commands: str | None = None
    command_names: tuple[str, ...] = ()
    #: ``"module:PART"`` of the game's OLED and buttons part (:class:`hardware.games.GamePart`).
    oled: str | None = None
    #: ``"module:PART"`` of the game's touchscreen part (:class:`ui.games.part.UiPart`): its board, its
    #: forms, its screens and the tools it offers on Home and in Settings.
    touchscreen: str | None = None
    #: ``"module:PART"`` of the game's section of the phone page (:class:`web.pages.games.WebPart`).
    web: str | None = None

    def __post_init__(self) -> None:
        # a descriptor is shared by every layer: nobody may change its hints behind the others' backs
        object.__setattr__(self, "observed_hints", _frozen(self.observed_hints))
        object.__setattr__(self, "assumed_notes", MappingProxyType(dict(self.assumed_notes)))
        object.__setattr__(self, "setup_keys", MappingProxyType(dict(self.setup_keys)))
        object.__setattr__(self, "option_keys", MappingProxyType(dict(self.option_keys)))
        object.__setattr__(self, "capabilities", frozenset(self.capabilities))

    def load(self) -> Game[Any, Any]:
        """A new instance of the engine (the registry keeps one per game)."""
        module_name, _, class_name = self.engine.partition(":")
        engine: Game[Any, Any] = getattr(import_module(module_name), class_name)()
        if engine.name != self.name:
            raise ValueError(f"{self.engine} is the engine of {engine.name!r}, not of {self.name!r}")
        return engine


def seat_colours(allowed: Sequence[str] | None, players: Sequence[str],
                 recorded: Mapping[str, str] | None = None,
                 preferred: Mapping[str, str | None] | None = None) -> dict[str, str | None]:
    """Each player's colour, unique at the table: the one rule every front end uses.

    The game's own record comes first (a ``setup.colors``); then the
    profile's preferred colour when it is one of the game's pieces
    (``allowed``) and still free (two wanting the same: the earlier seat has
    it); the rest get the game's free piece colours in the box's order, by
    seat. A game whose rulebook names no colours (``allowed`` is ``None``)
    leaves a player without a recorded or preferred one at ``None``.
    """
    recorded = recorded or {}
    chosen: dict[str, str | None] = {p: recorded[p] for p in players if recorded.get(p)}
    for player in players:
        wish = (preferred or {}).get(player)
        if player in chosen or not wish or wish in chosen.values():
            continue
        if allowed is None or wish in allowed:
            chosen[player] = wish
    free = [c for c in allowed or () if c not in chosen.values()]
    for player in players:
        if player not in chosen:
            chosen[player] = free.pop(0) if free else None
    return {p: chosen[p] for p in players}


#: Colours for players who have none (a game whose rulebook names no piece colours, and no profile
#: chose one): every front end draws them in these, in seat order, so that a player wears the same
#: colour on the touchscreen and on a phone's page.
SPARE_COLOURS: tuple[str, ...] = ("white", "black", "orange", "purple")


def with_spare_colours(colours: Mapping[str, str | None], players: Sequence[str]) -> dict[str, str | None]:
    """``colours`` (from :func:`seat_colours`) with a spare colour nobody at the table has given to
    each player without one, in seat order (``None`` only when the spares run out)."""
    taken = {colour for colour in colours.values() if colour}
    spare = [colour for colour in SPARE_COLOURS if colour not in taken]
    return {player: colours.get(player) or (spare.pop(0) if spare else None) for player in players}
