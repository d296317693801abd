"""The San Gimignano screens of the touchscreen: the hex map, its palette and the setup of a new game."""
