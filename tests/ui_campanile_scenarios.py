"""Games played on the Campanile board by synthetic touches (run inside ``tests.ui_campanile_kit``).

Each scenario plays through the window as players would, checks the session
and the widgets after every tap, and returns facts for the parent test.
The widgets are compared with what the engine says (``targets``,
``standings``), never with rules written again here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from companion.games.campanile.views import preview, standings, targets
from companion.service.campanile import CampanileService
from tests.ui_campanile_kit import Harness, scenario

EXAMPLE = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"
FOUR = ["Albert", "Birgit", "Franziska", "Helmut"]

#: A 4-player game that meets the rulebook's two valuation examples: at the Intermezzo the brown
#: tower carries the flag 1 (Albert 3+2 at the base, Birgit 2+2+1, Franziska 1+1: Albert wins the
#: tie), at the Finito the flag 5/3/1 (Birgit 8, Albert 7, Franziska and Helmut 2: Franziska's
#: markers are nearer the base). (player, tower, stories, marker's tower or None); a phase name is
#: the valuation card turned over.
FOUR_PLAYER_TURNS: list[Any] = [
    ("Albert", "brown", 3, "brown"), ("Birgit", "brown", 2, "brown"), ("Franziska", "brown", 1, "brown"),
    ("Helmut", "grey", 3, None),
    ("Albert", "red", 2, "brown"), ("Birgit", "red", 2, "brown"), ("Franziska", "red", 1, "brown"),
    ("Helmut", "grey", 3, None),
    ("Albert", "red", 3, None), ("Birgit", "yellow", 1, "brown"), ("Franziska", "yellow", 3, None),
    ("Helmut", "yellow", 3, None),
    "intermezzo",
    ("Albert", "brown", 1, "brown"), ("Birgit", "brown", 3, "brown"), ("Franziska", "grey", 3, None),
    ("Helmut", "brown", 2, "brown"),
    ("Albert", "brown", 1, "brown"), ("Birgit", "blue", 3, None), ("Franziska", "grey", 3, None),
    ("Helmut", "grey", 1, "grey"),
    "finito",
]


def four_player_moves() -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    for turn in FOUR_PLAYER_TURNS:
        if isinstance(turn, str):
            moves.append({"type": "valuation", "phase": turn})
            continue
        player, tower, stories, marker = turn
        moves.append({"type": "build", "player": player, "tower": tower, "stories": stories})
        if marker:
            moves.append({"type": "influence", "player": player, "tower": marker})
    return moves


# -- checking the board against the engine -------------------------------------------------------
def fits(root: Any) -> None:
    """Nothing on ``root`` is cut, outside its parent or the window, too small to read or to tap
    (:mod:`tests.ui_fits`; a player across the table at 800×480)."""
    from tests.ui_fits import problems

    found = problems(root)
    assert not found, found


def check_board(h: Harness) -> None:
    """Every widget shows what the session's state and the engine's targets say."""
    board, state = h.board, h.session.state
    found = targets(state)
    ranks = {row.tower: row for row in standings(state)}
    for index, tower in enumerate(board.towers):
        column = board.columns[tower]
        assert column.head.height_text == str(state.heights[index]), (tower, column.head.height_text)
        if board.relocating is None:
            assert column.head.live == (tower in found.marker_towers), (tower, column.head.live)
        for button in column.builds.values():
            assert button.live == (tower in found.build_towers), (tower, button.text, button.live)
        assert str(ranks[tower].rank) in column.flag.text and not column.flag.text.startswith("#")
        shown = [row.children[-1].text for row in reversed(column.stack.children)]
        assert shown == [board.initials[g.player] for g in state.stacks[index]], (tower, shown)
    for player, cell in board.player_cells.items():
        assert cell.score.text == str(state.scores[player])
    for phase, button in board.phase_buttons.items():
        assert button.live == (phase in found.valuations), (phase, button.live)


def play(h: Harness, move: dict[str, Any]) -> int:
    """Enter ``move`` by touch, as a player would; returns the taps it took."""
    board = h.board
    kind = move["type"]
    if kind == "build":
        h.tap(board.columns[move["tower"]].builds[move["stories"]])
        return 1
    if kind == "influence":
        h.tap(board.columns[move["tower"]].head)
        return 1
    if kind == "relocate":
        h.tap(board.relocate)
        h.tap(board.columns[move["from"]].head)
        h.tap(board.columns[move["to"]].head)
        return 3
    if kind == "take":
        h.tap(next(b for b in _cards(h) if b.card == move["card"] and b.live))
        return 1
    if kind == "reveal":
        h.tap(_refill_button(h, move["card"]))
        return 1
    if kind == "valuation":
        h.hold(board.phase_buttons[move["phase"]])
        return 1
    raise AssertionError(f"no touch for {move}")


def _cards(h: Harness) -> list[Any]:
    """The buttons that stand for a tower style under the scores (display cards, refill choices), in order."""
    return [b for b in reversed(h.board.action_row.children) if getattr(b, "card", None)]


def _refill_button(h: Harness, card: str) -> Any:
    """The button of ``card``'s style among those asking which card refilled the display."""
    return next(b for b in _cards(h) if b.card == card)


