"""Orders as value types: parse what GMs and players write, print one canonical form.

``parse_order(board, "a par-bur")`` gives ``Move(UnitRef("A", "par"), "bur")`` and
``order.format(board)`` gives ``"A Par - Bur"``; the two are inverse on canonical text. The
value types are `dipgen.core.ordertypes`', named here too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from dipgen.core.board import Board, UnknownName
from dipgen.core.names import did_you_mean, either
from dipgen.core.orderwords import BUILD as _BUILD, CONVOY as _CONVOY, COASTS as _COASTS, DISBAND as _DISBAND
from dipgen.core.orderwords import DOWNGRADE as _DOWNGRADE, FILLER, HOLD as _HOLD, MOVE as _MOVE
from dipgen.core.orderwords import REMOVE as _REMOVE, RETREAT as _RETREAT, SUPPORT as _SUPPORT
from dipgen.core.orderwords import UPGRADE as _UPGRADE, VERB_NAMES, WAIVE as _WAIVE, meant, tokens as _tokens
from dipgen.core.orderwords import unmarked
from dipgen.core.ordertypes import (ADJUSTMENT_ORDERS as ADJUSTMENT_ORDERS, MOVEMENT_ORDERS as MOVEMENT_ORDERS,
                                   RETREAT_ORDERS as RETREAT_ORDERS, Action as Action, Build as Build,
                                   Concealed as Concealed, Convoy as Convoy, Disband as Disband,
                                   Downgrade as Downgrade, Hold as Hold, Move as Move, Order as Order,
                                   Remove as Remove, Retreat as Retreat, Strike as Strike, Support as Support,
                                   UnitRef as UnitRef, Upgrade as Upgrade, Waive as Waive)

#: Words naming unit kinds, for the standard game. Variants pass their own.
STANDARD_KINDS: Mapping[str, str] = {"a": "A", "army": "A", "f": "F", "fleet": "F"}


class OrderSyntaxError(ValueError):
    """The order's words do not make an order."""

    #: the error's code (`dipgen.core.errors.ERROR_CODES`)
    code = "bad-order"


class UnknownOrderWord(OrderSyntaxError):
    """A word where the order's verb should be that is no order word (``Buidl A Bud``)."""

    code = "unknown-order-word"


class UnknownUnitKind(OrderSyntaxError):
    """The order starts with a unit letter this game does not have (`S Par - Bur` outside Blind)."""

    code = "unknown-unit-kind"

    def __init__(self, message: str, word: str):
        super().__init__(message)
        self.word = word


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



#: the families of verbs a slip may be read as: those before the unit, those after it
_FIRST_FAMILIES = (_BUILD, _REMOVE, _UPGRADE, _DOWNGRADE, _DISBAND, _WAIVE)
_FIRST_WORDS = frozenset().union(*_FIRST_FAMILIES)
_UNIT_FAMILIES = (_HOLD, _MOVE, _SUPPORT, _CONVOY, _RETREAT, _DISBAND, _BUILD, _REMOVE)
#: the verbs that come before the unit ("Build A Par"), each with its order
_FIRST_VERBS = {word: cls for verbs, cls in ((_BUILD, Build), (_REMOVE, Remove), (_DISBAND, Disband),
                                             (_UPGRADE, Upgrade), (_DOWNGRADE, Downgrade)) for word in verbs}
