"""The layout check: what a player at the table could not read or tap on a screen, found in its live widgets.

``companion snapshot RECORD --out DIR --check`` runs :func:`check_window` on
every screen it writes (and on each of a board's extra views) and fails, one
line per :class:`Problem`, naming the screen and the widget's text. The rules
are those of docs/ui.md ("Designed for the table", "Roles of a text"):

- **fit**: a label's text fits its box. A label may wrap only when its
  ``text_size`` sets a width (Kivy wraps nothing else); wrapped text must fit
  the box's height, no word may be broken across lines, and a figure (or a
  text of figures alone: ``5 4 3 2 / 1 = 21``) stays on one line. A label that
  cuts its text (a fixed ``text_size`` height, ``shorten``, ``max_lines``)
  fails when it draws less ink than its whole text would (a 24 px line keeps
  its letters in a 22 px box), and a label the window or a panel (a
  ``StencilView`` that does not scroll) cuts off fails too; a scrolling view's
  rows are meant to be partly out of sight.
- **size for the role**: a widget's role is its ``role`` attribute when it has
  one (read with ``getattr``, so only the exceptions are annotated), else
  ``figure`` from :data:`~ui.theme.FONT_LARGE` up and ``label`` below it;
  texts a board draws on its pieces are ``mark`` (:mod:`ui.drawn_text`); a
  ``headline`` (game over's winner) is words at a figure's size, which may wrap
  between words as a label does but is held to a figure's size and contrast.
- **contrast**, measured from the drawn frame: the text's colour (its alpha and
  the widgets' opacity blended in) against the most common colour of the
  pixels under the text's box; 7:1 for figures and labels, 4.5:1 for marks.
  Dimmed text (a disabled widget, or text in :data:`~ui.theme.DIMMED`, the one
  colour of what cannot be done now: "dimmed, not hidden") is exempt, as WCAG
  exempts an inactive control, and so is a row partly scrolled out of sight
  (what lies under it is not all drawn).
- **marks drawn over each other**: two texts a board draws on one canvas
  whose letters overlap (a token's initials on another's, on a guild's digit).
- **touch targets**: a button or anything with ``on_press`` that is enabled
  and shown is at least :data:`~ui.theme.TOUCH` px each way and overlaps no
  other target; no label outside a button lays its letters over it (a player
  could not read the one or tell what the other does).
- **off the screen**: a text whose letters reach past any edge of the window
  fails, and so does one wholly outside it (a winner's line pushed over the
  top) unless a scrolling view or a panel holds it out of sight on purpose.
- **words**: no text holds a message code, a ``{placeholder}``, a ``name=``
  parameter or an internal id (:func:`companion.i18n.leaks.leaks`, the OLED's
  rule too).

What is shown is what is checked: a widget with opacity 0, of no size, or
scrolled out of sight is skipped (outside the window only the rule above), as is a blank label; when a
modal view (a popup, an overlay) is open only it is checked, the rest lying
under its veil. Not checked: tap targets a board draws in its canvas (a tile
space, a hexagon) rather than as widgets, and the meaning of a
line break (only broken words and wrapped figures are seen).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.stencilview import StencilView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion.i18n import current_language, decimal, text
from companion.i18n.leaks import leaks
from ui import theme
from ui.drawn_text import MARK, drawn

#: A headline's role: words at a figure's size (game over's winner), which may wrap between words.
HEADLINE = "headline"
#: The least font size of each role, in px (docs/ui.md, "Roles of a text").
ROLE_SIZES: dict[str, float] = {"figure": theme.FONT_LARGE, "label": theme.FONT_SMALL, MARK: 12,
                                 HEADLINE: theme.FONT_LARGE}
#: The least contrast of each role against what lies under it.
ROLE_CONTRAST: dict[str, float] = {"figure": 7.0, "label": 7.0, MARK: 4.5, HEADLINE: 7.0}
#: The part of a drawn text's texture (each way) its letters lie in: two marks overlap when these do.
MARK_CORE = 0.7
#: Kivy lays text out to whole pixels: a box this much too small is not a problem.
SLACK = 1.0
#: A label whose fixed height is less than its text's lines need cuts text only when it draws less
#: ink than the whole text does (a 20 px line in a 22 px box loses only empty space below digits).
INK_KEPT = 1.02

Box = tuple[float, float, float, float]  # left, bottom, right, top in window pixels


@dataclass(frozen=True)
class Problem:
    """One thing a player could not read or tap: on which screen, the widget's text, what is wrong
    (a ``hardware.check.*`` message code and its parameters)."""

    screen: str
    text: str
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def line(self) -> str:
        """The report's line, in the current language."""
        problem = text(self.kind, **dict(self.params))
        return text("hardware.check.line", screen=self.screen, text=self.text, problem=problem)


