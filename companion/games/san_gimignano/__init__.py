"""San Gimignano (Piatnik 2002): the rules engine.

The engine keeps the board of hexagonal segments, the tokens and towers, and
checks each move against the rulebook or the author's clarifications (option
``rules``) with groups of four or the continuous-string variant (option
``variant``), as fixed by ``shared/spec/records.md``.
"""

from companion.games.san_gimignano.game import SanGimignano

__all__ = ["SanGimignano"]
