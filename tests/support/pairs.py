"""Pairs of running hidden games (Stab!, Blind) that differ in one hidden fact.

A seeded player plays a random game for a few phases (`prefix`); then `pair` gives the same
game twice with one hidden fact changed in the phase that follows (and, optionally, a few more
phases of identical play). The kinds of facts (`KINDS`):

- ``quiet``: a unit holds, or moves where it meets nobody;
- ``support``: a support that decides whether a unit is dislodged is given or not (Blind);
- ``retreat``: a dislodged unit retreats, or disbands (Blind);
- ``build``: a build is made, or waived;
- ``spy``: a spy holds, or moves (Blind);
- ``vacate``: a unit stays in (or leaves, meeting nobody) the last place a dislodged unit
  could retreat to (Stab!, Blind);
- ``misorder``: a unit (preferably one a foreign move attacks) holds, or is given an order that
  cannot be carried out (a move to a province it cannot reach, or an unlawful support), and so
  holds all the same: a mis-order is not revealed;
- ``unlawful``: a dislodged unit retreats, or is ordered to retreat where it cannot (and so is
  disbanded): neither is the public's to know;
- ``notes``: a retreat or winter file has long GM's notes, or none: they stay unpublished until
  the reveal, and no page grows with them;
- ``silent``: a power with builds or removals due sends them, or sends nothing (an NMR in a
  winter, which tells that it had something to adjust: its own to know).

`public_facts` is what the variant's rulings let the public know of a game (the public view of
each movement phase, the public results of the others, and the centre totals of each finished
year): a pair is a test of non-interference only when those agree. Pages are files; two such
games must publish byte-identical public sites.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from contextlib import contextmanager
from dataclasses import dataclass
from unittest import mock
from pathlib import Path

import yaml

from dipgen.core.board import province_of
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.rules.draws import commitment
from dipgen.play.records import History
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.core.position import Position, Unit
from dipgen.variants import get_variant
from dipgen.view.seen import seen_record as view_record
from dipgen.rules.visibility import PUBLIC

from .folders import write_game

SLUG = "the-game"  # both games of a pair live in folders of this name, so that only the fact differs
KINDS = ("quiet", "support", "retreat", "build", "spy", "vacate", "misorder", "unlawful", "notes", "silent")
PLAYERS = {"Austria": "Anna", "England": "Ed", "France": "Fran", "Germany": "Gus", "Italy": "Ida",
           "Russia": "Rob", "Turkey": "Tess"}


#: the seed of both games of a pair (committed to in game.yml, kept in secrets.yml): their records'
#: salt, so that the pairs publish a record (`constant_links`)
SEED = bytes(range(100, 132))


def game_yml(variant: str) -> str:
    return yaml.safe_dump({"title": f"A {variant} game", "variant": variant, "gm": "Grace",
                           "players": PLAYERS, "deadline": "2031-05-01T18:00:00Z",
                           "seed_sha256": commitment(SEED)}, sort_keys=False)


def published_at(phase: Phase, text: str) -> dt.datetime:
    """When a pair's phase file was committed: a movement file's time is fixed by its phase (the
    public knows it, so both games of a pair have it); a retreat or winter file's moves with what it
    holds too, so that a hidden file's time differs between the games as the file does."""
    when = dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(days=(phase.year - 1901) * 7
                                                                           + phase.season_index * 3)
    if phase.kind == MOVEMENT:
        return when
    return when + dt.timedelta(days=1, seconds=int(hashlib.sha256(text.encode()).hexdigest()[:6], 16))


@contextmanager
def constant_links():
    """While it lasts, the one function that salts and hashes a game's record (`dipgen.rules.chain.link`)
    gives a constant. A hidden running game's published links are that function of its hidden files
    under a secret 256-bit salt (tests/test_record.py): they differ between the games of a pair, as
    any two random numbers do, and tell nobody without the salt anything. With them made constant,
    byte-identical sites prove that everything else a pair publishes is the same, the place and
    number of the links included."""
    with mock.patch("dipgen.rules.chain.link", lambda previous, salt, phase, data: "0" * 64):
        yield


