"""The guided entry of a Castelli board (``companion board enter NAME``): a question a cell, the answers
kept in the store after each one, so that the same command goes on where the players stopped.

The board is the grid the shipped layouts (and the touchscreen's blank board) lie on: a
checkerboard of octagonal areas (row + column even, counted from 0) and square tile spaces
(odd). Every area is asked for (its kind and what evaluating it gives; a plain's village or town);
of the tile spaces only those at the frame are asked for (the gift the frame shows on each side
that faces it: an inner space's four sides face the areas around it, nothing to ask). A board
with holes or another shape is the touchscreen's board editor's.

Each answer is checked at once, as :func:`~companion.games.castelli.board.validate_board` would
check the finished board (the unanswered cells taken as plains and neutral frame), so that a second
mine or a fourth town is refused when it is typed, not 40 answers later. The draft is a setting
(:data:`~companion.games.castelli.descriptor.BOARD_DRAFTS`, ``{name: {"rows", "columns",
"answers"}}``): the settings table is where the stored boards are kept too, and adding a table
would push the list of tables past the store's first page, which a repair rebuilds (see
docs/storage.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.board import FRAME_PREFIX, Board, validate_board
from companion.games.castelli.descriptor import BOARD_DRAFTS
from companion.games.messages import Message, msg
from companion.i18n import LANGUAGES, render
from companion.service.errors import AppError
from companion.storage.store import Store

Cell = tuple[int, int]
#: The neighbour each side of a space faces, as (row, column) steps, in the order of ``tables.SIDES``.
SIDE_STEPS: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
#: The grid a board may have (record names stay ``a<row><column>`` with one digit each).
MAX_SIZE = 10
#: The size an empty answer to the first question takes: the four board parts of 3 and 4 players.
DEFAULT_SIZE = (8, 8)
#: Kinds with a yield.
YIELD_KINDS = ("forest", "field", "rock")
#: The words that act on the entry instead of answering (typed as they are, in every language).
BACK, QUIT, HELP = "back", "quit", "help"
#: Each side's word, for the questions.
SIDE_WORDS = ("castelli.enter.side.north", "castelli.enter.side.east", "castelli.enter.side.south",
              "castelli.enter.side.west")
#: A kind's short form on the drawn grid (the touchscreen editor's), a settlement's, a gift's.
KIND_SHORT = {"forest": "ui.editor.short.forest", "field": "ui.editor.short.field",
              "rock": "ui.editor.short.rock", "market": "ui.editor.short.market",
              "mine": "ui.editor.short.mine"}
SETTLEMENT_SHORT = {"village": "ui.editor.short.village", "town": "ui.editor.short.town"}
GIFT_SHORT = {"wood": "ui.editor.short.wood", "grain": "ui.editor.short.grain",
              "stone": "ui.editor.short.stone", "silver": "ui.editor.short.silver",
              "card": "ui.editor.short.card"}


def _words(codes: Mapping[str, str]) -> dict[str, str]:
    """Each record word, and its word in every language the catalogues speak, to the record word."""
    found = {word: word for word in codes}
    for word, code in codes.items():
        for language in LANGUAGES:
            found[render(msg(code), language).casefold()] = word
    return found


@dataclass(frozen=True)
class Question:
    """One question: the grid's size, an area (``cell``), or a tile space at the frame and its
    frame sides (indexes into ``tables.SIDES``)."""

    kind: str  # "size", "area" or "frame"
    cell: Cell = (0, 0)
    sides: tuple[int, ...] = ()


@dataclass
class BoardEntry:
    """A board being entered: its size (``None`` until the first answer) and the answers so far,
    each written as the record words it means (``forest 2``, ``plain village``, ``wood grain``)."""

    name: str
    rows: int | None = None
    columns: int | None = None
    answers: list[str] = field(default_factory=list)

    # -- the questions -----------------------------------------------------------------
    def questions(self) -> list[Question]:
        """Every question, in order: the size, then the grid row by row (areas and frame spaces)."""
        found = [Question("size")]
        if self.rows is None or self.columns is None:
            return found
        for row in range(self.rows):
            for column in range(self.columns):
                if (row + column) % 2 == 0:
                    found.append(Question("area", (row, column)))
                    continue
                sides = tuple(i for i, (dr, dc) in enumerate(SIDE_STEPS)
                              if not self._on_grid((row + dr, column + dc)))
                if sides:
                    found.append(Question("frame", (row, column), sides))
        return found

    def _on_grid(self, cell: Cell) -> bool:
        return 0 <= cell[0] < (self.rows or 0) and 0 <= cell[1] < (self.columns or 0)

    def _answered(self) -> dict[Question, str]:
        return dict(zip(self.questions()[1:], self.answers, strict=False))

    @property
    def count(self) -> tuple[int, int]:
        """(questions answered, questions in all), the size counted."""
        answered = (self.rows is not None) + len(self.answers)
        return answered, len(self.questions())

    @property
    def finished(self) -> bool:
        answered, total = self.count
        return self.rows is not None and answered == total

    def next_question(self) -> Question | None:
        questions = self.questions()
        if self.rows is None:
            return questions[0]
        return questions[1 + len(self.answers)] if 1 + len(self.answers) < len(questions) else None

    def asking(self) -> Message | None:
        """The next question in words (what may be typed included), ``None`` when all are answered."""
        question = self.next_question()
        if question is None:
            return None
        answered, total = self.count
        if question.kind == "size":
            return msg("castelli.enter.ask.size", rows=DEFAULT_SIZE[0], columns=DEFAULT_SIZE[1])
        where = msg("castelli.enter.at", row=question.cell[0] + 1, column=question.cell[1] + 1,
                    number=answered + 1, total=total)
        if question.kind == "area":
            return msg("castelli.enter.ask.area", at=where)
        sides = [msg(SIDE_WORDS[i]) for i in question.sides]
        return msg("castelli.enter.ask.frame", at=where, sides=sides, count=len(sides))

    # -- answering ----------------------------------------------------------------------
    def answer(self, typed: str) -> None:
        """Take ``typed`` as the answer to the next question; :class:`AppError` saying why not (the
        entry unchanged) for an answer that does not read or would make the board impossible."""
        question = self.next_question()
        if question is None:
            raise AppError(msg("castelli.enter.nothing_to_answer"))
        words = typed.replace(",", " ").split()
        if question.kind == "size":
            self._size(words)
            return
        written = self._area(words) if question.kind == "area" else self._frame(words, len(question.sides))
        mine = next((q.cell for q, a in self._answered().items() if a == "mine"), None)
        if written == "mine" and mine is not None:  # said here: validate_board names the record's names
            raise AppError(msg("castelli.enter.second_mine", where=msg(
                "castelli.enter.cell", row=mine[0] + 1, column=mine[1] + 1)))
        trial = BoardEntry(self.name, self.rows, self.columns, [*self.answers, written])
        problem = trial.impossible()
        if problem is not None:
            where = msg("castelli.enter.cell", row=question.cell[0] + 1, column=question.cell[1] + 1)
            raise AppError(msg("castelli.enter.refused", where=where, reason=problem))
        self.answers.append(written)

    def back(self) -> bool:
        """Take back the last answer (the size last of all); whether there was one."""
        if self.answers:
            self.answers.pop()
            return True
        if self.rows is not None:
            self.rows = self.columns = None
            return True
        return False

    def _size(self, words: Sequence[str]) -> None:
        if not words:
            self.rows, self.columns = DEFAULT_SIZE
            return
        if len(words) != 2 or not all(w.isdigit() for w in words) \
                or not all(2 <= int(w) <= MAX_SIZE for w in words):
            raise AppError(msg("castelli.enter.bad_size", typed=" ".join(words), largest=MAX_SIZE))
        self.rows, self.columns = int(words[0]), int(words[1])

    def _area(self, words: Sequence[str]) -> str:
        kinds = _words({k: f"castelli.kind.{k}" for k in tables.AREA_KINDS})
        if not words or words[0].casefold() not in kinds:
            raise AppError(msg("castelli.enter.bad_area", typed=" ".join(words)))
        kind, rest = kinds[words[0].casefold()], list(words[1:])
        if kind == "plain":
            settlements = _words({s: f"castelli.settlement.{s}" for s in tables.SETTLEMENT_KINDS})
            if len(rest) > 1 or (rest and rest[0].casefold() not in settlements):
                raise AppError(msg("castelli.enter.bad_plain", typed=" ".join(words)))
            return " ".join(["plain", *(settlements[rest[0].casefold()] for _ in rest[:1])])
        ranges = {"market": [tables.TENTS_RANGE], "rock": [tables.YIELD_RANGE, tables.SPOTS_RANGE],
                  "mine": []}.get(kind, [tables.YIELD_RANGE])
        defaults = {"market": [tables.DEFAULT_TENTS], "rock": [tables.DEFAULT_YIELD, tables.DEFAULT_SPOTS],
                    "mine": []}.get(kind, [tables.DEFAULT_YIELD])
        if len(rest) > len(ranges) or not all(w.isdigit() for w in rest) \
                or not all(low <= int(w) <= high for w, (low, high) in zip(rest, ranges, strict=False)):
            expected = {"market": "castelli.enter.numbers.market", "rock": "castelli.enter.numbers.rock",
                        "mine": "castelli.enter.numbers.mine"}.get(kind, "castelli.enter.numbers.yield")
            raise AppError(msg("castelli.enter.bad_numbers", typed=" ".join(words), expected=msg(
                expected, yields=_span(tables.YIELD_RANGE), tents=_span(tables.TENTS_RANGE),
                spots=_span(tables.SPOTS_RANGE))))
        numbers = [int(w) for w in rest] + defaults[len(rest):]
        return " ".join([kind, *map(str, numbers)])

    def _frame(self, words: Sequence[str], count: int) -> str:
        gifts = _words({g: f"ui.editor.gift.{g}" for g in tables.FRAME_GIFTS})
        if len(words) != count or not all(w.casefold() in gifts for w in words):
            raise AppError(msg("castelli.enter.bad_frame", typed=" ".join(words), count=count))
        return " ".join(gifts[w.casefold()] for w in words)

    # -- the board ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The inline board the answers make, the unanswered cells as plains and neutral frame."""
        answered = self._answered()
        areas: dict[str, Any] = {}
        settlements: dict[str, str] = {}
        spaces: dict[str, Any] = {}
        frames = {q.cell: dict(zip(q.sides, answered[q].split(), strict=True))
                  for q in answered if q.kind == "frame"}
        for row in range(self.rows or 0):
            for column in range(self.columns or 0):
                cell = (row, column)
                if (row + column) % 2 == 0:
                    words = answered.get(Question("area", cell), "plain").split()
                    entry: dict[str, Any] = {"kind": words[0], "at": [row, column]}
                    numbers = [int(w) for w in words[1:] if w.isdigit()]
                    if words[0] in YIELD_KINDS:
                        entry["yield"] = numbers[0]
                    if words[0] == "rock":
                        entry["spots"] = numbers[1]
                    if words[0] == "market":
                        entry["tents"] = numbers[0]
                    areas[f"a{row}{column}"] = entry
                    if words[0] == "plain" and len(words) > 1:
                        settlements[f"a{row}{column}"] = words[1]
                    continue
                sides = {}
                for index, (dr, dc) in enumerate(SIDE_STEPS):
                    there = (row + dr, column + dc)
                    sides[tables.SIDES[index]] = (f"a{there[0]}{there[1]}" if self._on_grid(there) else
                                                  FRAME_PREFIX + frames.get(cell, {}).get(index, "neutral"))
                spaces[f"s{row}{column}"] = {"at": [row, column], "sides": sides}
        return {"areas": areas, "spaces": spaces, "settlements": settlements}

    def impossible(self) -> Message | None:
        """Why the board the answers make (the rest taken as plains) could not be valid, or ``None``."""
        try:
            validate_board(self.to_json())
        except RecordError as error:
            return error.message if isinstance(error.message, Message) else error.as_message()
        return None

    def board(self) -> Board:
        """The finished board, checked as ``board validate`` checks one (:class:`RecordError`)."""
        return validate_board(self.to_json())

    def drawing(self) -> list[str]:
        """The board so far as text: each area by its short kind and numbers, each space ``[]``, the
        frame's gifts around the grid, ``?`` for the cell asked next, ``·`` for the ones after it."""
        if self.rows is None or self.columns is None:
            return []
        answered = self._answered()
        upcoming = self.next_question()
        cells: dict[Cell, str] = {}
        border: dict[Cell, list[str]] = {}
        for row in range(self.rows):
            for column in range(self.columns):
                cell = (row, column)
                is_area = (row + column) % 2 == 0
                question = next((q for q in answered if q.cell == cell), None)
                if upcoming is not None and upcoming.cell == cell:
                    cells[cell] = "?"
                elif is_area and question is None:
                    cells[cell] = "·"
                elif is_area:
                    cells[cell] = _short_area(answered[question] if question else "plain")
                else:
                    cells[cell] = "[]"
                    if question is not None:
                        for index, gift in zip(question.sides, answered[question].split(), strict=True):
                            dr, dc = SIDE_STEPS[index]
                            border.setdefault((row + dr, column + dc), []).append(_short_gift(gift))
        width = max(4, *(len(t) + 1 for t in cells.values()),
                    *(len("/".join(g)) + 1 for g in border.values()))
        lines = []
        for row in range(-1, self.rows + 1):
            line = "".join((cells.get((row, column)) or "/".join(border.get((row, column), []))).center(width)
                           for column in range(-1, self.columns + 1))
            lines.append(line.rstrip())
        return lines

    # -- kept in the store ----------------------------------------------------------------
    def to_draft(self) -> dict[str, Any]:
        return {"rows": self.rows, "columns": self.columns, "answers": list(self.answers)}

    @classmethod
    def from_draft(cls, name: str, draft: object) -> BoardEntry:
        """A kept draft read back; one that does not read (edited by hand, another version) starts anew."""
        if not isinstance(draft, dict):
            return cls(name)
        entry = cls(name)
        rows, columns, answers = draft.get("rows"), draft.get("columns"), draft.get("answers")
        if isinstance(rows, int) and isinstance(columns, int) and isinstance(answers, list):
            try:
                entry._size([str(rows), str(columns)])
                for answer in answers:
                    entry.answer(str(answer))
            except AppError:
                return entry  # as far as it read
        return entry


