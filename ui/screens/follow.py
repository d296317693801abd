"""Follow on your phone: the live page's QR code, large, one tap from Home.

Players on the far side of the table want the standings and whose turn it is
without leaning over the screen; ``companion web`` serves that page and writes
the URL it serves beside the store (:mod:`companion.service.web_link`). Settings
shows the same code among the table's settings; this screen is the one players
find, so it gives the code the room of the screen and says, in words, what the
phone will and will not be able to do.
"""

from __future__ import annotations

from kivy.properties import ObjectProperty, StringProperty

from companion.i18n import text
from companion.service.app import Companion
from companion.service.web_link import WEB_SETTING, read_url
from ui.screens import ShellScreen, load_rules


def served_url(app: Companion) -> str | None:
    """The live page's URL while the table has it switched on and ``companion web`` serves it."""
    if not app.settings().get(WEB_SETTING, True):
        return None
    found: str | None = read_url(app.store.path.parent)
    return found


def code_side(texture_side: int, room: float) -> int:
    """The code's side on the screen: its texture (4 px a module) times the largest whole number
    that fits ``room``, so that every module stays a sharp square — larger is easier for a phone
    held across the table."""
    if texture_side <= 0:
        return 0
    return texture_side * max(1, int(room // texture_side))


class FollowScreen(ShellScreen):
    """The live page's QR code and URL (layout: ``follow.kv``)."""

    #: The QR code of :attr:`url` (``None`` while nothing is served).
    texture = ObjectProperty(None, allownone=True)
    #: The URL the code holds ("" while nothing is served).
    url = StringProperty("")
    #: What is said beside the code: how to use it, or why there is none now.
    words = StringProperty("")

    def code_side(self, room: float) -> int:
        """The side the code is drawn at in ``room`` px (see :func:`code_side`)."""
        return code_side(self.texture.width if self.texture is not None else 0, room)

    def refresh(self) -> None:
        url = served_url(self.shell.table.app) or ""
        if url != self.url:
            from ui.screens.game_over import qr_texture  # the QR library, only once a code is shown

            self.texture = qr_texture(url) if url else None
            self.url = url
        self.words = text("ui.follow.how") if url else text("ui.follow.none")


load_rules(__file__)
