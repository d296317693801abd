"""A figure kept with the word it counts, wherever a front end breaks a line.

"silver 2", "row 3, column 1", "king 4": a line break between the word and its figure leaves a
bare number at the start of a line ("column / 1"), which reads as something else. The touchscreen
joins them with a no-break space (Kivy breaks only at plain spaces); the OLED's own word wrap
treats them as one word. One rule for both, so they break alike.
"""

from __future__ import annotations

import re

#: Between a word and its figure: Kivy (and a browser) never break a line there.
NO_BREAK = "\u00a0"
#: A figure: a token that starts with a digit or a sign before one ("2", "3/1", "-1", "5,").
_FIGURE = re.compile(r"^[+−-]?\d")
#: A token ending a clause: the figure after it starts something new ("Csaba: 2" stays breakable
#: only where a line must break anyway, after the comma in "3, column").
_CLAUSE_END = (",", ";", ".")


def held(words: list[str]) -> list[str]:
    """``words`` (a line split at spaces) with each figure joined to the word before it by a plain
    space: a word wrap that breaks only between the items it gets keeps them together."""
    joined: list[str] = []
    for word in words:
        if joined and _FIGURE.match(word) and joined[-1] and not joined[-1].endswith(_CLAUSE_END):
            joined[-1] = f"{joined[-1]} {word}"
        else:
            joined.append(word)
    return joined


def keep_figures(text: str) -> str:
    """``text`` with a no-break space between each figure and the word before it (line by line)."""
    return "\n".join(" ".join(item.replace(" ", NO_BREAK) for item in held(line.split(" ")))
                     for line in text.split("\n"))
