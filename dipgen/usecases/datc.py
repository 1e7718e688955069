"""Run adjudication test cases in the DATC text format used by jDip and godip.

A file holds ``CASE <id>`` ... ``END`` blocks with a starting position, orders and the
expected position after one phase (see ``tests/datc/`` and the README).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dipgen.core.board import Board, UnknownName, province_of
from dipgen.core.errors import CommandError
from dipgen.resources.boards import load_board
from dipgen.engine.adjustments import adjudicate_adjustments
from dipgen.engine.movement import adjudicate_movement, retreat_options
from dipgen.engine.retreats import adjudicate_retreats
from dipgen.core.orders import STANDARD_KINDS, Move, Order, for_phase, parse_order, parse_unit
from dipgen.core.position import Dislodged, Position, Unit
from dipgen.core.units import LAND, STANDARD_UNIT_KINDS

#: Cases of older DATC files whose expected result DATC 3.0 reversed.
SUPERSEDED = {
    "6.G.8": "DATC 3.0 (4.A.3, 6.G.8) has no land-route fallback for an explicit 'via convoy': the army stays",
}

_SECTIONS = ("PRESTATE", "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "PRESTATE_SUPPLYCENTER_OWNERS",
             "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED")


class DatcFormatError(CommandError, ValueError):
    """A DATC file that breaks the format (where, and what)."""

    CODE = "bad-datc"

    def __init__(self, message: str) -> None:
        super().__init__(message, self.CODE)


@dataclass
class Case:
    name: str
    line: int
    phase: str = "Spring 1901, Movement"
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    same: bool = False

    @property
    def kind(self) -> str:
        p = self.phase.lower()
        if "retreat" in p:
            return "retreats"
        if "adjust" in p or "build" in p:
            return "adjustments"
        return "movement"


#: The words that begin a line of the format's own (anything else is a line of a section).
_KEYWORDS = frozenset(("VARIANT_ALL", "CASE", "END", "PRESTATE_SETPHASE", "POSTSTATE_SAME") + _SECTIONS)
_KEYWORD_INITIALS = "".join(sorted({k[0] for k in _KEYWORDS}))


def parse_cases(text: str, filename: str = "<datc>") -> list[Case]:
    return list(iter_cases(text, filename))


def iter_cases(text: str, filename: str = "<datc>") -> Iterator[Case]:
    """The cases of a file, each as soon as its END is read (a file of many cases is run case by
    case, not held whole); DatcFormatError where the file breaks the format."""
    case: Case | None = None
    add = None  # the `append` of the section being read, if any
    initials, keywords = _KEYWORD_INITIALS, _KEYWORDS
    for lineno, raw in enumerate(text.splitlines(), 1):
        if "#" in raw:
            raw = raw.split("#", 1)[0]
        line = raw.strip()
        if not line:
            continue
        # most lines are a section's units or orders: their first letter tells most of them apart
        if line[0] not in initials or (word := line.split(None, 1)[0]) not in keywords:
            if add is None:
                where = "outside a CASE block" if case is None else "is not in a section"
                raise DatcFormatError(f"{filename}:{lineno}: {line!r} {where}")
            add((lineno, line))
        elif word == "VARIANT_ALL":
            continue  # read by `variant_of`
        elif word == "CASE":
            if case is not None:
                raise DatcFormatError(f"{filename}:{lineno}: CASE inside case {case.name} (missing END)")
            case, add = Case(line[4:].strip(), lineno), None
        elif case is None:
            raise DatcFormatError(f"{filename}:{lineno}: {line!r} outside a CASE block")
        elif word == "END":
            yield case
            case = add = None
        elif word == "PRESTATE_SETPHASE":
            case.phase = line[len(word):].strip()
        elif word == "POSTSTATE_SAME":
            case.same, add = True, None
        else:
            add = case.sections.setdefault(word, []).append
    if case is not None:
        raise DatcFormatError(f"{filename}: case {case.name} has no END")


_POWER_AND_REST = re.compile(r"\s*([A-Za-z]+)\s*:?\s+(.*)$")


def _power_and_rest(board: Board, line: str) -> tuple[str, str]:
    """``"England: A Lon"`` -> ``("England", "A Lon")``: a line's power and what follows it."""
    word, colon, rest = line.partition(": ")  # as most files write it, read without the expression
    if colon and word.isalpha() and word.isascii() and rest.strip():
        rest = rest.lstrip()
    else:
        m = _POWER_AND_REST.match(line)
        if not m:
            raise DatcFormatError(f"cannot read {line!r}")
        word, rest = m.groups()
    try:
        return board.power_name(word), rest
    except UnknownName:
        import difflib  # only to suggest a name for a misspelt one

        close = difflib.get_close_matches(word.capitalize(), list(board.powers), n=1, cutoff=0.8)
        if close:  # test files have typos ("Germnay"); read them as their writers meant
            return close[0], rest
        raise