def play_game(h: Harness, moves: list[dict[str, Any]], shots: str = "",
              pictures: dict[int, str] | None = None) -> dict[str, Any]:
    """Every move by touch, each checked: the log grows by exactly that move, the board follows.

    A valuation opens its screen (checked, pictured as ``SHOTS-PHASE``, closed by its button);
    ``pictures`` names a screenshot taken before the move of that index.
    """
    session, game = h.session, h.session.game
    first = len(session.log)
    taps = turns = 0
    for number, move in enumerate(moves, start=first + 1):
        if pictures and number - first - 1 in pictures:
            h.screenshot(pictures[number - first - 1])
        check_board(h)
        taps += play(h, move)
        turns += move["type"] == "build"
        assert len(session.log) == number, f"move {number} {move}: the log has {len(session.log)}"
        assert session.log[-1] == game.parse_move(move), (number, move, session.log[-1])
        if move["type"] == "valuation":
            view = h.board.valuation_view
            assert view is not None, "the valuation screen did not open"
            assert len(view.content.rows.children) == len(session.state.valuations[-1].flags)
            if shots:
                h.screenshot(f"{shots}-{move['phase']}")
            h.tap(view.content.close_button)
            assert h.board.valuation_view is None
    check_board(h)
    assert not h.refusals, [str(e.reason) for e in h.refusals]
    return {"taps": taps, "turns": turns, "scores": session.state.scores, "moves": len(session.log)}


# -- the scenarios -----------------------------------------------------------------------------------
@scenario
def rulebook_game(h: Harness) -> dict[str, Any]:
    """The example record, move by move, by touch; screenshots at both valuations and the end."""
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    with h.game(record["players"], setup=record["setup"]):
        h.screenshot("en-start")
        fits(h.board)
        facts = play_game(h, record["moves"], "en", {12: "en-midgame", 29: "en-after-intermezzo"})
        h.screenshot("en-end")
        h.tap(h.board.valuations_button)
        h.screenshot("en-valuations-after-end")
        h.tap(h.board.valuation_view.content.close_button)
        facts["finished"] = h.session.state.phase == "finished"
        return facts


@scenario
def four_players(h: Harness) -> dict[str, Any]:
    """Albert, Birgit, Franziska and Helmut play the rulebook's valuation examples by touch."""
    with h.game(FOUR):
        facts = play_game(h, four_player_moves(), "en-4p")
        state = h.session.state
        brown = {v.phase: next(f for f in v.flags if f.tower == "brown") for v in state.valuations}
        facts["intermezzo_brown"] = [[a.player, a.points] for a in brown["intermezzo"].awards]
        facts["finito_brown"] = [[a.player, a.points] for a in brown["finito"].awards]
        h.tap(h.board.valuations_button)
        view = h.board.valuation_view.content
        texts = [w.text for row in view.rows.children for w in row.children if hasattr(w, "text")]
        facts["explanations_shown"] = [t for t in texts if "closer to the base" in t]
        facts["finito_ranks_shown"] = [row.rank for row in reversed(view.rows.children)]
        h.screenshot("en-4p-finito-again")
        h.tap(view.tabs[0])
        assert view.shown == 0 and view.phase() == "intermezzo"
        h.screenshot("en-4p-intermezzo-tab")
        h.tap(view.close_button)
        return facts


