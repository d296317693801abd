"""The Castelli board's overlays: the reveal pad, the evaluation overlay, an area's detail (with its
builds), and the picker for cards, selling and the Steward's re-turn.

Each is a :class:`CastelliOverlay` over the whole window, closed by its own
button (no tap outside needed). They show the engine's words (``str`` of its
messages) and its targets; a tap that is a move goes back to the board's
``propose``, and a refusal is written in the overlay itself (the shell's
banner lies under it) as well as announced by the table.

Their layout is in ``castelli.kv``. The board makes each overlay once and
keeps it; what one shows reaches it through its Kivy properties, and its
rows (evaluations, an area's lines and builds, a picker's players and
choices) are kept too: a list that grows gets only the rows it never had
(:func:`keep`), one that shrinks takes the extra rows out and keeps them
for later. Making widgets is what costs on the Pi, not changing their texts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from kivy.core.window import Window
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.games.castelli import tables
from companion.games.castelli.state import State
from companion.games.castelli.words import amount as unit
from companion.games.castelli.words import colour as colour_word
from companion.i18n import text as say
from ui.games.campanile.widgets import TapButton
from ui.games.castelli.drawing import SMALL_SHIELD_FIGURE, CastelliBoardView, Shown
from ui.games.castelli.tile import TileView
from ui.screens import show
from ui.theme import FONT_LARGE, FONT_SMALL, TEXT, TOUCH, piece_colour, text_on

W = TypeVar("W", bound=Widget)


class CastelliBoard(Protocol):
    """What the overlays ask of the board that opens them (the board imports this module)."""

    @property
    def language(self) -> str: ...

    @property
    def initials(self) -> dict[str, str]: ...

    @property
    def state(self) -> State: ...

    def enter_reveal(self, pad: RevealPad) -> bool: ...

    def enter_build(self, move: dict[str, Any], widget: Widget, overlay: CastelliOverlay) -> bool: ...

    def influence_in(self, area: str) -> dict[str, int]: ...

    def where(self, name: str) -> str: ...

    def label_of(self, area: str) -> str: ...

    def area_detail(self, area: str) -> dict[str, Any]: ...

    def close_overlay(self) -> bool: ...

    def shown_now(self) -> Shown | None: ...


def strong(widget: Widget) -> Any:
    """The widget a rule's id names, itself rather than the weak proxy ``ids`` holds: a widget the
    overlay takes off the screen for a while (a line with nothing to say now) is kept alive by
    this reference alone."""
    return widget.__self__


def keep(box: Widget, made: list[W], count: int, make: Callable[[], W], trailing: int = 0) -> list[W]:
    """The first ``count`` of the widgets ``made`` for ``box``, shown in order, the rest taken out.

    A widget is made only when more are wanted than were ever made (and is
    kept in ``made`` for later); ``trailing`` is how many of ``box``'s widgets
    come after these in its layout (they stay last).
    """
    while len(made) < count:
        made.append(make())
    children = box.children  # the widgets themselves (``box`` may be a rule's weak proxy)
    for widget in made[count:]:
        if widget in children:
            box.remove_widget(widget)
    for widget in made[:count]:
        if widget not in children:
            box.add_widget(widget, index=trailing)  # Kivy lays children out last-first: after the shown ones
    return made[:count]


class CastelliWords(Label):
    """A label wrapped to its width and as tall as its text (never cut); looks in ``castelli.kv``."""


class CastelliOverlayHead(BoxLayout):
    """An overlay's title and its Close (or Cancel) button; ``on_close`` when that is tapped."""

    title = StringProperty("")
    close_words = StringProperty("")
    __events__ = ("on_close",)

    def on_close(self) -> None:
        pass


