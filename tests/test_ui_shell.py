"""The touchscreen shell, offscreen: synthetic touches on a real window over a real store.

Every scenario starts a fresh shell over a new SQLite store (one Kivy
window per process, shared). Screenshots go to ``$UI_SCREENSHOTS`` when set
(for a person to look at), else to the test's temporary directory.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
import contextlib

from kivy.uix.boxlayout import BoxLayout

from companion import i18n
from companion.games.base import IllegalMove
from companion.registry import get_game
from companion.service.campanile import CampanileService
from ui import theme
from ui.games.campanile import PART as CAMPANILE_PART
from ui.games.part import UiPart
from ui.widgets import LongTap, Tap

EXAMPLE = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"


#: A shell playing every game with the move picker (a test that wants a board sets its own).
shell = pytest.fixture(kit.picker_shell, name="shell")


def start_three_player_campanile(shell) -> None:
    """From home: New game, three new players typed in, Start."""
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    for name in ("Albert", "Birgit", "Franziska"):
        shell.screens.get_screen("new").name_field.text = name
        kit.tap(kit.find(i18n.text("ui.new.add")))
    kit.tap(kit.find(i18n.text("ui.new.start", game="Campanile")))


def test_a_game_starts_from_home_by_touch_and_undo_redo_work(shell, shots: Path) -> None:
    kit.screenshot(shots / "en-home-empty.png")
    start_three_player_campanile(shell)
    session = shell.table.session
    assert session is not None and session.players == ("Albert", "Birgit", "Franziska")
    assert shell.screens.current == "game"
    kit.find("Albert: build 1, 2 or 3 stories on a tower")  # the strip, in the engine's words (no board)
    kit.screenshot(shots / "en-game-start.png")

    kit.tap(kit.find("Albert: brown +3"))
    assert [session.game.move_to_json(m) for m in session.log] == [
        {"type": "build", "player": "Albert", "tower": "brown", "stories": 3}]
    assert kit.find("1 move so far")
    kit.tap(kit.find(i18n.text("ui.bar.undo"), Tap))
    assert session.log == () and session.can_redo
    assert kit.find(i18n.text("ui.bar.undo"), Tap).disabled
    kit.tap(kit.find(i18n.text("ui.bar.redo"), Tap))
    assert len(session.log) == 1 and not session.can_redo
    kit.screenshot(shots / "en-game-after-one-move.png")


def test_the_turn_strip_marks_whoever_may_move_now(shell) -> None:
    """Albert builds (he may still place his marker, and Birgit may already build: "next: Birgit");
    once his marker is placed his turn stays open but only Birgit may move, and the strip names her
    alone."""
    start_three_player_campanile(shell)
    game = shell.screens.get_screen("game")
    kit.tap(kit.find("Albert: brown +3"))
    assert (game.strip_name.text, game.ids.strip_next.text) == ("Albert", i18n.text("ui.strip.next",
                                                                                   player="Birgit"))
    assert game.strip_words.text == "Albert: place your 3-marker under a tower"
    session = shell.table.session
    session_move = session.game.parse_move({"type": "influence", "player": "Albert", "tower": "brown"})
    shell.table.propose(session_move, "touch")
    kit.wait_for(lambda: game.strip_name.text == "Birgit", "the strip to follow the move")
    assert game.ids.strip_next.text == "" and game.turn_initials == "Bi"


def test_a_refused_move_is_shown_in_words_and_changes_nothing(shell, shots: Path) -> None:
    start_three_player_campanile(shell)
    session = shell.table.session
    kit.tap(kit.find("Albert: brown +3"))
    state, log = session.state, session.log
    picker = shell.screens.get_screen("game")
    picker.notation.text = "Franziska: grey +1"  # Birgit plays after Albert, not Franziska
    with pytest.raises(IllegalMove) as refusal:
        session.game.apply(state, session.game.parse_move(
            {"type": "build", "player": "Franziska", "tower": "grey", "stories": 1}))
    kit.tap(kit.find(i18n.text("ui.picker.enter")))
    assert session.state is state and session.log == log
    banner = shell.banner
    assert banner.shown and banner.text == str(refusal.value) and banner.height >= theme.TOUCH
    kit.screenshot(shots / "en-game-refused.png")

    now = [1000.0]
    banner.clock = lambda: now[0]
    banner.show(banner.text)  # measured on the test's clock from here
    now[0] += theme.REFUSAL_SECONDS - 1
    kit.tap(kit.find("1 move so far"))  # any tap, but too early for the banner to go
    assert banner.shown
    now[0] += 2
    kit.tap(kit.find("1 move so far"))
    kit.wait_for(lambda: not banner.shown, "the banner to go after the next tap")
    assert banner.height == 0


def test_an_old_move_is_amended_after_its_verdict_is_shown(shell, shots: Path) -> None:
    start_three_player_campanile(shell)
    session = shell.table.session
    kit.tap(kit.find("Albert: brown +3"))
    kit.tap(kit.find(i18n.text("ui.bar.history"), Tap))
    assert shell.screens.current == "history"
    kit.tap(kit.find("1. Albert: brown +3"))
    kit.tap(kit.find("Albert: grey +2"))
    verdict = session.try_amend(0, session.game.parse_move(
        {"type": "build", "player": "Albert", "tower": "grey", "stories": 2}))
    assert verdict.accepted
    kit.find(i18n.text("ui.amend.fits"))
    assert session.game.move_to_json(session.log[0])["tower"] == "brown"  # nothing changed yet
    kit.screenshot(shots / "en-history-amend.png")
    kit.tap(kit.find(i18n.text("ui.amend.confirm", number=1)))
    assert session.game.move_to_json(session.log[0]) == {
        "type": "build", "player": "Albert", "tower": "grey", "stories": 2}
    kit.find("1. Albert: grey +2")


def test_the_language_switch_redraws_every_screen_and_is_kept(shell, shots: Path, tmp_path: Path) -> None:
    kit.tap(kit.find("Settings"))
    kit.screenshot(shots / "en-settings.png")
    kit.tap(kit.find("Magyar"))
    assert i18n.current_language() == "hu"
    assert shell.table.app.settings()["language"] == "hu"
    kit.find("Beállítások")
    kit.screenshot(shots / "hu-settings.png")
    kit.tap(kit.find("Vissza"))
    kit.find("Új játék")
    kit.screenshot(shots / "hu-home.png")
    start_three_player_campanile(shell)
    kit.find("Albert: 1, 2 vagy 3 emelet építése egy toronyra")  # the strip
    kit.find("Albert: barna +3")
    kit.screenshot(shots / "hu-game-start.png")
    kit.tap(kit.find("Albert: barna +3"))
    shell.screens.get_screen("game").notation.text = "Franziska: szürke +1"
    kit.tap(kit.find("Beír"))
    assert shell.banner.shown and shell.banner.text
    kit.screenshot(shots / "hu-game-refused.png")
    kit.tap(kit.find("Előzmények", Tap))
    kit.find("1. Albert: barna +3")
    kit.screenshot(shots / "hu-history.png")


def test_settings_round_trip_through_the_store(shell, tmp_path: Path) -> None:
    kit.tap(kit.find("Settings"))
    screen = shell.screens.get_screen("settings")
    brightness = kit.find(i18n.text("ui.settings.oled_brightness")).parent
    minus, _plus = [w for w in brightness.children if isinstance(w, Tap)][::-1]
    kit.tap(minus)
    kit.tap(minus)
    screen.fields["table.name"].text = "Kitchen table"
    kit.tap(kit.find(i18n.text("ui.settings.keep"), root=screen.fields["table.name"].parent))
    screen.fields["bgg_id.campanile"].text = "twelve"
    kit.tap(kit.find(i18n.text("ui.settings.keep"), root=screen.fields["bgg_id.campanile"].parent))
    assert shell.banner.shown and '"twelve"' in shell.banner.text
    settings = shell.table.app.settings()
    assert settings["oled.brightness"] == 80 and settings["table.name"] == "Kitchen table"
    assert settings["bgg_id.campanile"] == 0

    screen.fields["flags.intermezzo"].text = "3 1, 2, 1, x"
    kit.tap(kit.find(i18n.text("ui.settings.flags_confirm")))
    assert CampanileService.of(shell.table.app).flag_table() is None and '"x"' in shell.banner.text

    screen.fields["profile"].text = "Zoë"
    kit.tap(kit.find(i18n.text("ui.new.add"), root=screen.fields["profile"].parent))
    assert [p.name for p in shell.table.app.profiles()] == ["Zoë"]
    remove = kit.find(i18n.text("ui.settings.profile_remove_hold"), LongTap)
    kit.tap(remove)  # a tap is not enough for what deletes
    assert [p.name for p in shell.table.app.profiles()] == ["Zoë"]
    kit.hold(kit.find(i18n.text("ui.settings.profile_remove_hold"), LongTap),
             lambda: not shell.table.app.profiles(), "the profile to be removed")

    path = shell.table.app.store.path if hasattr(shell.table.app.store, "path") else None
    del path
    kit.close_shell(shell)
    again = kit.open_shell(tmp_path / "store.db")
    try:
        kit.tap(kit.find("Settings"))
        assert again.screens.get_screen("settings").fields["table.name"].text == "Kitchen table"
        kit.find("80")
    finally:
        kit.close_shell(again)
    shell.close = lambda: None  # closed above: the fixture's close must not close it twice
    shell.table.app.close = lambda: None


def test_the_steppers_stop_at_the_limits_of_the_settings_table(shell) -> None:
    from companion.service.settings import whole_number
    from companion.storage.backup import BACKUPS_KEPT

    app = shell.table.app
    app.change_setting("oled.brightness", whole_number("oled.brightness").high - 5)
    app.change_setting(BACKUPS_KEPT, whole_number(BACKUPS_KEPT).low)
    kit.tap(kit.find("Settings"))
    for label, key, expected in (("ui.settings.oled_brightness", "oled.brightness", 100),
                                 ("ui.settings.backups_kept", BACKUPS_KEPT, 0)):
        line = kit.find(i18n.text(label)).parent
        minus, plus = [w for w in line.children if isinstance(w, Tap)][::-1]
        for _ in range(2):
            kit.tap(plus if key == "oled.brightness" else minus)
        assert app.settings()[key] == expected
        kit.find(str(expected), root=kit.find(i18n.text(label)).parent)
    assert not shell.banner.shown  # stopped at the limit, not refused past it


def test_the_settings_screen_has_one_row_per_setting_of_the_settings_table(shell, monkeypatch) -> None:
    import dataclasses

    from companion.service import settings as table
    from ui.screens.settings import SettingsScreen

    kit.tap(kit.find("Settings"))
    screen = shell.screens.get_screen("settings")
    assert {table.LANGUAGE, *screen.steppers, *screen.texts, *screen.switches} == set(table.SETTINGS)
    assert [c.code for c in screen.choices] == list(table.LANGUAGES)
    # a setting the table gains is on the screen with no change to the screen
    motto = dataclasses.replace(table.SETTINGS["table.name"], key="table.motto")
    monkeypatch.setitem(table.SETTINGS, "table.motto", motto)
    grown = SettingsScreen(shell, name="grown")
    grown.redraw()  # the page is built when the screen is first shown
    assert "table.motto" in grown.texts and "table.motto" in grown.fields


def test_a_games_own_settings_rows_come_from_its_touchscreen_part(shell, monkeypatch) -> None:
    """The settings screen names no game: it adds the rows each game's part makes
    (``UiPart.settings_rows``) once, takes their fields, keeps them in its language and refreshes
    them on every redraw; a game without such rows adds nothing (here the only one is a toy's)."""
    import sys
    import types

    from kivy.properties import StringProperty

    from companion import registry
    from tests.toy_game.descriptor import DESCRIPTOR as TOY
    from ui.screens.settings import SettingsScreen
    from ui.widgets import Field

    class ToyRows(BoxLayout):
        language = StringProperty("")

        def __init__(self, screen) -> None:
            super().__init__(size_hint_y=None, height=theme.TOUCH)
            self.screen, self.refreshed, self.field = screen, 0, Field()
            self.add_widget(self.field)
            self.fields = {"toy.motto": self.field}

        def refresh(self) -> None:
            self.refreshed += 1

    made: list[ToyRows] = []
    module = types.ModuleType("toy_settings_rows")
    module.rows = lambda screen: made.append(ToyRows(screen)) or made[-1]  # type: ignore[attr-defined]
    module.PART = UiPart(settings_rows=f"{module.__name__}:rows")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    toy = dataclasses.replace(TOY, touchscreen=f"{module.__name__}:PART")
    with registry.without("campanile"), registry.registered(toy):  # the toy's rows the only ones
        screen = SettingsScreen(shell, name="toy-settings")
        screen.redraw()
        screen.redraw()
    [rows] = made
    assert rows.screen is screen and screen.page.ids.games.children == [rows] and rows.refreshed == 2
    assert screen.fields["toy.motto"] is rows.field and not any(k.startswith("flags.") for k in screen.fields)
    screen.language = "hu"
    assert rows.language == "hu"


def test_game_over_shows_the_winner_breakdown_and_a_scannable_qr_code(shell, shots: Path) -> None:
    import zxingcpp
    from PIL import Image

    app = shell.table.app
    app.change_setting("table.name", "Kitchen table")
    session_id = app.import_record(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    shell.table.open(app.open_game(session_id))
    assert shell.screens.current == "over"
    kit.find(i18n.text("ui.over.winner", player="Albert"))
    kit.find("21")
    kit.find("chips\u00a05\u00a04\u00a03\u00a02\u00a02\u00a02\u00a02\u00a01", exact=False)  # kept on one line
    qr = shell.screens.get_screen("over").qr
    assert min(qr.size) >= 200 and qr.texture.size[0] >= 100
    path = kit.screenshot(shots / "en-game-over.png")
    x, y = qr.to_window(*qr.pos)
    window_height = Image.open(path).height
    crop = Image.open(path).crop((int(x), int(window_height - y - qr.height), int(x + qr.width),
                                  int(window_height - y)))
    (found,) = zxingcpp.read_barcodes(crop)
    assert found.text == app.bgstats_scan_link(session_id)
    i18n.set_language("hu")
    shell.redraw_all()
    kit.find(i18n.text("ui.over.winner", player="Albert"))
    kit.screenshot(shots / "hu-game-over.png")


def test_statistics_show_each_players_record_and_the_score_chart(shell, shots: Path) -> None:
    app = shell.table.app
    app.import_record(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    kit.tap(kit.find("Statistics"))
    for figure in ("Albert", "Birgit", "Franziska", "21.0", "14.0", "10.0", "Al 21", "Bi 14", "Fr 10"):
        kit.find(figure, exact=True, root=shell.screens.get_screen("stats"))
    chart = shell.screens.get_screen("stats").chart
    expected = [s.score for s in get_game("campanile").outcome(
        app.open_game(app.sessions()[0].id).session.state).standings]
    assert sorted(values[-1] for values in chart.series.values()) == sorted(expected)
    assert all(len(values) == app.sessions()[0].moves + 1 for values in chart.series.values())
    kit.screenshot(shots / "en-statistics.png")


def test_statistics_say_when_there_is_none_and_step_between_finished_games(shell) -> None:
    app = shell.table.app
    kit.tap(kit.find("Statistics"))
    screen = shell.screens.get_screen("stats")
    kit.find(i18n.text("ui.stats.none"), root=screen)
    kit.find(i18n.text("ui.stats.no_chart"), root=screen)
    app.import_record(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    app.import_record(json.loads(EXAMPLE.read_text(encoding="utf-8").replace("Albert", "Agnes")))
    shell.go("stats")  # the same screen brought up to date, its widgets kept
    assert screen.has_stats and len([s for s in app.sessions() if s.is_finished]) == 2
    newest = screen.shown_game
    older = kit.find(i18n.text("ui.stats.older"), Tap, root=screen)
    newer = kit.find(i18n.text("ui.stats.newer"), Tap, root=screen)
    assert newer.disabled and not older.disabled
    kit.tap(older)
    assert screen.shown_game not in (None, newest) and screen.chart.series
    assert older.disabled and not newer.disabled
    kit.tap(newer)
    assert screen.shown_game == newest


def test_an_unfinished_game_is_resumed_or_abandoned_with_a_long_press(shell) -> None:
    app = shell.table.app
    first = app.start("campanile", ["Albert", "Birgit", "Franziska"]).id
    second = app.start("campanile", ["Anna", "Bela", "Csaba"]).id
    shell.go("home")
    kit.tap(kit.find(i18n.text("ui.home.resume", count=2)))
    holds = [w for w in kit.walk() if isinstance(w, LongTap)]
    assert len(holds) == 2
    kit.tap(holds[0])
    assert {row.id for row in app.unfinished()} == {first, second}
    kit.hold(holds[0], lambda: len(app.unfinished()) == 1, "the newest game to be abandoned")
    assert [row.id for row in app.unfinished()] == [first]
    kit.tap(kit.find("Albert, Birgit and Franziska", exact=False))
    assert shell.table.live.id == first and shell.screens.current == "game"


def test_keys_run_the_same_commands_as_the_buttons(shell) -> None:
    from kivy.core.window import Window

    from ui.keys import command_for_key

    assert command_for_key(117, "u", [], typing=False) == "undo"
    assert command_for_key(117, "u", [], typing=True) is None
    assert command_for_key(122, "z", ["ctrl"], typing=True) == "undo"
    assert command_for_key(27, None, [], typing=True) == "back"
    start_three_player_campanile(shell)
    session = shell.table.session
    kit.tap(kit.find("Albert: brown +3"))
    Window.dispatch("on_key_down", 117, 0, "u", [])
    assert session.log == ()
    Window.dispatch("on_key_down", 114, 0, "r", [])
    assert len(session.log) == 1
    Window.dispatch("on_key_down", 104, 0, "h", [])
    assert shell.screens.current == "history"


def test_the_snapshot_writer_renders_a_records_screens(shell, shots: Path) -> None:
    """In Hungarian, while the shell speaks English (the layout sweep, tests/test_layout_sweep.py,
    writes and checks this record's screens in both languages)."""
    from PIL import Image

    from ui.snapshot import write_screens

    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    written = write_screens(record, shots / "snapshot-hu", "hu")
    assert [p.name for p in written] == ["screen.png", "history.png", "game-over.png", "home.png",
                                         "settings.png", "resolver.png", "editor.png"]
    for path in written:
        image = Image.open(path).convert("RGB")
        assert image.size == theme.WINDOW
        assert len(image.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 2, f"{path.name} is blank"
    assert i18n.current_language() == "en"  # the writer leaves the language as it found it
    assert shell.table.app.sessions() == []  # and the store it was given untouched


def test_a_castelli_game_starts_with_the_colours_chosen_by_touch(shell) -> None:
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    kit.tap(kit.find("Castelli"))
    for name in ("Anna", "Bela", "Csaba"):
        shell.screens.get_screen("new").name_field.text = name
        kit.tap(kit.find(i18n.text("ui.new.add")))
    for _ in range(3):
        kit.tap(next(w for w in kit.walk() if getattr(w, "text", "") == i18n.text("ui.new.colour")))
    kit.tap(kit.find(i18n.text("ui.new.start", game="Castelli")))
    live = shell.table.live
    assert live is not None and live.row.setup["colors"] == {"Anna": "blue", "Bela": "yellow", "Csaba": "red"}
    assert shell.table.app.preferred_colour("Bela", "castelli") == "yellow"
    legal = live.session.game.legal_moves(live.session.state)
    example = live.session.game.describe(live.session.state, legal[0], "en")
    assert shell.screens.get_screen("game").notation.hint_text == f"Type a move ({example})"


def test_a_game_the_shell_cannot_set_up_is_refused_naming_the_field(shell, monkeypatch) -> None:
    """Without its setup form, a 2-player Campanile cannot start: the service's refusal (no flag
    table confirmed) is shown in the banner and nothing is stored."""
    from companion import registry

    formless = dataclasses.replace(registry.descriptor("campanile"),
                                   touchscreen="tests.test_ui_shell:CAMPANILE_WITHOUT_FORM")
    with registry.replaced(formless):  # the 2-player flag form taken away
        kit.tap(kit.find(i18n.text("ui.home.new_game")))
        for name in ("Ada", "Bo"):
            shell.screens.get_screen("new").name_field.text = name
            kit.tap(kit.find(i18n.text("ui.new.add")))
        kit.tap(kit.find(i18n.text("ui.new.start", game="Campanile")))
    assert shell.table.live is None and shell.screens.current == "new"
    assert shell.banner.shown and shell.banner.text == i18n.text("campanile.setup.flags_needed")
    assert shell.table.app.sessions() == []


def test_a_first_2_player_campanile_asks_for_the_flag_table_then_starts(shell, shots: Path) -> None:
    """Start with two players and no flag table: the board's form, by touches; Back keeps nothing;
    an empty table is refused naming the flag; the cards' values confirmed start the game with them."""
    from ui.games.campanile.flags import FlagTableForm

    cards = {"intermezzo": [[3, 1], [2, 1], [2], [1]], "finito": [[5, 2], [4, 1], [3], [2], [1]]}
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    for name in ("Albert", "Birgit"):
        shell.screens.get_screen("new").name_field.text = name
        kit.tap(kit.find(i18n.text("ui.new.add")))
    start = i18n.text("ui.new.start", game="Campanile")
    kit.tap(kit.find(start))
    forms = [w for w in kit.walk() if isinstance(w, FlagTableForm)]
    assert len(forms) == 1 and shell.table.live is None and shell.screens.current == "new"
    kit.tap(kit.find(i18n.text("ui.common.back")))  # back to the choices: nothing kept, seats unchanged
    assert not any(isinstance(w, FlagTableForm) for w in kit.walk())
    assert shell.screens.get_screen("new").seated == ["Albert", "Birgit"]
    kit.tap(kit.find(start))
    form = next(w for w in kit.walk() if isinstance(w, FlagTableForm))
    kit.tap(form.confirm)  # nothing entered: refused naming the flag
    assert form.problem.text.startswith("Intermezzo #1: ")
    assert shell.table.live is None and CampanileService.of(shell.table.app).flag_table() is None
    for phase in ("intermezzo", "finito"):
        for index, values in enumerate(cards[phase]):
            kit.tap(form.fields[(phase, index, 0)])
            for value in values:
                kit.tap(form.pad[value])
    kit.screenshot(shots / "en-new-flags.png")
    kit.tap(form.confirm)
    live = shell.table.live
    assert live is not None and list(live.session.players) == ["Albert", "Birgit"]
    assert live.row.options["flags"] == cards and CampanileService.of(shell.table.app).flag_table() == cards
    assert shell.screens.current == "game"
    assert not any(isinstance(w, FlagTableForm) for w in kit.walk())


def test_the_board_and_the_shell_show_each_player_in_one_colour_with_the_same_initials(shell, monkeypatch,
                                                                                       shots: Path) -> None:
    """Profiles wanting the same colour: the new-game screen, the turn banner, the history and the
    Campanile board all show one colour and the same initials per player."""
    from ui import games
    from ui.screens import game
    from ui.widgets import Badge

    monkeypatch.setattr(game, "board_class", games.board_class)  # the picker shell's boards back
    app = shell.table.app
    for name, wish in (("Albert", "white"), ("Anna", "white"), ("Franziska", None)):
        app.add_profile(name)
        if wish:
            app.set_preferred_colour(name, "campanile", wish)
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    for name in ("Albert", "Anna", "Franziska"):
        kit.tap(kit.find(name, kind=Tap))
    seated = {w.text: tuple(w.swatch) for w in kit.walk() if isinstance(w, Badge)}
    kit.tap(kit.find(i18n.text("ui.new.start", game="Campanile")))
    board = shell.screens.get_screen("game").board
    assert board is not None
    expected = {"Albert": "white", "Anna": "blue", "Franziska": "yellow"}
    assert board.colours == expected and board.initials == {"Albert": "Al", "Anna": "An", "Franziska": "Fr"}
    on_board = {board.initials[p]: tuple(theme.piece_colour(c)) for p, c in expected.items()}
    assert seated == on_board  # the new-game screen showed what the game shows
    cells = {cell.badge.text: tuple(cell.badge.fill) for cell in board.player_cells.values()}
    assert cells == on_board
    banner = [w for w in kit.walk(shell.screens.get_screen("game").turn_badge_box) if isinstance(w, Badge)]
    assert [(b.text, tuple(b.swatch)) for b in banner] == [("Al", on_board["Al"])]
    session = shell.table.session
    shell.table.propose(session.game.parse_move(session.game.legal_moves(session.state)[0]), "touch")
    kit.tap(kit.find(i18n.text("ui.bar.history")))
    history = {(w.text, tuple(w.swatch)) for w in kit.walk() if isinstance(w, Badge)}
    assert history and history <= set(on_board.items())
    kit.screenshot(shots / "en-one-colour-history.png")


class RecordingBoard(BoxLayout):
    """A board as the contract in ui/games says: built with the table, redrawn by refresh(),
    entering moves with table.propose(move, "touch") and catching the refusal."""

    def __init__(self, table, **kwargs) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.refreshed = 0

    def refresh(self) -> None:
        self.refreshed += 1

    def enter(self, data: dict) -> None:
        session = self.table.session
        with contextlib.suppress(IllegalMove):  # the shell shows it
            self.table.propose(session.game.parse_move(data), "touch")


def test_a_games_board_takes_the_place_of_the_picker_and_follows_the_table(shell, monkeypatch) -> None:
    from ui.screens import game

    monkeypatch.setattr(game, "board_class", lambda name: RecordingBoard if name == "campanile" else None)
    shell.table.start("campanile", ["Albert", "Birgit", "Franziska"])
    board = shell.screens.get_screen("game").board
    assert isinstance(board, RecordingBoard) and board.get_root_window() is not None
    assert [w for w in kit.walk() if getattr(w, "text", "") == "Albert: brown +3"] == []  # no picker
    seen = board.refreshed
    board.enter({"type": "build", "player": "Albert", "tower": "brown", "stories": 3})
    assert len(shell.table.session.log) == 1 and board.refreshed > seen
    kit.find("Tap a ringed tower for your 3-marker.")  # the strip, in the board's words
    kit.find("next: Birgit")
    board.enter({"type": "build", "player": "Franziska", "tower": "grey", "stories": 1})
    assert len(shell.table.session.log) == 1 and shell.banner.shown
    assert "Franziska" in shell.banner.text


#: A Campanile touchscreen part whose board's module does not exist (a broken plug-in's part).
BROKEN_BOARD = UiPart(board="ui.games.no_such_board:Board")
#: Campanile's touchscreen part without its setup form (the 2-player flag table).
CAMPANILE_WITHOUT_FORM = dataclasses.replace(CAMPANILE_PART, setup_form=None)


def test_a_board_that_cannot_be_imported_leaves_the_picker(shell, monkeypatch) -> None:
    from companion import registry
    from ui import games
    from ui.screens import game

    monkeypatch.setattr(game, "board_class", games.board_class)  # the real lookup, not the picker shell's
    broken = dataclasses.replace(registry.descriptor("campanile"),
                                 touchscreen="tests.test_ui_shell:BROKEN_BOARD")
    with registry.replaced(broken):
        shell.table.start("campanile", ["Albert", "Birgit", "Franziska"])
        assert shell.screens.get_screen("game").board is None
        kit.find("Albert: brown +3")


def test_an_undo_from_elsewhere_closes_the_amend_of_a_move_that_is_gone(shell) -> None:
    start_three_player_campanile(shell)
    kit.tap(kit.find("Albert: brown +3"))
    kit.tap(kit.find(i18n.text("ui.bar.history"), Tap))
    kit.tap(kit.find("1. Albert: brown +3"))
    kit.find(i18n.text("ui.amend.title", number=1))
    import threading

    posted = []
    button = threading.Thread(target=lambda: posted.append(shell.table.submit(lambda table: table.undo())))
    button.start()  # a hardware button's thread
    button.join(timeout=kit.PATIENCE)
    kit.wait_for(lambda: posted and posted[0].done(), "the button's undo to run on the main loop")
    assert shell.table.session.log == ()
    assert [w for w in kit.walk() if getattr(w, "text", "") == i18n.text("ui.amend.title", number=1)] == []
    kit.find(i18n.text("ui.history.empty"))


def test_a_tap_left_over_from_a_game_closed_elsewhere_enters_nothing(shell) -> None:
    """The game closed by a button or another screen between a row drawn and its tap: no crash, no move."""
    start_three_player_campanile(shell)
    kit.tap(kit.find("Albert: brown +3"))
    game, history = shell.screens.get_screen("game"), shell.screens.get_screen("history")
    kit.tap(kit.find(i18n.text("ui.bar.history"), Tap))
    kit.tap(kit.find("1. Albert: brown +3"))
    live = shell.table.live
    template = {"type": "build", "player": "Birgit", "tower": "grey", "stories": 2}
    replacement = live.session.game.parse_move(
        {"type": "build", "player": "Albert", "tower": "grey", "stories": 2})
    shell.table.close()  # what a hardware button's "close" does, on the main loop
    kit.pump(2)
    assert shell.table.session is None
    history.consider(replacement)  # the amend panel's choice, tapped late
    game.choose(template)  # the move picker's row, tapped late
    game.enter_notation()
    assert history.verdict is None and not shell.banner.shown
    assert len(live.session.log) == 1  # stored as it was: nothing entered, nothing amended


def test_the_garbage_is_collected_only_after_a_quiet_while(shell) -> None:
    import gc

    from ui.app import IDLE_SECONDS

    was_enabled = gc.isenabled()
    gc.disable()  # as in the running app: only the shell's own collections count
    try:
        shell.touched()
        collections = gc.get_stats()[2]["collections"]
        shell.collect_when_idle()  # just touched: no collection mid-game
        assert gc.get_stats()[2]["collections"] == collections
        shell.last_touch -= IDLE_SECONDS + 1  # as if nobody had touched the screen for a while
        shell.collect_when_idle()
        assert gc.get_stats()[2]["collections"] == collections + 1
        shell.collect_when_idle()  # once per quiet spell
        assert gc.get_stats()[2]["collections"] == collections + 1
    finally:
        if was_enabled:
            gc.enable()


def test_escape_goes_home_from_the_game_and_back_to_it_from_elsewhere(shell) -> None:
    start_three_player_campanile(shell)
    assert shell.command("back") and shell.screens.current == "home"
    assert shell.command("back") and shell.screens.current == "game"
    shell.table.close()
    assert shell.screens.current == "home"
    assert not shell.command("undo") and not shell.command("history")
