"""The Campanile board on the touchscreen: five towers, their stacks, the scores, two taps a turn.

A turn is a tower's ``+1``/``+2``/``+3`` (the build), then the tower for the
marker, or straight on to the next player's build (no marker). Everything
the board offers is read off the engine: the enabled targets from
``legal_moves`` (through :func:`~companion.games.campanile.views.targets`),
the ranks and flags from ``standings``, the previews from ``preview``.
No rule is checked here: a tap proposes its move through the shared
:class:`~companion.service.table.Table`, and a tap on something dimmed proposes it
too, so that the engine's refusal says why (the shell shows it from the
table's ``refused`` event; the board flashes the widget and nothing changes).

The shell builds ``CampanileBoard(table=table)`` and calls :meth:`refresh`
on every table event; the board never subscribes on its own. The layout is
the rules in ``campanile.kv``; what a game has as many of as it has towers,
players or display cards is made once, when the board is, and a refresh only
sets properties (a stack adds a group row the first time it grows that tall;
the row under the scores moves its buttons in and out as it changes from the
display's cards to the refill question), so a tap costs no new widgets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, Line
from kivy.input.motionevent import MotionEvent
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.base import IllegalMove
from companion.games.campanile.moves import Build, Influence, Relocate
from companion.games.campanile.state import CampanileState
from companion.games.campanile.tables import DISPLAY_SIZE
from companion.games.campanile.views import Targets, markers_left, standings, targets
from companion.i18n import current_language
from companion.i18n import text as say
from companion.service.session import AnySession
from companion.service.table import Table
from ui.games.campanile.widgets import HoldButton, PieceBadge, TapButton, TowerHead, arrange, tower_colour
from ui.games.campanile.words import flag_text, kept_together, tower_name
from ui.players import initials, table_colours
from ui.screens import show
from ui.theme import BACKGROUND, TEXT, piece_colour, text_on

STORIES = (1, 2, 3)


class TowerColumn(BoxLayout):
    """One tower: its name and height (the marker target), rank and flag, stack, and the three builds.

    Its layout is the rule in ``campanile.kv``; :meth:`show` sets what changes. The stack keeps the
    group rows it has made and only adds or takes off the difference, before its spacer.
    """

    board = ObjectProperty(None, allownone=True)
    tower = StringProperty("")
    #: The tower style's colour, along the top of its head.
    band = ListProperty([0, 0, 0, 0])
    #: Lit up by :meth:`CampanileBoard.show_move`: the place of a recorded move (a two-tone frame).
    lit = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        ids = self.ids
        self.head: TowerHead = ids.head.__self__
        self.flag: Label = ids.flag.__self__
        self.stack: BoxLayout = ids.stack.__self__
        self.builds: dict[int, TapButton] = {stories: ids[f"build{stories}"].__self__ for stories in STORIES}
        #: The builds' column, taken out once the game is over (the board offers nothing then).
        self.build_column: BoxLayout = ids.build_column.__self__
        self._shown_stack: tuple[Any, ...] | None = None
        #: The lit frame's instructions while :attr:`lit` (none otherwise: even a see-through line is
        #: drawn every frame, and a wide one laid out again at every move of the column).
        self._frame: InstructionGroup | None = None
        #: Group rows made so far, reused from one refresh to the next (making widgets is what costs).
        self._rows: list[GroupRow] = []
        self._placed = 0
        self.stack.bind(size=self._fit_rows)

    def show(self, state: CampanileState, index: int, rank: int, flag: tuple[int, ...] | None,
             found: Targets, marker_live: bool) -> None:
        self.head.name_text = tower_name(self.tower)
        self.head.height_text = str(state.heights[index])
        self.head.live = marker_live
        # the rank and the flag each with its word ("rank 1 · flag 4/2"), as the phone says them
        self.flag.text = kept_together(say("ui.campanile.tower.rank", rank=rank, flag=flag_text(flag))
                                       if flag else say("ui.campanile.tower.no_flag", rank=rank))
        show(self.build_column, state.phase != "finished")
        building = self.tower in found.build_towers
        # Amber when building is the thing to do; while a marker may still come, the builds (the next
        # player's) stay bright but plain, and the towers that take the marker are ringed in amber.
        expected = building and not found.marker_towers and not found.relocations
        for button in self.builds.values():
            button.live = building
            button.accent = expected
        stack = tuple((g.player, g.markers) for g in state.stacks[index])
        if stack != self._shown_stack:
            self._shown_stack = stack
            self._place(len(stack))
            for row, (player, markers) in zip(self._rows, stack, strict=False):
                row.show(self.board, player, markers)
            self._fit_rows()  # a row's width follows its markers

    def on_lit(self, _column: object, lit: bool) -> None:
        """The lit frame: a light line with a dark one inside, seen against the background and every
        tower colour alike; drawn only while lit."""
        if lit and self._frame is None:
            self._frame = InstructionGroup()
            self.canvas.after.add(self._frame)
            self.bind(pos=self._draw_frame, size=self._draw_frame)
            self._draw_frame()
        elif not lit and self._frame is not None:
            self.unbind(pos=self._draw_frame, size=self._draw_frame)
            self.canvas.after.remove(self._frame)
            self._frame = None

    def _draw_frame(self, *_args: object) -> None:
        if self._frame is None:
            return
        x, y, width, height = self.x, self.y, self.width, self.height
        self._frame.clear()
        outer = Line(rounded_rectangle=(x - 3, y - 3, width + 6, height + 6, 8), width=3)
        inner = Line(rounded_rectangle=(x + 1, y + 1, width - 2, height - 2, 6), width=1.5)
        for instruction in (Color(*TEXT), outer, Color(*BACKGROUND), inner):
            self._frame.add(instruction)

    def _place(self, count: int) -> None:
        """``count`` group rows in the stack, base first, above the spacer: only the difference is added
        (a row made once, when a stack is taller than it ever was) or taken off."""
        while len(self._rows) < count:
            self._rows.append(GroupRow())
        while self._placed < count:
            self.stack.add_widget(self._rows[self._placed])  # last in the flow: the stack's top
            self._placed += 1
        while self._placed > count:
            self._placed -= 1
            self.stack.remove_widget(self._rows[self._placed])
        self._fit_rows()

    def _fit_rows(self, *_: object) -> None:
        """A row for each group, as wide as the stack, while they fit one under another; else two to
        a line, each as wide as its badge and markers and as tall as the room allows (five groups
        under a three-line flag, Hungarian, drew the top row over the flag)."""
        rows = self._rows[:self._placed]
        if not rows:
            return
        gap = float(self.stack.spacing[1])  # a StackLayout's spacing: horizontal, vertical
        if len(rows) * (GroupRow.FULL + gap) - gap <= self.stack.height:
            for row in rows:
                row.fit(self.stack.width, GroupRow.FULL)
            return
        for row in rows:
            row.fit(None, GroupRow.LEAST)  # as wide as its badge and markers
        lines, used = 1, 0.0
        for row in rows:  # the flow's lines, as the stack will make them
            if used and used + gap + row.width > self.stack.width:
                lines, used = lines + 1, 0.0
            used += (gap if used else 0.0) + row.width
        tall = max(GroupRow.LEAST, min(GroupRow.FULL, (self.stack.height - gap * (lines - 1)) / lines))
        for row in rows:
            row.fit(None, tall)


class GroupRow(BoxLayout):
    """One player's group under a tower: initials on the marker colour, then the markers, base first."""

    initials = StringProperty("")
    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    values = StringProperty("")
    #: A row's height when there is room, and the least (its markers' figures still whole).
    FULL = 28.0
    LEAST = 22.0

    def show(self, board: CampanileBoard, player: str, markers: tuple[int, ...]) -> None:
        fill = piece_colour(board.colours[player])
        self.initials = board.initials[player]
        self.fill = list(fill)
        self.ink = list(text_on(fill))
        self.values = "·".join(str(m) for m in markers)

    def fit(self, width: float | None, height: float) -> None:
        """The row's box in the stack's flow: ``width``, or (None) as wide as its badge and markers,
        which are then smaller (initials are a mark on a piece: 12 px at least)."""
        badge, values = self.ids["badge"], self.ids["values"]  # (ids.values is the dict's method)
        full = width is not None
        badge.size = (40 if full else 30, height)
        badge.font_size = 20 if full else 14
        if width is None:
            line = CoreLabel(text=self.values, font_size=values.font_size)
            line.refresh()
            width = badge.width + self.spacing + line.texture.size[0] + 2
        self.size = (width, height)


