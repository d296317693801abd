"""San Gimignano as the core sees it: the layout a new game is offered, with the table's guild names."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.descriptor import (
    ExampleSetup,
    GameDescriptor,
    NewGame,
    TableSetting,
    TableSettings,
    split_words,
)
from companion.games.messages import Message, msg
from companion.games.naming import name_problem

#: The prefix of the game's settings' keys (not message codes).
SETTINGS = "san_gimignano"
#: The setting with the four guild names new games get, by commas ("guild-1, guild-2, guild-3, guild-4").
GUILDS = f"{SETTINGS}.guilds"
#: The setting with the colours the touchscreen draws the four guilds in, by commas.
GUILD_COLOURS = f"{SETTINGS}.guild_colours"
#: The colours a guild may be drawn in (the touchscreen's palette has each).
GUILD_PALETTE: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "orange", "brown", "grey")


def four_guilds(value: object) -> Message | None:
    """Four different guild names by commas (120 characters at most), else why not."""
    if not isinstance(value, str):
        return msg("san_gimignano.setting.not_text", value=repr(value))
    names = split_words(value)
    for name in names:  # each by the one name rule (a bidi override would reach every screen)
        problem = name_problem(name, "guild") if name else None
        if problem is not None:
            return problem
    if len(names) != 4 or not all(names) or len({n.casefold() for n in names}) != 4 or len(value) > 120:
        return msg("ui.san_gimignano.setting.guilds", value=repr(value))
    return None


def four_colours(value: object) -> Message | None:
    """Four different colours of :data:`GUILD_PALETTE` by commas, else why not."""
    if not isinstance(value, str):
        return msg("san_gimignano.setting.not_text", value=repr(value))
    colours = split_words(value)
    if len(colours) != 4 or len(set(colours)) != 4 or not set(colours) <= set(GUILD_PALETTE):
        return msg("ui.san_gimignano.setting.colours", value=repr(value), colours=", ".join(GUILD_PALETTE))
    return None


#: The keys of a game's setup, those it must hold first (the companion offers a layout when the
#: players give none), each with what it holds (``new --help``).
SETUP_REQUIRED = ("segments",)
SETUP_KEYS = {"segments": msg("san_gimignano.setup_key.segments"),
              "guilds": msg("san_gimignano.setup_key.guilds"),
              "hands": msg("san_gimignano.setup_key.hands"), "pool": msg("san_gimignano.setup_key.pool")}
#: The rule options, each with what it chooses (``new --help``); all may be left out.
OPTION_KEYS = {"rules": msg("san_gimignano.option_key.rules"),
               "variant": msg("san_gimignano.option_key.variant")}


def defaults(new: NewGame, table: TableSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """Without segments, the offered layout (:mod:`~companion.games.san_gimignano.layout`) with the
    table's guild names; what the players gave wins."""
    options, setup = dict(new.options), dict(new.setup)
    if "segments" not in setup:
        from companion.games.san_gimignano.layout import default_setup

        guilds = setup.get("guilds") or table.words(GUILDS)
        setup = {**default_setup(new.players, options, guilds), **setup}
    return options, setup


def example(setup: Mapping[str, Any], options: Mapping[str, Any],
            players: Sequence[str]) -> ExampleSetup | None:
    """The segments laid before play are the layout the companion offers (what ``new`` gives when the
    players name none), which may not be what lies on the table; ``None`` for any other layout.

    Which segments are laid is drawn at each table for each game, so there is no board to enter
    once (as Castelli's): the players lay the offered ones, or give theirs when they start.
    """
    from companion.games.san_gimignano import tables
    from companion.games.san_gimignano.layout import default_setup

    guilds = setup.get("guilds") or list(tables.DEFAULT_GUILDS)
    segments = setup.get("segments")
    if not isinstance(segments, list) or not isinstance(guilds, list):
        return None
    try:
        offered = default_setup(players, options, [str(g) for g in guilds])["segments"]
        if sorted(map(_key, segments)) != sorted(map(_key, offered)):
            return None
    except (TypeError, ValueError, KeyError):  # a setup the engine refuses is nobody's example
        return None
    return ExampleSetup("segments", None, {
        "console": msg("san_gimignano.example.console"),
        "touchscreen": msg("san_gimignano.example.touchscreen"),
        "touchscreen.tag": msg("san_gimignano.example.tag"),
        "oled": msg("san_gimignano.example.oled"),
        "web": msg("san_gimignano.example.web")})


def _key(segment: object) -> str:
    return json.dumps(segment, sort_keys=True)


def notices(new: NewGame) -> list[Message]:
    """On the offered layout: that it is one, and how to give the table's own."""
    on_example = example(new.setup, new.options, new.players)
    return [] if on_example is None else [on_example.said["console"]]


DESCRIPTOR = GameDescriptor(
    name="san-gimignano",
    engine="companion.games.san_gimignano.game:SanGimignano",
    piece_colours=None,  # the rulebook says "four colours" and names none
    setting_keys=(GUILDS, GUILD_COLOURS),
    defaults=defaults,
    notices=notices,
    example=example,
    setup_keys=SETUP_KEYS,
    option_keys=OPTION_KEYS,
    assumed_notes={"segments": msg("san_gimignano.assumed.segments"),
                   "guilds": msg("san_gimignano.assumed.guilds")},
    settings=(
        TableSetting(GUILDS, "guild-1, guild-2, guild-3, guild-4", four_guilds,
                     "ui.san_gimignano.settings.guilds",  # for new games
                     # the default names in words ("Guild 2", "2. céh"), as the board says them
                     named={f"guild-{n}": msg("san_gimignano.guild.default", number=n) for n in range(1, 5)}),
        TableSetting(GUILD_COLOURS, "red, blue, green, yellow", four_colours,
                     "ui.san_gimignano.settings.colours"),  # as drawn
    ),
    order=30,
    catalogues="companion.games.san_gimignano",
    oled="hardware.games.san_gimignano:PART",
    touchscreen="ui.games.san_gimignano:PART",
    web="web.pages.games.san_gimignano:PART",
)
