"""Every illegal move is refused with a reason a player understands, and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.games.base import RecordError
from companion.games.campanile import Campanile
from companion.games.campanile.moves import Build, Influence, Relocate, Reveal, Take, Valuation
from companion.games.messages import msg
from companion.i18n import render
from companion.service.records import ReplayError, final_state, parse_record
from companion.service.session import Session
from tests.refusals import refuses, rejects_record

GAME = Campanile()
PLAYERS = ["Albert", "Birgit", "Franziska"]


def play(state: Any, *moves: Any) -> Any:
    for move in moves:
        state = GAME.apply(state, move)
    return state


def untracked() -> Any:
    return GAME.start(PLAYERS, {}, {})


def tracked() -> Any:
    return GAME.start(PLAYERS, {}, {"display": ["blue", "brown", "brown"]})


def after_intermezzo() -> Any:
    return play(untracked(), Build("Albert", "red", 1), Valuation("intermezzo"))


def after_finito() -> Any:
    return play(untracked(), Build("Albert", "red", 1), Valuation("intermezzo"),
                Build("Birgit", "red", 1), Valuation("finito"))


def out_of_value_3() -> Any:
    state = play(untracked(), Build("Albert", "red", 3), Influence("Albert", "red"),
                 Build("Birgit", "red", 1), Build("Franziska", "red", 1))
    return GAME.apply(state, Build("Albert", "blue", 3))


def out_of_value_1() -> Any:
    state = untracked()
    for _ in range(5):
        state = play(state, Build("Albert", "red", 1), Influence("Albert", "red"),
                     Build("Birgit", "red", 1), Build("Franziska", "red", 1))
    return GAME.apply(state, Build("Albert", "red", 1))


#: (what, the refusal's code, its parameters, the state, the move, the English words a player reads)
CASES: list[tuple[str, str, dict[str, Any], Any, Any, str]] = [
    ("wrong player to start", "campanile.build.not_yours", {"current": "Albert", "player": "Birgit"},
     untracked, Build("Birgit", "red", 1),
     "it is Albert's turn to build, not Birgit's"),
    ("wrong player next", "campanile.build.not_yours", {"current": "Birgit", "player": "Franziska"},
     lambda: play(untracked(), Build("Albert", "red", 1)), Build("Franziska", "red", 1),
     "it is Birgit's turn to build, not Franziska's"),
    ("unknown player", "common.player.not_playing", {"player": "Zoe"},
     untracked, Build("Zoe", "red", 1), '"Zoe" is not playing in this game'),
    ("second build in a turn", "campanile.build.already_next", {"player": "Albert", "next": "Birgit"},
     lambda: play(untracked(), Build("Albert", "red", 1)),
     Build("Albert", "blue", 2),
     "Albert has already built this turn (one tower card per turn)"),
    ("second build, tracked display", "campanile.build.already", {"player": "Albert"},
     lambda: play(tracked(), Build("Albert", "red", 1)),
     Build("Albert", "blue", 2), "Albert has already built this turn (one tower card per turn)"),
    ("marker of a value with none left (3)", "campanile.marker.none_left", {"stories": 3, "player": "Albert"},
     out_of_value_3, Influence("Albert", "blue"),
     "a 3-story raise lets you place only a value-3 marker, and Albert has none left "
     "(markers cannot be combined)"),
    ("marker of a value with none left (1)", "campanile.marker.none_left", {"stories": 1, "player": "Albert"},
     out_of_value_1, Influence("Albert", "red"),
     "a 1-story raise lets you place only a value-1 marker, and Albert has none left"),
    ("second marker in a turn", "campanile.marker.already", {"player": "Albert"},
     lambda: play(untracked(), Build("Albert", "red", 1), Influence("Albert", "red")),
     Influence("Albert", "blue"), "Albert has already placed a marker this turn (one per turn)"),
    ("marker before build", "campanile.turn.build_first",
     {"player": "Albert", "doing": msg("campanile.doing.marker")},
     untracked, Influence("Albert", "red"),
     "a turn starts by building: Albert must build before placing a marker"),
    ("marker by the wrong player", "campanile.turn.not_yours", {"current": "Albert", "player": "Birgit"},
     lambda: play(untracked(), Build("Albert", "red", 1)),
     Influence("Birgit", "red"), "it is Albert's turn, not Birgit's"),
    ("marker of the previous player after the turn moved on", "campanile.turn.not_yours",
     {"current": "Birgit", "player": "Albert"},
     lambda: play(untracked(), Build("Albert", "red", 1), Build("Birgit", "red", 1)),
     Influence("Albert", "red"), "it is Birgit's turn, not Albert's"),
    ("unknown tower to build", "campanile.tower.unknown", {"tower": "purple"},
     untracked, Build("Albert", "purple", 1),
     'there is no tower called "purple" (the towers are grey, brown, red, blue and yellow)'),
    ("unknown tower for a marker", "campanile.tower.unknown", {"tower": "purple"},
     lambda: play(untracked(), Build("Albert", "red", 1)),
     Influence("Albert", "purple"), 'there is no tower called "purple"'),
    ("take without a tracked display", "campanile.display.not_tracked", {},
     lambda: play(untracked(), Build("Albert", "red", 1)),
     Take("Albert", "red"), "this game does not track the display"),
    ("reveal without a tracked display", "campanile.display.not_tracked", {},
     lambda: play(untracked(), Build("Albert", "red", 1)),
     Reveal("red"), "this game does not track the display"),
    ("marker under a style not in the display", "campanile.marker.not_in_display",
     {"tower": msg("campanile.colour.red")},
     lambda: play(tracked(), Build("Albert", "red", 1)),
     Influence("Albert", "red"),
     "a marker can go only under a tower whose style is in the display (blue, brown and brown); red is not"),
    ("take a card not face up", "campanile.take.not_face_up", {"card": msg("campanile.colour.red")},
     lambda: play(tracked(), Build("Albert", "red", 1)), Take("Albert", "red"),
     "there is no red card face up (the display shows blue, brown and brown)"),
    ("take a second card", "campanile.take.already", {"player": "Albert"},
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue")),
     Take("Albert", "brown"), "Albert has already taken a card this turn"),
    ("take by the wrong player", "campanile.turn.not_yours", {"current": "Albert", "player": "Birgit"},
     lambda: play(tracked(), Build("Albert", "red", 1)), Take("Birgit", "blue"),
     "it is Albert's turn, not Birgit's"),
    ("take before the build", "campanile.turn.build_first",
     {"player": "Albert", "doing": msg("campanile.doing.take")},
     tracked, Take("Albert", "blue"),
     "a turn starts by building: Albert must build before taking a card"),
    ("reveal when the display is full", "campanile.reveal.not_now", {},
     lambda: play(tracked(), Build("Albert", "red", 1)), Reveal("red"),
     "a card is revealed only to refill the display after a card was taken"),
    ("reveal twice", "campanile.reveal.not_now", {},
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Reveal("red")),
     Reveal("red"), "a card is revealed only to refill the display"),
    ("reveal a style that is no tower", "campanile.reveal.not_a_style", {"card": "purple"},
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue")), Reveal("purple"),
     '"purple" is not a tower style'),
    ("reveal before anything", "campanile.reveal.not_now", {},
     tracked, Reveal("red"), "a card is revealed only to refill the display"),
    ("marker after the take", "campanile.marker.after_take", {},
     lambda: play(tracked(), Build("Albert", "blue", 1), Take("Albert", "brown")),
     Influence("Albert", "blue"),
     "a marker is placed before taking a card from the display"),
    ("build before the take", "campanile.build.take_first", {"player": "Albert"},
     lambda: play(tracked(), Build("Albert", "red", 1)), Build("Birgit", "red", 1),
     "Albert must first take a card from the display"),
    ("build before the reveal", "campanile.build.refill_first", {},
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue")),
     Build("Birgit", "red", 1), "the display must be refilled (reveal a card) before the next turn"),
    ("build after the intermezzo before the refill", "campanile.build.refill_first", {},
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Valuation("intermezzo")),
     Build("Birgit", "red", 1), "the display must be refilled (reveal a card) before the next turn"),
    ("valuation before the take", "campanile.valuation.in_place_of_refill", {},
     lambda: play(tracked(), Build("Albert", "red", 1)), Valuation("intermezzo"),
     "the valuation card is turned over in place of the refill, after the card is taken"),
    ("valuation after the refill", "campanile.valuation.in_place_of_refill", {},
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Reveal("red")),
     Valuation("intermezzo"), "in place of the refill"),
    ("valuation before any build", "campanile.valuation.before_build", {},
     untracked, Valuation("intermezzo"),
     "a valuation card is turned over at the end of a turn, after the build"),
    ("finito after the refill that followed the intermezzo", "campanile.valuation.in_place_of_refill", {},
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Valuation("intermezzo"),
                  Reveal("red")),
     Valuation("finito"), "in place of the refill"),
    ("intermezzo twice", "campanile.valuation.intermezzo_done", {},
     lambda: play(after_intermezzo(), Build("Birgit", "red", 1)), Valuation("intermezzo"),
     "the Intermezzo has already been valued"),
    ("marker after the intermezzo ended the turn", "campanile.turn.build_first",
     {"player": "Birgit", "doing": msg("campanile.doing.marker")},
     lambda: play(untracked(), Build("Albert", "red", 1), Valuation("intermezzo")),
     Influence("Albert", "red"),
     "a turn starts by building: Birgit must build before placing a marker"),
    ("intermezzo after finito", "campanile.game.over", {},
     after_finito, Valuation("intermezzo"),
     "the game is over: the Finito valuation has been made"),
    ("finito after finito", "campanile.game.over", {},
     after_finito, Valuation("finito"), "the game is over"),
    ("build after finito", "campanile.game.over", {},
     after_finito, Build("Franziska", "red", 1), "the game is over"),
    ("marker after finito", "campanile.game.over", {},
     after_finito, Influence("Birgit", "red"), "the game is over"),
    ("relocate without the option", "campanile.relocate.not_in_game", {},
     lambda: play(untracked(), Build("Albert", "red", 2), Influence("Albert", "red"),
                  Build("Birgit", "red", 1), Build("Franziska", "red", 1), Build("Albert", "blue", 2)),
     Relocate("Albert", "red", "blue"),
     "moving a marker is the optional 2-player rule, which this game does not use"),
]


@pytest.mark.parametrize(("code", "params", "make", "move", "reason"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_illegal_move_is_refused_and_changes_nothing(code: str, params: dict[str, Any], make: Any, move: Any,
                                                     reason: str) -> None:
    state = make()
    before = copy.deepcopy(state)
    with refuses(code, **params) as caught:  # the code, and its words in English and Hungarian
        GAME.apply(state, move)
    assert reason in render(caught.value.reason, "en")  # type: ignore[arg-type]
    assert state == before


@pytest.mark.parametrize(("code", "params", "make", "move", "reason"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_illegal_move_leaves_a_session_as_it_was(code: str, params: dict[str, Any], make: Any, move: Any,
                                                 reason: str) -> None:
    state = make()
    session = Session(GAME, PLAYERS, state)
    seen: list[Any] = []
    session.subscribe(lambda s, change: seen.append(change))
    with refuses(code, **params) as caught:
        session.propose(move)
    assert reason in str(caught.value)  # the engine's reason reaches the screen unchanged
    assert session.state is state
    assert session.log == ()
    assert seen == []


def _record(moves: list[dict[str, Any]], players: list[str] | None = None,
            options: dict[str, Any] | None = None, setup: dict[str, Any] | None = None,
            **extra: Any) -> dict[str, Any]:
    return {"format": "companion-record/1", "game": "campanile", "players": players or PLAYERS,
            "options": options or {}, "setup": setup or {}, "moves": moves, **extra}


def test_replay_names_the_move_the_player_and_the_reason() -> None:
    moves = [{"type": "build", "player": "Albert", "tower": "red", "stories": 2},
             {"type": "influence", "player": "Albert", "tower": "red"},
             {"type": "influence", "player": "Albert", "tower": "blue"}]
    with pytest.raises(ReplayError) as caught:
        final_state(parse_record(_record(moves)))
    assert str(caught.value) == "move 3 (Albert): Albert has already placed a marker this turn (one per turn)"
    assert caught.value.index == 2


def test_replay_error_for_a_table_move_has_no_player() -> None:
    with pytest.raises(ReplayError) as caught:
        final_state(parse_record(_record([{"type": "valuation", "phase": "finito"}])))
    assert str(caught.value).startswith("move 1: ")


# -- structural errors at parse time ------------------------------------------
@pytest.mark.parametrize("stories", [0, 4, -1, True, "2", 2.5, None])
def test_stories_out_of_range_is_a_record_error(stories: Any) -> None:
    move = {"type": "build", "player": "Albert", "tower": "red", "stories": stories}
    with rejects_record("campanile.build.stories"):  # the engine's code, in both languages
        GAME.parse_move(move)
    with pytest.raises(RecordError) as caught:
        parse_record(_record([{"type": "build", "player": "Albert", "tower": "red", "stories": 1}, move]))
    assert caught.value.path == "move 2"
    assert str(caught.value) == "move 2: stories must be 1, 2 or 3"  # null too: stories has no default


@pytest.mark.parametrize(("move", "words"), [
    ({"type": "build", "player": "Albert", "tower": "red", "stories": 1, "storeys": 1},
     'unknown field "storeys"'),
    ({"type": "build", "player": "Albert", "tower": "red"}, '"stories" is missing'),
    ({"type": "influence", "player": "Albert", "tower": "red", "value": 2}, 'unknown field "value"'),
    ({"type": "relocate", "player": "Albert", "from": "red"}, '"to" is missing'),
    ({"type": "reveal", "player": "Albert", "card": "red"}, 'unknown field "player"'),
    ({"type": "valuation", "phase": "halftime"}, "phase must be one of intermezzo, finito"),
    ({"type": "jump", "player": "Albert"}, "type must be one of"),
])
def test_malformed_moves_are_record_errors_naming_the_move(move: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(_record([move]))
    assert caught.value.path == "move 1"
    assert words in str(caught.value)


FLAGS = {"intermezzo": [[4, 2], [3, 1], [2], [1]], "finito": [[6, 4, 2], [5, 3, 1], [4, 2], [3, 1], [2]]}


#: (players, options, setup, the JSON path, the code (None: the shared field readers'), its words in English)
RECORD_ERRORS: list[tuple[list[str], dict[str, Any], dict[str, Any], str, str | None, str]] = [
    (PLAYERS, {"two_player_move": True}, {}, "options.two_player_move", "campanile.options.relocate_players",
     "only for 2-player games"),
    (["A", "B", "C", "D"], {"two_player_move": True}, {}, "options.two_player_move",
     "campanile.options.relocate_players", "only for 2-player games"),
    (PLAYERS, {"flags": {"intermezzo": FLAGS["intermezzo"][:3], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo", "campanile.flags.count", "exactly 4 flags (one per flagged tower), not 3"),
    (PLAYERS, {"flags": {"intermezzo": FLAGS["intermezzo"], "finito": [*FLAGS["finito"], [1]]}}, {},
     "options.flags.finito", "campanile.flags.count", "exactly 5 flags"),
    (["A", "B"], {"flags": {"intermezzo": FLAGS["intermezzo"], "finito": FLAGS["finito"][:4]}}, {},
     "options.flags.finito", "campanile.flags.count", "exactly 5 flags"),
    (PLAYERS, {"flags": {"intermezzo": "4/2"}}, {}, "options.flags", None, '"finito" is missing'),
    (PLAYERS, {"flags": {"intermezzo": "4/2 3/1 2 1", "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo", "campanile.flags.not_a_list", "must be a list of 4 flags, not a text"),
    (PLAYERS, {"flags": {**FLAGS, "bonus": []}}, {}, "options.flags", None, 'unknown field "bonus"'),
    (PLAYERS, {"flags": [[1]]}, {}, "options.flags", "campanile.flags.not_an_object",
     "must be an object with intermezzo and finito, not a list"),
    (PLAYERS, {"flags": {"intermezzo": [[2, 4], [3, 1], [2], [1]], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo[0]", "campanile.flags.order", "best first"),
    (PLAYERS, {"flags": {"intermezzo": [[4, 2], [3, 0], [2], [1]], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo[1]", "campanile.flags.value", "at least 1, not 0"),
    (PLAYERS, {"flags": {"intermezzo": [[4, 2], [3, True], [2], [1]], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo[1]", "campanile.flags.value", "at least 1, not true"),
    (PLAYERS, {"flags": {"intermezzo": [[4, 2], [], [2], [1]], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo[1]", "campanile.flags.empty", "non-empty list"),
    (PLAYERS, {"two_player": True}, {}, "options", None, 'unknown field "two_player"'),
    (PLAYERS, {}, {"tower": ["a"]}, "setup", None, 'unknown field "tower"'),
    (PLAYERS, {}, {"towers": ["grey", "brown", "red", "brown", "yellow"]}, "setup.towers[3]",
     "campanile.towers.duplicate", 'duplicate tower "brown"'),
    (PLAYERS, {}, {"towers": ["grey", "brown", "red", "blue"]}, "setup.towers", "campanile.towers.count",
     "5 towers, not 4"),
    (PLAYERS, {}, {"towers": {"grey": 1}}, "setup.towers", "campanile.towers.not_a_list",
     "must be a list of 5 tower names, not an object"),
    (PLAYERS, {}, {"towers": ["grey", "", "red", "blue", "x"]}, "setup.towers[1]",
     "campanile.towers.empty_name", "non-empty"),
    (PLAYERS, {}, {"display": ["grey", "purple", "red"]}, "setup.display[1]", "campanile.display.not_a_tower",
     '"purple" is not one of the towers'),
    (PLAYERS, {}, {"towers": ["a", "b", "c", "d", "e"], "display": ["a", "b", "grey"]}, "setup.display[2]",
     "campanile.display.not_a_tower", "is not one of the towers (a, b, c, d and e)"),
    (PLAYERS, {}, {"display": ["grey", "red"]}, "setup.display", "campanile.display.setup_size",
     "the 3 styles"),
]


@pytest.mark.parametrize(("players", "options", "setup", "path", "code", "words"), RECORD_ERRORS)
def test_record_level_errors_name_the_json_path(players: list[str], options: dict[str, Any],
                                                setup: dict[str, Any], path: str, code: str | None,
                                                words: str) -> None:
    if code is None:  # the shared field readers' own words (not this game's catalogue)
        with pytest.raises(RecordError) as caught:
            parse_record(_record([], players=players, options=options, setup=setup))
        assert caught.value.path == path
    else:
        with rejects_record(code, path) as caught:
            parse_record(_record([], players=players, options=options, setup=setup))
    assert words in caught.value.text  # English: the tests start in English (tests/conftest.py)
    assert str(caught.value) == f"{path}: {caught.value.text}"


def test_unknown_top_level_field_is_refused() -> None:
    with pytest.raises(RecordError, match='unknown field "comment"'):
        parse_record(_record([], comment="hi"))


def test_player_count_out_of_range() -> None:
    for players in (["A", "B", "C", "D", "E", "F"], ["A"]):
        with pytest.raises(RecordError) as caught:
            parse_record(_record([], players=players))
        assert caught.value.path == "players"
        assert caught.value.text == f"Campanile is for 2 to 5 players, not {len(players)}"
