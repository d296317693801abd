"""The table's live page for phones: a read-only web front end over the store.

``companion web`` (:mod:`web.server`) serves it in a process of its own; the
routes are in :mod:`web.app`, the read-only store in :mod:`web.store_reader`,
the change notices in :mod:`web.events`, the access token in :mod:`web.token`.
What the pages hold is :mod:`web.pages`. Like ``ui/`` and ``hardware/`` this is a
front end: it imports :mod:`companion` (never its command line), never ``ui``,
``hardware`` or Kivy; the web libraries (Starlette, uvicorn, Jinja2) are imported
here only. See ``docs/web.md``.
"""
