"""Orders as value types: parse what GMs and players write, print one canonical form.

``parse_order(board, "a par-bur")`` gives ``Move(UnitRef("A", "par"), "bur")`` and
``order.format(board)`` gives ``"A Par - Bur"``; the two are inverse on canonical text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from dipgen.core.board import Board, UnknownName, province_of
from dipgen.core.names import did_you_mean

#: Words naming unit kinds, for the standard game. Variants pass their own.
STANDARD_KINDS: Mapping[str, str] = {"a": "A", "army": "A", "f": "F", "fleet": "F"}


class OrderSyntaxError(ValueError):
    """The order's words do not make an order."""


class UnknownUnitKind(OrderSyntaxError):
    """The order starts with a unit letter this game does not have (`S Par - Bur` outside Blind)."""

    def __init__(self, message: str, word: str):
        super().__init__(message)
        self.word = word


@dataclass(frozen=True)
class UnitRef:
    """A unit as an order names it: its kind (None when the writer left it out) and location."""

    kind: str | None
    loc: str

    def format(self, board: Board) -> str:
        loc = board.format_loc(self.loc)
        return f"{self.kind} {loc}" if self.kind else loc

    @cached_property
    def province(self) -> str:  # read for every order adjudicated: worked out once per reference
        return province_of(self.loc)


@dataclass(frozen=True)
class Hold:
    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} H"


@dataclass(frozen=True)
class Move:
    unit: UnitRef
    dest: str
    via_convoy: bool = False

    def format(self, board: Board) -> str:
        via = " via convoy" if self.via_convoy else ""
        return f"{self.unit.format(board)} - {board.format_loc(self.dest)}{via}"


@dataclass(frozen=True)
class Support:
    """Support to hold (``dest`` None) or to move to ``dest``."""

    unit: UnitRef
    target: UnitRef
    dest: str | None = None

    def format(self, board: Board) -> str:
        s = f"{self.unit.format(board)} S {self.target.format(board)}"
        return s + (f" - {board.format_loc(self.dest)}" if self.dest else "")


@dataclass(frozen=True)
class Convoy:
    unit: UnitRef
    target: UnitRef
    dest: str

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} C {self.target.format(board)} - {board.format_loc(self.dest)}"


@dataclass(frozen=True)
class Retreat:
    unit: UnitRef
    dest: str

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} R {board.format_loc(self.dest)}"


@dataclass(frozen=True)
class Disband:
    """A dislodged unit disbands instead of retreating."""

    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} disband"


@dataclass(frozen=True)
class Build:
    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"Build {self.unit.format(board)}"


@dataclass(frozen=True)
class Remove:
    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"Remove {self.unit.format(board)}"


@dataclass(frozen=True)
class _Change:
    """A unit on an owned home centre changes kind where it stands (``Upgrade A Par``)."""

    unit: UnitRef
    VERB = ""

    def format(self, board: Board) -> str:
        return f"{self.VERB} {self.unit.format(board)}"


class Upgrade(_Change):
    """Becomes the stronger kind, for a build (Armor: the army becomes a tank)."""

    VERB = "Upgrade"


class Downgrade(_Change):
    """Becomes the weaker kind, for a removal (Armor: the tank becomes an army)."""

    VERB = "Downgrade"


@dataclass(frozen=True)
class Waive:
    def format(self, board: Board) -> str:
        return "Waive"


@dataclass(frozen=True)
class Strike:
    """An order by which a unit strikes a location from where it stands, without moving: a
    variant's (Complicated's bombing, ``B Mun bomb Par``), each with the word it is written
    with (`VERB`). The maps draw it as a run to its target."""

    unit: UnitRef
    target: str
    VERB = ""

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} {self.VERB} {board.format_loc(self.target)}"


@dataclass(frozen=True)
class Action:
    """An order by which a unit does a thing of its variant's own where it stands, aiming at
    nothing (Blind's counter-espionage, ``S Par CE``), written with the word `VERB`."""

    unit: UnitRef
    VERB = ""

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} {self.VERB}"


