"""The child of the power-loss test: the real touchscreen app, played by touches and GPIO presses.

``python -m tests.helpers_power_child STORE SEED`` opens the store as
``companion run`` does (resuming the newest unfinished game), builds the real
shell in an offscreen Kivy window with the buttons on gpiozero's mock pins
(:class:`~hardware.controls.Controls` posting to the table's command queue,
drained on Kivy's clock, as on a box with both), and prints::

    ready SESSION MOVES SCREEN H1,H2,...   what is on the screen: the game's id, the moves in its
                                           log, the screen shown and the tower heights the board shows
    begin move|undo|redo                   before each change
    confirmed N                            after it, once the board shows it saved (N: moves in the log)
    done                                   at the end of the script (then it waits to be killed)

The script is :func:`script` for SEED: the moves of a Campanile game, entered
by touches on the board; after every fourth move the Undo button is pressed
(undo) and then held (redo). Every line is flushed: the parent kills this
process with SIGKILL at random moments.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from tests import ui_kit as kit  # first: it prepares Kivy (offscreen, 800×480)

# isort: split
from kivy.core.window import Window

from tests import helpers_campanile as camp

#: Moves in the script (the game does not end within them: the game screen stays).
LENGTH = 60


def script(seed: int) -> list[dict[str, Any]]:
    """The moves (record JSON) the players enter for ``seed``."""
    game = camp.engine()
    return [game.move_to_json(m) for m in camp.random_game(seed, LENGTH, finish=False)]


class Fingers:
    """Taps and long presses through the window, on the board of the game screen."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell

    @property
    def board(self) -> Any:
        return self.shell.screens.get_screen("game").board

    def tap(self, widget: Any) -> None:
        kit.tap(widget)

    def hold(self, widget: Any) -> None:
        held: list[bool] = []
        widget.bind(on_long_press=lambda *_: held.append(True))
        kit.hold(widget, lambda: bool(held), "a long press")


def say(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str]) -> None:
    from gpiozero.pins.mock import MockFactory

    from companion.service.app import Companion
    from companion.service.config import defaults
    from companion.service.table import Table
    from hardware.controls import Controls
    from hardware.navigator import Navigator
    from tests.ui_campanile_scenarios import play
    from ui.app import Shell, wire_commands, wire_window

    path, seed = argv[0], int(argv[1])
    moves = script(seed)
    app = Companion.open(path)
    live = app.latest_unfinished()  # what `companion run` resumes at boot
    assert live is not None, "no unfinished game to resume"
    table = Table(app)
    table.open(live)
    shell = Shell(table)
    Window.add_widget(shell.root)
    wire_window(shell)
    wire_commands(table)
    navigator = Navigator(table)
    config = dict(defaults().values)
    config["buttons.hold_time"] = 0.2
    factory = MockFactory()
    controls = Controls(config, lambda key: table.commands.post(lambda: navigator.key(key)), factory)
    kit.pump(4)

    session = table.session
    assert session is not None
    board = shell.screens.get_screen("game").board
    heights = ",".join(board.columns[tower].head.height_text for tower in board.towers)
    say(f"ready {live.id} {len(session.log)} {shell.screens.current} {heights}")

    fingers = Fingers(shell)
    undo = factory.pin(config["buttons.undo"])
    while len(session.log) < len(moves):
        number = len(session.log)
        say("begin move")
        play(fingers, moves[number])  # type: ignore[arg-type]
        assert len(session.log) == number + 1, f"move {number + 1} was not taken: {moves[number]}"
        say(f"confirmed {len(session.log)}")
        view = fingers.board.valuation_view
        if view is not None:
            kit.tap(view.content.close_button)
        if len(session.log) % 4 == 0:
            say("begin undo")
            undo.drive_low()
            undo.drive_high()  # a press: undo
            kit.wait_for(lambda n=number: len(session.log) == n, "the Undo button to undo")
            say(f"confirmed {len(session.log)}")
            say("begin redo")
            undo.drive_low()  # held: redo
            kit.wait_for(lambda n=number: len(session.log) == n + 1, "the held Undo button to redo")
            undo.drive_high()
            say(f"confirmed {len(session.log)}")
    say("done")
    controls.close()
    time.sleep(120)


if __name__ == "__main__":
    main(sys.argv[1:])