def variant_of(text: str, filename: str = "<datc>"):
    """The variant a file's ``VARIANT_ALL`` line names (the standard game without one)."""
    from dipgen.variants import get_variant

    m = re.search(r"^\s*VARIANT_ALL\s+(\S+)(.*)$", text, re.MULTILINE)
    slug = m.group(1) if m else "standard"
    try:
        variant = get_variant(slug)
    except ValueError as e:
        raise DatcFormatError(f"{filename}: {e}") from None
    for option in (m.group(2).split("#")[0].split() if m else ()):  # VARIANT_ALL Complicated plane_limit
        key = option.strip("(),").lower()
        if not isinstance(getattr(variant.rules, key, None), bool):
            raise DatcFormatError(f"{filename}: VARIANT_ALL {slug}: unknown option {option!r}")
        setattr(variant.rules, key, True)
    return variant


class _Lines:
    """A file's unit and order lines, each distinct one read once: a file of many cases
    repeats the same lines again and again. Units and orders are read in the words of the
    variant's unit kinds (`kinds`, `words`) and order kinds (`verbs`)."""

    def __init__(self, board: Board, kinds=STANDARD_UNIT_KINDS, words=STANDARD_KINDS, home_centres=None,
                 variant=None, verbs=()):
        self.board, self.kinds, self.words, self.home_centres = board, kinds, words, home_centres
        self.verbs = verbs
        #: a variant with phases of its own (Complicated's bombing and supply points), run through them
        self.variant = variant
        self._units: dict[str, Unit] = {}
        self._seen: dict[str, tuple[str, str, str]] = {}
        self._orders: dict[str, dict[str, tuple[str, Order | None]]] = {}  # phase kind -> line -> (power, order)

    def units(self, lines) -> list[Unit]:
        known = self._units
        return [known.get(line) or self._unit(line) for _, line in lines]

    def seen(self, lines) -> set[tuple[str, str, str]]:
        """The units of `lines` as a case compares them (`_seen`), each distinct line's once."""
        known = self._seen
        out = set()
        for _, line in lines:
            seen = known.get(line)
            if seen is None:
                unit = self._units.get(line) or self._unit(line)
                seen = known[line] = (unit.power, unit.kind, unit.loc)
            out.add(seen)
        return out

    def _unit(self, line: str) -> Unit:
        power, rest = _power_and_rest(self.board, line)
        kind, loc = parse_unit(self.board, rest, self.words)
        if self.kinds[kind].terrain == LAND:
            loc = province_of(loc)  # an army stands in the province, whatever coast a file names
        unit = self._units[line] = Unit(power, kind, loc)
        return unit

    def orders(self, lines, kind: str) -> dict[str, list]:
        """Each power's orders in the sense of the phase; unreadable orders are no orders."""
        out: dict[str, list] = {}
        known = self._orders.setdefault(kind, {})
        for _, line in lines:
            hit = known.get(line)
            if hit is None:
                power, rest = _power_and_rest(self.board, line)
                try:
                    order = for_phase(parse_order(self.board, rest, self.words, self.verbs), kind)
                except ValueError:
                    order = None
                hit = known[line] = (power, order)
            power, order = hit
            if order is not None:
                mine = out.get(power)
                if mine is None:
                    mine = out[power] = []
                mine.append(order)
        return out


def run_case(case: Case, board: Board | None = None) -> tuple[bool, str]:
    """Adjudicate one case; (passed, what differed)."""
    board = board or load_board("standard")
    return _run_case(case, _Lines(board))


