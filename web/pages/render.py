"""The one Jinja2 environment of the pages, and the links they carry.

Autoescaping is on for every template (a player's name is text, never markup) and an undefined
name is an error, so a template that asks for what its page did not give fails in the tests, not
silently on a phone. Links carry the table's token (``?t=``) and the page's language (``&lang=``),
so a phone that follows one stays signed in and in the language it chose.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlencode

import jinja2
from markupsafe import Markup

from companion.service.names import escaped

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


#: Controls that are only white space to HTML, kept as they are (markup has line breaks between tags).
_WHITESPACE = "\n\r\t"


def shown(value: object) -> object:
    """What a template prints, its invisible and control characters written ``\\uXXXX``.

    HTML escaping makes a name text, but a bidi override (U+202E) or isolate is still obeyed by
    the browser inside text: a name or guild from a store that holds one would reverse what
    follows it on the phone. Every ``{{ ... }}`` passes here first (Jinja's ``finalize``); markup
    the pages built (an SVG map, already escaped) keeps its tags and loses only such characters.
    """
    if isinstance(value, Markup):
        return Markup(escaped(str(value), keep=_WHITESPACE))
    if isinstance(value, str):
        return escaped(value, keep=_WHITESPACE)
    return value


@cache
def environment() -> jinja2.Environment:
    """The templates under ``web/templates``, autoescaped, strict about undefined names, every value
    printed through :func:`shown`."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              finalize=shown)


def link(path: str, token: str, language: str | None = None) -> str:
    """``path`` with the token and the language as its query (``/game/3?t=...&lang=hu``)."""
    query = {"t": token, **({"lang": language} if language else {})}
    return f"{path}?{urlencode(query)}"


def page(template: str, **context: object) -> str:
    """A whole HTML document from ``template`` and ``context``."""
    return environment().get_template(template).render(**context)
