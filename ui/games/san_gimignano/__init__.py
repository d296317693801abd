"""The San Gimignano screens of the touchscreen: the hex map, its palette and the setup of a new game."""

from ui.games.part import UiPart

#: What the touchscreen draws and asks for this game (imported on first use).
PART = UiPart(board="ui.games.san_gimignano.board:SanGimignanoBoard",
              setup_form="ui.games.san_gimignano.setup:setup_form")
