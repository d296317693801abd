"""The keyboard of a laptop, mapped to the commands the appliance's buttons send.

One seam for both: a key and a hardware button end up as the same command
name, run by :meth:`ui.app.Shell.command`. The buttons' own names are the
hardware package's; these are the touchscreen shell's.
"""

from __future__ import annotations

#: Key (a letter, or Kivy's name of a special key) -> command.
KEY_COMMANDS: dict[str, str] = {
    "u": "undo",
    "r": "redo",
    "h": "history",
    "escape": "back",
    "home": "home",
    "backspace": "undo",
}
#: Kivy's key codes of the special keys above.
SPECIAL_KEYS: dict[int, str] = {27: "escape", 278: "home", 8: "backspace"}


def command_for_key(key: int, codepoint: str | None, modifiers: list[str], typing: bool) -> str | None:
    """The command of a key press, or ``None``. While a text field has the focus only Escape counts
    (the letters are being typed); Ctrl+Z and Ctrl+Y are undo and redo everywhere."""
    if "ctrl" in modifiers and codepoint in ("z", "y"):
        return "undo" if codepoint == "z" else "redo"
    name = SPECIAL_KEYS.get(key) or (codepoint or "").lower()
    if typing and name != "escape":
        return None
    return KEY_COMMANDS.get(name)