# ----------------------------------------------------------------------------- the player

class Player:
    """Orders for every power from a seeded `random.Random`: holds, moves, supports of the
    moves it has already decided (so that dislodgements happen), retreats, builds."""

    def __init__(self, variant, rng: random.Random, activity: float = 0.55):
        self.v, self.b, self.rng, self.activity = variant, variant.rules.board, rng, activity

    def moves_of(self, u: Unit) -> list[str]:
        if u.kind == "A":
            return sorted(self.b.army_adj.get(u.province, ()))
        return sorted(self.b.fleet_adj.get(u.loc, ()))

    def reaches(self, u: Unit, prov: str) -> bool:
        return any(province_of(loc) == prov for loc in self.moves_of(u))

    def movement(self, pos: Position) -> dict[str, list[str]]:
        rng = self.rng
        decided: dict[Unit, str] = {}
        targets: dict[Unit, str] = {}
        spies, pos = _spies(pos), _board(pos)
        units = sorted(pos.units)
        for u in units:
            if rng.random() < self.activity:
                dest = rng.choice(self.moves_of(u))
                targets[u] = province_of(dest)
                decided[u] = f"{u.kind} {u.loc} - {dest}"
        for u in units:
            if u in decided:
                continue
            helpable = [(m, t) for m, t in targets.items()
                        if m.power == u.power and self.reaches(u, t) and t != u.province]
            if helpable and rng.random() < 0.7:
                m, t = rng.choice(helpable)
                decided[u] = f"{u.kind} {u.loc} S {m.kind} {m.loc} - {t}"
            else:
                decided[u] = f"{u.kind} {u.loc} H"
        out: dict[str, list[str]] = {}
        for u in units:
            out.setdefault(u.power, []).append(decided[u])
        for spy in spies:
            near = sorted(self.b.neighbours(spy.province))
            out.setdefault(spy.power, []).append(
                f"S {spy.loc} - {rng.choice(near)}" if rng.random() < 0.5 else f"S {spy.loc} H")
        return out

    def retreats(self, pos: Position, only: str | None = None) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for d in sorted(pos.dislodged, key=lambda d: d.unit):
            u = d.unit
            if only is not None and u.power != only:
                continue
            text = (f"{u.kind} {u.loc} - {self.rng.choice(d.retreats)}" if d.retreats and self.rng.random() < 0.8
                    else f"{u.kind} {u.loc} disband")
            out.setdefault(u.power, []).append(text)
        return out

    def adjustments(self, pos: Position, only: str | None = None) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        counts, pos = self.v.rules.adjustment_counts(pos), _board(pos)
        occupied = {u.province for u in pos.units}
        for power, n in sorted(counts.items()):
            if only is not None and power != only:
                continue
            if n > 0:
                free = [c for c in self.v.rules.home_centres(power) if pos.owners.get(c) == power and c not in occupied]
                for c in self.rng.sample(free, min(n, len(free))):
                    province = self.b.provinces[c]
                    kind = "F" if province.is_coastal and self.rng.random() < 0.4 and not province.coasts else "A"
                    out.setdefault(power, []).append(f"Build {kind} {c}")
            else:
                mine = sorted(pos.units_of(power))
                for u in self.rng.sample(mine, -n):
                    out.setdefault(power, []).append(f"Remove {u.kind} {u.loc}")
        return out

    def orders(self, pos: Position, only: str | None = None) -> dict[str, list[str]]:
        """Every power's orders for the phase `pos` waits for (`only`: that power's alone, in a
        retreat or adjustment phase); now and then a power sends nothing (an NMR)."""
        kind = pos.phase.kind
        if kind == MOVEMENT:
            out = self.movement(pos)
        elif kind == ADJUSTMENTS:
            out = self.adjustments(pos, only)
        else:
            out = self.retreats(pos, only)
        return {p: o for p, o in out.items() if self.rng.random() >= 0.08}


