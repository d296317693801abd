"""The San Gimignano board, played by synthetic touches in the offscreen window through the whole shell.

Every tap goes through the window as a finger's does (a covered or misplaced
target fails), on a real table over a temporary SQLite store. After every
move the log must have grown by exactly that move and the board must show
what the engine says (``targets``, ``who_must_build``, the counts); the
screenshots go to ``$UI_SCREENSHOTS`` when set (to be looked at), else to the
test's temporary directory.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.graphics import Color, Ellipse, Rectangle
from kivy.tests.common import UnitTestTouch

from companion import i18n
from companion.games.base import RecordError
from companion.games.messages import msg
from companion.games.san_gimignano import geometry, views
from companion.games.san_gimignano.layout import default_setup
from companion.registry import get_game
from tests.contract_kit import random_states
from tests.refusals import english_words_in
from tests.ui_san_gimignano_kit import (
    EXPECTED,
    TAPS,
    as_record,
    board_of,
    check_board,
    play_move,
    record,
    tap_point,
    tap_space,
)
from ui.games.san_gimignano.board import SanGimignanoBoard, type_of
from ui.games.san_gimignano.map import SMALLEST_SIZE, target_size, tokens_side_by_side
from ui.games.san_gimignano.widgets import GUILD_RGB
from ui.screens.history import HistoryRow
from ui.theme import BACKGROUND, RING_DARK, RING_LIGHT, SURFACE, contrast, piece_colour


@pytest.fixture
def shell(tmp_path: Path):
    i18n.set_language("en")
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)
    i18n.set_language("en")


def start_by_touch(shell: Any, players: list[str]) -> Any:
    """From home: New game, San Gimignano, the players typed in, Start: the setup form is shown."""
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    kit.tap(kit.find("San Gimignano"))
    new = shell.screens.get_screen("new")
    for name in players:
        new.name_field.text = name
        kit.tap(kit.find(i18n.text("ui.new.add")))
    kit.tap(kit.find(i18n.text("ui.new.start", game="San Gimignano")))
    assert new.form is not None, "the setup form was not shown"
    return new.form


def lay_out_by_touch(form: Any, segments: list[dict[str, Any]]) -> int:
    """Match the form's laid-out segments to ``segments`` by touch (select, type, turn); returns the taps."""
    taps = 0
    for segment in segments:
        at = tuple(segment["at"])
        edges = tuple(segment["edges"])
        assert at in form.layout, f"the form lays out no segment at {at}"
        if form.layout[at] == edges:
            continue
        tap_point(*form.map.point_of((at[0], at[1], form.layout[at][0])))
        assert form.selected == at
        kit.tap(form.palette[type_of(edges, form.guilds)])
        taps += 2
        for _ in range(6):
            if form.layout[at] == edges:
                break
            kit.tap(form.turn_button)
            taps += 1
        assert form.layout[at] == edges, (at, form.layout[at], edges)
        tap_point(*form.map.point_of((at[0], at[1], edges[0])))  # done with it
        taps += 1
    return taps


def test_the_example_game_from_home_to_its_last_move_by_touch(shell: Any, shots: Path) -> None:
    game = record()
    form = start_by_touch(shell, game["players"])
    kit.screenshot(shots / "en-setup.png")
    lay_out_by_touch(form, game["setup"]["segments"])
    assert form.details().setup["hands"] == game["setup"]["hands"]
    kit.tap(form.start)
    session = shell.table.session
    assert session is not None and session.game.name == "san-gimignano"
    assert shell.screens.current == "game"
    engine = session.game
    assert engine.setup_json(session.state)["segments"] == game["setup"]["segments"]
    board = board_of(shell)
    check_board(board)
    kit.screenshot(shots / "en-start.png")
    taps: dict[str, list[int]] = {}
    for number, move in enumerate(game["moves"], start=1):
        if number == 2:
            kit.tap(board.palette[type_of(tuple(move["edges"]), tuple(board.state.guilds))])
            kit.screenshot(shots / "en-segment-type-chosen.png")
            kit.tap(board.cancel_button)
        if move["type"] == "tower" and not (shots / "en-must-build.png").exists():
            kit.screenshot(shots / "en-must-build.png")
        used = play_move(board, move)
        assert len(session.log) == number, f"move {number} was not entered: {move}; " \
                                           f"refusal: {shell.banner.text!r}"
        assert as_record(engine.move_to_json(session.log[-1])) == as_record(move), number
        assert used <= TAPS[move["type"]], (number, move, used)
        taps.setdefault(move["type"], []).append(used)
        check_board(board)
    kit.screenshot(shots / "en-end.png")
    summary = engine.summary(session.state)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    for key, value in expected.items():
        assert summary[key] == value, key
    assert taps["token"] and max(taps["token"]) == 1
    assert max(taps["segment"]) <= 3 and max(taps["tower"]) <= 2


