"""Close-match suggestions for names people mistype."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


def suggest(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The few choices closest to `word`, best first (case-insensitive)."""
    import difflib  # here: a name mistyped is rare, and every start reads the board, which imports this module

    by_lower: dict[str, str] = {}
    for choice in choices:
        by_lower.setdefault(choice.lower(), choice)
    hits = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=0.6)
    prefixed = [c for low, c in by_lower.items() if low.startswith(word.lower()) and len(word) >= 2]
    out: list[str] = []
    for c in [by_lower[h] for h in hits] + sorted(prefixed):
        if c not in out:
            out.append(c)
    return out[:n]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' Did you mean X or Y?' or '' when nothing is close."""
    close = suggest(word, choices)
    if not close:
        return ""
    if len(close) == 1:
        return f" Did you mean {close[0]}?"
    return " Did you mean " + ", ".join(close[:-1]) + f" or {close[-1]}?"


def distance(a: str, b: str, limit: int | None = None) -> int:
    """The edit distance between `a` and `b` (optimal string alignment: an insertion, a deletion,
    a change or two neighbours swapped count one each), as typing slips go; with `limit`, any
    distance over it may be given as limit + 1 (the work stops as soon as it is certain)."""
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if limit is not None and min(row) > limit and (not prev or min(prev) > limit):
            return limit + 1  # every later row is at least as far (a swap looks back one row only)
        prev2, prev = prev, row
    return prev[-1]


def slips(word: str) -> int:
    """How many slips a word of this length may carry and still be read as meant: none in a word
    of three letters or fewer (every change of an abbreviation makes another), one up to six
    letters, two from seven."""
    n = len(word.replace(" ", ""))
    return 0 if n <= 3 else 1 if n <= 6 else 2


def closest(word: str, table: Mapping[str, T]) -> tuple[int, list[T]]:
    """The values of `table` (spelling -> meaning) whose spellings are nearest `word` within its
    `slips`, each once, and the distance: (0, []) when none is near enough. More than one value
    means the word reads as either."""
    limit = slips(word)
    best, found = limit + 1, []
    for spelling, value in table.items():
        if abs(len(spelling) - len(word)) > limit:
            continue
        d = distance(word, spelling, limit)
        if d > limit:
            continue
        if d < best:
            best, found = d, [value]
        elif d == best and value not in found:
            found.append(value)
    return (best, found) if found else (0, [])


def either(names: Sequence[str]) -> str:
    """'X', 'X or Y', 'X, Y or Z'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"


def _deletions(word: str, n: int) -> set[str]:
    """`word` and every string made of it by deleting up to `n` characters."""
    out, edge = {word}, {word}
    for _ in range(n):
        edge = {w[:i] + w[i + 1:] for w in edge for i in range(len(w))} - out
        out |= edge
    return out


class Speller(Generic[T]):
    """`closest` over a fixed table, fast: every spelling is indexed under the strings its
    deletions of up to two characters make, and two words within two slips of each other share
    one (each slip, a swap too, is undone by deleting one character on each side). A word is
    then compared only with the spellings it shares one with, so a line of garbage costs a few
    lookups, not a comparison with every name on the board."""

    def __init__(self, table: Mapping[str, T]):
        self.table = dict(table)
        self.index: dict[str, set[str]] = {}
        for spelling in self.table:
            for key in _deletions(spelling, 2):
                self.index.setdefault(key, set()).add(spelling)

    def closest(self, word: str) -> tuple[int, list[T]]:
        limit = slips(word)
        if limit == 0:
            return (0, [self.table[word]]) if word in self.table else (0, [])
        near = {s for key in _deletions(word, limit) for s in self.index.get(key, ())}
        return closest(word, {s: self.table[s] for s in sorted(near)})