def own_orders(variant, seed: float, activity: float, pos: Position) -> dict[str, list[str]]:
    """Each power's retreats or adjustments from a generator of its own, so that what one power has
    to order cannot change what another orders (with one generator, a build only one game of a pair
    has would shift the draws of every power after it, and an uninvolved power's own file would
    differ between the games)."""
    out: dict[str, list[str]] = {}
    for power in variant.rules.powers():
        out.update(Player(variant, random.Random(f"{seed}/{power}"), activity).orders(pos, only=power))
    return out


# ----------------------------------------------------------------------------- games as files

@dataclass
class Files:
    variant: str
    files: dict[str, str]

    def with_phase(self, phase: Phase, orders: dict[str, list[str]], extra: dict | None = None) -> Files:
        data = dict(extra or {})
        data["orders"] = {p: list(o) for p, o in sorted(orders.items())} or {p: [] for p in PLAYERS}
        return Files(self.variant, {**self.files, f"{phase.slug}.yml": yaml.safe_dump(data, sort_keys=False)})

    def write(self, folder: Path) -> Path:
        return write_game(folder, self.files)

    def history(self, folder: Path) -> History:
        game = load_game(self.write(folder))
        for phase, pf in game.phases.items():  # as if each file had been committed (`published_at`)
            pf.committed = published_at(phase, self.files[pf.path.name])
        return replay(game, seed=SEED)


def _first_extra(variant, phase: Phase) -> dict:
    if variant.name == "stab" and phase.season_index == 0 and not phase.retreats:
        return {"placement": {p: list(variant.rules.board.starting_units[p]) for p in PLAYERS}}
    return {}


def prefix(variant_name: str, seed: int, phases: int, scratch: Path, activity: float = 0.55) -> tuple[Files, History]:
    """A game of `phases` phases played by a seeded player; its files and its History."""
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    files = Files(variant_name, {"game.yml": game_yml(variant_name)})
    h = files.history(scratch / "prefix" / SLUG)
    for _ in range(phases):
        if h.next_phase is None:
            break
        phase = h.next_phase
        extra = _first_extra(variant, phase) if not h.records else {}
        files = files.with_phase(phase, Player(variant, rng, activity).orders(h.position), extra)
        h = files.history(scratch / "prefix" / SLUG)
    return files, h


# ----------------------------------------------------------------------------- one hidden fact

def _spies(pos: Position) -> list[Unit]:
    """Blind's spies: units that stand beside the others."""
    return sorted(u for u in pos.units if u.kind == "S")


def _board(pos: Position) -> Position:
    """The position without its spies: the units the random player gives ordinary orders."""
    return pos.with_(units=tuple(u for u in pos.units if u.kind != "S"))


def _replace(orders: dict[str, list[str]], unit: Unit, text: str | None) -> dict[str, list[str]]:
    out = {}
    for power, given in orders.items():
        keep = [o for o in given if not o.startswith(f"{unit.kind} {unit.loc} ")]
        if power == unit.power and text is not None:
            keep.append(text)
        out[power] = keep
    return out


def _free_moves(variant, pos: Position, orders: dict[str, list[str]]) -> list[tuple[Unit, str]]:
    """(unit, destination) where the unit meets nobody whether it holds or moves: nobody is
    ordered into its province or the destination, which is empty and not a centre."""
    ordered_into = {province_of(o.split(" - ")[-1].split()[0]) for os in orders.values() for o in os if " - " in o}
    player = Player(variant, random.Random(0))
    out = []
    for u in sorted(_board(pos).units):
        if u.province in ordered_into:
            continue
        for dest in player.moves_of(u):
            prov = province_of(dest)
            if not _board(pos).units_at(prov) and prov not in ordered_into and prov not in variant.rules.board.centres:
                out.append((u, dest))
    return out


