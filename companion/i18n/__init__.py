"""The catalogues: every word a player reads, in English and Hungarian.

Two kinds of catalogue, both gettext ``.po`` files under ``companion/locale``:

- the **message catalogues** (one set per language, English included) map a
  **message code** to its text. They are split by area so that each is small
  and owned by one part of the code: ``messages.po`` (the core and the CLI),
  one ``<game>.po`` per game, ``hardware.po``, ``ui.po`` …; every ``.po``
  of a language except ``argparse.po`` belongs to
  one merged catalogue, and a code is defined in exactly one file. They
  give a code its text: engines and the core return codes with parameters
  (:class:`~companion.games.messages.Message`), and :func:`render` puts them
  into words with ``str.format`` placeholders (``{player}``). A message with
  a plural form chooses it by its ``count`` parameter, through the
  catalogue's own ``Plural-Forms`` rule, never by string concatenation.
- ``argparse.po`` (Hungarian only) translates argparse's own texts ("usage:",
  "the following arguments are required"), gettext-style: their English text
  is the ``msgid``, since argparse asks gettext for them by that text.

The language is chosen by :func:`choose_language`. Catalogues are read on
first use and kept (see :mod:`companion.i18n.po` for why ``.po`` is read
directly).
"""

from __future__ import annotations

import argparse
import gettext
import re
import string
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import registry
from companion.games.descriptor import GameDescriptor
from companion.games.messages import Alternatives, Message, Words, install_renderer

if TYPE_CHECKING:
    from companion.i18n.po import PoEntry

#: The languages with catalogues, English first (the fallback).
LANGUAGES = ("en", "hu")
DEFAULT_LANGUAGE = "en"
#: The environment variable that chooses the language (after ``--lang``).
LANGUAGE_VARIABLE = "COMPANION_LANG"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


class LanguageError(ValueError):
    """A language the companion has no catalogue for; the message names where it came from."""


