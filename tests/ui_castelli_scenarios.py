"""Games played on the Castelli board by synthetic touches (run inside ``tests.ui_castelli_kit``).

Each scenario taps through the window as players would, checks after every
move that the log grew by exactly that move and that the widgets show what
the engine says (``targets``, ``build_targets``, ``player_views``), and returns
facts for the parent test. No rule is written again here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from companion.games.castelli import tables
from companion.games.castelli.views import build_targets, player_views, targets
from tests.ui_castelli_kit import EXAMPLE, CastelliHarness, scenario

#: A 4-player game on the example board with a tie at once: Anna's and Bela's tiles close the forest
#: a00 (2 wood) with blue 3 against red 3 (Csaba and Bela share: 1 wood each), and the field a31 and
#: forest a20 follow with Dora's tile.
TIE_PLAYERS = ["Anna", "Bela", "Csaba", "Dora"]
TIE_SETUP = {"colors": {"Anna": "green", "Bela": "red", "Csaba": "blue", "Dora": "yellow"}}
TIE_MOVES: list[dict[str, Any]] = [
    {"type": "reveal", "player": "Anna", "space": "s01",
     "shields": {"N": ["green", 2], "E": ["yellow", 1], "S": ["red", 4], "W": ["blue", 3]}, "silver": 1},
    {"type": "reveal", "player": "Bela", "space": "s10",
     "shields": {"N": ["red", 3], "E": ["green", "card"], "S": ["yellow", 5], "W": ["blue", 1]}, "silver": 0},
]


def example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def tie_setup() -> dict[str, Any]:
    return {**TIE_SETUP, "board": example()["setup"]["board"]}


# -- checking the board against the engine ------------------------------------------------------------
def check_board(h: CastelliHarness) -> None:
    """Every widget shows what the session's state and the engine's views say."""
    board, state = h.board, h.session.state
    found = targets(state)
    shown = board.view.shown
    spaces = frozenset(found.reveal_spaces) if board.area_card is None else frozenset()
    assert shown.live_spaces == spaces, (shown.live_spaces, found.reveal_spaces)
    builder = board.builder(state)
    if board.area_card is None:
        expected = {b["move"]["area"] for b in build_targets(state, builder)} if builder else set()
        assert shown.live_areas == frozenset(expected), (shown.live_areas, expected)
    assert shown.revealed == state.revealed
    for player, view in player_views(state).items():
        panel = board.panels[player]
        assert panel.score.text == str(view["score"]), (player, panel.score.text)
        for key in ("silver", "cards", "castles"):
            assert panel.counts[key].text == str(view[key]), (player, key)
    assert board.buttons["sell"].live == bool(found.sell)
    assert board.buttons["card"].live == bool(found.plays)
    assert board.buttons["steward"].live == bool(found.stewards)
    assert board.end_button.live == found.end


def picker_button(h: CastelliHarness, move: dict[str, Any]) -> Any:
    """The button of the open picker or area detail that enters ``move``."""
    overlay = h.board.overlay
    assert overlay is not None, f"no picker is open for {move}"
    wanted = {k: v for k, v in move.items() if v is not None}
    for button in overlay.walk():
        found = getattr(button, "move", None)
        if isinstance(found, dict) and {k: v for k, v in found.items() if v is not None} == wanted:
            return button
    shown = [getattr(b, "move", None) for b in overlay.walk() if getattr(b, "move", None)]
    raise AssertionError(f"no button enters {move}; offered: {shown}")


def enter_shields(h: CastelliHarness, move: dict[str, Any]) -> int:
    """The open pad filled in as a player reads the tile: per side its colour (unless implied) and value."""
    pad = h.board.overlay
    taps = 0
    for index, side in enumerate(tables.SIDES):
        colour, value = move["shields"][side]
        assert pad.current == index, (pad.current, index)
        if pad.sides[index][0] is None:
            h.tap(pad.colour_buttons[colour])
            taps += 1
        else:
            assert pad.sides[index][0] == colour, "the implied colour is not the tile's"
        h.tap(pad.value_buttons[value])
        taps += 1
    if move.get("silver"):
        h.tap(pad.silver_buttons[move["silver"]])
        taps += 1
    return taps


def play(h: CastelliHarness, move: dict[str, Any], shots: str = "") -> tuple[int, int]:
    """Enter ``move`` by touch; returns (taps to enter it, taps to close what it opened)."""
    board = h.board
    kind = move["type"]
    closes = 0
    if kind == "reveal":
        h.tap_place(move["space"])
        from ui.games.castelli.popups import EvaluationOverlay, RevealPad

        assert isinstance(board.overlay, RevealPad), f"no pad for {move['space']}"
        if move.get("swap"):
            h.tap(board.overlay.swap_button)
        taps = 1 + enter_shields(h, move)
        if shots:
            h.screenshot(f"{shots}-reveal-pad")
        h.tap(board.overlay.confirm)
        taps += 1
        if isinstance(board.overlay, EvaluationOverlay):
            assert len(board.overlay.rows.children) == len(board.followed())
            if shots:
                h.screenshot(f"{shots}-evaluation")
            h.tap(board.overlay.close_button)
            closes += 1
        return taps, closes
    if kind == "steward":
        h.tap(board.buttons["steward"])
        h.tap(picker_button(h, move))
        if board.overlay is not None:
            h.tap(board.overlay.close_button)
            closes += 1
        return 2, closes
    if kind == "sell":
        h.tap(board.buttons["sell"])
        if shots:
            h.screenshot(f"{shots}-sell-picker")
        h.tap(picker_button(h, move))
        return 2, 0
    if kind == "play":
        h.tap(board.buttons["card"])
        if shots:
            h.screenshot(f"{shots}-card-picker")
        if "area" in move:
            needs_area = next(b for b in board.overlay.walk() if hasattr(b, "move") and b.move is None
                              and move["player"] in _row_player(b))
            h.tap(needs_area)
            h.tap_place(move["area"])
            return 3, 0
        h.tap(picker_button(h, move))
        return 2, 0
    if kind == "build":
        h.tap_place(move["area"])
        if shots:
            h.screenshot(f"{shots}-build-confirm")
        h.tap(picker_button(h, move))
        return 2, 0
    if kind == "guard":
        h.tap(board.buttons["guard"])
        return 1, 0
    if kind == "end":
        h.hold(board.end_button)
        return 1, 0
    raise AssertionError(f"no touch for {move}")


def _row_player(button: Any) -> str:
    """The initials' row a picker button lies in (its player's badge is the row's first child)."""
    row = button.parent.parent
    return str(row.children[-1].text)


