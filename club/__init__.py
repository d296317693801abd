"""The club of tables: tables publish their live status and finished plays to an MQTT broker, and
a club server keeps every play and shows the room's standings (docs/club.md).

A package of its own beside ``web``: it imports ``companion`` (the service, the store, the
engines), never the touchscreen or the hardware, and only this package imports the MQTT client.
"""