@scenario
def refused_taps_change_nothing(h: Harness) -> dict[str, Any]:
    """Dimmed targets explain themselves through the engine's refusal, flash, and change nothing."""
    facts: dict[str, Any] = {"refusals": []}
    with h.game(FOUR):
        board, session = h.board, h.session

        def refused(widget: Any, how: str = "tap") -> None:
            before_log, before_state, before_refusals = session.log, session.state, len(h.refusals)
            (h.hold if how == "hold" else h.tap)(widget)
            assert session.log == before_log and session.state == before_state
            assert len(h.refusals) == before_refusals + 1, "no refusal was announced"
            assert h.refusals[-1].source == "touch"
            assert widget.flashing, "the refused widget did not flash"
            facts["refusals"].append(str(h.refusals[-1].reason))
            check_board(h)

        # Before any build: a marker, a valuation.
        assert not board.columns["red"].head.live
        refused(board.columns["red"].head)
        assert not board.phase_buttons["intermezzo"].live
        refused(board.phase_buttons["intermezzo"], "hold")
        # Albert builds 3 and places his only 3; two turns later he has no 3 left for any tower.
        for move in four_player_moves()[:2]:
            play(h, move)
        for player, tower in (("Birgit", "red"), ("Franziska", "blue"), ("Helmut", "grey")):
            play(h, {"type": "build", "player": player, "tower": tower, "stories": 1})
        play(h, {"type": "build", "player": "Albert", "tower": "yellow", "stories": 3})
        assert not any(c.head.live for c in board.columns.values()), "Albert has no 3 left"
        refused(board.columns["yellow"].head)
        # A short tap on a valuation card button changes nothing and announces nothing.
        before = session.log
        h.tap(board.phase_buttons["intermezzo"])
        assert session.log == before and board.valuation_view is None
        # The Valuations button before any valuation only flashes.
        h.tap(board.valuations_button)
        assert board.valuation_view is None and board.valuations_button.flashing
        facts["log"] = len(session.log)
    return facts


@scenario
def undo_redraws(h: Harness) -> dict[str, Any]:
    """table.undo() then refresh: the board shows the state before, and the same taps work again."""
    with h.game(FOUR):
        moves = four_player_moves()
        for move in moves[:6]:
            play(h, move)
        heights = [c.head.height_text for c in h.board.columns.values()]
        h.table.undo()
        h.table.undo()
        h.pump(2)
        check_board(h)
        after_undo = [c.head.height_text for c in h.board.columns.values()]
        assert h.board.columns["brown"].head.live is False  # Franziska's 1 was undone with her build
        for move in moves[4:6]:
            play(h, move)
        check_board(h)
        shown = _move_shown(h)
        # Undo across a valuation closes nothing that is not there and shows the flags as before.
        for move in moves[6:20]:
            play(h, move)
        h.tap(h.board.valuation_view.content.close_button)
        h.tap(h.board.valuations_button)
        assert h.board.valuation_view is not None
        h.table.undo()  # the Intermezzo is taken back while its screen is open
        h.pump(2)
        view = h.board.valuation_view.content
        assert view.shown is None and view.phase() == "intermezzo", "a taken-back valuation is still shown"
        h.tap(view.close_button)
        check_board(h)
        return {"heights": heights, "after_undo": after_undo, "shown": shown,
                "again": [c.head.height_text for c in h.board.columns.values()]}


def _move_shown(h: Harness) -> dict[str, Any]:
    """History's "show on board": a recorded move's tower lit until the next tap on the board; a move
    with no place (a valuation card) lights nothing."""
    from companion.games.campanile.moves import Relocate, Valuation

    board = h.board
    lit = lambda: [t for t, c in board.columns.items() if c.lit]  # noqa: E731
    facts: dict[str, Any] = {"build": board.show_move(h.session.log[0]), "lit": lit(),
                             "valuation": board.show_move(Valuation("intermezzo")), "still_lit": lit(),
                             "from_json": board.show_move({"type": "influence", "player": "Birgit",
                                                           "tower": "grey"}),
                             "relocation": board.show_move(Relocate("Albert", "red", "blue")),
                             "lit_relocation": lit()}
    if os.environ.get("COMPANION_UI_SHOTS"):
        h.screenshot("en-move-shown")
    log = h.session.log
    h.tap(board.columns["grey"].flag)  # a tap on the board that does nothing else
    facts["lit_after_tap"] = lit()
    assert h.session.log == log
    return facts