def play_moves(h: CastelliHarness, moves: list[dict[str, Any]], shots: dict[int, str] | None = None
               ) -> dict[str, Any]:
    """Every move by touch, each checked: the log grows by exactly that move, the board follows."""
    session, game = h.session, h.session.game
    first = len(session.log)
    per_type: dict[str, list[int]] = {}
    closes = 0
    for number, move in enumerate(moves, start=first + 1):
        check_board(h)
        taps, closed = play(h, move, (shots or {}).get(number - first - 1, ""))
        closes += closed
        per_type.setdefault(move["type"], []).append(taps)
        assert len(session.log) == number, f"move {number} {move}: the log has {len(session.log)}"
        assert session.log[-1] == game.parse_move(move), (number, move, session.log[-1])
        assert h.board.overlay is None, f"after move {number} an overlay is still open"
    check_board(h)
    assert not h.refusals, [str(e.reason) for e in h.refusals]
    return {"taps": per_type, "closes": closes, "log": [game.move_to_json(m) for m in session.log]}


def summary_facts(h: CastelliHarness) -> dict[str, Any]:
    summary = h.session.game.summary(h.session.state)
    keys = ("finished", "scores", "winners", "resources", "silver", "cards", "castles")
    return {k: summary[k] for k in keys}


# -- the scenarios ------------------------------------------------------------------------------------
@scenario
def example_game(h: CastelliHarness) -> dict[str, Any]:
    """The example record, move by move, by touch; screenshots of every overlay on the way."""
    record = example()
    with h.game(record["players"], options=record["options"], setup=record["setup"]):
        h.screenshot("en-board-start")
        # move 0: Anna's reveal (pad, then the evaluation of nothing); 4: Dora's sale; 6: Anna's King;
        # 17: Dora's build (the area's detail with its build)
        shots = {0: "en-first", 4: "en", 6: "en", 9: "en-dora", 17: "en"}
        facts = play_moves(h, record["moves"], shots)
        facts["summary"] = summary_facts(h)
        h.screenshot("en-board-end")
        h.tap(h.board.buttons["evaluations"])
        facts["evaluations_shown"] = len(h.board.overlay.rows.children)
        h.screenshot("en-evaluations")
        h.tap(h.board.overlay.close_button)
        return facts


