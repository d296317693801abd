"""A championship's standings in words, for the terminal: ``companion championship status`` and the
console's ``status`` while a round is played.

The console loop knows only the session it plays; :func:`round_standings` is what
the appliance hands it to add the standings when that session is a championship's
round (:func:`companion.console.loop.headless_loop`, ``also_status``).
"""

from __future__ import annotations

from companion.console.display import shown_line
from companion.i18n import decimal, text
from companion.service.championship import Championships, ChampionshipStatus
from companion.service.championship_rules import GroupResult
from companion.service.live import LiveGame


def round_standings(championships: Championships, live: LiveGame | None) -> str | None:
    """The standings of the championship ``live`` is a round of (``None``: a game on its own); the
    round is read from ``live`` as it stands, not replayed."""
    if live is None or live.row.championship is None:
        return None
    return format_status(championships.status(live.row.championship, live=live), here=live.id)


def _group_line(group: GroupResult) -> str:
    pair = text("championship.cli.pair", first=group.players[0], second=group.players[1])
    scores = ":".join(str(group.scores.get(p, 0)) for p in group.players)
    if not group.finished:
        return text("championship.cli.group_playing", pair=pair, scores=scores)
    if group.shared:
        return text("championship.cli.group_shared", pair=pair, scores=scores)
    return text("championship.cli.group_won", pair=pair, scores=scores, winner=group.winners[0])


def format_status(status: ChampionshipStatus, here: int | None = None) -> str:
    """The readable ``championship status``: the rounds, the standings, what comes next.

    ``here``: the game the console plays, when it is asked inside it; the round being played is
    then that game, and the console's words are what to type, not another command line."""
    lines = [text("championship.cli.heading", championship=status.id, variant=status.variant,
                  played=len(status.rounds), rounds=status.rounds_total)]
    for played in status.rounds:
        groups = [_group_line(g) for g in played.groups]
        lines.append(text("championship.cli.round", number=played.number, session=played.session_id,
                          first=groups[0], second=groups[1]))
    lines.append(text("championship.cli.standings"))
    width = max(len(s.player) for s in status.standings)
    for standing in status.standings:
        place = "–" if standing.place is None else f"{standing.place}."  # not settled yet: a dash
        lines.append(text("championship.cli.standing", place=place.rjust(3),
                          player=standing.player.ljust(width), played=standing.played, won=standing.won,
                          points=decimal(standing.points),
                          score=standing.score))
    lines.append(_next_line(status, here))
    return "\n".join(shown_line(line) for line in lines)


def _next_line(status: ChampionshipStatus, here: int | None = None) -> str:
    if status.current is not None and status.current.session_id == here and not status.abandoned:
        return text("championship.console.state_playing_here", number=status.current.number)
    if status.abandoned:
        return text("championship.cli.state_abandoned")
    if status.over:
        champions = [s.player for s in status.standings if s.place == 1]
        return text("championship.cli.state_over", champions=champions)
    if status.current is not None:
        return text("championship.cli.state_playing", number=status.current.number,
                    session=status.current.session_id)
    if status.pending is not None:
        return text("championship.cli.state_decide", group=status.pending.group,
                    players=list(status.pending.players))
    return text("championship.cli.state_next", number=len(status.rounds) + 1)