def pair(variant_name: str, kind: str, seed: int, scratch: Path, phases: int = 6,
         after: int = 0, activity: float = 0.55) -> tuple[History, History] | None:
    """Two games differing in one hidden fact of `kind` in the phase after a `phases`-phase prefix,
    then `after` more phases of identical play, and then, where one game waits for a phase the
    other does not have (a Spring's retreats only one of them has), that phase (the last of
    `pair_points`); None when the prefix offers no such fact."""
    points = pair_points(variant_name, kind, seed, scratch, phases, after, activity)
    return None if points is None else points[-1]


def pair_points(variant_name: str, kind: str, seed: int, scratch: Path, phases: int = 6,
                after: int = 0, activity: float = 0.55) -> list[tuple[History, History]] | None:
    """The games of `pair` at every point of the GM's pace: after the `after` phases, where one of
    them may still owe a phase the other does not have (retreats only one of them has), and
    again once each such phase is played. At each, a player the fact does not concern must be told
    the same in both: the Fall's retreats, owed or not, are closed by a file in either game
    (`Policy.closed_by_file`), and a Spring's retreats change nothing she is told. None when the
    prefix offers no such fact."""
    variant = get_variant(variant_name)
    files, h = prefix(variant_name, seed, phases, scratch, activity)
    wanted = {"retreat": RETREATS, "unlawful": RETREATS, "build": ADJUSTMENTS,
              "silent": ADJUSTMENTS}.get(kind, MOVEMENT)
    for _ in range(8):  # play on to the next phase of the kind the fact needs
        closing = h.next_phase is not None and h.next_phase.retreats and not h.position.dislodged  # nobody retreats
        if h.next_phase is None or (h.next_phase.kind == wanted and not (closing and wanted == RETREATS)) \
                or (kind == "notes" and h.next_phase.kind != MOVEMENT):
            break
        files = files.with_phase(h.next_phase, Player(variant, random.Random(seed), activity).orders(h.position))
        h = files.history(scratch / "prefix" / SLUG)
    if h.next_phase is None:
        return None
    rng = random.Random(seed * 7919 + KINDS.index(kind))
    pos, phase = h.position, h.next_phase
    base = Player(variant, rng, activity).orders(pos)
    extra = _first_extra(variant, phase) if not h.records else {}
    a = b = None
    if kind == "quiet" and phase.kind == MOVEMENT:
        options = _free_moves(variant, pos, base)
        if options:
            unit, dest = rng.choice(options)
            a = _replace(base, unit, f"{unit.kind} {unit.loc} H")
            b = _replace(base, unit, f"{unit.kind} {unit.loc} - {dest}")
    elif kind == "support" and phase.kind == MOVEMENT:
        supports = [(p, o) for p, os in base.items() for o in os if " S " in o and " - " in o]
        if supports:
            power, text = rng.choice(supports)
            unit_words = text.split(" S ")[0].split()
            unit = Unit(power, unit_words[0], unit_words[1])
            a, b = base, _replace(base, unit, f"{unit.kind} {unit.loc} H")
    elif kind == "retreat" and phase.retreats:
        movable = [d for d in pos.dislodged if d.retreats]
        if movable:
            d = rng.choice(sorted(movable, key=lambda d: d.unit))
            a = _replace(base, d.unit, f"{d.unit.kind} {d.unit.loc} - {d.retreats[0]}")
            b = _replace(base, d.unit, f"{d.unit.kind} {d.unit.loc} disband")
    elif kind == "build" and phase.kind == ADJUSTMENTS:
        builders = [(p, o) for p, os in base.items() for o in os if o.startswith("Build")]
        if builders:
            power, text = rng.choice(builders)
            a = base
            b = {p: ([x for x in os if x != text] + ["Waive"] if p == power else os) for p, os in base.items()}
    elif kind == "spy" and phase.kind == MOVEMENT and _spies(pos):
        spy = rng.choice(_spies(pos))
        near = sorted(variant.rules.board.neighbours(spy.province))
        a = _replace(base, spy, f"S {spy.loc} H")
        b = _replace(base, spy, f"S {spy.loc} - {rng.choice(near)}")
    elif kind == "vacate" and phase.kind == MOVEMENT:
        attacked = {province_of(o.split(" - ")[-1].split()[0]) for os in base.values() for o in os
                    if " - " in o and " S " not in o}
        options = [(u, d) for u, d in _free_moves(variant, pos, base)
                   if attacked & variant.rules.board.neighbours(u.province)]  # next to a fight: it may block a retreat
        if options:
            unit, dest = rng.choice(options)
            a = _replace(base, unit, f"{unit.kind} {unit.loc} H")
            b = _replace(base, unit, f"{unit.kind} {unit.loc} - {dest}")
    elif kind == "misorder" and phase.kind == MOVEMENT:
        attacked = {province_of(o.split(" - ")[-1].split()[0]): power for power, os in base.items() for o in os
                    if " - " in o and " S " not in o}
        units = sorted(_board(pos).units)
        targets = [u for u in units if u.province in attacked and attacked[u.province] != u.power] or units
        unit = rng.choice(targets)
        far = sorted(p for p in variant.rules.board.provinces
                     if p not in variant.rules.board.neighbours(unit.province) and p != unit.province)
        a = _replace(base, unit, f"{unit.kind} {unit.loc} H")
        near = variant.rules.board.neighbours(unit.province)
        others = [u for u in units if u.power != unit.power and u.province not in near]
        if others and rng.random() < 0.5:  # an unlawful support: of a unit far away, into a province it cannot reach
            other = rng.choice(others)
            b = _replace(base, unit, f"{unit.kind} {unit.loc} S {other.kind} {other.loc} - {rng.choice(far)}")
        else:
            b = _replace(base, unit, f"{unit.kind} {unit.loc} - {rng.choice(far)}")
    elif kind == "unlawful" and phase.retreats:
        movable = [d for d in pos.dislodged if d.retreats]
        if movable:
            d = rng.choice(sorted(movable, key=lambda d: d.unit))
            far = sorted(p for p in variant.rules.board.provinces
                         if p not in variant.rules.board.neighbours(d.unit.province) and p != d.unit.province)
            a = _replace(base, d.unit, f"{d.unit.kind} {d.unit.loc} - {d.retreats[0]}")
            b = _replace(base, d.unit, f"{d.unit.kind} {d.unit.loc} - {rng.choice(far)}")
    elif kind == "silent" and phase.kind == ADJUSTMENTS:
        due = sorted(p for p, os in base.items() if os)
        if due:
            power = rng.choice(due)
            a, b = base, {p: os for p, os in base.items() if p != power}
    elif kind == "notes" and phase.kind != MOVEMENT:
        a, b = base, base
        extra_b = {**extra,
                   "notes": "".join(f"Note {i}: {rng.getrandbits(64):x} told to nobody.\n" for i in range(1000))}
        fa, fb = files.with_phase(phase, a, extra), files.with_phase(phase, b, extra_b)
    if a is None:
        return None
    if kind != "notes":
        fa, fb = files.with_phase(phase, a, extra), files.with_phase(phase, b, extra)
    ha, hb = fa.history(scratch / "a" / SLUG), fb.history(scratch / "b" / SLUG)
    for _ in range(after):
        if ha.next_phase is None or hb.next_phase is None:
            break
        stepped = _step_both(variant, rng.random(), ha, hb, fa, fb, scratch, activity)
        if stepped is None:
            break
        ha, hb, fa, fb = stepped
    points = [(ha, hb)]
    for _ in range(4):  # a phase only one game has (retreats), played: the next point of the GM's pace
        if ha.next_phase is None or hb.next_phase is None or ha.next_phase == hb.next_phase:
            break
        stepped = _step_both(variant, rng.random(), ha, hb, fa, fb, scratch, activity)
        if stepped is None:
            break
        ha, hb, fa, fb = stepped
        points.append((ha, hb))
    return points


