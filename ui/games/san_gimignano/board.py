"""The San Gimignano board on the touchscreen: the hex map, the players, the segment palette, a tap a move.

- **A token**: tap the space (one tap). The spaces a token may go on now are
  ringed in amber; the others are dimmed by being left plain, and still answer.
- **A segment**: tap its type in the palette (which three guilds, in which
  turn), the open positions where it fits light up, tap one; when more than one
  orientation fits there, tap the one that lies on the table (at most three taps).
- **A tower**: the groups someone may build on are ringed; *Build* lights their
  spaces, tap the one the tower goes on (two taps). Under the rulebook, while
  the player whose turn it is must build, the banner says so and the spaces are
  lit at once: one tap.
- *Pass* when the player can place nothing.

Everything lit comes from the engine: ``targets`` (``legal_moves``),
``who_must_build``, ``to_move``. No rule is checked here: a tap on something
dimmed proposes its move anyway, so that the engine's refusal says why (the
shell shows it from the table's ``refused`` event) and nothing changes.

The shell builds ``SanGimignanoBoard(table=table)`` and calls :meth:`refresh`
on every table event; the board never subscribes on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kivy.input.motionevent import MotionEvent
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.games.base import IllegalMove
from companion.games.san_gimignano import geometry, views
from companion.games.san_gimignano.descriptor import GUILD_COLOURS
from companion.games.san_gimignano.layout import segment_types
from companion.games.san_gimignano.state import State
from companion.i18n import current_language
from companion.i18n import text as words
from companion.service.table import Table
from ui.games.campanile.widgets import TapButton
from ui.games.san_gimignano.map import SMALLEST_SIZE, HexMap, Scene
from ui.games.san_gimignano.widgets import (
    GroupButton,
    GuildKey,
    PlayerHand,
    SegmentPicture,
    guild_colours,
    player_fills,
)
from ui.players import initials, table_colours
from ui.theme import text_on

Position = tuple[int, int]
Space = tuple[int, int, str]
Edges = tuple[str, ...]

#: The height of a player's row in the side panel (its width is in the rule): two lines at 20 px.
ROW = 50
def guild_name(guild: str) -> str:
    """A guild as players read it: the default names in the catalogue's words (the engine's
    :func:`~companion.games.san_gimignano.geometry.guild_word`, as every text names them), a name the
    players chose as it is."""
    return str(geometry.guild_word(guild))


def _show_in(grid: Widget, wanted: list[Any]) -> None:
    """Make ``grid`` hold ``wanted`` in order, adding and taking off only where they differ."""
    shown = list(reversed(grid.children))  # as laid out (Kivy keeps the last added first)
    same = 0
    while same < min(len(shown), len(wanted)) and shown[same] is wanted[same]:
        same += 1
    for widget in shown[same:]:
        grid.remove_widget(widget)
    for widget in wanted[same:]:
        grid.add_widget(widget)


def type_of(edges: Edges, guilds: tuple[str, ...]) -> tuple[str, str, str]:
    """The palette type an outline belongs to."""
    return next(kind for kind in segment_types(guilds) if tuple(edges) in geometry.rotations(kind))


class SanGimignanoBoard(FloatLayout):
    """The San Gimignano game screen below the shell's bar; see the module's docstring.

    Layout: ``san_gimignano.kv``. The widgets are made once, when the game is
    opened (a row per player, a key per guild and per segment kind); every
    :meth:`refresh` sets the board's properties (the banner, what the buttons
    offer) and the rows' and keys' own, and the map changes the drawing it
    keeps. The orientations and groups offered in the palette's place reuse
    their widgets from one segment or build to the next.
    """

    #: The language the words of the rule are in (``say`` in the rule depends on it).
    language = StringProperty("")
    #: What the step being entered asks for ("Tap where the segment goes (lit)."): the shell's turn
    #: strip shows it in place of the engine's step (the board draws no instruction line of its own);
    #: "" when the engine's step says it all (a forced build included: the engine's words say it).
    step_text = StringProperty("")
    #: A build is owed under the rulebook (``who_must_build``): the spaces are lit for one tap.
    urgent = BooleanProperty(False)
    #: The game is over: the board offers nothing to tap (no palette, no actions, the map deaf).
    over = BooleanProperty(False)
    #: The palette of segment kinds is shown: some segment is still to be laid.
    palette_shown = BooleanProperty(True)
    #: The map's smallest zoom: a guild space stays a 48 px target (:data:`SMALLEST_SIZE`).
    smallest_size = NumericProperty(SMALLEST_SIZE)
    #: The orientations or groups are offered in the palette's place.
    choosing = BooleanProperty(False)
    #: What the action buttons offer now (dimmed ones still answer: the engine says why not).
    can_build = BooleanProperty(False)
    build_accent = BooleanProperty(False)
    can_pass = BooleanProperty(False)
    can_cancel = BooleanProperty(False)
    #: The players' rows at most this tall together (they give way to the refusal banner first).
    people_height = NumericProperty(0)
    #: The shared pool's segments left, in words, once under the guilds ("" without a pool): in each
    #: player's row it was the same line twice, and cut ("1 segment in the").
    pool_text = StringProperty("")

    def __init__(self, table: Table, **kwargs: object) -> None:
        self.table = table
        state = self.state
        self.players = tuple(state.players)
        super().__init__(people_height=len(self.players) * (ROW + 4) - 4, **kwargs)
        live = table.live
        colours = table_colours(table.app, "san-gimignano", self.players,
                                live.row.setup if live is not None else None)
        self.fills = player_fills(self.players, colours)
        self.initials = initials(self.players)
        setting = table.app.settings()[GUILD_COLOURS]
        self.guild_colours = guild_colours(state.guilds, setting)
        self.guild_tags = {guild: str(index + 1) for index, guild in enumerate(state.guilds)}
        self.types = segment_types(tuple(state.guilds))
        self.shapes = {kind: frozenset(geometry.rotations(kind)) for kind in self.types}
        #: The segment being placed: its type, then its position (while orientations are offered).
        self.segment_type: tuple[str, str, str] | None = None
        self.segment_at: Position | None = None
        #: A build being entered (the *Build* button), and a space in two groups waiting for its group.
        self.building = False
        self.build_space: Space | None = None
        self._shown_choices: tuple[Any, ...] | None = None
        #: A history entry's place, lit on the map until the next tap (:meth:`show_move`), and the
        #: number of moves it was lit at (a move made meanwhile puts it out).
        self.shown: tuple[frozenset[Space], frozenset[Position]] = (frozenset(), frozenset())
        self._shown_at = -1
        #: The build spaces last brought into view (brought again only when they change).
        self._brought: frozenset[Space] = frozenset()

        ids = self.ids
        self.map: HexMap = ids.hexmap
        self.zoom_in, self.zoom_out, self.fit_button = ids.zoom_in, ids.zoom_out, ids.fit_button
        self.pans: dict[str, TapButton] = {name: ids[f"pan_{name}"]
                                           for name in ("left", "right", "up", "down")}
        self.build_button, self.pass_button = ids.build_button, ids.pass_button
        self.cancel_button = ids.cancel_button
        #: The orientations (or groups) to choose from, shown in the palette's place (the grid
        #: itself: a rule's ids are weak proxies).
        self.choices: GridLayout = ids.choices.__self__
        self.keys = {guild: GuildKey(swatch=list(self.guild_colours[guild])) for guild in state.guilds}
        for key in self.keys.values():
            ids.legend.add_widget(key)
        self.cells = {p: PlayerHand(short=self.initials[p], fill=list(self.fills[p]),
                                    ink=list(text_on(self.fills[p]))) for p in self.players}
        for cell in self.cells.values():
            ids.people.add_widget(cell)
        self.palette: dict[tuple[str, str, str], SegmentPicture] = {}
        self._swatches = [[guild, list(colour)] for guild, colour in self.guild_colours.items()]
        for kind in self.types:
            key = SegmentPicture(edges=list(geometry.rotations(kind)[0]), colours=self._swatches)
            key.bind(on_release=lambda w, k=kind: self.tap_type(k, w))
            self.palette[kind] = key
            ids.palette.add_widget(key)
        #: The widgets the choices are shown with, made as first needed and kept for the next ones.
        self._orientation_pictures: list[SegmentPicture] = []
        self._group_buttons: list[GroupButton] = []
        self.refresh()

    # -- reading the table -----------------------------------------------------------------------
    @property
    def state(self) -> State:
        session = self.table.session
        if session is None:
            raise ValueError("the San Gimignano board needs an open game at the table")
        found: State = session.state
        return found

    def targets(self, state: State) -> dict[str, views.Targets]:
        """What each player may place now (empty for those who may not act), from ``legal_moves``."""
        return {player: views.targets(state, player) for player in self.players}

    def next_player(self, state: State) -> str:
        """Who would start the next turn (a refused tap is proposed for them: the engine says why not)."""
        return state.players[state.next_seat]

    # -- drawing -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Bring the board up to date with ``table.session`` (the shell calls this on every table event):
        properties set, widgets kept."""
        if self.table.session is None:
            return
        if self._shown_at != len(self.table.session.log):
            self.shown = (frozenset(), frozenset())
        self.language = current_language()
        state = self.state
        found = self.targets(state)
        forced = views.who_must_build(state)
        towers = self._tower_moves(found)
        if not towers:
            self.building, self.build_space = False, None
        building = self.building or bool(forced and towers)
        if self.segment_type is not None and not self._placements(found, self.segment_type):
            self.segment_type = self.segment_at = None
        acting = self.table.session.game.to_move(state)
        left = views.segments_left(state)
        for player, cell in self.cells.items():
            cell.show(state.tower_count[player], self._hand_words(state, left, player), player == acting)
        self.over = state.finished
        self.palette_shown = not state.finished and any(left.values())
        pool = left.get("pool", 0) if self.palette_shown else 0
        self.pool_text = words("ui.san_gimignano.pool_left", count=pool) if pool else ""
        for guild, key in self.keys.items():
            name = guild_name(guild)
            key.text = name if self.guild_tags[guild] in name else f"{self.guild_tags[guild]} {name}"
        self._show_step(state, forced)
        self._show_choices(found, towers)
        self._show_actions(found, towers, forced, building)
        scene = self._scene(state, found, towers, building)
        self.map.show(scene)
        if scene.build_spaces and scene.build_spaces != self._brought:
            # the spaces a tower may go on are in view when a build is asked for (the map may pan)
            self.map.bring_into_view(sorted({(s[0], s[1]) for s in scene.build_spaces}))
        self._brought = scene.build_spaces

    @staticmethod
    def _hand_words(state: State, left: dict[str, int], player: str) -> str:
        """A player's row: tokens in hand, and the segments still to lay from their hand while any are
        left (a shared pool is said once, under the guilds: :attr:`pool_text`)."""
        detail = (words("ui.san_gimignano.player.towers", count=state.tower_count[player]) + " · "
                  + words("ui.san_gimignano.player.tokens", count=state.in_hand(player)))
        segments = left.get(player)
        if segments:
            detail += "\n" + words("ui.san_gimignano.player.segments", count=segments)
        return detail

    def _scene(self, state: State, found: dict[str, views.Targets],
               towers: list[tuple[Space, tuple[Space, ...]]], building: bool) -> Scene:
        token_spaces = frozenset(s for t in found.values() for s in t.token_spaces)
        group_spaces = frozenset(s for _, group in towers for s in group)
        lit: frozenset[Position] = frozenset()
        ghost = None
        if self.segment_type is not None:
            placements = self._placements(found, self.segment_type)
            lit = frozenset(at for at, _ in placements)
            if self.segment_at is not None:
                ghost = next(((at, edges) for at, edges in placements if at == self.segment_at), None)
        build_spaces = frozenset(space for space, _ in towers) if building else frozenset()
        if self.build_space is not None:
            build_spaces = frozenset({self.build_space})
        if self.shown != (frozenset(), frozenset()):  # a history entry's place alone stands out
            token_spaces = group_spaces = frozenset()
        return Scene(segments=state.segments, tokens=state.tokens, towers=state.towers,
                     guild_colours=self.guild_colours, guild_tags=self.guild_tags, player_fill=self.fills,
                     initials=self.initials,
                     token_spaces=token_spaces if not building and self.segment_type is None else frozenset(),
                     group_spaces=group_spaces, build_spaces=build_spaces,
                     open_positions=(tuple(views.open_positions(state))
                                     if any(views.segments_left(state).values()) else ()),
                     lit_positions=lit, ghost=ghost, letters=geometry.labels(state.segments),
                     shown_spaces=self.shown[0], shown_positions=self.shown[1])

    def _show_step(self, state: State, forced: list[str]) -> None:
        self.urgent = bool(forced) and not state.finished
        self.step_text = "" if state.finished else self._step_words()

    def _step_words(self) -> str:
        """What the step being entered asks for; "" when the engine's step says it all."""
        if self.build_space is not None:
            return words("ui.san_gimignano.banner.which_group")
        if self.segment_at is not None:
            return words("ui.san_gimignano.banner.orientation")
        if self.segment_type is not None:
            return words("ui.san_gimignano.banner.position")
        if self.building:
            return words("ui.san_gimignano.banner.which_space")
        return ""

    def _show_choices(self, found: dict[str, views.Targets],
                      towers: list[tuple[Space, tuple[Space, ...]]]) -> None:
        """The palette (lit: the types that fit somewhere now), or in its place the orientations or groups."""
        if self.build_space is not None:
            groups = [group for space, group in towers if space == self.build_space]
            mode: tuple[Any, ...] = ("groups", self.build_space, tuple(groups))
        elif self.segment_at is not None and self.segment_type is not None:
            fitting = [edges for at, edges in self._placements(found, self.segment_type)
                       if at == self.segment_at]
            mode = ("orientations", self.segment_at, tuple(fitting))
        else:
            mode = ("palette",)
        if mode != self._shown_choices:
            self._shown_choices = mode
            shown: list[Any] = []
            if mode[0] == "orientations":
                shown = self._orientations(mode[2])
            elif mode[0] == "groups":
                shown = self._groups(mode[2])
            _show_in(self.choices, shown)
            self.choosing = mode[0] != "palette"
        for kind, key in self.palette.items():
            key.live = bool(self._placements(found, kind))
            key.accent = kind == self.segment_type

    def _orientations(self, fitting: tuple[Edges, ...]) -> list[SegmentPicture]:
        """The orientations that fit, drawn as on the map (pictures kept from the last segment)."""
        while len(self._orientation_pictures) < len(fitting):
            picture = SegmentPicture(colours=self._swatches, accent=True)
            picture.bind(on_release=lambda w: self.tap_orientation(tuple(w.edges), w))
            self._orientation_pictures.append(picture)
        pictures = self._orientation_pictures[:len(fitting)]
        for picture, edges in zip(pictures, fitting, strict=True):
            picture.edges = list(edges)
        return pictures

    def _groups(self, groups: tuple[tuple[Space, ...], ...]) -> list[GroupButton]:
        """A button per group the space lies in (buttons kept from the last build)."""
        while len(self._group_buttons) < len(groups):
            button = GroupButton(accent=True)
            button.bind(on_release=lambda w: self.tap_group(w.group, w))
            self._group_buttons.append(button)
        buttons = self._group_buttons[:len(groups)]
        for number, (button, group) in enumerate(zip(buttons, groups, strict=True), start=1):
            button.group = group
            button.text = words("ui.san_gimignano.group", number=number)
        return buttons

    def _show_actions(self, found: dict[str, views.Targets], towers: list[Any], forced: list[str],
                      building: bool) -> None:
        self.can_build = bool(towers)
        self.build_accent = bool(towers) and (building or bool(forced))
        self.can_pass = any(t.may_pass for t in found.values())
        self.can_cancel = (self.segment_type is not None or self.building
                           or self.build_space is not None)

    # -- what the engine offers ------------------------------------------------------------------
    def _placements(self, found: dict[str, views.Targets],
                    kind: tuple[str, str, str]) -> list[tuple[Position, Edges]]:
        """The engine's placements of a segment of this type (its six turns), for whoever may lay it."""
        shapes = self.shapes[kind]
        seen: dict[tuple[Position, Edges], None] = {}
        for targets in found.values():
            for at, edges in targets.placements:
                if edges in shapes:
                    seen[(at, edges)] = None
        return list(seen)

    @staticmethod
    def _tower_moves(found: dict[str, views.Targets]) -> list[tuple[Space, tuple[Space, ...]]]:
        return [tower for targets in found.values() for tower in targets.towers]

    def _player_for(self, found: dict[str, views.Targets], offers: Callable[[views.Targets], bool]) -> str:
        """The player the engine offers this to (the one whose turn it is first), else the next player."""
        state = self.state
        order = [p for p in (state.current, self.next_player(state)) if p is not None]
        for player in order:
            if offers(found[player]):
                return player
        return self.next_player(state)

    # -- a history entry on the board ------------------------------------------------------------
    def show_move(self, move: object) -> bool:
        """Light the place ``move`` (a move of this game, or its record JSON) was made on, until the next
        tap: a token's space, a tower's group, a segment's hexagon. ``False`` (nothing lit) for a pass,
        or a place no longer on the board (the move was undone)."""
        session = self.table.session
        if session is None:
            return False
        data = move if isinstance(move, Mapping) else session.game.move_to_json(move)
        state = self.state
        spaces: frozenset[Space] = frozenset()
        positions: frozenset[Position] = frozenset()
        if data["type"] in ("token", "tower"):
            group = data.get("group") or [data["space"]]
            spaces = frozenset((s[0], s[1], s[2]) for s in group)
            if not all(space in state.adjacency for space in spaces):
                return False
        elif data["type"] == "segment":
            at = (data["at"][0], data["at"][1])
            if at not in state.segments:
                return False
            positions = frozenset({at})
        else:
            return False
        self.shown, self._shown_at = (spaces, positions), len(session.log)
        self.refresh()
        self.map.bring_into_view([(s[0], s[1]) for s in spaces] or list(positions))
        return True

    def on_touch_down(self, touch: MotionEvent) -> bool:
        """Any tap on the board puts out a history entry's light (and then does what it does)."""
        if self.shown != (frozenset(), frozenset()) and self.collide_point(*touch.pos):
            self.shown = (frozenset(), frozenset())
            self.refresh()
        return bool(super().on_touch_down(touch))

    # -- taps ----------------------------------------------------------------------------------------
    def propose(self, move: dict[str, Any], widget: Widget | None = None) -> bool:
        """Propose ``move`` (record JSON) as a touch; a refusal flashes ``widget`` and changes nothing."""
        session = self.table.session
        assert session is not None
        try:
            self.table.propose(session.game.parse_move(move), "touch")
        except IllegalMove:
            if widget is not None:
                widget.flash()
            return False
        return True

    def tap_space(self, space: Space) -> bool:
        """A guild space: a tower on it while building (and it is offered), else a token.

        While a segment is being placed, a space only ends that (nothing is proposed).
        """
        if self.segment_type is not None:
            self.cancel()
            return False
        state = self.state
        if state.finished:
            return False
        found = self.targets(state)
        towers = self._tower_moves(found)
        building = self.building or bool(views.who_must_build(state) and towers)
        if building and self.build_space is None:
            groups = [group for at, group in towers if at == space]
            if len(groups) == 1:
                return self._build(space, groups[0])
            if len(groups) > 1:
                self.build_space = space
                self.refresh()
                return True
        player = self._player_for(found, lambda t: space in t.token_spaces)
        return self.propose({"type": "token", "player": player, "space": list(space)})

    def tap_type(self, kind: tuple[str, str, str], widget: Widget) -> bool:
        """A palette key: choose the segment's type (tapped again: unchoose it)."""
        found = self.targets(self.state)
        self.building, self.build_space, self.segment_at = False, None, None
        if self.segment_type == kind:
            self.segment_type = None
            self.refresh()
            return True
        if not self._placements(found, kind):
            # Nowhere to lay it now: the engine says why (no segment left, a token first, ...).
            player = self._player_for(found, lambda t: bool(t.placements))
            at = next(iter(views.open_positions(self.state)), (0, 0))
            self.segment_type = None
            done = self.propose({"type": "segment", "player": player, "at": list(at),
                                 "edges": list(geometry.rotations(kind)[0])}, widget)
            self.refresh()
            return done
        self.segment_type = kind
        self.refresh()
        return True

    def tap_position(self, at: Position) -> bool:
        """An empty hexagon: with a type chosen, lay it there (asking the orientation when several fit)."""
        if self.state.finished:
            return False
        if self.segment_type is None:
            for key in self.palette.values():
                if key.live:
                    key.flash()
            return False
        found = self.targets(self.state)
        fitting = [edges for spot, edges in self._placements(found, self.segment_type) if spot == at]
        if len(fitting) == 1:
            return self._lay(at, fitting[0])
        if fitting:
            self.segment_at = at
            self.refresh()
            return True
        kind, self.segment_type = self.segment_type, None
        player = self._player_for(found, lambda t: bool(t.placements))
        done = self.propose({"type": "segment", "player": player, "at": list(at),
                             "edges": list(geometry.rotations(kind)[0])})
        self.refresh()
        return done

    def tap_orientation(self, edges: Edges, widget: Widget) -> bool:
        if self.segment_at is None:
            return False
        return self._lay(self.segment_at, edges, widget)

    def _lay(self, at: Position, edges: Edges, widget: Widget | None = None) -> bool:
        found = self.targets(self.state)
        player = self._player_for(found, lambda t: (at, edges) in t.placements)
        self.segment_type = self.segment_at = None
        done = self.propose({"type": "segment", "player": player, "at": list(at), "edges": list(edges)},
                            widget)
        if not done:
            self.refresh()
        return done

    def tap_build(self, widget: Widget) -> bool:
        """*Build*: the spaces of the groups one may build on light up (tapped again: not now)."""
        state = self.state
        found = self.targets(state)
        self.segment_type = self.segment_at = None
        if self._tower_moves(found):
            self.building = not self.building or bool(views.who_must_build(state))
            self.build_space = None
            self.refresh()
            return True
        # Nothing to build on: the engine says why (the group is not complete, not this player's turn).
        player = state.current or self.next_player(state)
        space = next(iter(state.spaces()))
        return self.propose({"type": "tower", "player": player, "space": list(space),
                             "group": [list(space)]}, widget)

    def tap_group(self, group: tuple[Space, ...], widget: Widget) -> bool:
        space = self.build_space
        if space is None:
            return False
        return self._build(space, group, widget)

    def _build(self, space: Space, group: tuple[Space, ...], widget: Widget | None = None) -> bool:
        found = self.targets(self.state)
        player = self._player_for(found, lambda t: (space, group) in t.towers)
        self.building, self.build_space = False, None
        done = self.propose({"type": "tower", "player": player, "space": list(space),
                             "group": [list(s) for s in group]}, widget)
        if not done:
            self.refresh()
        return done

    def tap_pass(self, widget: Widget) -> bool:
        found = self.targets(self.state)
        player = self._player_for(found, lambda t: t.may_pass)
        return self.propose({"type": "pass", "player": player}, widget)

    def cancel(self) -> None:
        """Leave the segment or build being entered (nothing was proposed yet)."""
        self.segment_type = self.segment_at = None
        self.building, self.build_space = False, None
        self.refresh()

    def pan(self, direction: str) -> None:
        """A pan button: the drawing moves a quarter of the map's width or height."""
        step_x, step_y = self.map.width / 4.0, self.map.height / 4.0
        moves = {"left": (step_x, 0), "right": (-step_x, 0), "up": (0, -step_y), "down": (0, step_y)}
        dx, dy = moves[direction]
        self.map.pan(dx, dy)

    # -- snapshot ---------------------------------------------------------------------------------
    def snapshot_extras(self, out: Path, settle: Callable[[], None]) -> list[Path]:
        """``segment.png`` (a segment type chosen, where it fits lit) and ``build.png`` when one can build."""
        written: list[Path] = []
        window = self.get_root_window()
        state = self.state
        if state.finished or window is None:
            return written
        found = self.targets(state)
        kind = next((k for k in self.types if self._placements(found, k)), None)
        if kind is not None:
            self.segment_type = kind
            self.refresh()
            settle()
            path = out / "segment.png"
            window.children[0].export_to_png(str(path))
            written.append(path)
        if self._tower_moves(found):
            self.segment_type, self.building = None, True
            self.refresh()
            settle()
            path = out / "build.png"
            window.children[0].export_to_png(str(path))
            written.append(path)
        self.cancel()
        return written
