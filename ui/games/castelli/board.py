"""The Castelli board on the touchscreen: the board drawn from its layout, the players' panels, and
every move in a tap or two (a tile's shields in at most ten).

- A face-down space (ringed) opens the reveal pad: its four shields and silver
  (:class:`~ui.games.castelli.popups.RevealPad`). The evaluations the reveal sets
  off appear at once over the board, with the engine's explanation of each.
- An area opens its detail: the influence so far, the tiles still face down,
  "if it were scored now" (the engine's ``preview_area``), and the builds the
  engine would accept there (``build_targets``: cost, silver, card, points),
  one tap each.
- Card, Sell, Steward and Guard open their pickers (from ``targets``); a card
  that needs an area rings the areas it may take on the board; End is held.

Everything offered is read off the engine (``targets``, ``build_targets``,
``player_views``, ``preview_area``, the state's evaluations); no rule is
checked here. A tap on something dimmed proposes its move anyway, so the
engine's refusal says why (the shell's banner shows it from the table's
``refused`` event, an open overlay writes it too), the tapped thing flashes,
and nothing changes.

In a Championship round the same board draws one group's game: ``CastelliBoard(table=table,
group=n)`` reads the group's base-game state (the engine's ``group_state``) and ends the group's
game with ``{"type": "end", "group": n}``; :mod:`ui.games.castelli.round_board` holds the two.

The shell builds ``CastelliBoard(table=table)`` and calls :meth:`refresh` on
every table event; the board never subscribes on its own. Its layout is its
rule in ``castelli.kv``; a refresh sets its Kivy properties and its parts
(the drawn board, the panels, an open overlay), and makes no widget.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.input.motionevent import MotionEvent
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from companion.games.base import IllegalMove, RecordError
from companion.games.castelli import legal, tables
from companion.games.castelli.moves import Reveal, shields_json
from companion.games.castelli.state import Evaluation, State, Unevaluated
from companion.games.castelli.views import Targets, build_targets, player_views, preview_area, targets
from companion.games.castelli.words import amount as unit
from companion.games.castelli.words import card as card_word
from companion.games.castelli.words import resource as resource_word
from companion.games.castelli.words import settlement as settlement_word
from companion.i18n import current_language
from companion.i18n import text as say
from companion.service.table import Table
from ui.games.castelli.drawing import CastelliBoardView, Shown
from ui.games.castelli.panels import CastelliPanel
from ui.games.castelli.popups import (
    AreaDetail,
    CastelliOverlay,
    CastelliPicker,
    Choice,
    EvaluationOverlay,
    PlayerChoices,
    RevealPad,
    strong,
)
from ui.players import initials
from ui.screens import show
from ui.theme import TEXT, TEXT_QUIET

#: The layout of the board, its panels and its overlays (one file for the Castelli touchscreen).
KV = Path(__file__).with_name("castelli.kv")
if str(KV) not in Builder.files:
    Builder.load_file(str(KV))


class CastelliBoard(FloatLayout):
    """The Castelli game screen below the shell's bar; see the module's docstring.

    Its layout is its rule in ``castelli.kv``; :meth:`refresh` sets the
    properties below from the table, and the buttons bound to them follow.
    """

    #: The language the rule's words are in (the shell makes the board again for another language).
    language = StringProperty("")
    #: While a card waits for its area on the board: what to tap, in a line; the turn strip shows it in
    #: place of the engine's instruction (the board has no instruction line of its own).
    step_text = StringProperty("")
    #: The game is over: the board offers nothing to tap (the move buttons are taken out).
    over = BooleanProperty(False)
    #: Which buttons are live now (the engine would take what they offer).
    card_live = BooleanProperty(False)
    sell_live = BooleanProperty(False)
    steward_live = BooleanProperty(False)
    guard_live = BooleanProperty(False)
    evaluations_live = BooleanProperty(False)
    end_live = BooleanProperty(False)
    #: A card waits for its area on the board (Card is lit: a second tap takes it back).
    card_waiting = BooleanProperty(False)

    def __init__(self, table: Table, group: int | None = None, **kwargs: object) -> None:
        self.table = table
        #: The group of a Championship round this board draws (``None``: the game is one game).
        self.group = group
        super().__init__(language=current_language(), **kwargs)
        state = self.state
        self.players = tuple(state.players)
        self.initials = initials(self.players)
        #: The card that is waiting for its area on the board: (player, card, areas), or None.
        self.area_card: tuple[str, str, tuple[str, ...]] | None = None
        #: The overlay open now (reveal pad, evaluations, an area, a picker), or None.
        self.overlay: CastelliOverlay | None = None
        self.found: Targets = targets(state)
        #: The overlays made so far, reused (making widgets is what costs): the pad, evaluations, an
        #: area, the picker.
        self._pad: RevealPad | None = None
        self._evaluations: EvaluationOverlay | None = None
        self._area: AreaDetail | None = None
        self._picker: CastelliPicker | None = None
        self._proposing = False
        ids = self.ids
        self.view: CastelliBoardView = ids.view
        self.view.set_layout(state.board)
        self._move_buttons = [strong(ids.first_row), strong(ids.guard), strong(ids.end)]
        self._shown_over: bool | None = None
        self.panels = {p: CastelliPanel(p, self.initials[p], state.colors[p]) for p in self.players}
        for above, panel in enumerate(self.panels.values()):  # first, in seat order
            ids.side.add_widget(panel, index=len(ids.side.children) - above)
        self.buttons = {name: ids[name] for name in ("card", "sell", "steward", "guard", "evaluations")}
        self.end_button = ids.end
        self.refresh()
        # The overlays are made in the frame after the board is shown, not in the tap that first needs
        # one (a ModalView with its rows costs a noticeable moment on the Pi).
        opened = self.table.session
        Clock.schedule_once(lambda _dt: self.prepare_overlays(opened), 0)

    def prepare_overlays(self, opened: Any = None) -> None:
        """Make the reveal pad, the evaluation overlay and the area detail ahead of their first use.

        ``opened``: the session the board was made for; when another game has opened before this
        frame (a language switch makes the boards anew), there is nothing of this board to prepare.
        """
        if self.table.session is None or (opened is not None and self.table.session is not opened):
            return
        state, found = self.state, self.found
        if self._pad is None:
            first = next(iter(state.board.spaces))
            self._pad = RevealPad(self, first, found.revealer or self.to_move(state), found.swap)
        self.evaluation_overlay()
        if self._area is None:
            self._area = AreaDetail(self, next(iter(state.board.areas)))

    # -- reading the table ---------------------------------------------------------------
    def _session(self) -> Any:
        session = self.table.session
        if session is None:
            raise ValueError("the Castelli board needs an open game at the table")
        return session

    @property
    def state(self) -> State:
        """The game this board draws: the open game, or in a round this board's group's game."""
        session = self._session()
        if self.group is None:
            state: State = session.state
            return state
        grouped: State = session.game.group_state(session.state, self.group)
        return grouped

    def builder(self, state: State) -> str | None:
        """The player who may build now: the one whose turn it is, once they revealed."""
        if state.finished or state.current is None or not state.revealed_this_turn:
            return None
        return state.players[state.current]

    def to_move(self, state: State) -> str:
        """Who a move entered now is for, when the targets name nobody (for the engine's refusal)."""
        return self._session().game.to_move(state) or state.players[state.current or 0]

    def silver_on_tiles(self) -> dict[str, int]:
        """The silver each revealed tile carried (from the log's reveals: the state keeps only shields)."""
        return {m.space: m.silver for m in self._session().log
                if isinstance(m, Reveal) and m.silver and m.player in self.players}

    # -- drawing -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw everything from ``table.session`` (the shell calls this on every table event)."""
        session = self.table.session
        if session is None:
            return
        state = self.state
        self.found = found = targets(state)
        if self.area_card is not None and not any(
                play.player == self.area_card[0] and play.card == self.area_card[1] for play in found.plays):
            self.area_card = None
        builder = self.builder(state)
        builds = build_targets(state, builder) if builder else []
        live_areas = (set(self.area_card[2]) if self.area_card is not None
                      else {b["move"]["area"] for b in builds})
        self.view.show(Shown(
            revealed=state.revealed, silver_on=self.silver_on_tiles(), castles=state.castles,
            settlements=state.settlements, done=state.done,
            live_spaces=frozenset(found.reveal_spaces if self.area_card is None else ()),
            live_areas=frozenset(live_areas), colours=state.colors, mine=state.mine))
        acting = session.game.turn(state).acting
        for player, view in player_views(state).items():
            self.panels[player].show(view, player == acting and not state.finished)
        self.over = state.finished
        self.step_text = self.step_words()
        self._show_move_buttons()
        self.card_live, self.card_waiting = bool(found.plays), self.area_card is not None
        self.sell_live, self.steward_live = bool(found.sell), bool(found.stewards)
        self.guard_live = found.guard is not None
        self.evaluations_live = bool(state.evaluations or state.notes)
        self.end_live = found.end
        if self.overlay is not None and not self._proposing:
            self.overlay.refresh()

    def step_words(self) -> str:
        """What to tap while a card waits for its area (a step of the board's own, which the turn
        strip cannot know); empty otherwise."""
        if self.area_card is None:
            return ""
        return say("ui.castelli.hint.area_card", player=self.area_card[0], card=card_word(self.area_card[1]))

    def _show_move_buttons(self) -> None:
        """Once the game is over the moves' buttons are taken out (only Evaluations stays, to look
        back)."""
        card, guard, end = self._move_buttons
        if self._shown_over == self.over:
            return
        self._shown_over = self.over
        for widget in (card, guard, end):
            show(widget, not self.over)

    def shown_now(self) -> Shown | None:
        """What the drawn board shows now (the evaluations' small board draws the same)."""
        return self.view.shown

    # -- a recorded move's place ---------------------------------------------------------------
    def show_move(self, move: object) -> bool:
        """Light up where a recorded move (record JSON or the engine's move) took place — its tile
        space or its area — until the next tap on the board (History's "show on the board");
        ``False``, and nothing lit, when the move has no place (a sale, a King, the end)."""
        session = self._session()
        record = move if isinstance(move, Mapping) else session.game.move_to_json(move)
        place = record.get("space") or record.get("area")
        board = self.state.board
        if self.group is not None and record.get("player") not in self.players:
            return False  # the other group's move: its place is on the other board
        if not isinstance(place, str) or (place not in board.spaces and place not in board.areas):
            return False
        self.view.bring_into_view(place)  # on a board larger than its room, panned to the place
        self.view.light(place)
        return True

    def on_touch_down(self, touch: MotionEvent) -> bool:
        """The next tap after :meth:`show_move` puts the light out (and is taken as usual)."""
        if self.view.lit:
            self.view.light()
        return bool(super().on_touch_down(touch))

    # -- proposing -----------------------------------------------------------------------------
    def propose(self, move: dict[str, Any], flash: Callable[[], Any] | None = None) -> str | None:
        """Propose ``move`` (record JSON) as a touch: ``None`` when taken, else the refusal's words
        (``flash`` is called, and nothing changes)."""
        session = self._session()
        self._proposing = True  # the overlay that proposes closes or says why: no need to redraw it
        try:
            self.table.propose(session.game.parse_move(move), "touch")
        except IllegalMove as refusal:
            if flash is not None:
                flash()
            return str(refusal.reason)
        except RecordError as error:  # a move the pad could not complete: named, nothing changes
            if flash is not None:
                flash()
            return str(error)
        finally:
            self._proposing = False
        return None

    def _refused_in(self, overlay: CastelliOverlay, reason: str | None) -> bool:
        if reason is None:
            return True
        overlay.refused(reason)
        return False

    # -- the board's taps ------------------------------------------------------------------------
    def tap_space(self, space: str) -> bool:
        """A face-down space the engine offers: the reveal pad. Any other: the engine says why not."""
        state, found = self.state, self.found
        if space in found.reveal_spaces and found.revealer is not None:
            if self._pad is None:
                self._pad = RevealPad(self, space, found.revealer, found.swap)
            else:
                self._pad.reset(space, found.revealer, found.swap)
            self.open_overlay(self._pad)
            return True
        shields = state.revealed.get(space) or tuple((c, 1) for c in tables.COLORS)
        move = {"type": "reveal", "player": found.revealer or self.to_move(state), "space": space,
                "shields": shields_json(shields), "silver": 0}
        self.propose(move, lambda: self.view.flash(space))
        return False

    def tap_area(self, area: str) -> bool:
        """An area: the card waiting for one takes it; otherwise its detail (and builds) opens."""
        if self.area_card is not None:
            player, card, _areas = self.area_card
            self.area_card = None
            refused = self.propose({"type": "play", "player": player, "card": card, "area": area},
                                   lambda: self.view.flash(area))
            self.refresh()
            return refused is None
        self.open_overlay(self.area_overlay(area))
        return True

    def area_overlay(self, area: str) -> AreaDetail:
        if self._area is None:
            self._area = AreaDetail(self, area)
        else:
            self._area.show(area)
        return self._area

    def enter_reveal(self, pad: RevealPad) -> bool:
        """The pad's tile confirmed: proposed; the evaluations it set off are shown at once."""
        if not self._refused_in(pad, self.propose(pad.move(), pad.confirm.flash)):
            return False
        self.close_overlay()
        self.show_followed()
        return True

    def followed(self) -> list[Any]:
        """The evaluations (and areas left unevaluated) the last reveal or re-turn set off."""
        state = self.state
        pending = state.pending
        if pending is None or pending.kind != "reveal":
            return []
        base = pending.base
        return [*state.evaluations[len(base.evaluations):], *state.notes[len(base.notes):]]

    def show_followed(self) -> None:
        items = self.followed()
        pending = self.state.pending
        if items and pending is not None:  # followed() finds items only after a reveal
            overlay = self.evaluation_overlay()
            overlay.show(say("ui.castelli.evaluation.after_reveal", space=self.where(pending.space)), items)
            self.open_overlay(overlay)

    def enter_build(self, move: dict[str, Any], widget: Widget, overlay: CastelliOverlay) -> bool:
        if not self._refused_in(overlay, self.propose(move, widget.flash)):
            return False
        self.close_overlay()
        return True

    # -- places in words ------------------------------------------------------------------------
    def where(self, name: str) -> str:
        """A space (or an area) by where it lies on the drawn board: "row 1, column 4"."""
        return str(self.state.board.where(name))

    def label_of(self, area: str) -> str:
        """An area as a heading names it: "Forest, row 1, column 5" (the engine's words, capitalised)."""
        words = str(self.state.board.label(area))
        return words[:1].upper() + words[1:]

    # -- an area's detail -----------------------------------------------------------------------
    def influence_in(self, area: str) -> dict[str, int]:
        return dict(preview_area(self.state, area).influence)

    def area_detail(self, area: str) -> dict[str, Any]:
        """The words and figures of an area's detail, all from the engine's views and messages."""
        preview = preview_area(self.state, area)
        # the strongest first, as the explanation ranks them (a neutral 2 was listed before Dora's 12)
        ranked = sorted(preview.influence.items(), key=lambda item: -item[1])
        return {"title": self._area_title(area), "influence": dict(ranked),
                "lines": self._area_lines(area, preview.explanation), "builds": self._area_builds(area)}

    def _area_title(self, area: str) -> str:
        """The area's name and kind, and what evaluating it gives (a mine: what is in it now; once
        evaluated, the name alone: its "0 silver" read against "Csaba gains 11 silver" below)."""
        state = self.state
        spec = state.board.areas[area]
        gain = tables.AREA_GAIN[spec.kind] if not (spec.kind == "mine" and area in state.done) else ""
        amount = state.mine if spec.kind == "mine" else spec.amount
        what = str(unit(gain, amount)) if gain else ""
        if what:
            return say("ui.castelli.area.title", area=self.label_of(area), what=what)
        return say("ui.castelli.area.name", area=self.label_of(area))

    def _area_lines(self, area: str, if_now: Any) -> list[tuple[str, Any]]:
        """The detail's lines, each with its colour: places, tiles still down, the evaluation, castles.

        ``if_now`` explains what evaluating the area now would give, shown until it is evaluated.
        """
        state = self.state
        spec = state.board.areas[area]
        lines: list[tuple[str, Any]] = []
        if spec.kind == "rock":
            lines.append((say("ui.castelli.area.places", count=spec.spots), TEXT_QUIET))
        down = sorted({s for s, _ in state.board.borders[area] if s not in state.revealed})
        if spec.kind != "plain":
            spaces = "; ".join(self.where(space) for space in down)
            lines.append((say("ui.castelli.area.face_down", count=len(down), spaces=spaces) if down
                          else say("ui.castelli.area.all_up"), TEXT_QUIET))
        if area in state.done:
            explained = ([e.explanation for e in state.evaluations if e.area == area]
                         + [n.explanation for n in state.notes if n.area == area])
            if explained:
                lines.append((say("ui.castelli.area.evaluated", explanation=explained[-1]), TEXT))
        elif spec.kind != "plain":
            code = "ui.castelli.area.if_now_mine" if spec.kind == "mine" else "ui.castelli.area.if_now"
            lines.append((say(code, explanation=if_now), TEXT))
        owners = [stack[-1] for stack in state.castles.get(area, ())]
        if owners:
            lines.append((say("ui.castelli.area.castles", players=owners), TEXT))
        if area in state.settlements:
            settled = settlement_word(state.settlements[area])
            lines.append((say("ui.castelli.area.settlement", settlement=settled), TEXT))
        return lines

    def _area_builds(self, area: str) -> list[dict[str, Any]]:
        """The builds the engine accepts here now, as buttons.

        Where castles may stand but none can be built now, one dimmed build
        is offered anyway: tapped, it is proposed and the engine says why not.
        """
        state = self.state
        if state.finished:  # the game is over: nothing to build
            return []
        builder = self.builder(state)
        builds = [self.build_option(b) for b in build_targets(state, builder)
                  if b["move"]["area"] == area] if builder else []
        if not builds and state.board.areas[area].kind in ("rock", "field", "forest"):
            player = builder or self.to_move(state)
            builds = [{"text": say("ui.castelli.build.here", player=player), "live": False,
                       "move": {"type": "build", "player": player, "area": area}}]
        return builds

    def build_option(self, target: dict[str, Any]) -> dict[str, Any]:
        """One build the engine accepts, as a button: its cost (silver for a resource, a card), its points."""
        move, cost = target["move"], target["cost"]
        parts = [str(unit(r, cost[r])) for r in tables.RESOURCES if cost[r]]
        if move["silver_for"]:
            parts.append(say("ui.castelli.build.silver_for", silver=tables.SILVER_PER_RESOURCE,
                             resource=resource_word(move["silver_for"])))
        elif cost["silver"]:
            parts.append(str(unit("silver", cost["silver"])))
        if move["card"]:
            parts.append(say("ui.castelli.build.card", card=card_word(move["card"])))
        player = self.builder(self.state) or ""
        code = "ui.castelli.build.option_on" if move["on"] else "ui.castelli.build.option"
        text = say(code, player=player, cost=parts, points=target["points"], on=move["on"] or "")
        record = {"type": "build", "player": player, "area": move["area"]}
        record.update({k: v for k, v in move.items() if k != "area" and v is not None})
        return {"text": text, "live": True, "move": record}

    # -- the buttons -------------------------------------------------------------------------------
    def tap_card(self, widget: Widget) -> bool:
        """Card: a picker of every card the players who may play one now hold (dimmed ones say why)."""
        if self.area_card is not None:  # a second tap on Card takes the waiting card back
            self.area_card = None
            self.refresh()
            return True
        state, found = self.state, self.found
        players = list(dict.fromkeys([*legal.turn_players(state), *(p.player for p in found.plays)])) or \
            [self.to_move(state)]
        rows = []
        for player in players:
            choices: list[Choice] = []
            for card in tables.PLAY_CARDS:
                if card in tables.BATTLE_ONLY and not state.options.battle:
                    continue
                play = next((p for p in found.plays if p.player == player and p.card == card), None)
                choices += self._card_choices(player, card, play)
            rows.append(PlayerChoices(player, choices, per_line=4))
        self.open_picker(say("ui.castelli.cards.title"), rows)
        return True

    def _card_choices(self, player: str, card: str, play: Any) -> list[Choice]:
        name = str(card_word(card))
        base = {"type": "play", "player": player, "card": card}

        def entered(words: str, move: dict[str, Any], live: bool = True) -> Choice:
            return Choice(words, move, self._choice_entered(move), live)

        if play is None:  # not now: proposed anyway, so that the engine says why
            extras: dict[str, dict[str, Any]] = {
                "king": {"value": 3}, "traitor": {"target": next(p for p in self.players if p != player)},
                "peasant": {"area": ""}, "prince": {"area": ""}, "arsonist": {"area": ""}}
            return [entered(name, {**base, **extras.get(card, {})}, live=False)]
        if card == "king":
            return [entered(say("ui.castelli.cards.king", card=name, value=value), {**base, "value": value})
                    for value in play.values]
        if card == "traitor":
            return [entered(say("ui.castelli.cards.traitor", card=name, player=target),
                            {**base, "target": target}) for target in play.players]
        if play.areas:
            def choose_area(_w: object) -> None:
                self.area_card = (player, card, play.areas)
                self.close_overlay()
                self.refresh()
            return [Choice(say("ui.castelli.cards.needs_area", card=name), None, choose_area)]
        return [entered(name, base)]

    def _choice_entered(self, move: dict[str, Any]) -> Callable[[Any], bool]:
        """What a tap on a picker's choice does: ``move`` proposed; the picker closes, or says why the
        engine refused it."""
        return lambda widget: self._refused_in(self.picker(), self.propose(move, widget.flash)) \
            and self.close_overlay()

    def _turn_entered(self, move: dict[str, Any]) -> Callable[[Any], bool]:
        """What a tap on one of the Steward's turns does (the evaluations it sets off follow)."""
        return lambda widget: self._steward_entered(self.picker(), move, widget)

    def tap_sell(self, widget: Widget) -> bool:
        """Sell: one button per number of cards each player may sell now (2 silver each)."""
        state, found = self.state, self.found
        offered = dict(found.sell)
        players = list(dict.fromkeys([*legal.turn_players(state), *offered])) or [self.to_move(state)]
        rows = []
        for player in players:
            most = offered.get(player, 0)
            counts = range(1, most + 1) if most else (1,)
            choices: list[Choice] = []
            for count in counts:
                move = {"type": "sell", "player": player, "cards": count}
                words = say("ui.castelli.sell.cards", count=count, silver=count * tables.SELL_PRICE)
                choices.append(Choice(words, move, self._choice_entered(move), bool(most)))
            rows.append(PlayerChoices(player, choices, per_line=3))
        self.open_picker(say("ui.castelli.sell.title", price=tables.SELL_PRICE), rows)
        return True

    def tap_steward(self, widget: Widget) -> bool:
        """The Steward's re-turn: every way each player holding a card may turn the tile just revealed."""
        state, found = self.state, self.found
        if not found.stewards:
            return self._steward_refused(state, widget)
        space = state.pending.space if state.pending else ""
        rows = []
        for player in dict.fromkeys(t.player for t in found.stewards):
            choices: list[Choice] = []
            for turn in (t for t in found.stewards if t.player == player):
                move = {"type": "steward", "player": player, "shields": shields_json(turn.shields)}
                choices.append(Choice("", move, self._turn_entered(move), shields=tuple(turn.shields)))
            rows.append(PlayerChoices(player, choices, per_line=3, height=120))
        self.open_picker(say("ui.castelli.steward.title", space=self.where(space) if space else ""), rows)
        return True

    def picker(self) -> CastelliPicker:
        """The one picker Card, Sell and Steward fill (made on first use, then kept)."""
        if self._picker is None:
            self._picker = CastelliPicker(self)
        return self._picker

    def open_picker(self, title: str, rows: list[PlayerChoices]) -> CastelliPicker:
        picker = self.picker()
        self.close_overlay()
        picker.show(title, rows)
        self.open_overlay(picker)
        return picker

    def _steward_entered(self, picker: CastelliPicker, move: dict[str, Any], widget: Widget) -> bool:
        if not self._refused_in(picker, self.propose(move, widget.flash)):
            return False
        self.close_overlay()
        self.show_followed()
        return True

    def _steward_refused(self, state: State, widget: Widget) -> bool:
        """No re-turn now: one is proposed anyway (the last tile turned once), so the engine says why."""
        space = state.pending.space if state.pending else next(iter(state.revealed), None)
        old = state.revealed.get(space or "") or tuple((c, 1) for c in tables.COLORS)
        player = next((p for p in self.players if state.pending is None or p != state.pending.player),
                      self.players[0])
        self.propose({"type": "steward", "player": player, "shields": shields_json(old[1:] + old[:1])},
                     widget.flash)
        return False

    def tap_guard(self, widget: Widget) -> bool:
        player = self.found.guard or self.to_move(self.state)
        return self.propose({"type": "guard", "player": player}, widget.flash) is None

    def tap_evaluations(self, widget: Widget) -> bool:
        """Every evaluation so far (and the areas that gave nothing), newest first."""
        state = self.state
        if not (state.evaluations or state.notes):
            widget.flash()
            return False
        self.open_evaluations()
        return True

    def open_evaluations(self, items: list[Any] | None = None) -> EvaluationOverlay:
        state = self.state
        overlay = self.evaluation_overlay()
        shown = items if items is not None else [*reversed(state.evaluations), *reversed(state.notes)]
        overlay.show(say("ui.castelli.evaluation.all"), shown)
        self.open_overlay(overlay)
        return overlay

    def evaluation_overlay(self) -> EvaluationOverlay:
        if self._evaluations is None:
            self._evaluations = EvaluationOverlay(self)
        return self._evaluations

    def hold_end(self, widget: Widget) -> bool:
        """End (held): the mine and the final scoring; the shell then shows game over with the breakdown."""
        end: dict[str, Any] = {"type": "end"} if self.group is None else {"type": "end", "group": self.group}
        return self.propose(end, widget.flash) is None

    # -- overlays ------------------------------------------------------------------------------------
    def open_overlay(self, overlay: CastelliOverlay) -> CastelliOverlay:
        self.close_overlay()
        self.overlay = overlay
        overlay.open(animation=False)
        return overlay

    def close_overlay(self) -> bool:
        if self.overlay is not None:
            self.overlay.dismiss(animation=False)
            self.overlay = None
        return True

    def snapshot_extras(self, out: Path, settle: Callable[[], None]) -> list[Path]:
        """``evaluation.png`` (the last evaluation) and ``area.png`` (its area's detail), for
        ``companion snapshot``."""
        state = self.state
        written: list[Path] = []
        last: list[Evaluation | Unevaluated] = [*state.evaluations[-1:]] or [*state.notes[-1:]]
        if last:
            overlay = self.open_evaluations(last)
            settle()
            path = out / "evaluation.png"
            overlay.export_to_png(str(path))
            written.append(path)
        areas = [a for a, spec in state.board.areas.items() if spec.kind != "plain"]
        area = last[0].area if last else (areas[0] if areas else None)
        if area is not None:
            overlay = self.open_overlay(self.area_overlay(area))
            settle()
            path = out / "area.png"
            overlay.export_to_png(str(path))
            written.append(path)
        self.close_overlay()
        return written