@scenario
def live_preview(h: Harness) -> dict[str, Any]:
    """"If the Intermezzo came now": the engine's preview, redrawn when a move arrives from elsewhere."""
    with h.game(FOUR):
        for move in four_player_moves()[:8]:
            play(h, move)
        h.tap(h.board.preview_button)
        view = h.board.valuation_view.content
        assert view.shown is None
        expected = preview(h.session.state)
        assert len(view.rows.children) == len(expected) == 4
        before = [w.text for w in _texts(view)]
        h.screenshot("en-preview")
        # Birgit's build and marker come from the buttons while the preview is open.
        game = h.session.game
        for move in four_player_moves()[8:10]:
            h.table.propose(game.parse_move(move), "buttons")
        h.pump(2)
        after = [w.text for w in _texts(view)]
        assert before != after, "the preview did not follow the move"
        shown = [row for row in view.rows.children]
        assert len(shown) == len(preview(h.session.state))
        h.tap(view.close_button)
        return {"rows": len(expected)}


def _texts(view: Any) -> list[Any]:
    return [w for w in view.walk() if hasattr(w, "text") and w.text]


@scenario
def hungarian(h: Harness) -> dict[str, Any]:
    """The same board in Hungarian: the catalogue's words, no English ones left of the board's own."""
    from companion.i18n import set_language

    set_language("hu")
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    with h.game(record["players"], setup=record["setup"]):
        board = h.board
        facts: dict[str, Any] = {"towers": [c.head.name_text for c in board.columns.values()],
                                 "buttons": [b.text for b in (board.preview_button, board.valuations_button,
                                                              *board.phase_buttons.values())]}
        h.screenshot("hu-start")
        play_game(h, record["moves"][:31], "hu")
        h.screenshot("hu-midgame")
        fits(h.board)
        h.tap(board.preview_button)
        facts["preview_title"] = board.valuation_view.content.title_row.children[-1].text
        h.screenshot("hu-preview")
        h.tap(board.valuation_view.content.close_button)
        refused = board.columns["red"].head
        h.tap(refused)  # Albert built 1 and placed his marker: no second one
        facts["refusal"] = str(h.refusals[-1].reason)
        facts["log"] = len(h.session.log)
        facts["flag_labels"] = [c.flag.text for c in board.columns.values()]
        # The language switched at the table: the shell redraws, the board speaks English.
        from companion.i18n import set_language

        set_language("en")
        board.refresh()
        facts["switched"] = [c.head.name_text for c in board.columns.values()]
        facts["switched_button"] = board.preview_button.text
    return facts


@scenario
def display_tracked(h: Harness) -> dict[str, Any]:
    """With the display tracked: a marker only under a style shown, the card taken, the refill asked."""
    setup = {"towers": ["grey", "brown", "red", "blue", "yellow"], "display": ["red", "red", "blue"]}
    with h.game(["Albert", "Birgit", "Franziska"], setup=setup):
        board, session = h.board, h.session
        h.tap(board.columns["brown"].builds[2])
        check_board(h)
        live = [t for t, c in board.columns.items() if c.head.live]
        assert live == ["red", "blue"], live
        h.tap(board.columns["grey"].head)  # grey is not in the display: refused
        assert len(session.log) == 1 and h.refusals, "a marker under grey was accepted"
        h.tap(board.columns["red"].head)
        assert len(session.log) == 2
        h.screenshot("en-display-take")
        cards = _cards(h)
        assert [b.live for b in cards] == [True, True, True]
        h.tap(cards[2])  # takes blue
        assert session.state.display == ("red", "red")
        h.screenshot("en-display-refill")
        fits(h.board)
        refill = _cards(h)
        assert len(refill) == 5
        h.tap(refill[0])  # a grey card was turned over
        assert session.state.display == ("red", "red", "grey")
        check_board(h)
        # Birgit's turn: the Intermezzo card comes up in place of the refill; then the display is refilled.
        h.tap(board.columns["red"].builds[1])
        assert not board.phase_buttons["intermezzo"].live, "the valuation before the card was taken"
        h.tap(next(b for b in _cards(h) if b.card == "grey"))
        assert board.phase_buttons["intermezzo"].live and [b.card for b in _cards(h)] == list(board.towers)
        h.hold(board.phase_buttons["intermezzo"])
        assert board.valuation_view is not None and session.state.phase == "after-intermezzo"
        h.tap(board.valuation_view.content.close_button)
        assert [b.card for b in _cards(h)] == list(board.towers), "no refill asked after the Intermezzo"
        assert not any(b.live for c in board.columns.values() for b in c.builds.values())
        h.tap(_refill_button(h, "yellow"))
        check_board(h)
        assert session.state.display == ("red", "red", "yellow")
        assert all(b.live for c in board.columns.values() for b in c.builds.values()), "Franziska may build"
        return {"log": len(session.log), "display": list(session.state.display),
                "refusal": str(h.refusals[0].reason)}


