"""Adjudication speed and agreement: dipgen against the reference engine ``diplomacy==1.1.2``.

    python bench/adjudicate.py [--games 40] [--years 20] [--seed 1] [--repeat 5] [--ref-repeat 3] [--no-reference]

Builds the corpus of bench/corpus.py (not timed), then adjudicates every phase with
dipgen's engine functions (called directly, as the standard variant does) and with the
reference's `diplomacy.Game` set up with the same units, centre owners, phase, dislodged
units and orders. Prints phases per second of each (median of repeated runs, both in this
process), the ratio, how often the two agree on the outcome (units after; dislodged units
and their retreat options), every class of disagreement with its reason under the 2023
rulebook and DATC 3.0, and the time of the whole DATC 3.0 suite.

Needs the bench virtualenv (see bench/README.md): the reference engine is never a
dependency of dipgen itself. ``--no-reference`` times dipgen alone and runs the classifier's
emulations without verdicts (CI runs every benchmark so, on a tiny size).
"""

from __future__ import annotations

import argparse
from os import cpu_count
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import (NO_REFERENCE_HELP, CorpusPhase, build_corpus, reference_version, ref_loc, ref_orders,  # noqa: E402
                    ref_phase, ref_power, ref_unit, summary)

from dipgen.core.board import province_of  # noqa: E402
from dipgen.engine.adjustments import adjudicate_adjustments  # noqa: E402
from dipgen.engine.movement import _Movement, adjudicate_movement  # noqa: E402  (_Movement: emulations only)
from dipgen.engine.retreats import adjudicate_retreats  # noqa: E402
from dipgen.core.orders import Convoy, Move, Support, for_phase, parse_order  # noqa: E402
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS  # noqa: E402
from dipgen.variants import get_variant  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATC_FILE = ROOT / "tests" / "datc" / "datc_v3_0.txt"

VARIANT = get_variant("standard")
BOARD = VARIANT.rules.board
KINDS = VARIANT.rules.unit_kinds


# ---------------------------------------------------------------------------- dipgen
def dipgen_adjudicate(cp: CorpusPhase, orders=None):
    """One phase through dipgen's engine, as `dipgen.rules.variant.Variant` calls it."""
    pos = cp.position
    orders = cp.orders if orders is None else orders
    kind = pos.phase.kind
    if kind == MOVEMENT:
        return adjudicate_movement(BOARD, pos.units, orders, KINDS)
    if kind == RETREATS:
        return adjudicate_retreats(BOARD, pos.units, pos.dislodged, orders)
    return adjudicate_adjustments(BOARD, pos.units, pos.owners, orders, KINDS, VARIANT.rules.home_centres)


def dipgen_outcome(cp: CorpusPhase, out) -> dict:
    units = frozenset(f"{ref_power(u.power)} {ref_unit(u)}" for u in out.units)
    if cp.kind != MOVEMENT:
        return {"units": units, "dislodged": {}}
    dis = {f"{ref_power(d.unit.power)} {ref_unit(d.unit)}": frozenset(_retreat_options(d)) for d in out.dislodged}
    for d in out.destroyed:
        dis[f"{ref_power(d.unit.power)} {ref_unit(d.unit)}"] = frozenset()
    return {"units": units, "dislodged": dis}


def _retreat_options(d) -> list[str]:
    # the reference lists an army's options as provinces and a fleet's as locations
    return [ref_loc(loc) for loc in d.retreats]


# ---------------------------------------------------------------------------- the reference
def reference_game(cp: CorpusPhase):
    """A fresh `diplomacy.Game` holding the phase's position (not timed)."""
    from diplomacy import Game

    game = Game()
    game.clear_units()
    game.clear_centers()
    pos = cp.position
    game.set_current_phase(ref_phase(pos.phase))
    by_power = defaultdict(list)
    for u in pos.units:
        by_power[u.power].append(ref_unit(u))
    for d in pos.dislodged:
        by_power[d.unit.power].append("*" + ref_unit(d.unit))
    centres = defaultdict(list)
    for c, p in pos.owners.items():
        centres[p].append(ref_loc(c))
    for power in VARIANT.rules.powers():
        game.set_units(ref_power(power), by_power.get(power, []), reset=True)
        game.set_centers(ref_power(power), centres.get(power, []), reset=True)
    if pos.phase.kind == RETREATS:
        # the retreat options come from the movement phase before; use dipgen's (compared there)
        for d in pos.dislodged:
            game.get_power(ref_power(d.unit.power)).retreats[ref_unit(d.unit)] = [ref_loc(x) for x in d.retreats]
    game.clear_cache()
    return game