class PlayerScore(BoxLayout):
    """A player's initials, score (large) and markers left, ringed while it is their turn."""

    player = StringProperty("")
    initials = StringProperty("")
    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    score_text = StringProperty("")
    markers_text = StringProperty("")
    acting = BooleanProperty(False)
    #: The markers left of each value, for the chips shown when the labelled line does not fit.
    three = NumericProperty(0)
    two = NumericProperty(0)
    one = NumericProperty(0)
    #: Whether the cell is too narrow for the labelled line (then the chips show the markers).
    compact = BooleanProperty(False)

    def __init__(self, colour: str | None = None, **kwargs: object) -> None:
        fill = piece_colour(colour)
        super().__init__(fill=list(fill), ink=list(text_on(fill)), **kwargs)
        self.badge: PieceBadge = self.ids.badge.__self__
        self.score: Label = self.ids.score.__self__
        self.markers: Label = self.ids.markers.__self__
        #: The chips, in the cell in the line's place while :attr:`compact` (one of the two is shown).
        self.chips: BoxLayout = self.ids.chips.__self__
        self.remove_widget(self.chips)
        self.bind(width=self._fit_markers, markers_text=self._fit_markers)

    def show(self, score: int, left: Mapping[int, int], acting: bool) -> None:
        self.score_text = str(score)
        self.markers_text = kept_together(say("ui.campanile.player.markers", three=left[3], two=left[2],
                                              one=left[1]))
        self.three, self.two, self.one = left[3], left[2], left[1]
        self.acting = acting

    def _fit_markers(self, *_: object) -> None:
        """Chips when the labelled line would wrap: three lines of it took the score's room."""
        line = CoreLabel(text=self.markers_text, font_size=self.markers.font_size)
        line.refresh()
        compact = line.texture.size[0] > self.width
        if compact != self.compact:
            self.compact = compact
            self.remove_widget(self.chips if not compact else self.markers)
            self.add_widget(self.chips if compact else self.markers, index=0)  # under the score


