"""The tabletop companion: keeps the score of the board games its registry lists (companion.registry).

The game is a log of the moves made at the table; everything else (state,
scores, screens, records) is computed from that log.
"""

__version__ = "0.1.0"
