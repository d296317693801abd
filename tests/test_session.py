"""The session by hand: amend and its refusal, amend-and-drop, listeners and the journal."""

from __future__ import annotations

import pytest

from companion.games import IllegalMove
from companion.registry import get_game
from companion.service.records import ReplayError
from companion.service.session import AmendRefused, Change, Session, SessionError

GAME = get_game("campanile")
PLAYERS = ("Albert", "Birgit", "Franziska")


def move(**fields):
    return GAME.parse_move(fields)


def build(player, tower, stories):
    return move(type="build", player=player, tower=tower, stories=stories)


def marker(player, tower):
    return move(type="influence", player=player, tower=tower)


class RecordingJournal:
    """Keeps what the session asked to be stored, like the SQLite journal would."""

    def __init__(self, fail: bool = False) -> None:
        self.moves: list[dict] = []
        self.redo: list[dict] = []
        self.fail = fail

    def save(self, first, moves, redo, *, finished=False):
        if self.fail:
            raise OSError("disk full")
        self.moves = [*self.moves[:first], *moves]
        self.redo = list(redo)


def session(*moves, journal=None):
    live = Session(GAME, PLAYERS, GAME.start(PLAYERS, {}, {}), journal=journal)
    for each in moves:
        live.propose(each)
    return live


def snapshot(live: Session):
    return live.state, live.log, live.redo_stack


def test_amend_replays_the_later_moves_with_the_new_one():
    journal = RecordingJournal()
    live = session(build("Albert", "red", 3), marker("Albert", "red"), build("Birgit", "blue", 1),
                   journal=journal)
    live.amend(0, build("Albert", "grey", 3))
    assert live.log[0] == build("Albert", "grey", 3)
    heights = {t["tower"]: t["height"] for t in GAME.summary(live.state)["towers"]}
    assert heights["grey"] == 3 and heights["red"] == 0 and heights["blue"] == 1
    assert journal.moves[0] == {"type": "build", "player": "Albert", "tower": "grey", "stories": 3}
    assert len(journal.moves) == 3


def test_an_amend_that_breaks_a_later_move_is_refused_naming_it_and_changes_nothing():
    journal = RecordingJournal()
    live = session(build("Albert", "red", 2), marker("Albert", "red"), build("Birgit", "blue", 1),
                   build("Franziska", "blue", 1), build("Albert", "grey", 3), marker("Albert", "grey"),
                   journal=journal)
    before, stored = snapshot(live), list(journal.moves)
    with pytest.raises(AmendRefused) as refused:
        live.amend(0, build("Albert", "red", 3))   # spends the only value-3 marker at move 2
    assert refused.value.index == 5 and refused.value.player == "Albert"
    assert str(refused.value) == ("move 6 (Albert) would no longer be legal: a 3-story raise lets you "
                                  "place only a value-3 marker, and Albert has none left "
                                  "(markers cannot be combined)")
    assert snapshot(live) == before and journal.moves == stored


def test_an_illegal_amended_move_is_refused_and_changes_nothing():
    live = session(build("Albert", "red", 3))
    before = snapshot(live)
    with pytest.raises(IllegalMove, match="it is Albert's turn to build, not Birgit's"):
        live.amend(0, build("Birgit", "red", 3))
    assert snapshot(live) == before
    with pytest.raises(SessionError, match="there is no move 5 to change"):
        live.amend(4, build("Albert", "red", 1))


def test_amend_and_drop_keeps_the_moves_before_and_drops_the_rest():
    journal = RecordingJournal()
    live = session(build("Albert", "red", 3), marker("Albert", "red"), build("Birgit", "blue", 1),
                   journal=journal)
    live.undo()
    live.amend_and_drop(0, build("Albert", "red", 2))
    assert live.log == (build("Albert", "red", 2),)
    assert live.redo_stack == () and journal.redo == []
    assert journal.moves == [{"type": "build", "player": "Albert", "tower": "red", "stories": 2}]
    assert live.state == GAME.apply(live.state_before(0), build("Albert", "red", 2))


def test_listeners_hear_every_change_after_it_is_stored():
    heard: list[Change] = []
    live = session()
    unsubscribe = live.subscribe(lambda s, change: heard.append(change))
    live.propose(build("Albert", "red", 1))
    live.undo()
    live.redo()
    live.amend(0, build("Albert", "red", 2))
    assert [(c.kind, c.index) for c in heard] == [("move", 0), ("undo", 0), ("redo", 0), ("amend", 0)]
    unsubscribe()
    live.propose(build("Birgit", "red", 1))
    assert len(heard) == 4


def test_a_failed_write_leaves_the_session_unchanged_and_tells_nobody():
    journal = RecordingJournal()
    live = session(build("Albert", "red", 1), journal=journal)
    heard: list[Change] = []
    live.subscribe(lambda s, change: heard.append(change))
    journal.fail = True
    before = snapshot(live)
    for action in (lambda: live.propose(build("Birgit", "red", 1)), live.undo,
                   lambda: live.amend(0, build("Albert", "blue", 1))):
        with pytest.raises(OSError, match="disk full"):
            action()
        assert snapshot(live) == before
    assert heard == []


def test_nothing_to_undo_or_redo_says_so():
    live = session()
    with pytest.raises(SessionError, match="there is nothing to undo"):
        live.undo()
    with pytest.raises(SessionError, match="there is nothing to redo"):
        live.redo()


def test_proposing_the_undone_move_again_keeps_the_rest_of_the_redo_stack():
    live = session(build("Albert", "red", 1), build("Birgit", "red", 1))
    live.undo()
    live.undo()
    live.propose(build("Albert", "red", 1))
    assert live.redo_stack == (build("Birgit", "red", 1),)
    live.propose(build("Birgit", "blue", 2))     # a different move: the redo stack is gone
    assert live.redo_stack == ()


def test_a_log_that_does_not_replay_names_the_move():
    with pytest.raises(ReplayError, match=r"^move 2 \(Albert\): "):
        Session(GAME, PLAYERS, GAME.start(PLAYERS, {}, {}),
                moves=[build("Albert", "red", 1), build("Albert", "red", 1)])