def _step_both(variant, seed: float, ha, hb, fa, fb, scratch, activity: float):
    """One more phase of play. A game that waits for a phase the other skips (retreats or
    adjustments only it has) plays it alone; otherwise both get the same movement orders for
    the units they both have where they both have them (a unit only one has holds), and their
    own retreats and adjustments, each power's from a generator of its own (`own_orders`). None
    when that cannot be played."""
    pa, pb = ha.next_phase, hb.next_phase
    try:
        if pa != pb:
            if pa < pb:
                fa = fa.with_phase(pa, Player(variant, random.Random(seed), activity).orders(ha.position))
                return fa.history(scratch / "a" / SLUG), hb, fa, fb
            fb = fb.with_phase(pb, Player(variant, random.Random(seed), activity).orders(hb.position))
            return ha, fb.history(scratch / "b" / SLUG), fa, fb
        if pa.kind != MOVEMENT:
            oa, ob = own_orders(variant, seed, activity, ha.position), own_orders(variant, seed, activity, hb.position)
        else:
            oa = Player(variant, random.Random(seed), activity).orders(ha.position)
            ob = Player(variant, random.Random(seed), activity).orders(hb.position)
            both = set(_board(ha.position).units) & set(_board(hb.position).units)
            same = lambda power, given: [o for o in given if any(  # noqa: E731
                o.startswith(f"{u.kind} {u.loc} ") for u in both if u.power == power)]
            spies = lambda given: [o for o in given if o.startswith("S ")]  # noqa: E731
            powers = sorted(set(oa) | set(ob))
            # spies where both games have the same ones get the same orders, in the same order (the
            # player lists equal spies in whatever order each position holds them)
            alike = sorted(_spies(ha.position)) == sorted(_spies(hb.position))
            oa, ob = ({p: same(p, oa.get(p, [])) + spies(oa.get(p, [])) for p in powers},
                      {p: same(p, oa.get(p, [])) + spies((oa if alike else ob).get(p, [])) for p in powers})
        fa, fb = fa.with_phase(pa, oa), fb.with_phase(pa, ob)
        return fa.history(scratch / "a" / SLUG), fb.history(scratch / "b" / SLUG), fa, fb
    except GameError:  # an order one game cannot take (a support of a unit only one has)
        return None