def start_example(shell: Any, moves: int) -> tuple[Any, SanGimignanoBoard]:
    """The example's game started on the table and its first ``moves`` moves entered (not by touch)."""
    game = record()
    shell.table.start("san-gimignano", game["players"], options=game["options"], setup=game["setup"])
    session = shell.table.session
    for move in game["moves"][:moves]:
        shell.table.propose(session.game.parse_move(move))
    kit.pump(3)
    return session, board_of(shell)


def first_forced(game: dict[str, Any]) -> int:
    """The index of the example's first tower (the rulebook forces it: it could be built, so it must)."""
    return next(i for i, m in enumerate(game["moves"]) if m["type"] == "tower")


def test_a_forced_build_is_announced_refuses_the_rest_and_takes_one_tap(shell: Any, shots: Path) -> None:
    game = record()
    at = first_forced(game)
    session, board = start_example(shell, at)
    state = session.state
    forced = views.who_must_build(state)
    tower = game["moves"][at]
    assert forced == [tower["player"]]
    assert board.urgent and not board.step_text  # the strip says the engine's words for the build owed
    assert board.build_button.accent
    lit = board.map.scene.build_spaces
    assert (tower["space"][0], tower["space"][1], tower["space"][2]) in lit
    kit.screenshot(shots / "en-forced-build.png")

    # Another move now: the next player's token on a space with room, outside the group.
    nxt = state.players[state.next_seat]
    free = next(s for s in views.token_spaces(state, nxt) if s not in lit)
    tap_space(board, free)
    assert len(session.log) == at, "a move was entered while a tower was owed"
    owed = i18n.say(msg("san_gimignano.turn.owes_tower", current=tower["player"], player=nxt))
    assert shell.banner.shown and shell.banner.text == owed
    kit.screenshot(shots / "en-forced-refused.png")
    # A segment type, too: refused, nothing changes.
    kit.tap(next(iter(board.palette.values())))
    assert len(session.log) == at and shell.banner.shown

    tap_space(board, tower["space"])
    assert len(session.log) == at + 1
    assert as_record(session.game.move_to_json(session.log[-1])) == as_record(tower)
    assert not board.urgent
    check_board(board)


def test_illegal_taps_change_nothing_and_say_why(shell: Any) -> None:
    session, board = start_example(shell, 20)
    state = session.state
    before = (len(session.log), session.state)
    # A space holding two tokens already.
    full = next(s for s, owners in state.tokens.items() if len(owners) == 2)
    tap_space(board, full)
    assert (len(session.log), session.state) == before
    assert shell.banner.shown and shell.banner.text == i18n.say(msg("san_gimignano.token.full", count=2))
    # Build with nothing to build on: the engine's refusal.
    assert not board.build_button.live
    kit.tap(board.build_button)
    assert (len(session.log), session.state) == before
    assert shell.banner.text
    # Pass while a token can be placed.
    kit.tap(board.pass_button)
    assert (len(session.log), session.state) == before
    player = session.game.to_move(state)
    assert shell.banner.text == i18n.say(msg("san_gimignano.pass.can_token", player=player))


