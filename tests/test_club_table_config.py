"""The ``[club]`` section (docs/config.md, docs/club.md): each key checked, the names by the one name
rule and free of MQTT's ``+ # /``, the broker's address, the credentials file readable by its
owner alone; a wrong club setting is one line naming the key, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from club.settings import ClubConfigError, club_configured, club_settings, read_credentials
from companion.i18n import render
from companion.service.config import broker_problem, read_config, topic_name_problem
from tests.club_table_kit import companion, write_config


@pytest.mark.parametrize("address", ["mqtt://club.local", "mqtts://10.0.0.2:8883", "mqtt://[::1]:1883",
                                     "mqtt://club.local/"])
def test_a_broker_address_is_mqtt_or_mqtts_with_a_host(address: str) -> None:
    assert broker_problem(address) is None


@pytest.mark.parametrize("address", ["http://club.local", "mqtt://", "club.local:1883", "mqtt://h:0",
                                     "mqtt://h:70000", "mqtt://user:pw@h", "mqtt://h/topic", "mqtt://h:x",
                                     "mqtt://h\x1b", "mqtt://h ost", 1883, None])
def test_anything_else_is_refused(address: object) -> None:
    assert broker_problem(address) is not None


@pytest.mark.parametrize("name", ["Thursday Club", "Asztal 3", "Ünnep", "x" * 60])
def test_a_club_or_table_name_may_be_a_name(name: str) -> None:
    assert topic_name_problem(name, "club") is None and topic_name_problem(name, "table") is None


@pytest.mark.parametrize(("name", "code"), [("a/b", "club.table.config.topic_character"),
                                             ("a+", "club.table.config.topic_character"),
                                             ("#", "club.table.config.topic_character"),
                                             ("evil\u202e", "common.name.unsafe_in"),
                                             ("  ", "common.name.empty"),
                                             ("x" * 61, "common.name.too_long")])
def test_a_name_that_would_change_the_topics_or_the_screens_is_refused(name: str, code: str) -> None:
    found = topic_name_problem(name, "table")
    assert found is not None and found.code == code
    assert "table" in render(found, "en")


def test_the_settings_come_from_the_file_and_the_options_win(tmp_path: Path) -> None:
    config = read_config(write_config(tmp_path, "mqtts://club.local", club="Club", table=""))
    assert club_configured(config)
    settings = club_settings(config, "Window table")
    assert (settings.host, settings.port, settings.tls) == ("club.local", 8883, True)
    assert (settings.club, settings.table) == ("Club", "Window table")  # the table's name in Settings
    other = club_settings(config, "Window table", broker="mqtt://other:1999", club="B", table="T")
    assert (other.host, other.port, other.tls, other.club, other.table) == ("other", 1999, False, "B", "T")
    assert other.client_id == "companion/B/T"


@pytest.mark.parametrize(("name", "value"), [("club", "a#b"), ("table", "a/b"), ("broker", "http://x"),
                                             ("ca_file", "relative.crt"), ("credentials_file", 7)])
def test_a_bad_key_in_the_file_is_refused_naming_it(tmp_path: Path, name: str, value: object) -> None:
    keys: dict[str, object] = {"broker": "mqtt://h", "club": "C", "table": "T", name: value}
    path = tmp_path / "companion.toml"
    path.write_text("[club]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in keys.items()))
    with pytest.raises(ClubConfigError) as refused:
        club_settings(read_config(path))
    said = render(refused.value.message, "en")
    assert said.startswith(f"club.{name}: ") and "using the default" not in said


def test_no_table_name_anywhere_is_refused(tmp_path: Path) -> None:
    config = read_config(write_config(tmp_path, "mqtt://h", table=""))
    with pytest.raises(ClubConfigError) as refused:
        club_settings(config, "")
    assert "club.table" in render(refused.value.message, "en")


def test_credentials_are_two_lines_readable_by_the_owner_alone(tmp_path: Path) -> None:
    secret = tmp_path / "credentials"
    secret.write_text("table1\n s3cret pass \n")
    secret.chmod(0o600)
    assert read_credentials(secret) == ("table1", "s3cret pass")
    secret.chmod(0o640)
    with pytest.raises(ClubConfigError) as open_to_others:
        read_credentials(secret)
    assert "chmod 600" in render(open_to_others.value.message, "en")
    secret.chmod(0o600)
    secret.write_text("only-a-user\n")
    with pytest.raises(ClubConfigError):
        read_credentials(secret)
    with pytest.raises(ClubConfigError):
        read_credentials(tmp_path / "missing")


def test_the_commands_exit_2_on_a_wrong_configuration(tmp_path: Path) -> None:
    bad = tmp_path / "companion.toml"
    bad.write_text('[club]\nbroker = "ftp://h"\nclub = "C"\ntable = "T"\n')
    for command in ("publish", "run"):
        done = companion(tmp_path / "data", "club", command, "--config", str(bad))
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert "club.broker" in done.stderr and done.stderr.count("\n") == 1
    nothing = tmp_path / "empty.toml"
    nothing.write_text("")
    assert companion(tmp_path / "data", "club", "publish", "--config", str(nothing)).returncode == 2
    quiet = companion(tmp_path / "data", "club", "run", "--config", str(nothing))
    assert quiet.returncode == 0 and "in no club" in quiet.stdout  # the unit has nothing to do
    hungarian = companion(tmp_path / "data", "--lang", "hu", "club", "publish", "--config", str(bad))
    assert hungarian.returncode == 2 and "a bróker címe legyen" in hungarian.stderr
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir())  # nothing touched
