"""The history: every move in the notation, newest first; tap one to see it on the board or change it.

A tap on an entry lights its place on the game's board (``board.show_move(move)``,
for the boards that have it: lit until the next tap on the board) and offers
"Show it on the board", which goes back to the game screen; a board that has
nothing to show for the move (a pass, or no ``show_move`` at all) is not offered.

Changing an old move shows the engine's verdict (``try_amend``) before
anything changes: the moves that could stand there, the verdict of the one
chosen, then a confirming tap; if a later move would no longer fit, the only
way on is a long press that changes it and drops the moves from that one on.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.base import RecordError
from companion.i18n import current_language, text
from companion.i18n.figures import keep_figures
from companion.service.move_words import move_words
from companion.service.names import initials
from companion.service.session import AnySession
from ui import theme
from ui.screens import ShellScreen, load_rules, show
from ui.screens.game import player_colours
from ui.shell_interface import ShellInterface
from ui.widgets import Tap


def history_lines(session: AnySession, language: str) -> list[tuple[int, str | None, str]]:
    """Each stored move as (index, its player or ``None``, the move in words: the notation with its
    record values, a card's ``robber-baron``, in the catalogue's words), in playing order."""
    game = session.game
    return [(index, game.actor(move),
             move_words(game, session.state_before(index), game.move_to_json(move), language))
            for index, move in enumerate(session.log)]


class HistoryRow(BoxLayout):
    """One stored move in the history (a recycled row, layout: ``history.kv``): tap it to change it."""

    screen = ObjectProperty(None, allownone=True)
    index = NumericProperty(0)
    #: Whose move it is (initials and colour of the badge), and whether it is a player's at all.
    initials = StringProperty("")
    swatch = ColorProperty(theme.NO_COLOUR)
    has_player = BooleanProperty(True)
    words = StringProperty("")
    #: The entry being amended.
    accent = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.badge = self.ids.badge.__self__  # held: the rule's ids are weak, and the badge goes out at times

    def on_has_player(self, _row: object, has: bool) -> None:
        show(self.badge, has)


class AmendChoice(Tap):
    """A move that could stand where the amended one is (a recycled row): tap to see its verdict."""

    screen = ObjectProperty(None, allownone=True)
    move = ObjectProperty(None, allownone=True)


class HistoryScreen(ShellScreen):
    """The log, and the amend panel for the entry tapped. Layout: ``history.kv``.

    The log and the panel's choices are recycled lists (only the rows on screen exist, reused as the
    log changes); the panel is built once and shown while an entry is tapped.
    """

    #: "History: n moves".
    title = StringProperty("")
    #: The amend panel's title, the verdict on the replacement chosen (refused or not), and the words
    #: of its confirming tap and of the long press that drops the later moves.
    amend_title = StringProperty("")
    verdict_text = StringProperty("")
    refused = BooleanProperty(False)
    confirm_text = StringProperty("")
    drop_text = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        self.amending: int | None = None
        #: Whether the board lit the entry tapped (then "Show it on the board" is offered).
        self.shows = False
        self.replacement: Any = None
        self.verdict: Any = None
        # held: the rule's ids are weak references, and these are taken out while they mean nothing
        self.parts = {name: proxy.__self__ for name, proxy in self.ids.items()}

    def on_pre_enter(self, *args: object) -> None:
        self.amending = self.replacement = self.verdict = None
        super().on_pre_enter(*args)

    def refresh(self) -> None:
        session = self.shell.table.session
        if session is None:
            return
        if self.amending is not None and self.amending >= len(session.log):  # undone meanwhile
            self.amending = self.replacement = self.verdict = None
            self.shows = False
        self.title = text("ui.history.title", count=len(session.log))
        tags = initials(session.players)
        colours = player_colours(self.shell, session)
        entries = []
        for index, player, words in reversed(history_lines(session, current_language())):
            mine = player if player is not None and player in tags else None
            entries.append({"screen": self, "index": index, "has_player": mine is not None,
                            "initials": tags[mine] if mine is not None else "",
                            "swatch": theme.piece_colour(colours.get(mine) if mine is not None else None),
                            "words": text("ui.history.entry", number=index + 1, move=keep_figures(words)),
                            "accent": index == self.amending})
        self.ids.entries.data = entries
        show(self.parts["empty"], not session.log)
        show(self.parts["amend"], self.amending is not None)
        show(self.parts["show"], self.amending is not None and self.shows)
        if self.amending is not None:
            self._amend_panel(session, self.amending)

    # -- amending ----------------------------------------------------------------------
    def pick(self, index: int) -> None:
        self.amending = None if self.amending == index else index
        self.replacement = self.verdict = None
        self.shows = self.amending is not None and self._show_move(self.amending)
        self.redraw()

    def _board(self) -> Any:
        """The game screen's board (``None`` while the game is played with the move picker)."""
        return getattr(self.shell.screens.get_screen("game"), "board", None)

    def _show_move(self, index: int) -> bool:
        """Light the move at ``index`` on the board; whether the board had a place to light."""
        session = self.shell.table.session
        show_move = getattr(self._board(), "show_move", None)
        if session is None or show_move is None or index >= len(session.log):
            return False
        return bool(show_move(session.log[index]))

    def show_on_board(self) -> None:
        """The game screen, the entry tapped lit on its board."""
        index = self.amending
        if index is None or not self._show_move(index):
            return
        self.amending = None
        self.shell.go("game")

    def _amend_panel(self, session: AnySession, index: int) -> None:
        """The moves that could stand at ``index`` and the verdict on the one chosen."""
        game = session.game
        before = session.state_before(index)
        language = current_language()
        self.amend_title = text("ui.amend.title", number=index + 1)
        current = game.move_to_json(session.log[index])
        choices = []
        for template in game.legal_moves(before):
            if template == current:
                continue
            try:
                move = game.parse_move(template)
            except RecordError:
                continue  # a move with something observed is changed by undoing to it
            choices.append({"screen": self, "move": move, "text": game.describe(before, template, language),
                            "accent": move == self.replacement})
        self.ids.choices.data = choices
        verdict = self.verdict
        accepted = verdict is not None and verdict.accepted
        self.refused = verdict is not None and not verdict.accepted
        self.verdict_text = ("" if verdict is None else text("ui.amend.fits") if accepted
                             else text("ui.amend.refused", reason=verdict.reason))
        self.confirm_text = text("ui.amend.confirm", number=index + 1)
        conflict = verdict.conflict if self.refused else None
        self.drop_text = "" if conflict is None else text("ui.amend.drop_hold", number=conflict + 1)
        show(self.parts["verdict"], verdict is not None)
        show(self.parts["confirm"], accepted)
        show(self.parts["drop"], conflict is not None)

    def consider(self, move: object) -> None:
        """Show what changing the move to ``move`` would do (nothing changes yet).

        A choice tapped after the game was closed or the move undone meanwhile
        considers nothing.
        """
        session = self.shell.table.session
        if session is None or self.amending is None or self.amending >= len(session.log):
            return
        self.replacement = move
        self.verdict = session.try_amend(self.amending, move)
        self.redraw()

    def confirm(self, drop_later: bool = False) -> None:
        session = self.shell.table.session
        index, move = self.amending, self.replacement
        if session is None or index is None or move is None:
            return
        action = session.amend_and_drop if drop_later else session.amend
        self.amending = self.replacement = self.verdict = None
        self.shell.attempt(action, index, move)
        self.redraw()


load_rules(__file__)