# ----------------------------------------------------------------------------- what is public

def public_facts(h: History) -> tuple:
    """What the variant's rulings let the public know: each movement phase's public view
    (less the centre totals, which the public learns once a year), the public results of
    retreats and adjustments, who sent orders, press and notes of movement phases, and the
    totals of each year the game has left behind (a year is behind once a Spring is played)."""
    facts: list = []
    others: set = set()
    springs = {r.phase.year for r in h.records if r.kind == MOVEMENT and r.phase.season_index == 0}
    year_last = {}
    for r in h.records:
        year_last[r.phase.year] = r
        v = view_record(h, r, PUBLIC)
        if r.kind == MOVEMENT:
            facts.append((r.phase, v.results,
                          tuple((d.unit, d.by_power, d.attacker_from) for d in v.dislodged + v.destroyed),
                          v.before.units, v.before.owners, v.after.units, v.after.owners,
                          tuple(sorted(p for p, o in r.orders.items() if o)), r.press, r.notes))
        elif v.results:
            others.add((r.phase.year, r.phase.season_index, repr(v.results)))
    calendar = h.variant.rules.calendar
    for year, r in sorted(year_last.items()):
        closed = r.kind != MOVEMENT and (r.kind == ADJUSTMENTS or calendar.ends_year(r.phase))
        if year + 1 in springs or (closed and h.variant.policy.tells_fall_totals):  # every player hears them
            facts.append(("totals", year, tuple(sorted(view_record(h, r, PUBLIC).after.totals.items()))))
    return tuple(facts), tuple(sorted(others)), h.finished


# ----------------------------------------------------------------------------- who may know it