class Frame:
    """The pixels of a drawn widget (its export, as the PNG file holds them), read in window coordinates."""

    def __init__(self, widget: Widget) -> None:
        from PIL import Image  # Pillow: only when a frame is measured

        image = widget.export_as_image()
        width, height = (int(v) for v in image.texture.size)
        drawn_pixels = Image.frombytes("RGBA", (width, height), bytes(image.texture.pixels))
        behind = Image.new("RGBA", (width, height), tuple(int(c * 255) for c in _clear_colour()))
        self.image = Image.alpha_composite(behind, drawn_pixels).convert("RGB")
        self.left, self.bottom = (float(v) for v in widget.to_window(widget.x, widget.y))
        self.height = height

    def common_colour(self, box: Box, ink: theme.Colour | None = None) -> theme.Colour | None:
        """The most common colour under ``box``, or None when the box lies outside the frame.

        ``ink``: a drawn text's own colour. Then what lies under it is read around its letters only
        (the pixels within 2 px of the ink's), not over the whole texture: a 24 px figure's texture
        is taller than a small board's triangle, and its empty edges reach over the tile's border.
        """
        left, bottom, right, top = box
        x0, x1 = int(left - self.left), int(right - self.left)
        y0 = int(self.height - (top - self.bottom))
        y1 = int(self.height - (bottom - self.bottom))
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.image.width), min(y1, self.image.height)
        if x1 - x0 < 1 or y1 - y0 < 1:
            return None
        crop = self.image.crop((x0, y0, x1, y1))
        colours: Any = (_around_ink(crop, ink) if ink is not None else None) or crop.getcolors(
            maxcolors=(x1 - x0) * (y1 - y0))
        _, (red, green, blue) = max(colours, key=lambda pair: int(pair[0]))
        return (red / 255, green / 255, blue / 255, 1.0)


#: The colour the pixels away from a text's letters are marked with (no theme colour is this).
UNSEEN = (1, 254, 3)
#: How far from a drawn text's ink colour a pixel still counts as its letters (their smoothed edges).
INK_NEAR = 30


def _around_ink(crop: Any, ink: theme.Colour) -> list[tuple[int, tuple[int, int, int]]] | None:
    """The colours of the pixels next to the letters of ``ink`` in ``crop`` (with their counts), or
    ``None`` when no letter is seen there (then the whole box is read)."""
    from PIL import Image, ImageChops, ImageFilter

    red, green, blue = (round(c * 255) for c in ink[:3])
    near = Image.new("RGB", crop.size, (red, green, blue))
    distance = ImageChops.difference(crop, near).convert("L")
    letters = distance.point(lambda d: 255 if d < INK_NEAR else 0)
    if not letters.getbbox():
        return None
    ring = ImageChops.subtract(letters.filter(ImageFilter.MaxFilter(5)), letters)
    kept = Image.new("RGB", crop.size, UNSEEN)  # a colour no screen draws: what the ring leaves out
    kept.paste(crop, mask=ring)
    counted: Any = kept.getcolors(maxcolors=crop.size[0] * crop.size[1]) or []
    found = [(count, colour) for count, colour in counted if colour != UNSEEN]
    return found or None


def _clear_colour() -> theme.Colour:
    red, green, blue, *_ = (float(c) for c in Window.clearcolor)
    return (red, green, blue, 1.0)


def check_window(screen: str, language: str | None = None) -> list[Problem]:
    """Every problem of what the window shows now, the frame measured from its own export.

    When a modal view is open only the topmost one is checked (the rest lies under its veil).
    """
    children = list(Window.children)  # topmost first
    if not children:
        return []
    tops = [children[0]] if isinstance(children[0], ModalView) else list(reversed(children))
    problems: list[Problem] = []
    for top in tops:
        problems += check_tree(screen, top, Frame(top), language)
    return list(dict.fromkeys(problems))  # the same words with the same fault (a token's initials) once


