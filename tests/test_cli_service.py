"""The commands over the service: settings, players, rematch and abandon (thin, one line per mistake)."""

from __future__ import annotations

import json
from pathlib import Path

EXAMPLES = Path(__file__).parent / "data" / "examples"


def test_settings_show_change_and_refuse(cli) -> None:
    code, out, err = cli("settings")
    assert (code, err) == (0, "") and 'language = "en"' in out.splitlines()
    assert cli("settings", "table.name", "Kitchen table") == (0, 'table.name = "Kitchen table"\n', "")
    assert cli("settings", "bgg_id.castelli", "12345") == (0, "bgg_id.castelli = 12345\n", "")
    assert cli("settings", "table.name") == (0, 'table.name = "Kitchen table"\n', "")
    assert cli("settings", "language", "de") == (
        2, "", "companion: language: must be one of en, hu, not 'de'\n")
    code, out, err = cli("settings", "volume", "3")
    assert (code, out) == (2, "")
    assert err.startswith('companion: there is no setting "volume"; the settings are language, ')
    code, out, err = cli("settings", "volume")
    assert (code, out) == (2, "") and err.startswith('companion: there is no setting "volume"')
    assert cli("settings", "language") == (0, 'language = "en"\n', "")  # the refusal changed nothing


def test_players_profiles_and_colours(cli) -> None:
    assert cli("players", "list") == (0, "no player profiles yet\n", "")
    assert cli("players", "add", "Zoë") == (0, 'added player "Zoë"\n', "")
    assert cli("players", "add", "Zoë") == (2, "", 'companion: there is already a player "Zoë"\n')
    assert cli("players", "colour", "Zoë", "castelli", "red")[0] == 0
    assert cli("players", "colour", "Zoë", "castelli", "black") == (
        2, "", 'companion: colour: "black" is not a colour of Castelli (one of blue, yellow, red, green)\n')
    assert cli("players", "colour", "Zoë", "chess", "red")[0] == 2
    assert cli("players", "list") == (0, "Zoë (castelli red)\n", "")
    assert cli("players", "colour", "Zoë", "castelli", "-") == (
        0, "Zoë has no preferred colour at castelli\n", "")
    assert cli("players", "remove", "Zoë")[0] == 0
    assert cli("players", "remove", "Zoë") == (2, "", 'companion: there is no player "Zoë"\n')


def test_rematch_and_abandon(cli) -> None:
    assert cli("rematch") == (2, "", "companion: there are no stored games yet (start one with "
                                     "`companion new`, or `companion import FILE`)\n")
    cli("new", "campanile", "Ann", "Bob", "Cid", "--setup", 'towers=["red","blue","yellow","brown","grey"]')
    code, out, err = cli("rematch", "1")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "started session 2: Campanile, Ann, Bob, Cid (a rematch of session 1)"
    exported = [json.loads(cli("export", sid)[1]) for sid in ("1", "2")]
    assert exported[0] == exported[1]  # same players, options and setup; no moves yet
    assert cli("abandon", "2") == (0, "session 2 is abandoned; it stays stored (`companion export 2`)\n", "")
    assert cli("abandon", "2") == (2, "", "companion: session 2 is already abandoned\n")
    assert cli("abandon", "9") == (2, "", "companion: there is no session 9 (see `companion sessions`)\n")
    assert "abandoned" in cli("sessions")[1].splitlines()[1]
    cli("import", str(EXAMPLES / "castelli.json"))
    assert cli("abandon", "3") == (
        2, "", "companion: session 3 is finished; only a game in progress can be abandoned\n")
