"""A Castelli Championship round on the touchscreen: the two groups' boards, one tap apart.

Both groups play at once on one table, so the screen holds two ordinary
:class:`~ui.games.castelli.board.CastelliBoard`\\ s, each drawing its group's
2-player game (its board, its two players' panels, its reveal pad, overlays
and builds, exactly as in a game of two) and shows one of them. Under the
shown board's panels a row offers **Switch to group N** (one tap: the other
board) and **Standings**, and says how many cards the one deck still holds.
The turn strip speaks for the board shown (:meth:`RoundBoard.strip`): whose
turn it is in that group and what to do, and who may play meanwhile in the
other group. A move entered anywhere else (the console, a panel, the OLED's
buttons) redraws the board shown; the other board is redrawn when it is
shown next.

:func:`castelli_board` is the Castelli part's board: a round's two boards, or
the one board of a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout

from companion.games.castelli.game import Castelli
from companion.games.castelli.state import State
from companion.i18n import current_language, render_for, text
from companion.service.session import AnySession
from companion.service.table import Table
from ui import widgets  # noqa: F401  (the classes the row's rule names: Tap, Words)
from ui.games.castelli.board import CastelliBoard
from ui.shell_interface import ShellInterface
from ui.strip import BOARD_WORDS, Strip, strip_for

KV = Path(__file__).with_name("round_board.kv")
if str(KV) not in Builder.files:
    Builder.load_file(str(KV))

#: The groups of a round.
GROUPS: tuple[int, int] = (1, 2)


def is_round(session: AnySession | None) -> bool:
    """Whether the open game is a Championship round (two groups at once), as its engine says."""
    if session is None:
        return False
    asks = getattr(session.game, "is_round", None)
    return bool(asks(session.state)) if asks is not None else False


def castelli_board(table: Table, **kwargs: Any) -> Any:
    """The Castelli board for the open game: a round's two boards (:class:`RoundBoard`), else the board."""
    if is_round(table.session):
        return RoundBoard(table=table, **kwargs)
    return CastelliBoard(table=table, **kwargs)


class RoundRow(BoxLayout):
    """Under a group's panels: the switch to the other group's board, Standings, the deck's cards
    (layout: ``round_board.kv``)."""

    round_board = ObjectProperty(None)
    switch_text = StringProperty("")
    deck_text = StringProperty("")
    language = StringProperty("")