def reference_adjudicate(game, orders: dict[str, list[str]]):
    for power, os in orders.items():
        game.set_orders(power, os)
    game.process()


def reference_outcome(cp: CorpusPhase, game) -> dict:
    units, dis = set(), {}
    for power in game.powers.values():
        for u in power.units:
            units.add(f"{power.name} {u}")
        if cp.kind == MOVEMENT:
            for u, opts in power.retreats.items():
                dis[f"{power.name} {u}"] = frozenset(opts)
    if cp.kind == MOVEMENT:
        # The reference lists every adjacent province nobody fought over and refuses a retreat
        # into an occupied one only when the order comes (`_add_retreat_orders`): compare the
        # options it would accept.
        occupied = {u.split()[2][:3] for u in units}
        dis = {u: frozenset(o for o in opts if o[:3] not in occupied) for u, opts in dis.items()}
        for u in game.popped:  # dislodged with nowhere to go
            owner = next((p.name for p in game.powers.values() if u in p.retreats), None)
            if owner is None:
                owner = _owner_before(cp, u)
            dis.setdefault(f"{owner} {u}", frozenset())
    return {"units": frozenset(units), "dislodged": dis}


def _owner_before(cp: CorpusPhase, unit: str) -> str:
    for u in cp.position.units:
        if ref_unit(u) == unit:
            return ref_power(u.power)
    return "?"


# ---------------------------------------------------------------------------- timing
def time_dipgen(phases: list[CorpusPhase], repeat: int) -> list[float]:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for cp in phases:
            dipgen_adjudicate(cp)
        runs.append(time.perf_counter() - t)
    return runs


def time_dipgen_from_text(phases: list[CorpusPhase], texts: list[dict], repeat: int) -> list[float]:
    """dipgen including reading the orders from their text, as the reference must."""
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for cp, tx in zip(phases, texts, strict=True):
            orders = {p: [parse_order(BOARD, s) for s in ss] for p, ss in tx.items()}
            if cp.kind != MOVEMENT:
                orders = {p: [for_phase(o, cp.kind) for o in os] for p, os in orders.items()}
            dipgen_adjudicate(cp, orders)
        runs.append(time.perf_counter() - t)
    return runs


def time_reference(phases: list[CorpusPhase], ref_texts: list[dict], repeat: int, keep_first=True):
    """Per run: (total of set_orders + process, total of process alone). The game of each phase is
    set up before its clock starts. The outcomes of the first run are returned for comparison."""
    runs, outcomes = [], []
    for r in range(repeat):
        total = proc = 0.0
        for cp, orders in zip(phases, ref_texts, strict=True):
            game = reference_game(cp)
            t0 = time.perf_counter()
            for power, os in orders.items():
                game.set_orders(power, os)
            t1 = time.perf_counter()
            game.process()
            t2 = time.perf_counter()
            total += t2 - t0
            proc += t2 - t1
            if r == 0 and keep_first:
                outcomes.append(reference_outcome(cp, game))
        runs.append((total, proc))
    return runs, outcomes


def time_datc(repeat: int) -> tuple[list[float], str]:
    from dipgen.usecases.datc import run_file

    runs, line = [], ""
    for _ in range(repeat):
        t = time.perf_counter()
        rep = run_file(str(DATC_FILE))
        runs.append(time.perf_counter() - t)
        line = f"{rep.passed} passed, {rep.failed} failed"
    return runs, line


