"""Throw-away stand-ins for :mod:`web.pages` (the pages' contents, written on another branch).

Same signatures as the contract in ``docs/web.md``; deleted when the real pages land.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class GameListing:
    id: int
    game: str
    players: tuple[str, ...]
    started: datetime
    ended: datetime | None
    finished: bool


def languages() -> tuple[str, ...]:
    return ("en", "hu")


def pick_language(accept_language: str | None, chosen: str | None) -> str:
    if chosen in languages():
        return str(chosen)
    return "hu" if accept_language and accept_language.lower().startswith("hu") else "en"


def _document(body: str, lang: str) -> str:
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>companion</title>'
            f'<link rel="stylesheet" href="/static/style.css"></head><body><main>{body}</main></body></html>')


def landing_page(lang: str) -> str:
    return _document("<p>Scan the code on the table.</p>", lang)


def error_page(lang: str, status: int) -> str:
    return _document(f"<p>{status}</p>", lang)


def index_page(games: list[GameListing], lang: str, token: str) -> str:
    items = "".join(f'<li><a href="/game/{g.id}?t={token}">{html.escape(g.game)}: '
                    f'{html.escape(", ".join(g.players))}</a></li>' for g in games)
    return _document(f"<ul>{items}</ul>", lang)


def game_page(record: dict[str, Any], *, game_id: int, lang: str, token: str,
              championship: dict[str, Any] | None = None) -> str:
    return _document(f"<p>{html.escape(record['game'])} {game_id}: {len(record.get('moves', []))} "
                     f"moves</p>", lang)


def stats_page(stats: Any, lang: str, token: str) -> str:
    return _document(f"<p>{len(stats)}</p>", lang)