@scenario
def tie_game(h: CastelliHarness) -> dict[str, Any]:
    """A tie in an evaluation: the overlay shows both colours' influence and the engine's split."""
    with h.game(TIE_PLAYERS, setup=tie_setup()):
        play(h, TIE_MOVES[0])
        h.tap_place(TIE_MOVES[1]["space"])
        enter_shields(h, TIE_MOVES[1])
        h.tap(h.board.overlay.confirm)
        overlay = h.board.overlay
        from ui.games.castelli.popups import EvaluationOverlay

        assert isinstance(overlay, EvaluationOverlay), "no evaluation overlay after the tie"
        h.screenshot("en-tie-overlay")
        rows = list(reversed(overlay.rows.children))
        shown = [{"influence": row.influence, "why": row.why.text} for row in rows]
        h.tap(overlay.close_button)
        state = h.session.state
        # the area's detail after its evaluation says how it was split
        h.tap_place("a00")
        detail = [w.text for w in h.board.overlay.walk() if getattr(w, "text", "")]
        h.screenshot("en-tie-area")
        h.tap(h.board.overlay.close_button)
        check_board(h)
        return {"shown": shown, "engine": [{"area": e.area, "influence": dict(e.influence),
                                            "awards": {p: dict(a) for p, a in e.awards.items()},
                                            "why": str(e.explanation)} for e in state.evaluations],
                "detail": detail}


@scenario
def refused_taps_change_nothing(h: CastelliHarness) -> dict[str, Any]:
    """Dimmed things answer with the engine's refusal, flash, and change nothing."""
    facts: dict[str, Any] = {"refusals": []}
    record = example()
    with h.game(record["players"], setup=record["setup"]):
        board, session = h.board, h.session

        def refused(action: Callable[[], Any], what: str) -> None:
            before_log, before_state, before = session.log, session.state, len(h.refusals)
            action()
            assert session.log == before_log and session.state == before_state, what
            assert len(h.refusals) == before + 1, f"no refusal was announced for {what}"
            assert h.refusals[-1].source == "touch"
            facts["refusals"].append(str(h.refusals[-1].reason))
            check_board(h)

        refused(lambda: h.tap(board.buttons["sell"]) or h.tap(next(
            b for b in board.overlay.walk() if getattr(b, "move", None))), "a sale without cards")
        facts["picker_problem"] = board.overlay.problem.text
        h.tap(board.overlay.close_button)
        refused(lambda: h.hold(board.end_button), "the end with tiles face down")
        assert board.end_button.flashing
        play(h, record["moves"][0])  # Anna reveals s34
        refused(lambda: h.tap_place("s34"), "a face-up tile again")
        refused(lambda: h.tap(board.buttons["steward"]), "a Steward without a card")
        h.tap_place("a11")  # a rock where Anna has no shield: only a dimmed "build here"
        button = next(b for b in board.overlay.walk() if getattr(b, "move", None))
        assert not button.live
        refused(lambda: h.tap(button), "a build without influence")
        facts["area_problem"] = board.overlay.problem.text
        h.screenshot("en-refused-build")
        h.tap(board.overlay.close_button)
        # the pad refuses nothing by itself but a colour already on the tile, which only flashes
        h.tap_place("s14")
        pad = board.overlay
        h.tap(pad.colour_buttons["blue"])
        h.tap(pad.value_buttons[2])
        h.tap(pad.colour_buttons["blue"])
        assert pad.colour_buttons["blue"].flashing and pad.sides[1] == [None, None]
        h.tap(pad.confirm)  # incomplete: named in the pad, nothing proposed
        facts["pad_problem"] = pad.problem.text
        h.tap(pad.close_button)
        assert board.overlay is None and len(session.log) == 1
        facts["log"] = len(session.log)
    return facts


@scenario
def steward_and_area_cards(h: CastelliHarness) -> dict[str, Any]:
    """The Steward's re-turn in two taps (the evaluations follow the new direction); Peasant's area picked
    on the board."""
    record = example()
    with h.game(record["players"], setup=record["setup"]):
        session = h.session
        play(h, record["moves"][0])  # Anna reveals s34 with a card shield: she draws a card
        play(h, record["moves"][1])  # Bela reveals s14
        assert h.board.buttons["steward"].live
        h.tap(h.board.buttons["steward"])
        h.screenshot("en-steward-picker")
        choices = [b.move for b in h.board.overlay.walk() if getattr(b, "move", None)]
        found = targets(session.state)
        assert len(choices) == len(found.stewards)
        turn = choices[0]
        h.tap(picker_button(h, turn))
        if h.board.overlay is not None:
            h.tap(h.board.overlay.close_button)
        assert session.log[-1] == session.game.parse_move(turn)
        check_board(h)
        return {"log": len(session.log), "turned": turn["shields"]}


