"""The layout check (``companion snapshot --check``): each kind of problem planted once in a small
widget tree fails with its line, a clean tree (with what only looks like a problem) passes, the
text rules keep decimals and domains apart from ids and codes, and the snapshot runs the check on
every screen and board view it writes and on the OLED's pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.i18n.leaks import leaks
from tests.conftest import EXAMPLES
from ui import layout_check, theme
from ui.app import load_kv
from ui.drawn_text import remember
from ui.widgets import Badge, Figure, Tap, Words

load_kv()  # the shared widgets' looks (Words wraps to its width, Tap's size)
GREEN = theme.piece_colour("green")


def _at(widget: Widget, x: float, y: float, w: float, h: float) -> Widget:
    widget.size_hint = (None, None)
    widget.pos, widget.size = (x, y), (w, h)
    return widget


def _label(words: str, x: float, y: float, w: float, h: float, **options: Any) -> Label:
    options.setdefault("font_size", theme.FONT_SMALL)
    options.setdefault("color", theme.TEXT)
    return _at(Label(text=words, **options), x, y, w, h)  # type: ignore[return-value]


class _Piece(Widget):
    """A piece a board draws with its mark on the canvas (as the boards do, through the registry)."""

    def __init__(self, mark: str, size: int, fill: theme.Colour, ink: theme.Colour, **kwargs: Any) -> None:
        self.fill = fill
        super().__init__(**kwargs)
        core = CoreLabel(text=mark, font_size=size, bold=True, color=ink)
        core.refresh()
        self.texture = core.texture
        remember(self.texture, mark, size, ink)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        w, h = self.texture.size
        with self.canvas:
            Color(*self.fill)
            Rectangle(pos=self.pos, size=self.size)
            Color(1, 1, 1, 1)
            Rectangle(texture=self.texture, pos=(self.center_x - w / 2, self.center_y - h / 2), size=(w, h))


class _Stack(Widget):
    """Two marks a board draws over each other (a token on a token)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        textures = []
        for mark in ("Al", "Bo"):
            core = CoreLabel(text=mark, font_size=16, bold=True, color=theme.TEXT)
            core.refresh()
            remember(core.texture, mark, 16, theme.TEXT)
            textures.append(core.texture)
        with self.canvas:
            for shift, texture in zip((0, 4), textures, strict=True):
                Rectangle(texture=texture, pos=(700 + shift, 300 + shift), size=texture.size)


def _piece(mark: str, size: int, fill: theme.Colour, ink: theme.Colour, x: float, y: float) -> _Piece:
    return _at(_Piece(mark, size, fill, ink), x, y, 40, 40)  # type: ignore[return-value]


def _checked(*widgets: Widget) -> list[str]:
    """Show ``widgets`` on a plain background in the shared window and check it; the lines, in English."""
    root = FloatLayout(size=Window.size)
    with root.canvas.before:
        Color(*theme.BACKGROUND)
        Rectangle(pos=(0, 0), size=Window.size)
    for widget in widgets:
        root.add_widget(widget)
    shown = list(Window.children)
    for child in shown:
        Window.remove_widget(child)
    Window.add_widget(root)
    try:
        kit.pump(3)
        return [problem.line() for problem in layout_check.check_window("test.png", "en")]
    finally:
        Window.remove_widget(root)
        for child in reversed(shown):
            Window.add_widget(child)


def test_a_clean_tree_passes_and_what_only_looks_wrong_is_not_a_problem() -> None:
    scroll = _at(ScrollView(do_scroll_x=False), 400, 20, 300, 100)
    rows = BoxLayout(orientation="vertical", size_hint_y=None, height=300)
    for number in range(6):  # the lower rows lie partly or wholly under the view's edge
        rows.add_widget(Tap(text=f"row {number}", size_hint_y=None, height=50))
    scroll.add_widget(rows)
    words = Words(text="Albert: tap a ringed tower for your 2-marker, or undo the last move",
                  size_hint_x=None, width=330, pos=(10, 300))
    lines = _checked(
        words,
        _at(Figure(text="21"), 10, 200, 120, 60),
        _at(Tap(text="Undo"), 150, 200, 120, 60),
        _at(Badge(text="Al", swatch=GREEN, color=theme.text_on(GREEN)), 290, 200, 48, 48),
        _label("", 10, 140, 10, 10),                                    # blank: a place kept for a figure
        _label("s03 {count} ui.bar.undo", 10, 100, 5, 5, opacity=0),    # hidden
        _label("guild-2 moves=3", 10, 60, 100, 30, opacity=0),          # hidden by its opacity
        _at(Label(text="a label beside a button", font_size=theme.FONT_SMALL, color=theme.TEXT,
                  halign="left", valign="middle", text_size=(220, 60)), 420, 200, 220, 60),
        _at(Button(text="x", disabled=True, font_size=20), 10, 20, 30, 30),  # disabled: no target
        _label("Finito (hold)", 150, 20, 200, 40, color=theme.DIMMED),  # dimmed: cannot be done now
        _label("average 2.5 · 1,000 games · app.bgstats.com", 10, 420, 780, 40),
        _label("3:0 2:0 1:0", 10, 380, 200, 22, text_size=(200, 22)),  # only the line's leading is cut
        _piece("Al", 14, theme.piece_colour("blue"), theme.TEXT, 700, 200),
        scroll,
    )
    assert lines == [], '\n'.join(lines)


