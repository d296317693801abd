"""Castelli's move notation: ``Anna: reveal row 4, column 3: N blue 1, E yellow card, ...``.

The words are data, per language, in :data:`WORDS` (issue 10 moves them into
the message catalogues); the Hungarian card, colour and resource names are
those of the Hungarian rulebook. Players do not know the record's names of
spaces and areas (``s32``, ``a22``): a space is named by where it lies on the
drawn board (row and column, counted from 1 at the top left), an area by its
kind and where it lies (``forest, row 1, column 5``), as the catalogues'
``castelli.place.*`` name them in every other text. The record's names are
still read (:func:`forms`), so what was typed before still works.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from companion.games.castelli import tables
from companion.games.castelli.state import State
from companion.games.messages import Message, msg
from companion.games.notation import Vocabulary, after_word, mentioned, number, reading, word

WORDS: Vocabulary = {
    "reveal": {"en": "reveal", "hu": "felfed"},
    "swap": {"en": "swap", "hu": "csere"},
    "silver": {"en": "silver", "hu": "ezüst"},
    "build": {"en": "build", "hu": "épít"},
    "on": {"en": "on", "hu": "rá"},
    "for": {"en": "for", "hu": "helyett"},
    # silver paid in place of a resource: English "silver for grain", Hungarian "gabona helyett ezüst"
    "silver_order": {"en": "{silver} {for} {resource}", "hu": "{resource} {for} {silver}"},
    "sell": {"en": "sell", "hu": "elad"},
    "end": {"en": "end", "hu": "vége"},
    "card": {"en": "card", "hu": "kártya"},
    # sides of a tile, clockwise from the top
    "N": {"en": "N", "hu": "É"}, "E": {"en": "E", "hu": "K"},
    "S": {"en": "S", "hu": "D"}, "W": {"en": "W", "hu": "Ny"},
    # shield colours
    "blue": {"en": "blue", "hu": "kék"}, "yellow": {"en": "yellow", "hu": "sárga"},
    "red": {"en": "red", "hu": "piros"}, "green": {"en": "green", "hu": "zöld"},
    # resources
    "wood": {"en": "wood", "hu": "fa"}, "grain": {"en": "grain", "hu": "gabona"},
    "stone": {"en": "stone", "hu": "kő"},
    # where a space or an area lies (``castelli.place.at`` and ``castelli.place.label`` in the catalogues)
    "at": {"en": "row {row}, column {column}", "hu": "{row}. sor, {column}. oszlop"},
    "labelled": {"en": "{kind}, {at}", "hu": "{kind}, {at}"},
    # area kinds (castelli-hu.txt)
    "forest": {"en": "forest", "hu": "erdő"}, "field": {"en": "field", "hu": "szántó"},
    "rock": {"en": "rock", "hu": "szikla"}, "market": {"en": "market", "hu": "piac"},
    "mine": {"en": "mine", "hu": "ezüstbánya"}, "plain": {"en": "plain", "hu": "síkság"},
    # character cards (castelli-hu.txt)
    "king": {"en": "king", "hu": "király"}, "thief": {"en": "thief", "hu": "tolvaj"},
    "steward": {"en": "steward", "hu": "intéző"}, "bandits": {"en": "bandits", "hu": "banditák"},
    "count": {"en": "count", "hu": "gróf"}, "traitor": {"en": "traitor", "hu": "áruló"},
    "countess": {"en": "countess", "hu": "grófnő"},
    "master-builder": {"en": "master-builder", "hu": "főépítész"},
    "robber-baron": {"en": "robber-baron", "hu": "tolvaj-báró"},
    "peasant": {"en": "peasant", "hu": "paraszt"}, "prince": {"en": "prince", "hu": "herceg"},
    "abbot": {"en": "abbot", "hu": "apát"}, "guard": {"en": "guard", "hu": "őr"},
    "knights": {"en": "knights", "hu": "lovagok"}, "arsonist": {"en": "arsonist", "hu": "gyújtogató"},
}


def shields_text(shields: Mapping[str, list[Any]], lang: str) -> str:
    """``N blue 1, E yellow card, ...`` from the record form of a tile's shields."""
    def value(v: object) -> str:
        return word(WORDS, "card", lang) if v == tables.CARD_SHIELD else str(v)

    return ", ".join(f"{word(WORDS, side, lang)} {word(WORDS, shields[side][0], lang)} "
                     f"{value(shields[side][1])}" for side in tables.SIDES)