@scenario
def two_player_relocation(h: Harness) -> dict[str, Any]:
    """The optional 2-player rule: after a 2-story raise, move a value-2 marker in three taps."""
    flags = {"intermezzo": [[3, 1], [2, 1], [2], [1]], "finito": [[5, 2], [4, 1], [3], [2], [1]]}
    with h.game(["Albert", "Birgit"], options={"two_player_move": True},
                before=lambda app: CampanileService.of(app).confirm_flag_table(flags)):
        board, session = h.board, h.session
        for move in ({"type": "build", "player": "Albert", "tower": "red", "stories": 2},
                     {"type": "influence", "player": "Albert", "tower": "red"},
                     {"type": "build", "player": "Birgit", "tower": "blue", "stories": 1},
                     {"type": "build", "player": "Albert", "tower": "grey", "stories": 2}):
            play(h, move)
        assert board.relocate.live
        play(h, {"type": "relocate", "player": "Albert", "from": "red", "to": "yellow"})
        state = session.state
        stacks = {t: [(g.player, g.markers) for g in s] for t, s in zip(state.rules.towers, state.stacks,
                                                                       strict=True)}
        check_board(h)
        h.screenshot("en-2p-after-relocation")
        fits(h.board)
        return {"red": stacks["red"], "yellow": stacks["yellow"], "log": len(session.log),
                "flags": [list(f) for f in state.rules.finito_flags]}


@scenario
def two_player_flag_table(h: Harness) -> dict[str, Any]:
    """The first 2-player game: the flag values copied from the cards in two taps each, checked by the
    service; an incomplete table is refused naming the flag and keeps nothing."""
    import tempfile

    from companion.service.app import Companion
    from ui.games.campanile.flags import FlagTableForm, needs_flag_table

    cards = {"intermezzo": [[3, 1], [2, 1], [2], [1]], "finito": [[5, 2], [4, 1], [3], [2], [1]]}
    confirmed: list[dict[str, Any]] = []
    facts: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder, Companion.open(Path(folder) / "c.sqlite3") as app:
        assert needs_flag_table(app, "campanile", ["Albert", "Birgit"])
        form = FlagTableForm(app, confirmed.append, size_hint=(None, None), size=(800, 480), pos=(0, 0))
        h.window.add_widget(form)
        try:
            h.pump(3)
            assert all(button.text == "" for button in form.fields.values()), "a field came filled in"
            h.tap(form.confirm)  # nothing entered: refused, nothing kept
            assert CampanileService.of(app).flag_table() is None and not confirmed and form.confirm.flashing
            facts["empty"] = form.problem.text
            h.screenshot("en-flags-refused")
            for phase in ("intermezzo", "finito"):
                for index, values in enumerate(cards[phase]):
                    h.tap(form.fields[(phase, index, 0)])
                    for value in values:
                        h.tap(form.pad[value])
            h.screenshot("en-flags-filled")
            h.tap(form.confirm)
            assert confirmed == [cards] and CampanileService.of(app).flag_table() == cards
            assert not needs_flag_table(app, "campanile", ["Albert", "Birgit"])
            facts["stored"] = CampanileService.of(app).flag_table()
            # A second form starts from the stored table, for correcting it.
            h.window.remove_widget(form)
            set_hungarian()
            form = FlagTableForm(app, confirmed.append, size_hint=(None, None), size=(800, 480), pos=(0, 0))
            h.window.add_widget(form)
            h.pump(3)
            h.tap(form.fields[("finito", 2, 0)])
            h.tap(form.pad[None])  # clears the finito #3 flag: refused, the stored table stays
            h.tap(form.confirm)
            facts["hu_problem"] = form.problem.text
            h.screenshot("hu-flags-refused")
            fits(form)
            assert CampanileService.of(app).flag_table() == cards
        finally:
            h.window.remove_widget(form)
    return facts


def set_hungarian() -> None:
    from companion.i18n import set_language

    set_language("hu")


