"""Castelli's moves applied to a state: legality, effects, evaluations, the end.

``apply_move`` clones the state once, changes the clone and returns it; every
refusal is raised before anything is returned, so the caller's state never
changes. Messages are the rule in a player's words.
"""

from __future__ import annotations

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


# Gains -------------------------------------------------------------------

def give(state: State, player: str, what: str, amount: int) -> int:
    """Give up to ``amount`` of a resource, cards or silver (mutates ``state``); returns what was given.

    Resources stop at 5, cards at what the deck still holds, silver at what the mine holds.
    """
    if amount <= 0:
        return 0
    if what in _RES_INDEX:
        held = list(state.resources[player])
        index = _RES_INDEX[what]
        gained = max(0, min(amount, tables.RESOURCE_CAP - held[index]))
        held[index] += gained
        state.resources[player] = (held[0], held[1], held[2])
        return gained
    if what in ("card", "cards"):
        gained = min(amount, state.deck())
        state.cards[player] += gained
        return gained
    if what == "silver":
        gained = min(amount, state.mine)
        state.mine -= gained
        state.silver[player] += gained
        return gained
    raise ValueError(what)


def evaluate(state: State, area: str) -> None:
    """Evaluate ``area`` now (mutates ``state``): resolve, give with caps, record it once."""
    spec = state.board.areas[area]
    amount = state.mine if spec.kind == "mine" else spec.amount
    result = resolve(spec.kind, amount, state.shields_into(area), state.players_by_colour,
                     state.options.neutral)
    state.done = state.done | {area}
    if spec.kind == "plain":
        return
    if not result.evaluated or result.voided:
        state.notes = (*state.notes, f"{area} ({spec.kind}): {result.explanation}")
        return
    awards: dict[str, dict[str, int]] = {}
    capped = []
    for player, share in result.awards.items():
        gained = give(state, player, result.gain, share)
        if gained:
            awards[player] = {result.gain: gained}
        if gained < share:
            capped.append(f"{player} receives {gained} of {share} "
                          f"({'the deck ran out' if result.gain == 'cards' else 'at most 5 of a resource'})"
                          if result.gain != "silver" else f"{player} receives {gained} of {share}")
    text = result.explanation + (f" ({'; '.join(capped)})" if capped else "")
    state.evaluations = (*state.evaluations,
                         Evaluation(area, spec.kind, result.influence, awards, text))


def _apply_orientation(state: State, space: str, shields: Shields) -> None:
    """Frame gifts and area evaluations of a tile as it now lies (mutates ``state``)."""
    state.revealed[space] = shields
    sides = state.board.spaces[space].sides
    by_colour = state.players_by_colour
    for (colour, value), target in zip(shields, sides, strict=True):
        if not target.startswith(FRAME_PREFIX):
            continue
        gift = target[len(FRAME_PREFIX):]
        player = by_colour.get(colour)
        if gift == "neutral" or not isinstance(value, int) or player is None:
            continue
        give(state, player, gift, 1)
    seen = set()
    for target in sides:
        if target.startswith(FRAME_PREFIX) or target in seen or target in state.done:
            continue
        seen.add(target)
        if state.board.areas[target].kind == "mine":
            continue
        if all(s in state.revealed for s, _ in state.board.borders[target]):
            evaluate(state, target)


# Turn order --------------------------------------------------------------

def _turn_of(state: State, player: str, doing: str, *, may_start: bool) -> State:
    """A clone in which it is ``player``'s turn, or a refusal naming whose turn it is.

    ``may_start``: playing or selling a card before revealing starts the turn.
    """
    index = state.players.index(player)
    if state.current == index:
        return state.clone()
    expected = state.players[state.next_index()]
    if may_start and state.next_index() == index:
        if state.all_revealed():
            raise IllegalMove(f"every tile is face up: the game ends after "
                              f"{state.players[state.current or 0]}'s turn, nobody starts a new one")
        new = state.clone()
        new.current, new.revealed_this_turn = index, False
        new.card_played = new.silver_swap_used = False
        return new
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
    new = state.clone()
    if new.current != index:
        new.current = index
        new.card_played = new.silver_swap_used = False
    new.revealed_this_turn = True
    new.pending = None
    if move.swap:
        new.holds_own_tile[move.player] = False
    icons = sum(1 for _, value in move.shields if value == tables.CARD_SHIELD)
    give(new, move.player, "cards", icons)
    give(new, move.player, "silver", move.silver)
    base = new.clone()
    _apply_orientation(new, move.space, move.shields)
    new.pending = Pending("reveal", base, move.player, move.space)
    return new


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
    new = base.clone()
    new.cards[move.player] -= 1
    rebase = new.clone()
    _apply_orientation(new, pending.space, move.shields)
    new.pending = Pending("reveal", rebase, pending.player, pending.space)
    return new


