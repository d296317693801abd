"""The command line's per-game subcommands: this layer's one list of games.

A game with commands of its own (a flag table to confirm, boards to manage)
has a module named for it under :mod:`companion.cli.commands` with a
``register(subparsers)`` like every command module; it is listed here under
its descriptor's name, with the subcommands it adds. A game without one
needs none: ``new``, ``moves``, ``replay`` and the rest work for every game.
"""

from __future__ import annotations

#: Game name (its descriptor's) -> the subcommands its module ``companion.cli.commands.<game>`` adds.
GAME_COMMANDS: dict[str, tuple[str, ...]] = {
    "campanile": ("campanile",),
    "castelli": ("castelli", "board"),
}


def module_name(game: str) -> str:
    """The module under :mod:`companion.cli.commands` of ``game``'s subcommands."""
    return game.replace("-", "_")
