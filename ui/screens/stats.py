"""Statistics: per player and game (played, won, average, best), and one finished game's score
progression drawn as a chart with Kivy graphics (a line per player in their colour, with initials)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.i18n import decimal, text
from companion.registry import game_names, title
from companion.service.names import initials
from companion.service.session import AnySession
from companion.service.stats import PlayerStats, player_stats
from ui import theme
from ui.players import table_colours
from ui.screens import ShellScreen, load_rules, show
from ui.shell_interface import ShellInterface
from ui.widgets import Words


def score_progression(session: AnySession) -> dict[str, list[int]]:
    """Each player's score after every move (the first entry: before the first move)."""
    game = session.game
    series: dict[str, list[int]] = {p: [] for p in session.players}
    for index in range(len(session.log) + 1):
        scores = {s.player: s.score for s in game.outcome(session.state_before(index)).standings}
        for player in session.players:
            series[player].append(scores.get(player, 0))
    return series


class ProgressionChart(Widget):
    """Lines of scores over the moves; drawn again whenever its size or data changes."""

    #: Each player's score after every move, their piece colours and initials.
    series = DictProperty({})
    colours = DictProperty({})
    tags = DictProperty({})

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.draw, size=self.draw, series=self.draw)

    def draw(self, *_args: object) -> None:
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


#: The table's column headers after the player's name.
HEADERS = ("ui.stats.played", "ui.stats.won", "ui.stats.average", "ui.stats.best")


class StatsScreen(ShellScreen):
    """The table of every player's record, and a finished game's progression (step through them).

    Layout: ``stats.kv``. The table's cells are kept and their words changed
    (only added or taken off when the count changes); the chart is one widget
    whose data is set.
    """

    #: Whether any game is finished (the table has columns then, else one line saying none).
    has_stats = BooleanProperty(False)
    #: The stored games one step older and newer than the one charted (0: none).
    older = NumericProperty(0)
    newer = NumericProperty(0)
    chart_title = StringProperty("")
    #: Said instead of a chart (no finished game, a damaged one).
    note = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        self.shown_game: int | None = None
        self.cells: list[Words] = []
        self.chart: ProgressionChart = self.ids.chart

    def refresh(self) -> None:
        app = self.shell.table.app
        stats = player_stats(app.store.results(), game_names())
        self.has_stats = bool(stats)
        self._fill_table(self._table_cells(stats) if stats else [{"text": text("ui.stats.none")}])
        self._progression()

    @staticmethod
    def _table_cells(stats: Sequence[PlayerStats]) -> list[dict[str, Any]]:
        """The table's cells in reading order: a header row per game, then a row per player."""
        plain = {"bold": False, "color": theme.TEXT, "halign": "left"}
        cells: list[dict[str, Any]] = []
        current = None
        for entry in stats:
            if entry.game != current:
                current = entry.game
                cells.append({"text": title(entry.game), "bold": True, "color": theme.ACCENT,
                              "halign": "left"})
                cells += [{**plain, "text": text(code), "color": theme.TEXT_QUIET, "halign": "right"}
                          for code in HEADERS]
            cells.append({**plain, "text": entry.player})
            cells += [{**plain, "text": str(value), "halign": "right"}
                      for value in (entry.played, entry.won, decimal(entry.average), entry.best)]
        return cells

    def _fill_table(self, cells: list[dict[str, Any]]) -> None:
        """As many cells as words to show, each set to its words and looks."""
        grid = self.ids.table
        while len(self.cells) < len(cells):
            self.cells.append(Words())
            grid.add_widget(self.cells[-1])
        while len(self.cells) > len(cells):
            grid.remove_widget(self.cells.pop())
        plain = {"bold": False, "color": theme.TEXT, "halign": "left"}
        for cell, looks in zip(self.cells, cells, strict=True):
            for name, value in {**plain, **looks}.items():
                setattr(cell, name, value)

    def _progression(self) -> None:
        """The chart of the game stepped to (the newest first), with the steps to older and newer ones."""
        app = self.shell.table.app
        finished = [s for s in app.sessions() if s.is_finished]
        self.older = self.newer = 0
        self.chart_title = self.note = ""
        self.chart.series = {}
        if not finished:
            self.note = text("ui.stats.no_chart")
            self._show_parts(steps=False, chart=False)
            return
        ids = [s.id for s in finished]
        if self.shown_game not in ids:
            self.shown_game = ids[0]
        at = ids.index(self.shown_game)
        stored = finished[at]
        self.older = ids[at + 1] if at + 1 < len(ids) else 0
        self.newer = ids[at - 1] if at > 0 else 0
        self.chart_title = text("ui.stats.chart_title", game=title(stored.game),
                                date=stored.started.astimezone().strftime("%Y-%m-%d"))
        try:
            session = app.open_game(stored.id).session
        except Exception as error:  # a damaged game: say so, keep the screen
            self.note = str(error)
            self._show_parts(steps=True, chart=False)
            return
        self.chart.colours = table_colours(app, stored.game, stored.players, stored.setup)
        self.chart.tags = initials(stored.players)
        self.chart.series = score_progression(session)
        self._show_parts(steps=True, chart=True)

    def _show_parts(self, steps: bool, chart: bool) -> None:
        ids = self.ids
        show(ids.steps, steps)
        show(ids.chart_title, steps)
        show(ids.note, not chart)
        show(ids.chart, chart)

    def show_game(self, session_id: int) -> None:
        """Chart the stored game ``session_id`` (an older or newer one)."""
        self.shown_game = session_id
        self.redraw()


load_rules(__file__)
