"""Close-match suggestions for names people mistype."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The few choices closest to `word`, best first (case-insensitive)."""
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
