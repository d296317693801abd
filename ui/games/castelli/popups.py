"""The Castelli board's overlays: the reveal pad, the evaluation overlay, an area's detail (with its
builds), and the pickers for cards, selling and the Steward's re-turn.

Each is a :class:`Overlay` over the whole window, closed by its own button (no
tap outside needed). They show the engine's words (``str`` of its messages)
and its targets; a tap that is a move goes back to the board's ``propose``,
and a refusal is written in the overlay itself (the shell's banner lies
under it) as well as announced by the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.games.castelli import tables
from companion.games.castelli.state import State
from companion.games.castelli.words import amount as unit
from companion.games.castelli.words import colour as colour_word
from companion.games.castelli.words import kind as kind_word
from companion.i18n import text as say
from ui.games.campanile.widgets import PieceBadge, TapButton
from ui.games.castelli.tile import TileView
from ui.theme import (
    BACKGROUND,
    FONT_LARGE,
    FONT_SMALL,
    REFUSED,
    SPACING,
    TEXT,
    TEXT_QUIET,
    TOUCH,
    piece_colour,
    text_on,
)


class CastelliBoard(Protocol):
    """What the overlays ask of the board that opens them (the board imports this module)."""

    @property
    def initials(self) -> dict[str, str]: ...

    @property
    def state(self) -> State: ...

    def enter_reveal(self, pad: RevealPad) -> bool: ...

    def enter_build(self, move: dict[str, Any], widget: Any, overlay: Overlay) -> bool: ...

    def influence_in(self, area: str) -> dict[str, int]: ...

    def area_detail(self, area: str) -> dict[str, Any]: ...

    def close_overlay(self) -> bool: ...


def words(text: str = "", size: int = FONT_SMALL, colour: Any = TEXT, **kwargs: Any) -> Label:
    """A label wrapped to its width and as tall as its text (never cut)."""
    label = Label(text=text, font_size=size, color=colour, halign="left", valign="middle",
                  size_hint_y=None, height=28, **kwargs)
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
               texture_size=lambda w, size: setattr(w, "height", max(size[1], 28)))
    return label


def colour_badge(colour: str, player: str | None, initials: dict[str, str]) -> PieceBadge:
    """A shield colour as a badge: the player's initials on it, or a dash for a neutral colour."""
    fill = piece_colour(colour)
    return PieceBadge(text=initials[player] if player else "–", fill=list(fill), ink=list(text_on(fill)),
                      size=(44, 32), pos_hint={"center_y": 0.5})


class Overlay(ModalView):
    """A full-window overlay with a title row (the title and Close) and a body below it."""

    def __init__(self, board: CastelliBoard, **kwargs: Any) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background_color=BACKGROUND,
                         overlay_color=(0, 0, 0, 0), **kwargs)
        self.board = board
        self.frame = BoxLayout(orientation="vertical", spacing=SPACING, padding=SPACING)
        self.title_row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=TOUCH)
        self.title = Label(font_size=FONT_SMALL + 6, bold=True, color=TEXT, halign="left", valign="middle")
        self.title.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.close_button = TapButton(text=say("ui.castelli.close"), size_hint_x=None, width=130)
        self.close_button.bind(on_release=lambda _w: self.board.close_overlay())
        self.title_row.add_widget(self.title)
        self.title_row.add_widget(self.close_button)
        self.problem = words("", FONT_SMALL, REFUSED)
        self.frame.add_widget(self.title_row)
        self.add_widget(self.frame)

    def refused(self, reason: str) -> None:
        """Write a refusal's words in the overlay (the banner lies under it)."""
        self.problem.text = reason

    def refresh(self) -> None:
        """Redraw from the board's state (an overlay open while a move arrives from elsewhere)."""


def scrolled(content: BoxLayout) -> ScrollView:
    content.size_hint_y = None
    content.bind(minimum_height=content.setter("height"))
    view = ScrollView(do_scroll_x=False, bar_width=8)
    view.add_widget(content)
    return view


