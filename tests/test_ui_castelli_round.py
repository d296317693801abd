"""A Castelli Championship through the touchscreen: New game to the final standings, by synthetic taps.

In the shared offscreen window of :mod:`tests.ui_kit`, on a real table and store. The players
choose the championship on the New game screen (four profiles tapped, the mode button, Start);
each round opens with group 1's board; a tap on a face-down space of either board opens that
board's reveal pad for its group's player; one tap on **Switch to group N** shows the other board
and the turn strip follows it. The rounds' moves are the championship tests' own
(:mod:`tests.championship_kit`: a chosen player wins each group), entered at the table as the
console would, each group's end held on its own board. When a round ends the standings show
the bracket (variant 1) or the league (variant 2) with the next round's button, tapped for the
next round, until the final standings.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.tests.common import UnitTestTouch

from companion import i18n
from companion.i18n import text
from tests.castelli_pan_kit import pan_into_view
from tests.championship_kit import round_moves
from ui.games.castelli.board import CastelliBoard
from ui.games.castelli.round_board import RoundBoard
from ui.widgets import Tap

FOUR = ("Ann", "Bob", "Cid", "Dan")


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One shell and store for the module (each test starts a championship of its own)."""
    i18n.set_language("en")
    opened = kit.open_shell(tmp_path_factory.mktemp("championship") / "store.db")
    for name in FOUR:
        opened.table.app.add_profile(name)
    yield opened
    board = getattr(opened.screens.get_screen("game"), "board", None)
    for one in getattr(board, "boards", {}).values():
        one.close_overlay()
    kit.close_shell(opened)
    i18n.set_language("en")


