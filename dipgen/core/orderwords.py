"""The words of orders: the verbs in the forms people write them, the words of plain English that
carry no meaning in an order ("the fleet in the North Sea"), list markers, and the reading of
a mistyped word as the word meant. `dipgen.core.orders` reads orders with them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from dipgen.core.names import closest

HOLD = frozenset({"h", "hold", "holds", "stand", "stands", "holding", "stay", "stays", "remain", "remains"})
MOVE = frozenset({"-", "to", "m", "move", "moves", "->", "moving", "go", "goes", "attack", "attacks", "into",
                  "advance", "advances", "march", "marches", "sail", "sails", "enter", "enters", "towards"})
RETREAT = frozenset({"r", "retreat", "retreats", "retreating"})
SUPPORT = frozenset({"s", "sup", "supp", "support", "supports", "supporting", "spt"})
CONVOY = frozenset({"c", "convoy", "convoys", "conv", "convoying", "cvy", "ferry", "ferries", "transports"})
DISBAND = frozenset({"d", "disband", "disbands"})
REMOVE = frozenset({"remove", "removes", "rem", "removal"})
BUILD = frozenset({"b", "build", "builds", "bld"})
UPGRADE = frozenset({"upgrade", "upgrades"})
DOWNGRADE = frozenset({"downgrade", "downgrades"})
WAIVE = frozenset({"waive", "waives", "waived"})
COASTS = {"nc": "nc", "sc": "sc", "ec": "ec", "wc": "wc", "n": "nc", "s": "sc", "e": "ec", "w": "wc",
          "north": "nc", "south": "sc", "east": "ec", "west": "wc"}

#: words of plain English an order can do without: "the fleet in the North Sea", "an army at Brest"
FILLER = frozenset({"the", "in", "at", "an", "from", "my", "our", "unit", "will", "shall", "should", "is", "please",
                    "currently", "located", "place", "then", "which", "that", "i", "we", "order", "orders"})

#: "1.", "2)", "(3)", "4:", "-", "*", "•" before an order in a list
_MARKER = re.compile(r"^\s*(?:\(?\d{1,3}\s*[.):]?|[-*+•·‣▪◦>]+(?=\s)|[a-z]\))\s*", re.IGNORECASE)
_TOKEN = re.compile(r"->|[-/(),:;]|[^\s\-/(),:;]+")


def unmarked(text: str) -> str:
    """The order without the list marker before it: "1. F Bre - MAO" -> "F Bre - MAO"."""
    if text[:1].isalpha() and text[1:2] != ")":  # "F Bre - MAO": no marker can begin with a letter but "a)"
        return text
    return _MARKER.sub("", text, count=1)


def tokens(text: str) -> list[str]:
    """The words and signs of an order, in lower case, with a full stop after a word dropped
    ("St." is "st") and an arrow or a dash of any kind read as "-"."""
    text = text.strip().rstrip(".").replace("–", "-").replace("—", "-").replace("→", "->").replace("=>", "->")
    return [t.lower().rstrip(".") if t != "->" else "-" for t in _TOKEN.findall(text)]


def meant(word: str, words: Iterable[str]) -> list[str]:
    """The words of `words` that `word` is nearest to within its slips (`names.closest`)."""
    return closest(word, {w: w for w in words if len(w) > 1})[1]


#: the verb that stands for each family of words, as the canonical notation writes it
VERB_NAMES: Mapping[frozenset[str], str] = {
    HOLD: "hold", MOVE: "move", RETREAT: "retreat", SUPPORT: "support", CONVOY: "convoy", DISBAND: "disband",
    REMOVE: "remove", BUILD: "build", UPGRADE: "upgrade", DOWNGRADE: "downgrade", WAIVE: "waive"}
