"""Where the data directory is: --data-dir, $COMPANION_DATA, config, $STATE_DIRECTORY, platformdirs."""

from __future__ import annotations

import re
from pathlib import Path

import platformdirs
import pytest

from companion.storage.paths import DB_FILENAME, DataDirError, data_dir, database_path, ensure_data_dir


def test_precedence(tmp_path: Path) -> None:
    env = {"COMPANION_DATA": "/env/data", "STATE_DIRECTORY": "/var/lib/companion"}
    assert data_dir("/cli", config_value="/cfg", environ=env) == Path("/cli")
    assert data_dir(None, config_value="/cfg", environ=env) == Path("/env/data")
    assert data_dir(None, config_value="/cfg", environ={"STATE_DIRECTORY": "/var/lib/companion"}) \
        == Path("/cfg")
    assert data_dir(None, environ={"STATE_DIRECTORY": "/var/lib/companion:/var/lib/other"}) \
        == Path("/var/lib/companion")
    assert data_dir(None, environ={}) == Path(platformdirs.user_data_dir("companion", appauthor=False))


@pytest.mark.parametrize(("cli", "env", "config", "message"), [
    ("", {}, None, "--data-dir is empty: give a directory, or leave the option out"),
    (" ", {"COMPANION_DATA": "/env"}, None, "--data-dir is empty"),
    (None, {"COMPANION_DATA": ""}, None, "COMPANION_DATA is set but empty: give a directory, or unset it"),
    (None, {}, "", "data_dir in the configuration is empty"),
])
def test_an_empty_data_dir_is_an_error_not_a_fall_back(cli, env, config, message) -> None:
    with pytest.raises(DataDirError, match=f"^{re.escape(message)}"):
        data_dir(cli, config_value=config, environ=env)


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
