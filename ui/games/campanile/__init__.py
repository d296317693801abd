"""The Campanile screens of the touchscreen: the board, the valuation, the 2-player flag table (the form
before the first 2-player game and its rows on the settings screen)."""

from ui.games.part import UiPart

#: What the touchscreen draws and asks for this game (imported on first use).
PART = UiPart(board="ui.games.campanile.board:CampanileBoard",
              setup_form="ui.games.campanile.flags:setup_form",
              settings_rows="ui.games.campanile.settings_rows:settings_rows")
