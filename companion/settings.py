"""The names of the settings the companion keeps in its store, in one place.

Settings are local to one appliance (its store); a game never depends on
them at replay time: whatever a setting contributes to a game (2-player
flags, a board layout) is written into the game's own record when it starts.
"""

#: The Campanile 2-player flag table the players confirmed from their cards:
#: ``{"intermezzo": [[...], ...4], "finito": [[...], ...5]}``.
CAMPANILE_TWO_PLAYER_FLAGS = "campanile.flags.2p"

#: Castelli boards entered on this companion: ``{name: board JSON}``. A game
#: started on one carries the board inline in its setup.
CASTELLI_BOARDS = "castelli.boards"

#: How many daily automatic backups the data directory's ``backups/`` keeps
#: (a whole number; 0 turns them off). See :mod:`companion.backup`.
BACKUPS_KEPT = "backups.kept"
