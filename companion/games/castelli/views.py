"""What the screens show, as functions of the state: areas in play, players, legal builds.

The UI asks these instead of re-implementing rules; the targets come from the
generators of ``legal_moves`` (:mod:`.legal`), so a target shown is a move the
engine accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.castelli import legal, tables
from companion.games.castelli.board import Board
from companion.games.castelli.evaluation import Resolution, influence_of, resolve
from companion.games.castelli.moves import Build
from companion.games.castelli.rules import apply_move, final_scoring
from companion.games.castelli.scoring import castle_points
from companion.games.castelli.state import Shields, State
from companion.games.castelli.words import colour as colour_word
from companion.games.messages import Message, msg


def area_views(state: State) -> list[dict[str, Any]]:
    """Every area not yet evaluated (plains excluded): influence so far, tiles still down, who leads."""
    by_colour = state.players_by_colour
    out = []
    for name, area in state.board.areas.items():
        if name in state.done or area.kind == "plain":
            continue
        influence = influence_of(state.shields_into(name))
        down = [s for s, _ in state.board.borders[name] if s not in state.revealed]
        best = max(influence.values(), default=0)
        leaders = [c for c, v in influence.items() if v == best] if best else []
        out.append({
            "area": name, "kind": area.kind,
            "amount": state.mine if area.kind == "mine" else area.amount,
            "influence": influence,
            "face_down": sorted(set(down)),
            "leaders": [{"colour": c, "player": by_colour.get(c)} for c in leaders],
        })
    return out


def player_views(state: State) -> dict[str, dict[str, Any]]:
    """Per player: colour, resources, silver, cards, castles built and left, score."""
    return {p: {"colour": state.colors[p],
                "resources": dict(zip(tables.RESOURCES, state.resources[p], strict=True)),
                "silver": state.silver[p], "cards": state.cards[p],
                "castles": state.castles_built[p], "castles_left": state.castles_left(p),
                "score": state.score[p]}
            for p in state.players}


def build_targets(state: State, player: str) -> list[dict[str, Any]]:
    """Every build the engine would accept from ``player`` now: where, how paid, what it scores.

    Each entry: ``move`` (the build's fields), ``cost`` (resources, silver, card
    used) and ``points``. The cheapest way per (area, on) is listed first.
    """
    out: list[dict[str, Any]] = []
    seen = set()
    for template in legal.builds(state, player):
        move = Build(player, template["area"], template.get("silver_for"), template.get("card"),
                     template.get("on"))
        after = apply_move(state, move)
        before_res, after_res = state.resources[player], after.resources[player]
        cost = {r: before_res[i] - after_res[i] for i, r in enumerate(tables.RESOURCES)}
        cost["silver"] = state.silver[player] - after.silver[player]
        cost["card"] = 1 if move.card else 0
        key = (move.area, move.on, tuple(cost.items()))
        if key in seen:
            continue
        seen.add(key)
        out.append({"move": {"area": move.area, "silver_for": move.silver_for, "card": move.card,
                             "on": move.on},
                    "cost": cost,
                    "points": castle_points(state.board, state.settlements, move.area)})
    out.sort(key=lambda t: (t["move"]["area"], t["move"]["on"] or "",
                            t["cost"]["card"], t["cost"]["silver"]))
    return out


@dataclass(frozen=True)
class CardPlay:
    """A card ``player`` may play now, with every target it may take (none for the Thief)."""

    player: str
    card: str
    values: tuple[int, ...] = ()
    players: tuple[str, ...] = ()
    areas: tuple[str, ...] = ()


@dataclass(frozen=True)
class StewardTurn:
    """One orientation a player's Steward may turn the tile just revealed to."""

    player: str
    shields: Shields


@dataclass(frozen=True)
class Targets:
    """What the Castelli screens may offer now, from the same generators as ``legal_moves``.

    The companion knows how many cards a player holds, not which, so every
    card type is offered to a player holding one. ``sell`` is (player, most
    cards it may sell); builds are :func:`build_targets`.
    """

    revealer: str | None
    reveal_spaces: tuple[str, ...]
    swap: bool
    stewards: tuple[StewardTurn, ...]
    guard: str | None
    plays: tuple[CardPlay, ...]
    sell: tuple[tuple[str, int], ...]
    end: bool


def targets(state: State) -> Targets:
    """Every target of the next tap (reveal, Steward, Guard, cards, selling, the end).

    A finished game offers nothing to reveal, play, sell or end.
    """
    reveals = legal.reveals(state)
    guards = legal.guards(state)
    playing = not state.finished
    return Targets(
        revealer=reveals[0]["player"] if reveals and playing else None,
        reveal_spaces=tuple(dict.fromkeys(m["space"] for m in reveals)) if playing else (),
        swap=any(m.get("swap") for m in reveals),
        stewards=tuple(StewardTurn(p, shields) for p in state.players
                       for shields in legal.steward_orientations(state, p)),
        guard=guards[0]["player"] if guards else None,
        plays=_card_plays(state) if playing else (),
        sell=_sales(state) if playing else (),
        end=state.all_revealed() and playing,
    )


