"""The history: every move in the notation, newest first; tap one to change it.

Changing an old move shows the engine's verdict (``try_amend``) before
anything changes: the moves that could stand there, the verdict of the one
chosen, then a confirming tap; if a later move would no longer fit, the only
way on is a long press that changes it and drops the moves from that one on.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import RecordError
from companion.i18n import current_language, text
from companion.service.names import initials
from ui import theme
from ui.screens import ShellScreen, back_row, column, row, scrolling_list
from ui.screens.game import player_colours
from ui.widgets import LongTap, Tap, Words, badge


def history_lines(session: Any, language: str) -> list[tuple[int, str | None, str]]:
    """Each stored move as (index, its player or ``None``, the notation), in playing order."""
    game = session.game
    return [(index, game.actor(move),
             game.describe(session.state_before(index), game.move_to_json(move), language))
            for index, move in enumerate(session.log)]


class HistoryScreen(ShellScreen):
    """The log, and the amend panel for the entry tapped."""

    def __init__(self, shell: Any, **kwargs: Any) -> None:
        super().__init__(shell, **kwargs)
        self.amending: int | None = None
        self.replacement: Any = None
        self.verdict: Any = None

    def on_pre_enter(self, *args: Any) -> None:
        self.amending = self.replacement = self.verdict = None
        super().on_pre_enter(*args)

    def redraw(self) -> None:
        self.clear_widgets()
        session = self.shell.table.session
        if session is None:
            return
        if self.amending is not None and self.amending >= len(session.log):  # undone meanwhile
            self.amending = self.replacement = self.verdict = None
        body = column()
        body.add_widget(back_row(text("ui.common.back_to_game"), self.shell.show_start,
                                 text("ui.history.title", count=len(session.log)), width=4))
        area = row(size_hint_y=1, height=0)
        view, grid = scrolling_list()
        tags = initials(session.players)
        colours = player_colours(self.shell, session)
        language = current_language()
        for index, player, words in reversed(history_lines(session, language)):
            line = row()
            if player is not None and player in tags:
                line.add_widget(badge(tags[player], colours.get(player)))
            entry = Tap(text=text("ui.history.entry", number=index + 1, move=words),
                        accent=index == self.amending, halign="left")
            entry.bind(on_release=lambda _b, at=index: self.pick(at))
            line.add_widget(entry)
            grid.add_widget(line)
        if not session.log:
            grid.add_widget(Words(text=text("ui.history.empty")))
        area.add_widget(view)
        if self.amending is not None:
            area.add_widget(self._amend_panel(session))
        body.add_widget(area)
        self.add_widget(body)

    # -- amending ----------------------------------------------------------------------
    def pick(self, index: int) -> None:
        self.amending = None if self.amending == index else index
        self.replacement = self.verdict = None
        self.redraw()

    def _amend_panel(self, session: Any) -> Any:
        index = self.amending
        assert index is not None
        game = session.game
        before = session.state_before(index)
        language = current_language()
        panel = column(padding=0, size_hint_x=None, width=380)
        panel.add_widget(Words(text=text("ui.amend.title", number=index + 1)))
        view, grid = scrolling_list()
        current = game.move_to_json(session.log[index])
        for template in game.legal_moves(before):
            if template == current:
                continue
            try:
                move = game.parse_move(template)
            except RecordError:
                continue  # a move with something observed is changed by undoing to it
            choice = Tap(text=game.describe(before, template, language), size_hint_y=None, height=theme.TOUCH,
                         accent=move == self.replacement)
            choice.bind(on_release=lambda _b, chosen=move: self.consider(chosen))
            grid.add_widget(choice)
        panel.add_widget(view)
        if self.verdict is not None:
            if self.verdict.accepted:
                panel.add_widget(Words(text=text("ui.amend.fits")))
                confirm = Tap(text=text("ui.amend.confirm", number=index + 1), accent=True,
                              size_hint_y=None, height=theme.TOUCH)
                confirm.bind(on_release=lambda *_: self.confirm())
                panel.add_widget(confirm)
            else:
                panel.add_widget(Words(text=text("ui.amend.refused", reason=self.verdict.reason),
                                       color=theme.REFUSED))
                if self.verdict.conflict is not None:
                    drop = LongTap(text=text("ui.amend.drop_hold", number=self.verdict.conflict + 1),
                                   size_hint_y=None, height=theme.TOUCH * 1.5)
                    drop.bind(on_long_press=lambda *_: self.confirm(drop_later=True))
                    panel.add_widget(drop)
        return panel

    def consider(self, move: Any) -> None:
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