def check_tree(screen: str, root: Widget, frame: Frame | None, language: str | None = None) -> list[Problem]:
    """Every problem of the widgets under ``root``; contrast only with a ``frame`` to measure it in."""
    spoken = language or current_language()
    problems: list[Problem] = []
    targets: list[tuple[Widget, Box]] = []
    labels: list[tuple[Label, Box]] = []
    for widget, box, scrolled in _shown(root):
        if isinstance(widget, Label) and not isinstance(widget, TextInput):
            problems += _label_problems(screen, widget, box, scrolled, frame, spoken)
            if not scrolled and label_words(widget).strip():
                labels.append((widget, text_box(widget)))
        if _is_target(widget):
            targets.append((widget, box))
            problems += _target_size(screen, widget)
        problems += _drawn_problems(screen, widget, frame, spoken)
    problems += _overlaps(screen, targets)
    problems += _over_targets(screen, labels, targets)
    problems += [Problem(screen, _shown_text(label), "hardware.check.off_screen") for label in _gone(root)]
    return problems


# -- what is shown ----------------------------------------------------------------------------------
def window_box(widget: Widget) -> Box:
    """The widget's box in window pixels."""
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return (float(left), float(bottom), float(right), float(top))


def _intersect(first: Box, second: Box) -> Box:
    return (max(first[0], second[0]), max(first[1], second[1]),
            min(first[2], second[2]), min(first[3], second[3]))


def _empty(box: Box) -> bool:
    return box[2] - box[0] < SLACK or box[3] - box[1] < SLACK


def _shown(root: Widget) -> Iterator[tuple[Widget, Box, bool]]:
    """Each widget under ``root`` a player can see, its visible box, and whether a scrolling view
    cuts it (a row partly scrolled out of sight is no fault of its own)."""
    screen: Box = (0.0, 0.0, float(Window.width), float(Window.height))

    def visit(widget: Widget, clip: Box, scroll_clip: Box | None) -> Iterator[tuple[Widget, Box, bool]]:
        if widget.opacity <= 0:
            return  # hidden, with everything in it
        box = window_box(widget)
        seen = _intersect(box, clip if scroll_clip is None else _intersect(clip, scroll_clip))
        if not _empty(seen) and widget.width > 0 and widget.height > 0:
            scrolled = scroll_clip is not None and _intersect(box, scroll_clip) != box
            yield widget, box, scrolled
        elif isinstance(widget, StencilView):
            return  # nothing in it can be seen
        inner_clip, inner_scroll = clip, scroll_clip
        if isinstance(widget, ScrollView):
            inner_scroll = seen if scroll_clip is None else _intersect(scroll_clip, seen)
        elif isinstance(widget, StencilView):
            inner_clip = _intersect(clip, box)
        for child in reversed(widget.children):
            yield from visit(child, inner_clip, inner_scroll)

    yield from visit(root, screen, None)


def _opacity(widget: Widget) -> float:
    value = 1.0
    node: Any = widget
    while isinstance(node, Widget):
        value *= float(node.opacity)
        node = node.parent
    return value


def _clipped(box: Box) -> bool:
    """Whether ``box`` reaches out of the window (or past a panel that does not scroll)."""
    return (box[0] < -SLACK or box[1] < -SLACK
            or box[2] > Window.width + SLACK or box[3] > Window.height + SLACK)


def _stencils(widget: Widget) -> Iterator[Box]:
    node = widget.parent
    while isinstance(node, Widget):
        if isinstance(node, StencilView) and not isinstance(node, ScrollView):
            yield window_box(node)
        node = node.parent


def _gone(root: Widget) -> Iterator[Label]:
    """Each label with words that lies wholly outside the window where nothing holds it out of
    sight on purpose (no scrolling view or panel around it, not hidden): a player never sees it."""
    screen: Box = (0.0, 0.0, float(Window.width), float(Window.height))

    def visit(widget: Widget) -> Iterator[Label]:
        if widget.opacity <= 0 or isinstance(widget, StencilView):
            return  # hidden, or a view that shows part of what it holds (a scrolled list, a panned map)
        if (isinstance(widget, Label) and not isinstance(widget, TextInput) and label_words(widget).strip()
                and widget.width > 0 and widget.height > 0 and _empty(_intersect(text_box(widget), screen))):
            yield widget
        for child in reversed(widget.children):
            yield from visit(child)

    yield from visit(root)