@dataclass(frozen=True)
class Verb:
    """An order kind a variant adds to the grammar, written after its unit (``S Par CE``, ``B Mun
    bomb Par``): the words people write for it (a phrase of several words too: ``counter
    espionage``), and its order type, made of the unit and, when it `aims`, of the location
    written after the verb. A variant's rules list theirs (`Rules.verbs`); `parse_order` reads them."""

    words: frozenset[str]
    order: Callable[..., Order]
    aims: bool = False

    @cached_property
    def phrases(self) -> tuple[tuple[str, ...], ...]:
        """Each of `words` as the tokens the parser reads, the longest first."""
        return tuple(sorted({tuple(_tokens(w)) for w in self.words}, key=len, reverse=True))


@dataclass(frozen=True)
class Concealed:
    """What a hidden game's report shows of an order whose object is secret:
    ``A Pic S`` (it supported something), ``F ENG C`` (it convoyed something).
    Views make these; nobody writes them."""

    unit: UnitRef
    verb: str  # "S" or "C"

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} {self.verb}"


#: the orders of the grammar's own; a variant adds kinds of its own (`Verb`), each a `Strike` or an `Action`
Order = (Hold | Move | Support | Convoy | Retreat | Disband | Build | Remove | Upgrade | Downgrade | Waive | Strike
         | Action | Concealed)
MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Upgrade, Downgrade, Waive)

_HOLD = {"h", "hold", "holds", "stand", "stands"}
_MOVE = {"-", "to", "m", "move", "moves", "->"}
_RETREAT = {"r", "retreat", "retreats"}
_SUPPORT = {"s", "sup", "supp", "support", "supports"}
_CONVOY = {"c", "convoy", "convoys", "conv"}
_DISBAND = {"d", "disband", "disbands"}
_REMOVE = {"remove", "removes", "rem"}
_BUILD = {"b", "build", "builds"}
_UPGRADE = {"upgrade", "upgrades"}
_DOWNGRADE = {"downgrade", "downgrades"}
_WAIVE = {"waive", "waives", "waived"}
_COASTS = {"nc": "nc", "sc": "sc", "ec": "ec", "wc": "wc", "n": "nc", "s": "sc", "e": "ec", "w": "wc",
           "north": "nc", "south": "sc", "east": "ec", "west": "wc"}

#: the verbs that come before the unit ("Build A Par"), each with its order
_FIRST_VERBS = {word: cls for verbs, cls in ((_BUILD, Build), (_REMOVE, Remove), (_DISBAND, Disband),
                                             (_UPGRADE, Upgrade), (_DOWNGRADE, Downgrade)) for word in verbs}
_TOKEN = re.compile(r"->|[-/(),:]|[^\s\-/(),:]+")


def _tokens(text: str) -> list[str]:
    text = text.strip().rstrip(".").replace("–", "-").replace("—", "-").replace("→", "->").replace("=>", "->")
    return [t.lower().rstrip(".") if t not in ("->",) else "-" for t in _TOKEN.findall(text)]


