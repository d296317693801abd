"""Castelli's moves applied to a state: legality, effects, evaluations, the end.

States are frozen: every step here returns a new state built with
:meth:`State.with_` (a new table only where a value changes) and the state it
was given stays as it was, whether the move is accepted or refused.
A refusal names the rule as a message code with its parameters (the catalogues
put it into a player's words); explanations are messages too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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
from companion.games.castelli.state import Evaluation, Pending, Shields, Shortfall, State, Unevaluated
from companion.games.castelli.words import amount as unit
from companion.games.castelli.words import card as card_word
from companion.games.castelli.words import kind as kind_word
from companion.games.castelli.words import resource as resource_word
from companion.games.castelli.words import settlement as settlement_word
from companion.games.messages import Message, msg

_RES_INDEX = {r: i for i, r in enumerate(tables.RESOURCES)}


def apply_move(state: State, move: Move) -> State:
    """The state after ``move``; :class:`IllegalMove` when the rules refuse it."""
    if state.finished:
        raise IllegalMove(msg("castelli.game.over"))
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
        if move.group is not None:
            raise IllegalMove(msg("castelli.end.no_groups", group=move.group))
        return _end(state)
    raise IllegalMove(msg("castelli.move.unknown", move=type(move).__name__))


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


def draw_order(state: State, players: Iterable[str]) -> list[str]:
    """``players`` in the order they receive the gains of one event: the last-cards reading.

    When the deck (or the mine) cannot give every player of one event its due, the gains go in
    seating order starting from the player whose turn it is, each player taking its whole share
    while anything is left (a market tied between two players with one card left: the card goes
    to the tied player first in seating order from the player whose turn it is). The events of one
    reveal come in the order records.md lists them: the tile's card icons, its silver, the frame
    gifts side by side clockwise from the top (N, E, S, W), then the areas it completes in the
    order of the sides bordering them. The rulebook does not say; docs/rules.md names the reading.
    """
    wanted = set(players)
    seats = state.players
    first = state.current or 0
    return [seats[(first + k) % len(seats)] for k in range(len(seats))
            if seats[(first + k) % len(seats)] in wanted]


def give_drawn(state: State, player: str, source: str, due: int) -> State:
    """The state after ``player`` draws ``due`` cards of a card icon or a frame gift, the deck
    permitting; a draw the deck cannot pay in full is kept as a :class:`Shortfall` that says so."""
    state, gained = give(state, player, "cards", due)
    if gained < due:
        code = "castelli.shortfall.icon" if source == "icon" else "castelli.shortfall.frame"
        state = state.with_(shortfalls=(*state.shortfalls, Shortfall(
            player, source, gained, due, msg(code, player=player, gained=gained, count=due))))
    return state


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
        return state.with_(notes=(*state.notes, Unevaluated(area, spec.kind, result.explanation)))
    awards: dict[str, dict[str, int]] = {}
    capped: list[Message] = []
    for player in draw_order(state, result.awards):
        share = result.awards[player]
        state, gained = give(state, player, result.gain, share)
        if gained:
            awards[player] = {result.gain: gained}
        if gained < share:
            capped.append(_capped(player, result.gain, gained, share))
    text = result.explanation
    if capped:
        text = msg("castelli.evaluation.with_caps", explanation=text, caps=capped)
    return state.with_(evaluations=(*state.evaluations,
                                    Evaluation(area, spec.kind, result.influence, awards, text)))


def _capped(player: str, gain: str, gained: int, share: int) -> Message:
    """Why ``player`` received less than its share: the deck ran out, the cap of 5, the mine."""
    if gain == "cards":
        return msg("castelli.evaluation.capped_cards", player=player, gained=gained, share=share)
    if gain == "silver":
        return msg("castelli.evaluation.capped_silver", player=player, gained=gained, share=share)
    return msg("castelli.evaluation.capped_resource", player=player, gained=gained, share=share,
               cap=tables.RESOURCE_CAP)


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
        if gift == "card":
            state = give_drawn(state, player, "frame", 1)
        else:
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

def _turn_of(state: State, player: str, doing: Message, *, may_start: bool) -> State:
    """A state in which it is ``player``'s turn, or a refusal naming whose turn it is.

    ``may_start``: playing or selling a card before revealing starts the turn.
    """
    index = state.players.index(player)
    if state.current == index:
        return state
    expected = state.players[state.next_index()]
    if may_start and state.next_index() == index:
        if state.all_revealed():
            raise IllegalMove(msg("castelli.turn.game_ends", player=state.players[state.current or 0]))
        return state.with_(current=index, revealed_this_turn=False, card_played=False,
                           silver_swap_used=False)
    whose = state.players[state.current] if state.current is not None else expected
    raise IllegalMove(msg("castelli.turn.only_current", player=whose, doing=doing))


def _reveal(state: State, move: Reveal) -> State:
    if state.all_revealed():
        raise IllegalMove(msg("castelli.reveal.all_face_up"))
    index = state.players.index(move.player)
    expected = state.players[state.next_index()]
    if move.player != expected:
        if state.current == index:
            raise IllegalMove(msg("castelli.reveal.already_this_turn", next=expected))
        raise IllegalMove(msg("castelli.reveal.not_your_turn", expected=expected, player=move.player))
    if move.space not in state.board.spaces:
        raise IllegalMove(msg("castelli.reveal.no_space", space=move.space))
    if move.space in state.revealed:
        raise IllegalMove(msg("castelli.reveal.face_up", space=state.board.where(move.space)))
    if move.swap and not state.options.dilemma:
        raise IllegalMove(msg("castelli.reveal.swap_without_dilemma"))
    new = state.with_(revealed_this_turn=True, pending=None)
    if state.current != index:
        new = new.with_(current=index, card_played=False, silver_swap_used=False)
    if move.swap:
        new = new.with_(holds_own_tile={**new.holds_own_tile, move.player: False})
    icons = sum(1 for _, value in move.shields if value == tables.CARD_SHIELD)
    new = give_drawn(new, move.player, "icon", icons)
    base, _ = give(new, move.player, "silver", move.silver)
    new = _apply_orientation(base, move.space, move.shields)
    return new.with_(pending=Pending("reveal", base, move.player, move.space))


def _steward(state: State, move: Steward) -> State:
    pending = state.pending
    if pending is None or pending.kind != "reveal":
        raise IllegalMove(msg("castelli.steward.not_now"))
    if move.player == pending.player:
        raise IllegalMove(msg("castelli.steward.own_tile"))
    base = pending.base
    if base.cards[move.player] < 1:
        raise IllegalMove(msg("castelli.card.needs_card", card=card_word("steward")))
    old = state.revealed[pending.space]
    if move.shields == old:
        raise IllegalMove(msg("castelli.steward.same"))
    if move.shields not in [old[k:] + old[:k] for k in range(1, 4)]:
        raise IllegalMove(msg("castelli.steward.not_a_turn"))
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
    if move.silver_for is not None:
        if swap_used:
            raise IllegalMove(msg("castelli.pay.swap_used", silver=tables.SILVER_PER_RESOURCE))
        if move.card == "master-builder":
            raise IllegalMove(msg("castelli.pay.master_builder_swap", each=tables.MASTER_BUILDER_SILVER,
                                  silver=tables.SILVER_PER_RESOURCE))
        if missing[move.silver_for] == 0:
            raise IllegalMove(msg("castelli.pay.not_missing", resource=resource_word(move.silver_for),
                                  silver=tables.SILVER_PER_RESOURCE))
        if silver < tables.SILVER_PER_RESOURCE:
            raise IllegalMove(msg("castelli.pay.swap_short", resource=resource_word(move.silver_for),
                                  cost=tables.SILVER_PER_RESOURCE, silver=silver))
        missing[move.silver_for] -= 1
        silver -= tables.SILVER_PER_RESOURCE
        swap_used = True
    short = sum(missing.values())
    words = [unit(r, n) for r, n in missing.items() if n]
    if move.card == "master-builder":
        if short == 0:
            raise IllegalMove(msg("castelli.pay.master_builder_not_needed"))
        if silver < short * tables.MASTER_BUILDER_SILVER:
            raise IllegalMove(msg("castelli.pay.master_builder_short", each=tables.MASTER_BUILDER_SILVER,
                                  short=short * tables.MASTER_BUILDER_SILVER, missing=words,
                                  silver=silver))
        silver -= short * tables.MASTER_BUILDER_SILVER
    elif short:
        if move.silver_for or swap_used:
            raise IllegalMove(msg("castelli.pay.missing", cost=cost, missing=words))
        raise IllegalMove(msg("castelli.pay.missing_swap_hint", cost=cost, missing=words,
                              silver=tables.SILVER_PER_RESOURCE))
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
        raise IllegalMove(msg("castelli.turn.only_current", player=state.players[turn],
                              doing=msg("castelli.doing.build")))
    if not state.revealed_this_turn:
        raise IllegalMove(msg("castelli.build.reveal_first"))
    area = state.board.areas.get(move.area)
    if area is None:
        raise IllegalMove(msg("castelli.area.unknown", area=move.area))
    if state.castles_left(player) <= 0:
        raise IllegalMove(msg("castelli.build.no_castles_left", count=tables.CASTLES_PER_PLAYER))
    if move.on is not None and not state.options.battle:
        raise IllegalMove(msg("castelli.build.on_without_battle"))
    if move.card is not None:
        _check_card(state, player, move.card)
    return area


def _new_castle_cost(move: Build, area: Area, stacks: tuple[tuple[str, ...], ...], points: int,
                     place: Message) -> int:
    """What a new castle in ``area`` (``place``: it in words) costs of each resource, or the rule
    it breaks there."""
    needed = tables.CARD_AREA.get(move.card or "")
    if needed is not None and area.kind != needed:
        raise IllegalMove(msg("castelli.build.card_area", card=card_word(move.card or ""),
                              needed=kind_word(needed), area=place))
    if area.kind == "rock":
        if len(stacks) >= area.spots:
            raise IllegalMove(msg("castelli.build.rock_full", area=place, spots=area.spots))
    elif area.kind in ("field", "forest"):
        card = "count" if area.kind == "field" else "countess"
        if needed is None:
            raise IllegalMove(msg("castelli.build.needs_card", kind=kind_word(area.kind),
                                  card=card_word(card)))
        if stacks:
            raise IllegalMove(msg("castelli.build.one_castle", kind=kind_word(area.kind), area=place))
    else:
        raise IllegalMove(msg("castelli.build.not_on_kind", kind=kind_word(area.kind)))
    _check_points(place, points)
    return tables.CASTLE_COST


def _top_castle_cost(state: State, move: Build, owner: str, stacks: tuple[tuple[str, ...], ...],
                     points: int) -> int:
    """What building on top of ``owner``'s castle costs of each resource, or the rule it breaks."""
    require_player(tuple(state.colors), owner)
    if owner == move.player:
        raise IllegalMove(msg("castelli.battle.own_castle"))
    place = state.board.place(move.area)
    if not any(s[-1] == owner for s in stacks):
        raise IllegalMove(msg("castelli.battle.no_top", owner=owner, area=place))
    if not any(len(s) == 1 and s[0] == owner for s in stacks):
        raise IllegalMove(msg("castelli.battle.already_built_on", owner=owner, area=place))
    _check_points(place, points)
    theirs = state.points_in(move.area, owner)
    if move.card == "knights":
        if points >= theirs:
            raise IllegalMove(msg("castelli.battle.knights_points", owner=owner, points=points,
                                  theirs=theirs))
    elif points <= theirs:
        raise IllegalMove(msg("castelli.battle.points", owner=owner, area=place, points=points,
                              theirs=theirs))
    return tables.ABBOT_COST if move.card == "abbot" else tables.TOP_CASTLE_COST


