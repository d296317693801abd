"""The Castelli screens: the board, its overlays, the area resolver and the board editor."""
