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
on every table event; the board never subscribes on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.base import IllegalMove
from companion.games.campanile.state import CampanileState
from companion.games.campanile.views import Targets, markers_left, standings, targets
from companion.i18n import current_language
from companion.i18n import text as say
from companion.service.table import Table
from ui.games.campanile.widgets import HoldButton, PieceBadge, TapButton, TowerHead, tower_colour
from ui.games.campanile.words import flag_text, tower_name
from ui.players import initials, table_colours
from ui.theme import (
    FONT_LARGE,
    FONT_SMALL,
    SPACING,
    TEXT,
    TEXT_QUIET,
    TOUCH,
    piece_colour,
    text_on,
)

STORIES = (1, 2, 3)


class TowerColumn(BoxLayout):
    """One tower: its name and height (the marker target), rank and flag, stack, and the three builds."""

    def __init__(self, board: CampanileBoard, tower: str, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=4, **kwargs)
        self.board = board
        self.tower = tower
        self.head = TowerHead(size_hint_y=None, height=80, band=list(tower_colour(tower)))
        self.head.bind(on_release=lambda _w: board.tap_marker(tower, self.head))
        self.flag = Label(font_size=FONT_SMALL, size_hint_y=None, height=26, color=TEXT_QUIET)
        lower = BoxLayout(orientation="horizontal", spacing=4)
        self.stack = BoxLayout(orientation="vertical", spacing=4, size_hint_x=1)
        self.builds: dict[int, TapButton] = {}
        buttons = BoxLayout(orientation="vertical", spacing=SPACING, size_hint=(None, None),
                            width=TOUCH, height=3 * TOUCH + 2 * SPACING)
        for stories in STORIES:
            button = TapButton(text=f"+{stories}", font_size=FONT_SMALL + 4, bold=True,
                               size_hint=(None, None), size=(TOUCH, TOUCH))
            button.bind(on_release=lambda w, n=stories: board.tap_build(tower, n, w))
            buttons.add_widget(button)
            self.builds[stories] = button
        right = BoxLayout(orientation="vertical", size_hint_x=None, width=TOUCH)
        right.add_widget(buttons)
        right.add_widget(Widget())
        lower.add_widget(self.stack)
        lower.add_widget(right)
        self.add_widget(self.head)
        self.add_widget(self.flag)
        self.add_widget(lower)
        self._shown_stack: tuple[Any, ...] | None = None
        #: Group rows made so far, reused from one refresh to the next (making widgets is what costs).
        self._rows: list[GroupRow] = []
        self._spacer = Widget()

    def show(self, state: CampanileState, index: int, rank: int, flag: tuple[int, ...] | None,
             found: Targets, marker_live: bool) -> None:
        self.head.name_text = tower_name(self.tower)
        self.head.height_text = str(state.heights[index])
        self.head.live = marker_live
        self.flag.text = (say("ui.campanile.tower.rank", rank=rank, flag=flag_text(flag)) if flag
                          else say("ui.campanile.tower.no_flag", rank=rank))
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
            while len(self._rows) < len(stack):
                self._rows.append(GroupRow())
            for row, (player, markers) in zip(self._rows, stack, strict=False):
                row.show(self.board, player, markers)
            if len(self.stack.children) != len(stack) + 1:
                self.stack.clear_widgets()
                for row in self._rows[:len(stack)]:
                    self.stack.add_widget(row)
                self.stack.add_widget(self._spacer)