def tap_at(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    kit.pump(1)
    touch.touch_up()
    kit.pump(2)


def start_championship(shell: Any, variant: int) -> RoundBoard:
    """New game: Castelli, the four profiles in order, the mode button to the variant, Start."""
    shell.go("new")
    kit.tap(kit.find("Castelli", Tap))
    screen = shell.screens.get_screen("new")
    for name in FOUR:  # seated in this order (the screen keeps the seats of the last game started)
        if name not in screen.seated:
            kit.tap(kit.find(name, Tap))
    assert screen.seated == list(FOUR)
    wanted = text({1: "ui.castelli.new.knockout", 2: "ui.castelli.new.league"}[variant])
    board = text("ui.new.board", board="")[:5]  # "Board: …" (each tap the next board, then the championships)
    for _ in range(8):
        shown = next(w for w in kit.walk() if isinstance(w, Tap) and (w.text.startswith(board) or w.text in (
            text("ui.castelli.new.knockout"), text("ui.castelli.new.league"))))
        if shown.text == wanted:
            break
        kit.tap(shown)
    assert shown.text == wanted and shown.accent
    kit.tap(kit.find(text("ui.new.start", game="Castelli"), Tap))
    return shown_round(shell)


def shown_round(shell: Any) -> RoundBoard:
    game = shell.screens.get_screen("game")
    kit.wait_for(lambda: shell.screens.current == "game" and isinstance(game.board, RoundBoard),
                 "a round's boards")
    kit.pump(3)
    board: RoundBoard = game.board
    return board


def play_out(shell: Any, board: RoundBoard, winners: list[str | None], hold: bool = True,
             moves: list[dict[str, Any]] | None = None) -> None:
    """The round's moves (``moves``: what is left of them) entered at the table up to the groups'
    ends; each end held on its own board (group 2's first: its board offers nothing more, group 1's
    plays on), or entered at the table."""
    table = shell.table
    if moves is None:
        moves = round_moves(table.session.game, table.session.state, winners)
    for move in moves:
        if move["type"] != "end" or not hold:
            table.propose(table.session.game.parse_move(move), "console")
    if hold:
        for group in (2, 1):
            if int(board.shown_part) != group:
                kit.tap(kit.find(text("ui.castelli.round.switch", group=group), Tap))
            end = board.board.end_button
            kit.hold(end, lambda g=group: table.session.state.groups[g - 1].finished, f"group {group}'s end")
            if group == 2:  # one group's end: the round goes on, the strip says where
                game_screen = shell.screens.get_screen("game")
                assert shell.screens.current == "game" and board.board.over
                assert not table.session.state.groups[0].finished
                assert game_screen.strip_sentence.startswith(text("ui.castelli.round.ended", group=2,
                                                                  sentence="", other=1)[:8])
    kit.wait_for(lambda: shell.screens.current == "standings", "the standings after the round")


def standings(shell: Any) -> Any:
    screen = shell.screens.get_screen("standings")
    kit.pump(2)
    return screen.shown


def test_variant_1_from_new_game_to_the_final_by_taps(shell: Any, shots: Path) -> None:
    board = start_championship(shell, 1)
    table = shell.table
    game_screen = shell.screens.get_screen("game")
    assert not table.session.log and table.session.state.groups[0].players == ("Ann", "Bob")
    # group 1's board first: its two players, its strip, the other group named as acting meanwhile
    assert isinstance(board.board, CastelliBoard) and board.board.players == ("Ann", "Bob")
    assert int(board.shown_part) == 1
    assert game_screen.strip_headline == "Ann"
    assert game_screen.strip_sentence.startswith("Group 1: ")
    assert game_screen.strip_next == "also Cid (group 2)"
    deck = table.session.state.deck()
    assert kit.find(text("ui.castelli.round.deck", count=deck)) is not None
    kit.screenshot(shots / "en-round-group-1.png")
    # a tap on a face-down space of group 1's board: its reveal pad, for Ann
    one = board.board
    space = sorted(one.found.reveal_spaces)[0]
    pan_into_view(one, space, kit.tap)
    tap_at(*one.view.centre_of(space))
    assert one.overlay is one._pad and one._pad is not None and one._pad.player == "Ann"
    one.close_overlay()
    # one tap: group 2's board, the strip follows it
    kit.tap(kit.find(text("ui.castelli.round.switch", group=2), Tap))
    assert int(board.shown_part) == 2 and board.board.players == ("Cid", "Dan")
    assert one.parent is None and board.board.parent is board  # one board in the window at a time
    assert game_screen.strip_headline == "Cid" and game_screen.strip_next == "also Ann (group 1)"
    two = board.board
    space = sorted(two.found.reveal_spaces)[0]
    pan_into_view(two, space, kit.tap)
    tap_at(*two.view.centre_of(space))
    assert two.overlay is two._pad and two._pad is not None and two._pad.player == "Cid"
    two.close_overlay()
    kit.screenshot(shots / "en-round-group-2.png")
    # Standings from the board: round 1 being played, the deck's count
    kit.tap(kit.find(text("ui.castelli.round.standings"), Tap))
    assert shell.screens.current == "standings"
    shown = standings(shell)
    assert shown.variant == 1 and shown.playing == 1 and shown.deck == deck and shown.next_round is None
    kit.tap(kit.find(text("ui.castelli.standings.back_to_round"), Tap))
    assert shell.screens.current == "game"

    # a move of the group shown, then one of the other group, entered at the table: widgets changed,
    # none made (the hidden board waits to be shown)
    game = table.session.game
    moves = round_moves(game, table.session.state, ["Ann", None])  # group 2 ends level
    for move in moves[:2]:
        made = kit.widgets_made_by(lambda m=move: table.propose(game.parse_move(m), "console"))
        assert made == [], made
    play_out(shell, board, ["Ann", None], moves=moves[2:])  # the players will say who goes on
    shown = standings(shell)
    assert [m.winners for m in shown.rounds[0]] == [("Ann",), ("Cid", "Dan")]
    assert shown.deciding == ("Cid", "Dan") and shown.next_round is None
    kit.screenshot(shots / "en-standings-decision.png")
    kit.tap(kit.find(text("ui.castelli.standings.advances", player="Dan"), Tap))
    shown = standings(shell)
    assert shown.deciding == () and shell.table.app.championships.status().decisions[0].advances == "Dan"
    assert [m.players for m in shown.rounds[1]] == [("Ann", "Dan"), ("Bob", "Cid")]  # final, for third
    assert shown.next_round == 2 and not shown.over
    kit.tap(kit.find(text("ui.castelli.standings.next", number=2), Tap))
    board = shown_round(shell)
    assert table.session.state.groups[0].players == ("Ann", "Dan")
    assert table.session.state.groups[1].players == ("Bob", "Cid")

    play_out(shell, board, ["Dan", "Bob"])
    shown = standings(shell)
    assert shown.over and shown.next_round is None
    assert [(line.place, line.player) for line in shown.lines] == [(1, "Dan"), (2, "Ann"), (3, "Bob"),
                                                                   (4, "Cid")]
    screen = shell.screens.get_screen("standings")
    assert screen.message == text("ui.castelli.standings.over", players=["Dan"])
    assert_badges_and_stars(screen, shown)
    kit.screenshot(shots / "en-standings-final-1.png")
    kit.tap(kit.find(text("ui.common.back"), Tap))
    assert shell.screens.current == "home"


def test_variant_2_three_rounds_by_taps_in_hungarian(shell: Any, shots: Path) -> None:
    i18n.set_language("hu")
    shell.redraw_all()
    board = start_championship(shell, 2)
    table = shell.table
    game_screen = shell.screens.get_screen("game")
    assert game_screen.strip_sentence.startswith("1. csoport: ")
    pairings = []
    for number, winners in enumerate((["Ann", "Cid"], ["Ann", "Dan"], [None, "Bob"]), start=1):
        pairings.append(tuple(g.players for g in table.session.state.groups))
        play_out(shell, board, winners, hold=False)
        shown = standings(shell)
        assert shown.variant == 2 and len([r for r in shown.rounds if r[0].finished]) == number
        if number < 3:
            kit.tap(kit.find(text("ui.castelli.standings.next", number=number + 1), Tap))
            board = shown_round(shell)
    assert pairings == [(("Ann", "Bob"), ("Cid", "Dan")), (("Ann", "Cid"), ("Bob", "Dan")),
                        (("Ann", "Dan"), ("Bob", "Cid"))]
    shown = standings(shell)
    assert shown.over
    # Ann: 2 wins and a shared one (half a point by default); Bob, Cid, Dan one win each
    assert (shown.lines[0].player, shown.lines[0].points) == ("Ann", 2.5)
    assert {line.player: line.won for line in shown.lines} == {"Ann": 3, "Bob": 1, "Cid": 1, "Dan": 2}
    screen = shell.screens.get_screen("standings")
    assert_badges_and_stars(screen, shown)
    for number in range(1, 5):  # each line of the table with its player's badge
        line = screen.parts[f"line{number}"]
        assert line.initials and line.player.startswith(line.initials), (line.initials, line.player)
    kit.screenshot(shots / "hu-league-final.png")


def assert_badges_and_stars(screen: Any, shown: Any) -> None:
    """Issue 35, item 7: every player in a game's box has their badge, each winner a star (more than
    the amber), and no box cuts a name ("B…" in the league's narrow boxes)."""
    from ui.games.castelli.standings import MatchBox, WinStar

    boxes = [w for w in kit.walk(screen) if isinstance(w, MatchBox) and w.opacity and w.initials != ["", ""]]
    winners = sum(len(match.winners) for games in shown.rounds for match in games if match.finished)
    assert boxes and winners
    stars = [w for box in boxes for w in kit.walk(box) if isinstance(w, WinStar) and w.shown]
    assert len(stars) == winners, (len(stars), winners)
    for box in boxes:
        assert all(box.initials), box.initials
        for label in kit.walk(box):
            if getattr(label, "shorten", False) and label.text:
                assert label.texture_size[0] <= label.width + 1, label.text