def involved(a: History, b: History) -> set[str]:
    """The powers that may learn the fact a pair differs in: those whose orders differ, and every
    power with a unit (spies included) or a centre in or next to a province where the two games'
    units differ at any point, where a unit was ordered differently, or where a phase only one of
    them had took place. Every other
    power must be shown exactly the same in both games. Deliberately generous: it is drawn from
    the board, not from any variant's rulings, so that it cannot share their mistakes."""
    board = a.variant.rules.board

    def facts(h: History) -> dict:
        out: dict = {}
        for r in h.records:
            units = {(u.power, u.kind, u.loc) for pos in (r.before, r.after) for u in pos.units}
            units |= {(d.unit.power, d.unit.kind, d.unit.loc) for d in r.before.dislodged + r.after.dislodged}
            out[r.phase] = (units, {p: {ol.text for ol in ls} for p, ls in r.orders.items()})
        return out

    fa, fb = facts(a), facts(b)
    places: set[str] = set()
    powers: set[str] = set()
    for phase in set(fa) | set(fb):
        ua, oa = fa.get(phase, (set(), {}))
        ub, ob = fb.get(phase, (set(), {}))
        if phase not in fa or phase not in fb:
            places |= {province_of(loc) for _, _, loc in ua | ub}
        places |= {province_of(loc) for _, _, loc in ua ^ ub}
        for p in set(oa) | set(ob):
            differ = oa.get(p, set()) ^ ob.get(p, set())
            if differ:
                powers.add(p)
                places |= {province_of(board.location(text.split()[1])) for text in differ if len(text.split()) > 1
                           and _known_place(board, text.split()[1])}
    near = places | {n for p in places for n in board.neighbours(p)}
    for h in (a, b):
        for r in h.records:
            for pos in (r.before, r.after):
                powers |= {u.power for u in pos.units if u.province in near}
                powers |= {owner for centre, owner in pos.owners.items() if centre in near}
    return powers


def _known_place(board, word: str) -> bool:
    try:
        board.location(word)
    except ValueError:
        return False
    return True


# ----------------------------------------------------------------------------- what is published

#: the secrets of both games of a pair: one page key, a passphrase per power
PAGE_KEY = bytes(range(32))
#: the pairs' sites' address: with one, every game and season page has a PNG of its map (og:image)
SITE_URL = "https://club.example.org/dip/"
PASSPHRASES = {p: f"pass-{p.lower()}-phrase-for-tests" for p in PLAYERS}


def published(h: History) -> dict[str, str | bytes]:
    """Everything a game publishes that a reader can tell apart, keyed by where it is read:
    ``site/<uri>`` each file of the public site (pages, maps, draws, the archive, the feeds, the
    deadline's calendar; the phase files carry commit times, `published_at`), ``report`` the
    game report the GM e-mails everyone, ``private-page/<uri>`` each private page's name and
    size, ``private/<seat>`` what each player reads on hers once she has opened it (the page
    before encryption, which decrypts to exactly that: tests/test_private.py), and
    ``mail/<seat>/<phase>`` each message `dipgen mail` sends her (`mailed`). The site has an
    address (`SITE_URL`), so that its pages' link-preview pictures (PNG maps) are compared too."""
    from dipgen.usecases.games import Loaded
    from dipgen.present.site.crypt import padded_size
    from dipgen.usecases.publish import seat_pages
    from dipgen.io.secretsfile import GameSecrets
    from dipgen.present.site.pages import SiteOptions, private_room
    from dipgen.view import game_view
    from dipgen.present.site.page import SitePage
    from dipgen.usecases.export import marked
    from support import game_report, public_site

    secrets = GameSecrets(Path(SLUG) / "secrets.yml", PAGE_KEY, dict(PASSPHRASES))
    with pictures_by_their_drawing():
        site = public_site(h, SiteOptions(site_url=SITE_URL))
    out = {f"site/{uri}": text for uri, text in site.items()}
    # `dipgen export` writes each page with its heading lines listed for its hook (export_hook)
    out.update({f"export/{uri}": marked(text) for uri, text in site.items() if isinstance(text, SitePage)})
    out["report"] = game_report(h)
    size = private_room(game_view(h, "public"))
    pages = seat_pages(Loaded(h, secrets), SiteOptions())
    assert padded_size((content.encode() for _, content, _ in pages), least=size) == size, "a page outgrew its room"
    by_uri = {uri: content for uri, content, _ in pages}
    from dipgen.present.site.crypt import page_uri

    for seat in h.seating.keys() if pages else ():
        uri = page_uri(PAGE_KEY, SLUG, seat)
        out[f"private-page/{uri}"] = str(size)
        out[f"private/{seat}"] = by_uri[uri]
    out.update(private_reports(h))
    out.update(mailed(h, secrets))
    return out


