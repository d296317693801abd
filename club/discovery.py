"""Home Assistant sees the table: MQTT discovery of one device with four sensors (docs/club.md).

Home Assistant's MQTT integration reads a retained JSON configuration per entity at
``homeassistant/sensor/<node_id>/<object_id>/config`` (ids of ``[a-zA-Z0-9_-]`` only). Each of
the table's sensors — the game, whose turn, who leads, the last move — names the same device
(``identifiers``), so Home Assistant shows one device for the table. Their values come from the
table's ``home`` topic, in the table's language (:func:`club.payloads.home`); whether the table
is there, from its status (``online``, false in its last will).
"""

from __future__ import annotations

from typing import Any

from club.settings import ClubSettings
from club.topics import discovery_topic, home_topic, node_id, status_topic
from companion.games.messages import msg
from companion.i18n import render

#: The sensors, each with the key of the ``home`` payload it shows and its icon.
SENSORS = (("game", "mdi:dice-multiple"), ("turn", "mdi:account-clock"), ("leader", "mdi:trophy"),
           ("last_move", "mdi:history"))


def configs(settings: ClubSettings, language: str, version: str) -> dict[str, dict[str, Any]]:
    """Each sensor's discovery topic and configuration (the full key names Home Assistant documents)."""
    node = node_id(settings.club, settings.table)
    device = {"identifiers": [node], "name": render(msg("club.table.home.device", table=settings.table,
                                                        club=settings.club), language),
              "manufacturer": "Tabletop companion", "model": "companion", "sw_version": version}
    found = {}
    for sensor, icon in SENSORS:
        found[discovery_topic(settings.club, settings.table, sensor)] = {
            "name": render(msg(f"club.table.home.{sensor}"), language),
            "unique_id": f"{node}_{sensor}",
            "object_id": f"{node}_{sensor}",
            "state_topic": home_topic(settings.club, settings.table),
            "value_template": f"{{{{ value_json.{sensor} }}}}",
            "availability_topic": status_topic(settings.club, settings.table),
            "availability_template": "{{ 'online' if value_json.online else 'offline' }}",
            "payload_available": "online",
            "payload_not_available": "offline",
            "icon": icon,
            "qos": 1,
            "device": device,
        }
    return found
