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

from companion import i18n
from companion.games.castelli import tables
from companion.games.castelli.evaluation import Resolution, resolve
from companion.games.castelli.words import amount as amount_words
from companion.games.castelli.words import colour as colour_word
from companion.games.castelli.words import who
from companion.games.messages import msg
from companion.i18n import say, text
from ui import theme
from ui.screens import ShellScreen, column, filler, row, scrolling_list
from ui.widgets import Figure, Tap, Words

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
        return resolve(self.kind, self.amount, self.shields, self.players, self.neutral)


def award_text(resolution: Resolution, player: str, share: int) -> str:
    """One award as shown: "Anna: 2 wood"."""
    return text("ui.resolver.award", player=player, amount=amount_words(resolution.gain, share))


class ResolverScreen(ShellScreen):
    """Kind and yield, shields by colour and value, and the answer with its reason."""

    def __init__(self, shell: Any, **kwargs: Any) -> None:
        super().__init__(shell, **kwargs)
        self.question = Question()
        self.chosen = tables.COLORS[0]
        self.resolution: Resolution | None = None
        self._from_game: tuple[str, ...] | None = None
        #: The buttons a finger (or a test) reaches for: value -> pad key, colour -> button, the shield chips.
        self.pad: dict[int | str, Tap] = {}
        self.colour_buttons: dict[str, Tap] = {}
        self.chips: list[Tap] = []

    def on_pre_enter(self, *args: Any) -> None:
        self._follow_game()
        super().on_pre_enter(*args)

    def _follow_game(self) -> None:
        """The open Castelli game's colours, neutral rule and mine (once per game); else all colours play."""
        session = self.shell.table.session
        state = session.state if session is not None and session.game.name == "castelli" else None
        if session is None or state is None:
            if self._from_game is not None or not self.question.players:
                self.question.players = {c: self.seat(c) for c in tables.COLORS}
                self.question.neutral = tables.NEUTRAL_CHOICES[0]
                self.question.amounts["mine"] = FULL_MINE
            self._from_game = None
            return
        if self._from_game != session.players:
            self.question.players = dict(state.players_by_colour)
            self.question.neutral = state.options.neutral
            self.question.amounts["mine"] = state.mine
            self._from_game = session.players

    @staticmethod
    def seat(colour: str) -> str:
        """Without a game, a colour stands for its player: "Blue"."""
        return text("ui.resolver.seat", colour=colour_word(colour))

    # -- drawing ---------------------------------------------------------------------------
    # Built once per language and then updated: building ~35 buttons anew each tap took tens of ms
    # here, ten times that on a Pi. Only the answer's few labels are made anew.
    def _build(self) -> None:
        self._language = i18n.current_language()
        self.clear_widgets()
        body = column()
        top = self.home_row(text("ui.resolver.title"))
        self._undo = Tap(text=text("ui.resolver.undo"), size_hint_x=None, width=theme.TOUCH * 2.5)
        self._undo.bind(on_release=lambda *_: self.remove_shield(len(self.question.shields) - 1))
        self._clear = Tap(text=text("ui.resolver.clear"), size_hint_x=None, width=theme.TOUCH * 2.5)
        self._clear.bind(on_release=lambda *_: self.clear_shields())
        top.add_widget(self._undo)
        top.add_widget(self._clear)
        body.add_widget(top)
        halves = row(size_hint_y=1, height=0)
        left = column(padding=0, size_hint_x=0.58)
        right, self._answer_box = scrolling_list()  # a long Hungarian explanation scrolls, never cut
        right.size_hint_x = 0.42
        halves.add_widget(left)
        halves.add_widget(right)
        body.add_widget(halves)

        kinds = row()
        self._kinds: dict[str, Tap] = {}
        for kind in KINDS:
            choice = Tap(text=text(KIND_WORDS[kind][0]))
            choice.bind(on_release=lambda _b, k=kind: self.choose_kind(k))
            kinds.add_widget(choice)
            self._kinds[kind] = choice
        left.add_widget(kinds)

        amount = row()
        self._amount_label = Words()
        amount.add_widget(self._amount_label)
        self._less = Tap(text="−", size_hint_x=None, width=theme.TOUCH)
        self._less.bind(on_release=lambda *_: self.step_amount(-1))
        self._more = Tap(text="+", size_hint_x=None, width=theme.TOUCH)
        self._more.bind(on_release=lambda *_: self.step_amount(1))
        self._amount = Figure(size_hint_x=None, width=theme.TOUCH * 1.4)
        amount.add_widget(self._less)
        amount.add_widget(self._amount)
        amount.add_widget(self._more)
        left.add_widget(amount)

        colours = row()
        plays = row()
        self.colour_buttons = {}
        self._roles: dict[str, Tap] = {}
        for colour in tables.COLORS:
            pick = Tap(swatch=theme.piece_colour(colour))
            pick.bind(on_release=lambda _b, c=colour: self.choose_colour(c))
            self.colour_buttons[colour] = pick
            colours.add_widget(pick)
            role = Tap()
            role.bind(on_release=lambda _b, c=colour: self.toggle_neutral(c))
            self._roles[colour] = role
            plays.add_widget(role)
        left.add_widget(colours)
        left.add_widget(plays)

        pad = row()
        self.pad = {}
        for value in VALUES:
            label = text("ui.resolver.card") if value == tables.CARD_SHIELD else str(value)
            wide = value == tables.CARD_SHIELD  # "kártya" must not break: the numbers give it their room
            key = Tap(text=label, size_hint_x=1 if wide else None, width=theme.TOUCH)
            key.bind(on_release=lambda _b, v=value: self.add_shield(v))
            self.pad[value] = key
            pad.add_widget(key)
        left.add_widget(pad)

        self._shields = row()
        self._chips: list[Tap] = []
        for index in range(MOST_SHIELDS):
            chip = Tap(size_hint_x=None, width=theme.TOUCH)
            chip.bind(on_release=lambda _b, i=index: self.remove_shield(i))
            self._chips.append(chip)
        self._no_shields = Words(text=text("ui.resolver.no_shields"))
        left.add_widget(self._shields)
        left.add_widget(filler())
        self._rule = Tap(size_hint_y=None, height=theme.TOUCH)
        self._rule.bind(on_release=lambda *_: self.toggle_rule())
        self.add_widget(body)

    def redraw(self) -> None:
        if getattr(self, "_language", None) != i18n.current_language():
            self._build()
        q = self.question
        in_game = self._from_game is not None
        self._undo.disabled = self._clear.disabled = not q.shields
        for kind, choice in self._kinds.items():
            choice.accent = q.kind == kind
        self._amount_label.text = text(KIND_WORDS[q.kind][1])
        self._amount.text = str(q.amount)
        self._less.disabled = q.amount <= q.limits()[0]
        self._more.disabled = q.amount >= q.limits()[1]
        for colour, pick in self.colour_buttons.items():
            name = text(f"castelli.colour.{colour}")
            pick.text = text("ui.resolver.chosen", colour=name) if colour == self.chosen else name
            pick.bold = colour == self.chosen
            player = q.players.get(colour)
            role = self._roles[colour]
            role.text = player if player is not None else text("ui.resolver.neutral")
            role.disabled = in_game
        for key in self.pad.values():
            key.disabled = len(q.shields) >= MOST_SHIELDS
        self._shields.clear_widgets()
        self.chips = self._chips[:len(q.shields)]
        for chip, (colour, value) in zip(self.chips, q.shields, strict=True):
            covered = value == tables.CARD_SHIELD
            chip.text = text("ui.resolver.card") if covered else str(value)
            chip.width = theme.TOUCH * (1.6 if covered else 1)  # "kártya" whole
            chip.swatch = theme.piece_colour(colour)
            self._shields.add_widget(chip)
        if not q.shields:
            self._shields.add_widget(self._no_shields)
        self._answer(self._answer_box)

    def _answer(self, box: Any) -> None:
        """Influence per colour, who gains what (large), and the engine's explanation."""
        box.clear_widgets()
        q = self.question
        resolution = self.resolution = q.resolution()
        if any(c not in q.players for c in tables.COLORS):
            self._rule.text = text(RULE_WORDS[q.neutral])
            self._rule.disabled = self._from_game is not None
            box.add_widget(self._rule)
        if resolution.influence:
            box.add_widget(Words(text=text("ui.resolver.influence", points=[
                msg("castelli.who.points", who=who(colour, q.players.get(colour)), points=points)
                for colour, points in resolution.influence.items()])))
        # a share rounded down to nothing is no gain: the explanation below says it was rounded down
        lines = [award_text(resolution, p, share) for p, share in resolution.awards.items() if share > 0]
        for line in lines or [text("ui.resolver.nothing")]:
            figure = Figure(text=line, halign="left")
            figure.bind(width=lambda shown, width: setattr(shown, "text_size", (width, None)))
            box.add_widget(figure)
        box.add_widget(Words(text=say(resolution.explanation)))

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
