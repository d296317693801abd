"""The Campanile rules: which moves are legal, and what they do to the state.

Each refusal names the rule it breaks as a message code with its parameters
(``campanile.marker.none_left`` with the stories and the player); the
catalogues put it into a player's words. ``apply_move`` builds a new
state from the old one and never changes the old one, so undo is simply
keeping the previous state.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.games.base import IllegalMove, require_player
from companion.games.campanile import tables
from companion.games.campanile.moves import Build, Influence, Relocate, Reveal, Take, Valuation
from companion.games.campanile.state import CampanileState, Group, Turn, ValuationResult
from companion.games.campanile.valuation import value_towers
from companion.games.campanile.words import tower as tower_word
from companion.games.campanile.words import towers as tower_words
from companion.games.messages import Message, msg


def apply_move(state: CampanileState, move: object) -> CampanileState:
    """The state after ``move``; :class:`IllegalMove` in a player's words when the rules refuse it."""
    if state.phase == "finished":
        raise IllegalMove(msg("campanile.game.over"))
    match move:
        case Build():
            return _build(state, move)
        case Influence():
            return _influence(state, move)
        case Relocate():
            return _relocate(state, move)
        case Take():
            return _take(state, move)
        case Reveal():
            return _reveal(state, move)
        case Valuation():
            return _valuation(state, move)
    raise IllegalMove(msg("campanile.move.unknown", move=repr(move)))


def winners(state: CampanileState) -> list[str]:
    """Most points; tied players compare their single highest chip; still tied → shared."""
    scores = state.scores
    best = max(scores.values())
    tied = [p for p in state.players if scores[p] == best]
    if len(tied) > 1:
        top_chip = {p: max(state.chips[state.player_index(p)], default=0) for p in tied}
        highest = max(top_chip.values())
        tied = [p for p in tied if top_chip[p] == highest]
    return tied


def win_reason(state: CampanileState) -> Message:
    """Why the winners of a finished game won: most points, the highest chip among those tied, or shared."""
    scores = state.scores
    best = max(scores.values())
    tied = [p for p in state.players if scores[p] == best]
    found = winners(state)
    chip = max(state.chips[state.player_index(found[0])], default=0)
    if len(tied) == 1:
        return msg("campanile.outcome.points", player=found[0], points=best)
    if len(found) == 1:
        return msg("campanile.outcome.highest_chip", player=found[0], tied=tied, points=best, chip=chip)
    return msg("campanile.outcome.shared", players=found, points=best, chip=chip)


# -- rule helpers -----------------------------------------------------------
def turn_complete(state: CampanileState, turn: Turn) -> bool:
    """With a tracked display: the card was taken and the display is full again."""
    return turn.card_taken and len(state.display) == tables.DISPLAY_SIZE


def _tower(state: CampanileState, name: str) -> int:
    try:
        return state.rules.tower_index(name)
    except ValueError:
        raise IllegalMove(msg("campanile.tower.unknown", tower=name,
                              towers=tower_words(state.rules.towers))) from None


def _own_turn(state: CampanileState, player: str, doing: Message) -> Turn:
    """The turn in progress, checked to be ``player``'s and not yet ended (``doing``: the move, in words)."""
    turn = state.turn
    require_player(state.players, player)
    if turn is None or turn.ended:
        expected = state.players[0] if turn is None else state.players[(turn.player + 1) % len(state.players)]
        raise IllegalMove(msg("campanile.turn.build_first", player=expected, doing=doing))
    if state.players[turn.player] != player:
        raise IllegalMove(msg("campanile.turn.not_yours", current=state.players[turn.player], player=player))
    return turn


def _check_display(state: CampanileState, tower: str) -> None:
    if state.rules.tracks_display and tower not in state.display:
        raise IllegalMove(msg("campanile.marker.not_in_display", tower=tower_word(tower),
                              display=_display(state)))


def _display(state: CampanileState) -> list[Message | str] | Message:
    """The face-up cards for a message (a list the catalogue joins), or the words for none."""
    return tower_words(state.display) if state.display else msg("campanile.display.empty")


def _build(state: CampanileState, move: Build) -> CampanileState:
    players = state.players
    require_player(players, move.player)
    turn = state.turn
    if turn is None:
        expected = players[0]
    else:
        current = players[turn.player]
        if state.rules.tracks_display and not turn_complete(state, turn):
            if move.player == current and not turn.ended:
                raise IllegalMove(msg("campanile.build.already", player=current))
            if not turn.card_taken:
                raise IllegalMove(msg("campanile.build.take_first", player=current))
            raise IllegalMove(msg("campanile.build.refill_first"))
        expected = players[(turn.player + 1) % len(players)]
        if move.player == current and not turn.ended and move.player != expected:
            raise IllegalMove(msg("campanile.build.already_next", player=current, next=expected))
    if move.player != expected:
        raise IllegalMove(msg("campanile.build.not_yours", current=expected, player=move.player))
    tower = _tower(state, move.tower)
    heights = list(state.heights)
    heights[tower] += move.stories
    return state.with_(heights=tuple(heights), turn=Turn(players.index(move.player), move.stories))


def _check_marker_step(state: CampanileState, turn: Turn, player: str) -> None:
    if turn.marker_placed:
        raise IllegalMove(msg("campanile.marker.already", player=player))
    if turn.card_taken:
        raise IllegalMove(msg("campanile.marker.after_take"))