def test_an_empty_position_tapped_before_a_type_flashes_the_palette_and_proposes_nothing(shell: Any) -> None:
    session, board = start_example(shell, 1)  # Ada placed her token: her segment comes next
    live = [key for key in board.palette.values() if key.live]
    assert live, "the palette offers no segment type after the token"
    spot = views.open_positions(session.state)[0]
    tap_point(*board.map.point_of_position(spot))
    assert len(session.log) == 1
    assert all(key.flashing for key in live)
    # With a type chosen, a position where it does not fit is refused by the engine, and nothing changes.
    kind = next(k for k, key in board.palette.items() if key.live)
    kit.tap(board.palette[kind])
    lit = board.map.scene.lit_positions
    assert lit == {at for at, _ in board._placements({"Ada": views.targets(session.state, "Ada")}, kind)}
    lonely = (0, -1)  # empty, touching only the segment at (0, 0): no segment may go there
    assert lonely not in session.state.segments and lonely not in views.open_positions(session.state)
    for _ in range(6):
        if board.map.shows(board.map.point_of_position(lonely)):
            break
        kit.tap(board.zoom_out)
    tap_point(*board.map.point_of_position(lonely))
    assert shell.banner.text == i18n.say(msg("san_gimignano.segment.needs_two"))
    assert len(session.log) == 1
    assert shell.banner.shown and shell.banner.text


def test_zoom_and_pan_buttons_move_the_map_and_fit_brings_all_back(shell: Any, shots: Path) -> None:
    _session, board = start_example(shell, 0)
    fitted = board.map.view
    assert fitted is not None
    kit.tap(board.zoom_in)
    assert board.map.view.size > fitted.size
    kit.tap(board.zoom_in)
    bigger = board.map.view.size
    kit.tap(board.zoom_out)
    assert fitted.size < board.map.view.size < bigger
    origin = board.map.view.origin
    kit.tap(board.pans["right"])
    assert board.map.view.origin[0] < origin[0]
    kit.tap(board.pans["up"])
    assert board.map.view.origin[1] < origin[1]
    kit.screenshot(shots / "en-zoomed.png")
    # A move redraws without losing the players' view.
    zoomed = board.map.view
    kit.tap(board.pans["left"])
    kit.tap(board.pans["down"])
    space = views.token_spaces(board.state, "Ada")[0]
    tap_space(board, space)
    assert len(board.table.session.log) == 1
    assert board.map.view.size == zoomed.size
    kit.tap(board.fit_button)
    assert board.map.view == fitted


def test_a_drag_pans_and_is_never_a_tap(shell: Any) -> None:
    session, board = start_example(shell, 0)
    before = board.map.view
    x, y = board.map.point_of(views.token_spaces(session.state, "Ada")[0])
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_move(x + 60, y + 20)
    touch.touch_up()
    kit.pump(2)
    assert session.log == ()
    assert board.map.view.origin == pytest.approx((before.origin[0] + 60, before.origin[1] + 20))
    assert board.map.view.size == before.size


def test_the_setup_form_by_touch_starts_a_clarified_string_game(shell: Any, shots: Path) -> None:
    form = start_by_touch(shell, ["Ada", "Bo"])
    kit.tap(kit.find(i18n.text("ui.san_gimignano.setup.clarified")))
    kit.tap(kit.find(i18n.text("ui.san_gimignano.setup.string")))
    assert len(form.layout) == 4
    kit.tap(form.more)
    assert form.colours_chosen == {"Ada": "red", "Bo": "blue"}
    kit.tap(form.colour_buttons["Bo"])  # the next colour nobody has
    assert form.colours_chosen == {"Ada": "red", "Bo": "yellow"}
    assert form.colour_buttons["Bo"].text == "Bo: " + i18n.text("ui.colour.yellow")
    kit.screenshot(shots / "en-setup-clarified.png")
    kit.tap(form.start)
    session = shell.table.session
    assert session is not None
    engine = session.game
    assert engine.options_json(session.state) == {"rules": "clarified", "variant": "string"}
    setup = engine.setup_json(session.state)
    assert setup["pool"] == 13 and len(setup["segments"]) == 4
    board = board_of(shell)
    check_board(board)
    # The colours are kept as the players' preferences: the bar's badge and the tokens agree.
    assert shell.table.app.preferred_colour("Bo", "san-gimignano") == "yellow"
    assert board.fills == {"Ada": piece_colour("red"), "Bo": piece_colour("yellow")}
    # Clarified: a segment starts the turn, so the palette is lit and tokens are not.
    assert any(key.live for key in board.palette.values())
    kit.screenshot(shots / "en-clarified-start.png")


