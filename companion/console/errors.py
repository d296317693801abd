"""The console's one error: typed input that cannot be read.

Apart from :mod:`companion.console.reading` (which raises it) so that the command line can catch
it without importing the readers: ``companion replay`` never reads a typed line.
"""

from __future__ import annotations


class InputError(ValueError):
    """Typed input that cannot be read; ``str()`` is the refusal in player words."""
