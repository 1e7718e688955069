"""A variant is a bundle of four parts, each a small object with the defaults of the standard game:

- `Rules`: the board, the pieces, the calendar, the order words and verbs, and the pure hooks of
  play (the set-up, each phase's intake and adjudication, the end of a year, who changes hands,
  the game's result). The engine, the replay and the views call these, never ask a name.
- `Files`: what the variant reads of a game's files besides the standard keys (its own keys of
  game.yml and of the phase files, its form of ``players:`` and ``orders:``, its lots in
  secrets.yml), read into the values its rules take.
- `Policy`: what each level of the site may know of a game while it runs (hidden variants).
- `Words`: how the variant is named and described, and its words for results, dues and victory,
  and the sections it adds to the pages and reports.

`Variant` holds the four and the name games use in ``variant:``. A variant's `Files`, `Policy`
and `Words` read its `Rules` (``self.rules``) and nothing of one another; their parameters that
are objects of the rooms above (a loaded game, a History, a view) are typed loosely, so that
this module imports nothing above the rules. The variants themselves are `dipgen.variants`'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeAlias

from dipgen.core.board import Board
from dipgen.core.orders import STANDARD_KINDS, Convoy, Hold, Move, Order, Support, Verb
from dipgen.core.phase import ADJUSTMENTS, RETREATS
from dipgen.core.position import Position, Unit, initial_position
from dipgen.core.results import STANDARD_WORDS, Kind, OrderResult, result_words
from dipgen.core.units import STANDARD_UNIT_KINDS, UnitKind
from dipgen.engine.adjustments import AdjustmentOutcome, adjudicate_adjustments, adjustment_counts, upgrade_cost
from dipgen.engine.movement import MovementOutcome, adjudicate_movement
from dipgen.engine.retreats import RetreatOutcome, adjudicate_retreats
from dipgen.resources.boards import load_board
from dipgen.rules.seasons import STANDARD_CALENDAR, Calendar

if TYPE_CHECKING:  # imported where used: adjudicating (dipgen datc) needs neither seats nor visibility
    from dipgen.rules.seats import ControlChange, Seating
    from dipgen.rules.visibility import PositionVisibility, RecordVisibility

# Objects of the rooms above, which the hooks read: this module may not import them (not even for
# type checking: the import test counts those), so they are named here and checked where they live.
#: a loaded game (`dipgen.play.game.Game`)
Game: TypeAlias = Any
#: a History (`dipgen.play.records.History`), and one of its records
History: TypeAlias = Any
Record: TypeAlias = Any
#: a view (`dipgen.view.GameView`)
View: TypeAlias = Any


class Rules:
    """The rules of the standard game (2000/2023 rulebook, DATC 3.0 choices); a variant's rules
    subclass it and override what differs. Pure: a position and orders in, a result out."""

    board_name = "standard"
    unit_kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS
    #: the words orders name the unit kinds with, and the order kinds of the variant's own (`Verb`)
    order_words: Mapping[str, str] = STANDARD_KINDS
    verbs: tuple[Verb, ...] = ()
    #: the orders a movement phase takes, and how to say so
    movement_orders: tuple[type, ...] = (Hold, Move, Support, Convoy)
    movement_orders_text = "movement orders: hold, move, support and convoy"
    #: True when the rules draw lots or roll dice (the replay then needs the game's seed)
    makes_draws = False
    #: the phases of a year and what follows what (`dipgen.rules.seasons.Calendar`)
    calendar: Calendar = STANDARD_CALENDAR

    def __init__(self) -> None:
        self.board: Board = load_board(self.board_name)

    # ----- the game's shape
    def powers(self) -> list[str]:
        """The powers of the game, in the board's order."""
        return list(self.board.powers)

    def home_centres(self, power: str) -> tuple[str, ...]:
        """The centres where `power` builds."""
        return self.board.home_centres(power)

    def start(self, year: int | None = None) -> Position:
        """The board's opening position, waiting for the first phase of the variant's calendar."""
        pos = initial_position(self.board, year)
        return pos.with_(phase=self.calendar.first(pos.phase.year))

    def initial_position(self, game: Game, draws=None, secret=None) -> Position:
        """The position before the first phase (`game.setup`: what the variant's `Files` read of
        the set-up; `draws`: the set-up's `PhaseDraws`, for variants that draw; `secret`: what
        `Files.read_secret` read of the game's secrets.yml, or None). Raises GameError if the
        game's files set it up wrongly."""
        return self.start(game.start)

    def drawn_seating(self, game: Game, draws) -> Seating | None:
        """The seating once the set-up's `draws` are made, for seats game.yml leaves to a draw (None: as read)."""
        return None

    # ----- each phase
    def phase_needed(self, position: Position) -> bool:
        """Does the phase `position` waits for have anything to order? (Retreats only when a unit
        was dislodged, adjustments only when a power builds or removes; else the replay skips it.)"""
        kind = position.phase.kind
        if kind == RETREATS:
            return bool(position.dislodged)
        if kind == ADJUSTMENTS:
            return bool(self.adjustment_counts(position))
        return True

    def prepare(self, position: Position, phase_file, draws=None) -> Position:
        """The position a phase's orders are taken in, once the variant has read what its phase
        file says besides orders (`phase_file.extra`, as its `Files` read it; default: unchanged)."""
        return position

    def must_order(self, power: str, position: Position) -> bool:
        """Is `power` due to send orders in the phase `position` waits for (False: its units hold,
        and no orders is no NMR)?"""
        return True

    def intake(self, position: Position, lines: Mapping[str, Sequence], draws=None):
        """The orders the engine adjudicates, from the lines the GM wrote (power -> `OrderLine`s,
        each with its writer), with typed notes of what this step decided (`dipgen.rules.intake.Intake`)."""
        from dipgen.rules.intake import as_written

        return as_written(lines)

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

    def control_changes(self, record: Record, seating: Seating) -> Sequence[ControlChange]:
        """Powers that change hands after `record`'s phase, each from a later phase (default: none ever do)."""
        return ()

    # ----- the end
    def winner(self, position: Position) -> str | None:
        """The power that has won outright, if any (checked after each Fall turn)."""
        counts = position.centre_counts(self.powers())
        best = max(counts, key=lambda p: counts[p]) if counts else None
        if best is not None and counts[best] >= self.board.victory_centres:
            return best
        return None

    def winners(self, position: Position) -> tuple[str, ...]:
        """The powers that have won together (checked after each Fall turn; default: `winner`'s one)."""
        won = self.winner(position)
        return (won,) if won else ()

    def game_result(self, position: Position, phase, seating: Seating, fall_over: bool):
        """The game's result after `phase` (a `dipgen.core.outcome.GameResult`) or None: by default
        the powers `winners` names once the year is over (`fall_over`: after each Fall turn)."""
        from dipgen.core.outcome import GameResult

        winners = tuple(self.winners(position)) if fall_over else ()
        return GameResult("solo", winners, phase) if winners else None


