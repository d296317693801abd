"""The Campanile valuation screen: every flag, the influence under it, who got what, and why.

Opened over the board after the Intermezzo or Finito card was entered, from
the board's "Valuations" button, or as the live preview "if the Intermezzo
came now" (recomputed from the engine's ``preview`` whenever the board
refreshes). One row per flagged tower, in the order the rulebook values them
(lowest flag first): the tower, its rank and flag, each group's influence in
stack order (base first), the awards as chips, and the engine's own
explanation of every tie. No award is computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.games.campanile.state import CampanileState, FlagResult
from companion.games.campanile.views import preview
from companion.i18n import text as say
from ui.games.campanile.widgets import PieceBadge, TapButton, TowerTag, tower_colour
from ui.games.campanile.words import flag_text, tower_name
from ui.theme import (
    BACKGROUND,
    FONT_SMALL,
    SPACING,
    TEXT,
    TEXT_QUIET,
    TOUCH,
    piece_colour,
    text_on,
)


class CampanileBoard(Protocol):
    """What the valuation screen asks of the board that opens it (the board imports this module)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def towers(self) -> tuple[str, ...]: ...

    @property
    def colours(self) -> Mapping[str, str | None]: ...

    @property
    def initials(self) -> Mapping[str, str]: ...

    @property
    def state(self) -> CampanileState: ...

    def close_valuation(self) -> None: ...


#: The room one player's tally and one award take on a flag's line, and the room there is for them.
INFLUENCE_WIDTH = 82
AWARD_WIDTH = 90
ROW_ROOM = 800 - 2 * SPACING - 120 - 150 - 3 * SPACING
#: The most players at the table and the most values on a flag (the rulebook's 6/4/2).
MAX_PLAYERS = 5
MAX_AWARDS = 3


def _label(text: str, size: int = FONT_SMALL, colour: Any = TEXT, **kwargs: Any) -> Label:
    label = Label(text=text, font_size=size, color=colour, halign="left", valign="middle", **kwargs)
    label.bind(size=lambda w, s: setattr(w, "text_size", s))
    return label


