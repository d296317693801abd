"""The ``companion`` command line: :func:`main` and one module per group of subcommands."""

from companion.cli.main import main

__all__ = ["main"]
