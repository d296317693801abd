"""The table every front end shares: a real store on a temporary file, real threads posting."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.games.base import IllegalMove
from companion.service.app import Companion
from companion.service.table import NoGame, Table, TableEvent
from tests import helpers_campanile as camp

WAIT = 30.0  # seconds; generous, never a measurement


@pytest.fixture
def table(tmp_path: Path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        yield Table(app)


def _events(table: Table) -> list[TableEvent]:
    seen: list[TableEvent] = []
    table.listen(lambda _table, event: seen.append(event))
    return seen


def test_moves_undo_and_redo_are_announced_with_their_index(table: Table) -> None:
    seen = _events(table)
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    first, second = camp.random_game(1, 2, state=table.session.state)[:2]
    table.propose(first, "touch")
    table.propose(second, "touch")
    table.undo()
    table.redo()
    assert [(e.kind, e.index) for e in seen] == [("opened", 0), ("move", 0), ("move", 1), ("undo", 1),
                                                 ("redo", 1)]
    assert table.app.store.stored_moves(table.live.id)[0][-1] == table.session.game.move_to_json(second)


def test_a_refusal_is_announced_with_its_reason_and_source_and_changes_nothing(table: Table) -> None:
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    out_of_turn = table.session.game.parse_move({"type": "build", "player": "Birgit", "tower": "red",
                                                 "stories": 1})
    seen = _events(table)
    before = table.session.state
    with pytest.raises(IllegalMove) as refused:
        table.propose(out_of_turn, "panel:Albert")
    assert [(e.kind, e.source) for e in seen] == [("refused", "panel:Albert")]
    assert seen[0].reason == refused.value.reason
    assert table.session.state == before and table.session.log == ()


def test_a_listener_that_fails_does_not_stop_the_others(table: Table) -> None:
    def broken(_table: Table, _event: TableEvent) -> None:
        raise OSError("the OLED is unplugged")

    table.listen(broken)
    seen = _events(table)
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    assert [e.kind for e in seen] == ["opened"]


def test_moves_need_an_open_game(table: Table) -> None:
    with pytest.raises(NoGame):
        table.undo()


def test_a_rematch_opens_the_new_game_and_stops_listening_to_the_old_one(table: Table) -> None:
    old = table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    seen = _events(table)
    new = table.rematch()
    assert new.id != old.id and table.live is new
    old.session.propose(camp.random_game(1, 1, state=old.session.state)[0])
    assert [e.kind for e in seen] == ["opened"]  # the old game's move is not this table's


def test_threads_submit_and_the_main_loop_runs_them_in_order(table: Table) -> None:
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    moves = camp.random_game(3, 6, state=table.session.state)[:6]
    done = threading.Event()
    futures = []

    def poster() -> None:
        for move in moves:
            futures.append(table.submit(lambda t, m=move: t.propose(m, "buttons")))
        done.set()

    thread = threading.Thread(target=poster)
    thread.start()
    assert done.wait(WAIT)
    thread.join(WAIT)
    while table.commands.drain():
        pass
    assert [f.result(WAIT) is not None for f in futures] == [True] * 6
    assert table.session.log == tuple(moves)