class FlagRow(BoxLayout):
    """One flagged tower: tag, rank and flag, each group's influence, the awards, the explanation.

    Made once and refilled by :meth:`show` (the screen keeps one per tower), so that opening the
    screen again costs property changes, not new widgets.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=2, size_hint_y=None, **kwargs)
        self.headline = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=40)
        self.tag = TowerTag(size_hint_x=None, width=120)
        self.flag = _label("", FONT_SMALL, TEXT_QUIET, size_hint_x=None, width=150)
        self.influence = BoxLayout(orientation="horizontal", spacing=4)
        self.tallies = [(PieceBadge(pos_hint={"center_y": 0.5}),
                         _label("", FONT_SMALL + 4, TEXT, bold=True, size_hint_x=None, width=34))
                        for _ in range(MAX_PLAYERS)]
        self.awards = BoxLayout(orientation="horizontal", spacing=4, size_hint=(None, None), height=36)
        self.prizes = [(PieceBadge(pos_hint={"center_y": 0.5}),
                        _label("", FONT_SMALL + 6, TEXT, bold=True, size_hint_x=None,
                               width=AWARD_WIDTH - 48))
                       for _ in range(MAX_AWARDS)]
        self.second = BoxLayout(orientation="horizontal", size_hint_y=None, height=36)
        self.why = Label(font_size=FONT_SMALL, color=TEXT_QUIET, halign="left", valign="top",
                         size_hint_y=None)
        self.why.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                      texture_size=lambda w, size: setattr(w, "height", size[1]))
        self.headline.add_widget(self.tag)
        self.headline.add_widget(self.flag)
        self.headline.add_widget(self.influence)
        self.bind(minimum_height=self.setter("height"))

    def show(self, view: CampanileValuation, result: FlagResult) -> None:
        self.tag.text = tower_name(result.tower)
        self.tag.band = list(tower_colour(result.tower))
        self.flag.text = say("ui.campanile.valuation.flag", rank=result.rank, flag=flag_text(result.flag))
        self.influence.clear_widgets()
        for (badge, amount), (player, influence) in zip(self.tallies, result.influence, strict=False):
            view.paint(badge, player)
            amount.text = str(influence)
            self.influence.add_widget(badge)
            self.influence.add_widget(amount)
        self.influence.add_widget(Widget())
        self.awards.clear_widgets()
        self.awards.width = AWARD_WIDTH * len(result.awards)
        for (badge, points), award in zip(self.prizes, result.awards, strict=False):
            view.paint(badge, award.player)
            points.text = f"+{award.points}"
            self.awards.add_widget(badge)
            self.awards.add_widget(points)
        self.why.text = str(result.explanation)
        # The awards go beside the tallies when both fit on the line, else on a line of their own.
        if self.awards.parent is not None:
            self.awards.parent.remove_widget(self.awards)
        self.clear_widgets()
        self.add_widget(self.headline)
        if INFLUENCE_WIDTH * len(result.influence) + AWARD_WIDTH * len(result.awards) <= ROW_ROOM:
            self.headline.add_widget(self.awards)
        elif result.awards:
            self.second.clear_widgets()
            self.second.add_widget(Widget())
            self.second.add_widget(self.awards)
            self.add_widget(self.second)
        self.add_widget(self.why)


class CampanileValuation(BoxLayout):
    """The screen's content: a title with a tab per valuation, the flag rows, the chips."""

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=SPACING, padding=SPACING, **kwargs)
        self.board = board
        #: Which valuation is shown: an index into the state's valuations, or None for the preview.
        self.shown: int | None = None
        self.title_row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=TOUCH)
        self.title = _label("", FONT_SMALL + 6, TEXT, bold=True)
        self.tabs: dict[int | None, TapButton] = {}
        for index in (0, 1, None):
            tab = TapButton(size_hint_x=None, width=130)
            tab.bind(on_release=lambda _w, i=index: self.show(i))
            self.tabs[index] = tab
        self.close_button = TapButton(size_hint_x=None, width=110)
        self.close_button.bind(on_release=lambda _w: self.board.close_valuation())
        self.rows = BoxLayout(orientation="vertical", spacing=SPACING, size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        self.flag_rows = [FlagRow() for _ in board.towers]
        self.scroll = ScrollView(do_scroll_x=False, bar_width=8)
        self.scroll.add_widget(self.rows)
        self.chips = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=40)
        self.chip_label = _label("", FONT_SMALL, TEXT_QUIET, size_hint_x=None, width=110)
        self.holdings = [(PieceBadge(pos_hint={"center_y": 0.5}),
                          _label("", FONT_SMALL, TEXT, size_hint_x=None, width=110))
                         for _ in board.players]
        self.add_widget(self.title_row)
        self.add_widget(self.scroll)
        self.add_widget(self.chips)
        self.choose(preview)

    def choose(self, preview: bool) -> None:
        """Show the preview, or the latest valuation made."""
        self.shown = None if preview else len(self.board.state.valuations) - 1
        self.refresh()

    def paint(self, badge: PieceBadge, player: str) -> None:
        """``badge`` as ``player``'s: initials on the marker colour."""
        fill = piece_colour(self.board.colours[player])
        badge.text = self.board.initials[player]
        badge.fill = list(fill)
        badge.ink = list(text_on(fill))

    # -- what is shown ------------------------------------------------------------------
    def phase(self) -> str:
        state = self.board.state
        if self.shown is not None:
            return state.valuations[self.shown].phase
        return "intermezzo" if state.phase == "opening" else "finito"

    def results(self) -> tuple[FlagResult, ...]:
        state = self.board.state
        if self.shown is not None:
            return state.valuations[self.shown].flags
        return preview(state)

    def show(self, index: int | None) -> None:
        self.shown = index
        self.refresh()

    def refresh(self) -> None:
        """Redraw from the board's state; a valuation taken back by undo is no longer shown."""
        state = self.board.state
        if self.shown is not None and self.shown >= len(state.valuations):
            self.shown = len(state.valuations) - 1 if state.valuations else None
        if self.shown is None and state.phase == "finished":
            self.shown = len(state.valuations) - 1
        self._title(state)
        self.rows.clear_widgets()
        for row, result in zip(self.flag_rows, self.results(), strict=False):
            row.show(self, result)
            self.rows.add_widget(row)
        self._chips(state)

    def _title(self, state: Any) -> None:
        self.title_row.clear_widgets()
        self.title.text = (say(f"ui.campanile.preview.{self.phase()}") if self.shown is None
                           else say(f"ui.campanile.valuation.{self.phase()}"))
        self.title_row.add_widget(self.title)
        choices: list[tuple[int | None, str]] = [
            (i, say(f"ui.campanile.phase.{v.phase}")) for i, v in enumerate(state.valuations)]
        if state.phase != "finished":
            choices.append((None, say("ui.campanile.valuation.now")))
        for index, name in choices:
            tab = self.tabs[index]
            tab.text = name
            tab.accent = index == self.shown
            self.title_row.add_widget(tab)
        self.close_button.text = say("ui.campanile.close")
        self.title_row.add_widget(self.close_button)

    def _chips(self, state: Any) -> None:
        self.chips.clear_widgets()
        self.chip_label.text = say("ui.campanile.valuation.chips")
        self.chips.add_widget(self.chip_label)
        scores = state.scores
        for (badge, held), player, chips in zip(self.holdings, state.players, state.chips, strict=True):
            self.paint(badge, player)
            shown = " ".join(str(c) for c in sorted(chips, reverse=True))
            held.text = f"{shown} = {scores[player]}" if chips else "0"
            self.chips.add_widget(badge)
            self.chips.add_widget(held)
        self.chips.add_widget(Widget())


class ValuationPopup(ModalView):
    """The valuation screen over the whole window; closed by its button (no tap outside needed).

    The board makes one and opens it again each time (:meth:`choose`), refilling its widgets.
    """

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: Any) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background_color=BACKGROUND,
                         overlay_color=(0, 0, 0, 0), **kwargs)
        self.content = CampanileValuation(board, preview)
        self.add_widget(self.content)

    def choose(self, preview: bool) -> None:
        self.content.choose(preview)

    def refresh(self) -> None:
        self.content.refresh()