class CastelliInfluence(BoxLayout):
    """A shield colour as a badge (the player's initials on it, or a dash for a neutral colour) and
    the influence it has."""

    tag = StringProperty("–")
    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    figure = StringProperty("")
    figure_size = NumericProperty(FONT_SMALL + 8)
    figure_width = NumericProperty(36)
    badge_size = ListProperty([44, 32])

    def show(self, colour: str, points: int, player: str | None, initials: dict[str, str]) -> None:
        fill = piece_colour(colour)
        self.tag = initials[player] if player else "–"
        self.fill, self.ink = list(fill), list(text_on(fill))
        self.figure = str(points)


def influence_figures(box: Widget, made: list[CastelliInfluence], influence: dict[str, int],
                      board: CastelliBoard, trailing: int, size: int, width: int,
                      badge: tuple[int, int] = (44, 32)) -> None:
    """Each colour's influence in ``box``, the figures ``size`` points, ``width`` px wide."""
    shown = keep(box, made, len(influence),
                 lambda: CastelliInfluence(figure_size=size, figure_width=width, badge_size=list(badge)),
                 trailing)
    by_colour = board.state.players_by_colour
    for figure, (colour, points) in zip(shown, influence.items(), strict=True):
        figure.show(colour, points, by_colour.get(colour), board.initials)


class CastelliOverlay(ModalView):
    """A full-window overlay with a title row (the title and Close) and a body below it; each kind's
    layout is its rule in ``castelli.kv``."""

    #: The language the rule's words are in (the board's: it is made again for another language).
    language = StringProperty("")
    title_text = StringProperty("")
    #: A refusal's words, written in the overlay (the banner lies under it).
    problem_text = StringProperty("")

    def __init__(self, board: CastelliBoard, **kwargs: object) -> None:
        self.board = board  # before the rule: its bindings name the board
        super().__init__(language=board.language, **kwargs)
        head = self.ids.head
        self.title: Label = head.ids.title
        self.close_button: TapButton = head.ids.close

    @property
    def problem(self) -> Label:
        """The label the refusal is written in."""
        label: Label = self.ids.problem
        return label

    def refused(self, reason: str) -> None:
        """Write a refusal's words in the overlay (the banner lies under it)."""
        self.problem_text = reason

    def refresh(self) -> None:
        """Redraw from the board's state (an overlay open while a move arrives from elsewhere)."""