def test_the_setup_form_refuses_a_layout_the_engine_refuses(shell: Any) -> None:
    form = start_by_touch(shell, ["Ada", "Bo", "Cy"])
    at = (1, 0)
    others = {spot: edges for spot, edges in form.layout.items() if spot != at}
    # A type with a turn that makes a guild meet itself across an edge (the engine's test says which).
    kind = next(kind for kind in form.palette
                if any(geometry.clash(others, at, edges) is not None for edges in geometry.rotations(kind)))
    tap_point(*form.map.point_of((at[0], at[1], form.layout[at][0])))
    kit.tap(form.palette[kind])
    for _ in range(6):
        if geometry.clash(others, at, form.layout[at]) is not None:
            break
        kit.tap(form.turn_button)
    assert geometry.clash(others, at, form.layout[at]) is not None
    details = form.details()
    with pytest.raises(RecordError) as refused:
        get_game("san-gimignano").start(["Ada", "Bo", "Cy"], details.options, details.setup)
    kit.tap(form.start)
    assert shell.table.session is None
    assert form.problem.text == str(refused.value)
    kit.tap(kit.find(i18n.text("ui.common.back")))
    assert shell.screens.get_screen("new").form is None


def test_back_from_the_form_starts_nothing(shell: Any) -> None:
    start_by_touch(shell, ["Ada", "Bo"])
    kit.tap(kit.find(i18n.text("ui.common.back")))
    assert shell.table.session is None


def test_the_board_speaks_hungarian(shell: Any, shots: Path) -> None:
    shell.set_language("hu")
    game = record()
    form = start_by_touch(shell, game["players"])
    kit.screenshot(shots / "hu-setup.png")
    for text in kit.texts(form):
        assert not english_words_in(text, ("San", "Gimignano")), text
    kit.tap(form.start)
    board = board_of(shell)
    kit.screenshot(shots / "hu-start.png")
    for text in kit.texts(board):
        assert not english_words_in(text, ()), text
    assert board.build_button.text == "Építés"
    shell.table.close()
    kit.pump(2)
    session, board = start_example(shell, first_forced(game))
    assert board.urgent
    kit.screenshot(shots / "hu-forced-build.png")
    state = session.state
    nxt = state.players[state.next_seat]
    free = next(s for s in views.token_spaces(state, nxt) if s not in board.map.scene.build_spaces)
    tap_space(board, free)
    assert not english_words_in(shell.banner.text, ()), shell.banner.text
    kit.screenshot(shots / "hu-refused.png")


def test_the_snapshot_writes_the_board_and_the_segment_view(tmp_path: Path) -> None:
    """``companion snapshot``'s writer, from the middle of the example (a segment still to place)."""
    from ui.snapshot import write_screens

    game = record()
    game["moves"] = game["moves"][:3]
    written = {p.name for p in write_screens(game, tmp_path, "en")}
    assert {"screen.png", "segment.png"} <= written


def keep_button(field: Any) -> Any:
    """The Keep button on a settings field's row."""
    return next(w for w in field.parent.children if getattr(w, "text", "") == i18n.text("ui.settings.keep"))


def test_guild_names_and_colours_come_from_the_settings_screen(shell: Any, shots: Path) -> None:
    from companion.games.san_gimignano.descriptor import GUILD_COLOURS as SAN_GIMIGNANO_GUILD_COLOURS
    from companion.games.san_gimignano.descriptor import GUILDS as SAN_GIMIGNANO_GUILDS
    from ui.games.san_gimignano.widgets import GUILD_RGB

    shell.go("settings")
    screen = shell.screens.get_screen("settings")
    for key, typed in ((SAN_GIMIGNANO_GUILDS, "wool, bread, stone, wine"),
                       (SAN_GIMIGNANO_GUILD_COLOURS, "purple, orange, green, grey")):
        field = screen.fields[key]
        kit.into_view(field)
        field.text = typed
        kit.tap(keep_button(field))
        assert shell.table.app.settings()[key] == typed
    screen = shell.screens.get_screen("settings")
    field = screen.fields[SAN_GIMIGNANO_GUILDS]
    kit.into_view(field)
    field.text = "wool, wool, stone, wine"
    kit.tap(keep_button(field))
    assert shell.banner.shown and SAN_GIMIGNANO_GUILDS in shell.banner.text
    assert shell.table.app.settings()[SAN_GIMIGNANO_GUILDS] == "wool, bread, stone, wine"

    shell.go("home")
    form = start_by_touch(shell, ["Ada", "Bo"])
    assert form.guilds == ("wool", "bread", "stone", "wine")
    kit.tap(form.start)
    board = board_of(shell)
    assert tuple(board.state.guilds) == ("wool", "bread", "stone", "wine")
    assert board.guild_colours == {"wool": GUILD_RGB["purple"], "bread": GUILD_RGB["orange"],
                                   "stone": GUILD_RGB["green"], "wine": GUILD_RGB["grey"]}
    assert [key.text for key in board.keys.values()] == ["1 wool", "2 bread", "3 stone", "4 wine"]
    kit.screenshot(shots / "en-own-guilds.png")