class _Parser:
    def __init__(self, board: Board, text: str, kinds: Mapping[str, str], verbs: Sequence[Verb] = ()):
        self.board, self.text, self.kinds, self.verbs = board, text, kinds, verbs
        self.toks = [t for t in _tokens(text) if t not in (",", ":")]
        self.i = 0

    # --- token helpers
    def peek(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self, words: Collection[str]) -> str | None:
        t = self.peek()
        if t is not None and t in words:
            self.i += 1
            return t
        return None

    def take_phrase(self, phrases: tuple[tuple[str, ...], ...]) -> bool:
        """Reads the first of `phrases` (each a run of tokens) that the order goes on with."""
        for phrase in phrases:
            if tuple(self.toks[self.i:self.i + len(phrase)]) == phrase:
                self.i += len(phrase)
                return True
        return False

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def fail(self, what: str) -> OrderSyntaxError:
        return OrderSyntaxError(f"cannot read {self.text.strip()!r}: {what}")

    # --- pieces
    def kind(self) -> str | None:
        t = self.peek()
        if t is not None and t in self.kinds and not (self.peek(1) in (None, "-", "h", "s", "c")
                                                      and self.board.lookup(t)):
            self.i += 1
            return self.kinds[t]
        return None

    def location(self) -> str:
        if self.done():
            raise self.fail("a province is missing")
        best = None
        for n in range(min(5, len(self.toks) - self.i), 0, -1):
            span = self.toks[self.i:self.i + n]
            if span[0] in "-/()" or span[-1] in "-/()":
                continue
            key = " ".join(span)
            prov = self.board.lookup(key) if not key.replace(" ", "").isalnum() else self.board.lookup_folded(key)
            if prov:
                best = (prov, n)
                break
        if best is None:
            word = self.toks[self.i]
            raise UnknownName(f"unknown province {word!r} in {self.text.strip()!r}."
                              f"{did_you_mean(word, self.board.spellings())}")
        prov, n = best
        self.i += n
        return prov + self.coast(prov)

    def coast(self, prov: str) -> str:
        start = self.i
        paren = self.take({"("}) is not None
        slash = not paren and self.take({"/"}) is not None
        word = self.peek()
        if word is not None and word in _COASTS and (paren or slash or len(word) == 2 or self.peek(1) == "coast"):
            self.i += 1
            self.take({"coast"})
            if paren:
                self.take({")"})
            return "/" + _COASTS[word]
        if word is not None and re.fullmatch(r"[nsew]c", word.replace(".", "")) and (paren or slash):
            self.i += 1
            if paren:
                self.take({")"})
            return "/" + word.replace(".", "")
        self.i = start
        return ""

    def unit(self) -> UnitRef:
        kind = self.kind()
        self.skip_power()
        if kind is None:
            kind = self.kind()
        if kind is None and not self.location_at(self.i) and self.location_at(self.i + 1):
            word = self.toks[self.i]  # (there is a province after it)
            *others, last = sorted(set(self.kinds.values()))
            units = f"{', '.join(others)} and {last}" if others else last
            raise UnknownUnitKind(f"cannot read {self.text.strip()!r}: {word.upper()!r} is not a unit of this game "
                                  f"(its units are {units})", word)
        return UnitRef(kind, self.location())

    def location_at(self, i: int) -> bool:
        """Whether a province name starts at token `i`."""
        start, self.i = self.i, i
        try:
            self.location()
            return True
        except (OrderSyntaxError, UnknownName):
            return False
        finally:
            self.i = start

    def skip_power(self) -> None:
        if self.peek() == "(" and self.peek(2) == ")" and self._power_in_brackets(self.peek(1) or ""):
            self.i += 3  # "A Pic S (E) F NTH - Bel": the power's name or initial in brackets
            return
        t = self.peek()
        if t is None or self.board.power_lookup(t) is None:
            return
        if self.board.lookup(t) is None:  # "Rom" is Rome, not a power
            self.i += 1
            self.take({"'s"})

    def _power_in_brackets(self, word: str) -> bool:
        initials = [p for p in self.board.powers if p[:1].lower() == word]
        return self.board.power_lookup(word) is not None or len(word) == 1 and len(initials) == 1

    def via_convoy(self) -> bool:
        if self.take({"via", "by"}):
            if not self.take({"convoy", "c"}):
                raise self.fail("expected 'convoy' after 'via'")
            return True
        if self.peek() == "(" and self.peek(1) in ("via", "by"):
            self.i += 1
            self.via_convoy()
            self.take({")"})
            return True
        return self.take({"vc"}) is not None

    # --- the grammar
    def order(self) -> Order:
        if self.take(_WAIVE):
            self.take(_BUILD)
            return self.end(Waive())
        if self.peek() in _BUILD and self.peek() in self.kinds and len(self.toks) > 2:
            # a letter read by position: "B Mun - Ber" is a bomber's move, "B Mun" a build
            start = self.i
            try:
                return self._unit_order()
            except ValueError:
                self.i = start
        if self.take(_BUILD):
            return self.end(Build(self.unit()))
        if self.take(_REMOVE):
            return self.end(Remove(self.unit()))
        if self.take(_UPGRADE):
            return self.end(Upgrade(self.unit()))
        if self.take(_DOWNGRADE):
            return self.end(Downgrade(self.unit()))
        if self.peek() in _DISBAND and self.peek(1) is not None:
            self.i += 1
            return self.end(Disband(self.unit()))
        return self._unit_order()

    def _unit_order(self) -> Order:
        """An order that starts with its unit: ``A Par - Bur``, ``F Tri S A Ven``, ``B Mun H``."""
        unit = self.unit()
        if self.done() or self.take(_HOLD):
            return self.end(Hold(unit))
        if self.take(_BUILD):
            return self.end(Build(unit))
        if self.take(_REMOVE):
            return self.end(Remove(unit))
        if self.take(_DISBAND):
            return self.end(Disband(unit))
        for verb in self.verbs:  # the variant's own
            if self.take_phrase(verb.phrases):
                return self.end(verb.order(unit, self.location()) if verb.aims else verb.order(unit))
        if self.take(_RETREAT):
            self.take({"-"})
            return self.end(Retreat(unit, self.location()))
        if self.take(_MOVE):
            dest = self.location()
            hops = 0
            while self.take(_MOVE):  # a convoy path written out: A Lon - NTH - Nwy
                dest, hops = self.location(), hops + 1
            via = self.via_convoy() or hops > 0
            return self.end(Move(unit, dest, via))
        if self.take(_SUPPORT):
            target = self.unit()
            if self.done() or self.take(_HOLD):
                return self.end(Support(unit, target))
            if self.take(_MOVE):
                if self.take(_HOLD):
                    return self.end(Support(unit, target))
                dest = self.location()
                self.via_convoy()
                return self.end(Support(unit, target, dest))
            raise self.fail("a support needs '- destination' or nothing after the supported unit")
        if self.take(_CONVOY):
            target = self.unit()
            if not self.take(_MOVE):
                raise self.fail("a convoy needs the army's move, e.g. 'F NTH C A Lon - Bel'")
            return self.end(Convoy(unit, target, self.location()))
        raise self.fail(f"did not expect {self.peek()!r} after the unit; orders look like "
                        "'A Par - Bur', 'A Mun S A Bur - Mar', 'F NTH C A Lon - Bel' or 'A Par H'")


    def end(self, order: Order) -> Order:
        self.via_convoy()  # "(via convoy)" is harmless at the end of any order
        if not self.done():
            raise self.fail(f"unexpected {' '.join(self.toks[self.i:])!r} at the end")
        return order


