"""The Castelli screens: the board (one per group in a Championship round), its overlays, the
Championship's standings, the area resolver and the board editor."""

from ui.games.part import Tool, UiPart

#: What the touchscreen draws and asks for this game (imported on first use).
PART = UiPart(board="ui.games.castelli.round_board:castelli_board",
              breakdown="ui.games.castelli.final:final_breakdown",
              new_game_choice="ui.games.castelli.new_game:board_choice",
              start_instead="ui.games.castelli.new_game:start_instead",
              over_screen="ui.games.castelli.round_board:over_screen",
              screens={"standings": "ui.games.castelli.standings:StandingsScreen",
                       "resolver": "ui.games.castelli.resolver:ResolverScreen",
                       "editor": "ui.games.castelli.board_editor:BoardEditorScreen"},
              tools=(Tool("resolver", "ui.resolver.open", "home"),
                     Tool("editor", "ui.editor.open", "settings")))