class GroupRow(BoxLayout):
    """One player's group under a tower: initials on the marker colour, then the markers, base first."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=4, size_hint_y=None, height=28, **kwargs)
        self.badge = PieceBadge()
        self.values = Label(font_size=FONT_SMALL, color=TEXT, halign="left", valign="middle")
        self.values.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self.badge)
        self.add_widget(self.values)

    def show(self, board: CampanileBoard, player: str, markers: tuple[int, ...]) -> None:
        fill = piece_colour(board.colours[player])
        self.badge.text = board.initials[player]
        self.badge.fill = list(fill)
        self.badge.ink = list(text_on(fill))
        self.values.text = "·".join(str(m) for m in markers)


class PlayerCell(BoxLayout):
    """A player's initials, score (large) and markers left, ringed while it is their turn."""

    def __init__(self, player: str, short: str, colour: str | None, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=0, **kwargs)
        top = BoxLayout(orientation="horizontal", spacing=6)
        fill = piece_colour(colour)
        self.badge = PieceBadge(text=short, fill=list(fill), ink=list(text_on(fill)),
                                pos_hint={"center_y": 0.5})
        self.score = Label(font_size=FONT_LARGE, bold=True, color=TEXT, halign="left", valign="middle")
        self.score.bind(size=lambda w, s: setattr(w, "text_size", s))
        top.add_widget(self.badge)
        top.add_widget(self.score)
        self.markers = Label(font_size=FONT_SMALL, color=TEXT_QUIET, size_hint_y=None, height=22,
                             halign="left", valign="middle")
        self.markers.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(top)
        self.add_widget(self.markers)
        self.player = player

    def show(self, score: int, left: Mapping[int, int], acting: bool) -> None:
        self.score.text = str(score)
        self.markers.text = say("ui.campanile.player.markers", three=left[3], two=left[2], one=left[1])
        self.badge.acting = acting


