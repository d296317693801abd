"""The Championship's standings on the touchscreen: the bracket (variant 1) or the league (variant 2).

Between and during the rounds of a Castelli Championship the players want two
answers: who plays whom (and who is through), and how many cards the one
shared deck still holds. The screen draws both from :class:`Standings`, a
plain data object the service's championship is read into
(:func:`standings_of`); it decides nothing itself. Variant 1 is a bracket:
round 1's two games on the left, the final and the match for third on the
right, the places once they are known. Variant 2 is a league table (won
games, points, the score over every game as the tie-break) beside the three
rounds' games. Under them: the next round's button once a round is over, or
the two buttons of a decision the championship waits for (who of a shared
win goes to the final).

Everything is made once by the rule (``standings.kv``: four players, four
bracket games, six league games); a redraw sets properties.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kivy.graphics import Color, Line, Mesh
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.messages import msg
from companion.i18n import say, text
from companion.service.championship_rules import Standing
from ui.games.castelli import championship
from ui.games.castelli.championship import ROUNDS, Match, Standings, points_text
from ui.players import initials, table_colours
from ui.screens import ShellScreen, load_rules, show
from ui.shell_interface import ShellInterface
from ui.theme import ACCENT, BACKGROUND, NO_COLOUR, TEXT, Colour, piece_colour, text_on

#: A player's badge: initials, fill and ink.
Mark = tuple[str, Colour, Colour]

#: Each variant's title.
VARIANT_WORDS = {0: "ui.castelli.standings.alone", 1: "ui.castelli.standings.knockout",
                 2: "ui.castelli.standings.league"}
#: The league table's head, column by column (codes written out, so the catalogue checks find them).
HEAD_WORDS = {"player": "ui.castelli.standings.head.player", "played": "ui.castelli.standings.head.played",
              "won": "ui.castelli.standings.head.won", "points": "ui.castelli.standings.head.points",
              "score": "ui.castelli.standings.head.score"}


#: A tie on points and score: a shared place once the places are known, else still level.
TIE_WORDS = {True: "ui.castelli.standings.tie_shared", False: "ui.castelli.standings.tie_level"}


class MatchBox(BoxLayout):
    """One game in the bracket or the league: a title and its two players with their scores, the
    winners lit (layout: ``standings.kv``)."""

    title = StringProperty("")
    names = ListProperty(["", ""])
    scores = ListProperty(["", ""])
    won = ListProperty([False, False])
    #: Each player's badge: initials, and the fill and ink of their colour ("" initials: no badge).
    initials = ListProperty(["", ""])
    fills = ListProperty([NO_COLOUR, NO_COLOUR])
    inks = ListProperty([TEXT, TEXT])
    #: The game is being played now (its frame is lit).
    live = BooleanProperty(False)
    #: A box too narrow for names (the league's): the badges say who, a star who won.
    compact = BooleanProperty(False)

    def show_match(self, title: str, match: Match | None, placeholders: Sequence[str] = ("", ""),
                   marks: Mapping[str, Mark] | None = None) -> None:
        """``match`` as it stands, or its ``placeholders`` ("winner of group 1") while not known;
        ``marks``: each player's badge."""
        self.title = title
        if match is None:
            self.names, self.scores, self.won, self.live = list(placeholders), ["", ""], [False, False], False
            self.initials = ["", ""]
            return
        shown = [(marks or {}).get(p, ("", NO_COLOUR, TEXT)) for p in match.players]
        self.initials = [mark[0] for mark in shown]
        self.fills = [mark[1] for mark in shown]
        self.inks = [mark[2] for mark in shown]
        self.won = [match.finished and p in match.winners for p in match.players]
        self.names = ["", ""] if self.compact else [named(match, p) for p in match.players]
        self.scores = [str(match.scores.get(p, "")) if match.started else "" for p in match.players]
        self.live = match.started and not match.finished


class WinStar(Widget):
    """A star beside a winner's score: the win marked by a shape as well as by the amber (in the
    league's narrow boxes, where "Bela · won" was cut to "B…", by the shape alone)."""

    shown = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, shown=self._draw)

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        if not self.shown:
            return
        cx, cy = self.center
        outer = min(self.width, self.height) / 2.0
        points: list[float] = []
        for k in range(10):
            radius = outer if k % 2 == 0 else outer * 0.45
            angle = math.pi / 2 + k * math.pi / 5
            points += [cx + radius * math.cos(angle), cy + radius * math.sin(angle)]
        vertices = [cx, cy, 0, 0] + [c for x, y in zip(points[::2], points[1::2], strict=True)
                                     for c in (x, y, 0, 0)] + [points[0], points[1], 0, 0]
        with self.canvas:
            Color(*ACCENT)
            Mesh(vertices=vertices, indices=list(range(12)), mode="triangle_fan")
            Color(*BACKGROUND)
            Line(points=points, close=True, width=1.0)


