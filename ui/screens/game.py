"""The game: the common bar (undo, redo, the turn strip, history, home) over the game's board.

A game whose board is not written yet (or failed to load) is played with the
move picker: the standings, the legal moves in the notation (from the
engine's ``legal_moves`` and ``describe``), and a field to type a move in the
notation, for moves with something observed at the table (a tile turned over).
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.base import RecordError
from companion.games.notation import NotationError
from companion.i18n import current_language, text
from companion.service.examples import session_example
from companion.service.names import initials
from companion.service.session import AnySession
from ui import theme, widgets  # noqa: F401  (widgets: the classes the rules name)
from ui.games import board_class  # (a module attribute: a test may put a board of its own)
from ui.players import table_colours
from ui.screens import ShellScreen, load_rules, show
from ui.shell_interface import ShellInterface
from ui.strip import BOARD_WORDS, PICKER_WORDS, strip_for

log = logging.getLogger(__name__)


def player_colours(shell: ShellInterface, session: AnySession) -> dict[str, str | None]:
    """Each player's colour, the same on every screen and board (:func:`ui.players.table_colours`)."""
    live = shell.table.live
    setup = live.row.setup if live is not None and live.session is session else None
    return table_colours(shell.table.app, session.game.name, session.players, setup)


def fitted_width(words: str) -> float:
    """A bar button's width for ``words``: as wide as they are (never broken inside a word), at least two
    touch targets, as :class:`~ui.widgets.BarTap` measures them when it is built with its words."""
    from kivy.core.text import Label as Measure

    measure = Measure(text=words, font_size=theme.FONT_SMALL)
    measure.refresh()
    return float(max(theme.TOUCH * 2, measure.texture.size[0] + theme.SPACING * 3))


class StandingRow(BoxLayout):
    """A player's line in the move picker's standings (layout: ``game.kv``); only its score changes."""

    initials = StringProperty("")
    swatch = ColorProperty(theme.NO_COLOUR)
    score = StringProperty("")


