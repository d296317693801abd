"""Home (what to do: new game, rematch, resume, history, statistics, settings) and the list of
unfinished games to resume or abandon."""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import text
from companion.registry import title
from companion.storage.store import SessionRow
from ui import widgets  # noqa: F401  (the classes the rules name)
from ui.games import tools
from ui.screens import ShellScreen, fill_tools, load_rules, show
from ui.screens.follow import served_url


def game_title(game: str) -> str:
    """What players call ``game`` (marked as not installed when its package is gone)."""
    return title(game)


def describe_row(row_: SessionRow) -> str:
    """One line about a stored game: its title, players, moves and when it started."""
    return text("ui.session.line", game=game_title(row_.game), players=list(row_.players), count=row_.moves,
                started=row_.started.astimezone().strftime("%Y-%m-%d %H:%M"))


class HomeScreen(ShellScreen):
    """What the players can do between games (and during one: go back to it). Layout: ``home.kv``."""

    #: "Back to the game" while one is open and not over ("": no such button now).
    back_text = StringProperty("")
    #: "Rematch" with the last game's players ("": none to rematch).
    rematch_text = StringProperty("")
    #: "Resume (n)".
    resume_text = StringProperty("")
    #: Whether a game is open (then "New game" is not the accent), and whether any waits to be resumed.
    playing = BooleanProperty(False)
    waiting = BooleanProperty(False)

    def refresh(self) -> None:
        table = self.shell.table
        session = table.session
        self.playing = session is not None
        in_progress = session is not None and not session.game.is_finished(session.state)
        self.back_text = (text("ui.home.back_to_game", game=session.game.title, players=list(session.players))
                          if session is not None and in_progress else "")
        live = table.live
        # Rematch only once a game is over: in mid-game it would start another over the one being played
        finished = live is not None and live.session.game.is_finished(live.session.state)
        self.rematch_text = (text("ui.home.rematch", players=list(live.session.players))
                             if live is not None and finished else "")
        waiting = table.app.unfinished()
        self.waiting = bool(waiting)
        self.resume_text = text("ui.home.resume", count=len(waiting))
        show(self.ids.back, bool(self.back_text))
        show(self.ids.rematch, bool(self.rematch_text))
        show(self.ids.follow, served_url(table.app) is not None)
        # a game's own tools (the area resolver) only between games or during that game
        offered = [tool for game, tool in tools("home")
                   if session is None or not in_progress or session.game.name == game]
        fill_tools(self.ids.tools, offered, self.shell.go)
        show(self.ids.tools, bool(offered))  # no empty place between Statistics and Settings


class ResumeRow(BoxLayout):
    """One unfinished game of the list: tap to play on, hold to abandon (a recycled row)."""

    screen = ObjectProperty(None, allownone=True)
    session_id = NumericProperty(0)
    line = StringProperty("")
    language = StringProperty("")


class ResumeScreen(ShellScreen):
    """The unfinished games, newest first: tap one to play on; hold to abandon it. Layout: ``home.kv``."""

    #: What is said under the list: that there are none, and the games that cannot be opened.
    notes = StringProperty("")

    def refresh(self) -> None:
        app = self.shell.table.app
        rows = app.unfinished()
        self.ids.games.data = [{"screen": self, "session_id": stored.id, "line": describe_row(stored),
                                "language": self.language} for stored in rows]
        notes = [] if rows else [text("ui.resume.none")]
        notes += [text("ui.resume.damaged", session=damaged, reason=why)
                  for damaged, why in app.damaged_sessions.items()]
        self.notes = "\n".join(notes)
        show(self.ids.notes, bool(self.notes))

    def resume(self, session_id: int) -> None:
        self.shell.attempt(self.shell.table.resume, session_id)

    def abandon(self, session_id: int) -> None:
        live = self.shell.table.live
        if live is not None and live.id == session_id:
            self.shell.table.close()
        self.shell.attempt(self.shell.table.app.abandon, session_id)
        self.redraw()


load_rules(__file__)