def named(match: Match, player: str) -> str:
    """A player's name in a game's box, the winner's with the words that say so (not the amber
    alone): "Bela · won", and when the points tied, how it ended ("won on castles built", "shared
    win"), so a tie is explained where it is seen. The engine decided the winners; this only says
    whether points alone did (the two scores differ)."""
    if not match.finished or player not in match.winners:
        return player
    if len(match.winners) > 1:
        return text("ui.castelli.standings.won_shared", player=player)
    points = [match.scores.get(p) for p in match.players]
    if points[0] is not None and points[0] == points[1]:
        return text("ui.castelli.standings.won_tiebreak", player=player,
                    tiebreak=say(msg("castelli.tiebreak.castles_built")))
    return text("ui.castelli.standings.won", player=player)


def league_ties(lines: Sequence[Standing]) -> str:
    """The league table's ties in words, not only by places: players level on points are ordered by
    the score over every game ("Csaba and Dora have 2 points each; the score over every game puts
    them in order: Csaba 40, Dora 35"), or share a place when that is level too. The places are the
    service's; this says why they stand so."""
    said = []
    by_points: dict[float, list[Standing]] = {}
    for line in lines:
        by_points.setdefault(line.points, []).append(line)
    for points, level in by_points.items():
        if len(level) < 2 or not any(line.played for line in level):
            continue
        players = [line.player for line in level]
        if len({line.score for line in level}) == 1:
            place = level[0].place
            code = TIE_WORDS[place is not None]
            said.append(text(code, players=players, points=points_text(points), score=level[0].score,
                             place=place or 0))
        else:
            ordered = sorted(level, key=lambda line: -line.score)
            said.append(text("ui.castelli.standings.tie_broken", players=players, points=points_text(points),
                             scores=[text("ui.castelli.standings.tie_score", player=line.player,
                                          score=line.score) for line in ordered]))
    return " ".join(said)


class LeagueLine(BoxLayout):
    """A player's line in the league table (layout: ``standings.kv``)."""

    place = StringProperty("")
    player = StringProperty("")
    #: The player's badge ("" initials: none, the head line).
    initials = StringProperty("")
    fill = ListProperty(list(NO_COLOUR))
    ink = ListProperty(list(TEXT))
    played = StringProperty("")
    won = StringProperty("")
    points = StringProperty("")
    score = StringProperty("")
    first = BooleanProperty(False)