# -- widgets updated, not rebuilt ----------------------------------------------------------------------
def _made_by(action: Any, root: Any) -> list[int]:
    """What ``action`` did to the widgets under ``root``: how many appeared there
    (:func:`tests.ui_kit.widgets_made_by`: made, or moved in from outside ``root``), and how many of
    those were made by it (Kivy numbers every object it makes: ``uid`` above the last one before)."""
    from kivy.event import EventDispatcher

    from tests.ui_kit import widgets_made_by  # the child's window is already made: this adds none

    last = EventDispatcher().uid
    appeared = widgets_made_by(action, root)
    return [len(appeared), sum(1 for widget in appeared if widget.uid > last)]


@scenario
def widgets_kept(h: Harness) -> dict[str, Any]:
    """The board, the valuation screen and the flag form keep their widgets from one change to the next:
    how many each kind of change creates (a tap, a move from elsewhere, a tab, a pad key)."""
    made: dict[str, list[int]] = {}
    moves = four_player_moves()
    with h.game(FOUR):
        board = h.board
        play(h, moves[0])
        play(h, moves[1])
        play(h, moves[2])  # Birgit builds: every row and button there is has been drawn once
        made["marker_new_group"] = _made_by(lambda: play(h, moves[3]), board)
        made["build"] = _made_by(lambda: play(h, moves[4]), board)
        play(h, moves[5])
        made["build_no_marker"] = _made_by(lambda: play(h, moves[6]), board)
        h.tap(board.preview_button)  # the valuation screen is made the first time it opens
        view = board.valuation_view
        game = h.session.game
        made["preview_follows_a_move"] = _made_by(
            lambda: h.table.propose(game.parse_move(moves[7]), "buttons"), view)
        h.tap(view.content.close_button)
    # A tracked display: a card taken, the refill asked and answered, then the Intermezzo held.
    setup = {"towers": ["grey", "brown", "red", "blue", "yellow"], "display": ["red", "red", "blue"]}
    with h.game(["Albert", "Birgit", "Franziska"], setup=setup):
        board = h.board
        h.tap(board.columns["brown"].builds[2])
        h.tap(board.columns["red"].head)
        made["card_taken_refill_asked"] = _made_by(lambda: h.tap(_cards(h)[2]), board)
        made["refilled"] = _made_by(lambda: h.tap(_refill_button(h, "grey")), board)
        h.tap(board.preview_button)  # made here, as above; closed
        h.tap(board.valuation_view.content.close_button)
        h.tap(board.columns["red"].builds[1])
        h.tap(next(b for b in _cards(h) if b.card == "grey"))
        made["valuation_held"] = _made_by(lambda: h.hold(board.phase_buttons["intermezzo"]), board._popup)
        view = board.valuation_view
        made["valuation_tab"] = _made_by(lambda: h.tap(view.content.tabs[None]), view)
        made["undo_valuation"] = _made_by(lambda: (h.table.undo(), h.pump(2)), view)
        h.tap(view.content.close_button)
    import tempfile

    from companion.service.app import Companion
    from ui.games.campanile.flags import FlagTableForm

    with tempfile.TemporaryDirectory() as folder, Companion.open(Path(folder) / "c.sqlite3") as app:
        form = FlagTableForm(app, lambda _t: None, size_hint=(None, None), size=(800, 480), pos=(0, 0))
        h.window.add_widget(form)
        try:
            h.pump(3)
            made["flag_field"] = _made_by(lambda: h.tap(form.fields[("finito", 1, 0)]), form)
            made["flag_key"] = _made_by(lambda: h.tap(form.pad[4]), form)
            made["flags_refused"] = _made_by(lambda: h.tap(form.confirm), form)
        finally:
            h.window.remove_widget(form)
    return made


# -- read in one glance: the valuation screens and the board at the end, fitted to 800×480 ---------------
FIVE = ["Albert", "Birgit", "Franziska", "Helmut", "Ildikó"]
#: Five players, each a marker under red (Birgit and Franziska tied), then the Intermezzo: "if the
#: Finito came now" then gives red the 6/4/2 and five groups under it on one line.
FIVE_PLAYER_TURNS = [("Albert", "red", 3), ("Birgit", "red", 2), ("Franziska", "blue", 2),
                     ("Helmut", "blue", 1), ("Ildikó", "yellow", 1)]


