"""Home (what to do: new game, rematch, resume, history, statistics, settings) and the list of
unfinished games to resume or abandon."""

from __future__ import annotations

from typing import Any

from companion.i18n import text
from companion.storage.store import SessionRow
from ui import theme
from ui.screens import ShellScreen, column, filler, row, scrolling_list
from ui.widgets import Figure, LongTap, Tap, Words


def game_title(game: str) -> str:
    from companion.games.registry import get_game

    return get_game(game).title


def describe_row(row_: SessionRow) -> str:
    """One line about a stored game: its title, players, moves and when it started."""
    return text("ui.session.line", game=game_title(row_.game), players=list(row_.players), count=row_.moves,
                started=row_.started.astimezone().strftime("%Y-%m-%d %H:%M"))


class HomeScreen(ShellScreen):
    """What the players can do between games (and during one: go back to it)."""

    def redraw(self) -> None:
        self.clear_widgets()
        app = self.shell.table.app
        body = column(padding=theme.SPACING * 2)
        body.add_widget(Figure(text=text("ui.home.title")))
        session = self.shell.table.session
        if session is not None and not session.game.is_finished(session.state):
            back = Tap(text=text("ui.home.back_to_game", game=session.game.title,
                                 players=list(session.players)), accent=True)
            back.bind(on_release=lambda *_: self.shell.go("game"))
            body.add_widget(back)
        new = Tap(text=text("ui.home.new_game"), accent=session is None, size_hint_y=None, height=72)
        new.bind(on_release=lambda *_: self.shell.go("new"))
        body.add_widget(new)
        live = self.shell.table.live
        if live is not None:
            rematch = Tap(text=text("ui.home.rematch", players=list(live.session.players)))
            rematch.bind(on_release=lambda *_: self.shell.attempt(self.shell.table.rematch))
            body.add_widget(rematch)
        waiting = app.unfinished()
        resume = Tap(text=text("ui.home.resume", count=len(waiting)), disabled=not waiting, size_hint_y=None,
                     height=72)
        resume.bind(on_release=lambda *_: self.shell.go("resume"))
        body.add_widget(resume)
        more = row()
        for label, target in (("ui.home.statistics", "stats"), ("ui.resolver.open", "resolver"),
                              ("ui.home.settings", "settings")):
            button = Tap(text=text(label))
            button.bind(on_release=lambda _b, screen=target: self.shell.go(screen))
            more.add_widget(button)
        body.add_widget(more)
        body.add_widget(filler())  # the rest of the height
        self.add_widget(body)


class ResumeScreen(ShellScreen):
    """The unfinished games, newest first: tap one to play on; hold to abandon it."""

    def redraw(self) -> None:
        self.clear_widgets()
        app = self.shell.table.app
        body = column()
        body.add_widget(self.home_row(text("ui.resume.title")))
        view, grid = scrolling_list(columns=2)
        grid.cols_minimum = {1: theme.TOUCH * 4}
        rows = app.unfinished()
        for stored in rows:
            play = Tap(text=describe_row(stored), size_hint_y=None, height=theme.TOUCH * 1.5)
            play.bind(on_release=lambda _b, sid=stored.id: self._resume(sid))
            grid.add_widget(play)
            drop = LongTap(text=text("ui.resume.abandon_hold"), size_hint=(None, None), width=theme.TOUCH * 4,
                           height=theme.TOUCH * 1.5)
            drop.bind(on_long_press=lambda _b, sid=stored.id: self._abandon(sid))
            grid.add_widget(drop)
        if not rows:
            grid.add_widget(Words(text=text("ui.resume.none")))
        for damaged, why in app.damaged_sessions.items():
            grid.add_widget(Words(text=text("ui.resume.damaged", session=damaged, reason=why)))
            grid.add_widget(filler())
        body.add_widget(view)
        self.add_widget(body)

    def _resume(self, session_id: int) -> None:
        self.shell.attempt(self.shell.table.resume, session_id)

    def _abandon(self, session_id: int) -> Any:
        live = self.shell.table.live
        if live is not None and live.id == session_id:
            self.shell.table.close()
        self.shell.attempt(self.shell.table.app.abandon, session_id)
        self.redraw()

