"""The Variant interface: every point where a variant plugs in, each with its default.

The engine, the replay, the views, the renderer and the site never ask which variant they
run; they read this data and call these hooks. The standard game (`standard.py`) uses every
default. The points, in the order a game meets them:

- the board and the pieces: `board_name`, `unit_kinds` (kinds as data, `dipgen.core.units`),
  `order_words`, `unit_symbols`, `powers`, `home_centres`, `start`;
- the files: `game_keys`, `phase_keys`, `setup_keys`, `order_form`, `read_seats`;
- the set-up: `initial_position` (with the set-up's draws when `makes_draws`);
- the calendar: `calendar`, `phase_needed`;
- each phase: `intake` (who wrote what -> the orders adjudicated), `movement`, `retreats`,
  `adjustment_counts`, `adjustments`, `update_owners`, `after_fall`, `control_changes`;
- the end: `winner`;
- what each level sees (hidden variants): `hidden`, `record_visibility`, `start_visibility`,
  `phase_known`, `retreats_known`;
- words: `result_vocabulary`, `result_words`, `format_result`.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from dipgen.core.board import Board, load_board
from dipgen.rules.seasons import STANDARD_CALENDAR, Calendar
from dipgen.engine.adjustments import AdjustmentOutcome, adjudicate_adjustments, adjustment_counts, upgrade_cost
from dipgen.engine.movement import MovementOutcome, adjudicate_movement
from dipgen.core.results import STANDARD_WORDS, Kind, OrderResult, result_words
from dipgen.engine.retreats import RetreatOutcome, adjudicate_retreats
from dipgen.core.orders import STANDARD_KINDS, Convoy, Hold, Move, Order, Support
from dipgen.core.phase import ADJUSTMENTS, RETREATS
from dipgen.core.position import Position, Unit, initial_position
from dipgen.core.units import STANDARD_UNIT_KINDS, UnitKind

if TYPE_CHECKING:  # imported where used: adjudicating (dipgen datc) needs neither seats nor visibility
    from dipgen.rules.seats import ControlChange, Seating
    from dipgen.rules.visibility import PositionVisibility, RecordVisibility


class Variant:
    #: the name games use in ``variant:``
    name = "standard"
    #: a line for people: what kind of game this is
    title = "Standard Diplomacy"
    description = "The standard game on the standard map (2000/2023 rulebook, DATC 3.0 choices)."
    board_name = "standard"
    unit_kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS
    order_words: Mapping[str, str] = STANDARD_KINDS
    #: the renderer's symbol for a kind where the default lettered token will not do (letter -> Symbol)
    unit_symbols: Mapping = {}
    #: True when some of the game is hidden from the public while it runs
    hidden = False
    #: in a hidden game, does the public see a fixed calendar (dipgen.timeline) rather than the phases as played?
    fixed_calendar = True
    #: extra keys this variant allows in game.yml, in every phase file, and only in the game's
    #: first phase file (the set-up: Stab!'s placement, Blind's spies; anywhere else an error)
    game_keys: frozenset[str] = frozenset()
    phase_keys: frozenset[str] = frozenset()
    setup_keys: frozenset[str] = frozenset()
    #: the words every page, map and report says a result in, keyed by a note's `Kind` and by
    #: its reason (`Bounce.HELD`...; a reason's word wins): `STANDARD_WORDS` with the variant's own
    result_vocabulary: Mapping[Kind | Enum, str] = STANDARD_WORDS
    #: the orders a movement phase takes, and how to say so
    movement_orders: tuple[type, ...] = (Hold, Move, Support, Convoy)
    movement_orders_text = "movement orders: hold, move, support and convoy"
    #: how a phase file keys its orders: ``power`` (each power's, by its player), ``power/writer``
    #: (each power's, per player who sent them) or ``writer/power`` (each player's, per power ordered)
    order_form = "power"
    order_form_example = "e.g.\n      orders:\n        France:\n          - A Par - Bur"
    #: True when the rules draw lots or roll dice (the replay then needs the game's seed)
    makes_draws = False
    #: the phases of a year and what follows what (`dipgen.rules.seasons.Calendar`)
    calendar: Calendar = STANDARD_CALENDAR

    #: the rules page its games link to: a page of the site's rules folder by name, ``#section``
    #: allowed ('' = the page named after the variant)
    rules_page = ""

    def __init__(self) -> None:
        self.board: Board = load_board(self.board_name)

    # ----- the game's shape
    def powers(self) -> list[str]:
        """The powers of the game, in the board's order."""
        return list(self.board.powers)

    def start(self, year: int | None = None) -> Position:
        """The board's opening position, waiting for the first phase of the variant's calendar."""
        pos = initial_position(self.board, year)
        return pos.with_(phase=self.calendar.first(pos.phase.year))

    def initial_position(self, game, draws=None, secret=None) -> Position:
        """The position before the first phase (`draws`: the set-up's `PhaseDraws`, for variants
        that draw; `secret`: what the game's secrets.yml says besides its passphrases, such as lots
        the players drew by hand, or None). Raises GameError if the game's files set it up wrongly."""
        return self.start(game.start)

    # ----- the calendar
    def phase_needed(self, position: Position) -> bool:
        """Does the phase `position` waits for have anything to order? (Retreats only when a unit
        was dislodged, adjustments only when a power builds or removes; else the replay skips it.)"""
        kind = position.phase.kind
        if kind == RETREATS:
            return bool(position.dislodged)
        if kind == ADJUSTMENTS:
            return bool(self.adjustment_counts(position))
        return True

    def new_players(self):
        """The ``players:`` a new game.yml starts with (`dipgen new`), for the GM to fill in."""
        return {p: "to be announced" for p in self.powers()}

    # ----- order intake
    def prepare(self, position: Position, phase_file, draws=None) -> Position:
        """The position a phase's orders are taken in, once the variant has read what its phase file says besides orders (default: unchanged)."""
        return position

    def writers(self, seating) -> dict[str, str]:
        """Who may write orders in a phase file where they are keyed by writer: casefolded -> name."""
        out = {}
        for seat in seating.seats:
            for name in [seat.key, *seat.names()]:
                out[name.casefold()] = name
        return out

    def intake(self, position: Position, lines: Mapping[str, Sequence], draws=None):
        """The orders the engine adjudicates, from the lines the GM wrote (power -> `OrderLine`s,
        each with its writer), with typed notes of what this step decided (`dipgen.rules.intake.Intake`)."""
        from dipgen.rules.intake import as_written

        return as_written(lines)

    def result_words(self, result: OrderResult) -> tuple[str, ...]:
        """An order's result in this variant's words (``('cut', 'dislodged')``): what the site,
        the maps and the reports all say."""
        return result_words(result.notes, self.result_vocabulary)

    def format_result(self, result: OrderResult) -> str:
        """An order with its result in this variant's words: ``A Edi - Hol (*bounce*)``."""
        return result.format(self.board, self.result_vocabulary)

    def home_centres(self, power: str) -> tuple[str, ...]:
        """The centres where `power` builds."""
        return self.board.home_centres(power)

    # ----- seats (who plays which power)
    def read_seats(self, raw, file: str, line: int | None, problems: list) -> Seating | None:
        """game.yml's ``players:`` in this variant's own form, as seats and initial control (None: the standard form)."""
        return None

    def drawn_seating(self, game, draws) -> Seating | None:
        """The seating once the set-up's `draws` are made, for seats game.yml leaves to a draw (None: as read)."""
        return None

    def control_changes(self, record, seating: Seating) -> Sequence[ControlChange]:
        """Powers that change hands after `record`'s phase, each from a later phase (default: none ever do)."""
        return ()

    # ----- phases
    def movement(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> MovementOutcome:
        """Adjudicate a movement phase (orders: what the intake step handed over)."""
        return adjudicate_movement(self.board, position.units, orders, self.unit_kinds)

    def retreats(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> RetreatOutcome:
        """Adjudicate a retreat phase."""
        return adjudicate_retreats(self.board, position.units, position.dislodged, orders, self.unit_kinds)

    def adjustment_counts(self, position: Position) -> dict[str, int]:
        """Builds (+) and removals (-) due to each power that can act on them."""
        kinds = self.unit_kinds
        counts = adjustment_counts(position.units, position.owners, self.powers(), kinds)
        occupied = {u.province for u in position.units if kinds[u.kind].occupies}
        dearest = max((k.build_cost for k in kinds.values() if k.occupies and k.fights), default=1)
        for power, n in counts.items():
            if n > 0:
                # as many as the free owned home centres take, each the dearest kind, and the
                # upgrades of the units on owned home centres (none in the standard game)
                homes = [c for c in self.home_centres(power) if position.owners.get(c) == power]
                free = [c for c in homes if c not in occupied]
                upgrades = sum(upgrade_cost(kinds, u.kind) for u in position.units
                               if u.power == power and u.province in homes)
                counts[power] = min(n, len(free) * dearest + upgrades)
        return {p: n for p, n in counts.items() if n}

    def adjustment_text(self, n: int) -> str:
        """What a power's due `n` (from `adjustment_counts`, not 0) is called on pages and in reports: ``builds 2``."""
        return f"builds {n}" if n > 0 else f"removes {-n}"

    def adjustments(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> AdjustmentOutcome:
        """Adjudicate an adjustment phase: builds, removals, waives, civil disorder."""
        return adjudicate_adjustments(self.board, position.units, position.owners, orders, self.unit_kinds,
                                      self.home_centres)

    def update_owners(self, units: Iterable[Unit], owners: Mapping[str, str]) -> dict[str, str]:
        """After a Fall turn: each centre with a unit on it now belongs to that unit's power."""
        new = dict(owners)
        for u in units:
            if u.province in self.board.centres and self.unit_kinds[u.kind].takes_centres:
                new[u.province] = u.power
        return new

    def after_fall(self, position: Position) -> Position:
        """The position once a Fall turn is over and centres have changed hands (a hook for
        variants with more to settle then, such as Blind's spies)."""
        return position

    # ----- pages
    def season_section(self, view, record) -> str:
        """HTML of the variant's own for a season page, after the orders (default: none)."""
        return ""

    def report_section(self, view, record) -> list[str]:
        """Plain-text lines the variant adds to a phase report after the orders (`record`: one of the
        records of `view`, a `dipgen.view.GameView`; each block ends with an empty line; default: none)."""
        return []

    def winner(self, position: Position) -> str | None:
        """The power that has won outright, if any (checked after each Fall turn)."""
        counts = position.centre_counts(self.powers())
        best = max(counts, key=counts.get) if counts else None
        if best is not None and counts[best] >= self.board.victory_centres:
            return best
        return None

    def game_result(self, position: Position, phase, seating: Seating, fall_over: bool):
        """The game's result after `phase` (a `records.GameResult`) or None: by default the powers
        `winners` names once the year is over (`fall_over`: after each Fall turn)."""
        from dipgen.core.outcome import GameResult

        winners = tuple(self.winners(position)) if fall_over else ()
        return GameResult("solo", winners, phase) if winners else None

    #: where the game page shows `game_section`: above the map (False) or under the centre table (True)
    game_section_below_centres = False

    def game_section(self, view) -> str:
        """Safe HTML the variant adds to the game page or to a seat's private page, made from that
        page's view (a `dipgen.view.GameView`) alone (default: none)."""
        return ""

    def secret_texts(self, history) -> Sequence[tuple[str, tuple]]:
        """What of a running game the public may never read, for the leak scanner: (the secret in
        words, its forms: texts found as words, or compiled patterns) (default: none)."""
        return ()

    def must_order(self, power: str, position: Position) -> bool:
        """Is `power` due to send orders in the phase `position` waits for (False: its units hold, and no orders is no NMR)?"""
        return True

    def winners(self, position: Position) -> tuple[str, ...]:
        """The powers that have won together (checked after each Fall turn; default: `winner`'s one)."""
        won = self.winner(position)
        return (won,) if won else ()

    def victory_text(self) -> str:
        """How the game is won, in a sentence under the centre table."""
        n = self.board.victory_centres
        return f"{n} centres win outright." if n else ""

    def result_line(self, history) -> str:
        """The game's result said in this variant's terms ('': the standard sentence, by power)."""
        return ""

    # ----- what each level sees (read only when `hidden`)
    def record_visibility(self, history, record) -> RecordVisibility:
        """Who may know each fact of `record` (default: everyone knows everything)."""
        from dipgen.rules.visibility import RecordVisibility

        return RecordVisibility.open(record)

    def start_visibility(self, history, position: Position) -> PositionVisibility:
        """Who may know each fact of the opening position (default: everyone)."""
        from dipgen.rules.visibility import PositionVisibility

        return PositionVisibility.open(position)

    def phase_known(self, record, level: str) -> bool:
        """Does `level` know that `record`'s phase took place at all? Asked only of a hidden game
        whose board is secret (`fixed_calendar`). RULING: a retreat phase is known only to the
        powers whose units retreat and those who dislodged them (the public does not learn that
        anyone had somewhere to go); an adjustment phase only to the powers that adjust in it."""
        if record.phase.retreats:
            return any(level in (d.unit.power, d.by_power) for d in record.before.dislodged)
        if record.phase.kind == ADJUSTMENTS:
            return level in record.adjustments
        return True

    def retreats_known(self, position: Position, level: str) -> bool:
        """Does `level` know that the game waits for retreats in `position` (asked as `phase_known`)?"""
        return any(level in (d.unit.power, d.by_power) for d in position.dislodged)

    def __repr__(self) -> str:
        return f"get_variant({self.name!r})"