def _run_case(case: Case, read: _Lines) -> tuple[bool, str]:
    if read.variant is not None:
        return _run_variant_case(case, read)
    board = read.board
    sec = case.sections
    kinds, phase = read.kinds, case.kind
    units = read.units(sec.get("PRESTATE", []))
    orders = read.orders(sec.get("ORDERS", []), phase)
    expected_dislodged: set[tuple[str, str, str]] = set()
    if phase == "movement":
        out = adjudicate_movement(board, units, orders, kinds, notes=False, results=False)  # positions are compared
        got, got_dislodged = _seen(out.units), _seen(d.unit for d in out.dislodged)
        expected_dislodged = read.seen(sec.get("POSTSTATE_DISLODGED", ()))
    elif phase == "retreats":
        dislodged = _prestate_dislodged(read, case, units)
        got, got_dislodged = _seen(adjudicate_retreats(board, units, dislodged, orders, kinds).units), set()
    else:
        # without the section, the centres are owned as at the start of a game
        owners = {} if "PRESTATE_SUPPLYCENTER_OWNERS" in sec else {
            p.id: p.home for p in board.provinces.values() if p.home}
        for _, line in sec.get("PRESTATE_SUPPLYCENTER_OWNERS", []):
            power, rest = _power_and_rest(board, line)
            owners[province_of(parse_unit(board, rest, read.words)[1])] = power
        got, got_dislodged = _seen(adjudicate_adjustments(board, units, owners, orders, kinds,
                                                          read.home_centres).units), set()
    expected = _seen(units) if case.same else read.seen(sec.get("POSTSTATE", ()))
    if got == expected and got_dislodged == expected_dislodged:
        return True, ""
    diff = []
    if got != expected:
        diff.append("missing " + _show(board, expected - got) + "; unexpected " + _show(board, got - expected))
    if got_dislodged != expected_dislodged:
        diff.append("dislodged: missing " + _show(board, expected_dislodged - got_dislodged)
                    + "; unexpected " + _show(board, got_dislodged - expected_dislodged))
    return False, " | ".join(diff)


def _owners(board: Board, case: Case) -> dict[str, str]:
    """The case's centre owners; without the section, as at the start of a game."""
    sec = case.sections
    owners = {} if "PRESTATE_SUPPLYCENTER_OWNERS" in sec else {
        p.id: p.home for p in board.provinces.values() if p.home}
    for _, line in sec.get("PRESTATE_SUPPLYCENTER_OWNERS", []):
        power, rest = _power_and_rest(board, line)
        owners[province_of(parse_unit(board, rest, STANDARD_KINDS)[1])] = power
    return owners


def _run_variant_case(case: Case, read: _Lines) -> tuple[bool, str]:
    """A case of a variant's file, through the variant's own phases; several units may stand
    in one province, so positions are compared as lists of units, not sets."""
    from collections import Counter

    from dipgen.core.phase import Phase

    board, variant, sec = read.board, read.variant, case.sections
    units = read.units(sec.get("PRESTATE", []))
    orders = read.orders(sec.get("ORDERS", []), case.kind)
    owners = _owners(board, case)
    year = int(m.group(0)) if (m := re.search(r"\d{4}", case.phase)) else board.start_year
    season = {"movement": 1 if "fall" in case.phase.lower() else 0, "retreats": 1, "adjustments": 2}[case.kind]
    position = Position(Phase(year, season, case.kind == "retreats"), tuple(units), owners)
    got_dislodged: list[Unit] = []
    expected_dislodged: list[Unit] = []
    if case.kind == "movement":
        out = variant.rules.movement(position, orders)
        got, got_dislodged = list(out.units), [d.unit for d in out.dislodged]
        expected_dislodged = read.units(sec.get("POSTSTATE_DISLODGED", []))
    elif case.kind == "retreats":
        position = position.with_(dislodged=tuple(_prestate_dislodged(read, case, units)))
        got = list(variant.rules.retreats(position, orders).units)
    else:
        got = list(variant.rules.adjustments(position, orders).units)
    expected = list(units) if case.same else read.units(sec.get("POSTSTATE", []))
    got_c, exp_c = Counter(_triples(got)), Counter(_triples(expected))
    gd_c, ed_c = Counter(_triples(got_dislodged)), Counter(_triples(expected_dislodged))
    if got_c == exp_c and gd_c == ed_c:
        return True, ""
    diff = []
    if got_c != exp_c:
        diff.append("missing " + _show(board, list((exp_c - got_c).elements())) + "; unexpected "
                    + _show(board, list((got_c - exp_c).elements())))
    if gd_c != ed_c:
        diff.append("dislodged: missing " + _show(board, list((ed_c - gd_c).elements()))
                    + "; unexpected " + _show(board, list((gd_c - ed_c).elements())))
    return False, " | ".join(diff)


