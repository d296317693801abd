"""Castelli's legal moves, generated from the rules rather than found by trial.

Each generator mirrors the checks of :mod:`.rules` for one move type, so a
template listed here is a move ``apply`` accepts and every accepted move is
listed (the contract tests compare both against a brute-force search). A
``reveal`` leaves out its shields and silver, which the table shows rather
than the player chooses; ``swap`` is chosen and stays.

The companion knows how many cards a player holds, not which, so every card
type is offered to a player holding one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.games.castelli import tables
from companion.games.castelli.moves import shields_json
from companion.games.castelli.state import State

Template = dict[str, Any]


#: The last state whose legal moves were worked out, and those moves (:func:`legal_moves`).
_kept: tuple[State, tuple[Template, ...]] | None = None


def legal_moves(state: State) -> list[Template]:
    """The move templates of ``records.md`` ("`companion moves`") for ``state``.

    Worked out once for the last state asked about: after a move the summary's turn, the screens'
    legal moves and the step due (``what_now``) each read them, and each generated them anew (a
    third of what a screen asks after a move). Each caller gets its own list of its own dicts; the
    lists inside a template are shared and never changed. Holding the state keeps its ``id`` from
    being reused.
    """
    global _kept
    if state.finished:
        return []
    kept = _kept
    if kept is None or kept[0] is not state:
        kept = (state, tuple(_generate(state)))
        _kept = kept
    return [dict(template) for template in kept[1]]


def _generate(state: State) -> list[Template]:
    found: list[Template] = [*reveals(state), *stewards(state), *guards(state)]
    for player in turn_players(state):
        found += builds(state, player)
        found += plays(state, player)
        found += sells(state, player)
    if state.all_revealed():
        found.append({"type": "end"})
    return found


def turn_players(state: State) -> list[str]:
    """Who may play or sell a card now: the player whose turn it is, and the next one (starting a turn)."""
    seats: list[int] = []
    if state.current is not None:
        seats.append(state.current)
    if not state.all_revealed() and state.next_index() not in seats:
        seats.append(state.next_index())
    return [state.players[seat] for seat in seats]


def reveals(state: State) -> list[Template]:
    """Face-down spaces the next player may reveal (with Dilemma, also swapping in the hand tile)."""
    if state.all_revealed():
        return []
    player = state.players[state.next_index()]
    found: list[Template] = []
    for space in state.face_down():
        found.append({"type": "reveal", "player": player, "space": space})
        if state.options.dilemma:
            found.append({"type": "reveal", "player": player, "space": space, "swap": True})
    return found


def steward_orientations(state: State, player: str) -> list[tuple[tuple[str, int | str], ...]]:
    """The orientations ``player``'s Steward may turn the tile just revealed to (none if it may not)."""
    pending = state.pending
    if pending is None or pending.kind != "reveal" or player == pending.player:
        return []
    if pending.base.cards[player] < 1:
        return []
    old = state.revealed[pending.space]
    return [old[k:] + old[:k] for k in range(1, 4)]


def stewards(state: State) -> list[Template]:
    return [{"type": "steward", "player": player, "shields": shields_json(shields)}
            for player in state.players for shields in steward_orientations(state, player)]


def guards(state: State) -> list[Template]:
    pending = state.pending
    if (not state.options.battle or pending is None or pending.kind != "top"
            or state.cards[pending.owner] < 1):
        return []
    return [{"type": "guard", "player": pending.owner}]


def may_use_card(state: State, player: str, card: str, *, starting: bool = False) -> bool:
    """Whether ``player`` may use ``card`` now: the module, one card per turn, a card in hand."""
    if card in tables.BATTLE_ONLY and not state.options.battle:
        return False
    if state.card_played and not starting:
        return False
    return state.cards[player] >= 1


def _starts_turn(state: State, player: str) -> bool:
    return state.current != state.players.index(player)