class CampanileBoard(FloatLayout):
    """The Campanile game screen below the shell's bar; see the module's docstring.

    The layout is the rule in ``campanile.kv``; the columns, player cells and display cards (as many
    as the game has) are made once here, and :meth:`refresh` sets their properties.
    """

    #: The language of the board's words (set on every refresh: the rule's words follow it).
    language = StringProperty("")
    #: The message codes of the words that change with the game: the preview's, the 2-player move's.
    preview_code = StringProperty("ui.campanile.preview.intermezzo")
    relocate_code = StringProperty("ui.campanile.relocate")

    def __init__(self, table: Table, **kwargs: object) -> None:
        self.table = table
        session = self._session()
        state: CampanileState = session.state
        self.players = tuple(state.players)
        self.towers = tuple(state.rules.towers)
        # the same colours and initials as the shell's badges (ui/players.py decides for both)
        live = table.live
        self.colours: dict[str, str | None] = table_colours(
            table.app, "campanile", self.players, live.row.setup if live is not None else None)
        self.initials = initials(self.players)
        #: The 2-player relocation being entered: ``None``, or ``""`` (choose the tower it leaves),
        #: or the tower it leaves (choose where it goes).
        self.relocating: str | None = None
        #: The valuation screen while it is open (made once, then reused: see :meth:`open_valuation`).
        self.valuation_view: Any = None
        self._popup: Any = None
        super().__init__(language=current_language(), **kwargs)
        ids = self.ids
        self.columns = {tower: TowerColumn(board=self, tower=tower, band=list(tower_colour(tower)))
                        for tower in self.towers}
        for column in self.columns.values():
            ids.towers.add_widget(column)
        self.player_cells = {p: PlayerScore(self.colours[p], player=p, initials=self.initials[p])
                             for p in self.players}
        for cell in self.player_cells.values():
            ids.people.add_widget(cell)
        #: The display's cards, the refill question, the preview and the valuations (arranged by mode).
        # held strongly (the rule's ids are weak): a button out of the row while it has no meaning
        # must still be there when it has one again
        self.action_row: BoxLayout = ids.action_row.__self__
        self.preview_button: TapButton = ids.preview_button.__self__
        self.valuations_button: TapButton = ids.valuations_button.__self__
        self.relocate: TapButton = ids.relocate.__self__
        self.turned_over: Label = ids.turned_over.__self__
        #: The valuation cards, held to enter (rare, and they end a turn or the game).
        self.phase_buttons: dict[str, HoldButton] = {"intermezzo": ids.intermezzo.__self__,
                                                     "finito": ids.finito.__self__}
        self.card_column: BoxLayout = ids.card_column.__self__
        #: The towers lit up by :meth:`show_move`, and the log's length then (a move made puts them out).
        self.lit: tuple[str, ...] = ()
        self._lit_at = 0
        tracked = state.rules.tracks_display
        #: The display's cards (a tracked display only) and the styles asked for its refill, made once.
        self.card_buttons = [self._card_button(self.tap_take, 70, "") for _ in range(DISPLAY_SIZE)
                             ] if tracked else []
        self.refill_buttons = [self._card_button(self.tap_reveal, 80, tower) for tower in self.towers
                               ] if tracked else []
        self._actions_shown: tuple[Any, ...] | None = None
        self.refresh()

    def _card_button(self, tap: Callable[[str, Any], bool], width: int, card: str) -> TapButton:
        """A button standing for a tower style (its ``card``; a display card's is set when it is
        shown): a tap is ``tap(card, button)``."""
        button = TapButton(size_hint_x=None, width=width)
        button.card = card
        button.bind(on_release=lambda w: tap(w.card, w))
        return button

    # -- reading the table ---------------------------------------------------------------
    def _session(self) -> AnySession:
        session = self.table.session
        if session is None:
            raise ValueError("the Campanile board needs an open game at the table")
        return session

    @property
    def state(self) -> CampanileState:
        state: CampanileState = self._session().state
        return state

    def acting_player(self, state: CampanileState) -> str | None:
        """The player whose turn runs now (their marker, card), else None between turns."""
        turn = state.turn
        if turn is None or turn.ended or state.phase == "finished":
            return None
        return state.players[turn.player]

    def next_builder(self, state: CampanileState) -> str:
        turn = state.turn
        if turn is None:
            return state.players[0]
        return state.players[(turn.player + 1) % len(state.players)]

    # -- drawing -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Set every widget's properties from ``table.session`` (the shell calls this on every table
        event, and after a language switch)."""
        session = self.table.session
        if session is None:
            return
        self.language = current_language()
        if self.lit and len(session.log) != self._lit_at:
            self.unlight()
        state: CampanileState = session.state
        found = targets(state)
        if self.relocating is not None and not found.relocations:
            self.relocating = None
        marker_towers = set(found.marker_towers)
        if self.relocating == "":
            marker_towers = {source for source, _ in found.relocations}
        elif self.relocating:
            marker_towers = {to for source, to in found.relocations if source == self.relocating}
        ranks = {row.tower: row for row in standings(state)}
        for index, tower in enumerate(self.towers):
            row = ranks[tower]
            # the engine's flag for the valuation due next (the OLED and the phone show the same)
            self.columns[tower].show(state, index, row.rank, row.next_flag, found, tower in marker_towers)
        # Ringed: who the next tap is for - the acting player while a marker or card is still theirs
        # to enter, else the next builder.
        acting = self.acting_player(state)
        if not (found.marker_towers or found.relocations or found.cards or found.refill):
            acting = found.builder
        left = markers_left(state)
        scores = state.scores
        for player, cell in self.player_cells.items():
            cell.show(scores[player], left[player], player == acting)
        self._show_actions(state, found)
        if self.valuation_view is not None:
            self.valuation_view.refresh()

    def _show_actions(self, state: CampanileState, found: Targets) -> None:
        """The row under the scores: the display's cards (tap one to take it) or, once a card was
        taken, the styles to say which card refilled it; the preview, the valuations, the 2-player move.

        Its widgets are made once; a change of what the row asks only puts the ones it needs in it."""
        display = state.display if state.rules.tracks_display else ()
        over = state.phase == "finished"
        mode = (("refill",) if found.refill else ("cards", display, found.cards)) + (self.language, over)
        if mode != self._actions_shown:
            self._actions_shown = mode
            arrange(self.action_row, self._refill_question() if found.refill
                    else self._cards(display, found.cards, state.rules.two_player_move, over))
        phase = "intermezzo" if state.phase == "opening" else "finito"
        self.preview_code = f"ui.campanile.preview.{phase}"
        # Once the game is over the board offers nothing to do (the shell's strip names the winner):
        # no preview, no valuation card; the valuations made stay one tap away. The Intermezzo card,
        # once turned over, cannot come again: its button goes and Finito's takes the column.
        show(self.card_column, not over)
        show(self.phase_buttons["intermezzo"], state.phase == "opening")
        self.valuations_button.live = bool(state.valuations)
        self.valuations_button.accent = over
        for name, button in self.phase_buttons.items():
            button.live = name in found.valuations
        self.relocate.live = bool(found.relocations)
        self.relocate.accent = self.relocating is not None
        self.relocate_code = ("ui.campanile.relocate" if self.relocating is None
                              else "ui.campanile.relocate.from" if self.relocating == ""
                              else "ui.campanile.relocate.to")

    def _cards(self, display: tuple[str, ...], takeable: tuple[str, ...], two_player: bool,
               over: bool) -> list[Any]:
        """The display's cards (bright and ringed where one may be taken), then the buttons; once the
        game is over, only the valuations made."""
        if over:
            return [self.valuations_button]
        shown: list[Any] = []
        for button, card in zip(self.card_buttons, display, strict=False):
            button.card = card
            button.text = tower_name(card)
            button.band = list(tower_colour(card))
            button.live = button.accent = card in takeable
            shown.append(button)
        shown += [self.preview_button, self.valuations_button]
        return [*shown, self.relocate] if two_player else shown

    def _refill_question(self) -> list[Any]:
        """Which card was turned over to refill the display (observed at the table, not chosen)."""
        for button, tower in zip(self.refill_buttons, self.towers, strict=True):
            button.text = tower_name(tower)
            button.band = list(tower_colour(tower))
            button.live = button.accent = True
        return [self.turned_over, *self.refill_buttons]

    # -- taps ------------------------------------------------------------------------------------
    def propose(self, move: dict[str, Any], widget: Widget) -> bool:
        """Propose ``move`` (record JSON) as a touch; a refusal flashes ``widget`` and changes nothing."""
        session = self._session()
        try:
            self.table.propose(session.game.parse_move(move), "touch")
        except IllegalMove:
            widget.flash()
            return False
        return True

    def tap_build(self, tower: str, stories: int, widget: Widget) -> bool:
        """``+N`` under a tower: the next player's build (which also ends a turn without a marker)."""
        self.relocating = None
        player = targets(self.state).builder or self.next_builder(self.state)
        return self.propose({"type": "build", "player": player, "tower": tower, "stories": stories}, widget)

    def tap_marker(self, tower: str, widget: Widget) -> bool:
        """A tower's head: the turn's marker goes under it (or a relocation's end). Once the game is
        over a head is no target: nothing is proposed, nothing flashes."""
        state = self.state
        if state.phase == "finished":
            return False
        player = self.acting_player(state) or self.next_builder(state)
        if self.relocating == "":
            if not any(source == tower for source, _ in targets(state).relocations):
                widget.flash()
                return False
            self.relocating = tower
            self.refresh()
            return True
        if self.relocating:
            source, self.relocating = self.relocating, None
            done = self.propose({"type": "relocate", "player": player, "from": source, "to": tower}, widget)
            if not done:
                self.refresh()
            return done
        return self.propose({"type": "influence", "player": player, "tower": tower}, widget)

    def tap_relocate(self, widget: Widget) -> bool:
        """The 2-player rule: move a value-2 marker instead of placing one (then tap from, then to)."""
        if self.relocating is not None:
            self.relocating = None
        elif targets(self.state).relocations:
            self.relocating = ""
        else:
            state = self.state
            player = self.acting_player(state) or self.next_builder(state)
            source = self.towers[0]
            return self.propose({"type": "relocate", "player": player, "from": source,
                                 "to": self.towers[1]}, widget)
        self.refresh()
        return True

    def tap_take(self, card: str, widget: Widget) -> bool:
        state = self.state
        player = self.acting_player(state) or self.next_builder(state)
        return self.propose({"type": "take", "player": player, "card": card}, widget)

    def tap_reveal(self, card: str, widget: Widget) -> bool:
        return self.propose({"type": "reveal", "card": card}, widget)

    def hold_valuation(self, phase: str, widget: Widget) -> bool:
        """The Intermezzo or Finito card was turned over (a long press): value it and show the result."""
        if not self.propose({"type": "valuation", "phase": phase}, widget):
            return False
        self.open_valuation()
        return True

    def tap_valuations(self, widget: Widget) -> bool:
        """The valuations made so far (dimmed, and only flashing, before the first)."""
        if not self.state.valuations:
            widget.flash()
            return False
        self.open_valuation()
        return True

    def open_valuation(self, preview: bool = False) -> Any:
        """The valuation screen over the board: the last valuation made, or "if it came now"."""
        from ui.games.campanile.valuation import ValuationPopup

        preview = preview or not self.state.valuations
        if self._popup is None:
            self._popup = ValuationPopup(board=self, preview=preview)
        else:
            self._popup.choose(preview)
        if self.valuation_view is None:
            self._popup.open(animation=False)
        self.valuation_view = self._popup
        return self._popup

    def snapshot_extras(self, out: Path, settle: Callable[[], None]) -> list[Path]:
        """``valuation-1.png``…: the screen of each valuation so far, and before the end
        ``valuation-now.png``, "if the Intermezzo (or Finito) came now" (for ``companion snapshot``)."""
        state = self.state
        shown: list[tuple[int | None, str]] = [(index, f"valuation-{index + 1}.png")
                                               for index in range(len(state.valuations))]
        if state.phase != "finished":
            shown.append((None, "valuation-now.png"))
        popup = self.open_valuation(preview=True)
        written: list[Path] = []
        for index, name in shown:
            popup.content.show(index)
            settle()
            popup.export_to_png(str(out / name))
            written.append(out / name)
        self.close_valuation()
        return written

    def show_move(self, move: object) -> bool:
        """Light up where a recorded move happened (History's "show on board"): the tower it built or
        put a marker under, both towers of a 2-player move. The light stays until the next tap on the
        board or the next move. False, and nothing lit, for a move with no place on the board (a
        valuation card, a display card); ``move`` is the engine's move or its record JSON."""
        if isinstance(move, Mapping):
            move = self._session().game.parse_move(move)
        if isinstance(move, Build | Influence):
            towers: tuple[str, ...] = (move.tower,)
        elif isinstance(move, Relocate):
            towers = (move.source, move.target)
        else:
            return False
        if not set(towers) <= set(self.columns):
            return False
        self.lit, self._lit_at = towers, len(self._session().log)
        for tower, column in self.columns.items():
            column.lit = tower in towers
        return True

    def unlight(self) -> None:
        """Put out what :meth:`show_move` lit."""
        self.lit = ()
        for column in self.columns.values():
            column.lit = False

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.lit and self.collide_point(*touch.pos):
            self.unlight()  # the light lasts until the next tap; the tap itself does what it does
        return bool(super().on_touch_down(touch))

    def close_valuation(self) -> None:
        if self.valuation_view is not None:
            self.valuation_view.dismiss(animation=False)
            self.valuation_view = None