@scenario
def hungarian(h: CastelliHarness) -> dict[str, Any]:
    """The same board in Hungarian: the board, the pad, an evaluation, an area, a build, the card picker."""
    from companion.i18n import set_language

    set_language("hu")
    record = example()
    with h.game(record["players"], setup=record["setup"]):
        board = h.board
        facts: dict[str, Any] = {"buttons": [b.text for b in (*board.buttons.values(), board.end_button)],
                                 "hint": board.step_text}
        h.screenshot("hu-board-start")
        play_moves(h, record["moves"][:17], {0: "hu-first", 6: "hu", 9: "hu-dora", 4: "hu"})
        h.tap_place(record["moves"][17]["area"])
        facts["build"] = [b.text for b in board.overlay.walk() if getattr(b, "move", None)]
        facts["area"] = [w.text for w in board.overlay.walk() if getattr(w, "text", "")]
        h.screenshot("hu-build-confirm")
        h.tap(board.overlay.close_button)
        h.tap(board.buttons["evaluations"])
        facts["evaluations"] = [w.text for w in board.overlay.walk() if getattr(w, "text", "")]
        h.screenshot("hu-evaluations")
        h.tap(board.overlay.close_button)
        h.tap_place("s34")  # face up already: the engine's refusal, in Hungarian
        facts["refusal"] = str(h.refusals[-1].reason)
        h.screenshot("hu-board")
    return facts


@scenario
def full_board(h: CastelliHarness) -> dict[str, Any]:
    """The shipped 32-space layout fits the window with every cell a touch target; a few turns on it."""
    from tests.castelli_pan_kit import pan_into_view
    from ui.theme import TOUCH

    players = ["Anna", "Bela", "Csaba"]
    with h.game(players, setup={"colors": {"Anna": "green", "Bela": "red", "Csaba": "blue"},
                                "board": "example-4p"}):
        board = h.board
        cell = board.view.cell
        assert cell >= TOUCH, f"cells of {cell:.1f} px"
        for name in [*board.state.board.spaces, *board.state.board.areas]:
            pan_into_view(board, name, h.tap)  # the board pans (its cells at 48 px do not all fit)
            x, y = board.view.centre_of(name)
            assert 0 <= x < 800 and 0 <= y < 480 - 64, (name, x, y)
        moves = [
            {"type": "reveal", "player": "Anna", "space": "s01",
             "shields": {"N": ["green", 3], "E": ["yellow", 2], "S": ["red", 1], "W": ["blue", 2]},
             "silver": 1},
            {"type": "reveal", "player": "Bela", "space": "s10",
             "shields": {"N": ["red", 2], "E": ["blue", "card"], "S": ["green", 4], "W": ["yellow", 6]},
             "silver": 0},
            {"type": "reveal", "player": "Csaba", "space": "s12",
             "shields": {"N": ["yellow", 5], "E": ["green", 1], "S": ["blue", 2], "W": ["red", 3]},
             "silver": 2},
        ]
        facts = play_moves(h, moves, {2: "en-32"})
        h.screenshot("en-board-32")
        h.tap_place("a11")
        h.screenshot("en-32-area")
        facts["area_lines"] = [w.text for w in board.overlay.walk() if getattr(w, "text", "")]
        h.tap(board.overlay.close_button)
        facts["cell"] = cell
        return facts


@scenario
def area_card(h: CastelliHarness) -> dict[str, Any]:
    """A card that takes an area (the Peasant): Card, the card, then the area on the board."""
    record = example()
    board_json = json.loads(json.dumps(record["setup"]["board"]))
    board_json["areas"]["a06"] = {"kind": "plain", "at": [0, 6]}  # an empty place for a village
    with h.game(record["players"], setup={**record["setup"], "board": board_json}):
        session = h.session
        play(h, record["moves"][0])  # Anna reveals s34 with a card shield: she draws a card
        move = {"type": "play", "player": "Anna", "card": "peasant", "area": "a06"}
        h.tap(h.board.buttons["card"])
        needs_area = next(b for b in h.board.overlay.walk() if hasattr(b, "move") and b.move is None)
        h.tap(needs_area)
        assert h.board.view.shown.live_areas == frozenset({"a06"}), h.board.view.shown.live_areas
        assert not h.board.view.shown.live_spaces, "tiles still ringed while the card waits for its area"
        check_board(h)
        h.screenshot("en-peasant-area")
        h.tap_place("a06")
        assert session.log[-1] == session.game.parse_move(move)
        assert session.state.settlements.get("a06") == "village"
        check_board(h)
        return {"log": len(session.log)}