# -- the reveal pad --------------------------------------------------------------------------------
class RevealPad(CastelliOverlay):
    """A face-down space's four shields entered in a few taps: per side a colour and a value.

    Sides go N, E, S, W; a side is done when it has both (in either order),
    then the next side comes. The colours not yet on the tile come first and
    the last one is filled in by itself; silver starts at 0. So a tile is
    7 taps, 8 with silver, and Confirm: at most 10 with the tap on the space.
    A tap on a side of the drawn tile goes back to it.

    One pad serves every reveal (:meth:`reset`); its buttons are made once,
    the colour buttons stay in their places and take the colour that goes
    there now (the colours not yet on the tile first).
    """

    space = StringProperty("")
    #: The space in words, where it lies on the drawn board (the title says it).
    place = StringProperty("")
    player = StringProperty("")
    #: What to enter next (a side, or that the tile is complete).
    prompt = StringProperty("")
    #: The tile is complete: Confirm is live.
    ready = BooleanProperty(False)
    #: The reveal swaps with the tile beside it (a variant's choice).
    swapping = BooleanProperty(False)

    def __init__(self, board: CastelliBoard, space: str, player: str, swap: bool, **kwargs: object) -> None:
        super().__init__(board, **kwargs)
        ids = self.ids
        self.tile: TileView = ids.tile
        self.confirm: TapButton = ids.confirm
        self.colour_row: BoxLayout = ids.colour_row
        self._swap_button: TapButton = strong(ids.swap)
        self.silver_buttons: dict[int, TapButton] = {}
        for amount in tables.TILE_SILVER:
            button = TapButton(text=str(amount), font_size=FONT_SMALL + 4, size_hint_x=None,
                               width=TOUCH)
            button.bind(on_release=lambda _w, n=amount: self.tap_silver(n))
            self.silver_buttons[amount] = button
            ids.silver_row.add_widget(button)
        #: The colour buttons in their places; :attr:`colour_buttons` says which colour each has now.
        self.colour_slots: list[TapButton] = []
        for _colour in tables.COLORS:
            slot = TapButton()
            slot.bind(on_release=lambda w: self.tap_colour(w.colour))
            self.colour_slots.append(slot)
            self.colour_row.add_widget(slot)
        self.colour_buttons: dict[str, TapButton] = {}
        self.value_buttons: dict[int | str, TapButton] = {}
        for value in (*tables.SHIELD_VALUES, tables.CARD_SHIELD):
            label = str(value) if isinstance(value, int) else say("ui.castelli.reveal.card")
            button = TapButton(text=label, font_size=FONT_LARGE if isinstance(value, int) else FONT_SMALL,
                               bold=True)
            button.bind(on_release=lambda _w, v=value: self.tap_value(v))
            self.value_buttons[value] = button
            ids.value_grid.add_widget(button)
        self.reset(space, player, swap)

    @property
    def swap_button(self) -> TapButton | None:
        """Swap, when this reveal may swap (else it is not shown)."""
        return self._swap_button if self._swap_button.parent is not None else None

    def reset(self, space: str, player: str, swap: bool = False) -> None:
        """Empty again, for ``player``'s tile on ``space`` (the board keeps one pad and reuses it)."""
        self.space = space
        self.place = self.board.where(space)
        self.player = player
        self.sides: list[list[Any]] = [[None, None] for _ in tables.SIDES]
        self.current = 0
        self.silver = 0
        self.swap = False
        self.problem_text = ""
        show(self._swap_button, swap)
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
            self.problem_text = say("ui.castelli.reveal.incomplete")
            return
        self.board.enter_reveal(self)

    def update(self) -> None:
        """The pad's properties and buttons set from what has been entered."""
        complete = self.complete()
        self.tile.show([tuple(s) for s in self.sides], None if complete else self.current, self.silver)
        side = tables.SIDES[self.current]
        colour, value = self.sides[self.current]
        self.prompt = say("ui.castelli.reveal.done") if complete else say(f"ui.castelli.reveal.side.{side}")
        used = self.used()
        # the colours not yet on the tile first, so that the one wanted is nearly always at hand
        order = [c for c in tables.COLORS if c not in used] + [c for c in tables.COLORS if c in used]
        self.colour_buttons = {}
        for slot, name in zip(self.colour_slots, order, strict=True):
            if getattr(slot, "colour", None) != name:
                slot.colour = name
                slot.text = str(colour_word(name))
                slot.band = list(piece_colour(name))
            slot.live = name not in used or name == colour
            slot.accent = name == colour
            self.colour_buttons[name] = slot
        for key, button in self.value_buttons.items():
            button.accent = value == key and type(value) is type(key)
        for amount, button in self.silver_buttons.items():
            button.accent = amount == self.silver
        self.swapping = self.swap
        self.ready = complete