def test_each_planted_problem_fails_with_its_line() -> None:
    yellow = theme.piece_colour("yellow")
    lines = _checked(
        _label("a sentence much wider than its box", 10, 430, 80, 30),
        _label("a long explanation that wraps onto lines the box has no room for", 10, 380, 200, 30,
               text_size=(200, None)),
        _label("an explanation cut at the box's fixed height by its text_size", 220, 380, 200, 30,
               text_size=(200, 30)),
        _label("Kiértékelésnélküliség is", 430, 170, 90, 200, text_size=(90, None)),
        _label("12 345 678", 540, 170, 100, 200, font_size=theme.FONT_LARGE, text_size=(100, None)),
        _label("5 4 3 2 2 2 2 1 = 21", 650, 170, 100, 200, text_size=(100, None)),
        _label("small words", 10, 300, 200, 30, font_size=14),
        _label("gypsy jug", 220, 300, 200, 18, text_size=(200, 18), valign="middle"),  # descenders cut
        _label("quiet words", 10, 260, 200, 30, color=theme.rgb("#6e6e6e")),
        _label("off the edge", 740, 220, 200, 30),
        _label("ui.bar.undo", 10, 180, 200, 30),
        _label("{count} moves", 10, 140, 200, 30),
        _label("oled.turn.may(moves=3)", 220, 140, 300, 30),
        _label("build a13", 10, 100, 200, 30),
        _label("token 2,0 guild-2", 220, 100, 250, 30),
        _piece("Cy", 8, GREEN, theme.text_on(GREEN), 600, 20),
        _piece("4", 16, yellow, theme.TEXT, 660, 20),
        _Stack(),
        _at(Tap(text="+1"), 10, 20, 40, 40),
        _at(Button(text="Build", font_size=20), 100, 20, 100, 60),
        _at(Button(text="Pass", font_size=20), 180, 20, 100, 60),
        _label("Anna wins!", 300, 500, 200, 40),                       # wholly above the screen's top
        _label("under the left edge", -300, 300, 200, 30),             # wholly off the left edge
        _at(Button(text="Next", font_size=20), 300, 20, 100, 60),
        _label("a caption over Next", 370, 35, 200, 30),              # its first letters over the button
    )
    expected = [
        "test.png: “a sentence much wider than its box”: wider than its box",
        # its box is on the screen, its letters (centred on it) reach past the left edge
        "test.png: “a sentence much wider than its box”: partly outside the screen",
        "test.png: “a long explanation that wraps onto lines the box has no room for”: taller than its box",
        "test.png: “an explanation cut at the box's fixed height by its text_size”: cut: the whole",
        "test.png: “Kiértékelésnélküliség is”: a word broken across lines: Kiértékelésnélküliség",
        "test.png: “12 345 678”: a figure wrapped onto 3 lines",
        "test.png: “5 4 3 2 2 2 2 1 = 21”: a figure wrapped onto 2 lines",
        "test.png: “small words”: 14 px, below 20 px for a label or an explanation",
        "test.png: “gypsy jug”: cut: the whole text needs 24 px, 18 px are shown",
        "test.png: “quiet words”: contrast 3.6:1 against #12161c, below 7.0:1",
        "test.png: “off the edge”: partly outside the screen or its panel",
        "test.png: “ui.bar.undo”: a message code left unrendered: ui.bar.undo",
        "test.png: “{count} moves”: a placeholder left unfilled: {count}",
        "test.png: “oled.turn.may(moves=3)”: a message code left unrendered: oled.turn.may",
        "test.png: “oled.turn.may(moves=3)”: a parameter's name left in: moves=",
        "test.png: “build a13”: an internal id or coordinate where players need words: a13",
        "test.png: “token 2,0 guild-2”: an internal id or coordinate where players need words: 2,0",
        "test.png: “token 2,0 guild-2”: an internal id or coordinate where players need words: guild-2",
        "test.png: “Cy”: 8 px, below 12 px for a mark on a piece",
        "test.png: “4”: contrast 1.",
        "test.png: “Al”: drawn over “Bo”: one hides the other",
        "test.png: “+1”: a touch target of 40×40 px, below 48×48",
        "test.png: “Build”: a touch target overlapping “Pass”",
        "test.png: “Anna wins!”: wholly outside the screen: no player sees it",
        "test.png: “under the left edge”: wholly outside the screen",
        "test.png: “a caption over Next”: written over the touch target “Next”",
    ]
    for start in expected:
        assert sum(line.startswith(start) for line in lines) == 1, (start, "\n".join(lines))
    assert "against #f2c500, below 4.5:1" in next(line for line in lines if line.startswith("test.png: “4”"))
    assert len(lines) == len(expected), "\n".join(lines)


