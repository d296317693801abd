"""Colour-blind players tell the companion's colours apart, and every piece colour carries a second cue.

The colours the companion chooses (guild shades, area kinds, frame gifts, the
accents and the ring, the spare seat colours, the board editor's) stay
CIEDE2000 12 or more apart under simulated protanopia, deuteranopia and
tritanopia; the pieces' own colours keep the hue of their name; and wherever a
piece colour is drawn on the example records' screens, initials or a digit are
drawn with it (docs/ui.md, "Colours").
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from coloraide import Color

from tests.colour_vision import APART, VISIONS, difference, hue, seen, too_close
from tests.ui_kit import close_shell, open_shell, pump, walk
from ui import players, theme
from ui.games.campanile.widgets import TOWER_COLOURS
from ui.games.castelli import board_editor
from ui.games.castelli.drawing import GIFT_COLOURS, KIND_COLOURS
from ui.games.san_gimignano.widgets import GUILD_RGB

EXAMPLES = Path(__file__).parent / "data" / "examples"

#: Machado et al. (2009), severity 1.0, as published (linear RGB, rows of the matrix).
MACHADO = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
}

#: Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula": the 34 test pairs
#: (L*, a*, b* of each colour, and ΔE00 to four places).
SHARMA = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]

#: Where on the hue circle (CIE LCh, degrees) a piece colour's name puts it: a lightness shift may
#: help a colour-blind player, a hue shift would make the piece on screen another piece.
NAMED_HUES = {"red": (10, 45), "orange": (50, 75), "brown": (50, 80), "yellow": (75, 105),
              "green": (125, 165), "blue": (250, 300), "purple": (300, 335)}


def test_the_simulation_is_machados_at_full_severity_in_linear_rgb() -> None:
    for vision, rows in MACHADO.items():
        for column in range(3):
            unit = [1.0 if index == column else 0.0 for index in range(3)]
            linear = Color("srgb-linear", unit).filter(vision, 1.0, method="machado")
            assert linear[:3] == pytest.approx([row[column] for row in rows], abs=1e-6), vision
    grey = (0.5, 0.5, 0.5)
    for vision in VISIONS:  # neutral stays neutral: the rows of each matrix sum to 1
        assert seen(grey, vision).convert("srgb")[:3] == pytest.approx(grey, abs=2e-3)


def test_ciede2000_matches_sharmas_test_data() -> None:
    for first, second, expected in SHARMA:
        found = Color("lab-d65", list(first)).delta_e(Color("lab-d65", list(second)), method="2000")
        assert found == pytest.approx(expected, abs=1e-4), (first, second)


def chosen_palettes() -> dict[str, dict[str, Any]]:
    """What must be told apart, palette by palette (docs/ui.md): each with what it is drawn beside."""
    beside = {"ring": theme.ACCENT, "refused": theme.REFUSED, "background": theme.BACKGROUND}
    return {
        "accents": {"accent": theme.ACCENT, "refused": theme.REFUSED},
        "guild shades": {**GUILD_RGB, **beside},
        "area kinds": {**KIND_COLOURS, **beside},
        "frame gifts": {**GIFT_COLOURS, "background": theme.BACKGROUND},
        "spare seat colours": {name: theme.piece_colour(name) for name in players.SPARE_COLOURS},
        "editor's kinds": dict(board_editor.KIND_COLOURS),
        "editor's gifts": dict(board_editor.GIFT_COLOURS),
    }


@pytest.mark.parametrize("palette", list(chosen_palettes()))
def test_the_colours_the_companion_chooses_stay_apart_for_colour_blind_eyes(palette: str) -> None:
    assert too_close(chosen_palettes()[palette]) == []


def test_a_palette_too_close_for_a_deuteranope_is_caught() -> None:
    # the guild shades before issue 20: blue and purple differ for normal vision only
    before = {"blue": theme.rgb("#3c66ad"), "purple": theme.rgb("#7d51a3")}
    assert difference(before["blue"], before["purple"]) > APART
    assert [pair.split()[1] for pair in too_close(before)] == ["protan", "deutan"]


def test_marks_on_the_chosen_colours_read() -> None:
    """Digits on a guild space, figures on an area, the gift's figure: drawn in text_on(), 4.5:1."""
    for palette in (GUILD_RGB, KIND_COLOURS, GIFT_COLOURS):
        for name, colour in palette.items():
            assert theme.contrast(theme.text_on(colour), colour) >= 4.5, name