def place_text(state: State | None, name: str, lang: str) -> str:
    """A space by where it lies (``row 1, column 4``), an area by its kind and where it lies
    (``forest, row 1, column 5``); a name the board does not have (or no board) stays as given."""
    board = state.board if state is not None else None
    if board is None or (name not in board.areas and name not in board.spaces):
        return name
    row, column = board.position(name)
    at = word(WORDS, "at", lang).format(row=row, column=column)
    if name not in board.areas:
        return at
    return word(WORDS, "labelled", lang).format(kind=word(WORDS, board.areas[name].kind, lang), at=at)


def forms(state: State, move: Mapping[str, Any], lang: str) -> list[str]:
    """Every spelling of ``move`` the notation reads: :func:`describe`'s, then the one with the
    record's names of its space or area (``reveal s32``), as the console took them before."""
    said = describe(state, move, lang)
    named = describe(state, move, lang, by_name=True)
    return [said] if named == said else [said, named]


def describe(state: State, move: Mapping[str, Any], lang: str, by_name: bool = False) -> str:
    """One move or template in the notation of ``lang`` (with the record's names of spaces and areas
    when ``by_name``)."""
    def w(key: str) -> str:
        return word(WORDS, key, lang)

    def where(name: str) -> str:
        return name if by_name else place_text(state, name, lang)

    kind = move["type"]
    who = f"{move['player']}: " if "player" in move else ""
    if kind == "reveal":
        text = f"{who}{w('reveal')} {where(move['space'])}" + (f" {w('swap')}" if move.get("swap") else "")
        if "shields" in move:  # no silver on the tile goes without saying (it is read as 0)
            silver = move.get("silver") or 0
            text += f": {shields_text(move['shields'], lang)}"
            text += f", {w('silver')} {silver}" if silver else ""
        return text
    if kind == "steward":
        return f"{who}{w('steward')} {shields_text(move['shields'], lang)}"
    if kind == "build":
        parts = [f"{who}{w('build')} {where(move['area'])}"]
        if move.get("on"):
            parts.append(f"{w('on')} {move['on']}")
        if move.get("card"):
            parts.append(w(move["card"]))
        if move.get("silver_for"):
            parts.append(w("silver_order").format(silver=w("silver"), resource=w(move["silver_for"]),
                                                  **{"for": w("for")}))
        return ", ".join(parts)
    if kind == "guard":
        return f"{who}{w('guard')}"
    if kind == "play":
        extra = move.get("value") or move.get("target") or (where(move["area"]) if move.get("area") else None)
        return f"{who}{w(move['card'])}" + (f" {extra}" if extra is not None else "")
    if kind == "sell":
        return f"{who}{w('sell')} {move['cards']}"
    group = move.get("group")  # a Championship round's end names its group: "end 1"
    return w("end") if group is None else f"{w('end')} {group}"


def read_observed(state: State, template: Mapping[str, Any], said: list[str]) -> dict[str, Any] | None:
    """A reveal's shields (``N blue 1`` four times, sides in any order) and ``silver n`` (default 0)."""
    if template["type"] != "reveal":
        return None
    silver = 0
    rest = list(said)
    if len(rest) >= 2 and reading(WORDS, rest[-2], ("silver",)) and rest[-1].isdigit():
        silver = int(rest[-1])
        rest = rest[:-2]
    shields = read_shields(rest)
    if shields is None or silver not in tables.TILE_SILVER:
        return None
    return {**template, "shields": shields, "silver": silver}


def observed_problem(template: Mapping[str, Any], said: list[str]) -> Message | None:
    """Which part of a reveal's shields and silver cannot be read, in words, or ``None``."""
    if template["type"] != "reveal":
        return None
    rest = list(said)
    if len(rest) >= 2 and reading(WORDS, rest[-2], ("silver",)):
        if not rest[-1].isdigit() or int(rest[-1]) not in tables.TILE_SILVER:
            return msg("castelli.observed.silver", said=rest[-1],
                       values=", ".join(str(v) for v in tables.TILE_SILVER))
        rest = rest[:-2]
    if len(rest) != 12:
        return msg("castelli.observed.count", count=len(rest))
    return _shield_problem(rest)