# -- the reveal pad --------------------------------------------------------------------------------
class RevealPad(Overlay):
    """A face-down space's four shields entered in a few taps: per side a colour and a value.

    Sides go N, E, S, W; a side is done when it has both (in either order),
    then the next side comes. The colours not yet on the tile come first and
    the last one is filled in by itself; silver starts at 0. So a tile is
    7 taps, 8 with silver, and Confirm: at most 10 with the tap on the space.
    A tap on a side of the drawn tile goes back to it.
    """

    def __init__(self, board: CastelliBoard, space: str, player: str, swap: bool, **kwargs: Any) -> None:
        super().__init__(board, **kwargs)
        body = BoxLayout(orientation="horizontal", spacing=SPACING * 2)
        left = BoxLayout(orientation="vertical", spacing=SPACING, size_hint_x=None, width=260)
        self.tile = TileView(on_side=self.tap_side, size_hint=(None, None), size=(240, 240))
        left.add_widget(self.tile)
        silver_row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=TOUCH)
        self.silver_label = Label(text=say("ui.castelli.reveal.silver"), font_size=FONT_SMALL, color=TEXT,
                                  size_hint_x=None, width=92, halign="left", valign="middle")
        self.silver_label.bind(size=lambda w, s: setattr(w, "text_size", s))
        silver_row.add_widget(self.silver_label)
        self.silver_buttons: dict[int, TapButton] = {}
        for amount in tables.TILE_SILVER:
            button = TapButton(text=str(amount), font_size=FONT_SMALL + 4, size_hint_x=None, width=TOUCH)
            button.bind(on_release=lambda _w, n=amount: self.tap_silver(n))
            self.silver_buttons[amount] = button
            silver_row.add_widget(button)
        left.add_widget(silver_row)
        self.swap_button: TapButton | None = None
        if swap:
            self.swap_button = TapButton(text=say("ui.castelli.reveal.swap"), size_hint_y=None, height=TOUCH)
            self.swap_button.bind(on_release=lambda _w: self.tap_swap())
            left.add_widget(self.swap_button)
        left.add_widget(Widget())
        right = BoxLayout(orientation="vertical", spacing=SPACING)
        self.prompt = Label(font_size=FONT_SMALL, color=TEXT, halign="left", valign="middle",
                            size_hint_y=None, height=52)
        self.prompt.bind(size=lambda w, s: setattr(w, "text_size", s))
        right.add_widget(self.prompt)
        self.colour_row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=60)
        self.colour_buttons: dict[str, TapButton] = {}
        for colour in tables.COLORS:
            fill = piece_colour(colour)
            button = TapButton(text=str(colour_word(colour)), band=list(fill))
            button.colour = colour
            button.bind(on_release=lambda _w, c=colour: self.tap_colour(c))
            self.colour_buttons[colour] = button
        right.add_widget(self.colour_row)
        pad = GridLayout(cols=4, spacing=SPACING, size_hint_y=None, height=2 * 60 + SPACING)
        self.value_buttons: dict[int | str, TapButton] = {}
        for value in (*tables.SHIELD_VALUES, tables.CARD_SHIELD):
            label = str(value) if isinstance(value, int) else say("ui.castelli.reveal.card")
            button = TapButton(text=label, font_size=FONT_LARGE if isinstance(value, int) else FONT_SMALL,
                               bold=True)
            button.bind(on_release=lambda _w, v=value: self.tap_value(v))
            self.value_buttons[value] = button
            pad.add_widget(button)
        right.add_widget(pad)
        right.add_widget(self.problem)
        right.add_widget(Widget())
        self.confirm = TapButton(text=say("ui.castelli.reveal.confirm"), size_hint_y=None, height=56,
                                 font_size=FONT_SMALL + 4, bold=True)
        self.confirm.bind(on_release=lambda _w: self.tap_confirm())
        right.add_widget(self.confirm)
        body.add_widget(left)
        body.add_widget(right)
        self.frame.add_widget(body)
        self.close_button.text = say("ui.castelli.cancel")
        self.reset(space, player)

    def reset(self, space: str, player: str) -> None:
        """Empty again, for ``player``'s tile on ``space`` (the board keeps one pad and reuses it)."""
        self.space = space
        self.player = player
        self.sides: list[list[Any]] = [[None, None] for _ in tables.SIDES]
        self.current = 0
        self.silver = 0
        self.swap = False
        self.problem.text = ""
        self.title.text = say("ui.castelli.reveal.title", player=player, space=space)
        self.update()

    # -- what has been entered ------------------------------------------------------------------
    def used(self) -> list[str]:
        return [c for c, _ in self.sides if c is not None]

    def complete(self) -> bool:
        return all(c is not None and v is not None for c, v in self.sides)

    def _imply_last_colour(self) -> None:
        """Three colours entered: the fourth side's colour is the one left."""
        left = [c for c in tables.COLORS if c not in self.used()]
        empty = [i for i, (c, _) in enumerate(self.sides) if c is None]
        if len(left) == 1 and len(empty) == 1:
            self.sides[empty[0]][0] = left[0]

    def _advance(self) -> None:
        """On to the first side still missing something (after the current one), or stay when all are done."""
        for step in range(1, 5):
            index = (self.current + step) % 4
            colour, value = self.sides[index]
            if colour is None or value is None:
                self.current = index
                return

    def move(self) -> dict[str, Any]:
        """The reveal as record JSON (only when :meth:`complete`)."""
        move: dict[str, Any] = {"type": "reveal", "player": self.player, "space": self.space,
                                "shields": {side: list(entry) for side, entry in zip(tables.SIDES, self.sides,
                                                                                     strict=True)},
                                "silver": self.silver}
        if self.swap:
            move["swap"] = True
        return move

    # -- taps ---------------------------------------------------------------------------------------
    def tap_side(self, index: int) -> None:
        self.current = index
        self.update()

    def tap_colour(self, colour: str) -> None:
        holder = next((i for i, (c, _) in enumerate(self.sides) if c == colour), None)
        if holder is not None and holder != self.current:
            self.colour_buttons[colour].flash()  # each colour once per tile: on another side already
            return
        self.sides[self.current][0] = colour
        self._imply_last_colour()
        if self.sides[self.current][1] is not None:
            self._advance()
        self.update()

    def tap_value(self, value: int | str) -> None:
        self.sides[self.current][1] = value
        self._imply_last_colour()
        if self.sides[self.current][0] is not None:
            self._advance()
        self.update()

    def tap_silver(self, amount: int) -> None:
        self.silver = amount
        self.update()

    def tap_swap(self) -> None:
        self.swap = not self.swap
        self.update()

    def tap_confirm(self) -> None:
        if not self.complete():
            self.confirm.flash()
            self.problem.text = say("ui.castelli.reveal.incomplete")
            return
        self.board.enter_reveal(self)

    def update(self) -> None:
        self.tile.show([tuple(s) for s in self.sides], None if self.complete() else self.current, self.silver)
        side = tables.SIDES[self.current]
        colour, value = self.sides[self.current]
        self.prompt.text = (say("ui.castelli.reveal.done") if self.complete()
                            else say(f"ui.castelli.reveal.side.{side}"))
        used = self.used()
        # the colours not yet on the tile first, so that the one wanted is nearly always at hand
        order = [c for c in tables.COLORS if c not in used] + [c for c in tables.COLORS if c in used]
        self.colour_row.clear_widgets()
        for name in order:
            button = self.colour_buttons[name]
            button.live = name not in used or name == colour
            button.accent = name == colour
            self.colour_row.add_widget(button)
        for key, button in self.value_buttons.items():
            button.accent = value == key and type(value) is type(key)
        for amount, button in self.silver_buttons.items():
            button.accent = amount == self.silver
        if self.swap_button is not None:
            self.swap_button.accent = self.swap
        self.confirm.live = self.complete()
        self.confirm.accent = self.complete()