def plays(state: State, player: str) -> list[Template]:
    """Every card ``player`` may play now, with every target the card allows."""
    starting = _starts_turn(state, player)
    found: list[Template] = []
    for card in tables.PLAY_CARDS:
        if not may_use_card(state, player, card, starting=starting):
            continue
        base = {"type": "play", "player": player, "card": card}
        found += [{**base, **extra} for extra in card_targets(state, player, card)]
    return found


def card_targets(state: State, player: str, card: str) -> Iterator[dict[str, Any]]:
    """The extra fields ``card`` may be played with (``{}`` for a card that needs none)."""
    if card == "king":
        for value in tables.KING_VALUES:
            yield {"value": value}
    elif card == "traitor":
        if state.silver[player] >= tables.TRAITOR_PRICE:
            for other in state.players:
                if other != player and state.cards[other] >= 1:
                    yield {"target": other}
    elif card in ("peasant", "prince"):
        kind = "village" if card == "peasant" else "town"
        if state.settlements_left(kind) > 0:
            for area, spec in state.board.areas.items():
                if spec.kind == "plain" and area not in state.settlements and not state.castles.get(area):
                    yield {"area": area}
    elif card == "arsonist":
        for area, kind in state.settlements.items():
            if kind == "town":
                yield {"area": area}
    else:
        yield {}


def sells(state: State, player: str) -> list[Template]:
    """How many cards ``player`` may sell now: 1 up to what it holds and the mine can pay for."""
    most = min(state.cards[player], state.mine // tables.SELL_PRICE)
    return [{"type": "sell", "player": player, "cards": n} for n in range(1, most + 1)]


def builds(state: State, player: str) -> list[Template]:
    """Every build ``player`` may make now: where, on whose castle, with which card and silver."""
    if state.current != state.players.index(player) or not state.revealed_this_turn:
        return []
    if state.castles_left(player) <= 0:
        return []
    found: list[Template] = []
    for area, spec in state.board.areas.items():
        points = state.points_in(area, player)
        if points < 1:
            continue
        stacks = state.castles.get(area, ())
        cards: tuple[str | None, ...] = ()
        if spec.kind == "rock" and len(stacks) < spec.spots:
            cards = (None, "master-builder")
        elif spec.kind in tables.CARD_AREA.values() and not stacks:
            cards = tuple(c for c, kind in tables.CARD_AREA.items() if kind == spec.kind)
        for card in cards:
            found += _paid(state, player, {"type": "build", "player": player, "area": area},
                           card, tables.CASTLE_COST)
        if not state.options.battle:
            continue
        for owner in dict.fromkeys(s[0] for s in stacks if len(s) == 1 and s[0] != player):
            theirs = state.points_in(area, owner)
            base = {"type": "build", "player": player, "area": area, "on": owner}
            if points > theirs:
                found += _paid(state, player, base, None, tables.TOP_CASTLE_COST)
                found += _paid(state, player, base, "abbot", tables.ABBOT_COST)
            elif points < theirs:
                found += _paid(state, player, base, "knights", tables.TOP_CASTLE_COST)
    return found


def _paid(state: State, player: str, base: Template, card: str | None, cost: int) -> list[Template]:
    """``base`` with ``card`` and every way of paying ``cost`` that ``player`` can afford."""
    if card is not None and not may_use_card(state, player, card):
        return []
    with_card = base if card is None else {**base, "card": card}
    held = state.resources[player]
    silver = state.silver[player]
    missing = {r: max(0, cost - held[i]) for i, r in enumerate(tables.RESOURCES)}
    short = sum(missing.values())
    if card == "master-builder":
        ok = 0 < short <= silver // tables.MASTER_BUILDER_SILVER
        return [with_card] if ok else []
    found = [with_card] if short == 0 else []
    if not state.silver_swap_used and silver >= tables.SILVER_PER_RESOURCE:
        found += [{**with_card, "silver_for": r} for r, n in missing.items() if n and short - 1 == 0]
    return found