# ---------------------------------------------------------------------------- disagreements
def fmt_position(cp: CorpusPhase) -> str:
    lines = []
    for power in VARIANT.rules.powers():
        us = [u.describe(BOARD) for u in cp.position.units if u.power == power]
        ds = [d.unit.describe(BOARD) + f" (dislodged; may retreat to {', '.join(d.retreats) or 'nowhere'})"
              for d in cp.position.dislodged if d.unit.power == power]
        cs = cp.position.centres_of(power)
        if us or ds or cs:
            lines.append(f"      {power}: {', '.join(us + ds) or '-'}; centres {len(cs)}")
    return "\n".join(lines)


def fmt_orders(cp: CorpusPhase) -> str:
    lines = []
    for power, os in cp.orders.items():
        lines.append(f"      {power}: " + "; ".join(o.format(BOARD) for o in os))
    absent = [p for p in VARIANT.rules.powers() if p not in cp.orders]
    if absent:
        lines.append(f"      (no orders from {', '.join(absent)})")
    return "\n".join(lines)


def diff_outcomes(a: dict, b: dict) -> list[str]:
    out = []
    only_d = sorted(a["units"] - b["units"])
    only_r = sorted(b["units"] - a["units"])
    if only_d or only_r:
        out.append(f"units after: dipgen only {only_d or '-'}; reference only {only_r or '-'}")
    da, db = a["dislodged"], b["dislodged"]
    for u in sorted(set(da) | set(db)):
        if u not in db:
            out.append(f"dislodged: {u} by dipgen only (retreats {sorted(da[u]) or 'none'})")
        elif u not in da:
            out.append(f"dislodged: {u} by the reference only (retreats {sorted(db[u]) or 'none'})")
        elif da[u] != db[u]:
            out.append(f"retreats of {u}: dipgen {sorted(da[u]) or 'none'}; reference {sorted(db[u]) or 'none'}")
    return out


#: The classes of disagreement known to be rule differences, each with its reason. A phase is
#: excluded from the agreement metric only when re-running dipgen with the reference's reading
#: of the named rule(s) gives exactly the reference's outcome (see `Classifier`).
KNOWN = {
    "civil-disorder":
        "reference deviates from DATC 3.0 4.D.8 / the 2023 rulebook: when a power orders too few removals "
        "it removes the units farthest from its HOME centres (fleets counting sea moves only); the 2023 "
        "rule measures to the nearest OWNED centre, armies and fleets both crossing land and sea",
    "convoy-fallback":
        "reference deviates from DATC 3.0 4.A.3 (6.G.8 as 3.0 reversed it): an army ordered to an adjacent "
        "province 'via convoy', or convoyed there by a fleet of its own power, moves only by convoy; when "
        "no complete chain of fleets is ordered to convoy it, the reference moves it over land instead "
        "(DATC 2.4's fallback)",
    "via-own-support":
        "reference bug (2023 rules, DATC 6.D.10-6.D.14: a power's support never helps dislodge its own "
        "unit): for a move written 'via convoy' it counts such a support, because game.py STEP 2 reads "
        "the destination as the last word of the move, which is 'VIA'",
    "disruption-own-support":
        "reference bug (2023 rules; DATC 6.D.10ff with convoys): it treats a convoying fleet as "
        "dislodged, disrupting the convoy, when the attack on it outnumbers it only with support from "
        "the fleet's own power, which cannot count towards dislodging it (_check_disruptions compares "
        "raw strengths)",
    "retreat-standoff":
        "reference bug (2023 rules, DATC 6.H.6 'unit may not retreat to a contested area'): a unit dislodged by "
        "a convoyed attack is offered provinces left empty by a standoff (operator precedence in "
        "_move_results: `not combat and where != attacker or convoyed`)",
}

