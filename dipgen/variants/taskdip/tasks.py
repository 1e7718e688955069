"""Taskdip's Table 1 as data: each power's five tasks (one per playing card), each task a list of
counted groups of centres ("five of the French and German home centres" is one group: 5 of
those 6). Pure data and arithmetic on it; the variant's rules (rules.py) draw and check them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

#: the playing cards, in the table's order, and the other names a GM may write for them
CARDS = ("Joker", "Ten", "Nine", "Eight", "Seven")
CARD_NAMES = {"joker": "Joker", "ten": "Ten", "10": "Ten", "nine": "Nine", "9": "Nine",
              "eight": "Eight", "8": "Eight", "seven": "Seven", "7": "Seven"}

BALKANS = ("bul", "gre", "rum", "ser")
IBERIA = ("por", "spa")
SCANDINAVIA = ("den", "nwy", "swe")


@dataclass(frozen=True)
class Group:
    """`count` of the centres `centres` (all of them when count == len(centres))."""

    count: int
    centres: tuple[str, ...]

    def needs_from(self, among: set[str]) -> int:
        """How many of `among` any way of meeting this group must include."""
        return max(0, self.count - len([c for c in self.centres if c not in among]))


@dataclass(frozen=True)
class Task:
    power: str
    card: str
    groups: tuple[Group, ...]
    text: str

    def needs_any_of(self, centres) -> bool:
        """Does every way of fulfilling this task need at least one of `centres`?"""
        among = set(centres)
        return any(g.needs_from(among) for g in self.groups)

    def progress(self, owned) -> list[tuple[Group, tuple[str, ...]]]:
        """Each group with the centres of it in `owned`."""
        owned = set(owned)
        return [(g, tuple(c for c in g.centres if c in owned)) for g in self.groups]

    def fulfilled(self, owned) -> bool:
        return all(len(have) >= g.count for g, have in self.progress(owned))


def all_of(*centres: str) -> Group:
    return Group(len(centres), tuple(centres))


def n_of(n: int, *sets: tuple[str, ...]) -> Group:
    return Group(n, tuple(c for s in sets for c in s))


def _table(home: Callable[[str], tuple[str, ...]]) -> dict[str, dict[str, Task]]:
    """Table 1, with `home(power)` giving a power's home centres."""
    AUS, ENG, FRA, GER, ITA, RUS, TUR = (tuple(home(p)) for p in
                                         ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"))
    rows: dict[str, dict[str, tuple[tuple[Group, ...], str]]] = {
        "Austria": {
            "Joker": ((all_of(*ITA), all_of(*BALKANS)),
                      "the three Italian home centres and the Balkans (Bul, Gre, Rum, Ser)"),
            "Ten": ((n_of(2, GER), all_of(*BALKANS)), "two German home centres and the Balkans (Bul, Gre, Rum, Ser)"),
            "Nine": ((n_of(3, RUS), all_of(*BALKANS)),
                     "three Russian home centres and the Balkans (Bul, Gre, Rum, Ser)"),
            "Eight": ((n_of(1, RUS), n_of(1, GER), n_of(1, ITA)),
                      "one Russian, one German and one Italian home centre"),
            "Seven": ((n_of(4, ITA, TUR),), "four of the Italian and Turkish home centres"),
        },
        "England": {
            "Joker": ((n_of(5, FRA, GER),), "five of the French and German home centres"),
            "Ten": ((all_of("stp", "den", "swe", "nwy", "hol", "bel", "spa", "por", "tun"),),
                    "StP, Den, Swe, Nwy, Hol, Bel, Spa, Por and Tun"),
            "Nine": ((all_of(*GER), all_of(*SCANDINAVIA, "bel", "hol")),
                     "the three German home centres, Scandinavia (Den, Nwy, Swe), Bel and Hol"),
            "Eight": ((all_of(*FRA), all_of("bel", "hol", "por", "spa")),
                      "the three French home centres, Bel, Hol, Por and Spa"),
            "Seven": ((n_of(1, ITA),), "one Italian home centre"),
        },
        "France": {
            "Joker": ((n_of(5, ENG, GER),), "five of the English and German home centres"),
            "Ten": ((all_of(*ENG), all_of("bel", "hol", "por", "spa", "tun")),
                    "the three English home centres, Bel, Hol, Por, Spa and Tun"),
            "Nine": ((n_of(5, ITA, ENG),), "five of the Italian and English home centres"),
            "Eight": ((n_of(5, ITA, GER),), "five of the Italian and German home centres"),
            "Seven": ((n_of(1, BALKANS),), "one Balkan centre (Bul, Gre, Rum or Ser)"),
        },
        "Germany": {
            "Joker": ((all_of(*FRA), all_of("bel", "hol", "por", "spa")),
                      "the three French home centres, Bel, Hol, Por and Spa"),
            "Ten": ((all_of(*ENG), all_of("bel", "den", "hol", "nwy", "swe")),
                    "the three English home centres, Bel, Den, Hol, Nwy and Swe"),
            "Nine": ((n_of(3, RUS), all_of("bel", "den", "hol", "nwy", "swe")),
                     "three Russian home centres, Bel, Den, Hol, Nwy and Swe"),
            "Eight": ((all_of("tun"),), "Tun"),
            "Seven": ((n_of(4, ("bud", "vie", "tri"), BALKANS),), "four of Bud, Vie, Tri, Bul, Gre, Rum and Ser"),
        },
        "Italy": {
            "Joker": ((all_of(*AUS), all_of(*BALKANS)),
                      "the three Austrian home centres and the Balkans (Bul, Gre, Rum, Ser)"),
            "Ten": ((n_of(2, FRA), all_of("por", "spa", "tun")), "two French home centres, Por, Spa and Tun"),
            "Nine": ((all_of(*TUR),), "the three Turkish home centres"),
            "Eight": ((n_of(1, ENG),), "one English home centre"),
            "Seven": ((n_of(1, RUS),), "one Russian home centre"),
        },
        "Russia": {
            "Joker": ((all_of(*GER), all_of(*SCANDINAVIA)), "the three German home centres, Den, Nwy and Swe"),
            "Ten": ((n_of(2, ENG), all_of(*SCANDINAVIA)), "two English home centres, Den, Nwy and Swe"),
            "Nine": ((n_of(5, GER, AUS),), "five of the German and Austrian home centres"),
            "Eight": ((all_of(*TUR), all_of(*BALKANS)),
                      "the three Turkish home centres and the Balkans (Bul, Gre, Rum, Ser)"),
            "Seven": ((all_of(*AUS), all_of(*BALKANS)),
                      "the three Austrian home centres and the Balkans (Bul, Gre, Rum, Ser)"),
        },
        "Turkey": {
            "Joker": ((n_of(3, RUS), all_of(*BALKANS)),
                      "three Russian home centres and the Balkans (Bul, Gre, Rum, Ser)"),
            "Ten": ((all_of(*AUS), n_of(1, RUS), all_of(*BALKANS)),
                    "the three Austrian home centres, one Russian home centre and the Balkans (Bul, Gre, Rum, Ser)"),
            "Nine": ((all_of(*ITA), all_of("tun", *BALKANS)),
                     "the three Italian home centres, Tun and the Balkans (Bul, Gre, Rum, Ser)"),
            "Eight": ((n_of(2, RUS), all_of("tun", *BALKANS)),
                      "two Russian home centres, Tun and the Balkans (Bul, Gre, Rum, Ser)"),
            "Seven": ((n_of(1, IBERIA),), "one Iberian centre (Por or Spa)"),
        },
    }
    return {power: {card: Task(power, card, groups, "Control " + text) for card, (groups, text) in row.items()}
            for power, row in rows.items()}


def table(home: Callable[[str], tuple[str, ...]]) -> Mapping[str, Mapping[str, Task]]:
    return _table(home)
