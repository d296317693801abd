"""The club's table side of ``companion club`` (docs/club.md)."""

from __future__ import annotations

import argparse


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds this side's actions to ``companion club``."""