class Classifier:
    """Names the rules behind a disagreement by re-running dipgen with the reference's reading of
    one or more rules (`KNOWN`); the smallest set whose outcome equals the reference's is the class."""

    MOVEMENT_RULES = ("convoy-fallback", "via-own-support", "disruption-own-support", "retreat-standoff")

    def classify(self, cp: CorpusPhase, ref: dict) -> str | None:
        from itertools import combinations

        if cp.kind == ADJUSTMENTS:
            if dipgen_outcome(cp, self._adjust_with_home_distance(cp)) == ref:
                return "civil-disorder"
            return None
        if cp.kind != MOVEMENT:
            return None
        for n in (1, 2, 3):
            for rules in combinations(self.MOVEMENT_RULES, n):
                alt = self.movement_as_reference(cp, set(rules))
                if alt is not None and alt == ref:
                    return " + ".join(rules)
        return None

    # -- adjustments: the reference's civil-disorder order
    def _adjust_with_home_distance(self, cp: CorpusPhase):
        from dipgen.engine import adjustments as mod

        saved = mod.civil_disorder_order

        def by_home(board, units, owned, kinds=None):
            homes = VARIANT.rules.home_centres(units[0].power) if units else ()
            dist = {u: _home_distance(u, homes) for u in units}
            return sorted(units, key=lambda u: (-dist[u], u.kind != "F", u.loc))

        mod.civil_disorder_order = by_home  # dipgen's module global, restored below
        try:
            pos = cp.position
            return adjudicate_adjustments(BOARD, pos.units, pos.owners, cp.orders, KINDS, VARIANT.rules.home_centres)
        finally:
            mod.civil_disorder_order = saved

    # -- movement
    def movement_as_reference(self, cp: CorpusPhase, rules: set[str]):
        from dipgen.engine.movement import retreat_options
        from dipgen.core.orders import Hold

        pos = cp.position
        orders = {p: list(os) for p, os in cp.orders.items()}
        units = list(pos.units)
        changed = False
        if "convoy-fallback" in rules:
            fallback = _fallback_moves(cp)
            if fallback:
                changed = True
                for p, os in orders.items():
                    orders[p] = [Move(o.unit, o.dest, False) if isinstance(o, Move) and o.unit.province in fallback
                                 else o for o in os
                                 if not (isinstance(o, Convoy) and o.target.province in fallback)]
        if "disruption-own-support" in rules:
            hit = set()
            for p, os in orders.items():
                for o in os:
                    if isinstance(o, Support) and o.dest is not None:
                        there = pos.occupant(province_of(o.dest), KINDS)
                        mover = pos.occupant(o.target.province, KINDS)
                        if (there is not None and there.power == p and mover is not None and mover.power != p
                                and BOARD.provinces[there.province].is_sea):
                            hit.add(there.province)
            for p, os in orders.items():
                new = [Hold(o.unit) if isinstance(o, Convoy) and o.unit.province in hit else o for o in os]
                changed |= new != os
                orders[p] = new
        if "via-own-support" in rules:
            changed = True
            out = _ViaOwnSupport(BOARD, KINDS, units, orders).run()
        else:
            out = adjudicate_movement(BOARD, units, orders, KINDS)
        result = dipgen_outcome(cp, out)
        if "retreat-standoff" in rules:
            after = {u.province for u in out.units}
            dis = {}
            for d in list(out.dislodged) + list(out.destroyed):
                key = f"{ref_power(d.unit.power)} {ref_unit(d.unit)}"
                opts = frozenset(_retreat_options(d))
                if _convoyed_attack(cp, d.attacker_from, d.unit.province):
                    alt = retreat_options(BOARD, KINDS, d.unit, d.attacker_from, True, after, ())
                    if frozenset(ref_loc(x) for x in alt) != opts:
                        changed = True
                    opts = frozenset(ref_loc(x) for x in alt)
                dis[key] = opts
            result = {"units": result["units"], "dislodged": dis}
        return result if changed else None


class _ViaOwnSupport(_Movement):
    """dipgen's resolver with the reference's reading of supports for a move written 'via convoy':
    a support from the defender's own power counts (diplomacy 1.1.2's STEP 2 bug)."""

    def attack(self, o):
        if not (isinstance(o.given, Move) and o.given.via_convoy):
            return super().attack(o)
        if not self.path(o):
            return 0
        there = self.occupant.get(o.dest)
        if there is not None and there.power == o.power and not (there.kind == "move" and self.resolve(there.key)):
            return 0
        return self.strength(o.unit) + self.support_total(o)