def test_a_space_tapped_while_placing_a_segment_only_leaves_the_segment(shell: Any) -> None:
    session, board = start_example(shell, 1)
    kind = next(k for k, key in board.palette.items() if key.live)
    kit.tap(board.palette[kind])
    assert board.map.scene.lit_positions
    tap_space(board, next(iter(session.state.tokens)))
    assert len(session.log) == 1 and board.segment_type is None
    assert not board.map.scene.lit_positions
    check_board(board)


def test_undo_and_redo_in_the_bar_redraw_the_board(shell: Any) -> None:
    game = record()
    session, board = start_example(shell, 0)
    for move in game["moves"][:2]:  # a token, then a segment, by touch
        play_move(board, move)
    assert len(session.log) == 2 and len(board.map.scene.segments) == len(game["setup"]["segments"]) + 1
    kit.tap(kit.find(i18n.text("ui.bar.undo")))
    assert len(session.log) == 1
    assert len(board_of(shell).map.scene.segments) == len(game["setup"]["segments"])
    check_board(board_of(shell))
    kit.tap(kit.find(i18n.text("ui.bar.redo")))
    assert len(board_of(shell).map.scene.segments) == len(game["setup"]["segments"]) + 1
    check_board(board_of(shell))


def test_a_move_updates_the_board_and_builds_no_widget(shell: Any) -> None:
    """Kivy with its grain: the board keeps its widgets; a move changes their properties.

    The one thing that appears is a segment's orientations in the palette's place
    (at most six pictures, when more than one fits): the pictures are kept and
    shown again for the next segment; one is made only when a segment has more
    orientations to offer than any before it.
    """
    game = record()
    session, board = start_example(shell, 0)
    stack = board.choices.parent
    palette = board.palette[next(iter(board.palette))].parent

    def in_front() -> Any:
        return next(layer for layer in stack.children if layer.opacity == 1)

    pictures: list[Any] = []
    for number, move in enumerate(game["moves"][:4], start=1):
        if move["type"] == "token":
            assert kit.widgets_made_by(lambda move=move: play_move(board, move)) == []
        else:
            edges = tuple(move["edges"])
            kind = type_of(edges, tuple(board.state.guilds))
            assert kit.widgets_made_by(lambda kind=kind: kit.tap(board.palette[kind])) == []
            point = board.map.point_of_position(tuple(move["at"]))
            shown = kit.widgets_made_by(lambda point=point: tap_point(*point))
            assert board.segment_at is not None, "the example's segments have several orientations"
            assert in_front() is board.choices
            assert shown == list(reversed(board.choices.children)) and len(shown) <= 6
            common = min(len(shown), len(pictures))
            assert all(a is b for a, b in zip(shown[:common], pictures[:common], strict=True)), \
                "the orientations' pictures were made again"
            pictures = max(shown, pictures, key=len)
            choice = next(w for w in shown if tuple(w.edges) == edges)
            assert kit.widgets_made_by(lambda choice=choice: kit.tap(choice)) == []
            assert in_front() is palette and board.choices.children == []
        assert len(session.log) == number
        check_board(board)
    assert kit.widgets_made_by(lambda: kit.tap(kit.find(i18n.text("ui.bar.undo")))) == []
    assert kit.widgets_made_by(lambda: kit.tap(kit.find(i18n.text("ui.bar.redo")))) == []
    assert len(session.log) == 4
    at = first_forced(game)
    for move in game["moves"][4:at]:
        shell.table.propose(session.game.parse_move(move))
    assert kit.widgets_made_by(lambda: play_move(board, game["moves"][at])) == []
    assert len(session.log) == at + 1
    check_board(board)


