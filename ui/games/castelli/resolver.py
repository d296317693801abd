"""The Castelli area resolver: the two-second answer to an argument at the table.

Pick the area's kind and yield, tap in the shields that point into it
(a colour, then its values: 1–6 or "card"), and the engine's own
:func:`~companion.games.castelli.evaluation.resolve` says who gains what and
why, ties and neutral colours explained in its words. Nothing is re-decided
here. With a Castelli game open, the colours are its players' and its
``neutral`` option applies; without one, each colour stands for itself and
any colour can be marked neutral (a 2- or 3-player table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.widget import Widget

from companion.games.castelli import tables
from companion.games.castelli.evaluation import Resolution, resolve
from companion.games.castelli.words import amount as amount_words
from companion.games.castelli.words import colour as colour_word
from companion.games.castelli.words import who
from companion.games.messages import msg
from companion.i18n import say, text
from ui.games.castelli.round_board import open_game_state
from ui.screens import ShellScreen, load_rules, show
from ui.shell_interface import ShellInterface
from ui.widgets import Figure, Tap

#: The kinds an area can be evaluated as (a plain gives nothing; the mine is the end's).
KINDS: tuple[str, ...] = ("forest", "field", "rock", "market", "mine")
#: Each kind's button and the words of its amount (codes written out, so the catalogue checks find them).
KIND_WORDS = MappingProxyType({
    "forest": ("ui.resolver.kind.forest", "ui.resolver.amount.forest"),
    "field": ("ui.resolver.kind.field", "ui.resolver.amount.field"),
    "rock": ("ui.resolver.kind.rock", "ui.resolver.amount.rock"),
    "market": ("ui.resolver.kind.market", "ui.resolver.amount.market"),
    "mine": ("ui.resolver.kind.mine", "ui.resolver.amount.mine"),
})
#: The neutral rule's button, by the record option's choice.
RULE_WORDS = MappingProxyType({"void": "ui.resolver.neutral_rule.void",
                               "split": "ui.resolver.neutral_rule.split"})
#: The shield values of a tile, in the pad's order.
VALUES: tuple[int | str, ...] = (*tables.SHIELD_VALUES, tables.CARD_SHIELD)
#: Most shields the pad takes: an area has four tile spaces around it on the board; room to spare.
MOST_SHIELDS = 7
#: The silver the mine holds at the start with 4 players (the resolver's default without a game).
FULL_MINE = tables.MINE_SILVER[4]


@dataclass
class Question:
    """What the players asked: the area, its amount, the shields, who plays which colour."""

    kind: str = "forest"
    amounts: dict[str, int] = field(default_factory=lambda: {
        "forest": tables.DEFAULT_YIELD, "field": tables.DEFAULT_YIELD, "rock": tables.DEFAULT_YIELD,
        "market": tables.DEFAULT_TENTS, "mine": FULL_MINE})
    shields: list[tuple[str, int | str]] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)  # colour -> player (the others are neutral)
    neutral: str = tables.NEUTRAL_CHOICES[0]
    #: The players are the colours' seats ("yellow player"): no game is open.
    seats: bool = False

    @property
    def amount(self) -> int:
        return self.amounts[self.kind]

    def limits(self) -> tuple[int, int]:
        if self.kind == "market":
            return tables.TENTS_RANGE
        if self.kind == "mine":
            return (0, FULL_MINE)
        return tables.YIELD_RANGE

    def resolution(self) -> Resolution:
        """The engine's answer (nothing decided here)."""
        return resolve(self.kind, self.amount, self.shields, self.players, self.neutral, self.seats)


#: A space that does not break a line: the award's figure is large, so the catalogue puts who and
#: what on two lines ("yellow player:" / "1 card"), and neither may wrap inside itself.
KEEP_TOGETHER = "\u00a0"


def award_text(resolution: Resolution, player: str, share: int) -> str:
    """One award as shown: "Anna:" over "2 wood"; the player and the amount each stay on one line."""
    amount = str(amount_words(resolution.gain, share))
    return text("ui.resolver.award", player=player.replace(" ", KEEP_TOGETHER),
                amount=amount.replace(" ", KEEP_TOGETHER))


class ResolverKind(Tap):
    """An area kind's button: lit while it is the kind asked about (``resolver.kv``)."""

    kind = StringProperty("")
    #: The catalogue code of its word.
    code = StringProperty("")
    screen = ObjectProperty(None)


class ResolverColour(Tap):
    """A colour's button: the colour the next shields are tapped in is marked » « (``resolver.kv``)."""

    colour = StringProperty("")
    screen = ObjectProperty(None)
    #: Its words lie on the shield colour's own swatch, as initials on a badge (docs/ui.md's roles).
    role = "mark"


class ResolverRole(Tap):
    """Who plays a colour, or "neutral"; a tap (without a game) makes it neutral and back."""

    colour = StringProperty("")
    screen = ObjectProperty(None)


class ResolverKey(Tap):
    """A shield value on the pad (1–6 or "card")."""

    value = ObjectProperty(None)
    screen = ObjectProperty(None)


