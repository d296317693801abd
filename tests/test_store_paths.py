"""Where the data directory is: --data-dir, $COMPANION_DATA, config, $STATE_DIRECTORY, platformdirs."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from companion.paths import DB_FILENAME, data_dir, database_path, ensure_data_dir


def test_precedence(tmp_path: Path) -> None:
    env = {"COMPANION_DATA": "/env/data", "STATE_DIRECTORY": "/var/lib/companion"}
    assert data_dir("/cli", config_value="/cfg", environ=env) == Path("/cli")
    assert data_dir(None, config_value="/cfg", environ=env) == Path("/env/data")
    assert data_dir(None, config_value="/cfg", environ={"STATE_DIRECTORY": "/var/lib/companion"}) \
        == Path("/cfg")
    assert data_dir(None, environ={"STATE_DIRECTORY": "/var/lib/companion:/var/lib/other"}) \
        == Path("/var/lib/companion")
    assert data_dir(None, environ={}) == Path(platformdirs.user_data_dir("companion", appauthor=False))
    assert data_dir("", environ={"COMPANION_DATA": ""}) == Path(platformdirs.user_data_dir(
        "companion", appauthor=False))


def test_database_path_creates_the_directory(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b"
    path = database_path(environ={"COMPANION_DATA": str(target)})
    assert path == target / DB_FILENAME and target.is_dir()
    assert database_path(str(tmp_path / "c"), create=False) == tmp_path / "c" / DB_FILENAME
    assert not (tmp_path / "c").exists()


def test_a_data_dir_that_cannot_be_created_is_a_readable_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OSError, match=f"cannot create the data directory {blocker / 'sub'}"):
        ensure_data_dir(blocker / "sub")
