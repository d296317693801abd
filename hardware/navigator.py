"""What the buttons and the encoder do: a small state machine on the main loop's thread.

The GPIO callbacks (:mod:`hardware.controls`) only post a key name to the
command queue; the main loop then calls :meth:`Navigator.key`, which is the
only place that changes the game from the buttons, through the
:class:`~companion.service.table.Table` like every front end. Keys:

- ``next`` / ``previous`` (encoder turns, or a short press of Next): scroll
  the list on the OLED; from the status, open the list of legal moves
  (``legal_moves`` in the notation, the likely ones first);
- ``confirm`` (the encoder's push, or a long press of Next): choose; a move
  whose observed field is still open (a card turned over) asks for it
  the same way, when the game's part (:mod:`hardware.games`) can offer it;
- ``undo`` / ``redo`` (a long press of Undo); ``valuation`` shows the game's
  preview ("if the valuation came now"); ``valuation_hold`` records the
  game's valuation card, in a game that has one;
- ``menu``: the small menu (new game, rematch, resume, undo list, language,
  hardware test, switching off), or back out of any list; ``menu_hold`` leaves the hardware test.
- a seat panel that asks for a seat (:meth:`Navigator.ask_pairing`) is asked
  about over whatever is shown: "no" first, then "allow".
  Switching off, restarting and stopping for maintenance each ask once more
  ("cancel" first, so a second push by mistake does nothing).

Whatever a key cannot do here (a tile's faces, a segment's edges: their
observed fields need the touchscreen, a seat panel or the console) is said on
the OLED, in the catalogues' words, and changes nothing. What differs between
games is in each game's :class:`~hardware.games.GamePart`; a game without one
plays with the generic parts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.games.base import Game, IllegalMove, RecordError, StateT
from companion.i18n import set_language, text
from companion.service.app import AppError
from companion.service.move_words import move_words
from companion.service.session import SessionError
from companion.service.table import Table
from companion.storage.store import StoreError
from hardware import games
from hardware.oled_pages import choice_page, notice_page, refused_pages, scores_lines
from hardware.oled_render import Page, fit

if TYPE_CHECKING:
    from companion.service.damage import Action

log = logging.getLogger(__name__)

#: The menu's word for each thing that can be done about a store that needs attention.
_ACTION_WORDS: dict[Action, str] = {
    "repair": "appliance.damage.oled_menu", "restore": "appliance.trouble.oled_restore",
    "fresh": "appliance.trouble.oled_fresh", "backup": "appliance.trouble.oled_backup",
}

KEYS = ("next", "previous", "confirm", "undo", "redo", "valuation", "valuation_hold", "menu", "menu_hold")
SOURCE = "buttons"

def likely_first(game: Game[StateT, Any], state: StateT,
                 templates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``templates`` with the acting player's moves first, then by how often each type is wanted."""
    turn = game.turn(state)
    acting = turn.acting
    order = games.part(game.name).likely

    def rank(template: dict[str, Any]) -> tuple[int, int]:
        kind = template.get("type", "")
        return (0 if template.get("player") in (acting, None) else 1,
                order.index(kind) if kind in order else len(order))
    return sorted(templates, key=rank)


