"""The phones' front end: a read-only web server beside the touchscreen and the OLED.

It imports :mod:`companion` (never ``ui``, ``hardware`` or Kivy): ``web.pages`` turns records and
statistics into HTML, the server around it serves them to the phones at the table.
"""
