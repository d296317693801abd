"""The game: the common bar (undo, redo, whose turn, history, home) over the game's board.

A game whose board is not written yet (or failed to load) is played with the
move picker: the standings, the legal moves in the notation (from the
engine's ``legal_moves`` and ``describe``), and a field to type a move in the
notation, for moves with something observed at the table (a Castelli tile).
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.uix.boxlayout import BoxLayout

from companion.games.base import RecordError
from companion.games.notation import NotationError
from companion.i18n import current_language, text
from companion.service.names import initials
from ui import theme
from ui.games import board_class
from ui.players import table_colours
from ui.screens import ShellScreen, column, filler, row, show
from ui.widgets import BarTap, Field, Figure, Tap, Words, badge


def turn_words(session: Any) -> str:
    """The banner: whose turn it is and who is next, from the engine's ``turn``."""
    game = session.game
    if game.is_finished(session.state):
        return text("ui.turn.over")
    turn = game.turn(session.state)
    tags = initials(session.players)
    acting = turn.acting
    if turn.player is None and turn.may:
        return text("ui.turn.table", next=turn.next or "")
    if acting is None:
        return text("ui.turn.over")
    if acting == turn.player and turn.next and turn.next != acting:
        return text("ui.turn.acting_next", player=acting, initials=tags[acting], next=turn.next)
    return text("ui.turn.acting", player=acting, initials=tags[acting])


def player_colours(shell: Any, session: Any) -> dict[str, str | None]:
    """Each player's colour, the same on every screen and board (:func:`ui.players.table_colours`)."""
    live = shell.table.live
    setup = live.row.setup if live is not None and live.session is session else None
    return table_colours(shell.table.app, session.game.name, session.players, setup)


class CommonBar(BoxLayout):
    """Undo and Redo always at the left, the turn banner, History and Home at the right."""


