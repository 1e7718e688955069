"""The board: provinces, coasts, adjacency, supply centres and powers, built from a board file's
data (`build_board`; `dipgen.resources.boards` reads the files).

A *location* is a province id (``"par"``) or, for a fleet on a split coast, the
province id and the coast (``"spa/nc"``). Armies move on the ``army`` graph of
provinces; fleets on the ``fleet`` graph of locations.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from dipgen.core.names import Speller, did_you_mean


class UnknownName(ValueError):
    """A province, coast or power name that the board does not know."""


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    abbr: str
    type: str  # "land", "coast" or "sea"
    centre: bool = False
    home: str | None = None
    coasts: tuple[str, ...] = ()

    @property
    def is_sea(self) -> bool:
        return self.type == "sea"

    @property
    def is_land(self) -> bool:
        """Land or coast: an army may stand here."""
        return self.type != "sea"

    @property
    def is_coastal(self) -> bool:
        return self.type == "coast"


@dataclass(frozen=True)
class PowerInfo:
    name: str
    adjective: str
    abbr: str
    colour: str
    #: the power's colour in the colour-blind palette (its `colour` where the board gives none)
    safe_colour: str = ""

    @property
    def safe(self) -> str:
        return self.safe_colour or self.colour


def province_of(loc: str) -> str:
    """The province of a location: ``"spa/nc"`` -> ``"spa"``."""
    return loc.split("/", 1)[0]


def coast_of(loc: str) -> str | None:
    return loc.split("/", 1)[1] if "/" in loc else None


def _norm(text: str) -> str:
    """A name folded for lookup: lower case, punctuation to single spaces."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