def validity(board: Board) -> Message:
    """What ``board validate`` says of a valid board: its spaces, its areas by kind, its settlements
    (``board enter`` says the same of the board it stores)."""
    from companion.games.castelli.words import kind as kind_word

    kinds = {k: sum(1 for a in board.areas.values() if a.kind == k) for k in tables.AREA_KINDS}
    villages = sum(1 for k in board.settlements.values() if k == "village")
    towns = len(board.settlements) - villages
    counted = [msg("castelli.cli.count_kind", count=n, kind=kind_word(k)) for k, n in kinds.items() if n]
    return msg("castelli.cli.valid", spaces=len(board.spaces), areas=len(board.areas), kinds=counted,
               villages=msg("castelli.cli.villages", count=villages),
               towns=msg("castelli.cli.towns", count=towns))


def _span(bounds: tuple[int, int]) -> str:
    return f"{bounds[0]}–{bounds[1]}"


def _short_area(answer: str) -> str:
    words = answer.split()
    if words[0] == "plain":
        return str(msg(SETTLEMENT_SHORT[words[1]])) if len(words) > 1 else "."
    return str(msg(KIND_SHORT[words[0]])) + "".join(words[1:])


def _short_gift(gift: str) -> str:
    return str(msg(GIFT_SHORT[gift])) if gift in GIFT_SHORT else "-"


class BoardDrafts:
    """The boards being entered, kept in the store by name until they are finished."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def load(self, name: str) -> BoardEntry | None:
        drafts = self.store.get_setting(BOARD_DRAFTS, {}) or {}
        if not isinstance(drafts, dict) or name not in drafts:
            return None
        return BoardEntry.from_draft(name, drafts[name])

    def keep(self, entry: BoardEntry) -> None:
        drafts = dict(self.store.get_setting(BOARD_DRAFTS, {}) or {})
        drafts[entry.name] = entry.to_draft()
        self.store.set_setting(BOARD_DRAFTS, drafts)

    def forget(self, name: str) -> None:
        drafts = dict(self.store.get_setting(BOARD_DRAFTS, {}) or {})
        if drafts.pop(name, None) is not None or name in drafts:
            self.store.set_setting(BOARD_DRAFTS, drafts)

    def names(self) -> list[str]:
        drafts = self.store.get_setting(BOARD_DRAFTS, {}) or {}
        return sorted(drafts) if isinstance(drafts, dict) else []
