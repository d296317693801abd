"""The Campanile valuation screen: every flag, the influence under it, who got what, and why.

Opened over the board after the Intermezzo or Finito card was entered, from
the board's "Valuations" button, or as the live preview "if the Intermezzo
came now" (recomputed from the engine's ``preview`` whenever the board
refreshes). One row per flagged tower, the #1 tower first (the biggest flag;
the record keeps the rulebook's order, lowest flag first): the tower, its rank
and flag, each group's influence in stack order (base first), the awards as
chips, and the engine's own
explanation of every tie. No award is computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.games.campanile.state import CampanileState, FlagResult
from companion.games.campanile.views import preview
from companion.i18n import current_language
from companion.i18n import text as say
from ui.games.campanile.widgets import PieceBadge, TapButton, arrange, tower_colour
from ui.games.campanile.words import flag_text, tower_name
from ui.theme import FONT_SMALL, SPACING, TEXT, piece_colour, text_on


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


def _badge_and_figure(width: int, bigger: int) -> tuple[PieceBadge, Label]:
    """A player's badge and a figure beside it (a tally, an award, chips), made once and refilled."""
    figure = Label(font_size=FONT_SMALL + bigger, color=TEXT, bold=bigger > 0, halign="left", valign="middle",
                   size_hint_x=None, width=width)
    figure.bind(size=figure.setter("text_size"))
    return PieceBadge(pos_hint={"center_y": 0.5}), figure


class FlagRow(BoxLayout):
    """One flagged tower: tag, rank and flag, each group's influence, the awards, the explanation.

    Its layout is the rule in ``campanile.kv``; the badges and figures (as many as there can be
    players and awards) are made once and refilled by :meth:`show`, which only moves them in or
    out, so that opening the screen again, or a move under it, costs property changes, not widgets.
    """

    tower_text = StringProperty("")
    band = ListProperty([0, 0, 0, 0])
    flag_text = StringProperty("")
    why = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        ids = self.ids
        # held strongly (the rule's ids are weak): the awards' line is out while it has no meaning
        self.headline: BoxLayout = ids.headline.__self__
        self.influence: BoxLayout = ids.influence.__self__
        self.awards: BoxLayout = ids.awards.__self__
        self.second: BoxLayout = ids.second.__self__
        self.explanation: Label = ids.explanation.__self__
        self.tallies = [_badge_and_figure(34, 4) for _ in range(MAX_PLAYERS)]
        self.prizes = [_badge_and_figure(AWARD_WIDTH - 48, 6) for _ in range(MAX_AWARDS)]
        self._tag = ids.tag.__self__
        self._flag = ids.flag.__self__
        self._influence_end = ids.influence_end.__self__
        self._second_start = ids.second_start.__self__

    def show(self, view: CampanileValuation, result: FlagResult) -> None:
        self.rank = result.rank  # the tower's rank in this valuation (1: the biggest flag), as shown
        self.tower_text = tower_name(result.tower)
        self.band = list(tower_colour(result.tower))
        self.flag_text = say("ui.campanile.valuation.flag", rank=result.rank, flag=flag_text(result.flag))
        for (badge, amount), (player, influence) in zip(self.tallies, result.influence, strict=False):
            view.paint(badge, player)
            amount.text = str(influence)
        arrange(self.influence, [*_pairs(self.tallies, len(result.influence)), self._influence_end])
        self.awards.width = AWARD_WIDTH * len(result.awards)
        for (badge, points), award in zip(self.prizes, result.awards, strict=False):
            view.paint(badge, award.player)
            points.text = f"+{award.points}"
        arrange(self.awards, _pairs(self.prizes, len(result.awards)))
        self.why = str(result.explanation)
        # The awards go beside the tallies when both fit on the line, else on a line of their own.
        beside = INFLUENCE_WIDTH * len(result.influence) + AWARD_WIDTH * len(result.awards) <= ROW_ROOM
        alone = not beside and bool(result.awards)
        arrange(self.headline, [self._tag, self._flag, self.influence, *([self.awards] if beside else [])])
        arrange(self.second, [self._second_start, self.awards] if alone else [])
        arrange(self, [self.headline, *([self.second] if alone else []), self.explanation])