@dataclass(frozen=True)
class Board:
    name: str
    powers: Mapping[str, PowerInfo]
    provinces: Mapping[str, Province]
    army_adj: Mapping[str, frozenset[str]]
    fleet_adj: Mapping[str, frozenset[str]]
    starting_units: Mapping[str, tuple[str, ...]]
    home_territories: Mapping[str, tuple[str, ...]]
    coast_names: Mapping[str, str]
    impassable: Mapping[str, str]
    start_year: int
    victory_centres: int
    _lookup: Mapping[str, str] = field(repr=False, compare=False)
    _powers: Mapping[str, str] = field(repr=False, compare=False)
    # Tables made once when the board is built (`build_board`), read by the engine for every order:
    #: the province of every location a unit can stand on (``"spa/nc"`` -> ``"spa"``, ``"par"`` -> ``"par"``)
    loc_province: Mapping[str, str] = field(repr=False, compare=False)
    #: for each fleet location, the provinces it borders (coasts collapsed): where a fleet there can move
    fleet_touches: Mapping[str, frozenset[str]] = field(repr=False, compare=False)
    #: for each location, the provinces an army in its province can move to (`army_adj` by location)
    army_reach: Mapping[str, frozenset[str]] = field(repr=False, compare=False)
    #: the sea provinces
    seas: frozenset[str] = field(repr=False, compare=False)
    #: the coastal provinces (`Province.is_coastal`): where a convoy may take an army from and to
    coastal: frozenset[str] = field(repr=False, compare=False)
    #: for each province, where a fleet may stand in it (`fleet_locations`)
    _fleet_locations: Mapping[str, tuple[str, ...]] = field(repr=False, compare=False)
    #: for each province, the provinces adjacent to it for any unit (`neighbours`)
    _neighbours: Mapping[str, frozenset[str]] = field(repr=False, compare=False)

    # ----- queries
    @property
    def centres(self) -> frozenset[str]:
        return frozenset(p.id for p in self.provinces.values() if p.centre)

    def home_centres(self, power: str) -> tuple[str, ...]:
        return tuple(p.id for p in self.provinces.values() if p.home == power)

    def locations(self) -> list[str]:
        """Every location a unit can stand on: provinces and coasts."""
        out = []
        for p in self.provinces.values():
            out.append(p.id)
            out.extend(f"{p.id}/{c}" for c in p.coasts)
        return out

    def fleet_locations(self, prov: str) -> tuple[str, ...]:
        """Where a fleet may stand in a province: its coasts, or the province itself."""
        return self._fleet_locations[prov]

    def neighbours(self, prov: str) -> frozenset[str]:
        """Provinces adjacent to `prov` for any unit (coasts collapsed)."""
        return self._neighbours.get(prov) or frozenset(self.army_adj.get(prov, ()))

    # ----- names
    def power_lookup(self, text: str) -> str | None:
        """The power called `text` (any case, name, adjective or abbreviation), or None."""
        hit = self._powers.get(text)  # most text is already folded ("england") or one word ("England")
        if hit is None:
            hit = self._powers.get(text.lower() if text.isascii() and text.isalnum() else _norm(text))
        return hit

    def power_name(self, text: str) -> str:
        """The power called `text`; UnknownName, with the closest names, if there is none."""
        name = self.power_lookup(text)
        if name is None:
            raise UnknownName(f"unknown power {text!r}.{did_you_mean(text, self.powers)}")
        return name

    def lookup(self, text: str) -> str | None:
        """The province id for a name, abbreviation or alias, or None."""
        hit = self._lookup.get(text)  # most text is already folded: "par", "north sea"
        return hit if hit is not None else self._lookup.get(_norm(text))

    def lookup_folded(self, key: str) -> str | None:
        """`lookup` for text already in lower case with single spaces and no punctuation."""
        return self._lookup.get(key)

    def location(self, text: str) -> str:
        """Parse a location such as ``Spa``, ``spa/nc``, ``StP(sc)``, ``Spain north coast``."""
        m = re.fullmatch(
            r"\s*(.+?)\s*(?:[/(.\s]\s*(n|s|e|w|north|south|east|west)\.?\s*(c|coast)?\.?\s*\)?)?\s*",
            text,
            flags=re.IGNORECASE,
        )
        name, coast = (m.group(1), m.group(2)) if m else (text, None)
        prov = self.lookup(name)
        if prov is None and coast:
            # "north" may belong to the name ("North Sea" is not "Nor" + coast)
            prov, coast = self.lookup(text), None
        if prov is None:
            raise UnknownName(f"unknown province {text.strip()!r}.{did_you_mean(text.strip(), self.spellings())}")
        if coast:
            return f"{prov}/{coast[0].lower()}c"
        return prov

    @cached_property
    def _word_locations(self) -> Mapping[str, str]:
        """Locations spelt as one lower-case word: ``"par"``, ``"paris"``, ``"spa/sc"``.

        Only words that begin no longer name of another province ("tyr" would be left out
        if "tyr sea" were the Tyrrhenian), so that a word standing alone means this location
        wherever it appears. Order parsing uses it to read common text without trying every
        span of words.
        """
        longer = {key.split(" ", 1)[0] for key, pid in self._lookup.items()
                  if " " in key and self._lookup.get(key.split(" ", 1)[0], pid) != pid}
        out: dict[str, str] = {}
        for key, pid in self._lookup.items():
            if " " in key or key in longer or not key.isalnum():
                continue
            out[key] = pid
            for coast in self.provinces[pid].coasts if pid in self.provinces else ():
                out[f"{key}/{coast}"] = f"{pid}/{coast}"
        return out

    @cached_property
    def spellings_folded(self) -> Mapping[str, str]:
        """Every spelling of a province the board reads (folded: "north sea", "nth"), to its id:
        what a mistyped name is compared with."""
        return {key: pid for key, pid in self._lookup.items() if pid in self.provinces}

    @cached_property
    def speller(self) -> Speller[str]:
        """`spellings_folded` indexed for the search of the name a slip was meant for."""
        return Speller(self.spellings_folded)

    def spellings(self) -> list[str]:
        """Names worth suggesting for a typo: abbreviations and full names."""
        return [p.abbr for p in self.provinces.values()] + [p.name for p in self.provinces.values()]

    def format_loc(self, loc: str) -> str:
        """``"spa/nc"`` -> ``"Spa/nc"``; ``"nth"`` -> ``"NTH"``."""
        prov, coast = province_of(loc), coast_of(loc)
        abbr = self.provinces[prov].abbr if prov in self.provinces else self.impassable.get(prov, prov)
        return f"{abbr}/{coast}" if coast else abbr

    def full_name(self, loc: str) -> str:
        prov, coast = province_of(loc), coast_of(loc)
        name = self.provinces[prov].name
        return f"{name} ({self.coast_names.get(coast, coast)})" if coast else name