def text_box(label: Label) -> Box:
    """Where a label's letters are drawn, in window pixels: Kivy centres its texture in its box."""
    left, bottom, right, top = window_box(label)
    tex_w, tex_h = (float(v) for v in label.texture_size)
    cx, cy = (left + right) / 2, (bottom + top) / 2
    return (cx - tex_w / 2, cy - tex_h / 2, cx + tex_w / 2, cy + tex_h / 2)


# -- labels -----------------------------------------------------------------------------------------
def role_of(widget: Widget) -> str:
    """The widget's role: its ``role`` attribute, else by its font size (figure from FONT_LARGE up)."""
    declared = getattr(widget, "role", None)
    if isinstance(declared, str) and declared in ROLE_SIZES:
        return declared
    return "figure" if float(getattr(widget, "font_size", 0)) >= theme.FONT_LARGE else "label"


#: A Kivy markup tag (``[b]``, ``[/color]``, ``[color=#fff]``): drawn as no letters.
_TAG = re.compile(r"\[/?[a-z_]+(?:=[^\]]*)?\]")
#: What an escaped bracket or ampersand of markup reads as.
_ENTITIES = {"&bl;": "[", "&br;": "]", "&amp;": "&"}


def label_words(label: Label) -> str:
    """The words a label shows: its text, less the tags of its markup (a name in ``[b]…[/b]``)."""
    words = str(label.text)
    if not label.markup:
        return words
    words = _TAG.sub("", words)
    for entity, char in _ENTITIES.items():
        words = words.replace(entity, char)
    return words


def _shown_text(label: Label) -> str:
    return " ".join(label_words(label).split())


def _label_problems(screen: str, label: Label, box: Box, scrolled: bool, frame: Frame | None,
                    language: str) -> list[Problem]:
    words = label_words(label)
    if not words.strip():
        return []  # a blank label (a place kept for a figure to come) says nothing
    name = _shown_text(label)
    role = role_of(label)
    found = _leaks(screen, name, words, language)
    found += [Problem(screen, name, kind, params) for kind, params in _fit(label, role)]
    panels = _stencils(label)
    if not scrolled and (_clipped(text_box(label)) or any(_intersect(box, s) != box for s in panels)):
        found.append(Problem(screen, name, "hardware.check.clipped"))
    found += _size(screen, name, float(label.font_size), role)
    coloured = label.markup and "[color" in str(label.text)  # its words' own colours: not measured
    if frame is not None and not _inactive(label) and not scrolled and not coloured:
        found += _contrast(screen, name, label.color, _opacity(label), text_box(label), role, frame, language)
    return found


def _leaks(screen: str, name: str, words: str, language: str) -> list[Problem]:
    return [Problem(screen, name, leak.kind, (("fragment", leak.fragment),))
            for leak in leaks(words, language)]


def _inactive(label: Label) -> bool:
    """Whether the label is dimmed: disabled, or written in the theme's dimmed colour."""
    if label.disabled:
        return True
    return all(abs(float(a) - b) < 1.5 / 255 for a, b in zip(label.color[:3], theme.DIMMED[:3], strict=True))


def _size(screen: str, name: str, size: float, role: str) -> list[Problem]:
    least = ROLE_SIZES[role]
    if size + 0.5 >= least:
        return []
    role_words = text(f"hardware.check.role.{role}")
    return [Problem(screen, name, "hardware.check.small",
                    (("size", round(size)), ("least", round(least)), ("role", role_words)))]


def _lines(label: Label) -> list[str]:
    """The lines Kivy laid the label's text out in."""
    core = getattr(label, "_label", None)
    return ["".join(word.text for word in line.words) for line in getattr(core, "_cached_lines", [])]


