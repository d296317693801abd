"""Subcommands of the ``companion`` CLI, one module per group (see :mod:`companion.cli.main`)."""
