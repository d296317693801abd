"""The pages' words: the language a phone is spoken to in, and message codes put into it.

Every word a page shows comes from the catalogues (``companion/locale/*/web.po`` for the pages' own,
the engines' and the core's for the rest), rendered here in the page's language, never the
process's current one: two phones at one table may read two languages at the same moment.
"""

from __future__ import annotations

from companion.games.messages import Message
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, render, render_for

#: Where the pages' own wording of an engine's code lives: ``web.`` + the code (``web.<game>.now.reveal``
#: says "reveals a tile" where the touchscreen's ``ui.`` words say where to tap).
SURFACE = "web."
#: The longest ``Accept-Language`` header read (a phone sends a few dozen characters).
MAX_HEADER = 500


def languages() -> tuple[str, ...]:
    """The languages the pages speak, the fallback first."""
    return LANGUAGES


def pick_language(accept_language: str | None, chosen: str | None) -> str:
    """The page's language: the switch's choice (``?lang=``) when it is one the pages speak, else the
    phone's first language the pages speak by its ``Accept-Language`` weights, else English.

    A malformed header or weight is read as far as it makes sense and never refused: a phone is
    always answered.
    """
    if chosen and chosen.strip().lower() in LANGUAGES:
        return chosen.strip().lower()
    best: tuple[float, int, str] | None = None
    for order, item in enumerate((accept_language or "")[:MAX_HEADER].split(",")):
        tag, _, params = item.strip().partition(";")
        language = tag.strip().lower().split("-")[0]
        if language not in LANGUAGES:
            continue
        weight = _weight(params)
        if weight > 0 and (best is None or (-weight, order) < (-best[0], best[1])):
            best = (weight, order, language)
    return best[2] if best else DEFAULT_LANGUAGE


def _weight(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value)
            except ValueError:
                return 0.0
            return weight if 0.0 <= weight <= 1.0 else 0.0
    return 1.0


class Words:
    """Message codes in one language: ``words("web.nav.stats")``, ``words.say(message)``."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE

    def __call__(self, code: str, **params: object) -> str:
        return render(Message(code, params), self.language)

    def say(self, message: Message | str) -> str:
        """An engine's message (or a name already in words) in this language."""
        return render(message, self.language) if isinstance(message, Message) else message

    def now(self, message: Message) -> str:
        """An engine's ``what_now`` in the pages' words (``web.`` + its code where the catalogue has it)."""
        return render_for(message, SURFACE, self.language)
