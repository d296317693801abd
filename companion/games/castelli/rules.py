"""Castelli's moves applied to a state: legality, effects, evaluations, the end.

States are frozen: every step here returns a new state built with
:meth:`State.with_` (a new table only where a value changes) and the state it
was given stays as it was, whether the move is accepted or refused.
Messages are the rule in a player's words.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.base import IllegalMove, require_player
from companion.games.castelli import tables
from companion.games.castelli.board import FRAME_PREFIX, Area
from companion.games.castelli.evaluation import resolve
from companion.games.castelli.moves import Build, End, Guard, Move, Play, Reveal, Sell, Steward
from companion.games.castelli.scoring import (
    battle_settlement_points,
    castle_points,
    silver_awards,
    top_castles,
)
from companion.games.castelli.state import Evaluation, Pending, Shields, State

_RES_INDEX = {r: i for i, r in enumerate(tables.RESOURCES)}


def apply_move(state: State, move: Move) -> State:
    """The state after ``move``; :class:`IllegalMove` when the rules refuse it."""
    if state.finished:
        raise IllegalMove("the game is over; no move can follow the end")
    player = getattr(move, "player", None)
    if player is not None:
        require_player(tuple(state.colors), player)
    if isinstance(move, Reveal):
        return _reveal(state, move)
    if isinstance(move, Steward):
        return _steward(state, move)
    if isinstance(move, Build):
        return _build(state, move)
    if isinstance(move, Guard):
        return _guard(state, move)
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, Sell):
        return _sell(state, move)
    if isinstance(move, End):
        return _end(state)
    raise IllegalMove(f"unknown move {move!r}")


# Building new tables -------------------------------------------------------

def _plus(table: Mapping[str, int], key: str, delta: int) -> dict[str, int]:
    """A new table with ``delta`` added to ``key``'s count."""
    return {**table, key: table[key] + delta}


# Gains -------------------------------------------------------------------

def give(state: State, player: str, what: str, amount: int) -> tuple[State, int]:
    """The state after giving up to ``amount`` of a resource, cards or silver, and what was given.

    Resources stop at 5, cards at what the deck still holds, silver at what the mine holds.
    """
    if amount <= 0:
        return state, 0
    if what in _RES_INDEX:
        held = list(state.resources[player])
        index = _RES_INDEX[what]
        gained = max(0, min(amount, tables.RESOURCE_CAP - held[index]))
        held[index] += gained
        return state.with_(resources={**state.resources,
                                      player: (held[0], held[1], held[2])}), gained
    if what in ("card", "cards"):
        gained = min(amount, state.deck())
        return state.with_(cards=_plus(state.cards, player, gained)), gained
    if what == "silver":
        gained = min(amount, state.mine)
        return state.with_(mine=state.mine - gained,
                           silver=_plus(state.silver, player, gained)), gained
    raise ValueError(what)


def evaluate(state: State, area: str) -> State:
    """The state after evaluating ``area`` now: resolve, give with caps, record it once."""
    spec = state.board.areas[area]
    amount = state.mine if spec.kind == "mine" else spec.amount
    result = resolve(spec.kind, amount, state.shields_into(area), state.players_by_colour,
                     state.options.neutral)
    state = state.with_(done=state.done | {area})
    if spec.kind == "plain":
        return state
    if not result.evaluated or result.voided:
        return state.with_(notes=(*state.notes, f"{area} ({spec.kind}): {result.explanation}"))
    awards: dict[str, dict[str, int]] = {}
    capped = []
    for player, share in result.awards.items():
        state, gained = give(state, player, result.gain, share)
        if gained:
            awards[player] = {result.gain: gained}
        if gained < share:
            capped.append(f"{player} receives {gained} of {share} "
                          f"({'the deck ran out' if result.gain == 'cards' else 'at most 5 of a resource'})"
                          if result.gain != "silver" else f"{player} receives {gained} of {share}")
    text = result.explanation + (f" ({'; '.join(capped)})" if capped else "")
    return state.with_(evaluations=(*state.evaluations,
                                    Evaluation(area, spec.kind, result.influence, awards, text)))


