"""The Castelli screens: the board (one per group in a Championship round), its overlays, the
Championship's standings, the area resolver and the board editor."""

from ui.games.part import UiPart

#: What the touchscreen draws and asks for this game (imported on first use).
PART = UiPart(board="ui.games.castelli.board:CastelliBoard",
              breakdown="ui.games.castelli.final:final_breakdown",
              new_game_choice="ui.games.castelli.new_game:board_choice",
              screens={"standings": "ui.games.castelli.standings:StandingsScreen",
                       "resolver": "ui.games.castelli.resolver:ResolverScreen",
                       "editor": "ui.games.castelli.board_editor:BoardEditorScreen"})
