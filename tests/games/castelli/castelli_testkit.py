"""Helpers shared by the Castelli tests: a small playground board, moves in short form, refusals."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from companion.games.castelli import Castelli
from companion.games.castelli.moves import Build, End, Guard, Play, Reveal, Sell, Steward
from companion.games.castelli.state import State
from companion.i18n import DEFAULT_LANGUAGE, render
from tests.refusals import refuses

GAME = Castelli()
PLAYERS = ("Anna", "Bela", "Csaba", "Dora")
COLORS = {"Anna": "blue", "Bela": "yellow", "Csaba": "red", "Dora": "green"}


def side_map(text: str) -> dict[str, str]:
    n, e, s, w = text.split()
    return {"N": n, "E": e, "S": s, "W": w}


#: Playground: R rock (2 stone, 1 place) at [1,1]; R2 rock (1 stone, 2 places) at [1,3];
#: Fi field, Fo forest, M market (2 tents), X mine; plains P (village, row 1), T, U (town,
#: column 1), V. A castle in R scores 1 (P) + 2 (U) = 3. s1/s2 face the frame's gifts.
PLAYGROUND: dict[str, Any] = {
    "areas": {
        "R": {"kind": "rock", "yield": 2, "spots": 1, "at": [1, 1]},
        "R2": {"kind": "rock", "yield": 1, "spots": 2, "at": [1, 3]},
        "Fi": {"kind": "field", "yield": 2, "at": [3, 1]},
        "Fo": {"kind": "forest", "yield": 2, "at": [3, 3]},
        "M": {"kind": "market", "tents": 2, "at": [5, 1]},
        "X": {"kind": "mine", "at": [5, 3]},
        "P": {"kind": "plain", "at": [1, 5]},
        "T": {"kind": "plain", "at": [3, 5]},
        "U": {"kind": "plain", "at": [7, 1]},
        "V": {"kind": "plain", "at": [7, 7]},
    },
    "spaces": {
        "s1": {"at": [0, 1], "sides": side_map("frame:wood frame:grain R frame:stone")},
        "s2": {"at": [0, 3], "sides": side_map("frame:silver frame:card R2 frame:neutral")},
        "s3": {"at": [2, 1], "sides": side_map("R R2 Fi frame:neutral")},
        "s4": {"at": [2, 3], "sides": side_map("R2 P Fo Fi")},
        "s5": {"at": [4, 1], "sides": side_map("Fi Fo M frame:neutral")},
        "s6": {"at": [4, 3], "sides": side_map("Fo T X M")},
        "s7": {"at": [6, 1], "sides": side_map("M X U frame:neutral")},
        "s8": {"at": [6, 3], "sides": side_map("X V frame:neutral U")},
    },
    "settlements": {"P": "village", "U": "town"},
}


def start(board: Any = None, players: tuple[str, ...] = PLAYERS, colors: dict | None = None,
          options: dict | None = None, mine: int | None = None) -> State:
    setup: dict[str, Any] = {"colors": colors or {p: COLORS[p] for p in players},
                             "board": copy.deepcopy(board if board is not None else PLAYGROUND)}
    if mine is not None:
        setup["mine"] = mine
    return GAME.start(list(players), options or {}, setup)


def sh(text: str) -> tuple:
    """Shields in N E S W order from "blue:5 yellow:4 red:card green:1"."""
    out = []
    for item in text.split():
        colour, value = item.split(":")
        out.append((colour, value if value == "card" else int(value)))
    return tuple(out)


def rv(player: str, space: str, shields: str, silver: int = 0, swap: bool = False) -> Reveal:
    return Reveal(player, space, sh(shields), silver, swap)


def build(player: str, area: str, silver_for: str | None = None, card: str | None = None,
          on: str | None = None) -> Build:
    return Build(player, area, silver_for, card, on)


def play(state: State, *moves: Any) -> State:
    for move in moves:
        state = GAME.apply(state, move)
    return state


def given(state: State, **changes: Any) -> State:
    """A new state with per-player values planted, e.g. ``resources={"Anna": (1, 1, 1)}``.

    Silver planted is taken from the mine so silver stays conserved.
    """
    fields: dict[str, Any] = {}
    planted = 0
    for name, values in changes.items():
        if name in ("current", "revealed_this_turn", "card_played", "silver_swap_used", "mine"):
            fields[name] = values
            continue
        target = dict(getattr(state, name))
        for player, value in values.items():
            if name == "silver":
                planted += value - target[player]
            target[player] = value
        fields[name] = target
    if planted:
        fields["mine"] = fields.get("mine", state.mine) - planted
    return dataclasses.replace(state, **fields)


def refused(state: State, move: Any, code: str, text: str = "", **params: Any) -> None:
    """The move is refused by the rule ``code`` (with ``params``), its words checked in every language
    (tests/refusals.py), ``text`` in its English words; and the state is exactly as before."""
    before = copy.deepcopy(state)
    with refuses(code, **params) as info:
        GAME.apply(state, move)
    english = render(info.value.reason, DEFAULT_LANGUAGE)  # type: ignore[arg-type]
    assert text in english, english
    assert state == before


def anna_turn(state: State | None = None, **changes: Any) -> State:
    """Anna has revealed s5 (far from R) and may act; planted values applied."""
    state = state or start()
    state = play(state, rv("Anna", "s5", "blue:1 yellow:1 red:1 green:1"))
    return given(state, **changes) if changes else state


__all__ = ["COLORS", "GAME", "PLAYERS", "PLAYGROUND", "Build", "End", "Guard", "Play", "Reveal",
           "Sell", "Steward", "anna_turn", "build", "given", "play", "refused", "rv", "sh", "start"]