def _triples(units) -> list[tuple[str, str, str]]:
    """Units as a case compares them: (power, kind, location)."""
    return [(u.power, u.kind, u.loc) for u in units]


def _seen(units) -> set[tuple[str, str, str]]:
    return {(u.power, u.kind, u.loc) for u in units}


def _show(board: Board, triples) -> str:
    """Units, given as `_triples`, as a file writes them."""
    return ", ".join(f"{power} {kind} {board.format_loc(loc)}" for power, kind, loc in sorted(triples)) or "none"


def _prestate_dislodged(read: _Lines, case: Case, units: list[Unit]) -> list[Dislodged]:
    """Dislodged units with their retreats, from the previous phase's results."""
    board = read.board
    moves = []
    for _, line in case.sections.get("PRESTATE_RESULTS", []):
        m = re.match(r"\s*(SUCCESS|FAILURE)\s*:\s*(.*)$", line, re.IGNORECASE)
        if not m:
            raise DatcFormatError(f"cannot read result {line!r}")
        power, rest = _power_and_rest(board, m.group(2))
        try:
            order = parse_order(board, rest, read.words, read.verbs)
        except ValueError:
            continue
        if isinstance(order, Move):
            moves.append((m.group(1).upper() == "SUCCESS", power, order))
    occupied = {u.province for u in units if read.kinds[u.kind].occupies}
    out = []
    dislodged_units = read.units(case.sections.get("PRESTATE_DISLODGED", []))
    dis_provs = {u.province for u in dislodged_units}
    attackers = {province_of(o.dest): o for ok, _, o in moves if ok}
    # An empty province was stood off when two or more moves into it failed, not counting a
    # unit beaten head-to-head (it makes no standoff where its attacker came from).
    failed_into: dict[str, int] = {}
    for ok, _, o in moves:
        dest = province_of(o.dest)
        if ok or dest in occupied:
            continue
        att = attackers.get(o.unit.province)
        if o.unit.province in dis_provs and att is not None and att.unit.province == dest and not att.via_convoy:
            continue
        failed_into[dest] = failed_into.get(dest, 0) + 1
    standoffs = {p for p, n in failed_into.items() if n >= 2}
    for unit in dislodged_units:
        att = attackers.get(unit.province)
        src = att.unit.province if att else ""
        options = retreat_options(board, read.kinds, unit, src, bool(att and att.via_convoy), occupied, standoffs)
        out.append(Dislodged(unit, src, "", tuple(sorted(options))))
    return out


@dataclass
class Report:
    passed: int = 0
    failed: int = 0
    superseded: int = 0
    lines: list[str] = field(default_factory=list)


def run_file(path: str | Path, report: Report | None = None) -> Report:
    report = report or Report()
    text = Path(path).read_text(encoding="utf-8")
    variant = variant_of(text, str(path))
    from dipgen.rules.variant import Rules

    own = any(getattr(type(variant.rules), hook) is not getattr(Rules, hook) for hook in ("movement", "adjustments"))
    read = _Lines(variant.rules.board, variant.rules.unit_kinds, variant.rules.order_words, variant.rules.home_centres,
                  variant if own else None, variant.rules.verbs)
    for case in iter_cases(text, str(path)):
        try:
            ok, diff = _run_case(case, read)
        except ValueError as e:
            ok, diff = False, f"cannot run: {e}"
        if ok:
            report.passed += 1
            report.lines.append(f"PASS {case.name}")
        elif case.name in SUPERSEDED:
            report.superseded += 1
            report.lines.append(f"SUPERSEDED {case.name}: {SUPERSEDED[case.name]} ({diff})")
        else:
            report.failed += 1
            report.lines.append(f"FAIL {case.name} ({path}:{case.line}): {diff}")
    return report
