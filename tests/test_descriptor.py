"""The game descriptors and the registry: one object per game, the one place a game is listed."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games.base import RecordError
from companion.games.descriptor import GameDescriptor, seat_colours
from companion.registry import (
    GAMES,
    descriptor,
    descriptors,
    game_names,
    get_game,
    register,
    registered,
    unregister,
)
from companion.service import settings
from tests.toy_game.descriptor import DESCRIPTOR as TOY


def test_every_descriptor_names_its_engine_and_the_menu_order_is_the_registrys() -> None:
    assert game_names() == GAMES == tuple(d.name for d in descriptors())
    for known in descriptors():
        assert get_game(known.name).name == known.name
        assert descriptor(known.name) is known


def test_a_descriptor_is_frozen_and_its_hints_cannot_be_changed_behind_the_others_backs() -> None:
    known = descriptors()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        known.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        known.observed_hints["reveal"] = "x"  # type: ignore[index]


def test_a_game_registered_for_a_while_is_known_then_forgotten() -> None:
    with registered(TOY):
        assert game_names()[-1] == "toy-tally" and get_game("toy-tally").title == "Toy Tally"
        with pytest.raises(ValueError, match="registered already"):
            register(TOY)
    assert "toy-tally" not in game_names()
    with pytest.raises(RecordError, match="toy-tally"):
        get_game("toy-tally")
    unregister("toy-tally")  # forgetting an unknown game changes nothing


def test_an_engine_registered_under_another_name_is_refused() -> None:
    wrong = GameDescriptor(name="toy-other", engine=TOY.engine)
    with registered(wrong), pytest.raises(ValueError, match="not of 'toy-other'"):
        get_game("toy-other")


def test_the_settings_table_takes_each_games_simple_settings_from_its_descriptor() -> None:
    """A game's simple settings are the settings table's (default and check included), and each is
    one of the keys the game owns; the table names no game of its own."""
    declared = [(known, setting) for known in descriptors() for setting in known.settings]
    assert declared, "San Gimignano's guild names and colours are declared by its descriptor"
    for known, setting in declared:
        assert setting.key in known.setting_keys
        assert settings.SETTINGS[setting.key].default == setting.default
        assert settings.SETTINGS[setting.key].check is setting.check
        assert setting.check(setting.default) is None


def test_colours_by_seat_follow_the_record_then_the_profiles_then_the_box() -> None:
    box = ("blue", "red", "green")
    assert seat_colours(box, ["A", "B", "C"]) == {"A": "blue", "B": "red", "C": "green"}
    assert seat_colours(box, ["A", "B"], {"B": "blue"}, {"A": "blue"}) == {"A": "red", "B": "blue"}
    wanted = {"A": "black", "B": "green"}  # black is not in the box
    assert seat_colours(box, ["A", "B"], preferred=wanted) == {"A": "blue", "B": "green"}
    assert seat_colours(None, ["A", "B"], preferred={"A": "purple"}) == {"A": "purple", "B": None}
    assert seat_colours(("blue",), ["A", "B"]) == {"A": "blue", "B": None}