class _Parser:
    """Reads one order word by word. With `guess`, a mistyped word that reads as one word only
    is read as that word, and said in `guesses`; without, it is an error naming the word meant."""

    def __init__(self, board: Board, text: str, kinds: Mapping[str, str], verbs: Sequence[Verb] = (),
                 guess: bool = False):
        self.board, self.text, self.kinds, self.verbs, self.guess = board, text, kinds, verbs, guess
        self.toks = [t for t in _tokens(text) if t not in (",", ":", ";") and t not in FILLER]
        self.i = 0
        self.guesses: list[str] = []
        self.last_loc = 0  # where the last location read began

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

    def take_move(self) -> bool:
        """A move's words, as many as are written: "-", "moves to", "goes into"."""
        if self.take(_MOVE) is None:
            return False
        while self.take(_MOVE):
            pass
        return True

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
        if t == "a" and self.peek(1) in self.kinds and len(self.peek(1) or "") > 1:
            self.i += 1  # "a fleet": the article, then the kind
            t = self.peek()
        if t is not None and t in self.kinds and not (self.peek(1) in (None, "-", "h", "s", "c")
                                                      and self.board.lookup(t)):
            self.i += 1
            return self.kinds[t]
        return None

    def location(self, fuzzy: bool = True) -> str:
        if self.done():
            raise self.fail("a province is missing")
        self.last_loc = self.i
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
        if best is None and fuzzy:
            best = self.mistyped_location()
        if best is None:
            word = self.toks[self.i]
            raise UnknownName(f"unknown province {word!r} in {self.text.strip()!r}."
                              f"{did_you_mean(word, self.board.spellings())}")
        prov, n = best
        self.i += n
        return prov + self.coast(prov)

    def mistyped_location(self) -> tuple[str, int] | None:
        """The province a mistyped name (of up to three words) is nearest to, if one is: read as it
        with `guess`, else an error that names it; an error naming each where two are as near."""
        for n in range(min(3, len(self.toks) - self.i), 0, -1):
            span = self.toks[self.i:self.i + n]
            if not span[0].isalnum() or not span[-1].isalnum() or not all(w.isalnum() or w == "-" for w in span):
                continue
            written = " ".join(w for w in span if w != "-")  # "Mid-Atlantc"
            _, found = self.board.speller.closest(written)
            if not found:
                continue
            names = [self.board.provinces[p].name for p in found]
            if len(found) > 1:
                raise UnknownName(f"unknown province {written!r} in {self.text.strip()!r}: it could be "
                                  f"{either(names)}. Did you mean {either(names)}?")
            if not self.guess:
                raise UnknownName(f"unknown province {written!r} in {self.text.strip()!r}. Did you mean {names[0]}?")
            self.guesses.append(f"{written!r} read as {names[0]}")
            return found[0], n
        return None

    def mistyped_verb(self, families: Sequence[frozenset[str]]) -> frozenset[str] | None:
        """The family of verbs (`orderwords`) the next word is a slip of, or None when it is none;
        with `guess`, the word is taken, else UnknownOrderWord names the verb meant."""
        word = self.peek()
        if word is None or not word.isalpha() or any(word in f for f in families):
            return None
        hits = [f for f in families if meant(word, f)]
        names = [VERB_NAMES.get(f, sorted(f)[-1]).capitalize() for f in hits]
        if len(hits) == 1 and self.guess:
            self.i += 1
            self.guesses.append(f"{word!r} read as {names[0]}")
            return hits[0]
        if hits:
            raise UnknownOrderWord(f"cannot read {self.text.strip()!r}: {word!r} is no order word. "
                                   f"Did you mean {either(names)}?")
        return None

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
        if word is not None and re.fullmatch(r"[nsew]\.?c", word):
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
            self.location(fuzzy=False)
            return True
        except (OrderSyntaxError, UnknownName):
            return False
        finally:
            self.i, self.last_loc = start, 0

    def skip_power(self) -> None:
        if self.peek() == "(" and self.peek(2) == ")" and self._power_in_brackets(self.peek(1) or ""):
            self.i += 3  # "A Pic S (E) F NTH - Bel": the power's name or initial in brackets
            return
        t = self.peek()
        if t is not None and t.endswith(("'s", "’s")) and self.board.power_lookup(t[:-2]) is not None:
            self.i += 1  # "Russia's A War"
            return
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
            if not self.take({"convoy", "c", "sea"}):
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
        first = self.peek()
        if first is not None and first not in self.kinds and self.board.lookup(first) is None \
                and self.board.power_lookup(first) is None:
            family = self.mistyped_verb(_FIRST_FAMILIES)  # "Buidl A Bud": a slip of the verb
            if family is not None:
                self.i -= 1
                self.toks[self.i] = VERB_NAMES[family]
            elif len(first) > 1 and first not in _FIRST_WORDS \
                    and self.location_at(self.i + 1 + (self.peek(1) in self.kinds)):
                raise UnknownOrderWord(f"cannot read {self.text.strip()!r}: {first!r} is neither an order word nor "
                                       "a province; orders look like 'A Par - Bur', 'Build A Par' or 'Waive'")
        if self.toks[self.i:] in (["no", "build"], ["no", "builds"], ["none"]):
            self.i = len(self.toks)  # "No builds": one waived
            return Waive()
        if self.take(_WAIVE):
            self.take({"one", "1", "a"})
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
        return self._after_unit(self.unit())

    def _after_unit(self, unit: UnitRef) -> Order:
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
            self.take_move()
            return self.end(Retreat(unit, self.location()))
        if self.take_move():
            dest = self.location()
            hops = 0
            while self.take_move():  # a convoy path written out: A Lon - NTH - Nwy (no slip guessed in it)
                dest, hops = self.location(fuzzy=False), hops + 1
            via = self.via_convoy() or hops > 0
            return self.end(Move(unit, dest, via))
        if self.take(_SUPPORT):
            target = self.unit()
            if self.done() or self.take(_HOLD):
                return self.end(Support(unit, target))
            if self.take_move():
                if self.take(_HOLD):
                    return self.end(Support(unit, target))
                dest = self.location()
                self.via_convoy()
                return self.end(Support(unit, target, dest))
            raise self.fail("a support needs '- destination' or nothing after the supported unit")
        if self.take(_CONVOY):
            target = self.unit()
            if not self.take_move():
                raise self.fail("a convoy needs the army's move, e.g. 'F NTH C A Lon - Bel'")
            return self.end(Convoy(unit, target, self.location()))
        families = (*_UNIT_FAMILIES, *(v.words for v in self.verbs))
        family = self.mistyped_verb(families)  # "A Par supprot A Mar"
        if family is not None:
            self.i -= 1
            self.toks[self.i] = VERB_NAMES.get(family) or min(w for w in family if " " not in w)
            return self._after_unit(unit)
        raise self.fail(f"did not expect {self.peek()!r} after the unit; orders look like "
                        "'A Par - Bur', 'A Mun S A Bur - Mar', 'F NTH C A Lon - Bel' or 'A Par H'")


    def end(self, order: Order) -> Order:
        self.via_convoy()  # "(via convoy)" is harmless at the end of any order
        if not self.done():
            rest = " ".join(self.toks[self.i:])
            written = " ".join(self.toks[self.last_loc:])
            found = self.board.speller.closest(written)[1] if self.last_loc else []
            names = [self.board.provinces[p].name for p in found]
            if len(found) == 1 and self.guess:  # "F Lon - Nth Sae": the last province and the words after it
                self.guesses.append(f"{written!r} read as {names[0]}")
                self.toks, self.i, self.last_loc = self.toks[:self.last_loc] + found, 0, 0
                return self.order()
            raise self.fail(f"unexpected {rest!r} at the end." + (f" Did you mean {either(names)}?" if names else ""))
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
    own (`verbs`). Raises OrderSyntaxError or UnknownName (both ValueError) with a readable message;
    a mistyped word is an error that names the word meant (`read_order` reads it as that word)."""
    return read_order(board, text, kinds, verbs)[0]


def read_order(board: Board, text: str, kinds: Mapping[str, str] = STANDARD_KINDS, verbs: Sequence[Verb] = (),
               guess: bool = False) -> tuple[Order, tuple[str, ...]]:
    """`parse_order`, and with `guess` a mistyped word read as the one word it is nearest to
    ("Buidl A Bud" is "Build A Bud"; two as near are an error naming both): the order, and what
    was guessed ("'buidl' read as Build"), for the GM to see."""
    if not text or not text.strip():
        raise OrderSyntaxError("empty order")
    text = unmarked(text)  # "1. F Bre - MAO", "- A Par - Bur": an item of a list
    if not text.strip():
        raise OrderSyntaxError("empty order")
    order = _Quick(board, text, kinds).read()
    if order is not None:
        return order, ()
    parser = _Parser(board, text, kinds, verbs, guess)
    return parser.order(), tuple(parser.guesses)


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
