"""Statistics: per player and game (played, won, average, best), and one finished game's score
progression drawn as a chart with Kivy graphics (a line per player in their colour, with initials)."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.registry import GAMES, get_game
from companion.i18n import text
from companion.service.names import initials
from companion.service.stats import player_stats
from ui import theme
from ui.players import table_colours
from ui.screens import ShellScreen, column, row, scrolling_list
from ui.widgets import Tap, Words


def score_progression(session: Any) -> dict[str, list[int]]:
    """Each player's score after every move (the first entry: before the first move)."""
    game = session.game
    series: dict[str, list[int]] = {p: [] for p in session.players}
    for index in range(len(session.log) + 1):
        scores = {s.player: s.score for s in game.outcome(session.state_before(index)).standings}
        for player in session.players:
            series[player].append(scores.get(player, 0))
    return series


class ProgressionChart(Widget):
    """Lines of scores over the moves; redrawn whenever its size or data changes."""

    def __init__(self, series: dict[str, list[int]], colours: dict[str, Any], tags: dict[str, str],
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.series, self.colours, self.tags = series, colours, tags
        self.bind(pos=self.draw, size=self.draw)

    def draw(self, *_args: Any) -> None:
        self.canvas.clear()
        self.clear_widgets()
        longest = max((len(v) for v in self.series.values()), default=0)
        top = max((max(v) for v in self.series.values() if v), default=0) or 1
        left, bottom = self.x + 40, self.y + 8
        width, height = max(self.width - 90, 1), max(self.height - 16, 1)
        with self.canvas:
            Color(*theme.SURFACE)
            Rectangle(pos=(left, bottom), size=(width, height))
            Color(*theme.TEXT_QUIET)
            Line(points=[left, bottom + height, left, bottom, left + width, bottom], width=1.2)
            for player, values in self.series.items():
                if len(values) < 2:
                    continue
                step = width / (longest - 1)
                points = [coordinate for i, v in enumerate(values)
                          for coordinate in (left + i * step, bottom + height * v / top)]
                Color(*theme.TEXT)
                Line(points=points, width=3.2)  # an outline, so black and white markers both show
                Color(*theme.piece_colour(self.colours.get(player)))
                Line(points=points, width=2)
        self.add_widget(Label(text=str(top), font_size=theme.FONT_SMALL, color=theme.TEXT_QUIET,
                              pos=(self.x, bottom + height - 20), size=(36, 24)))
        self.add_widget(Label(text="0", font_size=theme.FONT_SMALL, color=theme.TEXT_QUIET,
                              pos=(self.x, bottom - 4), size=(36, 24)))
        placed: list[float] = []
        for player, values in self.series.items():
            if not values:
                continue
            y = bottom + height * values[-1] / top - 12
            while any(abs(y - other) < 22 for other in placed):
                y -= 22
            placed.append(y)
            self.add_widget(Label(text=f"{self.tags[player]} {values[-1]}", font_size=theme.FONT_SMALL,
                                  bold=True, color=theme.TEXT, pos=(left + width + 4, y), size=(46, 24)))


class StatsScreen(ShellScreen):
    """The table of every player's record, and a finished game's progression (step through them)."""

    def __init__(self, shell: Any, **kwargs: Any) -> None:
        super().__init__(shell, **kwargs)
        self.shown_game: int | None = None

    def redraw(self) -> None:
        self.clear_widgets()
        app = self.shell.table.app
        body = column()
        body.add_widget(self.home_row(text("ui.stats.title")))
        area = row(size_hint_y=1, height=0)
        view, grid = scrolling_list(columns=5)
        grid.cols_minimum = {0: 120, 1: 72, 2: 72, 3: 72, 4: 72}  # the longest Hungarian header fits
        stats = player_stats(app.store.results(), GAMES)
        current = None
        for entry in stats:
            if entry.game != current:
                current = entry.game
                grid.add_widget(Words(text=get_game(entry.game).title, bold=True, color=theme.ACCENT))
                for code in ("ui.stats.played", "ui.stats.won", "ui.stats.average", "ui.stats.best"):
                    grid.add_widget(Words(text=text(code), color=theme.TEXT_QUIET, halign="right"))
            grid.add_widget(Words(text=entry.player))
            for value in (entry.played, entry.won, f"{entry.average:.1f}", entry.best):
                grid.add_widget(Words(text=str(value), halign="right"))
        if not stats:
            grid.cols = 1
            grid.add_widget(Words(text=text("ui.stats.none")))
        area.add_widget(view)
        area.add_widget(self._progression())
        body.add_widget(area)
        self.add_widget(body)

    def _progression(self) -> Any:
        app = self.shell.table.app
        finished = [s for s in app.sessions() if s.is_finished]
        panel = column(padding=0, size_hint_x=None, width=320)
        if not finished:
            panel.add_widget(Words(text=text("ui.stats.no_chart")))
            return panel
        ids = [s.id for s in finished]
        if self.shown_game not in ids:
            self.shown_game = ids[0]
        at = ids.index(self.shown_game)
        stored = finished[at]
        steps = row()
        earlier = Tap(text=text("ui.stats.older"), disabled=at + 1 >= len(ids))
        earlier.bind(on_release=lambda *_: self._show(ids[at + 1]))
        later = Tap(text=text("ui.stats.newer"), disabled=at == 0)
        later.bind(on_release=lambda *_: self._show(ids[at - 1]))
        steps.add_widget(earlier)
        steps.add_widget(later)
        panel.add_widget(steps)
        panel.add_widget(Words(text=text("ui.stats.chart_title", game=get_game(stored.game).title,
                                         date=stored.started.astimezone().strftime("%Y-%m-%d"))))
        try:
            session = app.open_game(stored.id).session
        except Exception as error:  # a damaged game: say so, keep the screen
            panel.add_widget(Words(text=str(error)))
            return panel
        colours = table_colours(app, stored.game, stored.players, stored.setup)
        self.chart = ProgressionChart(score_progression(session), colours, initials(stored.players))
        panel.add_widget(self.chart)
        return panel

    def _show(self, session_id: int) -> None:
        self.shown_game = session_id
        self.redraw()
