"""The Kivy touchscreen app: screens, widgets and ``.kv`` layouts.

The screens are views of the session and propose moves through the command
queue; they ask the rules engines what is legal instead of re-implementing
rules. The app arrives with the UI issue; until then ``companion run`` runs
headless. ``ui`` may import ``companion``, never the other way round.
"""
