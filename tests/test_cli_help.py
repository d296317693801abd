"""Every command that ``companion --help`` or a command's help names exists, and its help works.

``companion --help`` once listed ``board … list`` while the command was
called ``layouts``: a newcomer who types what the help says must not meet
"invalid choice". The tests walk the parser the program itself builds.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from companion.cli.main import build_parser, main
from companion.i18n import text as say


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    """Every (sub)command: its words, its parser and the help line its parent lists it with."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, child in action.choices.items():
                yield (*path, name), child, helps.get(name) or ""
                yield from _commands(child, (*path, name))


COMMANDS = sorted(_commands(build_parser()), key=lambda found: found[0])


@pytest.mark.parametrize("words", [words for words, _, _ in COMMANDS], ids=" ".join)
def test_every_command_s_help_exits_0(words, capsys, data_dir):
    with pytest.raises(SystemExit) as done:
        main([*words, "--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    assert usage.startswith("usage: companion " + " ".join(words[:-1]))  # an alias shows its command's name


@pytest.mark.parametrize("words, parser, line", COMMANDS, ids=[" ".join(w) for w, _, _ in COMMANDS])
def test_the_subcommands_a_command_group_lists_are_its_own(words, parser, line):
    """A group's help line that lists its subcommands ("Castelli boards: validate, import, layouts")
    lists only words that are subcommands of it."""
    subcommands = {name for action in parser._actions if isinstance(action, argparse._SubParsersAction)
                   for name in action.choices}
    listed = re.fullmatch(r"[^:]*: ([\w-]+(?:, [\w-]+)+)", say(line)) if subcommands else None
    if listed:
        assert set(listed.group(1).split(", ")) <= subcommands


def test_board_list_is_the_layouts_command_under_the_name_the_help_once_gave(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    assert main(["board", "list"]) == 0
    listed = capsys.readouterr().out
    assert main(["board", "layouts"]) == 0
    assert capsys.readouterr().out == listed


@pytest.mark.parametrize("language", ["en", "hu"])
def test_run_help_names_what_the_console_takes(language, capsys):
    from companion.console.loop import COMMANDS

    with pytest.raises(SystemExit):
        main(["--lang", language, "run", "--help"])
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps the description
    assert all(command in shown for command in COMMANDS), shown
    assert "Albert: " in shown and "JSON" in shown  # the notation, and the record's JSON