#: UnitRefs of the quick reading, made once each: they are values, and most orders name a unit
#: that other orders named before (one per unit kind and location of the boards in use)
_UNIT_REFS: dict[tuple[str, str], UnitRef] = {}


class _Quick:
    """Orders written the way reports print them, read word by word: ``A Par - Bur``,
    ``F NTH C A Lon - Bel``, ``A Mun S A Bur``, ``F Spa/sc - LYO``, ``A Lon - Bel via convoy``,
    ``Build A Par``, in any case. Every word must be a unit word of `kinds`, a verb, or a
    location the board reads as one word (`Board._word_locations`); then `_Parser` would read
    the same order, and `read` gives it without trying every span of words. Anything else
    (None) goes to `_Parser`, which also gives the errors."""

    __slots__ = ("board", "kinds", "words", "locs")

    def __init__(self, board: Board, text: str, kinds: Mapping[str, str]):
        self.board, self.kinds, self.words = board, kinds, text.lower().split()
        self.locs = board._word_locations

    def unit(self, i: int) -> UnitRef | None:
        """Words i and i+1 as a unit with its kind, if `_Parser.unit` reads them so."""
        words = self.words
        if i + 1 >= len(words):
            return None
        word, loc = words[i], self.locs.get(words[i + 1])
        kind = self.kinds.get(word)
        # a unit word that is also a province's name may be read as the province: leave it
        if kind is None or loc is None or not (word.isascii() and word.isalnum()) or self.board.lookup_folded(word):
            return None
        ref = _UNIT_REFS.get((kind, loc))
        if ref is None:
            ref = _UNIT_REFS[(kind, loc)] = UnitRef(kind, loc)
        return ref

    def read(self) -> Order | None:
        words, locs = self.words, self.locs
        n = len(words)
        if "coast" in words:  # "F Spa s coast": a coast word, not a verb
            return None
        first = words[0] if words else ""
        if first in _WAIVE:
            return Waive() if n == 1 else None
        cls = _FIRST_VERBS.get(first)
        if cls is not None:
            unit = self.unit(1) if n == 3 else None
            return None if unit is None else cls(unit)
        unit = self.unit(0)
        if unit is None:
            return None
        if n == 2:
            return Hold(unit)
        verb = words[2]
        if n == 3:
            if verb in _HOLD:
                return Hold(unit)
            return Disband(unit) if verb in _DISBAND else None
        if verb in _MOVE:
            dest = locs.get(words[3])
            if dest is None:
                return None
            if n == 4:
                return Move(unit, dest)
            return Move(unit, dest, True) if n == 6 and words[4] == "via" and words[5] == "convoy" else None
        if verb in _RETREAT:
            dest = locs.get(words[3]) if n == 4 else locs.get(words[4]) if n == 5 and words[3] == "-" else None
            return None if dest is None else Retreat(unit, dest)
        if verb in _SUPPORT or verb in _CONVOY:
            target = self.unit(3)
            if target is None:
                return None
            support = verb in _SUPPORT
            if support and (n == 5 or n == 6 and words[5] in _HOLD):
                return Support(unit, target)
            if n != 7 or words[5] not in _MOVE:
                return None
            if support and words[6] in _HOLD:
                return Support(unit, target)
            dest = locs.get(words[6])
            if dest is None:
                return None
            return Support(unit, target, dest) if support else Convoy(unit, target, dest)
        return None