class Catalogue(gettext.NullTranslations):
    """One ``.po`` file as gettext translations (``gettext``, ``ngettext``, ``pgettext`` ...).

    An entry that is missing, fuzzy or empty falls back to the ``msgid``, as
    gettext does; :meth:`lookup` tells whether there is a real translation.
    """

    def __init__(self, entries: list[PoEntry], plural_rule: str = "n != 1") -> None:
        super().__init__()
        self._plural: Callable[[int], int] = gettext.c2py(plural_rule)
        self._entries: dict[tuple[str | None, str], PoEntry] = {
            entry.key: entry for entry in entries
            if not entry.fuzzy and entry.msgid and any(entry.msgstr.values())}

    @classmethod
    def load(cls, *paths: Path) -> Catalogue:
        """One catalogue from one or more ``.po`` files of the same language (the first one's
        ``Plural-Forms`` rule applies to all)."""
        from companion.i18n.po import header_fields, read_po  # read only when a text is needed

        entries: list[PoEntry] = []
        rule = ""
        for path in paths:
            read = read_po(path)
            rule = rule or header_fields(read).get("Plural-Forms", "")
            entries.extend(read)
        _, _, expression = rule.partition("plural=")
        return cls(entries, expression.rstrip(";").strip() or "n != 1")

    def lookup(self, msgid: str, context: str | None = None, count: int | None = None) -> str | None:
        """The translation of ``msgid`` (the plural form for ``count``), or ``None`` when there is none."""
        entry = self._entries.get((context, msgid))
        if entry is None:
            return None
        index = 0 if count is None or entry.msgid_plural is None else self._plural(count)
        text = entry.msgstr.get(index) or entry.msgstr.get(0)
        return text or None

    @property
    def msgids(self) -> set[tuple[str | None, str]]:
        return set(self._entries)

    def gettext(self, message: str) -> str:
        return self.lookup(message) or message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.lookup(msgid1, count=n) or (msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.lookup(message, context) or message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.lookup(msgid1, context, n) or (msgid1 if n == 1 else msgid2)


class MergedCatalogue(Catalogue):
    """Every message file of a language as one catalogue, each file read only when needed.

    A code ``area.topic.what`` is looked up first in the file named after its
    area (``cli.po`` for ``cli.option.lang``), so printing ``--help`` or one
    error reads one small file; a code not found there is looked up in
    ``messages.po`` (which holds the core's areas and ``common.*``), and only
    then in the rest. A code lives in exactly one file (a test
    checks it), so the order of reading never changes an answer.
    """

    def __init__(self, paths: list[Path], more: Callable[[], list[Path]] | None = None) -> None:
        super().__init__([])
        self._unread = list(paths)
        self._rule_read = False
        #: The files of the games not loaded yet, asked only when a code is found nowhere else.
        self._more = more

    def _read(self, paths: list[Path]) -> None:
        from companion.i18n.po import header_fields, read_po  # read only when a text is needed

        for path in paths:
            self._unread.remove(path)
            read = read_po(path)
            if not self._rule_read:
                _, _, expression = header_fields(read).get("Plural-Forms", "").partition("plural=")
                self._plural = gettext.c2py(expression.rstrip(";").strip() or "n != 1")
                self._rule_read = True
            self._entries.update((entry.key, entry) for entry in read
                                 if not entry.fuzzy and entry.msgid and any(entry.msgstr.values()))

    def lookup(self, msgid: str, context: str | None = None, count: int | None = None) -> str | None:
        area = msgid.partition(".")[0]
        for stem in (area, MESSAGES_DOMAIN, None):  # its area's file, the shared one, then all
            if not self._unread or (context, msgid) in self._entries:
                break
            self._read([path for path in self._unread if stem is None or path.stem == stem])
        if (context, msgid) not in self._entries and self._take_more():
            self._read(list(self._unread))
        return super().lookup(msgid, context, count)

    def _take_more(self) -> bool:
        """Add the files of every game not loaded yet (once); whether there were any."""
        more, self._more = self._more, None
        if more is None:
            return False
        self._unread.extend(path for path in more() if path not in self._unread)
        return bool(self._unread)

    @property
    def msgids(self) -> set[tuple[str | None, str]]:
        self._take_more()
        self._read(list(self._unread))
        return super().msgids


#: The domain of argparse's own texts (keyed by their English text, not by codes).
ARGPARSE_DOMAIN = "argparse"
#: The merged domain of every message code.
MESSAGES_DOMAIN = "messages"


def shared_message_files(language: str) -> list[Path]:
    """The ``.po`` files of ``language`` that every game shares (``messages.po`` first): the core's,
    the front ends' and the command line's words, none of which belongs to one game."""
    folder = LOCALE_DIR / language
    files = sorted(folder.glob("*.po")) if folder.is_dir() else []
    return sorted((path for path in files if path.stem != ARGPARSE_DOMAIN),
                  key=lambda path: (path.stem != MESSAGES_DOMAIN, path.name))


def game_message_files(language: str, games: Iterable[GameDescriptor] | None = None) -> list[Path]:
    """The ``.po`` files of ``language`` that the games ship (:attr:`GameDescriptor.catalogues`),
    those of ``games`` (every registered game by default)."""
    found: list[Path] = []
    for game in registry.descriptors() if games is None else games:
        folder = registry.catalogue_folder(game)
        if folder is not None and (folder / language).is_dir():
            found.extend(sorted((folder / language).glob("*.po")))
    return found


def message_files(language: str) -> list[Path]:
    """Every ``.po`` file that holds ``language``'s message codes: the shared ones, then each
    registered game's."""
    return [*shared_message_files(language), *game_message_files(language)]


def catalogue(language: str, domain: str = MESSAGES_DOMAIN) -> Catalogue:
    """The catalogue of ``domain`` in ``language`` (empty when that language has none).

    The ``messages`` domain is every message file of the language merged: the shared ones and
    those of the games registered now (a game registered later brings its own: the catalogue is
    made anew whenever the list of games changes).
    """
    return _catalogue(language, domain, registry.generation())


@lru_cache(maxsize=8)  # by the registry's generation: the catalogues of lists of games gone are let go
def _catalogue(language: str, domain: str, generation: int) -> Catalogue:
    if domain == MESSAGES_DOMAIN:
        # the games loaded so far at once (a record's game: one small file more); the others only
        # when a code is found nowhere else, so that rendering one game's words loads no other game
        return MergedCatalogue([*shared_message_files(language),
                                *game_message_files(language, registry.loaded())],
                               more=lambda: game_message_files(language))
    path = LOCALE_DIR / language / f"{domain}.po"
    if not path.exists():
        return Catalogue([])
    return Catalogue.load(path)


def render(message: Message, language: str = DEFAULT_LANGUAGE) -> str:
    """``message`` in words, in ``language``; English when that language lacks it.

    Nested messages among the parameters are rendered first. A code found in
    no catalogue is shown as the code with its parameters, so a missing text
    is visible and never crashes a screen (the catalogue tests fail on it).
    """
    params: dict[str, Any] = {key: _render_param(value, language)
                              for key, value in message.params.items()}
    count = params.get("count")
    count = count if isinstance(count, int) else None
    for lang in (language, DEFAULT_LANGUAGE):
        text = catalogue(lang).lookup(message.code, count=count)
        if text is not None:
            try:
                if _CASE_SPEC in text:
                    text, params = _in_case(text, message, params, lang)
                return _fill(text, params)
            except (KeyError, IndexError, ValueError, AttributeError):
                continue  # a placeholder the parameters do not fill: try English, then the code
    shown = ", ".join(f"{key}={value}" for key, value in params.items())
    return f"{message.code}({shown})"


#: A placeholder a text wants in the accusative: ``{amount:acc}`` ("Dora 2 fát kap").
_CASE_SPEC = ":acc}"
_CASE_FIELD = re.compile(r"\{(\w+):acc\}")


def _in_case(text: str, message: Message, params: dict[str, Any],
             language: str) -> tuple[str, dict[str, Any]]:
    """``text`` with each ``{name:acc}`` filled by the nested message's accusative form: its code
    + ``.acc`` when the catalogue has one ("{count} fát" beside "{count} fa"), else its own words.

    Hungarian puts a case ending on the noun a number counts, which a parameter rendered
    beforehand cannot take; English has one form, so its catalogue never asks for this.
    """
    params = dict(params)
    for name in _CASE_FIELD.findall(text):
        value = message.params.get(name)
        if isinstance(value, Message) and catalogue(language).lookup(value.code + ".acc") is not None:
            params[name] = render(Message(value.code + ".acc", value.params), language)
    return _CASE_FIELD.sub(lambda found: "{" + found.group(1) + "}", text), params


class _WithArticles(string.Formatter):
    """``str.format`` plus the Hungarian definite article: ``{session:az}`` is "a 4" or "az 5".

    Hungarian writes "az" before a vowel sound and "a" before a consonant, so a
    number or name filled in at run time needs its article chosen then; the
    catalogues once wrote "a(z) 4. játszma", which no Hungarian would. ``Az``
    starts a sentence.
    """

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in ("az", "Az"):
            article = hungarian_article(value)
            return f"{article.capitalize() if format_spec == 'Az' else article} {value}"
        return str(super().format_field(value, format_spec))


_ARTICLES = _WithArticles()
_VOWELS = frozenset("aáeéiíoóöőuúüű")


def hungarian_article(value: Any) -> str:
    """"az" or "a" before ``value`` as a Hungarian reads it aloud; "a(z)" when that cannot be told
    (a path, a symbol).

    A number is read by its first word: 1 (egy), 1000 (ezer) and every 1 followed by a multiple
    of three digits (egymillió ...) and every number starting with 5 (öt, ötven, ötszáz ...) start
    with a vowel.
    """
    shown = str(value).strip()
    if shown[:1].isdigit():
        digits = shown.split(".")[0].split(",")[0]
        digits = "".join(ch for ch in digits if ch.isdigit())
        starts_with_vowel = digits[0] == "5" or (digits[0] == "1" and len(digits) % 3 == 1)
        return "az" if starts_with_vowel else "a"
    if shown[:1].isalpha():
        return "az" if shown[0].casefold() in _VOWELS else "a"
    return "a(z)"


def _fill(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with ``params`` filled in (the article-aware formatter only where it is needed)."""
    if ":az}" in text or ":Az}" in text:
        return _ARTICLES.vformat(text, (), params)
    return text.format_map(params)


def _render_param(value: Any, language: str) -> Any:
    if isinstance(value, Message):
        return render(value, language)
    if isinstance(value, Alternatives):
        return join_list([_render_param(item, language) for item in value], language, "common.list.or")
    if isinstance(value, (list, tuple)):
        return join_list([_render_param(item, language) for item in value], language)
    return value


def render_for(message: Message, surface: str, language: str = DEFAULT_LANGUAGE) -> str:
    """``message`` in the words of one front end: each code (the message's and its nested ones')
    looked up first as ``surface`` + code ("ui.touch." + ``<game>.now.reveal``), else as it is.

    An engine says *what* is to be done once (:meth:`~companion.games.base.Game.what_now`); how to
    do it differs by front end ("tap a ringed space" on the touchscreen, "turn and push" on the
    OLED), so each front end's catalogue words the codes it knows and a code it does not know
    (a game it has no part for) keeps the engine's own words.
    """
    return render(_for_surface(message, surface, language), language)


def _for_surface(value: Any, surface: str, language: str) -> Any:
    if isinstance(value, Message):
        code = surface + value.code
        known = any(catalogue(lang).lookup(code) is not None for lang in (language, DEFAULT_LANGUAGE))
        params = {key: _for_surface(item, surface, language) for key, item in value.params.items()}
        return Message(code if known else value.code, params)
    if isinstance(value, Alternatives):
        return Alternatives(_for_surface(item, surface, language) for item in value)
    if isinstance(value, (list, tuple)):
        return [_for_surface(item, surface, language) for item in value]
    return value


def join_list(items: list[Any], language: str = DEFAULT_LANGUAGE, code: str = "common.list") -> str:
    """``A``, ``A and B``, ``A, B and C`` in ``language`` (the catalogue says the words);
    ``code="common.list.or"`` joins alternatives: ``A, B or C``."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return render(Message(code, {"first": render(Message("common.list.separator"), language)
                                          .join(words[:-1]), "last": words[-1]}), language)