class StandingsScreen(ShellScreen):
    """The championship's standings (Castelli's own screen, ``standings``). Layout: ``standings.kv``.

    Its data comes from :attr:`source` (the open championship read by :func:`standings_of`);
    tests and the snapshot may set :attr:`shown` instead.
    """

    title = StringProperty("")
    deck_text = StringProperty("")
    #: The league table's ties in words (:func:`league_ties`).
    tie_text = StringProperty("")
    message = StringProperty("")
    next_text = StringProperty("")
    can_next = BooleanProperty(False)
    decide_texts = ListProperty(["", ""])
    variant = NumericProperty(1)
    #: Whether a round is being played (Back returns to its boards) — else Back goes home.
    in_round = BooleanProperty(False)

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        self.parts: dict[str, Any] = {name: proxy.__self__ for name, proxy in self.ids.items()}
        #: The standings drawn now; ``None`` when there is no championship to show.
        self.shown: Standings | None = None
        #: Where the standings come from: the shell -> the standings (``None``: no championship).
        self.source: Callable[[Any], Standings | None] = standings_of
        #: The decision's players as its buttons offer them.
        self.deciding: tuple[str, ...] = ()
        #: Each player's badge, as the boards and the bar show them (set on every refresh).
        self.marks: dict[str, Mark] = {}

    def refresh(self) -> None:
        found = self.source(self.shell)
        self.shown = found
        show(self.parts["bracket"], found is not None and found.variant in (0, 1))
        show(self.parts["second_round"], found is not None and found.variant == 1)
        show(self.parts["league"], found is not None and found.variant == 2)
        if found is None:
            self.title, self.deck_text, self.message = text("ui.castelli.standings.title"), "", text(
                "ui.castelli.standings.none")
            self.can_next, self.next_text, self.in_round = False, "", False
            self._decision(())
            return
        self.variant = found.variant
        self.marks = self._marks(found.players)
        self.title = text(VARIANT_WORDS[found.variant])
        self.deck_text = ("" if found.deck is None else text("ui.castelli.standings.deck", count=found.deck))
        self.in_round = found.playing is not None
        if found.variant in (0, 1):
            self._bracket(found)
        else:
            self._league(found)
        self.message = self._message(found)
        self.can_next = found.next_round is not None
        self.next_text = text("ui.castelli.standings.next", number=found.next_round or 0)
        show(self.parts["next"], found.next_round is not None)
        self._decision(found.deciding)

    # -- variant 1: the bracket -------------------------------------------------------------------
    def _bracket(self, found: Standings) -> None:
        first = found.rounds[0] if found.rounds else (None, None)
        second = found.rounds[1] if len(found.rounds) > 1 else (None, None)
        for number, match in enumerate(first, start=1):
            self.parts[f"first{number}"].show_match(text("ui.castelli.standings.group", number=number), match,
                                                    marks=self.marks)
        self.parts["final"].show_match(text("ui.castelli.standings.final"), second[0],
                                       [text("ui.castelli.standings.winner_of", group=g) for g in (1, 2)],
                                       self.marks)
        self.parts["third"].show_match(text("ui.castelli.standings.third"), second[1],
                                       [text("ui.castelli.standings.loser_of", group=g) for g in (1, 2)],
                                       self.marks)
        self.parts["round1"].text = text("ui.castelli.standings.round", number=1)
        self.parts["round2"].text = text("ui.castelli.standings.round", number=2)

    # -- variant 2: the league ----------------------------------------------------------------------
    def _league(self, found: Standings) -> None:
        head = self.parts["head"]
        head.place = ""
        for column in ("player", "played", "won", "points", "score"):
            setattr(head, column, text(HEAD_WORDS[column]))
        for index, line in enumerate(found.lines[:4]):
            row = self.parts[f"line{index + 1}"]
            row.place = "" if line.place is None else text("ui.castelli.standings.place", place=line.place)
            row.player, row.played, row.won = line.player, str(line.played), str(line.won)
            row.initials, fill, ink = self.marks.get(line.player, ("", NO_COLOUR, TEXT))
            row.fill, row.ink = list(fill), list(ink)
            row.points, row.score = points_text(line.points), str(line.score)
            row.first = line.place == 1
        self.tie_text = league_ties(found.lines[:4])
        for number in range(1, ROUNDS[2] + 1):
            games = found.rounds[number - 1] if len(found.rounds) >= number else (None, None)
            label = self.parts[f"league_round{number}"]
            label.text = text("ui.castelli.standings.round", number=number)
            for group, match in enumerate(games, start=1):
                self.parts[f"league{number}{group}"].show_match("", match, ("", ""), self.marks)

    def _marks(self, players: Sequence[str]) -> dict[str, Mark]:
        """Each player's initials on their colour: the open round's, else their profile's (a spare
        colour for one without), as the boards and the bar show them."""
        table = self.shell.table
        live = table.live
        setup = live.row.setup if live is not None and live.row.game == "castelli" else None
        colours = table_colours(table.app, "castelli", players, setup)
        tags = initials(players)
        marks: dict[str, Mark] = {}
        for player in players:
            fill = piece_colour(colours.get(player))
            marks[player] = (tags[player], fill, text_on(fill))
        return marks

    # -- below the table ----------------------------------------------------------------------------
    def _message(self, found: Standings) -> str:
        """The championship's winner once it is over; the places known so far; else the round in play."""
        placed = sorted((line for line in found.lines if line.place is not None),
                        key=lambda line: line.place or 0)
        if found.over and placed:
            winners = [line.player for line in placed if line.place == 1]
            return text("ui.castelli.standings.over", players=winners)
        if found.deciding:
            return text("ui.castelli.standings.decide", players=list(found.deciding),
                        group=found.deciding_group or 1)
        if found.playing is not None:
            return text("ui.castelli.standings.playing", number=found.playing)
        return ""

    def _decision(self, players: tuple[str, ...]) -> None:
        self.deciding = players[:2]
        show(self.parts["decision"], bool(self.deciding))
        self.decide_texts = [text("ui.castelli.standings.advances", player=p) for p in self.deciding] + \
            [""] * (2 - len(self.deciding))

    # -- taps ---------------------------------------------------------------------------------------
    def back(self) -> None:
        """To the round's boards while one is played, else home (a round that ended ends here)."""
        session = self.shell.table.session
        playing = session is not None and not session.game.is_finished(session.state)
        self.shell.go("game" if playing else "home")

    def start_next(self) -> None:
        """The next round, with the pairings the variant asks for (the service's; refusals shown)."""
        if self.shown is None or self.shown.next_round is None:
            return
        championship.start_next(self.shell)

    def decide(self, index: int) -> None:
        """The players said who of a shared win goes on (kept as the championship's decision)."""
        if index >= len(self.deciding):
            return
        championship.decide(self.shell, self.deciding[index])
        self.redraw()


def standings_of(shell: ShellInterface) -> Standings | None:
    """The open championship's standings for the screen (``None``: none is open)."""
    return championship.standings(shell)


load_rules(__file__)
