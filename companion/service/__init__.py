"""The application service: the table, the session and its move log, records, settings and configuration."""