def _build(state: State, move: Build) -> State:
    player = move.player
    area = _check_builder(state, move)
    points = state.points_in(move.area, player)
    stacks = state.castles.get(move.area, ())
    if move.on is None:
        cost = _new_castle_cost(move, area, stacks, points, state.board.place(move.area))
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


def _check_points(area: Message, points: int) -> None:
    if points < 1:
        raise IllegalMove(msg("castelli.build.no_points", area=area))


def _check_card(state: State, player: str, card: str) -> None:
    if card in tables.BATTLE_ONLY and not state.options.battle:
        raise IllegalMove(msg("castelli.card.battle_only", card=card_word(card)))
    if state.card_played:
        raise IllegalMove(msg("castelli.card.one_per_turn"))
    if state.cards[player] < 1:
        raise IllegalMove(msg("castelli.card.none_in_hand", card=card_word(card)))


def _guard(state: State, move: Guard) -> State:
    pending = state.pending
    if not state.options.battle:
        raise IllegalMove(msg("castelli.card.battle_only", card=card_word("guard")))
    if pending is None or pending.kind != "top" or pending.owner != move.player:
        raise IllegalMove(msg("castelli.guard.not_now"))
    if state.cards[move.player] < 1:
        raise IllegalMove(msg("castelli.card.needs_card", card=card_word("guard")))
    base = pending.base
    return base.with_(cards=_plus(base.cards, move.player, -1), pending=None)