@contextmanager
def pictures_by_their_drawing():
    """Within the block, each link preview's picture (a PNG map) is the digest of what it is drawn from,
    its SVG and its size, not the PNG: `raster.png` is a pure function of those (the same SVG gives the
    same bytes, tests/test_raster.py; dipgen itself remembers each picture by their hash), so two games
    publish the same pictures exactly when the digests agree, and drawing them (a fifth of a second a
    map, half the time of comparing a pair) proves nothing more. tests/test_noninterference.py's whole
    built sites compare the PNGs themselves."""
    from dipgen.present.svg import raster

    def digest(svg: str, width: int | None = None, height: int | None = None) -> bytes:
        return b"PNG of " + hashlib.sha256(f"{width}x{height}\0{svg}".encode()).digest()

    with mock.patch.object(raster, "png", digest):
        yield


def private_reports(h: History) -> dict[str, str]:
    """What each player is sent by e-mail: ``private/<seat>/report`` her report of the latest season
    she is shown (`dipgen adjudicate --power P`), and ``private/<seat>/out/<phase>`` the file
    `dipgen adjudicate --power all --out DIR --phase PHASE` writes her for each of the last two
    seasons she is shown (with its name: the report and the name are what she receives)."""
    from dipgen.usecases.mailout import reports
    from dipgen.present.report import phase_report
    from dipgen.view import game_view

    out: dict[str, str] = {}
    sent: dict = {}
    for seat in h.seating.keys():
        view = game_view(h, seat)
        out[f"private/{seat}/report"] = phase_report(view, view.records[-1]) if view.records else ""
        for record in view.records[-2:]:
            if record.phase not in sent:
                sent[record.phase] = {s: (name, text) for name, (s, text) in reports(h, record.phase)[0].items()}
            name, text = sent[record.phase].get(seat, ("-", ""))
            out[f"private/{seat}/out/{record.phase.slug}"] = f"{name}\n{text}"
    return out


#: the sender and the time of the messages `dipgen mail` sends a pair's players (the clock's, in use)
SENDER, SENT_AT = "gm@example.org", dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc)


def mailed(h: History, secrets) -> dict[str, str]:
    """``mail/<seat>/<phase>``: each message `dipgen mail` would send for each phase played (the GM
    mails each once), as the server receives it, to each player at her own address."""
    from dataclasses import replace

    from dipgen.usecases.letters import message, plan
    from dipgen.io.addresses import Addresses
    from dipgen.present.site.pages import SiteOptions

    names = {n for seat in h.seating.seats for n in seat.names()}
    book = Addresses({name: (f"player{i}@example.org",) for i, name in enumerate(sorted(names))})
    secrets = replace(secrets, addresses=book)
    options = SiteOptions(site_url="https://club.example.org/dip/", site_name="Club")
    out = {}
    for r in h.records:
        for letter in plan(h, secrets, r.phase, options, SLUG, SENDER).letters:
            out[f"mail/{letter.seat}/{r.phase.slug}"] = message(letter, SENDER, SENT_AT).as_string()
    return out


def differences(a: History, b: History) -> list[str]:
    """What differs between the outputs of a pair that the fact's outsiders could read: the public
    site, the public report, the private pages' names and sizes, and the private pages and the
    mailed messages of every power not `involved`."""
    pa, pb = published(a), published(b)
    insiders = involved(a, b)
    may = {f"private/{p}" for p in insiders}
    return sorted(k for k in set(pa) | set(pb)
                  if k not in may and "/".join(k.split("/")[:2]) not in may and pa.get(k) != pb.get(k)
                  and not (k.startswith("mail/") and k.split("/")[1] in insiders))
