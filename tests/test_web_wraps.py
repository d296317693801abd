"""The phone's figures stay with their words and names stay whole (issue 35, item 12).

The phone's Hungarian Campanile towers wrapped "zászló: / 2" and the statistics broke a name as
"Franzisk/a". Each labelled figure is now one unbreakable piece (``.key``: ``white-space: nowrap``)
and a name in a table breaks only where a word would (``overflow-wrap: break-word``, not
``anywhere``, which lets the table squeeze a name into pieces).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.games.messages import Message
from companion.i18n import render
from web.pages import game_page

ROOT = Path(__file__).resolve().parent.parent
CSS = (ROOT / "web" / "static" / "web.css").read_text(encoding="utf-8")


def _rule(selector: str) -> str:
    found = re.search(rf"(?m)^{re.escape(selector)}\s*\{{([^}}]*)\}}", CSS)
    assert found, selector
    return found.group(1)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_each_towers_labelled_figures_are_kept_whole(lang: str) -> None:
    path = ROOT / "tests" / "data" / "examples" / "campanile-3p.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    html = game_page({**record, "moves": record["moves"][:24]}, game_id=1, lang=lang, token="t")
    kept = re.findall(r'<span class="key">([^<]*)</span>', html)
    for flag in ("4/2", "3/1"):
        said = render(Message("web.campanile.flag", {"flag": flag}), lang)
        assert said in kept, (said, kept)
    assert render(Message("web.campanile.height", {"height": 10}), lang) in kept
    assert "nowrap" in _rule(".key")


def test_a_name_in_a_table_is_not_broken_inside_a_word() -> None:
    rule = _rule(".figures tbody th")
    assert "anywhere" not in rule and "break-all" not in rule


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_round_page_never_says_nothing_was_evaluated_above_the_areas_that_gave_nothing(lang: str) -> None:
    """Issue 35, item 13: "Evaluations (0)… No area has been evaluated yet." stood right above "Areas
    that gave nothing", which listed evaluated areas. Group 1 at move 16: one area evaluated, and it
    gave nothing."""
    path = ROOT / "tests" / "data" / "examples" / "castelli-round.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    html = game_page({**record, "moves": record["moves"][:16]}, game_id=1, lang=lang, token="t")
    nothing = render(Message("web.castelli.not_evaluated"), lang)
    none_yet = render(Message("web.castelli.no_evaluations"), lang)
    zero = render(Message("web.castelli.evaluations", {"count": 0}), lang)
    panels = [panel for panel in html.split('<section class="panel">') if nothing in panel]
    assert panels  # group 1's
    for panel in panels:
        assert none_yet not in panel and zero not in panel, panel