class GameScreen(ShellScreen):
    """The open game: the common bar and the board (or the move picker). Layout: ``game.kv``.

    The widgets are built once by the rule; a move sets the properties below and calls the board's
    ``refresh``. The board is built again only when another game is opened (or the language changes:
    a board may fix its words when it is built); the picker's standings rows are made for the
    players of the game.
    """

    #: Whether Undo and Redo may be tapped now.
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    #: The turn strip (:mod:`ui.strip`): the name at 36 px, the instruction, "next: …" when it helps,
    #: and the acting player's (or the winner's) initials and colour on its badge.
    strip_headline = StringProperty("")
    strip_sentence = StringProperty("")
    strip_next = StringProperty("")
    turn_initials = StringProperty("")
    turn_swatch = ColorProperty(theme.NO_COLOUR)
    #: The board's own words for a step being entered (a segment's orientation, the group a tower
    #: crowns): shown in place of the engine's instruction while the board has one (its ``step_text``).
    board_step = StringProperty("")
    #: The game is on an example board or layout, not the table's own: the bar's words for it, and
    #: the sentence its tap shows (how to enter the table's own).
    example_tag = StringProperty("")
    example_line = StringProperty("")
    #: The picker's "n moves so far" and the notation field's hint (an example move of the game).
    moves_so_far = StringProperty("")
    notation_hint = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        # the rule's ids are weak references: the widgets taken out now and then (the picker, the badge)
        # are held here
        ids = {name: proxy.__self__ for name, proxy in self.ids.items()}
        self.bar, self.picker = ids["bar"], ids["picker"]
        self.notation, self.move_list = ids["notation"], ids["moves"]
        self.undo_button, self.redo_button = ids["undo"], ids["redo"]
        self.turn_badge_box, self.turn_badge = ids["turn_badge_box"], ids["turn_badge"]
        self.strip_name, self.strip_words = ids["strip_name"], ids["strip_sentence"]
        self.example_button = ids["example_tag"]
        #: The game is over (the example's tag then gives the winner's name its room).
        self._over = False
        self.strip_name.bind(width=self._place_example_tag, text=self._place_example_tag)
        self.board: Any = None
        #: The picker's standings rows, one per player of the open game (in seating order).
        self.standing_rows: list[StandingRow] = []
        #: The game and language the board (or the picker) was set up for: the same ones only refresh.
        self._built_for: tuple[int, str] | None = None

    @staticmethod
    def bar_width(words: str) -> float:
        """For the rule: a bar button measured again whenever its words change (a language switch)."""
        return fitted_width(words)

    def refresh(self) -> None:
        live = self.shell.table.live
        if live is None:
            return
        session = live.session
        if self._built_for != (live.id, self.language):
            self._built_for = (live.id, self.language)
            self._set_up(session)
        self._over = session.game.is_finished(session.state)
        self._refresh_bar(session)
        self._place_example_tag()
        if self.board is not None:
            self.board.refresh()
        else:
            self._fill_picker(session)

    def _place_example_tag(self, *_: object) -> None:
        """The example board's tag in the bar while the game is played and the name of who acts still
        fits beside it: the name comes first (at the end the winner's; "Franziska-Luise" was cut
        beside the tag), and the console, the phone, status and the new-game screen say it too."""
        tag, name = self.example_button, self.strip_name
        wanted = bool(self.example_tag) and not self._over
        if wanted:
            room = name.width - (0 if tag.parent is not None else tag.width + self.bar.spacing)
            wanted = name.least_width() <= room
        if wanted != (tag.parent is not None):
            show(tag, wanted)

    def _set_up(self, session: AnySession) -> None:
        """Another game (or language): its board in place of the picker, or the picker set up for it."""
        if self.board is not None:
            self.ids.body.remove_widget(self.board)
            if "step_text" in self.board.properties():
                self.board.unbind(step_text=self.setter("board_step"))
            if "shown_part" in self.board.properties():
                self.board.unbind(shown_part=self._part_shown)
        self.board = None
        self.board_step = ""
        example = session_example(session)
        self.example_tag = "" if example is None else str(example.said["touchscreen.tag"])
        self.example_line = "" if example is None else str(example.said["touchscreen"])
        board = board_class(session.game.name)
        if board is not None:
            try:
                self.board = board(table=self.shell.table)
            except Exception:  # a broken board must not stop the game: the picker plays it
                log.exception("the %s board failed", session.game.name)
        show(self.picker, self.board is None)
        if self.board is not None:
            self.ids.body.add_widget(self.board)
            if "step_text" in self.board.properties():
                self.board.bind(step_text=self.setter("board_step"))
                self.board_step = self.board.step_text
            if "shown_part" in self.board.properties():  # another part shown (a round's group): its strip
                self.board.bind(shown_part=self._part_shown)
            return
        self._set_up_standings(session)
        self.notation.text = ""
        legal = session.game.legal_moves(session.state)
        self.notation_hint = (text("ui.picker.notation_hint",
                                   example=session.game.describe(session.state, legal[0], current_language()))
                              if legal else text("ui.picker.no_move_now"))

    def _part_shown(self, *_args: object) -> None:
        session = self.shell.table.session
        if session is not None:
            self._refresh_bar(session)

    # -- the common bar ------------------------------------------------------------
    def _refresh_bar(self, session: AnySession) -> None:
        self.can_undo = session.can_undo
        self.can_redo = session.can_redo
        words = BOARD_WORDS if self.board is not None else PICKER_WORDS
        own = getattr(self.board, "strip", None)  # a board showing one part of the game says it itself
        strip = own() if callable(own) else strip_for(session.game, session.state, words)
        self.strip_headline, self.strip_sentence, self.strip_next = strip.headline, strip.sentence, strip.next
        if strip.player is not None:
            self.turn_swatch = theme.piece_colour(player_colours(self.shell, session)[strip.player])
            self.turn_initials = initials(session.players)[strip.player]
        show(self.turn_badge_box, strip.player is not None)

    # -- the move picker ----------------------------------------------------------------
    def _set_up_standings(self, session: AnySession) -> None:
        """One standings row per player (rows of an earlier game reused, only the difference made)."""
        box = self.ids.standings
        while len(self.standing_rows) < len(session.players):
            self.standing_rows.append(StandingRow())
            box.add_widget(self.standing_rows[-1])
        while len(self.standing_rows) > len(session.players):
            box.remove_widget(self.standing_rows.pop())
        tags = initials(session.players)
        colours = player_colours(self.shell, session)
        for line, player in zip(self.standing_rows, session.players, strict=True):
            line.initials, line.swatch = tags[player], theme.piece_colour(colours[player])

    def _fill_picker(self, session: AnySession) -> None:
        """The scores and the legal moves: only texts change (a label drawn anew costs a text rendering),
        and the moves are a recycled list."""
        game, state = session.game, session.state
        scores = {s.player: s.score for s in game.outcome(state).standings}
        for line, player in zip(self.standing_rows, session.players, strict=True):
            line.score = str(scores.get(player, 0))
        self.moves_so_far = text("ui.picker.moves_so_far", count=len(session.log))
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


load_rules(__file__)