def _fit(label: Label, role: str) -> list[tuple[str, tuple[tuple[str, Any], ...]]]:
    """Whether the text fits: not wider or taller than its box, not cut, no word broken, a figure
    on one line."""
    width, height = float(label.width), float(label.height)
    tex_w, tex_h = (float(v) for v in label.texture_size)
    found: list[tuple[str, tuple[tuple[str, Any], ...]]] = []
    if tex_w > width + SLACK:
        found.append(("hardware.check.too_wide", (("need", round(tex_w)), ("room", round(width)))))
    if tex_h > height + SLACK:
        found.append(("hardware.check.too_tall", (("need", round(tex_h)), ("room", round(height)))))
    room_w, room_h = label.text_size
    if room_h is not None or label.shorten or label.max_lines:
        whole, whole_ink = _whole(label)
        shortened = label.shorten and _one_line_width(label) > float(room_w or width) + SLACK
        if shortened or (whole > tex_h + SLACK and whole_ink > _ink(label.texture) * INK_KEPT + 8):
            found.append(("hardware.check.cut", (("need", round(whole)), ("room", round(tex_h)))))
    if room_w is not None:
        found += _wrapping(label, role)
    return found


def _wrapping(label: Label, role: str) -> list[tuple[str, tuple[tuple[str, Any], ...]]]:
    """A label that wraps: a word broken across lines, or a figure on more than one line."""
    lines = [line for line in _lines(label) if line.strip()]
    if len(lines) < 2:
        return []
    written = label_words(label).split()
    broken = next((w for w in written if len(w) > 1 and not any(w in line for line in lines)), None)
    if broken is not None:
        return [("hardware.check.broken_word", (("word", broken),))]
    figures = not any(ch.isalpha() for ch in label_words(label))  # "5 4 3 2 / 1 = 21": no words to break
    if (role == "figure" or figures) and "\n" not in label_words(label):
        return [("hardware.check.wrapped", (("count", len(lines)),))]
    return []


def _measure(label: Label, **changes: Any) -> tuple[float, float]:
    core = label._label
    options = dict(core.options)
    options.update(text=label.text, **changes)
    measure = type(core)(**options)
    measure.refresh()
    w, h = measure.texture.size
    return float(w), float(h)


def _whole(label: Label) -> tuple[float, int]:
    """The height the label's whole text needs at its width, and how much ink it draws."""
    core = label._label
    options = dict(core.options)
    options.update(text=label.text, text_size=(label.text_size[0], None), shorten=False, max_lines=0)
    measure = type(core)(**options)
    measure.refresh()
    return float(measure.texture.size[1]), _ink(measure.texture)


def _ink(texture: Any) -> int:
    """The ink of a text's texture: the sum of its pixels' alpha (a cut letter has less)."""
    if texture is None:
        return 0
    return sum(bytes(texture.pixels)[3::4])


def _one_line_width(label: Label) -> float:
    return _measure(label, text_size=(None, None), shorten=False, max_lines=0)[0]


# -- contrast ---------------------------------------------------------------------------------------
def _contrast(screen: str, name: str, ink: Any, opacity: float, box: Box, role: str, frame: Frame,
              language: str) -> list[Problem]:
    under = frame.common_colour(box, ink if role == MARK else None)
    if under is None:
        return []
    red, green, blue, alpha = (float(c) for c in ink)
    alpha *= opacity
    seen = tuple(c * alpha + u * (1 - alpha) for c, u in zip((red, green, blue), under[:3], strict=True))
    ratio = theme.contrast((seen[0], seen[1], seen[2], 1.0), under)
    least = ROLE_CONTRAST[role]
    if ratio >= least:
        return []
    hex_code = "#" + "".join(f"{round(c * 255):02x}" for c in under[:3])
    return [Problem(screen, name, "hardware.check.contrast",
                    (("ratio", decimal(ratio, 1, language)), ("least", decimal(least, 1, language)),
                     ("background", hex_code)))]


# -- touch targets ----------------------------------------------------------------------------------
def _is_target(widget: Widget) -> bool:
    if widget.disabled:
        return False
    return isinstance(widget, ButtonBehavior) or bool(widget.is_event_type("on_press"))


def _target_name(widget: Widget) -> str:
    words = _shown_text(widget) if isinstance(getattr(widget, "text", None), str) else ""
    return words or f"<{type(widget).__name__}>"


def _target_size(screen: str, widget: Widget) -> list[Problem]:
    if widget.width + SLACK >= theme.TOUCH and widget.height + SLACK >= theme.TOUCH:
        return []
    return [Problem(screen, _target_name(widget), "hardware.check.target_small",
                    (("width", round(widget.width)), ("height", round(widget.height)),
                     ("least", theme.TOUCH)))]