def _apply_orientation(state: State, space: str, shields: Shields) -> State:
    """The state after a tile's frame gifts and area evaluations as the tile now lies."""
    state = state.with_(revealed={**state.revealed, space: shields})
    sides = state.board.spaces[space].sides
    by_colour = state.players_by_colour
    for (colour, value), target in zip(shields, sides, strict=True):
        if not target.startswith(FRAME_PREFIX):
            continue
        gift = target[len(FRAME_PREFIX):]
        player = by_colour.get(colour)
        if gift == "neutral" or not isinstance(value, int) or player is None:
            continue
        state, _ = give(state, player, gift, 1)
    seen = set()
    for target in sides:
        if target.startswith(FRAME_PREFIX) or target in seen or target in state.done:
            continue
        seen.add(target)
        if state.board.areas[target].kind == "mine":
            continue
        if all(s in state.revealed for s, _ in state.board.borders[target]):
            state = evaluate(state, target)
    return state


# Turn order --------------------------------------------------------------

def _turn_of(state: State, player: str, doing: str, *, may_start: bool) -> State:
    """A state in which it is ``player``'s turn, or a refusal naming whose turn it is.

    ``may_start``: playing or selling a card before revealing starts the turn.
    """
    index = state.players.index(player)
    if state.current == index:
        return state
    expected = state.players[state.next_index()]
    if may_start and state.next_index() == index:
        if state.all_revealed():
            raise IllegalMove(f"every tile is face up: the game ends after "
                              f"{state.players[state.current or 0]}'s turn, nobody starts a new one")
        return state.with_(current=index, revealed_this_turn=False, card_played=False,
                           silver_swap_used=False)
    whose = state.players[state.current] if state.current is not None else expected
    raise IllegalMove(f"it is {whose}'s turn; only the player whose turn it is may {doing}")


def _reveal(state: State, move: Reveal) -> State:
    if state.all_revealed():
        raise IllegalMove("every tile is already face up; the game ends with the end move")
    index = state.players.index(move.player)
    expected = state.players[state.next_index()]
    if move.player != expected:
        if state.current == index:
            raise IllegalMove(f"you have already revealed a tile this turn; {expected} reveals next")
        raise IllegalMove(f"it is {expected}'s turn to reveal a tile, not {move.player}'s")
    if move.space not in state.board.spaces:
        raise IllegalMove(f'there is no tile space "{move.space}" on this board')
    if move.space in state.revealed:
        raise IllegalMove(f"the tile on {move.space} is already face up; reveal a face-down tile")
    if move.swap and not state.options.dilemma:
        raise IllegalMove("swapping in your hand tile is part of the Dilemma module, "
                          "which this game does not use")
    new = state.with_(revealed_this_turn=True, pending=None)
    if state.current != index:
        new = new.with_(current=index, card_played=False, silver_swap_used=False)
    if move.swap:
        new = new.with_(holds_own_tile={**new.holds_own_tile, move.player: False})
    icons = sum(1 for _, value in move.shields if value == tables.CARD_SHIELD)
    new, _ = give(new, move.player, "cards", icons)
    base, _ = give(new, move.player, "silver", move.silver)
    new = _apply_orientation(base, move.space, move.shields)
    return new.with_(pending=Pending("reveal", base, move.player, move.space))


def _steward(state: State, move: Steward) -> State:
    pending = state.pending
    if pending is None or pending.kind != "reveal":
        raise IllegalMove("a Steward turns only the tile revealed just now, before anything else "
                          "happens")
    if move.player == pending.player:
        raise IllegalMove("the Steward turns a tile another player revealed, not your own")
    base = pending.base
    if base.cards[move.player] < 1:
        raise IllegalMove("you need a card in hand to play the Steward")
    old = state.revealed[pending.space]
    if move.shields == old:
        raise IllegalMove("the Steward must turn the tile to another direction; these are the "
                          "shields as they lie")
    if move.shields not in [old[k:] + old[:k] for k in range(1, 4)]:
        raise IllegalMove("the Steward only turns the tile: the shields must be the same tile's "
                          "in another direction")
    rebase = base.with_(cards=_plus(base.cards, move.player, -1))
    new = _apply_orientation(rebase, pending.space, move.shields)
    return new.with_(pending=Pending("reveal", rebase, pending.player, pending.space))


