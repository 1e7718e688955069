"""The orders in a player's message: its lines read one by one with the one order reader
(`dipgen.core.orders.read_order`, slips guessed), under the power each is for (a heading such
as ``France:``, ``Orders for France`` or ``FRANCE``, a power written before the order, the
writer's one power, or the power whose unit the order names), in the canonical notation and,
where the position leaves one reading, with the unit's letter and coast it stands on.

Quoted mail (``>`` lines, an "On ... wrote:" line, an "Original Message" block), the signature
after ``--``, press (from a ``Press`` heading to ``Endpress`` or the next heading) and lines of
plain talk are not orders. A line that looks like an order (a unit letter, an order word or a
province in it) but cannot be read is `Unread`, with the reader's best guess and why: never
dropped without a word."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from dipgen.core.board import province_of
from dipgen.core.orders import Build, Disband, Order, Retreat, UnitRef, for_phase, ordered_unit, read_order
from dipgen.core.orderwords import BUILD, CONVOY, DISBAND, HOLD, MOVE, REMOVE, RETREAT, SUPPORT, WAIVE, meant
from dipgen.core.orderwords import tokens, unmarked
from dipgen.core.phase import Phase
from dipgen.core.position import Position
from dipgen.io.messages import Message
from dipgen.variants import Variant

_ORDER_WORDS = (BUILD | CONVOY | DISBAND | HOLD | REMOVE | RETREAT | SUPPORT | WAIVE | MOVE) - {"to", "go", "m"}
#: the head of quoted mail: "On ... wrote:", Outlook's "Original Message" and its rule (a forwarded
#: message is not quoted: a GM may forward a player's orders to herself)
_QUOTE_HEAD = re.compile(r"^\s*(on\b.*\bwrote:|.*\bwrote:$|-{2,}\s*original message\s*-{2,}|_{10,})\s*$",
                         re.IGNORECASE)
_PRESS = re.compile(r"^\s*(press|broadcast|press to [\w ,]+|diplomacy|message to [\w ,]+)\s*:?\s*$", re.IGNORECASE)
_END_PRESS = re.compile(r"^\s*(end\s*press|endpress|end of press)\s*\.?\s*$", re.IGNORECASE)
_HEADING = re.compile(r"^\s*(?:(?:my\s+|the\s+)?orders?\s+(?:for|of)\s+)?(?P<name>[\w' .-]+?)(?:'s)?"
                      r"(?:\s+orders?)?\s*(?:\((?P<more>[^)]*)\))?\s*:?\s*$", re.IGNORECASE)
_POINTS = re.compile(r"^\s*(?:dp\s*:?\s*)?(?P<list>[a-z]+\s*[-/]\s*[a-z]+\s*:?\s*[+-]\s*\d(?:\s*[,;]\s*[a-z]+\s*[-/]\s*"
                     r"[a-z]+\s*:?\s*[+-]\s*\d)*)\s*$", re.IGNORECASE)


#: the most lines that look like orders a message may have: the board holds 34 units, a message
#: for two powers under headings some 40 lines; more is a file saved by mistake, not read
MAX_ORDER_LINES = 300


@dataclass(frozen=True)
class ReadLine:
    """An order understood: its line in the message, as written, in canonical notation, and the
    slips read as the word meant ("'buidl' read as Build")."""

    line: int
    text: str
    canonical: str
    guesses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unread:
    """A line that looks like an order but was not read: where, as written, the best guess, why,
    and its code (one of `dipgen.core.errors.ERROR_CODES`, printed after it)."""

    source: str
    line: int
    text: str
    guess: str
    why: str
    code: str


@dataclass(frozen=True)
class Whose:
    """Whose message it is, as far as the command knows: the seat whose player wrote it (from
    the From: address or --player), its writer as the phase file names writers, the powers it
    may order, and the power to file lines under that have no heading (--power)."""

    seat: str | None = None
    writer: str | None = None
    powers: tuple[str, ...] = ()
    power: str | None = None


@dataclass
class Reading:
    """What one message says: orders per (power, writer), diplomacy points per writer, unread lines."""

    message: Message
    orders: dict[tuple[str, str], list[ReadLine]] = field(default_factory=dict)
    #: why the message was not read at all ('' when it was)
    refused: str = ""
    points: dict[str, dict[str, int]] = field(default_factory=dict)
    unread: list[Unread] = field(default_factory=list)


def read_message(message: Message, variant: Variant, phase: Phase, position: Position, whose: Whose) -> Reading:
    """The orders of `message` for `phase` of a game of `variant` standing at `position`."""
    reading = Reading(message)
    board = variant.rules.board
    power = whose.power
    unsaid: list[tuple[int, str, Order, tuple[str, ...], str | None]] = []  # lines under no heading
    seen = 0
    for number, line in _order_lines(message.text, lambda line: _heading(line, variant) is not None):
        heading = _heading(line, variant)
        if heading is not None:
            power = heading
            continue
        text, inline = _inline_power(line, variant)
        if _points(text, variant, whose, reading, number):
            continue
        if not _looks_like_order(text, variant):
            continue  # a greeting, a signature, talk
        seen += 1
        if seen > MAX_ORDER_LINES:
            reading.refused = (f"more than {MAX_ORDER_LINES} lines look like orders; a message with an order "
                               "for every unit on the board has fewer than a hundred")
            return reading
        try:
            order, guesses = read_order(board, text, variant.rules.order_words, variant.rules.verbs, guess=True)
        except ValueError as e:
            reading.unread.append(Unread(message.source, number, line.strip(), _guess(str(e)), str(e),
                                         code="bad-order"))
            continue
        order = for_phase(order, phase.kind)
        said = inline or power
        if said is None:
            unsaid.append((number, line, order, guesses, _owner(order, position, whose)))
            continue
        _file(reading, variant, position, whose, said, number, line, order, guesses)
    owners = {owner for *_, owner in unsaid}
    for number, line, order, guesses, owner in unsaid:  # units of one power only: hers
        if owner is None or len(owners) > 1:
            reading.unread.append(Unread(message.source, number, line.strip(), order.format(board),
                                         "whose order is it? Write the power as a heading (France:) above its "
                                         "orders, or give --power", code="bad-orders"))
            continue
        _file(reading, variant, position, whose, owner, number, line, order, guesses)
    return reading


def _file(reading: Reading, variant: Variant, position: Position, whose: Whose, power: str, number: int,
          line: str, order: Order, guesses: tuple[str, ...]) -> None:
    """An order read, under its power and writer (or unread, when the writer is not known)."""
    board = variant.rules.board
    if whose.seat is not None and whose.powers and power not in whose.powers and power != whose.power:
        reading.unread.append(Unread(reading.message.source, number, line.strip(), order.format(board),
                                     f"the message is {whose.seat}'s, who does not play {power}: check who sent it",
                                     code="not-her-power"))
        return
    writer = power if variant.files.order_form == "power" else whose.writer
    if writer is None:
        reading.unread.append(Unread(reading.message.source, number, line.strip(), order.format(board),
                                     "who wrote it? Give --player, or keep the players' addresses in secrets.yml",
                                     code="unknown-writer"))
        return
    order = _placed(order, position, power, variant)
    reading.orders.setdefault((power, writer), []).append(ReadLine(number, line.strip(), order.format(board),
                                                                   guesses))


def _order_lines(text: str, is_heading: Callable[[str], bool]):
    """(line number, line) of the lines that may hold orders: not quoted, not the signature, not
    press (which runs to an Endpress line or the next heading of a power)."""
    press = False
    for number, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        line = raw.strip()
        if line in ("--", "-- ") or raw.rstrip("\n") == "-- " or _QUOTE_HEAD.match(line) and not line.startswith(">"):
            if line.lower().endswith("wrote:"):
                continue  # what follows is quoted with '>', or is the reply
            return  # a signature, or quoted mail to the end
        if not line or line.startswith(">") or line.startswith("|"):
            continue
        if _END_PRESS.match(line):
            press = False
            continue
        if _PRESS.match(line):
            press = True
            continue
        if press and not is_heading(line):
            continue
        press = False
        for part in line.split(";"):
            if part.strip():
                yield number, part


def _heading(line: str, variant: Variant) -> str | None:
    """The power a heading line names ("France:", "Orders for France", "FRANCE", "France's orders")."""
    m = _HEADING.match(line)
    if m is None:
        return None
    name = m.group("name").strip(" .")
    if m.group("more") and name.lower() in ("orders", "order", "my orders"):
        name = m.group("more").strip()  # "Orders (France):"
    power = variant.rules.board.power_lookup(name)
    if power is None or variant.rules.board.lookup(name) is not None and not line.rstrip().endswith(":") \
            and "order" not in line.lower():
        return None  # "Rom" alone is Rome's army holding, not a heading
    return power


def _inline_power(line: str, variant: Variant) -> tuple[str, str | None]:
    """'France: A Par - Bur' -> ('A Par - Bur', 'France')."""
    head, sep, rest = line.partition(":")
    if sep and rest.strip():
        power = variant.rules.board.power_lookup(head.strip())
        if power is not None:
            return rest, power
    return line, None


def _points(text: str, variant: Variant, whose: Whose, reading: Reading, number: int) -> bool:
    """Diplomacy points ("France-Germany +2, England-Italy -1"), where the variant's phase files
    take them (``dp:``): kept under the writer, checked when the file is."""
    if "dp" not in variant.files.phase_keys:
        return False
    m = _POINTS.match(text)
    if m is None:
        return False
    if whose.writer is None:
        reading.unread.append(Unread(reading.message.source, number, text.strip(), text.strip(),
                                     "whose points are these? Give --player", code="unknown-writer"))
        return True
    board = variant.rules.board
    mine = reading.points.setdefault(whose.writer, {})
    for item in re.split(r"[,;]", m.group("list")):
        found = re.match(r"\s*(.+?)\s*:?\s*([+-]\s*\d)\s*$", item)
        if found is None:
            continue
        pair, n = found.groups()
        a, b = (board.power_lookup(p.strip()) or p.strip() for p in re.split(r"[-/]", pair))
        mine[f"{a}-{b}"] = int(n.replace(" ", ""))
    return True


def _looks_like_order(text: str, variant: Variant) -> bool:
    """Does a line that could not be read look like an order (rather than a greeting)? A unit's
    letter or an order word first, or an order word and a province anywhere."""
    words = [t for t in tokens(unmarked(text)) if t not in (",", ":", ";", "(", ")")]
    if not words:
        return False
    board, kinds = variant.rules.board, variant.rules.order_words
    verb_words = _ORDER_WORDS | {w for v in variant.rules.verbs for w in v.words}
    first = words[0]
    if not first[:1].isalnum():
        return False  # a rule of dashes, a quote
    if first in kinds or first in verb_words or first[:1].isdigit() or board.lookup(first) or meant(first, verb_words):
        return True
    if len(words) > 2 and words[1] in kinds and board.lookup(words[2]):
        return True  # "Xyzzy A Bre": a word, then a unit
    places = any(board.lookup(w) for w in words if len(w) > 2)
    return places and any(w in verb_words or w == "to" for w in words)


def _guess(why: str) -> str:
    m = re.search(r"Did you mean (.+)\?", why)
    return m.group(1) if m else ""


def _owner(order: Order, position: Position, whose: Whose) -> str | None:
    """The power an order is for when nothing says: the writer's one power, or the one of her
    powers (of any, when the writer is not known) whose unit stands where the order names one."""
    if len(whose.powers) == 1:
        return whose.powers[0]
    unit = ordered_unit(order)
    if unit is None:
        return None
    if isinstance(order, Build):  # a build is in a centre the power owns
        home = position.owners.get(province_of(unit.loc))
        return home if not whose.powers or home in whose.powers else None
    there = {u.power for u in _units(order, position, province_of(unit.loc))
             if not whose.powers or u.power in whose.powers}
    return there.pop() if len(there) == 1 else None


def _units(order: Order, position: Position, prov: str):
    """The units an order may name in `prov`: the dislodged ones for a retreat or a disband, else those standing."""
    if isinstance(order, (Retreat, Disband)):
        return [d.unit for d in position.dislodged if d.unit.province == prov]
    return position.units_at(prov)


def _placed(order: Order, position: Position, power: str, variant: Variant) -> Order:
    """The order with its unit's letter and coast where the position leaves one reading
    ("Par - Bur" with France's army in Paris is "A Par - Bur"; "F Spa - MAO" is "F Spa/sc - MAO")."""
    unit = ordered_unit(order)
    if unit is None or not hasattr(order, "unit"):
        return order
    kinds = variant.rules.unit_kinds
    mine = [u for u in _units(order, position, province_of(unit.loc)) if u.power == power
            and (unit.kind is None and kinds[u.kind].occupies or u.kind == unit.kind)]
    if len(mine) != 1 or "/" in unit.loc and mine[0].loc != unit.loc:
        return order
    placed = UnitRef(mine[0].kind, mine[0].loc)
    order = order if placed == unit else dataclasses.replace(order, unit=placed)  # type: ignore[arg-type]
    target = getattr(order, "target", None)
    if isinstance(target, UnitRef) and target.kind is None:  # "A Mar S Par - Bur": the unit in Paris
        there = [u for u in position.units_at(province_of(target.loc)) if kinds[u.kind].occupies]
        if len(there) == 1:
            order = dataclasses.replace(order, target=UnitRef(there[0].kind, target.loc))  # type: ignore[arg-type]
    return order