class RoundBoard(FloatLayout):
    """The two groups' boards of a Championship round, one shown at a time; see the module's docstring."""

    #: The group whose board is shown (the turn strip follows it).
    shown_part = NumericProperty(1)
    #: The shown board's own step (a card waiting for its area), for the turn strip.
    step_text = StringProperty("")

    def __init__(self, table: Table, **kwargs: object) -> None:
        self.table = table
        super().__init__(**kwargs)
        self.boards = {group: CastelliBoard(table=table, group=group) for group in GROUPS}
        self.rows: dict[int, RoundRow] = {}
        for group, board in self.boards.items():
            row = RoundRow(round_board=self, language=current_language())
            side = board.ids.side
            side.add_widget(row, index=len(side.children) - len(board.players))  # under the panels
            self.rows[group] = row
            board.bind(step_text=self._step_changed)
        #: The boards that missed a table event while hidden (redrawn when shown).
        self.stale: set[int] = set()
        self.board = self.boards[1]
        self.add_widget(self.board)
        self.refresh()

    # -- reading the table -------------------------------------------------------------------
    def _session(self) -> Any:
        session = self.table.session
        if session is None:
            raise ValueError("the round's boards need an open round at the table")
        return session

    def other(self, group: int | None = None) -> int:
        return 2 if (group or int(self.shown_part)) == 1 else 1

    # -- drawing -------------------------------------------------------------------------------
    def refresh(self) -> None:
        """The shown board redrawn from the table; the other one on its next showing."""
        session = self.table.session
        if session is None or not is_round(session):
            return
        shown = int(self.shown_part)
        self.board.refresh()
        self.stale.add(self.other(shown))
        self.stale.discard(shown)
        row = self.rows[shown]
        row.switch_text = text("ui.castelli.round.switch", group=self.other(shown))
        row.deck_text = text("ui.castelli.round.deck", count=session.state.deck())

    def _step_changed(self, board: CastelliBoard, step: str) -> None:
        if board is self.board:
            self.step_text = step

    def switch(self, group: int | None = None) -> bool:
        """Show the other group's board (or ``group``'s); one tap on **Switch to group N**."""
        wanted = group if group is not None else self.other()
        if wanted == int(self.shown_part):
            return False
        self.board.close_overlay()
        self.remove_widget(self.board)
        self.board = self.boards[wanted]
        self.add_widget(self.board)
        self.shown_part = wanted
        self.step_text = self.board.step_text
        self.refresh()
        return True

    def open_standings(self) -> None:
        """The championship's standings (the shell's ``standings`` screen)."""
        shell = self.shell()
        if shell is not None:
            shell.go("standings")

    def shell(self) -> ShellInterface | None:
        """The shell this board is shown in (its game screen knows it), or ``None`` when not shown."""
        widget: Any = self.parent
        while widget is not None and getattr(widget, "shell", None) is None:
            widget = widget.parent
        return None if widget is None else widget.shell

    # -- the turn strip -----------------------------------------------------------------------
    def strip(self) -> Strip:
        """The turn strip for the shown group: its player and step, and who may play meanwhile in the
        other group (both groups act at once)."""
        session = self._session()
        game, state = session.game, session.state
        shown, other = int(self.shown_part), self.other()
        own = strip_for(game, game.group_state(state, shown), BOARD_WORDS)
        if game.group_state(state, shown).finished:
            code = "ui.castelli.round.sentence" if state.finished else "ui.castelli.round.ended"
            words = text(code, group=shown, sentence=own.sentence, other=other)
            return Strip(own.player, own.headline, words)
        sentence = text("ui.castelli.round.sentence", group=shown, sentence=own.sentence)
        elsewhere = game.group_what_now(state, other)
        if elsewhere is None:
            ended = text("ui.castelli.round.other_over", group=other)
            return Strip(own.player, own.headline, sentence, ended)
        player = elsewhere.params.get("player")
        also = (text("ui.castelli.round.also", player=player, group=other) if player
                else render_for(elsewhere, BOARD_WORDS, current_language()))
        return Strip(own.player, own.headline, sentence, also)

    # -- what the shell asks of a board ----------------------------------------------------------
    def show_move(self, move: object) -> bool:
        """Light up a recorded move's place on its group's board (that board is shown)."""
        session = self._session()
        record = move if isinstance(move, Mapping) else session.game.move_to_json(move)
        group = record.get("group") if record.get("type") == "end" else None
        if group is None and isinstance(record.get("player"), str):
            group = session.game.group_of(session.state, record["player"])
        if group not in GROUPS:
            return False
        self.switch(group)
        return bool(self.board.show_move(record))

    def snapshot_extras(self, out: Path, settle: Callable[[], None]) -> list[Path]:
        """The shown board's views (``evaluation.png``, ``area.png``), then the other group's board as
        ``group-2.png`` (and its own views as ``group-2-evaluation.png``, ``group-2-area.png``), then
        the standings (``standings.png``)."""
        first = int(self.shown_part)
        written = self.board.snapshot_extras(out, settle)
        other = self.other(first)
        self.switch(other)
        settle()
        top: Any = self
        while top.parent is not None and top.parent is not top.get_root_window():
            top = top.parent
        path = out / f"group-{other}.png"
        top.export_to_png(str(path))
        written.append(path)
        with_prefix = out / f"group-{other}"
        with_prefix.mkdir(exist_ok=True)
        for extra in self.board.snapshot_extras(with_prefix, settle):
            renamed = out / f"group-{other}-{extra.name}"
            extra.replace(renamed)
            written.append(renamed)
        with_prefix.rmdir()
        self.switch(first)
        shell = self.shell()
        if shell is not None:  # the championship's standings (this round alone when it is in none)
            shell.go("standings")
            settle()
            path = out / "standings.png"
            shell.root.export_to_png(str(path))
            written.append(path)
            shell.go("game")
        return written


def over_screen(session: AnySession) -> str | None:
    """A round that has ended goes to the championship's standings (the next round is offered there);
    a game to game over."""
    return "standings" if is_round(session) else None


def open_game_state(shell: ShellInterface, group: int | None = None) -> State | None:
    """The open Castelli game's base-game state for the tools (the resolver, the editor): the game's, or
    in a round ``group``'s (by default the group whose board the game screen shows); ``None`` when no
    Castelli game is open."""
    session = shell.table.session
    if session is None or session.game.name != "castelli":
        return None
    if not is_round(session):
        state: State = session.state  # the base game's (its engine is Castelli)
        return state
    if group is None:
        board = getattr(shell.screens.get_screen("game"), "board", None)
        group = int(getattr(board, "shown_part", 1))
    return Castelli.group_state(session.state, group)