@pytest.mark.parametrize(("words", "language", "found"), [
    ("oled.turn.may(moves=3)", "en", ["oled.turn.may", "moves="]),
    ("{count} moves, {player!r}", "en", ["{count}", "{player!r}"]),
    ("reveal s03 · last evaluated: a20 · frame:3:N", "en", ["s03", "a20", "frame:3:N"]),
    ("token 2,0 guild-2 · 1,-1 · [1, 0]", "en", ["2,0", "guild-2", "1,-1", "1, 0"]),
    ("átlag 2,5 · bgstats.app · app.bgstats.com · 5 4 3 / 1 = 21 · a1 · as12b", "hu", []),
    ("1,000 games · 12,5", "en", ["12,5"]),
])
def test_the_text_rules_tell_ids_and_codes_from_words(words: str, language: str, found: list[str]) -> None:
    assert [leak.fragment for leak in leaks(words, language)] == found


def test_snapshot_check_names_each_screen_and_board_view(tmp_path: Path, monkeypatch) -> None:
    """The check runs on each screen asked for as it is written and on each of a board's views
    (here Campanile's valuations), each named by its file; the screens' own problems are the sweep's
    business (a planted problem stands for them here)."""
    from ui import snapshot

    def planted(screen: str, language: str | None = None) -> list[layout_check.Problem]:
        shown = [w for w in kit.walk() if isinstance(w, Label) and w.text.strip()]
        return [layout_check.Problem(screen, str(len(shown) > 0), "hardware.check.clipped")]

    monkeypatch.setattr(layout_check, "check_window", planted)
    record = json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8"))
    problems: list[str] = []
    written = snapshot.write_screens(record, tmp_path, "en", problems, only=("screen.png", "game-over.png"))
    names = [path.name for path in written]
    assert names[:3] == ["screen.png", "game-over.png", "valuation-1.png"]  # only those, and the board's
    assert all(name.startswith("valuation-") for name in names[2:])
    assert problems == [f"{name}: “True”: partly outside the screen or its panel" for name in names]


def test_snapshot_check_of_the_oled_fails_with_a_line_per_leak(tmp_path: Path, run_cli, monkeypatch) -> None:
    from hardware import snapshot
    from hardware.oled_render import Line, Page

    code, out, err = run_cli("snapshot", str(EXAMPLES / "castelli.json"), "--out", str(tmp_path),
                             "--only", "oled", "--check")
    assert (code, err) == (0, ""), out
    monkeypatch.setattr(snapshot, "status_pages", lambda game, state: [
        Page.of("Anna to play"), Page((Line("oled.turn.may(moves=3)"), Line("reveal s03")))])
    code, out, err = run_cli("snapshot", str(EXAMPLES / "castelli.json"), "--out", str(tmp_path),
                             "--only", "oled", "--check")
    assert (code, err) == (1, "")
    assert out.splitlines()[2:] == [
        "OLED page 2: “oled.turn.may(moves=3)”: a message code left unrendered: oled.turn.may",
        "OLED page 2: “oled.turn.may(moves=3)”: a parameter's name left in: moves=",
        "OLED page 2: “reveal s03”: an internal id or coordinate where players need words: s03"]