def _card_plays(state: State) -> tuple[CardPlay, ...]:
    """Per player who may play a card now, each card type it may play with that card's targets.

    Grouped by card in the order of ``tables.PLAY_CARDS``, so the picker lists the cards the same
    way whatever order the generator found them in.
    """
    plays = []
    for player in legal.turn_players(state):
        playable = legal.plays(state, player)
        for card in tables.PLAY_CARDS:
            found = [m for m in playable if m["card"] == card]
            if found:
                plays.append(CardPlay(player, card,
                                      tuple(m["value"] for m in found if "value" in m),
                                      tuple(m["target"] for m in found if "target" in m),
                                      tuple(m["area"] for m in found if "area" in m)))
    return tuple(plays)


def _sales(state: State) -> tuple[tuple[str, int], ...]:
    """(player, most cards it may sell) for each player who may sell now."""
    most = ((p, len(legal.sells(state, p))) for p in legal.turn_players(state))
    return tuple((p, n) for p, n in most if n)


def preview_area(state: State, area: str) -> Resolution:
    """What evaluating ``area`` would give if it were evaluated now (shields revealed so far)."""
    spec = state.board.areas[area]
    amount = state.mine if spec.kind == "mine" else spec.amount
    return resolve(spec.kind, amount, state.shields_into(area), state.players_by_colour,
                   state.options.neutral)


def preview_final(state: State) -> dict[str, dict[str, int]]:
    """The final-scoring lines per player "if it were scored now" (the mine evaluated first)."""
    final = state.final if state.finished else final_scoring(state).final
    return {p: dict(lines) for p, lines in (final or {}).items()}


#: The readable table's columns: the message code of each heading, its width and alignment.
_COLUMNS: tuple[tuple[str, int, str], ...] = (
    ("castelli.report.column.player", 24, "<"), ("castelli.report.column.colour", 7, "<"),
    ("castelli.report.column.wood", 4, ">"), ("castelli.report.column.grain", 5, ">"),
    ("castelli.report.column.stone", 5, ">"), ("castelli.report.column.silver", 6, ">"),
    ("castelli.report.column.cards", 5, ">"), ("castelli.report.column.castles", 7, ">"),
    ("castelli.report.column.score", 5, ">"),
)


def report(state: State, to_move: str | None, winners: list[str], decided_by: str | None = None) -> str:
    """The readable table of ``companion replay`` without ``--json``, in the current language.

    Every word comes from the catalogues (``str`` of a message); names, areas
    and numbers come from the record. ``decided_by`` is the outcome's (``score``,
    the tie-break's name, ``shared``): the line under the table says why the winners won.
    """
    counts = {"mine": state.mine, "deck": state.deck(), "up": len(state.revealed),
              "spaces": len(state.board.spaces)}
    status = (msg("castelli.report.finished", **counts) if state.finished
              else msg("castelli.report.in_progress", player=to_move, **counts))
    headings = [str(msg(code)) for code, _, _ in _COLUMNS]
    widths = [max(width, len(heading)) for heading, (_, width, _) in zip(headings, _COLUMNS, strict=True)]

    def row(cells: list[object]) -> str:
        return "  " + " ".join(f"{cell!s:{align}{width}}" for cell, width, (_, _, align)
                               in zip(cells, widths, _COLUMNS, strict=True))

    lines = [str(status), "", row(list(headings)).rstrip()]
    winner = str(msg("castelli.report.winner"))
    for p in state.players:
        wood, grain, stone = state.resources[p]
        mark = f"  {winner}" if p in winners else ""
        lines.append(row([p, colour_word(state.colors[p]), wood, grain, stone, state.silver[p],
                          state.cards[p], state.castles_built[p], state.score[p]]) + mark)
    if state.finished and winners and decided_by is not None:
        lines += ["", str(_why_they_won(winners, decided_by))]
    if state.evaluations:
        lines += ["", str(msg("castelli.report.evaluations"))]
        lines += [f"  {evaluation_line(state.board, e.area, e.explanation)}" for e in state.evaluations]
    if state.notes:
        lines += ["", str(msg("castelli.report.not_evaluated"))]
        lines += [f"  {evaluation_line(state.board, n.area, n.explanation)}" for n in state.notes]
    if state.shortfalls:
        lines += ["", str(msg("castelli.report.shortfalls"))]
        lines += [f"  {short.explanation}" for short in state.shortfalls]
    if state.final:
        lines += ["", str(msg("castelli.report.final"))]
        for p in state.players:
            parts = str(msg("common.list.separator")).join(
                str(msg(f"castelli.final.{line}", points=points)) for line, points in state.final[p].items())
            lines.append(f"  {msg('castelli.report.final_line', player=p, lines=parts)}")
    return "\n".join(lines)


def _why_they_won(winners: list[str], decided_by: str) -> Message:
    """Most points, the tie-break (castles built), or a shared win."""
    if decided_by == "score":
        return msg("castelli.outcome.score", winners=winners)
    if decided_by == "shared":
        return msg("castelli.outcome.shared", winners=winners)
    return msg("castelli.outcome.castles", winners=winners)


def evaluation_line(board: Board, area: str, explanation: Message) -> Message:
    """``forest, row 1, column 5: Csaba (blue) has the most (3): ...``: an area, by what it is and
    where it lies, and why it gave what it gave."""
    return msg("castelli.evaluation.line", area=board.label(area), explanation=explanation)