class Files:
    """What the standard game reads of its files: no keys of its own, orders keyed by power, one
    player per power. A variant's `Files` reads its own keys into the values its rules take, with
    file and line for every problem (`dipgen.io.yamlfile` keeps the lines)."""

    #: keys this variant allows in game.yml, in every phase file, and only in the game's first
    #: phase file (the set-up: Stab!'s placement, Blind's spies; anywhere else an error)
    game_keys: frozenset[str] = frozenset()
    phase_keys: frozenset[str] = frozenset()
    setup_keys: frozenset[str] = frozenset()
    #: how a phase file keys its orders: ``power`` (each power's, by its player), ``power/writer``
    #: (each power's, per player who sent them) or ``writer/power`` (each player's, per power ordered)
    order_form = "power"
    order_form_example = "e.g.\n      orders:\n        France:\n          - A Par - Bur"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def read_seats(self, raw, file: str, line: int | None, problems: list) -> Seating | None:
        """game.yml's ``players:`` in this variant's own form, as seats and initial control (None: the
        standard form)."""
        return None

    def writers(self, seating: Seating) -> dict[str, str]:
        """Who may write orders in a phase file where they are keyed by writer: casefolded -> name."""
        out = {}
        for seat in seating.seats:
            for name in [seat.key, *seat.names()]:
                out[name.casefold()] = name
        return out

    def new_players(self):
        """The ``players:`` a new game.yml starts with (`dipgen new`), for the GM to fill in."""
        return {p: "to be announced" for p in self.rules.powers()}

    def read_phase(self, phase, extra: Mapping, file: str, first, seating: Seating | None, problems: list) -> dict:
        """A phase file's keys of this variant (`extra`: as written, `phase_keys` and `setup_keys`)
        read into what the rules take (`PhaseFile.extra`); `first`: the game's first phase (default: as written)."""
        return dict(extra)

    def read_setup(self, game: Game, problems: list) -> Mapping:
        """What game.yml's keys of this variant and the first phase file's set-up keys say, read
        and checked (`Game.setup`, which `Rules.initial_position` takes; default: nothing)."""
        return {}

    def read_secret(self, secret: Mapping | None, file: str, seats: Sequence[str]) -> Mapping | None:
        """What the game's secrets.yml (`secret`: its keys besides the passphrases) says for the
        set-up, read and checked, as `Rules.initial_position` takes it; raises GameError."""
        return secret