def test_the_setup_form_keeps_its_widgets_while_choices_change(shell: Any) -> None:
    form = start_by_touch(shell, ["Ada", "Bo", "Cy"])
    at = (1, 0)
    steps = [
        lambda: tap_point(*form.map.point_of((at[0], at[1], form.layout[at][0]))),
        lambda: kit.tap(form.palette[next(iter(form.palette))]),
        lambda: kit.tap(form.turn_button),
        lambda: kit.tap(form.colour_buttons["Bo"]),
        lambda: kit.tap(kit.find(i18n.text("ui.san_gimignano.setup.clarified"))),
        lambda: kit.tap(form.more),
        lambda: kit.tap(kit.find(i18n.text("ui.san_gimignano.setup.string"))),
    ]
    for number, step in enumerate(steps):
        assert kit.widgets_made_by(step) == [], number
    assert form.details().options == {"rules": "clarified", "variant": "string"}
    assert form.colours_chosen["Bo"] != "blue" and len(form.layout) == 4


# -- readable at the table (issue 20) ----------------------------------------------------------------

def map_marks(board: SanGimignanoBoard) -> tuple[list[tuple[float, float, float]], list[tuple[float, ...]]]:
    """What the map drew, read off its canvas: the tokens' discs (x, y, radius: the player-coloured
    ellipses) and every text's box (x, y, width, height)."""
    fills = {tuple(colour) for colour in board.fills.values()}
    tokens, texts = [], []
    colour: tuple[float, ...] = ()
    for group in board.map._segment_layer.children:
        for item in group.children:
            if isinstance(item, Color):
                colour = tuple(item.rgba)
            elif isinstance(item, Ellipse):  # a token's disc (not its halo, nor a segment's letter)
                if colour in fills:
                    (x, y), (w, _) = item.pos, item.size
                    tokens.append((x + w / 2.0, y + w / 2.0, w / 2.0))
            elif isinstance(item, Rectangle) and item.texture is not None and tuple(
                    item.texture.size) == tuple(round(v) for v in item.size):  # a text (not a tower)
                texts.append((*item.pos, *item.size))
    return tokens, texts


def centred_on(disc: tuple[float, float, float], box: tuple[float, ...]) -> bool:
    """Whether a text box is centred on a disc (its initials; a text lies on whole pixels, so within one)."""
    return abs(box[0] + box[2] / 2.0 - disc[0]) <= 1.0 and abs(box[1] + box[3] / 2.0 - disc[1]) <= 1.0


def overlaps(disc: tuple[float, float, float], box: tuple[float, ...]) -> bool:
    """Whether a text box reaches into a disc (a box centred on the disc is its own initials)."""
    cx, cy, radius = disc
    x, y, w, h = box
    if centred_on(disc, box):
        return False
    nearest_x, nearest_y = min(max(cx, x), x + w), min(max(cy, y), y + h)
    return math.hypot(nearest_x - cx, nearest_y - cy) < radius


def start_setup(shell: Any, players: list[str], options: dict[str, Any], setup: dict[str, Any]) -> Any:
    shell.table.close()
    kit.pump(1)
    shell.table.start("san-gimignano", players, options=options, setup=setup)
    shell.go("game")
    kit.pump(3)
    return board_of(shell)