def _convoyed_attack(cp: CorpusPhase, src: str, dest: str) -> bool:
    """Did the army from `src` attack `dest` by convoy (as the 2023 rules read its orders)?"""
    u = cp.position.occupant(src, KINDS)
    if u is None or u.kind != "A":
        return False
    for p, os in cp.orders.items():
        for o in os:
            if isinstance(o, Move) and o.unit.province == src and province_of(o.dest) == dest:
                if o.via_convoy or dest not in BOARD.army_adj.get(src, ()):
                    return True
            if (isinstance(o, Convoy) and p == u.power and o.target.province == src
                    and province_of(o.dest) == dest):
                return True
    return False


def _fallback_moves(cp: CorpusPhase) -> set[str]:
    """Armies the 2023 rules send by convoy to an adjacent province ('via convoy', or an own fleet
    convoying) while no complete chain of fleets is ordered to convoy them."""
    pos = cp.position
    convoys = defaultdict(set)  # (army province, dest) -> seas ordered to convoy it there
    for os in cp.orders.values():
        for o in os:
            if isinstance(o, Convoy) and BOARD.provinces[o.unit.province].is_sea:
                convoys[(o.target.province, province_of(o.dest))].add(o.unit.province)
    out = set()
    for os in cp.orders.values():
        for o in os:
            u = pos.occupant(o.unit.province, KINDS)
            if not (isinstance(o, Move) and u is not None and u.kind == "A"):
                continue
            dest = province_of(o.dest)
            if dest not in BOARD.army_adj.get(u.province, ()):
                continue
            seas = convoys.get((u.province, dest), set())
            own = any(pos.occupant(s, KINDS) is not None and pos.occupant(s, KINDS).power == u.power for s in seas)
            if (o.via_convoy or own) and not _chain(u.province, dest, seas):
                out.add(u.province)
    return out


def _touches(sea: str, prov: str) -> bool:
    nbrs = BOARD.fleet_adj.get(sea, ())
    return any(loc in nbrs for loc in BOARD.fleet_locations(prov))


def _chain(src: str, dest: str, seas: set[str]) -> bool:
    """Is there a chain of the given seas from src to dest?"""
    todo = [s for s in seas if _touches(s, src)]
    seen = set(todo)
    while todo:
        s = todo.pop()
        if _touches(s, dest):
            return True
        for t in seas:
            if t not in seen and _touches(s, t):
                seen.add(t)
                todo.append(t)
    return False


def _home_distance(unit, homes) -> int:
    """The reference's distance (diplomacy 1.1.2 `_get_distance_to_home`): armies over land and
    sea, fleets only where a fleet may move."""
    from collections import deque

    start = unit.loc
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        loc, d = queue.popleft()
        if province_of(loc) in homes:
            return d
        if unit.kind == "A":
            nxt = set(BOARD.neighbours(province_of(loc)))
            nxt |= {place for p in list(nxt) for place in BOARD.fleet_locations(p)}
        else:
            nxt = set(BOARD.fleet_adj.get(loc, ()))
        for n in nxt:
            if n not in seen:
                seen.add(n)
                queue.append((n, d + 1))
    return 99999


