"""The Castelli area resolver, offscreen through synthetic touches: cases from the rulebook, and the
shown answer is always the engine's :func:`~companion.games.castelli.evaluation.resolve`.

Screenshots go to ``$UI_SCREENSHOTS`` when set (for a person to look at), else to the test's
temporary directory.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.games.castelli import tables
from companion.games.castelli.evaluation import resolve
from companion.games.castelli.words import colour as colour_word
from companion.games.messages import msg
from companion.i18n import say, text
from ui.games.castelli.resolver import KEEP_TOGETHER, ResolverScreen, award_text
from ui.widgets import Figure, Tap


@pytest.fixture(params=["en", "hu"])
def shell(request: pytest.FixtureRequest, tmp_path: Path):
    i18n.set_language(request.param)
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)
    i18n.set_language("en")


def open_resolver(shell) -> ResolverScreen:
    kit.tap(kit.find(text("ui.resolver.open"), Tap))
    assert shell.screens.current == "resolver"
    return shell.screens.get_screen("resolver")


def enter(screen: ResolverScreen, kind: str, shields: list[tuple[str, int | str]]) -> None:
    """Taps: the kind, then per shield its colour (when it changes) and its value on the pad."""
    kit.tap(kit.find(text(f"ui.resolver.kind.{kind}"), Tap))
    chosen = None
    for colour, value in shields:
        if colour != chosen:
            kit.tap(screen.colour_buttons[colour])
            chosen = colour
        key = screen.pad[value]
        assert key.text == (text("ui.resolver.card") if value == "card" else str(value))
        kit.tap(key)


def every_colour_plays() -> dict[str, str]:
    return {c: text("ui.resolver.seat", colour=text(f"castelli.colour.{c}")) for c in tables.COLORS}


def assert_shows(screen: ResolverScreen, kind: str, amount: int, shields, players, neutral="void",
                 seats=True):
    """The screen holds the tapped shields and shows exactly what the engine decides (``seats``:
    no game is open, the players are the colours' seats)."""
    assert screen.question.shields == list(shields)
    expected = resolve(kind, amount, shields, players, neutral, seats)
    assert screen.resolution == expected
    kit.find(say(expected.explanation))
    gains = {player: share for player, share in expected.awards.items() if share > 0}
    for player, share in gains.items():
        kit.find(award_text(expected, player, share))
    if not gains:  # nobody, or shares rounded down to nothing
        kit.find(text("ui.resolver.nothing"))
    return expected


def award_line(screen: ResolverScreen, player: str) -> Figure:
    """The award line of ``player`` on the screen."""
    return next(line for line in screen._lines if line.parent is not None
                and line.text.replace(KEEP_TOGETHER, " ").startswith(f"{player}:"))


def assert_award_wraps_whole(line: Figure, player: str, amount: str) -> None:
    """The line's text fits its box, and if it wraps it wraps between who and what, never inside either
    ("yellow player: 1 / card" was the defect)."""
    label = line._label
    lines = [" ".join(word.text for word in row.words).replace(KEEP_TOGETHER, " ").strip()
             for row in label._cached_lines]
    assert lines in ([f"{player}: {amount}"], [f"{player}:", amount]), lines
    assert line.texture_size[0] <= line.width and line.texture_size[1] <= line.height


def test_the_rulebook_rock_blue_5_beats_yellow_4_and_gains_2_stone(shell, shots: Path) -> None:
    screen = open_resolver(shell)
    shields = [("blue", 3), ("blue", 2), ("yellow", 4)]
    enter(screen, "rock", shields)
    result = assert_shows(screen, "rock", 2, shields, every_colour_plays())
    assert result.awards == {every_colour_plays()["blue"]: 2}
    kit.screenshot(shots / f"{i18n.current_language()}-resolver-rock.png")


def test_without_a_game_a_seat_is_named_by_its_colour_once(shell) -> None:
    """"yellow player (yellow) 3" named the colour twice (issue 35, item 13): the influence and
    the explanation say "yellow player 3", "blue player has the most (5)"."""
    screen = open_resolver(shell)
    shields = [("blue", 3), ("blue", 2), ("yellow", 3)]
    enter(screen, "rock", shields)
    assert_shows(screen, "rock", 2, shields, every_colour_plays())
    shown = f"{screen.influence} {screen.explanation}"
    for colour in ("blue", "yellow"):
        seat = every_colour_plays()[colour]
        assert f"{seat} " in shown
        assert say(msg("castelli.who.player", player=seat, colour=colour_word(colour))) not in shown
        assert shown.count(str(colour_word(colour))) == shown.count(seat), shown


def test_the_rulebook_market_tie_green_and_yellow_draw_one_card_each(shell, shots: Path) -> None:
    screen = open_resolver(shell)
    enter(screen, "market", [])
    kit.tap(kit.find("+", Tap))  # 2 tents
    shields = [("green", 3), ("yellow", 2), ("yellow", 1), ("red", 2)]
    enter(screen, "market", shields)
    result = assert_shows(screen, "market", 2, shields, every_colour_plays())
    seats = every_colour_plays()
    assert result.awards == {seats["yellow"]: 1, seats["green"]: 1}
    kit.pump(2)
    for player in (seats["yellow"], seats["green"]):  # "yellow player: 1 card" at 36 px, 42 % of the width
        assert_award_wraps_whole(award_line(screen, player), player, text("castelli.amount.cards", count=1))
    kit.screenshot(shots / f"{i18n.current_language()}-resolver-market-tie.png")
    # a three-way tie on 3 wood: one each; on 2 wood: rounded down to none, and said so
    kit.tap(kit.find(text("ui.resolver.clear"), Tap))
    shields = [("blue", 2), ("red", 2), ("green", 2)]
    enter(screen, "forest", shields)
    result = assert_shows(screen, "forest", 2, shields, every_colour_plays())
    assert set(result.awards.values()) == {0}
    assert result.explanation.code == "castelli.evaluation.rounded_down"
    kit.screenshot(shots / f"{i18n.current_language()}-resolver-rounded-down.png")


def test_card_shields_count_nothing_and_a_shield_is_taken_back_by_a_tap(shell, shots: Path) -> None:
    screen = open_resolver(shell)
    shields = [("red", "card"), ("red", 2), ("blue", 1), ("blue", "card"), ("blue", 1), ("green", 6)]
    enter(screen, "field", shields)
    assert_shows(screen, "field", 2, shields, every_colour_plays())
    kit.tap(kit.find(text("ui.resolver.undo"), Tap))  # the green 6 goes
    shields = shields[:-1]
    result = assert_shows(screen, "field", 2, shields, every_colour_plays())
    assert result.influence == {"blue": 2, "red": 2}
    assert screen.chips[0].text == text("ui.resolver.card")
    kit.tap(screen.chips[0])  # the red card-covered shield's chip
    shields = shields[1:]
    assert_shows(screen, "field", 2, shields, every_colour_plays())
    kit.screenshot(shots / f"{i18n.current_language()}-resolver-cards.png")


def test_without_a_game_a_colour_can_be_neutral_and_void_the_area(shell, shots: Path) -> None:
    screen = open_resolver(shell)
    seats = every_colour_plays()
    hint = kit.find(text("ui.resolver.neutral_hint"))  # the buttons under the colours say what they do
    assert hint.parent is not None and hint.texture_size[0] <= hint.width
    kit.tap(kit.find(seats["yellow"], Tap))  # yellow: nobody plays it
    players = {c: p for c, p in seats.items() if c != "yellow"}
    shields = [("yellow", 5), ("blue", 5), ("red", 1)]
    enter(screen, "forest", shields)
    result = assert_shows(screen, "forest", 2, shields, players)
    assert result.voided and result.awards == {}
    kit.screenshot(shots / f"{i18n.current_language()}-resolver-neutral-void.png")
    kit.tap(kit.find(text("ui.resolver.neutral_rule.void"), Tap))
    result = assert_shows(screen, "forest", 2, shields, players, neutral="split")
    assert result.awards == {seats["blue"]: 1}


def test_with_a_castelli_game_open_the_colours_are_its_players(shell, shots: Path) -> None:
    shell.table.start("castelli", ["Anna", "Béla"], setup={"board": "example-2p"},
                      colours={"Anna": "blue", "Béla": "red"})
    kit.pump(3)
    shell.go("home")
    screen = open_resolver(shell)
    players = {"blue": "Anna", "red": "Béla"}
    assert screen.question.players == players
    assert screen.question.amounts["mine"] == tables.MINE_SILVER[2]
    shields = [("blue", 2), ("red", 2), ("green", 3)]
    enter(screen, "rock", shields)
    result = assert_shows(screen, "rock", 2, shields, players, seats=False)
    assert result.voided  # green is neutral with 2 players and leads
    # a named player with the colour beside the name: "Anna (blue) 2"
    assert say(msg("castelli.who.player", player="Anna", colour=colour_word("blue"))) in screen.influence
    kit.tap(kit.find("Anna", Tap))
    assert screen.question.players == players  # the game's colours do not change here
    assert screen._parts["neutral_hint"].parent is None  # nothing to make neutral here
    kit.screenshot(shots / f"{i18n.current_language()}-resolver-in-game.png")


def test_a_tap_changes_the_widgets_it_has_and_builds_none(tmp_path: Path) -> None:
    """Kivy with its grain: a tap sets the screen's properties and the widgets bound to them follow
    (on main before this, every tap built the answer's lines anew: 2–4 widgets a tap). What a tap
    may put on the screen is a widget kept from before: the new shield's chip, the words said while
    there are no shields, the neutral rule's button; only an award line more than ever before is new."""
    shell = kit.open_shell(tmp_path / "store.db")
    try:
        screen = open_resolver(shell)
        chips = list(screen.all_chips)
        kit.tap(screen.pad[3])  # blue 3: the answer's influence line is there from now on
        assert kit.widgets_made_by(lambda: kit.tap(screen.colour_buttons["yellow"]), screen) == []
        made = kit.widgets_made_by(lambda: kit.tap(screen.pad[3]), screen)  # yellow 3 ties: 1 wood each
        assert made[0] is chips[1] and len(made) == 2 and isinstance(made[1], Figure)
        assert made[1].text in texts_of_awards(screen) and len(texts_of_awards(screen)) == 2
        second_line = made[1]
        assert kit.widgets_made_by(lambda: kit.tap(kit.find("+", Tap)), screen) == []
        assert kit.widgets_made_by(lambda: kit.tap(screen.chips[1]), screen) == []  # one gains: a line off
        assert kit.widgets_made_by(lambda: kit.tap(screen.pad[3]), screen) == [chips[1], second_line]
        made = kit.widgets_made_by(lambda: kit.tap(kit.find(every_colour_plays()["green"], Tap)), screen)
        assert made == [screen.ids.rule]  # green neutral: the rule's button, kept, in its place
        made = kit.widgets_made_by(lambda: kit.tap(kit.find(text("ui.resolver.clear"), Tap)), screen)
        assert made == [screen.ids.no_shields]
    finally:
        kit.close_shell(shell)


def texts_of_awards(screen: ResolverScreen) -> list[str]:
    resolution = screen.resolution
    assert resolution is not None
    return [award_text(resolution, player, share) for player, share in resolution.awards.items()]


def test_the_resolver_and_editor_words_are_in_both_languages_and_hungarian_is_hungarian() -> None:
    from companion.i18n.po import read_po
    from tests.refusals import ENGLISH_WORDS

    root = Path(__file__).resolve().parent.parent / "companion" / "games" / "castelli" / "locale"
    english = {e.msgid: e.msgstr for e in read_po(root / "en" / "ui_editor.po") if e.msgid}
    hungarian = {e.msgid: e.msgstr for e in read_po(root / "hu" / "ui_editor.po") if e.msgid}
    assert english.keys() == hungarian.keys()
    assert all(code.startswith(("ui.resolver.", "ui.editor.")) for code in english)
    for code, words in hungarian.items():
        said = re.sub(r"\{[^}]*\}", "", words[0])
        assert not {w for w in re.findall(r"\w+", said) if w.lower() in ENGLISH_WORDS}, (code, words)
