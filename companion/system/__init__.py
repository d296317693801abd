"""The companion's dealings with the operating system: the clock, power, logging and systemd's watchdog."""