def decimal(value: float, digits: int = 1, language: str | None = None) -> str:
    """``value`` with ``digits`` decimals as ``language`` writes it (6.7 in English, 6,7 in
    Hungarian); the current language by default."""
    separator = render(Message("common.decimal_separator"), language or _current[0])
    return f"{value:.{digits}f}".replace(".", separator)


def render_json(message: Message) -> dict[str, Any]:
    """What ``--json`` output carries: the code, its parameters and the English text."""
    return {**message.to_json(), "text": render(message, DEFAULT_LANGUAGE)}


def summary_json(value: Any) -> Any:
    """An engine's summary (or any part of it) as ``replay --json`` writes it (records.md).

    Each :class:`Message` becomes its code, parameters and English ``text``
    (:func:`render_json`), each :class:`Words` its English text; mappings and
    sequences are walked, everything else is already JSON. The engines return
    messages; this is where they are put into words, the same on every machine.
    """
    if isinstance(value, Message):
        return render_json(value)
    if isinstance(value, Words):
        return value.separator.join(render(message, DEFAULT_LANGUAGE) for message in value.messages)
    if isinstance(value, Mapping):
        return {key: summary_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [summary_json(item) for item in value]
    return value


def choose_language(option: str | None, environ: Mapping[str, str],
                    table_setting: Callable[[], str | None] | None = None) -> str:
    """The language to speak: ``--lang``, else ``$COMPANION_LANG``, else the table's setting, else English.

    ``table_setting`` is asked only when the first two say nothing (it may
    open the store, which ``replay`` and ``moves`` never do: they pass none).
    An unknown value from the option or the variable is an error naming it;
    one from the store (written by an older or newer companion) falls back
    to English.
    """
    for value, source in ((option, "--lang"), (environ.get(LANGUAGE_VARIABLE), LANGUAGE_VARIABLE)):
        if value:
            return _known(value, source)
    if table_setting is not None:
        stored = table_setting()
        if stored and stored.lower() in LANGUAGES:
            return stored.lower()
    return DEFAULT_LANGUAGE


def _known(value: str, source: str) -> str:
    language = value.strip().lower()
    if language not in LANGUAGES:
        shown = value.encode("unicode_escape").decode("ascii")[:20]
        raise LanguageError(render(Message("cli.language.unknown",
                                           {"value": shown, "source": source,
                                            "choices": ", ".join(LANGUAGES)})))
    return language


def install_argparse(language: str) -> None:
    """Make argparse speak ``language``: its texts go through ``gettext`` names bound at its import."""
    translations = catalogue(language, "argparse")
    argparse._ = translations.gettext  # type: ignore[attr-defined]
    argparse.ngettext = translations.ngettext  # type: ignore[attr-defined]


_current = [DEFAULT_LANGUAGE]
#: What a message code looks like: ``area.topic.what``, lower case, no spaces.
_CODE = re.compile(r"^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$")


def set_language(language: str) -> None:
    """Speak ``language`` from now on, in this process (the front end's choice, made once at start
    or when the table's setting changes); argparse follows."""
    if language not in LANGUAGES:
        raise LanguageError(render(Message("cli.language.unknown", {
            "value": repr(language), "source": "set_language", "choices": ", ".join(LANGUAGES)})))
    _current[0] = language
    install_argparse(language)


def _say_in_current_language(message: Message) -> str:
    return render(message, _current[0])


install_renderer(_say_in_current_language)


def current_language() -> str:
    """The language chosen by :func:`set_language` (English until then)."""
    return _current[0]


def say(message: Message) -> str:
    """``message`` in the current language."""
    return render(message, _current[0])


def known_text(code_or_text: str) -> str:
    """The text of a message code without parameters in the current language, or the argument itself
    when it is not a code the catalogues know (argparse help given as plain text)."""
    if not _CODE.match(code_or_text):
        return code_or_text  # plain words: no catalogue is read for them
    for lang in (_current[0], DEFAULT_LANGUAGE):
        found = catalogue(lang).lookup(code_or_text)
        if found is not None:
            return found
    return code_or_text


def text(code: str, /, **params: Any) -> str:
    """The message ``code`` with ``params`` in the current language (the front ends' own words)."""
    return render(Message(code, params), _current[0])
