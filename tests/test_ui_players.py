"""Each player's colour, decided once for the shell's badges and the boards (ui/players.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.service.app import PIECE_COLOURS, Companion
from ui.players import seat_colours, table_colours

PLAYERS = ["Albert", "Birgit", "Franziska"]


def test_without_wishes_the_seats_take_the_boxs_colours_in_order() -> None:
    assert seat_colours("campanile", PLAYERS) == {"Albert": "blue", "Birgit": "yellow", "Franziska": "red"}
    assert seat_colours("castelli", PLAYERS) == {"Albert": "blue", "Birgit": "yellow", "Franziska": "red"}


def test_a_wish_is_kept_by_the_earlier_seat_unless_the_game_has_no_such_piece() -> None:
    wanted = {"Albert": "white", "Birgit": "white", "Franziska": "black"}
    chosen = seat_colours("campanile", PLAYERS, preferred=wanted)
    assert chosen == {"Albert": "white", "Birgit": "blue", "Franziska": "black"}
    assert seat_colours("castelli", PLAYERS, preferred={"Albert": "black"})["Albert"] == "blue"


def test_the_games_record_wins_over_the_profiles() -> None:
    recorded = {"Albert": "green", "Birgit": "blue", "Franziska": "red"}
    assert seat_colours("castelli", PLAYERS, recorded, {"Albert": "blue"}) == recorded


def test_a_game_naming_no_colours_leaves_the_unwished_without_one() -> None:
    chosen = seat_colours("san-gimignano", ["Ada", "Bo"], preferred={"Ada": "purple"})
    assert chosen == {"Ada": "purple", "Bo": None}


@given(st.sampled_from(["campanile", "castelli"]), st.integers(min_value=2, max_value=4),
       st.lists(st.sampled_from(["blue", "yellow", "red", "black", "white", "green", None]),
                min_size=4, max_size=4))
def test_every_player_gets_one_of_the_games_colours_and_nobody_shares(game: str, count: int,
                                                                      wishes: list[str | None]) -> None:
    players = PLAYERS[:count] if count <= 3 else [*PLAYERS, "Helmut"]
    wanted = dict(zip(players, wishes, strict=False))
    chosen = seat_colours(game, players, preferred=wanted)
    assert list(chosen) == players
    assert len(set(chosen.values())) == len(players)
    allowed = PIECE_COLOURS[game] or ()
    assert all(colour in allowed for colour in chosen.values())
    for seat, (player, wish) in enumerate(wanted.items()):
        if wish in allowed and wish not in list(wanted.values())[:seat]:
            assert chosen[player] == wish  # a wish no earlier seat has is granted


def test_the_service_profiles_are_asked(tmp_path) -> None:
    with Companion.open(tmp_path / "c.sqlite3") as app:
        for name in PLAYERS:
            app.add_profile(name)
        app.set_preferred_colour("Birgit", "campanile", "blue")
        assert table_colours(app, "campanile", PLAYERS) == {
            "Albert": "yellow", "Birgit": "blue", "Franziska": "red"}


def test_a_player_without_a_colour_gets_a_spare_one_the_same_on_every_screen(tmp_path) -> None:
    """The board, the bar, the history and game over all ask table_colours: a player of a game
    naming no colours is drawn in one spare colour everywhere, never grey on one screen."""
    with Companion.open(tmp_path / "c.sqlite3") as app:
        assert table_colours(app, "san-gimignano", ["Ada", "Bo", "Cy"]) == {
            "Ada": "white", "Bo": "black", "Cy": "orange"}
        app.add_profile("Bo")
        app.set_preferred_colour("Bo", "san-gimignano", "white")  # a spare colour already worn is skipped
        assert table_colours(app, "san-gimignano", ["Ada", "Bo", "Cy"]) == {
            "Ada": "black", "Bo": "white", "Cy": "orange"}


def test_a_banner_names_a_player_once_when_the_initials_are_the_whole_name() -> None:
    from companion.i18n import render
    from ui.players import named

    assert named("Bo", "Bo") == "Bo"  # not "Bo (Bo)"
    assert render(named("Albert", "Al"), "en") == "Albert (Al)"
    assert render(named("Anna", "An1"), "hu") == "Anna (An1)"