def _in_both_languages(h: Harness, look: Any) -> dict[str, Any]:
    """``look(language)`` in English, then again with the table switched to Hungarian (the board and
    the screen over it redrawn in place, as the shell does): {language: what it saw}. It stays in
    Hungarian (every text drawn again is what a look costs most)."""
    from companion.i18n import set_language

    seen = {}
    for language in ("en", "hu"):
        set_language(language)
        h.board.refresh()
        seen[language] = look(language)
    return seen


def _valuation_seen(h: Harness, view: Any, name: str) -> dict[str, Any]:
    """What a player sees of the valuation screen now: everything fits (:mod:`tests.ui_fits`), and the
    order of the rows, the awards and the totals as shown (pictured as ``NAME`` when the screenshots
    are kept: a screenshot costs more than the rest)."""
    from tests.ui_fits import problems

    h.pump(3)
    figures = tuple(cell.ids.second for cell in view.gains)
    one_line = (*figures, *(cell.ids.first for cell in view.holdings),
                *(row.ids.tag for row in view.flag_rows), *(row.ids.flag for row in view.flag_rows))
    found = problems(view, figures=figures, one_line=one_line)
    assert not found, (name, found)
    if os.environ.get("COMPANION_UI_SHOTS"):
        h.screenshot(name)
    rows = list(reversed(view.rows.children))
    totals = [int(cell.second) for cell in reversed(view.totals.children) if getattr(cell, "second", "")]
    return {"ranks": [row.rank for row in rows], "awards": [[p for _, p in row.awards_shown] for row in rows],
            "totals": totals, "scrolls": view.rows.height > view.rows.parent.height + 1,
            "holdings_lines": len({round(cell.y) for cell in view.holdings})}


@scenario
def valuations_fit(h: Harness) -> dict[str, Any]:
    """Both valuations of the rulebook game and the five-player "if the Finito came now", in English
    and Hungarian: nothing cut or outside, the #1 tower first, the biggest award first, the totals
    large, each player's chips on one line; and the board at the end offers nothing to tap. (The
    moves are proposed, not tapped: the taps are the other scenarios'.)"""
    from companion.i18n import set_language

    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    seen: dict[str, Any] = {}

    def valuation(name: str) -> Any:
        view = h.board.valuation_view.content
        for language, found in _in_both_languages(
                h, lambda language: _valuation_seen(h, view, f"{language}-fit-{name}")).items():
            seen[f"{language}-{name}"] = found
        return view

    with h.game(record["players"], setup=record["setup"]):
        game = h.session.game
        for move in record["moves"]:
            h.table.propose(game.parse_move(move), "touch")
        seen["over"] = _board_over(h)
        h.tap(h.board.valuations_button)
        view = h.board.valuation_view.content
        for index in (0, 1):
            h.tap(view.tabs[index])
            valuation(view.phase())
        h.tap(view.close_button)
    set_language("en")
    with h.game(FIVE):
        game = h.session.game
        for player, tower, stories in FIVE_PLAYER_TURNS:
            for move in ({"type": "build", "player": player, "tower": tower, "stories": stories},
                         {"type": "influence", "player": player, "tower": "red"}):
                h.table.propose(game.parse_move(move), "touch")
        h.table.propose(game.parse_move({"type": "valuation", "phase": "intermezzo"}), "touch")
        h.tap(h.board.preview_button)
        view = valuation("five")
        seen["five-groups"] = len(view.flag_rows[0].groups.children) - 1
        h.tap(view.close_button)
    return seen


def _board_over(h: Harness) -> dict[str, Any]:
    """The board once the game is over: nothing cut, what it still offers, what a tap on a tower does."""
    from tests.ui_fits import problems

    board = h.board
    h.pump(2)
    assert not problems(board), problems(board)
    offered = [w for w in board.walk(restrict=True) if getattr(w, "live", False) and w.get_root_window()]
    before, refusals = h.session.log, len(h.refusals)
    h.tap(board.columns["red"].head)
    if os.environ.get("COMPANION_UI_SHOTS"):
        h.screenshot(f"{board.language}-over-board")
    return {"offered": [w.text for w in offered],
            "builds_shown": any(b.get_root_window() for c in board.columns.values()
                                for b in c.builds.values()),
            "cards_shown": any(b.get_root_window() for b in board.phase_buttons.values()),
            "preview_shown": board.preview_button.get_root_window() is not None,
            "tap_changed": h.session.log != before or len(h.refusals) != refusals,
            "flashed": board.columns["red"].head.flashing}
