"""Where the companion keeps its data.

The data directory is, first found wins:

1. ``--data-dir DIR`` on the command line;
2. ``$COMPANION_DATA``;
3. ``data_dir`` from the TOML configuration, when the caller passes it;
4. ``$STATE_DIRECTORY``, set by systemd for ``StateDirectory=companion``
   (the appliance: ``/var/lib/companion``; the first entry if it lists several);
5. ``platformdirs.user_data_dir("companion")`` (e.g. ``~/.local/share/companion``).

The database is ``companion.sqlite3`` in it. An empty ``--data-dir ''`` or
``COMPANION_DATA=`` is a mistake (:class:`DataDirError`), never a silent
fall-back to the user's real folder. The directory is created only by
commands that store something (see :func:`ensure_data_dir`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from companion.games.messages import msg

DB_FILENAME = "companion.sqlite3"


class DataDirError(ValueError):
    """The data directory was given, but empty."""


def data_dir(cli_value: str | os.PathLike[str] | None = None, *,
             config_value: str | os.PathLike[str] | None = None,
             environ: Mapping[str, str] | None = None) -> Path:
    """The data directory by the precedence above (not created; see :func:`ensure_data_dir`)."""
    env = os.environ if environ is None else environ
    if cli_value is not None:
        if not os.fspath(cli_value).strip():
            raise DataDirError(msg("cli.data_dir.option_empty"))
        return Path(cli_value).expanduser()
    if "COMPANION_DATA" in env:
        if not env["COMPANION_DATA"].strip():
            raise DataDirError(msg("cli.data_dir.variable_empty"))
        return Path(env["COMPANION_DATA"]).expanduser()
    if config_value is not None:
        if not os.fspath(config_value).strip():
            raise DataDirError(msg("cli.data_dir.config_empty"))
        return Path(config_value).expanduser()
    state = env.get("STATE_DIRECTORY", "")
    first = state.split(":")[0]
    if first:
        return Path(first)
    import platformdirs  # only without systemd's STATE_DIRECTORY (the appliance never needs it)

    return Path(platformdirs.user_data_dir("companion", appauthor=False))


def ensure_data_dir(directory: Path) -> Path:
    """Create ``directory`` (and parents) if needed; :class:`OSError` with a readable message if not."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OSError(msg("cli.data_dir.cannot_create", path=str(directory),
                          reason=error.strerror or str(error))) from None
    if not directory.is_dir():
        raise OSError(msg("cli.data_dir.not_directory", path=str(directory)))
    return directory


def database_path(cli_value: str | os.PathLike[str] | None = None, *,
                  config_value: str | os.PathLike[str] | None = None,
                  environ: Mapping[str, str] | None = None, create: bool = True) -> Path:
    """The path of the database file, its directory created when ``create``."""
    directory = data_dir(cli_value, config_value=config_value, environ=environ)
    if create:
        ensure_data_dir(directory)
    return directory / DB_FILENAME