def _shield_problem(said: list[str]) -> Message | None:
    """The first side, colour or value of four ``side colour value`` triples that is wrong."""
    sides: set[str] = set()
    colours: set[str] = set()
    for at in range(0, 12, 3):
        side = next((s for s in tables.SIDES for lang in ("en", "hu")
                     if word(WORDS, s, lang).casefold() == said[at]), None)
        if side is None or side in sides:
            return msg("castelli.observed.side", said=said[at].capitalize())
        colour = reading(WORDS, said[at + 1], tables.COLORS)
        if colour is None or colour in colours:
            return msg("castelli.observed.colour", said=said[at + 1], side=said[at].capitalize())
        raw = said[at + 2]
        if not (raw.isdigit() and int(raw) in tables.SHIELD_VALUES) and not reading(WORDS, raw, ("card",)):
            return msg("castelli.observed.value", said=raw, side=said[at].capitalize())
        sides.add(side)
        colours.add(colour)
    return None


def read_shields(said: list[str]) -> dict[str, list[Any]] | None:
    """A tile's four shields from ``N blue 1`` four times (sides in any order), in record form."""
    if len(said) != 12:
        return None
    shields: dict[str, list[Any]] = {}
    for at in range(0, 12, 3):
        side = next((s for s in tables.SIDES for lang in ("en", "hu")
                     if word(WORDS, s, lang).casefold() == said[at]), None)
        colour = reading(WORDS, said[at + 1], tables.COLORS)
        raw = said[at + 2]
        value: Any = int(raw) if raw.isdigit() else None
        if value is None and reading(WORDS, raw, ("card",)):
            value = tables.CARD_SHIELD
        if side is None or side in shields or colour is None or value is None:
            return None
        if isinstance(value, int) and value not in tables.SHIELD_VALUES:
            return None
        shields[side] = [colour, value]
    if len({c for c, _ in shields.values()}) != len(tables.SIDES):
        return None
    return {side: shields[side] for side in tables.SIDES}


def shapes(state: State, said: list[str]) -> Iterator[dict[str, Any]]:
    """Every well-formed move ``said`` could mean, legal or not, for the notation's refusals.

    Only the areas, spaces, players, cards and resources the words mention
    are tried, and a Steward's shields and a King's or a sale's number are
    read from the words.
    """
    def named(keys: tuple[str, ...]) -> list[str]:
        return [key for key in keys if any(reading(WORDS, w, (key,)) for w in said)]

    areas = [*dict.fromkeys([*mentioned(said, state.board.areas), *placed(state, said, state.board.areas)])]
    ons = (None, *mentioned(said, state.players))
    cards = (None, *named((*tables.BUILD_CARDS, *tables.TOP_BUILD_CARDS)))
    resources = (None, *named(tables.RESOURCES))
    numbers = {n for n in map(number, said) if n is not None}
    turned = [shields for rest in after_word(WORDS, said, "steward")
              if (shields := read_shields(rest)) is not None]
    yield {"type": "end"}
    for player in state.players:
        for space in dict.fromkeys([*mentioned(said, state.board.spaces),
                                    *placed(state, said, state.board.spaces)]):
            yield {"type": "reveal", "player": player, "space": space}
            yield {"type": "reveal", "player": player, "space": space, "swap": True}
        yield from ({"type": "steward", "player": player, "shields": shields} for shields in turned)
        yield {"type": "guard", "player": player}
        for area, on, card, silver_for in itertools.product(areas, ons, cards, resources):
            build = {"type": "build", "player": player, "area": area, "on": on, "card": card,
                     "silver_for": silver_for}
            yield {key: value for key, value in build.items() if value is not None}
        yield from _play_shapes(state, player, areas, numbers)
        yield from ({"type": "sell", "player": player, "cards": n} for n in sorted(numbers) if n >= 1)


def placed(state: State, said: list[str], names: Iterable[str]) -> list[str]:
    """The spaces or areas among ``names`` whose row and column are both among the said numbers
    (``row 4, column 3``; the Hungarian ``4. sor`` too)."""
    numbers = {n for n in (number(w.rstrip(".")) for w in said) if n is not None}
    return [name for name in names if set(state.board.position(name)) <= numbers]


def _play_shapes(state: State, player: str, areas: list[str], numbers: set[int]) -> Iterator[dict[str, Any]]:
    """Each card ``player`` could play with each target the words allow (a King's value must be said)."""
    for card in tables.PLAY_CARDS:
        play = {"type": "play", "player": player, "card": card}
        if card == "king":
            yield from ({**play, "value": v} for v in tables.KING_VALUES if v in numbers)
        elif card == "traitor":
            yield from ({**play, "target": target} for target in state.players)
        elif card in ("peasant", "prince", "arsonist"):
            yield from ({**play, "area": area} for area in areas)
        else:
            yield play
