"""The store and everything that keeps it safe: SQLite, migrations, the writer lock, the doctor, backups."""