class AwardLine(Figure):
    """One award, large: "Anna: 2 wood" (wrapped to the answer's width, ``resolver.kv``)."""


class ResolverChip(Tap):
    """The ``index``-th shield tapped in, in its colour; a tap takes it back (``resolver.kv``)."""

    index = NumericProperty(0)
    #: Its shield: (colour, value); ("", 0) while there is none.
    shield = ObjectProperty(("", 0))
    screen = ObjectProperty(None)
    #: A shield's value on its colour: a mark on a piece (docs/ui.md's roles).
    role = "mark"


class ResolverScreen(ShellScreen):
    """Kind and yield, shields by colour and value, and the answer with its reason.

    Layout: ``resolver.kv``. The rows of kinds, colours, roles, pad keys and
    shield chips are made once from the game's tables (a rule cannot loop over
    them); the Kivy properties below carry the question and the engine's
    answer, and every widget is bound to them. Building the ~35 buttons anew
    each tap took tens of ms here, ten times that on a Pi: a tap now only sets
    properties, and puts a chip or an answer line in place (kept, not built).
    """

    #: The area's kind, the code of its amount's words, its amount and the amount's limits.
    kind = StringProperty("forest")
    amount_code = StringProperty(KIND_WORDS["forest"][1])
    amount = NumericProperty(0)
    lowest = NumericProperty(0)
    highest = NumericProperty(0)
    #: The colour the next shield is tapped in.
    chosen = StringProperty(tables.COLORS[0])
    #: The shields tapped in: (colour, value).
    shields = ListProperty([])
    #: As many shields as the pad takes (its keys are dimmed).
    full = BooleanProperty(False)
    #: Colour -> player (a colour missing is neutral); the neutral rule's choice.
    players = DictProperty({})
    neutral = StringProperty(tables.NEUTRAL_CHOICES[0])
    rule_code = StringProperty(RULE_WORDS[tables.NEUTRAL_CHOICES[0]])
    #: An open Castelli game sets the colours and the neutral rule (they are not changed here).
    in_game = BooleanProperty(False)
    #: The engine's answer in words: the influence line and the explanation (the award lines: a list kept).
    influence = StringProperty("")
    explanation = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        self.question = Question()
        self.resolution: Resolution | None = None
        self._from_game: tuple[str, ...] | None = None
        ids = self.ids
        for kind in KINDS:
            ids.kinds.add_widget(ResolverKind(kind=kind, code=KIND_WORDS[kind][0], screen=self))
        #: The buttons a finger (or a test) reaches for: value -> pad key, colour -> button, the shield chips.
        self.colour_buttons = {c: ResolverColour(colour=c, screen=self) for c in tables.COLORS}
        for colour, pick in self.colour_buttons.items():
            ids.colours.add_widget(pick)
            ids.roles.add_widget(ResolverRole(colour=colour, screen=self))
        self.pad: dict[int | str, Tap] = {}
        for value in VALUES:
            wide = value == tables.CARD_SHIELD  # "kártya" must not break: the numbers give it their room
            self.pad[value] = ResolverKey(value=value, screen=self, size_hint_x=1 if wide else None)
            ids.pad.add_widget(self.pad[value])
        #: A chip per shield the pad takes, made once; those of the shields tapped in are in their row.
        self.all_chips = [ResolverChip(index=index, screen=self) for index in range(MOST_SHIELDS)]
        #: The chips of the shields tapped in (shown), in their order.
        self.chips: list[Tap] = []
        self._lines: list[AwardLine] = []  # the award lines made so far, shown as many as there are awards
        # held here: a rule's ids are weak, and these are out of the tree while they have nothing to say
        self._parts = {name: ids[name].__self__
                       for name in ("no_shields", "rule", "influence", "neutral_hint")}

    def on_pre_enter(self, *args: object) -> None:
        self._follow_game()
        super().on_pre_enter(*args)

    def _follow_game(self) -> None:
        """The open Castelli game's colours, neutral rule and mine (once per game); else all colours play."""
        session = self.shell.table.session
        state = open_game_state(self.shell)  # in a round: the group whose board is shown
        if session is None or state is None:
            if self._from_game is not None or not self.question.players:
                self.question.players = {c: self.seat(c) for c in tables.COLORS}
                self.question.neutral = tables.NEUTRAL_CHOICES[0]
                self.question.amounts["mine"] = FULL_MINE
            self._from_game, self.question.seats = None, True
            return
        if self._from_game != state.players:
            self.question.players = dict(state.players_by_colour)
            self.question.neutral = state.options.neutral
            self.question.amounts["mine"] = state.mine
            self._from_game, self.question.seats = state.players, False

    @staticmethod
    def seat(colour: str) -> str:
        """Without a game, a colour stands for its player: "Blue"."""
        return text("ui.resolver.seat", colour=colour_word(colour))

    @staticmethod
    def colour_words(colour: str, chosen: str, language: str) -> str:
        """A colour's button: "» red «" for the colour in use (``language``: for the rule's binding)."""
        name = text(f"castelli.colour.{colour}")
        return text("ui.resolver.chosen", colour=name) if colour == chosen else name

    @staticmethod
    def role_words(colour: str, players: dict[str, str], language: str) -> str:
        """Who plays ``colour``, or "neutral" (the rule names ``players``: drawn again as they change)."""
        player = players.get(colour)
        return player if player is not None else text("ui.resolver.neutral")

    @staticmethod
    def value_words(value: int | str, language: str) -> str:
        """A shield value as the pad and the chips show it: its number, or the word for a card."""
        return text("ui.resolver.card") if value == tables.CARD_SHIELD else str(value)

    # -- drawing ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """The question's and the answer's properties; the widgets bound to them follow."""
        q = self.question
        self.in_game = self._from_game is not None
        self.kind = q.kind
        self.amount_code = KIND_WORDS[q.kind][1]
        self.lowest, self.highest = q.limits()
        self.amount = q.amount
        self.players = dict(q.players)
        self.neutral = q.neutral
        self.rule_code = RULE_WORDS[q.neutral]
        self.shields = list(q.shields)
        self.full = len(q.shields) >= MOST_SHIELDS
        self.chips = self.all_chips[:len(q.shields)]
        chips = self.ids.chips
        for chip in self.all_chips:
            show_in(chips, chip, chip in self.chips)
        show(self._parts["no_shields"], not q.shields)
        show(self._parts["neutral_hint"], not self.in_game)  # in a game the players are the game's
        self._answer()

    def _answer(self) -> None:
        """Influence per colour, who gains what (large), and the engine's explanation."""
        q = self.question
        resolution = self.resolution = q.resolution()
        show(self._parts["rule"], any(c not in q.players for c in tables.COLORS))
        self.influence = text("ui.resolver.influence", points=[
            msg("castelli.who.points", who=who(colour, q.players.get(colour), q.seats), points=points)
            for colour, points in resolution.influence.items()]) if resolution.influence else ""
        show(self._parts["influence"], bool(resolution.influence))
        # a share rounded down to nothing is no gain: the explanation below says it was rounded down
        lines = [award_text(resolution, p, share) for p, share in resolution.awards.items() if share > 0]
        awards = lines or [text("ui.resolver.nothing")]
        while len(self._lines) < len(awards):
            self._lines.append(AwardLine())
        for index, line in enumerate(self._lines):
            shown = index < len(awards)
            line.text = awards[index] if shown else ""
            show_in(self.ids.awards, line, shown)
        self.explanation = say(resolution.explanation)

    # -- taps ------------------------------------------------------------------------------------
    def choose_kind(self, kind: str) -> None:
        self.question.kind = kind
        self.redraw()

    def step_amount(self, by: int) -> None:
        q = self.question
        low, high = q.limits()
        q.amounts[q.kind] = max(low, min(high, q.amount + by))
        self.redraw()

    def choose_colour(self, colour: str) -> None:
        self.chosen = colour
        self.redraw()

    def add_shield(self, value: int | str) -> None:
        if len(self.question.shields) >= MOST_SHIELDS:
            self.shell.refuse(text("ui.resolver.too_many", count=MOST_SHIELDS))
            return
        self.question.shields.append((self.chosen, value))
        self.redraw()

    def remove_shield(self, index: int) -> None:
        if 0 <= index < len(self.question.shields):
            del self.question.shields[index]
        self.redraw()

    def clear_shields(self) -> None:
        self.question.shields.clear()
        self.redraw()

    def toggle_neutral(self, colour: str) -> None:
        """Without a game: a colour nobody plays is neutral (2–3 players), and back."""
        if self._from_game is not None:
            self.shell.refuse(text("ui.resolver.game_colours"))
            return
        players = self.question.players
        if colour in players:
            del players[colour]
        else:
            players[colour] = self.seat(colour)
        self.redraw()

    def toggle_rule(self) -> None:
        choices = tables.NEUTRAL_CHOICES
        q = self.question
        q.neutral = choices[(choices.index(q.neutral) + 1) % len(choices)]
        self.redraw()

    def snapshot_example(self) -> None:
        """For ``companion snapshot``: the rulebook's market tie (green and yellow, 2 tents)."""
        if self.question.shields:
            return
        self.question.kind = "market"
        self.question.amounts["market"] = 2
        self.question.shields[:] = [("green", 3), ("yellow", 2), ("yellow", 1), ("red", 2)]
        self.chosen = "red"
        self.redraw()


def show_in(box: Any, widget: Widget, visible: bool) -> None:
    """Keep ``widget`` (a shield chip, an award line) at the end of ``box`` while ``visible``, else
    out of it (a hidden widget that stayed would still take its share of the spacing)."""
    if visible and widget.parent is None:
        box.add_widget(widget)
    elif not visible and widget.parent is not None:  # ``box`` may be a rule's weak proxy: not ``is``
        box.remove_widget(widget)


load_rules(__file__)