def build_board(data: Mapping[str, Any]) -> Board:
    provinces: dict[str, Province] = {}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    for pid, p in data["provinces"].items():
        coasts = tuple(p.get("coasts", {}))
        provinces[pid] = Province(
            id=pid, name=p["name"], abbr=p.get("abbr", pid.capitalize()), type=p["type"],
            centre=bool(p.get("centre", False)), home=p.get("home"), coasts=coasts,
        )
        if p["type"] != "sea":
            army[pid] = frozenset(p.get("army", ()))
        if coasts:
            for c, nbrs in p["coasts"].items():
                fleet[f"{pid}/{c}"] = frozenset(nbrs)
        elif p["type"] != "land":
            fleet[pid] = frozenset(p.get("fleet", ()))
    powers = {name: PowerInfo(name, **info) for name, info in data["powers"].items()}
    lookup: dict[str, str] = {}
    for pid, prov in provinces.items():
        for spelling in (pid, prov.abbr, prov.name):
            lookup[_norm(spelling)] = pid
    for alias, pid in (data.get("aliases") or {}).items():
        lookup.setdefault(_norm(alias), pid)
    for pid, names in (data.get("alias_lists") or {}).items():  # the board's aliases file
        if pid not in provinces:
            raise ValueError(f"the aliases name {pid!r}, which is not a province of {data['name']}")
        for alias in names:
            lookup.setdefault(_norm(str(alias)), pid)
    loc_province = {loc: pid for pid, p in provinces.items() for loc in (pid, *(f"{pid}/{c}" for c in p.coasts))}
    fleet_locations = {pid: () if p.type == "land" else tuple(f"{pid}/{c}" for c in p.coasts) or (pid,)
                       for pid, p in provinces.items()}
    neighbours = {pid: frozenset(army.get(pid, ())) | {province_of(n) for loc in fleet_locations[pid]
                                                       for n in fleet.get(loc, ())}
                  for pid in provinces}
    return Board(
        name=data["name"], powers=powers, provinces=provinces, army_adj=army, fleet_adj=fleet,
        starting_units={k: tuple(v) for k, v in (data.get("starting_units") or {}).items()},
        home_territories={k: tuple(v) for k, v in (data.get("home_territories") or {}).items()},
        coast_names=data.get("coast_names", {}),
        impassable={k: v.get("abbr", k) for k, v in (data.get("impassable") or {}).items()},
        start_year=int(data.get("start_year", 1901)),
        victory_centres=int(data.get("victory_centres", 18)),
        _lookup=lookup,
        # folded spellings, and each as the board writes it ("England"), which most text uses
        _powers={key: name for name, info in powers.items() for s in (name, info.adjective, info.abbr)
                 for key in (_norm(s), s)},
        loc_province=loc_province,
        fleet_touches={loc: frozenset(province_of(n) for n in nbrs) for loc, nbrs in fleet.items()},
        army_reach={loc: army.get(pid, frozenset()) for loc, pid in loc_province.items()},
        seas=frozenset(pid for pid, p in provinces.items() if p.is_sea),
        coastal=frozenset(pid for pid, p in provinces.items() if p.is_coastal),
        _fleet_locations=fleet_locations,
        _neighbours=neighbours,
    )