def _overlaps(screen: str, targets: list[tuple[Widget, Box]]) -> list[Problem]:
    found: list[Problem] = []
    for index, (first, first_box) in enumerate(targets):
        for second, second_box in targets[index + 1:]:
            if _related(first, second):
                continue
            shared = _intersect(first_box, second_box)
            if not _empty(shared):
                found.append(Problem(screen, _target_name(first), "hardware.check.overlap",
                                     (("other", _target_name(second)),)))
    return found


def _over_targets(screen: str, labels: list[tuple[Label, Box]],
                  targets: list[tuple[Widget, Box]]) -> list[Problem]:
    """A label that is no part of a button but lays its letters over one."""
    found: list[Problem] = []
    for label, letters in labels:
        for target, box in targets:
            if label is target or _related(label, target):
                continue
            if not _empty(_intersect(letters, box)):
                found.append(Problem(screen, _shown_text(label), "hardware.check.over_target",
                                     (("other", _target_name(target)),)))
    return found


def _related(first: Widget, second: Widget) -> bool:
    """Whether one widget holds the other (a button inside a button is one target)."""
    return _holds(first, second) or _holds(second, first)


def _holds(outer: Widget, inner: Widget) -> bool:
    node = inner.parent
    while isinstance(node, Widget):
        if node is outer:
            return True
        node = node.parent
    return False


# -- texts drawn on a board's canvas ----------------------------------------------------------------
def _rectangles(group: Any, alpha: list[float], skip: set[int]) -> Iterator[Rectangle]:
    """The rectangles of a widget's own canvas (``skip``: its children's canvases, checked with
    them) drawn in a colour that shows (a board hides a kept figure by giving its colour alpha 0)."""
    for instruction in getattr(group, "children", []):
        if isinstance(instruction, Color):
            alpha[0] = float(instruction.a)
        elif isinstance(instruction, Rectangle):
            if alpha[0] > 0:
                yield instruction
        elif id(instruction) not in skip:
            yield from _rectangles(instruction, alpha, skip)


def _drawn_problems(screen: str, widget: Widget, frame: Frame | None, language: str) -> list[Problem]:
    found: list[Problem] = []
    marks: list[tuple[str, Box]] = []
    canvas = widget.canvas
    children = {id(child.canvas) for child in widget.children}
    for group in (canvas.before, canvas, canvas.after):
        for rect in _rectangles(group, [1.0], children):
            said = drawn(rect.texture)
            if said is None or not said.text.strip():
                continue
            (x, y), (w, h) = rect.pos, rect.size
            left, bottom = widget.to_window(x, y)
            right, top = widget.to_window(x + w, y + h)
            box: Box = (float(left), float(bottom), float(right), float(top))
            if _empty(box) or any(_empty(_intersect(box, s)) for s in _stencils(widget)) or _clipped(box):
                continue  # out of sight (a panned map's edge)
            name = " ".join(said.text.split())
            marks.append((name, box))
            found += _leaks(screen, name, said.text, language)
            texture_h = float(rect.texture.size[1]) or h
            found += _size(screen, name, said.font_size * h / texture_h, said.role)
            if frame is not None:
                opacity = _opacity(widget)
                found += _contrast(screen, name, said.colour, opacity, box, said.role, frame, language)
    return found + _covered(screen, marks)


def _core(box: Box) -> Box:
    """The middle of a text's texture, where its letters are (the texture has room around them)."""
    dx, dy = (box[2] - box[0]) * (1 - MARK_CORE) / 2, (box[3] - box[1]) * (1 - MARK_CORE) / 2
    return (box[0] + dx, box[1] + dy, box[2] - dx, box[3] - dy)


def _covered(screen: str, marks: list[tuple[str, Box]]) -> list[Problem]:
    """Two texts a board draws over each other (a token on a token, initials on a guild's digit)."""
    found: list[Problem] = []
    cores = [(name, _core(box)) for name, box in marks]
    for index, (name, core) in enumerate(cores):
        for other, other_core in cores[index + 1:]:
            if not _empty(_intersect(core, other_core)):
                found.append(Problem(screen, name, "hardware.check.covers", (("other", other),)))
    return found