# -- evaluations ------------------------------------------------------------------------------------
class EvaluationRow(BoxLayout):
    """One evaluated area: its name and kind, each colour's influence, the awards, the engine's why."""

    title = StringProperty("")
    awards = StringProperty("")
    explanation = StringProperty("")

    def __init__(self, board: CastelliBoard, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.board = board
        self.influence: dict[str, int] = {}
        self.why: Label = self.ids.why
        self._awards: Label = strong(self.ids.awards)
        self._figures: list[CastelliInfluence] = []

    def show(self, area: str, kind: str, influence: dict[str, int], awards: dict[str, dict[str, int]],
             explanation: str) -> None:
        board = self.board
        self.title = say("ui.castelli.area.name", area=board.label_of(area))
        self.influence = influence
        influence_figures(self.ids.head, self._figures, influence, board, 1, FONT_LARGE, 44, (48, 40))
        gains = [say("ui.castelli.evaluation.award", player=p, amount=str(unit(gain, count)))
                 for p, got in awards.items() for gain, count in got.items() if count]
        self.awards = "\n".join(gains) or say("ui.castelli.evaluation.nobody")
        self.explanation = explanation


class EvaluationOverlay(CastelliOverlay):
    """The evaluations a reveal set off (or all so far): influence per colour, the awards, ties explained."""

    def __init__(self, board: CastelliBoard, **kwargs: object) -> None:
        super().__init__(board, **kwargs)
        self.rows: BoxLayout = self.ids.rows
        self._none: Label = strong(self.ids.none)
        self._rows: list[EvaluationRow] = []
        #: The board drawn small beside the rows, the areas shown ringed.
        self.map: CastelliBoardView = self.ids.map
        self.map.least_figure, self.map.gift_figures = SMALL_SHIELD_FIGURE, False
        self.map.set_layout(board.state.board)
        # laid out now as it will be when open (the whole window), so the small board is drawn here at
        # its size, its figures' textures made, and not in the tap that first opens the overlay
        self.size, self.pos = Window.size, (0, 0)
        for widget in self.walk(restrict=True):  # parents first: each lays out its children
            if hasattr(widget, "do_layout"):
                widget.do_layout()
        self.map.prepare_figures()
        self.draw_map(())

    def show(self, title: str, items: Sequence[Any]) -> None:
        """``items``: evaluations and unevaluated notes of the state (each explained by the engine)."""
        self.title_text = title
        self.problem_text = ""
        show(self._none, not items)
        rows = keep(self.rows, self._rows, len(items), lambda: EvaluationRow(self.board))
        for row, item in zip(rows, items, strict=True):
            influence = dict(getattr(item, "influence", {}) or {})
            if not influence:
                influence = self.board.influence_in(item.area)
            awards = {p: dict(a) for p, a in (getattr(item, "awards", {}) or {}).items()}
            row.show(item.area, item.kind, influence, awards, str(item.explanation))
        self.draw_map([item.area for item in items])
        self.ids.scroll.scroll_y = 1

    def draw_map(self, areas: Sequence[str]) -> None:
        """The board as it lies now, with ``areas`` lit up (only the cells that changed are drawn)."""
        shown = self.board.shown_now()
        if shown is not None:
            self.map.show(replace(shown, live_spaces=frozenset(), live_areas=frozenset()))
            self.map.light(*areas)


# -- an area ----------------------------------------------------------------------------------------
class AreaDetail(CastelliOverlay):
    """An area: its kind and yield, the influence so far, the tiles still face down, "if it were scored
    now" (or how it was scored), its castles, and the builds the engine would accept there."""

    def __init__(self, board: CastelliBoard, area: str, **kwargs: object) -> None:
        super().__init__(board, **kwargs)
        self.area = area
        self.body: BoxLayout = self.ids.body
        self._nobody: Label = strong(self.ids.nobody)
        self._figures: list[CastelliInfluence] = []
        self._lines: list[CastelliWords] = []
        self._builds: list[TapButton] = []
        self.build_buttons: list[TapButton] = []
        self.refresh()

    def show(self, area: str) -> None:
        """Another area's detail (the board keeps one and reuses it)."""
        self.area = area
        self.problem_text = ""
        self.refresh()
        self.ids.scroll.scroll_y = 1

    def refresh(self) -> None:
        board, ids = self.board, self.ids
        detail = board.area_detail(self.area)
        self.title_text = detail["title"]
        influence = detail["influence"]
        show(self._nobody, not influence)
        influence_figures(ids.influence, self._figures, influence, board, 1 + (not influence), FONT_LARGE, 44)
        options = detail["builds"]
        self.build_buttons = keep(self.body, self._builds, len(options), self._build_button, 1)
        for button, option in zip(self.build_buttons, options, strict=True):
            button.text, button.live, button.accent = option["text"], option["live"], option["live"]
            button.option, button.move = option, option["move"]
        lines = keep(self.body, self._lines, len(detail["lines"]), CastelliWords, 1 + len(options))
        for label, (text, colour) in zip(lines, detail["lines"], strict=True):
            label.text, label.color = text, colour

    def _build_button(self) -> TapButton:
        button = TapButton(size_hint_y=None, height=56, font_size=FONT_SMALL)
        button.bind(on_release=lambda w: self.board.enter_build(w.move, w, self))
        return button


# -- pickers ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Choice:
    """One choice of a picker: its words (or a tile turned one way), the move it stands for (record
    JSON; kept on the button, for the tests to find it), whether it is live, and what a tap does."""

    text: str
    move: dict[str, Any] | None
    action: Callable[[Any], Any]
    live: bool = True
    shields: tuple[tuple[str, int | str], ...] = ()


@dataclass(frozen=True)
class PlayerChoices:
    """A player's row of a picker: their choices, ``per_line`` to a line of ``height`` px."""

    player: str
    choices: Sequence[Choice]
    per_line: int = 4
    height: int = 56


class CastelliPickerRow(BoxLayout):
    """One player's choices: their badge first, then the choices wrapped to lines."""

    tag = StringProperty("")
    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    per_line = NumericProperty(4)
    line_height = NumericProperty(56)
    lines = NumericProperty(1)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._buttons: list[TapButton] = []
        self._tiles: list[TileButton] = []
        self.shown: list[Any] = []

    def show(self, row: PlayerChoices, board: CastelliBoard) -> None:
        fill = piece_colour(board.state.colors[row.player])
        self.tag, self.fill, self.ink = board.initials[row.player], list(fill), list(text_on(fill))
        self.per_line, self.line_height = row.per_line, row.height
        self.lines = max(1, -(-len(row.choices) // row.per_line))
        grid, count = self.ids.grid, len(row.choices)
        tiles = any(c.shields for c in row.choices)
        if tiles:  # the Steward's turns; any other picker's rows are words
            keep(grid, self._buttons, 0, TapButton)
            self.shown = keep(grid, self._tiles, count, lambda: self._made(TileButton(accent=True)))
        else:
            keep(grid, self._tiles, 0, TileButton)
            self.shown = keep(grid, self._buttons, count, lambda: self._made(TapButton()))
        for widget, choice in zip(self.shown, row.choices, strict=True):
            widget.move, widget.action = choice.move, choice.action
            widget.live = choice.live
            if tiles:
                widget.show_shields(choice.shields)
            else:
                widget.text, widget.accent = choice.text, choice.live

    @staticmethod
    def _made(button: Any) -> Any:
        button.bind(on_release=lambda w: w.action(w))
        return button


class CastelliPicker(CastelliOverlay):
    """Rows of choices, one row per player (their badge first), each choice one tap; the board keeps
    one picker for its Card, Sell and Steward buttons."""

    def __init__(self, board: CastelliBoard, **kwargs: object) -> None:
        super().__init__(board, **kwargs)
        self.rows: BoxLayout = self.ids.rows
        self._rows: list[CastelliPickerRow] = []
        self.buttons: list[Any] = []

    def show(self, title: str, rows: Sequence[PlayerChoices]) -> None:
        self.title_text = title
        self.problem_text = ""
        shown = keep(self.rows, self._rows, len(rows), CastelliPickerRow, 1)
        self.buttons = []
        for widget, row in zip(shown, rows, strict=True):
            widget.show(row, self.board)
            self.buttons += widget.shown
        self.ids.scroll.scroll_y = 1


class TileButton(TapButton):
    """A button showing a tile turned one way (the Steward's choices); the tile is its rule's child."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.shields: tuple[tuple[str, int | str], ...] = ()
        self.tile: TileView = self.ids.tile

    def show_shields(self, shields: Sequence[tuple[str, int | str]]) -> None:
        self.shields = tuple(shields)
        self.tile.show(list(self.shields))

