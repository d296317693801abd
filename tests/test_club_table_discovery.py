"""Home Assistant's MQTT discovery, checked against the format Home Assistant documents
(home-assistant.io/integrations/mqtt/, "Discovery messages", and /integrations/sensor.mqtt/):
the topic ``<discovery_prefix>/<component>/[<node_id>/]<object_id>/config`` with ids of
``[a-zA-Z0-9_-]`` only; a sensor's configuration variables (``state_topic`` required); a device
that names its ``identifiers``; the abbreviations Home Assistant expands (a payload may use either
the full name or its abbreviation; this one uses full names, each a documented one). The templates
are rendered with Jinja2 on the table's own payloads, as Home Assistant renders them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club import discovery, payloads
from club.settings import ClubSettings
from club.topics import DISCOVERY_PREFIX, home_topic, node_id, status_topic

#: The documented MQTT sensor configuration variables (sensor.mqtt) this table may use.
SENSOR_KEYS = {"availability", "availability_mode", "availability_template", "availability_topic",
               "device", "device_class", "enabled_by_default", "encoding", "entity_category",
               "expire_after", "force_update", "icon", "json_attributes_template", "json_attributes_topic",
               "name", "object_id", "payload_available", "payload_not_available", "qos", "state_class",
               "state_topic", "unique_id", "unit_of_measurement", "value_template"}
#: The documented keys of ``device``.
DEVICE_KEYS = {"configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model",
               "model_id", "name", "serial_number", "suggested_area", "sw_version", "via_device"}
#: Some of the abbreviations Home Assistant documents (abbreviation -> full name): a payload that
#: used one of these keys would mean the full name; ours must not use a key as something else.
ABBREVIATIONS = {"avty_t": "availability_topic", "avty_tpl": "availability_template", "dev": "device",
                 "ic": "icon", "name": "name", "obj_id": "object_id", "pl_avail": "payload_available",
                 "pl_not_avail": "payload_not_available", "stat_t": "state_topic", "uniq_id": "unique_id",
                 "val_tpl": "value_template", "ids": "identifiers", "mf": "manufacturer", "mdl": "model",
                 "sw": "sw_version"}
ID = re.compile(r"[a-zA-Z0-9_-]+")


def _settings(club: str = "Club", table: str = "Table 1") -> ClubSettings:
    return ClubSettings("mqtt://h", "h", 1883, False, club, table)


def _expanded(payload: dict[str, object]) -> dict[str, object]:
    return {ABBREVIATIONS.get(key, key): value for key, value in payload.items()}


@pytest.mark.parametrize("language", ["en", "hu"])
def test_every_sensor_follows_the_documented_discovery_format(language: str) -> None:
    configs = discovery.configs(_settings(), language, "1.0")
    assert len(configs) == 4
    devices = set()
    for topic, config in configs.items():
        prefix, component, node, object_id, last = topic.split("/")
        assert (prefix, component, last) == (DISCOVERY_PREFIX, "sensor", "config")
        assert ID.fullmatch(node) and ID.fullmatch(object_id)
        config = _expanded(config)
        assert set(config) <= SENSOR_KEYS, set(config) - SENSOR_KEYS
        assert config["state_topic"] == home_topic("Club", "Table 1")  # the one required key
        assert config["availability_topic"] == status_topic("Club", "Table 1")
        assert isinstance(config["unique_id"], str) and config["unique_id"]
        device = config["device"]
        assert isinstance(device, dict) and set(device) <= DEVICE_KEYS and device["identifiers"]
        devices.add(tuple(device["identifiers"]))
        assert config["qos"] in (0, 1, 2) and str(config["icon"]).startswith("mdi:")
    assert len(devices) == 1  # one device, four sensors
    assert len({c["unique_id"] for c in configs.values()}) == 4


def _render(template: object, value: object) -> str:
    return jinja2.Environment().from_string(str(template)).render(value_json=value)


def test_the_templates_read_the_tables_payloads() -> None:
    configs = list(discovery.configs(_settings(), "en", "1.0").values())
    found = payloads.Facts("campanile", "Campanile", "x", [{"name": "Anna", "colour": "red", "score": 7},
                                                            {"name": "Béla", "colour": "blue", "score": 7}],
                           "Anna", False, {"player": "Béla", "text": "Béla builds"}, None)
    home = payloads.home(found)
    node = node_id("Club", "Table 1")
    shown = {c["object_id"].removeprefix(f"{node}_"): _render(c["value_template"], home) for c in configs}
    assert shown == {"game": "Campanile", "turn": "Anna", "leader": "Anna, Béla", "last_move": "Béla builds"}
    online = payloads.status(_settings(), found, language="en", sent_at=datetime.now(UTC), clock_sure=True)
    for config in configs:
        assert _render(config["availability_template"], online) == config["payload_available"]
        assert _render(config["availability_template"], payloads.offline_status(_settings())) == \
            config["payload_not_available"]


def test_the_sensors_names_are_the_tables_language() -> None:
    english = {c["name"] for c in discovery.configs(_settings(), "en", "1").values()}
    hungarian = {c["name"] for c in discovery.configs(_settings(), "hu", "1").values()}
    assert english == {"Game", "Whose turn", "Leader", "Last move"}
    assert hungarian == {"Játék", "Ki következik", "Vezet", "Utolsó lépés"}


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=20), st.text(min_size=1, max_size=20))
def test_any_names_give_ids_discovery_accepts_and_different_tables_different_devices(club: str,
                                                                                     table: str) -> None:
    first = discovery.configs(_settings(club, table), "en", "1")
    other = discovery.configs(_settings(club, table + "x"), "en", "1")
    for topic in first:
        assert all(ID.fullmatch(level) for level in topic.split("/"))
    assert not set(first) & set(other)