# -- evaluations ------------------------------------------------------------------------------------
class EvaluationRow(BoxLayout):
    """One evaluated area: its name and kind, each colour's influence, the awards, the engine's why."""

    def __init__(self, board: CastelliBoard, area: str, kind: str, influence: dict[str, int],
                 awards: dict[str, dict[str, int]], explanation: str, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=4, size_hint_y=None, **kwargs)
        self.bind(minimum_height=self.setter("height"))
        head = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=40)
        name = Label(text=say("ui.castelli.area.name", area=area, kind=kind_word(kind)), font_size=FONT_SMALL,
                     bold=True, color=TEXT, size_hint_x=None, width=220, halign="left", valign="middle")
        name.bind(size=lambda w, s: setattr(w, "text_size", s))
        head.add_widget(name)
        self.influence = influence
        by_colour = board.state.players_by_colour
        for colour, points in influence.items():
            head.add_widget(colour_badge(colour, by_colour.get(colour), board.initials))
            head.add_widget(Label(text=str(points), font_size=FONT_SMALL + 8, bold=True, color=TEXT,
                                  size_hint_x=None, width=36))
        head.add_widget(Widget())
        self.add_widget(head)
        if awards:
            gains = [say("ui.castelli.evaluation.award", initials=board.initials[p],
                         amount=str(unit(gain, count)))
                     for p, got in awards.items() for gain, count in got.items()]
            self.add_widget(words("   ".join(gains), FONT_SMALL + 2, TEXT, bold=True))
        self.why = words(explanation, FONT_SMALL, TEXT_QUIET)
        self.add_widget(self.why)


class EvaluationOverlay(Overlay):
    """The evaluations a reveal set off (or all so far): influence per colour, the awards, ties explained."""

    def __init__(self, board: CastelliBoard, **kwargs: Any) -> None:
        super().__init__(board, **kwargs)
        self.rows = BoxLayout(orientation="vertical", spacing=SPACING * 2, padding=(0, 0, 12, 0))
        self.frame.add_widget(scrolled(self.rows))

    def show(self, title: str, items: Sequence[Any]) -> None:
        """``items``: evaluations and unevaluated notes of the state (each explained by the engine)."""
        self.title.text = title
        self.problem.text = ""
        self.rows.clear_widgets()
        if not items:
            self.rows.add_widget(words(say("ui.castelli.evaluation.none"), FONT_SMALL, TEXT_QUIET))
        for item in items:
            influence = dict(getattr(item, "influence", {}) or {})
            if not influence:
                influence = self.board.influence_in(item.area)
            awards = {p: dict(a) for p, a in (getattr(item, "awards", {}) or {}).items()}
            self.rows.add_widget(EvaluationRow(self.board, item.area, item.kind, influence, awards,
                                               str(item.explanation)))


