"""What a game declares of its own on the touchscreen: :class:`UiPart` (the registry is :mod:`ui.games`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Tool:
    """A game's tool on Home or in Settings: a button that opens one of the game's own screens."""

    #: The screen it opens (one of :attr:`UiPart.screens`).
    screen: str
    #: The message code of the button's words (in the game's catalogues).
    label: str
    #: ``"home"`` (beside Statistics: offered between games and during its own game) or ``"settings"``
    #: (at the top of the settings screen, always).
    place: str


@dataclass(frozen=True)
class UiPart:
    """A game's own parts of the touchscreen, each ``"module:name"`` (imported on first use), each optional.

    Declared once per game, as ``PART`` in its package ``ui/games/<game>/__init__.py``.
    """

    #: The board widget class, built as ``Board(table=table)``.
    board: str | None = None
    #: ``function(app, game, players, on_confirmed, on_back)``: the form to fill in before the game can
    #: start, or ``None`` when none is needed.
    setup_form: str | None = None
    #: ``function(summary, player)``: what the player's score is made of on game over, or ``None``.
    breakdown: str | None = None
    #: ``function(app, chosen, choose)``: a choice the new-game screen offers for this game (a board),
    #: as ``(widget, setup)``, or ``None`` when there is nothing to choose; ``choose(value)`` changes it.
    new_game_choice: str | None = None
    #: ``function(shell, chosen, players, details) -> bool``: start what the game's own choice asked for
    #: in place of one game (a championship of several games), ``True`` when it did (or refused it in
    #: the banner); ``False`` and the new-game screen starts the game as usual. ``details`` are the
    #: screen's ``colours`` and ``setup``.
    start_instead: str | None = None
    #: ``function(session) -> str | None``: the shell's screen shown when the game has ended, when it is
    #: not game over (a round of a championship: its standings, which offer the next round).
    over_screen: str | None = None
    #: ``function(screen)``: the game's own rows on the settings screen (what its descriptor's simple
    #: settings cannot say, such as a table of values), or ``None``. It returns a widget that carries
    #: ``language`` (bound to the screen's), ``fields`` (its typed fields by key, for the screen's
    #: ``fields``) and ``refresh()``, called on every redraw of the screen; its taps go through
    #: ``screen.shell`` and end with ``screen.redraw()``, as the screen's own rows do.
    settings_rows: str | None = None
    #: The game's own screens in the shell (a tool players open from Home or Settings):
    #: screen name -> ``"module:Class"``, built as ``Class(shell, name=name)`` like the shell's own.
    screens: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: The buttons that open the game's tools (some of :attr:`screens`) on Home and in Settings.
    tools: tuple[Tool, ...] = ()

    def __post_init__(self) -> None:
        # one part is shared by every screen: nobody may change its screens behind the others' backs
        object.__setattr__(self, "screens", MappingProxyType(dict(self.screens)))