def _pay_for_castle(state: State, move: Build, cost: int) -> State:
    """The state after the builder pays the castle's price, or a refusal naming what is missing."""
    player = move.player
    held = state.resources[player]
    missing = {r: max(0, cost - held[i]) for i, r in enumerate(tables.RESOURCES)}
    silver = state.silver[player]
    swap_used = state.silver_swap_used
    price = (f"{cost} wood, {cost} grain and {cost} stone")
    if move.silver_for is not None:
        if swap_used:
            raise IllegalMove("2 silver may replace a missing resource only once per turn")
        if move.card == "master-builder":
            raise IllegalMove("with the Master builder you pay 1 silver per missing resource; "
                              "do not pay 2 silver for one as well")
        if missing[move.silver_for] == 0:
            raise IllegalMove(f"you have the {move.silver_for}; 2 silver replaces only a "
                              "missing resource")
        if silver < tables.SILVER_PER_RESOURCE:
            raise IllegalMove(f"replacing the {move.silver_for} costs "
                              f"{tables.SILVER_PER_RESOURCE} silver; you have {silver}")
        missing[move.silver_for] -= 1
        silver -= tables.SILVER_PER_RESOURCE
        swap_used = True
    short = sum(missing.values())
    words = ", ".join(f"{n} {r}" for r, n in missing.items() if n)
    if move.card == "master-builder":
        if short == 0:
            raise IllegalMove("the Master builder is for building without all resources, and you "
                              "have them all")
        if silver < short * tables.MASTER_BUILDER_SILVER:
            raise IllegalMove(f"the Master builder pays 1 silver per missing resource: "
                              f"{short} for {words}, and you have {silver}")
        silver -= short * tables.MASTER_BUILDER_SILVER
    elif short:
        hint = "" if move.silver_for or swap_used else " (2 silver can replace one, once per turn)"
        raise IllegalMove(f"a castle here costs {price}; you are missing {words}{hint}")
    paid = state.silver[player] - silver
    left = (max(0, held[0] - cost), max(0, held[1] - cost), max(0, held[2] - cost))
    return state.with_(silver={**state.silver, player: silver}, mine=state.mine + paid,
                       resources={**state.resources, player: left}, silver_swap_used=swap_used)


def _check_builder(state: State, move: Build) -> Area:
    """The area built in, after checking whose turn it is, the reveal, castles left and the card."""
    player = move.player
    index = state.players.index(player)
    turn = state.current if state.current is not None else state.next_index()  # before any move: seat 0
    if index != turn:
        raise IllegalMove(f"it is {state.players[turn]}'s turn; only the player whose turn it is may build")
    if not state.revealed_this_turn:
        raise IllegalMove("reveal a tile first: building comes after the reveal")
    area = state.board.areas.get(move.area)
    if area is None:
        raise IllegalMove(f'there is no area "{move.area}" on this board')
    if state.castles_left(player) <= 0:
        raise IllegalMove(f"you have built all {tables.CASTLES_PER_PLAYER} of your castles")
    if move.on is not None and not state.options.battle:
        raise IllegalMove("building on top of a castle is part of the Battle module, which this "
                          "game does not use")
    if move.card is not None:
        _check_card(state, player, move.card)
    return area


def _new_castle_cost(move: Build, area: Area, stacks: tuple[tuple[str, ...], ...], points: int) -> int:
    """What a new castle in ``area`` costs of each resource, or the rule it breaks there."""
    needed = tables.CARD_AREA.get(move.card or "")
    if needed is not None and area.kind != needed:
        raise IllegalMove(f"the {(move.card or '').title()} lets you build on a {needed}, and "
                          f"{move.area} is a {area.kind}")
    if area.kind == "rock":
        if len(stacks) >= area.spots:
            raise IllegalMove(f"you can build only on a rock with a free castle place; "
                              f"{move.area} has {area.spots} and no free one")
    elif area.kind in ("field", "forest"):
        card = "Count" if area.kind == "field" else "Countess"
        if needed is None:
            raise IllegalMove(f"castles stand on rocks; on a {area.kind} only with the {card}")
        if stacks:
            raise IllegalMove(f"a {area.kind} holds one castle, and {move.area} has one")
    else:
        raise IllegalMove(f"you can build only on a rock with a free castle place, not on a "
                          f"{area.kind}")
    _check_points(move.area, points)
    return tables.CASTLE_COST