def _influence(state: CampanileState, move: Influence) -> CampanileState:
    turn = _own_turn(state, move.player, msg("campanile.doing.marker"))
    _check_marker_step(state, turn, move.player)
    tower = _tower(state, move.tower)
    value = turn.stories
    p = state.player_index(move.player)
    left = list(state.markers_left[p])
    if left[value - 1] == 0:
        raise IllegalMove(msg("campanile.marker.none_left", stories=value, player=move.player))
    _check_display(state, move.tower)
    left[value - 1] -= 1
    markers_left = list(state.markers_left)
    markers_left[p] = tuple(left)  # type: ignore[assignment]
    stacks = list(state.stacks)
    stacks[tower] = _add_marker(stacks[tower], move.player, value)
    return state.with_(stacks=tuple(stacks), markers_left=tuple(markers_left),
                       turn=_replace_turn(turn, marker_placed=True))


def _add_marker(stack: tuple[Group, ...], player: str, value: int) -> tuple[Group, ...]:
    """The stack with ``value`` added to ``player``'s group (a new group at the end if none)."""
    for index, group in enumerate(stack):
        if group.player == player:
            return (*stack[:index], Group(player, (*group.markers, value)), *stack[index + 1:])
    return (*stack, Group(player, (value,)))


def _remove_marker(stack: tuple[Group, ...], player: str, value: int) -> tuple[Group, ...] | None:
    """The stack without ``player``'s last-placed marker of ``value``; ``None`` if there is none."""
    for index, group in enumerate(stack):
        if group.player != player or value not in group.markers:
            continue
        markers = list(group.markers)
        markers.reverse()
        markers.remove(value)
        markers.reverse()
        if not markers:
            return (*stack[:index], *stack[index + 1:])
        return (*stack[:index], Group(player, tuple(markers)), *stack[index + 1:])
    return None


def _relocate(state: CampanileState, move: Relocate) -> CampanileState:
    if not state.rules.two_player_move:
        raise IllegalMove(msg("campanile.relocate.not_in_game"))
    turn = _own_turn(state, move.player, msg("campanile.doing.relocate"))
    _check_marker_step(state, turn, move.player)
    if turn.stories != tables.RELOCATE_STORIES:
        raise IllegalMove(msg("campanile.relocate.stories", needed=tables.RELOCATE_STORIES,
                              stories=turn.stories))
    source, target = _tower(state, move.source), _tower(state, move.target)
    if source == target:
        raise IllegalMove(msg("campanile.relocate.same_tower"))
    stacks = list(state.stacks)
    reduced = _remove_marker(stacks[source], move.player, tables.RELOCATE_STORIES)
    if reduced is None:
        raise IllegalMove(msg("campanile.relocate.no_marker", player=move.player,
                              value=tables.RELOCATE_STORIES, tower=tower_word(move.source)))
    _check_display(state, move.target)
    stacks[source] = reduced
    stacks[target] = _add_marker(stacks[target], move.player, tables.RELOCATE_STORIES)
    return state.with_(stacks=tuple(stacks), turn=_replace_turn(turn, marker_placed=True))


def _require_display(state: CampanileState) -> None:
    if not state.rules.tracks_display:
        raise IllegalMove(msg("campanile.display.not_tracked"))


def _take(state: CampanileState, move: Take) -> CampanileState:
    _require_display(state)
    turn = _own_turn(state, move.player, msg("campanile.doing.take"))
    if turn.card_taken:
        raise IllegalMove(msg("campanile.take.already", player=move.player))
    if move.card not in state.display:
        raise IllegalMove(msg("campanile.take.not_face_up", card=tower_word(move.card),
                              display=_display(state)))
    display = list(state.display)
    display.remove(move.card)
    return state.with_(display=tuple(display), turn=_replace_turn(turn, card_taken=True))


def _reveal(state: CampanileState, move: Reveal) -> CampanileState:
    _require_display(state)
    if move.card not in state.rules.towers:
        raise IllegalMove(msg("campanile.reveal.not_a_style", card=move.card,
                              towers=tower_words(state.rules.towers)))
    turn = state.turn
    if turn is None or not turn.card_taken or len(state.display) >= tables.DISPLAY_SIZE:
        raise IllegalMove(msg("campanile.reveal.not_now"))
    return state.with_(display=(*state.display, move.card))


def _valuation(state: CampanileState, move: Valuation) -> CampanileState:
    if move.phase == "intermezzo" and state.phase != "opening":
        raise IllegalMove(msg("campanile.valuation.intermezzo_done"))
    turn = state.turn
    # A turn ended by the Intermezzo still admits the Finito: it may be the very card
    # turned over for the refill that follows the Intermezzo (records.md, Campanile).
    if turn is None:
        raise IllegalMove(msg("campanile.valuation.before_build"))
    if state.rules.tracks_display and (not turn.card_taken or len(state.display) >= tables.DISPLAY_SIZE):
        raise IllegalMove(msg("campanile.valuation.in_place_of_refill"))
    rules = state.rules
    flags = rules.intermezzo_flags if move.phase == "intermezzo" else rules.finito_flags
    results = value_towers(rules.towers, state.heights, state.stacks, flags)
    chips = [list(c) for c in state.chips]
    supply = Counter(dict(state.chip_supply))
    for result in results:
        for award in result.awards:
            if state.chip_supply:
                if supply[award.points] <= 0:  # cannot happen with the rulebook's flags
                    raise IllegalMove(msg("campanile.valuation.no_chip", points=award.points))
                supply[award.points] -= 1
            chips[state.player_index(award.player)].append(award.points)
    phase = "finished" if move.phase == "finito" else "after-intermezzo"
    return state.with_(
        chips=tuple(tuple(c) for c in chips),
        chip_supply=tuple(sorted(supply.items())) if state.chip_supply else (),
        valuations=(*state.valuations, ValuationResult(move.phase, results)),
        phase=phase,
        turn=_replace_turn(turn, ended=True),
    )


def _replace_turn(turn: Turn, **changes: bool) -> Turn:
    return replace(turn, **changes)
