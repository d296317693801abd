"""Every illegal move is refused with a reason a player understands, and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from companion.games.base import IllegalMove, RecordError
from companion.games.campanile import Campanile
from companion.games.campanile.moves import Build, Influence, Relocate, Reveal, Take, Valuation
from companion.records import ReplayError, final_state, parse_record
from companion.session import Session

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


CASES: list[tuple[str, Any, Any, str]] = [
    ("wrong player to start", untracked, Build("Birgit", "red", 1),
     "it is Albert's turn to build, not Birgit's"),
    ("wrong player next", lambda: play(untracked(), Build("Albert", "red", 1)), Build("Franziska", "red", 1),
     "it is Birgit's turn to build, not Franziska's"),
    ("unknown player", untracked, Build("Zoe", "red", 1), '"Zoe" is not playing in this game'),
    ("second build in a turn", lambda: play(untracked(), Build("Albert", "red", 1)),
     Build("Albert", "blue", 2),
     "Albert has already built this turn (one tower card per turn)"),
    ("second build, tracked display", lambda: play(tracked(), Build("Albert", "red", 1)),
     Build("Albert", "blue", 2), "Albert has already built this turn (one tower card per turn)"),
    ("marker of a value with none left (3)", out_of_value_3, Influence("Albert", "blue"),
     "a 3-story raise lets you place only a value-3 marker, and Albert has none left "
     "(markers cannot be combined)"),
    ("marker of a value with none left (1)", out_of_value_1, Influence("Albert", "red"),
     "a 1-story raise lets you place only a value-1 marker, and Albert has none left"),
    ("second marker in a turn",
     lambda: play(untracked(), Build("Albert", "red", 1), Influence("Albert", "red")),
     Influence("Albert", "blue"), "Albert has already placed a marker this turn (one per turn)"),
    ("marker before build", untracked, Influence("Albert", "red"),
     "a turn starts by building: Albert must build before placing a marker"),
    ("marker by the wrong player", lambda: play(untracked(), Build("Albert", "red", 1)),
     Influence("Birgit", "red"), "it is Albert's turn, not Birgit's"),
    ("marker of the previous player after the turn moved on",
     lambda: play(untracked(), Build("Albert", "red", 1), Build("Birgit", "red", 1)),
     Influence("Albert", "red"), "it is Birgit's turn, not Albert's"),
    ("unknown tower to build", untracked, Build("Albert", "purple", 1),
     'there is no tower called "purple" (the towers are grey, brown, red, blue, yellow)'),
    ("unknown tower for a marker", lambda: play(untracked(), Build("Albert", "red", 1)),
     Influence("Albert", "purple"), 'there is no tower called "purple"'),
    ("take without a tracked display", lambda: play(untracked(), Build("Albert", "red", 1)),
     Take("Albert", "red"), "this game does not track the display"),
    ("reveal without a tracked display", lambda: play(untracked(), Build("Albert", "red", 1)),
     Reveal("red"), "this game does not track the display"),
    ("marker under a style not in the display", lambda: play(tracked(), Build("Albert", "red", 1)),
     Influence("Albert", "red"),
     "a marker can go only under a tower whose style is in the display (blue, brown, brown); red is not"),
    ("take a card not face up", lambda: play(tracked(), Build("Albert", "red", 1)), Take("Albert", "red"),
     "there is no red card face up (the display shows blue, brown, brown)"),
    ("take a second card", lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue")),
     Take("Albert", "brown"), "Albert has already taken a card this turn"),
    ("take by the wrong player", lambda: play(tracked(), Build("Albert", "red", 1)), Take("Birgit", "blue"),
     "it is Albert's turn, not Birgit's"),
    ("take before the build", tracked, Take("Albert", "blue"),
     "a turn starts by building: Albert must build before taking a card"),
    ("reveal when the display is full", lambda: play(tracked(), Build("Albert", "red", 1)), Reveal("red"),
     "a card is revealed only to refill the display after a card was taken"),
    ("reveal twice",
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Reveal("red")),
     Reveal("red"), "a card is revealed only to refill the display"),
    ("reveal a style that is no tower",
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue")), Reveal("purple"),
     '"purple" is not a tower style'),
    ("reveal before anything", tracked, Reveal("red"), "a card is revealed only to refill the display"),
    ("marker after the take",
     lambda: play(tracked(), Build("Albert", "blue", 1), Take("Albert", "brown")),
     Influence("Albert", "blue"),
     "a marker is placed before taking a card from the display"),
    ("build before the take", lambda: play(tracked(), Build("Albert", "red", 1)), Build("Birgit", "red", 1),
     "Albert must first take a card from the display"),
    ("build before the reveal", lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue")),
     Build("Birgit", "red", 1), "the display must be refilled (reveal a card) before the next turn"),
    ("build after the intermezzo before the refill",
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Valuation("intermezzo")),
     Build("Birgit", "red", 1), "the display must be refilled (reveal a card) before the next turn"),
    ("valuation before the take", lambda: play(tracked(), Build("Albert", "red", 1)), Valuation("intermezzo"),
     "the valuation card is turned over in place of the refill, after the card is taken"),
    ("valuation after the refill",
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Reveal("red")),
     Valuation("intermezzo"), "in place of the refill"),
    ("valuation before any build", untracked, Valuation("intermezzo"),
     "a valuation card is turned over at the end of a turn, after the build"),
    ("finito after the refill that followed the intermezzo",
     lambda: play(tracked(), Build("Albert", "red", 1), Take("Albert", "blue"), Valuation("intermezzo"),
                  Reveal("red")),
     Valuation("finito"), "in place of the refill"),
    ("intermezzo twice", lambda: play(after_intermezzo(), Build("Birgit", "red", 1)), Valuation("intermezzo"),
     "the Intermezzo has already been valued"),
    ("marker after the intermezzo ended the turn",
     lambda: play(untracked(), Build("Albert", "red", 1), Valuation("intermezzo")),
     Influence("Albert", "red"),
     "a turn starts by building: Birgit must build before placing a marker"),
    ("intermezzo after finito", after_finito, Valuation("intermezzo"),
     "the game is over: the Finito valuation has been made"),
    ("finito after finito", after_finito, Valuation("finito"), "the game is over"),
    ("build after finito", after_finito, Build("Franziska", "red", 1), "the game is over"),
    ("marker after finito", after_finito, Influence("Birgit", "red"), "the game is over"),
    ("relocate without the option",
     lambda: play(untracked(), Build("Albert", "red", 2), Influence("Albert", "red"),
                  Build("Birgit", "red", 1), Build("Franziska", "red", 1), Build("Albert", "blue", 2)),
     Relocate("Albert", "red", "blue"),
     "moving a marker is the optional 2-player rule, which this game does not use"),
]


@pytest.mark.parametrize(("make", "move", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_illegal_move_is_refused_and_changes_nothing(make: Any, move: Any, reason: str) -> None:
    state = make()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, move)
    assert reason in str(caught.value)
    assert state == before


@pytest.mark.parametrize(("make", "move", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_illegal_move_leaves_a_session_as_it_was(make: Any, move: Any, reason: str) -> None:
    state = make()
    session = Session(GAME, PLAYERS, state)
    seen: list[Any] = []
    session.subscribe(lambda s, change: seen.append(change))
    with pytest.raises(IllegalMove) as caught:
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


@pytest.mark.parametrize(("players", "options", "setup", "path", "words"), [
    (PLAYERS, {"two_player_move": True}, {}, "options.two_player_move", "only for 2-player games"),
    (["A", "B", "C", "D"], {"two_player_move": True}, {}, "options.two_player_move",
     "only for 2-player games"),
    (PLAYERS, {"flags": {"intermezzo": FLAGS["intermezzo"][:3], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo", "exactly 4 flags"),
    (PLAYERS, {"flags": {"intermezzo": FLAGS["intermezzo"], "finito": [*FLAGS["finito"], [1]]}}, {},
     "options.flags.finito", "exactly 5 flags"),
    (["A", "B"], {"flags": {"intermezzo": FLAGS["intermezzo"], "finito": FLAGS["finito"][:4]}}, {},
     "options.flags.finito", "exactly 5 flags"),
    (PLAYERS, {"flags": {"intermezzo": FLAGS["intermezzo"]}}, {}, "options.flags", '"finito" is missing'),
    (PLAYERS, {"flags": {**FLAGS, "bonus": []}}, {}, "options.flags", 'unknown field "bonus"'),
    (PLAYERS, {"flags": [[1]]}, {}, "options.flags", "must be an object"),
    (PLAYERS, {"flags": {"intermezzo": [[2, 4], [3, 1], [2], [1]], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo[0]", "best first"),
    (PLAYERS, {"flags": {"intermezzo": [[4, 2], [3, 0], [2], [1]], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo[1]", "at least 1"),
    (PLAYERS, {"flags": {"intermezzo": [[4, 2], [], [2], [1]], "finito": FLAGS["finito"]}}, {},
     "options.flags.intermezzo[1]", "non-empty list"),
    (PLAYERS, {"two_player": True}, {}, "options", 'unknown field "two_player"'),
    (PLAYERS, {}, {"tower": ["a"]}, "setup", 'unknown field "tower"'),
    (PLAYERS, {}, {"towers": ["grey", "brown", "red", "brown", "yellow"]}, "setup.towers[3]",
     'duplicate tower "brown"'),
    (PLAYERS, {}, {"towers": ["grey", "brown", "red", "blue"]}, "setup.towers", "5 towers, not 4"),
    (PLAYERS, {}, {"towers": ["grey", "", "red", "blue", "x"]}, "setup.towers[1]", "non-empty"),
    (PLAYERS, {}, {"display": ["grey", "purple", "red"]}, "setup.display[1]",
     "'purple' is not one of the towers"),
    (PLAYERS, {}, {"towers": ["a", "b", "c", "d", "e"], "display": ["a", "b", "grey"]}, "setup.display[2]",
     "is not one of the towers (a, b, c, d, e)"),
    (PLAYERS, {}, {"display": ["grey", "red"]}, "setup.display", "the 3 styles"),
])
def test_record_level_errors_name_the_json_path(players: list[str], options: dict[str, Any],
                                                setup: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(_record([], players=players, options=options, setup=setup))
    assert caught.value.path == path
    assert words in caught.value.message
    assert str(caught.value) == f"{path}: {caught.value.message}"


def test_unknown_top_level_field_is_refused() -> None:
    with pytest.raises(RecordError, match='unknown field "comment"'):
        parse_record(_record([], comment="hi"))


def test_player_count_out_of_range() -> None:
    for players in (["A", "B", "C", "D", "E", "F"], ["A"]):
        with pytest.raises(RecordError) as caught:
            parse_record(_record([], players=players))
        assert caught.value.path == "players"
        assert caught.value.message == f"Campanile is for 2 to 5 players, not {len(players)}"
