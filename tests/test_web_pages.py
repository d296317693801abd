"""The phones' pages (``web.pages``): every page for the three example records (their end, a cut in
the middle where the game has something to show, and the start) in both languages, read as HTML.

One module fixture renders them all once; each test then reads what it checks: well-formed HTML
with no inline script or style (the server's Content-Security-Policy would drop them), nothing
loaded from outside, no message code or placeholder left for a player to read, every player's
badge in the touchscreen's colour with the touchscreen's initials, and the figures the engines give.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from companion.games.castelli.views import evaluation_line
from companion.i18n import LANGUAGES, render
from companion.i18n.leaks import leaks
from companion.service.records import parse_record, replay
from companion.service.stats import PlayerStats
from tests.conftest import EXAMPLES
from ui import theme
from ui.players import SPARE_COLOURS, initials
from ui.players import seat_colours as touchscreen_colours
from web.pages import (
    GameListing,
    error_page,
    game_page,
    index_page,
    landing_page,
    languages,
    pick_language,
    stats_page,
)
from web.pages.svg import PIECE_HEX, text_on

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "tok-EN_12"
BGSTATS = "https://app.bgstatsapp.com/createPlay.html?data=%7B%22x%22:1%7D"
#: Each example with the cuts shown besides its end: a Campanile valuation that ties, a San
#: Gimignano turn where groups may be built (and the rulebook forces one), a Castelli mid-game.
CUTS = {"campanile-3p": (0, 24), "castelli": (0, 9), "san-gimignano": (0, 26)}
#: A Castelli Championship round and a championship's status as a server passes it.
CHAMPIONSHIP = {"variant": 2, "rounds": [{"number": 1}, {"number": 2}], "rounds_total": 3, "standings": [
    {"place": 1, "player": "Anna", "played": 2, "won": 2, "points": 2.0, "score": 17},
    {"place": None, "player": "Csaba", "played": 2, "won": 1, "points": 1.5, "score": 12}]}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(frozen=True)
class Shown:
    """One rendered page: what it is, its language, the record it shows (``None``: not a game)."""

    name: str
    language: str
    html: str
    record: dict[str, Any] | None = None


class Reader(HTMLParser):
    """Reads a page strictly: every element closed in order (void ones excepted), and collects the
    text a player reads, the attributes, the scripts and the links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.text: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []
        self.scripts: list[dict[str, str | None]] = []
        self.script_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attributes(tag, attrs)
        if tag == "script":
            self.scripts.append(dict(attrs))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attributes(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.open[-1] if self.open else 'nothing'}>")
            return
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "script":
            self.script_text.append(data)
        elif data.strip():
            self.text.append(data.strip())

    def _attributes(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            self.attributes.append((tag, name, value or ""))
            if name in ("aria-label", "title", "alt"):
                self.text.append(value or "")


def read(html: str) -> Reader:
    reader = Reader()
    reader.feed(html)
    reader.close()
    return reader


def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _cut(record: dict[str, Any], moves: int) -> dict[str, Any]:
    return {**record, "moves": record["moves"][:moves]}


def _pages() -> Iterator[Shown]:
    listings = [
        GameListing(7, "castelli", ("Anna", "Bela"), datetime(2026, 11, 30, 20, 5),
                    datetime(2026, 11, 30, 21, 0), True, {"Anna": "red", "Bela": "blue"}, ("Anna",)),
        GameListing(8, "campanile", ("Albert", "Birgit", "Franziska"), datetime(2026, 12, 1, 20, 0)),
        GameListing(6, "san-gimignano", ("Ada", "Bo"), datetime(2026, 11, 29, 19, 0)),
    ]
    stats = [PlayerStats("campanile", "Albert", 3, 2, 17.333, 21),
             PlayerStats("campanile", "Birgit", 3, 1, 12.5, 14),
             PlayerStats("castelli", "Anna", 1, 1, 8.0, 8)]
    for language in LANGUAGES:
        yield Shown("landing", language, landing_page(language))
        for status in (403, 404, 429, 500, 418):
            yield Shown(f"error-{status}", language, error_page(language, status))
        yield Shown("index", language, index_page(listings, language, TOKEN))
        yield Shown("index-empty", language, index_page([], language, TOKEN))
        yield Shown("stats", language, stats_page(stats, language, TOKEN))
        yield Shown("stats-empty", language, stats_page([], language, TOKEN))
        for name, cuts in CUTS.items():
            whole = _record(name)
            yield Shown(f"{name}-end", language, game_page(whole, game_id=3, lang=language, token=TOKEN,
                                                            bgstats_link=BGSTATS), whole)
            for moves in cuts:
                cut = _cut(whole, moves)
                yield Shown(f"{name}-{moves}", language, game_page(cut, game_id=4, lang=language, token=TOKEN,
                                                                    bgstats_link=BGSTATS), cut)
        whole = _record("castelli-round")
        for label, cut in (("end", whole), ("mid", _cut(whole, len(whole["moves"]) // 2))):
            yield Shown(f"round-{label}", language, game_page(cut, game_id=8, lang=language, token=TOKEN,
                                                              championship=CHAMPIONSHIP), cut)


@pytest.fixture(scope="module")
def pages() -> list[Shown]:
    return list(_pages())


def test_every_page_is_well_formed_html_in_its_language_with_no_inline_script_or_style(pages) -> None:
    assert len(pages) == 2 * (1 + 5 + 4 + 9 + 2)
    for shown in pages:
        reader = read(shown.html)
        where = f"{shown.name} ({shown.language})"
        assert shown.html.startswith("<!doctype html>"), where
        assert not reader.problems and not reader.open, (where, reader.problems, reader.open)
        assert ("html", "lang", shown.language) in reader.attributes, where
        assert not [a for a in reader.attributes if a[1] == "style" or a[1].startswith("on")], where
        assert not "".join(reader.script_text).strip(), where
        assert all(script.get("src") == "/static/live.js" for script in reader.scripts), where
        assert "<style" not in shown.html, where


def test_nothing_is_loaded_from_outside_and_links_carry_the_token_and_the_language(pages) -> None:
    for shown in pages:
        reader = read(shown.html)
        loads = [value for tag, name, value in reader.attributes
                 if name == "src" or (tag == "link" and name == "href")]
        assert loads and all(value.startswith("/static/") for value in loads), (shown.name, loads)
        links = [value for tag, name, value in reader.attributes if tag == "a" and name == "href"]
        for href in links:
            if href == BGSTATS:
                continue  # the one way out: a link a player taps to open BG Stats, never loaded by the page
            assert href.startswith("/") and f"t={TOKEN}" in href, (shown.name, href)
        if shown.name in ("landing",) or shown.name.startswith("error"):
            assert not links and "data-token" not in shown.html, shown.name
            continue
        other = next(lang for lang in LANGUAGES if lang != shown.language)
        assert any(f"lang={other}" in href for href in links), shown.name  # the switch
        assert ("body", "data-token", TOKEN) in reader.attributes, shown.name


def test_no_message_code_placeholder_or_internal_id_reaches_a_player(pages) -> None:
    for shown in pages:
        text = "\n".join(read(shown.html).text)
        assert not leaks(text, shown.language), (shown.name, shown.language, leaks(text, shown.language))
        assert "web." not in text, shown.name


def _expected_badges(record: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Each player's colour and initials as the touchscreen gives them (ui.players)."""
    players = record["players"]
    colours = touchscreen_colours(record["game"], players, (record.get("setup") or {}).get("colors"))
    spare = [c for c in SPARE_COLOURS if c not in colours.values()]
    colours = {p: colours[p] or spare.pop(0) for p in players}
    tags = initials(players)
    return {p: (str(colours[p]), tags[p]) for p in players}


def test_every_game_page_shows_every_player_in_the_touchscreens_colour_and_initials(pages) -> None:
    for shown in (s for s in pages if s.record is not None):
        assert shown.record is not None
        for player, (colour, tag) in _expected_badges(shown.record).items():
            assert f'<span class="badge pc-{colour}">{tag}</span>' in shown.html, (shown.name, player)
            assert player in shown.html


def _game_page(pages: list[Shown], name: str, language: str = "en") -> str:
    return next(s.html for s in pages if s.name == name and s.language == language)


def test_the_turn_strip_says_who_acts_and_what_now_in_the_pages_words_or_who_won(pages) -> None:
    text = " ".join(read(_game_page(pages, "campanile-3p-0")).text)
    assert "Albert Builds one, two or three stories on a tower." in text
    assert "Tap" not in text  # the touchscreen's words speak of taps; a phone only watches
    hungarian = " ".join(read(_game_page(pages, "campanile-3p-0", "hu")).text)
    assert "Albert Egy, két vagy három emeletet épít egy toronyra." in hungarian
    over = " ".join(read(_game_page(pages, "campanile-3p-end")).text)
    assert "Albert wins with 21 points. The game is over." in over
    assert "Bo Places a token." in " ".join(read(_game_page(pages, "san-gimignano-end")).text)


def test_the_last_moves_are_the_notation_newest_first(pages) -> None:
    record = _record("campanile-3p")
    parsed = parse_record(record)
    states = replay(parsed.game, parsed.initial, parsed.moves)
    for language in LANGUAGES:
        html = _game_page(pages, "campanile-3p-end", language)
        said = [parsed.game.describe(states[i], move, language) for i, move in enumerate(record["moves"])]
        items = re.findall(r'<li value="(\d+)">(.*?)</li>', html, re.S)
        assert [int(number) for number, _ in items] == list(range(len(said), len(said) - 12, -1))
        assert all(said[int(n) - 1] in read(body).text[-1] for n, body in items)


def test_campanile_shows_the_towers_and_what_each_valuation_would_give_now_with_the_ties(pages) -> None:
    from companion.games.campanile.views import preview, standings

    record = _cut(_record("campanile-3p"), 24)
    parsed = parse_record(record)
    state = replay(parsed.game, parsed.initial, parsed.moves)[-1]
    html = _game_page(pages, "campanile-3p-24")
    text = " ".join(read(html).text)
    for standing in standings(state):
        assert f"rank {standing.rank} · height {standing.height}" in text
    phases = ["intermezzo", "finito"] if state.phase == "opening" else ["finito"]
    for phase in phases:
        heading = f"If the {phase.capitalize()} came now"
        assert heading in text
        totals: dict[str, int] = dict.fromkeys(state.players, 0)
        ties = []
        for result in preview(state, phase):
            for award in result.awards:
                totals[award.player] += award.points
            ties += [render(m, "en") for m in result.explanation
                     if m.code.startswith("campanile.explain.tie")]
        section = text.split(heading)[1]
        for player, points in totals.items():
            assert f"{player} {points} point" in section
        assert ties and all(tie in section for tie in ties)
    assert "If the" not in " ".join(read(_game_page(pages, "campanile-3p-end")).text)


def test_castelli_shows_every_players_figures_every_evaluation_explained_and_the_board(pages) -> None:
    record = _record("castelli")
    parsed = parse_record(record)
    state = replay(parsed.game, parsed.initial, parsed.moves)[-1]
    for language in LANGUAGES:
        html = _game_page(pages, "castelli-end", language)
        text = " ".join(read(html).text)
        for evaluation in state.evaluations:
            line = evaluation_line(state.board, evaluation.area, evaluation.explanation)
            assert render(line, language) in text
        for player in state.players:
            line = re.search(rf'{player}</span></span> <span class="score">(\d+)</span></p>\s*'
                             r'<p class="figures-line">(.*?)</p>', html, re.S)
            assert line is not None, player
            figures = [int(n) for n in re.findall(r"<strong>(\d+)</strong>", line.group(2))]
            assert [int(line.group(1)), *figures] == [state.score[player], *state.resources[player],
                                                      state.silver[player], state.cards[player],
                                                      state.castles_built[player]], player
        board = re.search(r'<svg class="board".*?</svg>', html, re.S)
        assert board is not None
        drawn = board.group(0)
        assert drawn.count("<polygon") >= len(state.board.areas) + 4 * len(state.revealed)
        assert drawn.count('fill="#1b2f4a"') == len(state.board.spaces) - len(state.revealed)
        frame_sides = sum(side.startswith("frame:") for space in state.board.spaces.values()
                          for side in space.sides)
        assert len(re.findall(r'<rect [^>]*(?:width|height)="7\.0"', drawn)) == frame_sides > 0
    mid = _game_page(pages, "castelli-9")
    assert "If the final scoring came now" in " ".join(read(mid).text)


def test_san_gimignano_shows_the_map_and_every_group_each_player_could_build_on(pages) -> None:
    from companion.games.san_gimignano.geometry import space_name

    record = _cut(_record("san-gimignano"), 26)
    parsed = parse_record(record)
    state = replay(parsed.game, parsed.initial, parsed.moves)[-1]
    summary = parsed.game.summary(state)
    assert any(summary["buildable"].values())
    for language in LANGUAGES:
        html = _game_page(pages, "san-gimignano-26", language)
        text = "\n".join(read(html).text)
        for groups in summary["buildable"].values():
            for group in groups:
                named = [render(space_name(tuple(s), list(state.segments)), language) for s in group]
                assert ", ".join(named) in text
        drawn = re.search(r'<svg class="board natural".*?</svg>', html, re.S)
        assert drawn is not None
        ringed = {tuple(s) for groups in summary["buildable"].values() for group in groups for s in group}
        assert drawn.group(0).count("<polygon") == 3 * len(state.segments) + 2 * len(ringed)
        assert drawn.group(0).count('stroke="#ffd978"') == len(ringed)
    assert "Must build this turn" in " ".join(read(_game_page(pages, "san-gimignano-26")).text)


def test_a_finished_game_shows_the_bgstats_code_and_an_unfinished_one_does_not(pages) -> None:
    finished = _game_page(pages, "castelli-end")
    assert finished.count('<svg viewBox="0 0') == 1 and 'class="qr"' in finished
    assert f'href="{BGSTATS}"' in finished.replace("&amp;", "&")
    assert 'class="qr"' not in _game_page(pages, "castelli-9")
    assert 'class="qr"' not in game_page(_record("castelli"), game_id=3, lang="en", token=TOKEN)
    other = BGSTATS.replace("1", "2")
    two = game_page(_record("castelli"), game_id=3, lang="en", token=TOKEN, bgstats_link=[BGSTATS, other])
    assert two.count('class="qr"') == 2 and "<h3>Group 1</h3>" in two and "<h3>Group 2</h3>" in two
    assert f'href="{other}"' in two.replace("&amp;", "&")


def test_a_finished_game_charts_every_players_score_move_by_move_as_the_statistics_do(pages) -> None:
    from web.pages.game import progression

    for name in CUTS:
        record = _record(name)
        parsed = parse_record(record)
        states = replay(parsed.game, parsed.initial, parsed.moves)
        series = progression(parsed.game, states, parsed.players)
        assert all(len(values) == len(record["moves"]) + 1 and values[0] == 0 for values in series.values())
        final = {s.player: s.score for s in parsed.game.outcome(states[-1]).standings}
        assert {player: values[-1] for player, values in series.items()} == final
        html = _game_page(pages, f"{name}-end")
        if parsed.game.is_finished(states[-1]):
            assert html.count("<polyline") == 2 * len(parsed.players), name
            assert "Scores move by move" in html
        else:
            assert "<polyline" not in html, name
        assert "<polyline" not in _game_page(pages, f"{name}-{CUTS[name][1]}")


def test_a_championship_round_shows_each_groups_turn_and_game_and_the_championships_standings(pages) -> None:
    from companion.i18n import render_for

    record = _record("castelli-round")
    parsed = parse_record(record)
    game: Any = parsed.game
    for label, cut in (("end", record), ("mid", _cut(record, len(record["moves"]) // 2))):
        state = replay(parsed.game, parsed.initial, parse_record(cut).moves)[-1]
        for language in LANGUAGES:
            html = _game_page(pages, f"round-{label}", language)
            text = " ".join(read(html).text)
            groups = [game.group_state(state, group) for group in (1, 2)]
            assert html.count('<svg class="board"') == 2 + game.is_finished(state)  # the chart at the end
            for number, group in enumerate(groups, 1):
                for evaluation in group.evaluations:
                    line = evaluation_line(group.board, evaluation.area, evaluation.explanation)
                    assert render(line, language) in text
                now = game.group_what_now(state, number)
                if now is not None:
                    assert render_for(now, "web.", language) in text
                for player in group.players:
                    score = rf'{player}</span></span> <span class="score">{group.score[player]}</span>'
                    assert re.search(score, html), player
            strips = re.findall(r'<section class="strip.*?</section>', html, re.S)
            assert len(strips) == 2, (label, language)
            for number, (group, said) in enumerate(zip(groups, strips, strict=True), 1):
                outcome = parsed.game.outcome(group)
                if game.is_finished(group):  # each group's own winner, never one shared win of the two
                    assert outcome.winners and all(winner in said for winner in outcome.winners)
                    assert str(outcome.standings[0].score) in said
                else:
                    assert not outcome.winners and game.group_what_now(state, number) is not None
            assert ("Round 2 of 3" if language == "en" else "2. forduló (3 közül)") in text
            assert ("1.5" if language == "en" else "1,5") in text


def test_a_championships_standings_are_shown_from_its_status_as_a_mapping_or_an_object() -> None:
    from types import SimpleNamespace

    record = _record("castelli")
    as_object = SimpleNamespace(rounds=(1, 2), rounds_total=3, standings=tuple(
        SimpleNamespace(**row) for row in CHAMPIONSHIP["standings"]))
    said = (("en", "Round 2 of 3", "1.5"), ("hu", "2. forduló (3 közül)", "1,5"))
    row = r"<tr><th scope=\"row\">(.*?)</th><td>(\d+)</td><td>(\d+)</td><td>(.*?)</td></tr>"
    for language, round_words, points in said:
        for status in (CHAMPIONSHIP, as_object):
            html = game_page(record, game_id=5, lang=language, token=TOKEN, championship=status)
            text = " ".join(read(html).text)
            assert round_words in text
            rows = re.findall(row, html)
            assert [(read(name).text, played, won, shown) for name, played, won, shown in rows] == [
                (["1.", "An", "Anna"], "2", "2", "2"), (["Cs", "Csaba"], "2", "1", points)]
    assert "<table" not in game_page(record, game_id=5, lang="en", token=TOKEN)


def test_index_lists_the_game_in_progress_first_then_the_finished_ones_and_stats_the_figures(pages) -> None:
    text = " ".join(read(_game_page(pages, "index")).text)
    assert text.index("In progress") < text.index("Campanile") < text.index("Other unfinished games") \
        < text.index("San Gimignano") < text.index("Finished games") < text.index("Castelli")
    assert '<span class="badge pc-red">An</span>' in _game_page(pages, "index")
    stats = " ".join(read(_game_page(pages, "stats", "hu")).text)
    assert "Albert 3 2 17,3 21" in stats and "Birgit 3 1 12,5 14" in stats
    assert "No game has finished yet." in " ".join(read(_game_page(pages, "stats-empty")).text)


def test_a_record_that_does_not_replay_is_one_line_on_a_plain_page() -> None:
    record = _record("campanile-3p")
    broken = {**record, "moves": [*record["moves"][:3], {"type": "build", "player": "Nobody", "tower": "red",
                                                         "stories": 2}]}
    for language in LANGUAGES:
        html = game_page(broken, game_id=9, lang=language, token=TOKEN)
        reader = read(html)
        assert not reader.problems
        text = " ".join(reader.text)
        assert "4" in text and "Nobody" in text and not leaks(text, language)
    assert "records.format" not in game_page({"format": "x"}, game_id=9, lang="en", token=TOKEN)


@pytest.mark.parametrize(("header", "chosen", "expected"), [
    (None, None, "en"),
    ("hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7", None, "hu"),
    ("de-DE,de;q=0.9,en;q=0.5,hu;q=0.8", None, "hu"),
    ("en;q=0.2, hu;q=0.1", None, "en"),
    ("hu;q=0, en;q=0.1", None, "en"),
    ("hu;q=nonsense, en", None, "en"),
    ("fr, de", None, "en"),
    ("hu", "en", "en"),
    ("en", "HU", "hu"),
    ("en", "xx", "en"),
    (";;;,,,q=", None, "en"),
])
def test_the_language_is_the_switchs_then_the_phones_then_english(header, chosen, expected) -> None:
    assert pick_language(header, chosen) == expected
    assert languages() == LANGUAGES


def test_the_pages_guild_colours_are_the_touchscreens_for_the_default_setting() -> None:
    from companion.games.san_gimignano.descriptor import DESCRIPTOR, GUILD_COLOURS
    from ui.games.san_gimignano.widgets import guild_colours as touchscreen
    from web.pages.games.san_gimignano import guild_colours as page

    default = next(setting.default for setting in DESCRIPTOR.settings if setting.key == GUILD_COLOURS)
    guilds = ["guild-1", "guild-2", "guild-3", "guild-4"]
    assert {guild: theme.rgb(code) for guild, code in page(guilds).items()} == touchscreen(guilds, default)


def test_the_pages_colours_are_the_touchscreens() -> None:
    css = (ROOT / "web" / "static" / "web.css").read_text(encoding="utf-8")
    assert {name: theme.rgb(code) for name, code in PIECE_HEX.items()} == theme.PIECE_COLOURS
    for name, code in PIECE_HEX.items():
        ink = "#12161c" if theme.text_on(theme.piece_colour(name)) == theme.ON_ACCENT else "#f2f4f7"
        assert text_on(code) == ink
        assert f".pc-{name} {{ background: {code}; color: {ink}; }}" in css, name
    for variable, colour in (("background", theme.BACKGROUND), ("surface", theme.SURFACE),
                             ("text", theme.TEXT), ("quiet", theme.TEXT_QUIET), ("accent", theme.ACCENT)):
        found = re.search(rf"--{variable}: (#[0-9a-f]{{6}});", css)
        assert found is not None and theme.rgb(found.group(1)) == colour, variable
    sizes = [float(size) for size in re.findall(r"font-size: ([0-9.]+)rem", css)]
    assert re.search(r"html \{ font-size: 18px;", css) and min(sizes) * 18 >= 16


def test_live_js_listens_with_the_token_and_swaps_only_main() -> None:
    script = (ROOT / "web" / "static" / "live.js").read_text(encoding="utf-8")
    assert 'new EventSource("/events?t=" + encodeURIComponent(token))' in script
    assert 'addEventListener("change", refresh)' in script and 'querySelector("main")' in script
    assert "eval(" not in script and "http" not in script.replace("window.location.href", "")


def test_the_pages_import_the_core_and_their_template_libraries_only() -> None:
    """``web`` stands beside ``ui`` and ``hardware`` (docs/architecture.md): the pages import the
    core (never its command line), Jinja2 and MarkupSafe, and the standard library."""
    import ast
    import sys

    allowed = {"companion", "web", "jinja2", "markupsafe", *sys.stdlib_module_names}
    found: set[str] = set()
    for path in (ROOT / "web" / "pages").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module)
    assert "companion.service.records" in found and "jinja2" in found  # the walk sees the imports
    assert not {name for name in found if name.split(".")[0] not in allowed}
    assert not {name for name in found if name.startswith("companion.cli")}
