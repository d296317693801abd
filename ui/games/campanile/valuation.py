"""The Campanile valuation screen: who gained what, every flag, the influence under it, and why.

Opened over the board after the Intermezzo or Finito card was entered, from
the board's "Valuations" button, or as the live preview "if the Intermezzo
came now" (recomputed from the engine's ``preview`` whenever the board
refreshes). Made to be read in one glance from across the table, at 800×480
in either language:

- at the top, each player's points from this valuation as a large figure, the
  biggest first (what everyone wants to know);
- then one line per flagged tower, the #1 tower first (the biggest flag; the
  record keeps the rulebook's order, lowest flag first): the tower and its
  rank, the flag's values, and each group's badge with its influence and the
  award it won, the biggest award first; under it only what the figures do
  not already say (a tie and how the base broke it, who got nothing, a value
  left over), in the engine's own words;
- at the bottom the chips each player holds and their total, each player's
  on one line.

Five flags fit without scrolling; only the tie sentences of a crowded
valuation may need it. No award is computed here: the order is the engine's
(its awards are best first) and the screen only reorders rows and players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.games.campanile.state import CampanileState, FlagResult
from companion.games.campanile.views import preview
from companion.i18n import current_language
from companion.i18n import text as say
from ui.games.campanile.widgets import TapButton, arrange, tower_colour
from ui.games.campanile.words import flag_text, tower_name
from ui.theme import FONT_LARGE, FONT_SMALL, TEXT, TEXT_QUIET, piece_colour, text_on


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


#: The sentences of the engine's explanation that a flag's line already says: the influence of each
#: group and the points given (its figures), who got nothing (a group without an award), and, in
#: short, that nobody is under the tower or which values are left over. Under the line go the others:
#: a tie and how the base broke it.
SAID_BY_THE_LINE = frozenset({"campanile.explain.influence", "campanile.explain.points",
                              "campanile.explain.nobody", "campanile.explain.nothing",
                              "campanile.explain.unclaimed"})
#: The sentence whose ``values`` are the flag's values nobody could be given.
UNCLAIMED = "campanile.explain.unclaimed"
#: The award beside a group's influence: bigger than the influence, smaller than the totals.
AWARD_FONT = FONT_SMALL + 6


class PlayerFigures(BoxLayout):
    """A player's badge and one or two figures beside it, as wide as they are (never wrapped).

    ``first`` is drawn plain (an influence, a player's chips), ``second`` bold at ``second_size``
    (an award, a valuation's total); either may be empty. Layout: ``campanile.kv``.
    """

    initials = StringProperty("")
    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    first = StringProperty("")
    first_colour = ListProperty(list(TEXT))
    second = StringProperty("")
    second_size = NumericProperty(AWARD_FONT)

    def paint(self, board: CampanileBoard, player: str) -> None:
        """The badge as ``player``'s: initials on the marker colour."""
        fill = piece_colour(board.colours[player])
        self.initials = board.initials[player]
        self.fill = list(fill)
        self.ink = list(text_on(fill))


def shown_order(result: FlagResult) -> list[tuple[str, int, int | None]]:
    """(player, influence, award or None) for a flag's line: the awards as the engine gives them (best
    first), then the groups that won nothing, most influence first (the stack's order among equals)."""
    influence = dict(result.influence)
    awarded = [(a.player, influence.get(a.player, 0), a.points) for a in result.awards]
    winners = {a.player for a in result.awards}
    rest = sorted(((p, i) for p, i in result.influence if p not in winners), key=lambda pair: -pair[1])
    return awarded + [(player, figure, None) for player, figure in rest]


def left_over(result: FlagResult) -> str:
    """The flag's values the engine says were not given (``"2"``, ``"3/1"``), or ``""``."""
    return next((str(s.params["values"]) for s in result.explanation if s.code == UNCLAIMED), "")


def unsaid(result: FlagResult) -> str:
    """The explanation's sentences that the line's figures do not say already, in words."""
    return " ".join(str(s) for s in result.explanation if s.code not in SAID_BY_THE_LINE)


class FlagRow(BoxLayout):
    """One flagged tower: its tag (rank and name), the flag, each group's influence and award, and why.

    Its layout is the rule in ``campanile.kv``; a badge-and-figures per player is made once and
    refilled by :meth:`show`, which only moves them in or out, so that opening the screen again, or
    a move under it, costs property changes, not widgets.
    """

    tower_text = StringProperty("")
    band = ListProperty([0, 0, 0, 0])
    flag_text = StringProperty("")
    why = StringProperty("")
    #: The flag's values left over (fewer groups than values), said in short at the end of the line.
    spare = StringProperty("")
    #: The language of the row's own words ("nobody here"), set on every :meth:`show`.
    language = StringProperty("")

    def __init__(self, players: int, **kwargs: object) -> None:
        super().__init__(**kwargs)
        ids = self.ids
        #: The tower's rank in the valuation shown (1: the biggest flag).
        self.rank = 0
        # held strongly (the rule's ids are weak): the explanation is out while there is nothing to add
        self.headline: BoxLayout = ids.headline.__self__
        self.groups: BoxLayout = ids.groups.__self__
        self.explanation: Any = ids.explanation.__self__
        # a group per player at most: as many cells as players (making widgets is what costs)
        self.cells = [PlayerFigures(first_colour=list(TEXT_QUIET)) for _ in range(players)]
        self._groups_end = ids.groups_end.__self__
        self._nobody = ids.nobody.__self__
        self._spare = ids.spare.__self__

    def show(self, board: CampanileBoard, result: FlagResult) -> None:
        self.rank = result.rank
        self.language = current_language()
        self.tower_text = say("ui.campanile.valuation.tower", rank=result.rank,
                              tower=tower_name(result.tower))
        self.band = list(tower_colour(result.tower))
        self.flag_text = flag_text(result.flag)
        order = shown_order(result)
        for cell, (player, influence, award) in zip(self.cells, order, strict=False):
            cell.paint(board, player)
            cell.first = str(influence)
            cell.second = "" if award is None else f"+{award}"
        self.spare = left_over(result)
        # after the groups, in short: that nobody is under the tower, or which values are left over
        said = [self._nobody] if not order else [self._spare] if self.spare else []
        arrange(self.groups, [*self.cells[:len(order)], *said, self._groups_end])
        self.why = unsaid(result)
        arrange(self, [self.headline, *([self.explanation] if self.why else [])])

    @property
    def awards_shown(self) -> list[tuple[str, int]]:
        """(initials, points) of the awards on the line, in the order shown (for the tests)."""
        return [(c.initials, int(c.second)) for c in self.groups.children[::-1]
                if isinstance(c, PlayerFigures) and c.second]


class CampanileValuation(BoxLayout):
    """The screen's content: the title with a tab per valuation, the totals, the flag rows, the chips.

    Its layout is the rule in ``campanile.kv``; a flag row per tower and a badge per player are made
    once, and :meth:`refresh` refills them.
    """

    board = ObjectProperty(None, allownone=True)
    #: The language of the screen's words (set on every refresh: the rule's words follow it).
    language = StringProperty("")
    title = StringProperty("")

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: object) -> None:
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
        self.totals: BoxLayout = ids.totals.__self__
        self.chips: Any = ids.chips.__self__
        self.flag_rows = [FlagRow(len(board.players)) for _ in board.towers]
        #: Each player's points from the valuation shown (large), and the chips each holds.
        self.gains = [PlayerFigures(second_size=FONT_LARGE, height=48) for _ in board.players]
        self.holdings = [PlayerFigures(height=32) for _ in board.players]
        self._title_label = ids.title_label.__self__
        self._totals_end = ids.totals_end.__self__
        self._chips_label = ids.chips_label.__self__
        self.choose(preview)

    def choose(self, preview: bool) -> None:
        """Show the preview, or the latest valuation made."""
        self.shown = None if preview else len(self.board.state.valuations) - 1
        self.refresh()

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
            row.show(self.board, result)
        arrange(self.rows, self.flag_rows[:len(results)])
        self._totals(state, results)
        self._chips(state)

    def _title(self, state: CampanileState) -> None:
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

    def _totals(self, state: CampanileState, results: list[FlagResult]) -> None:
        """Each player's points from the valuation shown, the most first (seat order among equals)."""
        gained = dict.fromkeys(state.players, 0)
        for result in results:
            for award in result.awards:
                gained[award.player] += award.points
        ranked = sorted(state.players, key=lambda player: -gained[player])
        for cell, player in zip(self.gains, ranked, strict=True):
            cell.paint(self.board, player)
            cell.second = f"+{gained[player]}"
        arrange(self.totals, [*self.gains, self._totals_end])

    def _chips(self, state: CampanileState) -> None:
        """The chips each player holds now, biggest first, and their total: each player's on one line."""
        scores = state.scores
        for cell, player, chips in zip(self.holdings, state.players, state.chips, strict=True):
            cell.paint(self.board, player)
            shown = " ".join(str(c) for c in sorted(chips, reverse=True))
            cell.first = f"{shown} = {scores[player]}" if chips else "0"
        arrange(self.chips, [self._chips_label, *self.holdings])


class ValuationPopup(ModalView):
    """The valuation screen over the whole window; closed by its button (no tap outside needed).

    The board makes one and opens it again each time (:meth:`choose`), refilling its widgets; its
    look is the rule in ``campanile.kv``.
    """

    def __init__(self, board: CampanileBoard, preview: bool, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.content = CampanileValuation(board, preview)
        self.add_widget(self.content)

    def choose(self, preview: bool) -> None:
        self.content.choose(preview)

    def refresh(self) -> None:
        self.content.refresh()