def _top_castle_cost(state: State, move: Build, owner: str, stacks: tuple[tuple[str, ...], ...],
                     points: int) -> int:
    """What building on top of ``owner``'s castle costs of each resource, or the rule it breaks."""
    require_player(tuple(state.colors), owner)
    if owner == move.player:
        raise IllegalMove("you build on top of another player's castle, not your own")
    if not any(s[-1] == owner for s in stacks):
        raise IllegalMove(f"{owner} has no castle on top in {move.area}")
    if not any(len(s) == 1 and s[0] == owner for s in stacks):
        raise IllegalMove(f"{owner}'s castle in {move.area} already stands on another; a castle "
                          "place is built on only once")
    _check_points(move.area, points)
    theirs = state.points_in(move.area, owner)
    if move.card == "knights":
        if points >= theirs:
            raise IllegalMove(f"the Knights let you build on a castle where you have fewer shield "
                              f"points than its owner (you {points}, {owner} {theirs})")
    elif points <= theirs:
        raise IllegalMove(f"to build on top of {owner}'s castle you need more shield points in "
                          f"{move.area} than {owner} (you {points}, {owner} {theirs})")
    return tables.ABBOT_COST if move.card == "abbot" else tables.TOP_CASTLE_COST


def _build(state: State, move: Build) -> State:
    player = move.player
    area = _check_builder(state, move)
    points = state.points_in(move.area, player)
    stacks = state.castles.get(move.area, ())
    if move.on is None:
        cost = _new_castle_cost(move, area, stacks, points)
    else:
        cost = _top_castle_cost(state, move, move.on, stacks, points)
    before = state.with_(pending=None)
    new = _pay_for_castle(before, move, cost)
    pending = None
    if move.on is None:
        built = (*stacks, (player,))
    else:
        i = next(i for i, s in enumerate(stacks) if len(s) == 1 and s[0] == move.on)
        built = (*stacks[:i], (move.on, player), *stacks[i + 1:])
        pending = Pending("top", before, player, owner=move.on)
    new = new.with_(castles={**new.castles, move.area: built}, pending=pending,
                    castles_built=_plus(new.castles_built, player, 1),
                    score=_plus(new.score, player,
                                castle_points(new.board, new.settlements, move.area)))
    if move.card is not None:
        new = new.with_(cards=_plus(new.cards, player, -1), card_played=True)
    return new


def _check_points(area: str, points: int) -> None:
    if points < 1:
        raise IllegalMove(f"you need at least 1 shield point in {area} to build there "
                          "(revealed shields count)")


def _check_card(state: State, player: str, card: str) -> None:
    if card in tables.BATTLE_ONLY and not state.options.battle:
        raise IllegalMove(f"the {card} is a Battle card, and this game does not use the Battle module")
    if state.card_played:
        raise IllegalMove("you have already played a card this turn (one card per turn)")
    if state.cards[player] < 1:
        raise IllegalMove(f"you have no card in hand to play as the {card}")


def _guard(state: State, move: Guard) -> State:
    pending = state.pending
    if not state.options.battle:
        raise IllegalMove("the Guard is a Battle card, and this game does not use the Battle module")
    if pending is None or pending.kind != "top" or pending.owner != move.player:
        raise IllegalMove("the Guard stops a build on top of your castle, right after it happens")
    if state.cards[move.player] < 1:
        raise IllegalMove("you need a card in hand to play the Guard")
    base = pending.base
    return base.with_(cards=_plus(base.cards, move.player, -1), pending=None)


def _play(state: State, move: Play) -> State:
    player = move.player
    new = _turn_of(state, player, "play a card", may_start=True)
    _check_card(new, player, move.card)
    new = _card_effect(new.with_(pending=None), move)
    return new.with_(cards=_plus(new.cards, player, -1), card_played=True)


def _card_effect(state: State, move: Play) -> State:
    """The state after what a played card does (its own cost, the card, is paid by the caller)."""
    player, card = move.player, move.card
    if card == "king":
        return state.with_(score=_plus(state.score, player, move.value or 0))
    if card in ("thief", "bandits"):
        most = tables.THIEF_TAKES if card == "thief" else tables.BANDITS_TAKE
        silver = dict(state.silver)
        for other in state.players:
            if other != player:
                taken = min(most, silver[other])
                silver[other] -= taken
                silver[player] += taken
        return state.with_(silver=silver)
    if card == "robber-baron":
        half = state.mine // 2
        return state.with_(mine=state.mine - half, silver=_plus(state.silver, player, half))
    if card == "traitor":
        return _traitor(state, player, move.target or "")
    if card in ("peasant", "prince"):
        return _settle(state, "village" if card == "peasant" else "town", move.area)
    if card == "arsonist":
        place = _area_for(state, move.area)
        if state.settlements.get(place) != "town":
            raise IllegalMove(f"the Arsonist burns a town, and there is no town in {place}")
        return state.with_(settlements={a: k for a, k in state.settlements.items() if a != place})
    return state