def parse_order(board: Board, text: str, kinds: Mapping[str, str] = STANDARD_KINDS,
                verbs: Sequence[Verb] = ()) -> Order:
    """Parse one order, in the words of a variant's unit kinds (`kinds`) and order kinds of its
    own (`verbs`). Raises OrderSyntaxError or UnknownName (both ValueError) with a readable message."""
    if not text or not text.strip():
        raise OrderSyntaxError("empty order")
    order = _Quick(board, text, kinds).read()
    return order if order is not None else _Parser(board, text, kinds, verbs).order()


def parse_unit(board: Board, text: str, kinds: Mapping[str, str] = STANDARD_KINDS) -> tuple[str, str]:
    """Parse ``"F StP/sc"`` into ``("F", "stp/sc")``; the kind is required."""
    quick = _Quick(board, text, kinds)
    ref = quick.unit(0) if len(quick.words) == 2 else None  # (a quick reading always has its kind)
    if ref is None:
        p = _Parser(board, text, kinds)
        ref = p.unit()
        if not p.done():
            ref = None
    if ref is None or ref.kind is None:
        raise OrderSyntaxError(f"cannot read {text.strip()!r} as a unit like 'A Par' or 'F StP/sc'")
    return ref.kind, ref.loc


def for_phase(order: Order, kind: str) -> Order:
    """Read an order in the sense of the phase: ``A Pic - Bur`` retreats in a retreat phase,
    ``Disband F Tri`` is a removal in an adjustment phase, and so on."""
    if kind == "retreats":
        if isinstance(order, Move):
            return Retreat(order.unit, order.dest)
        if isinstance(order, Remove):
            return Disband(order.unit)
    if kind == "adjustments" and isinstance(order, Disband):
        return Remove(order.unit)
    return order  # a retreat written in a movement phase stays one: an error, not a move


def ordered_unit(order: Order) -> UnitRef | None:
    return getattr(order, "unit", None)