class Policy:
    """Who may know what of a game while it runs: in the standard game everyone knows everything."""

    #: True when some of the game is hidden from the public while it runs
    hidden = False
    #: in a hidden game, does the public see a fixed calendar (dipgen.view.timeline) rather than the phases as played?
    fixed_calendar = True
    #: on a fixed calendar, is each player told every power's centre total once the Fall is closed, before
    #: the Winter (Stab!), rather than with the public's Winter page?
    tells_fall_totals = False

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def record_visibility(self, history: History, record: Record) -> RecordVisibility:
        """Who may know each fact of `record` (default: everyone knows everything)."""
        from dipgen.rules.visibility import RecordVisibility

        return RecordVisibility.open(record)

    def start_visibility(self, history: History, position: Position) -> PositionVisibility:
        """Who may know each fact of the opening position (default: everyone)."""
        from dipgen.rules.visibility import PositionVisibility

        return PositionVisibility.open(position)

    def phase_known(self, record: Record, level: str) -> bool:
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

    def closed_by_file(self, phase) -> bool:
        """Is the retreat phase `phase` played from its file even when nobody retreats? RULING: in a
        hidden game whose board is secret (`fixed_calendar`) every Fall is closed by its retreats
        file, empty when nobody retreats, so that whether anyone had to retreat never shows in when
        the players are told the year's centres (site_src/rules/blind.md, "Closing the Fall")."""
        return self.hidden and self.fixed_calendar and self.rules.calendar.ends_year(phase)

    def secret_texts(self, history: History) -> Sequence[tuple[str, tuple]]:
        """What of a running game the public may never read, for the leak scanner: (the secret in
        words, its forms: texts found as words, or compiled patterns) (default: none)."""
        return ()


class Words:
    """How the standard game is named and says its results; a variant's `Words` adds its own
    words and the sections it shows on the pages and in the reports."""

    #: a line for people: what kind of game this is
    title = "Standard Diplomacy"
    description = "The standard game on the standard map (2000/2023 rulebook, DATC 3.0 choices)."
    #: the rules page its games link to: a page of the site's rules folder by name, ``#section``
    #: allowed ('' = the page named after the variant)
    rules_page = ""
    #: the words every page, map and report says a result in, keyed by a note's `Kind` and by
    #: its reason (`Bounce.HELD`...; a reason's word wins): `STANDARD_WORDS` with the variant's own
    result_vocabulary: Mapping[Kind | Enum, str] = STANDARD_WORDS
    #: the renderer's symbol for a kind where the default lettered token will not do (letter -> Symbol)
    unit_symbols: Mapping = {}
    #: where the game page shows `game_section`: above the map (False) or under the centre table (True)
    game_section_below_centres = False
    #: how the variant's finished games score, where the hobby's systems (`dipgen.rules.scoring`:
    #: seven powers, one player each) do not fit; '' when they do
    scoring_note = ""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def result_words(self, result: OrderResult) -> tuple[str, ...]:
        """An order's result in this variant's words (``('cut', 'dislodged')``): what the site,
        the maps and the reports all say."""
        return result_words(result.notes, self.result_vocabulary)

    def format_result(self, result: OrderResult) -> str:
        """An order with its result in this variant's words: ``A Edi - Hol (*bounce*)``."""
        return result.format(self.rules.board, self.result_vocabulary)

    def adjustment_text(self, n: int) -> str:
        """What a power's due `n` (from `adjustment_counts`, not 0) is called on pages and in reports: ``builds 2``."""
        return f"builds {n}" if n > 0 else f"removes {-n}"

    def victory_text(self) -> str:
        """How the game is won, in a sentence under the centre table."""
        n = self.rules.board.victory_centres
        return f"{n} centres win outright." if n else ""

    def result_line(self, history: History) -> str:
        """The game's result said in this variant's terms ('': the standard sentence, by power)."""
        return ""

    def season_section(self, view: View, record: Record) -> str:
        """HTML of the variant's own for a season page, after the orders (default: none)."""
        return ""

    def report_section(self, view: View, record: Record) -> list[str]:
        """Plain-text lines the variant adds to a phase report after the orders (`record`: one of the
        records of `view`, a `dipgen.view.GameView`; each block ends with an empty line; default: none)."""
        return []

    def game_section(self, view: View) -> str:
        """Safe HTML the variant adds to the game page or to a seat's private page, made from that
        page's view (a `dipgen.view.GameView`) alone (default: none)."""
        return ""


@dataclass(frozen=True)
class Variant:
    """A variant: its name (what games write in ``variant:``) and its four parts."""

    name: str
    rules: Rules
    files: Files
    policy: Policy
    words: Words

    @classmethod
    def of(cls, name: str, rules: Rules, files: type[Files] = Files, policy: type[Policy] = Policy,
           words: type[Words] = Words) -> Variant:
        """The variant `name` of `rules`, with its other parts made over those rules."""
        return cls(name, rules, files(rules), policy(rules), words(rules))

    def __repr__(self) -> str:
        return f"get_variant({self.name!r})"