def _play(state: State, move: Play) -> State:
    player = move.player
    new = _turn_of(state, player, msg("castelli.doing.play"), may_start=True)
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
            raise IllegalMove(msg("castelli.arsonist.no_town", area=state.board.place(place)))
        return state.with_(settlements={a: k for a, k in state.settlements.items() if a != place})
    return state


def _traitor(state: State, player: str, target: str) -> State:
    """The Traitor buys a card from ``target`` for silver."""
    require_player(tuple(state.colors), target)
    if target == player:
        raise IllegalMove(msg("castelli.traitor.self"))
    if state.cards[target] < 1:
        raise IllegalMove(msg("castelli.traitor.no_card", target=target))
    if state.silver[player] < tables.TRAITOR_PRICE:
        raise IllegalMove(msg("castelli.traitor.no_silver", target=target, price=tables.TRAITOR_PRICE))
    price = tables.TRAITOR_PRICE
    return state.with_(silver={**state.silver, player: state.silver[player] - price,
                               target: state.silver[target] + price},
                       cards={**state.cards, target: state.cards[target] - 1,
                              player: state.cards[player] + 1})


def _settle(state: State, kind: str, area: str | None) -> State:
    """The Peasant's new village or the Prince's new town on an empty plain area."""
    place = _area_for(state, area)
    words = state.board.place(place)
    if state.board.areas[place].kind != "plain":
        raise IllegalMove(msg("castelli.settle.not_plain", settlement=settlement_word(kind), area=words))
    if place in state.settlements:
        raise IllegalMove(msg("castelli.settle.occupied", area=words, settlement=settlement_word(kind),
                              existing=settlement_word(state.settlements[place])))
    if state.castles.get(place):
        raise IllegalMove(msg("castelli.settle.castle", area=words, settlement=settlement_word(kind)))
    if state.settlements_left(kind) <= 0:
        supply = tables.SETTLEMENT_SUPPLY[kind]
        if kind == "village":
            raise IllegalMove(msg("castelli.settle.no_villages_left", count=supply))
        raise IllegalMove(msg("castelli.settle.no_towns_left", count=supply))
    return state.with_(settlements={**state.settlements, place: kind})


def _area_for(state: State, area: str | None) -> str:
    if area is None or area not in state.board.areas:
        raise IllegalMove(msg("castelli.area.unknown", area=area))
    return area


def _sell(state: State, move: Sell) -> State:
    new = _turn_of(state, move.player, msg("castelli.doing.sell"), may_start=True)
    held = new.cards[move.player]
    if held < move.cards:
        raise IllegalMove(msg("castelli.sell.too_many", count=held, cards=move.cards))
    price = tables.SELL_PRICE * move.cards
    if new.mine < price:
        raise IllegalMove(msg("castelli.sell.mine_short", mine=new.mine, count=move.cards, price=price))
    return new.with_(pending=None, cards=_plus(new.cards, move.player, -move.cards),
                     mine=new.mine - price, silver=_plus(new.silver, move.player, price))


def _end(state: State) -> State:
    left = len(state.board.spaces) - len(state.revealed)
    if left:
        raise IllegalMove(msg("castelli.end.tiles_left", count=left))
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