def _pairs(made: list[tuple[PieceBadge, Label]], count: int) -> list[Any]:
    """The first ``count`` badge-and-figure pairs, as the widgets of a line."""
    return [widget for pair in made[:count] for widget in pair]


class CampanileValuation(BoxLayout):
    """The screen's content: a title with a tab per valuation, the flag rows, the chips.

    Its layout is the rule in ``campanile.kv``; a flag row per tower and a badge per player are made
    once, and :meth:`refresh` refills them.
    """

    board = ObjectProperty(None, allownone=True)
    #: The language of the screen's words (set on every refresh: the rule's words follow it).
    language = StringProperty("")
    title = StringProperty("")

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: Any) -> None:
        super().__init__(board=board, language=current_language(), **kwargs)
        ids = self.ids
        #: Which valuation is shown: an index into the state's valuations, or None for the preview.
        self.shown: int | None = None
        # held strongly (the rule's ids are weak): a tab is out of the row while it has no meaning
        self.title_row: BoxLayout = ids.title_row.__self__
        self.tabs: dict[int | None, TapButton] = {0: ids.tab_first.__self__, 1: ids.tab_second.__self__,
                                                  None: ids.tab_now.__self__}
        self.close_button: TapButton = ids.close_button.__self__
        self.rows: BoxLayout = ids.rows.__self__
        self.flag_rows = [FlagRow() for _ in board.towers]
        self.holdings = [_badge_and_figure(110, 0) for _ in board.players]
        for badge, held in self.holdings:
            ids.chips.add_widget(badge, index=1)  # before the spacer at the end
            ids.chips.add_widget(held, index=1)
        self._title_label = ids.title_label.__self__
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
        state: CampanileState = self.board.state
        if self.shown is not None:
            return state.valuations[self.shown].phase
        return "intermezzo" if state.phase == "opening" else "finito"

    def results(self) -> tuple[FlagResult, ...]:
        state: CampanileState = self.board.state
        if self.shown is not None:
            return state.valuations[self.shown].flags
        return preview(state)

    def show(self, index: int | None) -> None:
        self.shown = index
        self.refresh()

    def refresh(self) -> None:
        """Refill from the board's state; a valuation taken back by undo is no longer shown."""
        self.language = current_language()
        state = self.board.state
        if self.shown is not None and self.shown >= len(state.valuations):
            self.shown = len(state.valuations) - 1 if state.valuations else None
        if self.shown is None and state.phase == "finished":
            self.shown = len(state.valuations) - 1
        self._title(state)
        # The #1 tower first: its flag is the biggest award, and what players look for first. (The
        # rulebook values them lowest flag first; the record keeps that order, the screen does not.)
        results = sorted(self.results(), key=lambda result: result.rank)
        for row, result in zip(self.flag_rows, results, strict=False):
            row.show(self, result)
        arrange(self.rows, self.flag_rows[:len(results)])
        self._chips(state)

    def _title(self, state: Any) -> None:
        self.title = (say(f"ui.campanile.preview.{self.phase()}") if self.shown is None
                      else say(f"ui.campanile.valuation.{self.phase()}"))
        choices: list[tuple[int | None, str]] = [
            (i, say(f"ui.campanile.phase.{v.phase}")) for i, v in enumerate(state.valuations)]
        if state.phase != "finished":
            choices.append((None, say("ui.campanile.valuation.now")))
        for index, name in choices:
            tab = self.tabs[index]
            tab.text = name
            tab.accent = index == self.shown
        arrange(self.title_row, [self._title_label, *(self.tabs[index] for index, _ in choices),
                                 self.close_button])

    def _chips(self, state: Any) -> None:
        scores = state.scores
        for (badge, held), player, chips in zip(self.holdings, state.players, state.chips, strict=True):
            self.paint(badge, player)
            shown = " ".join(str(c) for c in sorted(chips, reverse=True))
            held.text = f"{shown} = {scores[player]}" if chips else "0"


class ValuationPopup(ModalView):
    """The valuation screen over the whole window; closed by its button (no tap outside needed).

    The board makes one and opens it again each time (:meth:`choose`), refilling its widgets; its
    look is the rule in ``campanile.kv``.
    """

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.content = CampanileValuation(board, preview)
        self.add_widget(self.content)

    def choose(self, preview: bool) -> None:
        self.content.choose(preview)

    def refresh(self) -> None:
        self.content.refresh()