class CampanileBoard(FloatLayout):
    """The Campanile game screen below the shell's bar; see the module's docstring."""

    def __init__(self, table: Table, **kwargs: Any) -> None:
        super().__init__(**kwargs)
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

        body = BoxLayout(orientation="vertical", spacing=SPACING, padding=(SPACING, SPACING),
                         size_hint=(1, 1), pos_hint={"x": 0, "y": 0})
        row = BoxLayout(orientation="horizontal", spacing=SPACING)
        self.columns = {tower: TowerColumn(self, tower) for tower in self.towers}
        for column in self.columns.values():
            row.add_widget(column)
        body.add_widget(row)

        self.player_cells = {p: PlayerCell(p, self.initials[p], self.colours[p]) for p in self.players}
        people = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=64)
        for cell in self.player_cells.values():
            people.add_widget(cell)
        #: The display's cards, the refill question, the preview and the valuations (rebuilt by mode).
        self.action_row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=56)
        left = BoxLayout(orientation="vertical", spacing=SPACING)
        left.add_widget(people)
        left.add_widget(self.action_row)
        self.relocate = TapButton(size_hint_x=None, width=130)
        self.relocate.bind(on_release=lambda w: self.tap_relocate(w))
        self.preview_button = TapButton()
        self.preview_button.bind(on_release=lambda _w: self.open_valuation(preview=True))
        self.valuations_button = TapButton(size_hint_x=None, width=140)
        self.valuations_button.bind(on_release=lambda w: self.tap_valuations(w))
        #: The valuation cards, held to enter (rare, and they end a turn or the game).
        cards = BoxLayout(orientation="vertical", spacing=SPACING, size_hint_x=None, width=150)
        self.phase_buttons: dict[str, HoldButton] = {}
        for phase in ("intermezzo", "finito"):
            button = HoldButton()
            button.bind(on_long_press=lambda w, p=phase: self.hold_valuation(p, w))
            self.phase_buttons[phase] = button
            cards.add_widget(button)
        bottom = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None,
                           height=64 + 56 + SPACING)
        bottom.add_widget(left)
        bottom.add_widget(cards)
        body.add_widget(bottom)
        self.add_widget(body)
        self._actions_shown: tuple[Any, ...] | None = None
        self.refresh()

    # -- reading the table ---------------------------------------------------------------
    def _session(self) -> Any:
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
        """Redraw everything from ``table.session`` (the shell calls this on every table event)."""
        session = self.table.session
        if session is None:
            return
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
            flag = row.intermezzo_flag if state.phase == "opening" else row.finito_flag
            self.columns[tower].show(state, index, row.rank, flag, found, tower in marker_towers)
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
        taken, the styles to say which card refilled it; the preview, the valuations, the 2-player move."""
        tracked = state.rules.tracks_display
        mode = (("refill",) if found.refill else ("cards", state.display if tracked else (), found.cards)
                ) + (current_language(),)
        if mode != self._actions_shown:
            self._actions_shown = mode
            self.action_row.clear_widgets()
            if found.refill:
                self._refill_question()
            else:
                for card in mode[1]:
                    button = TapButton(text=tower_name(card), band=list(tower_colour(card)),
                                       live=card in found.cards, accent=card in found.cards,
                                       size_hint_x=None, width=70)
                    button.card = card
                    button.bind(on_release=lambda w, c=card: self.tap_take(c, w))
                    self.action_row.add_widget(button)
                self.action_row.add_widget(self.preview_button)
                self.action_row.add_widget(self.valuations_button)
                if state.rules.two_player_move:
                    self.action_row.add_widget(self.relocate)
        phase = "intermezzo" if state.phase == "opening" else "finito"
        self.preview_button.text = say(f"ui.campanile.preview.{phase}")
        self.preview_button.live = state.phase != "finished"
        self.valuations_button.text = say("ui.campanile.valuations")
        self.valuations_button.live = bool(state.valuations)
        for name, button in self.phase_buttons.items():
            button.text = say(f"ui.campanile.hold.{name}")
            button.live = name in found.valuations
        self.relocate.live = bool(found.relocations)
        self.relocate.accent = self.relocating is not None
        self.relocate.text = say("ui.campanile.relocate" if self.relocating is None
                                 else "ui.campanile.relocate.from" if self.relocating == ""
                                 else "ui.campanile.relocate.to")

    def _refill_question(self) -> None:
        """Which card was turned over to refill the display (observed at the table, not chosen)."""
        self.action_row.add_widget(Label(text=say("ui.campanile.display.turned_over"), font_size=FONT_SMALL,
                                         color=TEXT, size_hint_x=None, width=150, halign="right",
                                         valign="middle", text_size=(150, 56)))
        for tower in self.towers:
            button = TapButton(text=tower_name(tower), band=list(tower_colour(tower)), live=True,
                               accent=True, size_hint_x=None, width=80)
            button.card = tower
            button.bind(on_release=lambda w, t=tower: self.tap_reveal(t, w))
            self.action_row.add_widget(button)

    # -- taps ------------------------------------------------------------------------------------
    def propose(self, move: dict[str, Any], widget: Any) -> bool:
        """Propose ``move`` (record JSON) as a touch; a refusal flashes ``widget`` and changes nothing."""
        session = self._session()
        try:
            self.table.propose(session.game.parse_move(move), "touch")
        except IllegalMove:
            widget.flash()
            return False
        return True

    def tap_build(self, tower: str, stories: int, widget: Any) -> bool:
        """``+N`` under a tower: the next player's build (which also ends a turn without a marker)."""
        self.relocating = None
        player = targets(self.state).builder or self.next_builder(self.state)
        return self.propose({"type": "build", "player": player, "tower": tower, "stories": stories}, widget)

    def tap_marker(self, tower: str, widget: Any) -> bool:
        """A tower's head: the turn's marker goes under it (or a relocation's end)."""
        state = self.state
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

    def tap_relocate(self, widget: Any) -> bool:
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

    def tap_take(self, card: str, widget: Any) -> bool:
        state = self.state
        player = self.acting_player(state) or self.next_builder(state)
        return self.propose({"type": "take", "player": player, "card": card}, widget)

    def tap_reveal(self, card: str, widget: Any) -> bool:
        return self.propose({"type": "reveal", "card": card}, widget)

    def hold_valuation(self, phase: str, widget: Any) -> bool:
        """The Intermezzo or Finito card was turned over (a long press): value it and show the result."""
        if not self.propose({"type": "valuation", "phase": phase}, widget):
            return False
        self.open_valuation()
        return True

    def tap_valuations(self, widget: Any) -> bool:
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
        """``valuation-1.png``…: the screen of each valuation so far (for ``companion snapshot``)."""
        written: list[Path] = []
        if not self.state.valuations:
            return written
        popup = self.open_valuation()
        for index in range(len(self.state.valuations)):
            popup.content.show(index)
            settle()
            path = out / f"valuation-{index + 1}.png"
            popup.export_to_png(str(path))
            written.append(path)
        self.close_valuation()
        return written

    def close_valuation(self) -> None:
        if self.valuation_view is not None:
            self.valuation_view.dismiss(animation=False)
            self.valuation_view = None