def test_the_map_and_the_history_read_across_the_table(shell: Any, shots: Path) -> None:
    """The map opens filling its area, showing the whole board, with tokens and marks to read across the
    table (whole-city details: test_ui_san_gimignano_map_fits.py); the history names the places in
    words and shows them on the board."""
    starts = [(record()["players"], {}, record()["setup"])]
    # the rulebook's one segment per player (two with two; three lie as the example's), and the
    # clarified rules' four whatever the count
    starts += [(players, options, default_setup(players, options))
               for players, options in ((["Ada", "Bo"], {}), (["Ada", "Bo", "Cy", "Di"], {}),
                                        (["Ada", "Bo"], {"rules": "clarified"}))]
    for players, options, setup in starts:
        board = start_setup(shell, players, options, setup)
        size, hexmap = board.map.view.size, board.map
        # the whole starting board in view, its spaces 48 px targets but with four players' four
        # or the clarified four segments and their open places (45 px there: + makes them larger)
        assert target_size(size) >= (45 if len(players) == 4 or options else 48), (players, options, size)
        for at in hexmap.scene.segments:
            assert hexmap.shows(hexmap.point_of_position(at)), (players, options, at)
        # the board fills the map: its drawing spans (nearly) the map's width or height
        xs = [x for at in [*hexmap.scene.segments, *hexmap.scene.open_positions]
              for x, _ in hexmap.view.hexagon(at)]
        ys = [y for at in [*hexmap.scene.segments, *hexmap.scene.open_positions]
              for _, y in hexmap.view.hexagon(at)]
        assert max((max(xs) - min(xs)) / hexmap.width, (max(ys) - min(ys)) / hexmap.height) > 0.9
    kit.screenshot(shots / "en-start-4.png")
    # the example's board at its last move: the whole city in view, every token drawn
    session, board = start_example(shell, len(record()["moves"]))
    assert target_size(board.map.view.size) >= 32
    tokens, texts = map_marks(board)
    assert len(tokens) == sum(len(owners) for owners in session.state.tokens.values())
    inside = board.map.collide_point
    assert all(inside(x - r, y - r) and inside(x + r, y + r) for x, y, r in tokens)
    assert len(texts) > len(tokens)  # the initials, the guild digits, the segments' letters, the towers'
    assert min(radius for _, _, radius in tokens) >= 12  # 24 px across
    assert all(font >= 12 for _, font, _ in board.map._textures)  # initials, guild digits, letters
    # a space's two tokens lie apart or (too small for that) as a stack, the first peeking out from
    # under the last: no token's initials are covered, nor any other text
    for first in tokens:
        stacked = [t for t in tokens if t != first and math.dist(t[:2], first[:2]) < t[2] + first[2]]
        assert len(stacked) <= 1, first  # two at most, one on the other
        covered = [box for box in texts if overlaps(first, box)  # but the initials of the one above
                   and not any(centred_on(t, box) for t in stacked)]
        assert not covered, first
    kit.screenshot(shots / "en-last-move.png")
    # zooming out stops where a space still holds a token beside its digit; zoomed in, two tokens
    # lie apart
    for _ in range(3):
        kit.tap(board.zoom_out)
    assert board.map.view.size >= SMALLEST_SIZE
    assert tokens_side_by_side(70) and not tokens_side_by_side(SMALLEST_SIZE)
    kit.tap(board.fit_button)
    # the history of the same game names the places in words, and shows them on the board
    game = record()
    history = shell.screens.get_screen("history")
    coordinates = re.compile(r"-?\d+,-?\d+|guild-\d")
    for language, guild in (("hu", "céh"), ("en", "Guild")):
        i18n.set_language(language)
        shell.go("history")
        kit.pump(2)
        words = [entry["words"] for entry in history.ids.entries.data]
        assert not [line for line in words if coordinates.search(line)], words[:3]
        assert guild in words[0], words[0]
        # what the history says reads back as the move (the console takes it as typed)
        said = words[0].split(". ", 1)[1]
        before = session.state_before(len(game["moves"]) - 1)
        assert as_record(session.game.parse_notation(before, said)) == as_record(game["moves"][-1]), said
    # a tap on an entry lights its place on the board and offers to show it there
    tower = max(i for i, m in enumerate(game["moves"]) if m["type"] == "tower")
    row = next(w for w in kit.walk(history) if isinstance(w, HistoryRow) and w.index == tower)
    kit.tap(next(w for w in row.children if getattr(w, "text", "") == row.words))
    show = history.parts["show"]
    assert show.parent is not None and show.height >= 48
    kit.screenshot(shots / "en-history-tapped.png")
    kit.tap(show)
    assert shell.screens.current == "game"
    group = {tuple(s) for s in game["moves"][tower]["group"]}
    assert board.map.scene.shown_spaces == group
    assert all(board.map.shows(board.map.point_of(space)) for space in group)
    kit.screenshot(shots / "en-shown-on-board.png")
    # lit until the next tap
    kit.tap(board.zoom_in)
    assert not board.map.scene.shown_spaces
    # a pass has no place: nothing to show (and no offer); a segment lights its hexagon
    assert board.show_move({"type": "pass", "player": "Ada"}) is False
    segment = game["moves"][1]
    assert board.show_move(segment) is True
    assert board.map.scene.shown_positions == {tuple(segment["at"])}