# -- an area ----------------------------------------------------------------------------------------
class AreaDetail(Overlay):
    """An area: its kind and yield, the influence so far, the tiles still face down, "if it were scored
    now" (or how it was scored), its castles, and the builds the engine would accept there."""

    def __init__(self, board: CastelliBoard, area: str, **kwargs: Any) -> None:
        super().__init__(board, **kwargs)
        self.area = area
        self.body = BoxLayout(orientation="vertical", spacing=SPACING)
        self.frame.add_widget(scrolled(self.body))
        self.build_buttons: list[TapButton] = []
        self.refresh()

    def show(self, area: str) -> None:
        """Another area's detail (the board keeps one and reuses it)."""
        self.area = area
        self.problem.text = ""
        self.refresh()

    def refresh(self) -> None:
        board, area = self.board, self.area
        detail = board.area_detail(area)
        self.title.text = detail["title"]
        self.body.clear_widgets()
        line = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=44)
        line.add_widget(Label(text=say("ui.castelli.area.influence"), font_size=FONT_SMALL, color=TEXT_QUIET,
                              size_hint_x=None, width=200, halign="left", valign="middle",
                              text_size=(200, 44)))
        by_colour = board.state.players_by_colour
        for colour, points in detail["influence"].items():
            line.add_widget(colour_badge(colour, by_colour.get(colour), board.initials))
            line.add_widget(Label(text=str(points), font_size=FONT_LARGE, bold=True, color=TEXT,
                                  size_hint_x=None, width=44))
        if not detail["influence"]:
            line.add_widget(Label(text="0", font_size=FONT_LARGE, bold=True, color=TEXT, size_hint_x=None,
                                  width=44))
        line.add_widget(Widget())
        self.body.add_widget(line)
        for text, colour in detail["lines"]:
            self.body.add_widget(words(text, FONT_SMALL, colour))
        self.build_buttons = []
        for option in detail["builds"]:
            button = TapButton(text=option["text"], live=option["live"], accent=option["live"],
                               size_hint_y=None, height=56, font_size=FONT_SMALL)
            button.option = option
            button.move = option["move"]
            button.bind(on_release=lambda w: self.board.enter_build(w.option["move"], w, self))
            self.build_buttons.append(button)
            self.body.add_widget(button)
        self.body.add_widget(self.problem)


# -- pickers ----------------------------------------------------------------------------------------
class Picker(Overlay):
    """Rows of choices, one row per player (their badge first), each choice one tap."""

    def __init__(self, board: CastelliBoard, title: str, **kwargs: Any) -> None:
        super().__init__(board, **kwargs)
        self.title.text = title
        self.rows = BoxLayout(orientation="vertical", spacing=SPACING, padding=(0, 0, 12, 0))
        self.frame.add_widget(scrolled(self.rows))
        self.buttons: list[Any] = []

    def player_row(self, player: str, choices: Sequence[tuple[Any, Callable[[Any], Any]]],
                   per_line: int = 4, height: int = 56) -> None:
        """``choices``: (widget, what a tap does) for ``player``; they wrap ``per_line`` to a line."""
        lines = max(1, -(-len(choices) // per_line))
        row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None,
                        height=lines * height + (lines - 1) * SPACING)
        colour = self.board.state.colors[player]
        fill = piece_colour(colour)
        row.add_widget(PieceBadge(text=self.board.initials[player], fill=list(fill), ink=list(text_on(fill)),
                                  size=(48, 40), pos_hint={"top": 1}))
        grid = GridLayout(cols=per_line, spacing=SPACING, row_force_default=True, row_default_height=height)
        for widget, action in choices:
            widget.bind(on_release=lambda w, act=action: act(w))
            grid.add_widget(widget)
            self.buttons.append(widget)
        row.add_widget(grid)
        self.rows.add_widget(row)

    def finish(self) -> None:
        self.rows.add_widget(self.problem)


class TileButton(TapButton):
    """A button showing a tile turned one way (the Steward's choices)."""

    def __init__(self, shields: Sequence[tuple[str, int | str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shields = tuple(shields)
        self.tile = TileView(size_hint=(None, None))
        self.add_widget(self.tile)
        self.bind(pos=self._place, size=self._place)
        self.tile.show(list(self.shields))

    def _place(self, *_args: Any) -> None:
        side = min(self.width, self.height) - 8
        self.tile.size = (side, side)
        self.tile.center = self.center
