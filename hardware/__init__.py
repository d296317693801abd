"""Adapters for the appliance's hardware: GPIO buttons (gpiozero), the status OLED
(luma.oled) and the seat panels (pyserial).

Each adapter turns its device's events into commands posted to the session's
:class:`companion.service.command_queue.CommandQueue`, or renders a view of the
session, and degrades to "absent" without crashing when its device is
missing. The adapters themselves arrive with the appliance issue; this
package exists now so that the layering (who may import whom) is fixed from
the start: ``hardware`` may import ``companion``, never the other way round.
"""