def _pay_for_castle(new: State, move: Build, cost: int) -> None:
    """Take the castle's price from the builder (mutates ``new``), or refuse naming what is missing."""
    player = move.player
    held = new.resources[player]
    missing = {r: max(0, cost - held[i]) for i, r in enumerate(tables.RESOURCES)}
    silver = new.silver[player]
    price = (f"{cost} wood, {cost} grain and {cost} stone")
    if move.silver_for is not None:
        if new.silver_swap_used:
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
        new.silver_swap_used = True
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
        hint = "" if move.silver_for or new.silver_swap_used else " (2 silver can replace one, once per turn)"
        raise IllegalMove(f"a castle here costs {price}; you are missing {words}{hint}")
    paid = new.silver[player] - silver
    new.silver[player] = silver
    new.mine += paid
    new.resources[player] = tuple(max(0, held[i] - cost) for i in range(3))  # type: ignore[assignment]


def _check_builder(state: State, move: Build) -> Area:
    """The area built in, after checking whose turn it is, the reveal, castles left and the card."""
    player = move.player
    index = state.players.index(player)
    if state.current != index:
        whose = state.players[state.current] if state.current is not None else state.players[0]
        raise IllegalMove(f"it is {whose}'s turn; only the player whose turn it is may build")
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
    new = state.clone()
    new.pending = None
    _pay_for_castle(new, move, cost)
    if move.on is None:
        new.castles[move.area] = (*stacks, (player,))
    else:
        i = next(i for i, s in enumerate(stacks) if len(s) == 1 and s[0] == move.on)
        new.castles[move.area] = (*stacks[:i], (move.on, player), *stacks[i + 1:])
        base = state.clone()
        base.pending = None
        new.pending = Pending("top", base, player, owner=move.on)
    new.castles_built[player] += 1
    new.score[player] += castle_points(new.board, new.settlements, move.area)
    if move.card is not None:
        new.cards[player] -= 1
        new.card_played = True
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
    new = pending.base.clone()
    new.cards[move.player] -= 1
    new.pending = None
    return new


def _play(state: State, move: Play) -> State:
    player, card = move.player, move.card
    new = _turn_of(state, player, "play a card", may_start=True)
    _check_card(new, player, card)
    new.pending = None
    others = [p for p in new.players if p != player]
    if card == "king":
        new.score[player] += move.value or 0
    elif card in ("thief", "bandits"):
        most = tables.THIEF_TAKES if card == "thief" else tables.BANDITS_TAKE
        for other in others:
            taken = min(most, new.silver[other])
            new.silver[other] -= taken
            new.silver[player] += taken
    elif card == "robber-baron":
        half = new.mine // 2
        new.mine -= half
        new.silver[player] += half
    elif card == "traitor":
        target = move.target or ""
        require_player(tuple(new.colors), target)
        if target == player:
            raise IllegalMove("the Traitor buys a card from another player, not from yourself")
        if new.cards[target] < 1:
            raise IllegalMove(f"{target} has no card in hand to sell to the Traitor")
        if new.silver[player] < tables.TRAITOR_PRICE:
            raise IllegalMove(f"the Traitor pays {target} {tables.TRAITOR_PRICE} silver, and you have none")
        new.silver[player] -= tables.TRAITOR_PRICE
        new.silver[target] += tables.TRAITOR_PRICE
        new.cards[target] -= 1
        new.cards[player] += 1
    elif card in ("peasant", "prince"):
        kind = "village" if card == "peasant" else "town"
        place = _area_for(new, move.area)
        if new.board.areas[place].kind != "plain":
            raise IllegalMove(f"a new {kind} goes on an empty plain area, and {place} is a "
                              f"{new.board.areas[place].kind}")
        if place in new.settlements:
            raise IllegalMove(f"{place} already has a {new.settlements[place]}; a new {kind} needs "
                              "an empty place")
        if new.castles.get(place):
            raise IllegalMove(f"{place} has a castle; a new {kind} needs an empty place")
        if new.settlements_left(kind) <= 0:
            raise IllegalMove(f"all {tables.SETTLEMENT_SUPPLY[kind]} {kind}s are on the board")
        new.settlements[place] = kind
    elif card == "arsonist":
        place = _area_for(new, move.area)
        if new.settlements.get(place) != "town":
            raise IllegalMove(f"the Arsonist burns a town, and there is no town in {place}")
        del new.settlements[place]
    new.cards[player] -= 1
    new.card_played = True
    return new


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
    new.pending = None
    new.cards[move.player] -= move.cards
    new.mine -= price
    new.silver[move.player] += price
    return new


def _end(state: State) -> State:
    left = len(state.board.spaces) - len(state.revealed)
    if left:
        raise IllegalMove(f"the game ends after the last tile is revealed ({left} still face down)")
    return final_scoring(state)


def final_scoring(state: State) -> State:
    """The state after the mine's evaluation and the final scoring (also the "if it ended now" preview)."""
    new = state.clone()
    new.pending = None
    mine = new.board.mine
    if mine is not None and mine not in new.done:
        evaluate(new, mine)
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
        new.score[p] += sum(lines.values())
    new.final = final
    new.finished = True
    return new


def winners(state: State) -> list[str]:
    """Most points; a tie goes to the most castles built; still tied, a shared win."""
    if not state.finished:
        return []
    best = max(state.score.values())
    tied = [p for p in state.players if state.score[p] == best]
    most = max(state.castles_built[p] for p in tied)
    return [p for p in tied if state.castles_built[p] == most]