def test_the_pieces_keep_the_hue_of_their_name() -> None:
    pieces = {**{f"piece {n}": c for n, c in theme.PIECE_COLOURS.items()},
              **{f"tower {n}": c for n, c in TOWER_COLOURS.items()}}
    for label, colour in pieces.items():
        name = label.split()[1]
        chroma = Color("srgb", list(colour[:3])).convert("lch-d65")["chroma"]
        if name in ("black", "white", "grey"):
            assert chroma < 8, label
            continue
        low, high = NAMED_HUES[name]
        assert low <= hue(colour) <= high and not math.isnan(hue(colour)), label


PIECES = {tuple(round(c, 4) for c in colour) for colour in theme.PIECE_COLOURS.values()}


def piece_coloured(colour: Any) -> bool:
    return colour is not None and len(colour) >= 3 and tuple(round(c, 4) for c in list(colour)[:4]) in PIECES


def cued_widgets() -> Iterator[tuple[Any, Any]]:
    """Every widget on screen drawn in a piece colour, with that colour (badges, markers, swatches)."""
    for widget in walk():
        for attribute in ("swatch", "fill"):
            colour = getattr(widget, attribute, None)
            if piece_coloured(colour):
                yield widget, colour


def uncued(tags: set[str]) -> list[str]:
    """What is drawn in a piece colour on screen without its second cue (a badge: the initials)."""
    missing = []
    for widget, colour in cued_widgets():
        # a row in a player's colour passes it to the badge inside, which carries the initials
        words = next((w.text for w in walk(widget) if getattr(w, "text", "").strip()), "")
        if not words or (type(widget).__name__ in ("Badge", "PieceBadge") and words not in tags):
            missing.append(f"{type(widget).__name__} in {list(colour)} without a cue")
    return missing


def test_every_piece_colour_on_screen_carries_initials_or_a_digit(tmp_path: Path) -> None:
    shell = open_shell(tmp_path / "store.db")
    try:
        for example in ("campanile-3p", "castelli", "san-gimignano"):
            record = json.loads((EXAMPLES / f"{example}.json").read_text(encoding="utf-8"))
            table = shell.table
            table.open(table.app.open_game(table.app.import_record(record)))
            cues_on_the_screens(shell, record, example)
    finally:
        close_shell(shell)


def cues_on_the_screens(shell: Any, record: dict[str, Any], example: str) -> None:
    """On the game screen (and the history and game over): every widget in a piece colour carries
    initials (or a digit); San Gimignano's map has initials for every token and tower and a digit per
    guild."""
    tags = set(players.initials(record["players"]).values())
    seen_pieces = 0
    # the history and game over draw every game's players alike: one game's are enough (the suite's time)
    screens = ("game", "history", "over") if example == "campanile-3p" else ("game",)
    for screen in screens:
        shell.go(screen)
        pump(4)
        assert uncued(tags) == [], (example, screen)
        seen_pieces += len(list(cued_widgets()))
        if screen == "history":  # a badge that lost its initials is caught
            badge = next(w for w, _ in cued_widgets() if type(w).__name__ == "Badge")
            kept, badge.text = badge.text, ""
            assert uncued(tags) == [f"Badge in {list(badge.swatch)} without a cue"]
            badge.text = kept
    assert seen_pieces >= len(record["players"]), example  # the check looked at something
    board = getattr(shell.screens.get_screen("game"), "board", None)
    scene = getattr(getattr(board, "map", None), "scene", None)
    if scene is not None:
        owners = {o for stack in scene.tokens.values() for o in stack} | set(scene.towers.values())
        assert owners and all(scene.initials.get(owner) for owner in owners)
        guilds = {edge for edges in scene.segments.values() for edge in edges}
        digits = [scene.guild_tags.get(guild, "") for guild in guilds]
        assert all(digits) and len(set(digits)) == len(digits)