class GameScreen(ShellScreen):
    """The open game: the common bar and the board (or the move picker)."""

    def __init__(self, shell: Any, **kwargs: Any) -> None:
        super().__init__(shell, **kwargs)
        self.board: Any = None
        #: The game and language the widgets were built for: the same ones only redraw.
        self._built_for: tuple[int, str] | None = None

    def redraw(self) -> None:
        live = self.shell.table.live
        if live is None:
            return
        session = live.session
        if self._built_for == (live.id, current_language()) and self.children:
            self._redraw_bar(session)
            if self.board is not None:
                self.board.refresh()
            return
        self._built_for = (live.id, current_language())
        self.clear_widgets()
        body = column(padding=0, spacing=0)
        self.bar = self._bar()
        body.add_widget(self.bar)
        board = board_class(session.game.name)
        self.board = None
        if board is not None:
            try:
                self.board = board(table=self.shell.table)
            except Exception:  # a broken board must not stop the game: the picker plays it
                import logging

                logging.getLogger(__name__).exception("the %s board failed", session.game.name)
        if self.board is not None:
            body.add_widget(self.board)
            self.board.refresh()
        else:
            self.picker = self._picker(session)
            body.add_widget(self.picker)
        self.add_widget(body)
        self._redraw_bar(session)

    # -- the common bar ------------------------------------------------------------
    def _bar(self) -> BoxLayout:
        bar = row(height=theme.TOUCH + theme.SPACING * 2, padding=theme.SPACING)
        self.undo_button = BarTap(text=text("ui.bar.undo"))
        self.undo_button.bind(on_release=lambda *_: self.shell.command("undo"))
        self.redo_button = BarTap(text=text("ui.bar.redo"))
        self.redo_button.bind(on_release=lambda *_: self.shell.command("redo"))
        self.turn_badge_box = BoxLayout(size_hint_x=None, width=theme.TOUCH)
        self.turn_badge = badge("", None)  # one badge, its initials and colour set on each turn
        self.turn_badge_box.add_widget(self.turn_badge)
        self.turn_label = Words(text="", bold=True)
        history = BarTap(text=text("ui.bar.history"))
        history.bind(on_release=lambda *_: self.shell.command("history"))
        home = BarTap(text=text("ui.bar.home"))
        home.bind(on_release=lambda *_: self.shell.command("home"))
        for widget in (self.undo_button, self.redo_button, self.turn_badge_box, self.turn_label, history,
                       home):
            bar.add_widget(widget)
        return bar

    def _redraw_bar(self, session: Any) -> None:
        self.undo_button.disabled = not session.can_undo
        self.redo_button.disabled = not session.can_redo
        self.turn_label.text = turn_words(session)
        turn = session.game.turn(session.state)
        acting = turn.acting
        shown = acting is not None and not session.game.is_finished(session.state)
        if acting is not None and shown:
            fill = theme.piece_colour(player_colours(self.shell, session)[acting])
            self.turn_badge.text = initials(session.players)[acting]
            self.turn_badge.swatch, self.turn_badge.color = fill, theme.text_on(fill)
        show(self.turn_badge, shown)
        if self.board is None and self.children:
            self._fill_picker(session)

    # -- the move picker ----------------------------------------------------------------
    def _picker(self, session: Any) -> BoxLayout:
        area = row(size_hint_y=1, height=0, padding=theme.SPACING)
        self.standings = column(padding=0, size_hint_x=None, width=220)
        area.add_widget(self.standings)
        moves = column(padding=0)
        typing = row()
        legal = session.game.legal_moves(session.state)
        hint = (text("ui.picker.notation_hint",
                     example=session.game.describe(session.state, legal[0], current_language()))
                if legal else text("ui.picker.no_move_now"))
        self.notation = Field(hint_text=hint)
        self.notation.bind(on_text_validate=lambda *_: self.enter_notation())
        typing.add_widget(self.notation)
        enter = Tap(text=text("ui.picker.enter"), size_hint_x=None, width=theme.TOUCH * 2.5)
        enter.bind(on_release=lambda *_: self.enter_notation())
        typing.add_widget(enter)
        moves.add_widget(typing)
        self.move_list = Factory.MoveList()
        moves.add_widget(self.move_list)
        area.add_widget(moves)
        return area

    def _fill_picker(self, session: Any) -> None:
        """The standings and the legal moves; labels are built once per game and only their text changes
        (a label that is drawn anew costs a text rendering)."""
        game, state = session.game, session.state
        scores = {s.player: s.score for s in game.outcome(state).standings}
        if not self.standings.children:
            tags = initials(session.players)
            colours = player_colours(self.shell, session)
            self.scores = {}
            for player in session.players:
                line = row()
                line.add_widget(badge(tags[player], colours[player]))
                self.scores[player] = Figure(halign="left")
                line.add_widget(self.scores[player])
                self.standings.add_widget(line)
            self.moves_so_far = Words()
            self.standings.add_widget(self.moves_so_far)
            self.standings.add_widget(filler())
        for player, figure in self.scores.items():
            figure.text = str(scores.get(player, 0))
        self.moves_so_far.text = text("ui.picker.moves_so_far", count=len(session.log))
        language = current_language()
        self.move_list.data = [{"text": game.describe(state, template, language), "move": template,
                                "chooser": self.choose} for template in game.legal_moves(state)]

    def choose(self, template: dict[str, Any]) -> None:
        """A legal move tapped: enter it; one with something observed still open goes to the field.

        A row tapped after the game was closed (by a button, a panel, another
        screen) enters nothing.
        """
        session = self.shell.table.session
        if session is None:
            return
        try:
            move = session.game.parse_move(template)
        except RecordError:
            self.notation.text = session.game.describe(session.state, template, current_language()) + " "
            self.notation.focus = True
            self.shell.refuse(text("ui.picker.complete_it"))
            return
        self.shell.attempt(self.shell.table.propose, move, "touch")

    def enter_notation(self) -> None:
        """The move typed in the notation (any language, prefixes) entered; its refusal shown."""
        session = self.shell.table.session
        typed = self.notation.text.strip()
        if session is None or not typed:
            return
        try:
            data = session.game.parse_notation(session.state, typed, current_language())
            move = session.game.parse_move(data)
        except NotationError as error:
            self.shell.refuse(str(error))
            return
        except RecordError as error:
            self.shell.refuse(text("ui.picker.incomplete", reason=str(error)))
            return
        if self.shell.attempt(self.shell.table.propose, move, "touch") is not None:
            self.notation.text = ""