# ---------------------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--years", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=7, help="timed runs of dipgen (median reported)")
    ap.add_argument("--ref-repeat", type=int, default=5, help="timed runs of the reference (median reported)")
    ap.add_argument("--show", type=int, default=8, help="disagreements shown in full per class")
    ap.add_argument("--no-reference", action="store_true", help=NO_REFERENCE_HELP)
    args = ap.parse_args(argv)

    ref_version = reference_version(args.no_reference)

    t = time.perf_counter()
    corpus = build_corpus(args.games, args.years, args.seed)
    print(f"corpus: {summary(corpus)} (built in {time.perf_counter() - t:.1f} s, not timed)")
    phases = corpus.phases
    n = len(phases)
    texts = [{p: [o.format(BOARD) for o in os] for p, os in cp.orders.items()} for cp in phases]
    rtexts = [ref_orders(cp) for cp in phases]

    # warm-up (imports, caches, the reference's convoy-path table)
    for cp, ro in list(zip(phases, rtexts, strict=True))[:30]:
        dipgen_adjudicate(cp)
        if ref_version:
            reference_adjudicate(reference_game(cp), ro)

    # interleaved rounds, so that a busy moment of the machine hits both engines alike
    d_runs, dt_runs, r_runs, r_outcomes = [], [], [], []
    for r in range(max(args.repeat, args.ref_repeat)):
        if r < args.repeat:
            d_runs += time_dipgen(phases, 1)
            dt_runs += time_dipgen_from_text(phases, texts, 1)
        if r < args.ref_repeat and ref_version:
            runs, outs = time_reference(phases, rtexts, 1, keep_first=not r_outcomes)
            r_runs += runs
            r_outcomes = r_outcomes or outs
    datc_runs, datc_line = time_datc(max(5, args.repeat))

    d_med = statistics.median(d_runs)
    dt_med = statistics.median(dt_runs)
    datc_result = (f"\nDATC 3.0 suite ({DATC_FILE.relative_to(ROOT)}): {datc_line}; "
                   f"{1000 * statistics.median(datc_runs):.0f} ms (median of {len(datc_runs)} runs, parsing included)")
    print(f"\nmachine: {cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"phases: {n}")
    print(f"dipgen:    {n / d_med:9.0f} phases/s  ({1000 * d_med / n:.3f} ms/phase; median of {len(d_runs)} runs)")
    if not ref_version:
        print(f"  with order text parsing: {n / dt_med:.0f} phases/s")
        clf = Classifier()  # its emulations of the reference's rules run; their verdicts need the reference
        for cp in phases:
            clf.classify(cp, dipgen_outcome(cp, dipgen_adjudicate(cp)))
        print("reference: not run (--no-reference)" + datc_result)
        return 0 if datc_line.endswith(" 0 failed") else 1
    r_med = statistics.median(r for r, _ in r_runs)
    rp_med = statistics.median(p for _, p in r_runs)
    print(f"reference: diplomacy {ref_version} (Game.set_orders + Game.process; the game is set up untimed)")
    print(f"reference: {n / r_med:9.0f} phases/s  ({1000 * r_med / n:.3f} ms/phase; median of {len(r_runs)} runs)")
    print(f"dipgen is {r_med / d_med:.1f}x the reference")
    print(f"  with order text parsing in dipgen's time: {n / dt_med:.0f} phases/s, {r_med / dt_med:.1f}x the reference")
    print(f"  against the reference's Game.process alone: {n / rp_med:.0f} phases/s, {rp_med / d_med:.1f}x")
    by_kind = Counter(cp.kind for cp in phases)
    print("  phases by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())))

    # ---- agreement
    clf = Classifier()
    agree = 0
    classes: dict[str, list] = defaultdict(list)
    for i, (cp, ref) in enumerate(zip(phases, r_outcomes, strict=True)):
        mine = dipgen_outcome(cp, dipgen_adjudicate(cp))
        if mine == ref:
            agree += 1
            continue
        cls = clf.classify(cp, ref) or "unexplained"
        classes[cls].append((i, cp, mine, ref))
    def is_known(cls: str) -> bool:
        return all(part in KNOWN for part in cls.split(" + "))

    known = sum(len(v) for k, v in classes.items() if is_known(k))
    print(f"\nagreement: {agree}/{n} phases identical ({100 * agree / n:.1f}%)")
    if known:
        print(f"agreement excluding known rule differences: {agree}/{n - known} "
              f"({100 * agree / max(1, n - known):.1f}%); excluded {known}:")
        for k, v in classes.items():
            if is_known(k):
                print(f"  {len(v):4d} {k}")
        print("  where:")
        for part in sorted({p for k in classes if is_known(k) for p in k.split(" + ")}):
            print(f"    {part}: {KNOWN[part]}")
    other = {k: v for k, v in classes.items() if not is_known(k)}
    if other:
        print(f"not excluded: {sum(len(v) for v in other.values())} disagreement(s) (see below)")
    for k, v in classes.items():
        print(f"\n=== {k}: {len(v)} phase(s)" + ("" if is_known(k) else " -- NOT a known rule difference"))
        for i, cp, mine, ref in v[: args.show]:
            print(f"  #{i} game {cp.game} {cp.phase.name}:")
            for line in diff_outcomes(mine, ref):
                print(f"    {line}")
            print("    position:")
            print(fmt_position(cp))
            print("    orders:")
            print(fmt_orders(cp))

    print(datc_result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