def observed_choices(game: Game[StateT, Any], state: StateT,
                     template: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves that fill ``template``'s observed field, for the encoder to offer (the game's part's
    :attr:`~hardware.games.GamePart.observed_choices`; none in a game without them)."""
    choices = games.part(game.name).observed_choices
    return [] if choices is None else choices(game, state, template)


@dataclass
class Listing:
    """A list on the OLED: its title, the labels shown and what choosing each does."""

    title: str
    labels: list[str]
    actions: list[Callable[[], None]]
    index: int = 0
    back: Listing | None = None

    def page(self) -> Page:
        return choice_page(self.title, self.labels, self.index)


@dataclass
class Navigator:
    """The buttons' and encoder's meaning; its :meth:`overlay` is what the OLED shows over the status."""

    table: Table
    #: Called with a page (or pages) to show for a moment: a notice, a preview, a refusal.
    notify: Callable[[list[Page]], None] = lambda pages: None
    #: Called when the hardware test should name a key ("undo", ...).
    testing: bool = False
    listing: Listing | None = None
    preview: list[Page] = field(default_factory=list)
    last_test_key: str | None = None
    #: How the power actions run their command (``None``: ``systemctl``); tests put their own here.
    power_run: Any = None
    #: Where the backup stick is mounted (the config's ``backup.stick``).
    stick_mount: str = "/media/COMPANION"

    # -- the one entry point ----------------------------------------------------
    def key(self, name: str) -> None:
        """React to the key ``name`` (one of :data:`KEYS`); runs on the main loop."""
        if name not in KEYS:
            raise ValueError(f"unknown key {name!r}")
        if self.testing:
            self._test_key(name)
            return
        handler = getattr(self, f"_{name}")
        try:
            handler()
        except IllegalMove:
            pass  # the table announced it; the OLED shows the reason
        except (SessionError, RecordError, AppError, StoreError) as error:  # nothing to undo, a damaged store
            self.notify(refused_pages(getattr(error, "reason", None) or str(error)))

    def overlay(self) -> Page | None:
        """The page the OLED shows instead of the status now (a list, a preview), or ``None``."""
        if self.testing:
            shown = text(f"oled.button.{self.last_test_key}") if self.last_test_key else ""
            return notice_page(text("oled.test.title"), shown or text("oled.test.hint"))
        if self.listing is not None:
            return self.listing.page()
        if self.preview:
            return self.preview[0]
        return None

    # -- keys ------------------------------------------------------------------
    def _next(self) -> None:
        self._scroll(+1)

    def _previous(self) -> None:
        self._scroll(-1)

    def _scroll(self, step: int) -> None:
        if self.preview:
            self.preview = self.preview[1:] + self.preview[:1] if step > 0 else \
                self.preview[-1:] + self.preview[:-1]
            return
        if self.listing is None:
            self.listing = self._moves_listing()
            if self.listing is None:
                return
            if step < 0:
                self.listing.index = len(self.listing.labels) - 1
            return
        count = len(self.listing.labels)
        self.listing.index = (self.listing.index + step) % count

    def _confirm(self) -> None:
        if self.preview:
            self.preview = []
            return
        if self.listing is None:
            self._scroll(+1)
            return
        listing = self.listing
        self.listing = None
        listing.actions[listing.index]()

    def _menu(self) -> None:
        if self.preview:
            self.preview = []
        elif self.listing is not None:
            self.listing = self.listing.back
        else:
            self.listing = self._menu_listing()

    def _menu_hold(self) -> None:
        self._menu()

    def _undo(self) -> None:
        self._close_lists()
        self.table.undo()

    def _redo(self) -> None:
        self._close_lists()
        self.table.redo()

    def _valuation(self) -> None:
        self._close_lists()
        self.preview = valuation_pages(self.table)

    def _valuation_hold(self) -> None:
        session = self.table.session
        moves = None if session is None else games.part(session.game.name).valuation_moves
        if session is None or moves is None:  # a game without a valuation card to record
            self._valuation()
            return
        cards = moves(session.game, session.state)
        if not cards:
            self.notify(refused_pages(text("oled.valuation.not_now")))
            return
        self._close_lists()
        self.table.propose(session.game.parse_move(cards[0]), source=SOURCE)

    def _test_key(self, name: str) -> None:
        if name == "menu_hold":
            self.testing = False
            self.last_test_key = None
            return
        self.last_test_key = name

    def _close_lists(self) -> None:
        self.listing = None
        self.preview = []

    # -- the lists ---------------------------------------------------------------
    def _moves_listing(self) -> Listing | None:
        session = self.table.session
        if session is None:
            return self._menu_listing()
        game, state = session.game, session.state
        templates = likely_first(game, state, game.legal_moves(state))
        if not templates:
            return None
        labels = [fit(move_words(game, state, t, _language())) for t in templates]  # cards by their names
        return Listing(text("oled.choose.move"), labels, [self._choose(t) for t in templates])

    def _choose(self, template: dict[str, Any]) -> Callable[[], None]:
        def choose() -> None:
            session = self.table.session
            if session is None:
                return
            game, state = session.game, session.state
            try:
                move = game.parse_move(template)
            except RecordError:
                needs = games.part(game.name).needs_another_front_end.get(template["type"])
                if needs is not None:
                    self.notify(refused_pages(text(needs)))
                    return
                choices = observed_choices(game, state, template)
                if not choices:  # a game whose part offers no choice for this field
                    self.notify(refused_pages(text("oled.needs.observed")))
                    return
                self.listing = Listing(text("oled.choose.card"),
                                       [fit(_card_label(game, state, c)) for c in choices],
                                       [self._propose(c) for c in choices])
                return
            self.table.propose(move, source=SOURCE)
        return choose

    def _propose(self, data: dict[str, Any]) -> Callable[[], None]:
        def propose() -> None:
            session = self.table.session
            if session is not None:
                self.table.propose(session.game.parse_move(data), source=SOURCE)
        return propose

    def _menu_listing(self) -> Listing:
        from companion.service.damage import offers

        items: list[tuple[str, Callable[[], None]]] = [(text("oled.menu.new"), self._new_game)]
        # first: nothing else matters as much (a store that cannot be written offers only the backup)
        offered = offers(self.table.app)
        items[:0] = [(text(_ACTION_WORDS[action]), self._confirming(action)) for action in offered]
        if self.table.live is not None:
            items.append((text("oled.menu.rematch"), self._rematch))
        if self.table.app.unfinished():
            items.append((text("oled.menu.resume"), self._resume))
        if self.table.session is not None and self.table.session.log:
            items.append((text("oled.menu.undo_list"), self._undo_list))
        items += [(text("oled.menu.language"), self._language),
                  (text("oled.menu.web"), self._phone_page),
                  (text("oled.menu.hardware_test"), self._hardware_test),
                  (text("appliance.stick.oled_menu"), self._back_up_to_stick),
                  (text("oled.menu.power"), self._power)]
        return Listing(text("oled.menu.title"), [label for label, _ in items], [a for _, a in items])

    def _submenu(self, title: str, labels: Sequence[str], actions: Sequence[Callable[[], None]]) -> None:
        self.listing = Listing(title, list(labels), list(actions), back=self._menu_listing())

    def _new_game(self) -> None:
        from companion.registry import game_names, get_game

        known = [get_game(name) for name in game_names()]
        self._submenu(text("oled.menu.new"), [g.title for g in known], [self._players_for(g) for g in known])

    def _players_for(self, game: Game[Any, Any]) -> Callable[[], None]:
        def pick() -> None:
            profiles = [p.name for p in self.table.app.profiles()]
            if profiles:
                self._pick_seat(game, profiles, [])
                return
            counts = range(game.min_players, min(game.max_players, 5) + 1)
            self._submenu(text("oled.menu.players"),
                          [text("oled.menu.player_count", count=n) for n in counts],
                          [self._start(game, [text("oled.menu.player", number=i + 1) for i in range(n)])
                           for n in counts])
        return pick

    def _pick_seat(self, game: Game[Any, Any], profiles: list[str], seated: list[str]) -> None:
        free = [p for p in profiles if p not in seated]
        labels: list[str] = []
        actions: list[Callable[[], None]] = []
        if len(seated) >= game.min_players:
            labels.append(text("oled.menu.start", count=len(seated)))
            actions.append(self._start(game, seated))
        if len(seated) < game.max_players:
            for name in free:
                labels.append(name)
                actions.append(self._seat(game, profiles, [*seated, name]))
        self._submenu(text("oled.menu.seat", number=len(seated) + 1), labels, actions)

    def _seat(self, game: Game[Any, Any], profiles: list[str], seated: list[str]) -> Callable[[], None]:
        def seat() -> None:
            self._pick_seat(game, profiles, seated)
        return seat

    def _rematch(self) -> None:
        self.table.rematch()

    def _start(self, game: Game[Any, Any], players: list[str]) -> Callable[[], None]:
        def start() -> None:
            live = self.table.start(game.name, players, colours_by_seat=True)  # the touchscreen's colours
            self._say_example(live.session)
        return start

    def _say_example(self, session: Any) -> None:
        """A game started here on an example board or layout: said for a moment, with how to enter the
        table's own (the status that follows has no room for it)."""
        from companion.service.examples import session_example

        example = session_example(session)
        if example is not None and "oled" in example.said:
            self.notify([notice_page(str(example.said["touchscreen.tag"]), str(example.said["oled"]))])

    def _resume(self) -> None:
        from companion.registry import get_game

        rows = self.table.app.unfinished()
        self._submenu(text("oled.menu.resume"),
                      [fit(f"{row.id} {get_game(row.game).title}") for row in rows],
                      [self._resume_row(row.id) for row in rows])

    def _resume_row(self, session_id: int) -> Callable[[], None]:
        def resume() -> None:
            self.table.resume(session_id)
        return resume

    def _undo_list(self) -> None:
        session = self.table.session
        if session is None:
            return
        game = session.game
        labels: list[str] = []
        actions: list[Callable[[], None]] = []
        for back, move in enumerate(reversed(session.log), start=1):
            described = move_words(game, session.state, game.move_to_json(move), _language())
            labels.append(fit(f"{len(session.log) - back + 1}. {described}"))
            actions.append(self._undo_back(back))
            if back >= 20:
                break
        self._submenu(text("oled.menu.undo_list"), labels, actions)

    def _undo_back(self, back: int) -> Callable[[], None]:
        def undo() -> None:
            for _ in range(back):
                self.table.undo()
        return undo

    def _language(self) -> None:
        from companion.service.settings import LANGUAGE, LANGUAGES

        def choose(language: str) -> Callable[[], None]:
            def change() -> None:
                self.table.app.change_setting(LANGUAGE, language)
                set_language(language)
            return change
        self._submenu(text("oled.menu.language"), [text(f"oled.language.{code}") for code in LANGUAGES],
                      [choose(code) for code in LANGUAGES])

    def _phone_page(self) -> None:
        """The live page's URL (``companion web``), to type into a phone where no touchscreen shows
        its QR code; or why there is none."""
        from companion.service.web_link import WEB_SETTING, read_url

        app = self.table.app
        url = read_url(app.store.path.parent) if app.settings()[WEB_SETTING] else None
        self.notify([notice_page(text("oled.menu.web"), url or text("oled.web.off"))])

    def _hardware_test(self) -> None:
        self.testing = True
        self.last_test_key = None

    def _confirm_repair(self) -> None:
        """The protected step before a repair: "cancel" first, then "yes"."""
        self._protect("repair")

    def _confirming(self, action: Action) -> Callable[[], None]:
        return lambda: self._protect(action)

    def _protect(self, action: Action) -> None:
        """The protected step before a repair, a restore, a fresh store or a backup: "cancel" first."""
        self.listing = Listing(text(_ACTION_WORDS[action]),
                               [text("oled.power.cancel"), text("oled.power.yes")],
                               [lambda: None, lambda: self._act(action)], back=self._menu_listing())

    def _repair(self) -> None:
        """``companion doctor --repair`` on the table's store, reopened; what was kept, or why not."""
        self._act("repair")

    def _act(self, action: Action) -> None:
        """Do ``action`` at the table (:func:`companion.service.damage.act`); what was done, or why not."""
        from companion.service.damage import act

        try:
            done = act(self.table, action, self.stick_mount)
        except StoreError as error:
            self.notify(refused_pages(error.args[0]))
            return
        title = "appliance.stick.oled_done" if action == "backup" else "appliance.damage.repaired_title"
        self.notify([notice_page(text(title), str(done))])

    def _back_up_to_stick(self) -> None:
        """The store onto the stick, synced; then "safe to remove", or why nothing was written."""
        from companion.storage.stick import StickError, backup_to_stick

        try:
            done = backup_to_stick(self.table.app.store, self.stick_mount)
        except StickError as error:
            self.notify(refused_pages(error.reason))
            return
        # four short lines: "safe to remove" must not be cut off by the file's long name
        self.notify([notice_page(text("appliance.stick.oled_done"), text("appliance.stick.oled_safe"))])
        log.info("backed up to %s", done.path)

    def _power(self) -> None:
        from companion.system.power import PowerAction

        actions = list(PowerAction)
        self._submenu(text("oled.menu.power"), [text(f"oled.power.{a.value}") for a in actions],
                      [self._power_choice(a) for a in actions])

    def _power_choice(self, action: Any) -> Callable[[], None]:
        def choose() -> None:
            self._confirm_power(action)
        return choose

    def _confirm_power(self, action: Any) -> None:
        """The protected step: the action's name, then "cancel" (first) or "yes"."""
        self.listing = Listing(text(f"oled.power.{action.value}"),
                               [text("oled.power.cancel"), text("oled.power.yes")],
                               [lambda: None, lambda: self._perform_power(action)],
                               back=self._menu_listing())

    # -- a seat panel asks for a seat ---------------------------------------------
    def ask_pairing(self, seat: int, player: str | None, answer: Callable[[bool], None]) -> None:
        """Ask whether the panel that claims ``seat`` (``player``'s, if the open game seats someone
        there) may have it: "no" first, so a push by mistake allows nothing. Shown at once over
        whatever the OLED showed; backing out with Menu answers nothing (the panel keeps waiting)."""
        allow = text("oled.panel.allow", player=player) if player else text("oled.panel.allow_empty")
        self.preview = []
        self.listing = Listing(text("oled.panel.ask", seat=seat), [text("oled.panel.refuse"), allow],
                               [lambda: answer(False), lambda: answer(True)])

    def _perform_power(self, action: Any) -> None:
        from companion.service.power import perform

        refusal = perform(action, self.power_run)
        if refusal is not None:
            self.notify(refused_pages(str(refusal)))


def _language() -> str:
    from companion.i18n import current_language

    return current_language()


def _card_label(game: Game[StateT, Any], state: StateT, move: dict[str, Any]) -> str:
    label = games.part(game.name).choice_label
    if label is not None:
        return label(game, state, move)
    return game.describe(state, move, _language())


def valuation_pages(table: Table) -> list[Page]:
    """What the Valuation button shows: the game's own preview (its part's
    :attr:`~hardware.games.GamePart.valuation_pages`), else the scores now."""
    session = table.session
    if session is None:
        return []
    game, state = session.game, session.state
    pages = games.part(game.name).valuation_pages
    if pages is not None:
        return pages(game, state)
    summary: Mapping[str, Any] = game.summary(state)  # only the fields every game has
    lines = scores_lines(summary["players"], summary.get("scores", {}))
    return [notice_page(text("oled.valuation.scores"), "\n".join(lines))]
