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

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.games.campanile.state import FlagResult
from companion.games.campanile.views import preview
from companion.i18n import text as say
from ui.games.campanile_style import (
    BACKGROUND,
    FONT_LABEL,
    SPACING,
    TEXT,
    TEXT_QUIET,
    TOUCH,
    marker_colour,
    text_on,
    tower_colour,
)
from ui.games.campanile_widgets import Badge, TapButton, TowerTag

if TYPE_CHECKING:
    from ui.games.campanile import CampanileBoard


#: The room one player's tally and one award take on a flag's line, and the room there is for them.
INFLUENCE_WIDTH = 82
AWARD_WIDTH = 90
ROW_ROOM = 800 - 2 * SPACING - 120 - 150 - 3 * SPACING


def _label(text: str, size: int = FONT_LABEL, colour: Any = TEXT, **kwargs: Any) -> Label:
    label = Label(text=text, font_size=size, color=colour, halign="left", valign="middle", **kwargs)
    label.bind(size=lambda w, s: setattr(w, "text_size", s))
    return label


class CampanileValuation(BoxLayout):
    """The screen's content: a title with a tab per valuation, the flag rows, the chips."""

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=SPACING, padding=SPACING, **kwargs)
        self.board = board
        #: Which valuation is shown: an index into the state's valuations, or None for the preview.
        self.shown: int | None = None if preview else len(board.state.valuations) - 1
        self.title_row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=TOUCH)
        self.rows = BoxLayout(orientation="vertical", spacing=SPACING, size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll = ScrollView(do_scroll_x=False, bar_width=8)
        scroll.add_widget(self.rows)
        self.chips = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=40)
        self.add_widget(self.title_row)
        self.add_widget(scroll)
        self.add_widget(self.chips)
        self.close_button: TapButton | None = None
        self.tabs: dict[int | None, TapButton] = {}
        self.refresh()

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
        for result in self.results():
            self.rows.add_widget(self._flag_row(result))
        self._chips(state)

    def _title(self, state: Any) -> None:
        self.title_row.clear_widgets()
        title = (say(f"ui.campanile.preview.{self.phase()}") if self.shown is None
                 else say(f"ui.campanile.valuation.{self.phase()}"))
        self.title_row.add_widget(_label(title, FONT_LABEL + 6, TEXT, bold=True))
        self.tabs = {}
        choices: list[tuple[int | None, str]] = [
            (i, say(f"ui.campanile.phase.{v.phase}")) for i, v in enumerate(state.valuations)]
        if state.phase != "finished":
            choices.append((None, say("ui.campanile.valuation.now")))
        for index, name in choices:
            tab = TapButton(text=name, size_hint_x=None, width=130, accent=index == self.shown)
            tab.bind(on_release=lambda _w, i=index: self.show(i))
            self.tabs[index] = tab
            self.title_row.add_widget(tab)
        self.close_button = TapButton(text=say("ui.campanile.close"), size_hint_x=None, width=110)
        self.close_button.bind(on_release=lambda _w: self.board.close_valuation())
        self.title_row.add_widget(self.close_button)

    def _badge(self, player: str) -> Badge:
        fill = marker_colour(self.board.colours[player])
        return Badge(text=self.board.initials[player], fill=list(fill), ink=list(text_on(fill)),
                     pos_hint={"center_y": 0.5})

    def _flag_row(self, result: FlagResult) -> BoxLayout:
        from ui.games.campanile import flag_text, tower_name

        row = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None)
        top = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=40)
        name = TowerTag(text=tower_name(result.tower), band=list(tower_colour(result.tower)),
                        size_hint_x=None, width=120)
        top.add_widget(name)
        top.add_widget(_label(say("ui.campanile.valuation.flag", rank=result.rank,
                                  flag=flag_text(result.flag)), FONT_LABEL, TEXT_QUIET,
                              size_hint_x=None, width=150))
        influence = BoxLayout(orientation="horizontal", spacing=4)
        for player, amount in result.influence:
            influence.add_widget(self._badge(player))
            influence.add_widget(_label(str(amount), FONT_LABEL + 4, TEXT, bold=True,
                                        size_hint_x=None, width=34))
        influence.add_widget(Widget())
        top.add_widget(influence)
        awards = BoxLayout(orientation="horizontal", spacing=4, size_hint_y=None, height=36,
                           size_hint_x=None, width=AWARD_WIDTH * len(result.awards))
        for award in result.awards:
            awards.add_widget(self._badge(award.player))
            awards.add_widget(_label(f"+{award.points}", FONT_LABEL + 6, TEXT, bold=True,
                                     size_hint_x=None, width=AWARD_WIDTH - 48))
        row.add_widget(top)
        # The awards go beside the tallies when both fit on the line, else on a line of their own.
        if INFLUENCE_WIDTH * len(result.influence) + AWARD_WIDTH * len(result.awards) <= ROW_ROOM:
            top.add_widget(awards)
        elif result.awards:
            line = BoxLayout(orientation="horizontal", size_hint_y=None, height=36)
            line.add_widget(Widget())
            line.add_widget(awards)
            row.add_widget(line)
        why = Label(text=str(result.explanation), font_size=FONT_LABEL, color=TEXT_QUIET,
                    halign="left", valign="top", size_hint_y=None)
        why.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                 texture_size=lambda w, size: setattr(w, "height", size[1]))
        row.add_widget(why)
        row.bind(minimum_height=row.setter("height"))
        return row

    def _chips(self, state: Any) -> None:
        self.chips.clear_widgets()
        self.chips.add_widget(_label(say("ui.campanile.valuation.chips"), FONT_LABEL, TEXT_QUIET,
                                     size_hint_x=None, width=110))
        scores = state.scores
        for player, chips in zip(state.players, state.chips, strict=True):
            self.chips.add_widget(self._badge(player))
            shown = " ".join(str(c) for c in sorted(chips, reverse=True))
            self.chips.add_widget(_label(f"{shown} = {scores[player]}" if chips else "0",
                                         FONT_LABEL, TEXT, size_hint_x=None, width=110))
        self.chips.add_widget(Widget())


class ValuationPopup(ModalView):
    """The valuation screen over the whole window; closed by its button (no tap outside needed)."""

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: Any) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background_color=BACKGROUND,
                         overlay_color=(0, 0, 0, 0), **kwargs)
        self.content = CampanileValuation(board, preview)
        self.add_widget(self.content)

    def refresh(self) -> None:
        self.content.refresh()