def test_rings_segment_choices_counts_and_colours_as_the_table_reads_them(shell: Any) -> None:
    """One game, several states: the two-tone ring, the palette until no segment is left, counts that
    agree with their nouns, and each player's one colour on the bar, the history, the map and the panel."""
    assert contrast(RING_LIGHT, BACKGROUND) >= 3 and contrast(RING_LIGHT, SURFACE) >= 3
    for name, colour in GUILD_RGB.items():  # the dark tone on light guilds, the light one on dark ones
        assert max(contrast(RING_DARK, colour), contrast(RING_LIGHT, colour)) >= 3, name
    game = record()
    _, board = start_example(shell, 0)
    assert board.map.scene.token_spaces
    drawn = [tuple(item.rgba) for group in board.map._segment_layer.children for item in group.children
             if isinstance(item, Color)]
    rings = [index for index, colour in enumerate(drawn) if colour == tuple(RING_DARK)]
    assert rings and all(drawn[index + 1] == tuple(RING_LIGHT) for index in rings)
    assert board.palette_shown and board.ids.choice_stack.opacity == 1
    assert "3 segments to lay" in board.cells["Ada"].detail.text

    last_segment = max(i for i, m in enumerate(game["moves"]) if m["type"] == "segment")
    shell.table.close()
    kit.pump(1)
    session, board = start_example(shell, last_segment)
    last = game["moves"][last_segment]["player"]
    assert "1 segment to lay" in board.cells[last].detail.text
    # one colour per player on every screen, none the grey of "no colour", no two alike
    expected = {player: tuple(board.fills[player]) for player in session.players}
    assert len(set(expected.values())) == len(expected)
    assert tuple(piece_colour(None)) not in expected.values()
    for player, cell in board.cells.items():
        assert tuple(cell.badge.fill) == expected[player]
    acting = session.game.turn(session.state).acting
    assert tuple(shell.screens.get_screen("game").turn_swatch) == expected[acting]
    tokens, _ = map_marks(board)
    assert {(x, y) for x, y, _ in tokens}
    assert {tuple(board.fills[o]) for owners in session.state.tokens.values() for o in owners} <= set(
        expected.values())
    shell.go("history")
    kit.pump(2)
    entries = shell.screens.get_screen("history").ids.entries.data
    for entry, move in zip(entries, reversed(session.log), strict=True):
        assert tuple(entry["swatch"]) == expected[move.player]
    shell.go("game")
    kit.pump(1)

    shell.table.propose(session.game.parse_move(game["moves"][last_segment]))
    kit.pump(2)
    assert not board.palette_shown
    assert board.ids.choice_stack.opacity == 0 and board.ids.choice_stack.height == 0
    assert board.ids.choice_stack.disabled
    assert all("segment" not in cell.detail.text for cell in board.cells.values())


def test_a_finished_game_leaves_nothing_to_tap_on_the_board(shell: Any) -> None:
    *_, (game, state, played) = random_states("san-gimignano", 2, 400)
    assert state.finished
    board = start_setup(shell, list(state.players), game.options_json(state), game.setup_json(state))
    session = shell.table.session
    for move in played:
        shell.table.propose(session.game.parse_move(move))
    shell.go("game")
    kit.pump(3)
    assert board.over and not board.palette_shown and not board.step_text
    for button in (board.build_button, board.pass_button, board.cancel_button):
        assert button.disabled and button.parent.opacity == 0
    at = len(session.log)
    some = next(iter(session.state.adjacency))
    assert board.tap_space(some) is False
    assert not board.map.scene.token_spaces and not board.map.scene.group_spaces
    assert len(session.log) == at