def _traitor(state: State, player: str, target: str) -> State:
    """The Traitor buys a card from ``target`` for silver."""
    require_player(tuple(state.colors), target)
    if target == player:
        raise IllegalMove("the Traitor buys a card from another player, not from yourself")
    if state.cards[target] < 1:
        raise IllegalMove(f"{target} has no card in hand to sell to the Traitor")
    if state.silver[player] < tables.TRAITOR_PRICE:
        raise IllegalMove(f"the Traitor pays {target} {tables.TRAITOR_PRICE} silver, and you have none")
    price = tables.TRAITOR_PRICE
    return state.with_(silver={**state.silver, player: state.silver[player] - price,
                               target: state.silver[target] + price},
                       cards={**state.cards, target: state.cards[target] - 1,
                              player: state.cards[player] + 1})


def _settle(state: State, kind: str, area: str | None) -> State:
    """The Peasant's new village or the Prince's new town on an empty plain area."""
    place = _area_for(state, area)
    if state.board.areas[place].kind != "plain":
        raise IllegalMove(f"a new {kind} goes on an empty plain area, and {place} is a "
                          f"{state.board.areas[place].kind}")
    if place in state.settlements:
        raise IllegalMove(f"{place} already has a {state.settlements[place]}; a new {kind} needs "
                          "an empty place")
    if state.castles.get(place):
        raise IllegalMove(f"{place} has a castle; a new {kind} needs an empty place")
    if state.settlements_left(kind) <= 0:
        raise IllegalMove(f"all {tables.SETTLEMENT_SUPPLY[kind]} {kind}s are on the board")
    return state.with_(settlements={**state.settlements, place: kind})


def _area_for(state: State, area: str | None) -> str:
    if area is None or area not in state.board.areas:
        raise IllegalMove(f'there is no area "{area}" on this board')
    return area


def _sell(state: State, move: Sell) -> State:
    new = _turn_of(state, move.player, "sell cards", may_start=True)
    held = new.cards[move.player]
    if held < move.cards:
        raise IllegalMove(f"you have {held} card{'s' if held != 1 else ''} in hand; you cannot sell "
                          f"{move.cards}")
    price = tables.SELL_PRICE * move.cards
    if new.mine < price:
        raise IllegalMove(f"the mine has only {new.mine} silver; selling {move.cards} "
                          f"card{'s' if move.cards != 1 else ''} needs {price}")
    return new.with_(pending=None, cards=_plus(new.cards, move.player, -move.cards),
                     mine=new.mine - price, silver=_plus(new.silver, move.player, price))


def _end(state: State) -> State:
    left = len(state.board.spaces) - len(state.revealed)
    if left:
        raise IllegalMove(f"the game ends after the last tile is revealed ({left} still face down)")
    return final_scoring(state)


def final_scoring(state: State) -> State:
    """The state after the mine's evaluation and the final scoring (also the "if it ended now" preview)."""
    new = state.with_(pending=None)
    mine = new.board.mine
    if mine is not None and mine not in new.done:
        new = evaluate(new, mine)
    final: dict[str, dict[str, int]] = {}
    battle = new.options.battle
    table = tables.BATTLE_SILVER_AWARDS if battle else tables.SILVER_AWARDS
    silver = silver_awards(new.silver, table, new.options.silver_tie)
    if battle:
        settlement = battle_settlement_points(new.board, new.settlements, new.castles, new.players)
        open_castles = {p: 0 for p in new.players}
        for _, owner in top_castles(new.castles):
            open_castles[owner] += tables.BATTLE_OPEN_CASTLE_POINTS
    for p in new.players:
        lines = {"cards": new.cards[p] * tables.POINTS_PER_CARD,
                 "resources": sum(new.resources[p]) * tables.POINTS_PER_RESOURCE,
                 "silver": silver[p]}
        if new.options.dilemma:
            lines["starting_tile"] = tables.DILEMMA_POINTS if new.holds_own_tile.get(p) else 0
        if battle:
            lines["settlements"] = settlement[p]
            lines["open_castles"] = open_castles[p]
        final[p] = lines
    score = {p: new.score[p] + sum(final[p].values()) for p in new.score}
    return new.with_(score=score, final=final, finished=True)


def winners(state: State) -> list[str]:
    """Most points; a tie goes to the most castles built; still tied, a shared win."""
    if not state.finished:
        return []
    best = max(state.score.values())
    tied = [p for p in state.players if state.score[p] == best]
    most = max(state.castles_built[p] for p in tied)
    return [p for p in tied if state.castles_built[p] == most]
