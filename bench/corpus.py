"""Shared helpers for the benchmarks: a seeded random player over dipgen's engine, the
corpus of phases it plays, a writer that turns a corpus game into a dipgen game folder,
and the conversion of positions and orders to the reference engine's notation
(``diplomacy==1.1.2``; the conversion is plain strings, so this module never imports it).

    corpus = build_corpus(games=40, years=20, seed=1)
    corpus.phases        # [CorpusPhase(game, position, orders by power), ...] in play order
    write_game(corpus, 0, "/tmp/g0")   # game.yml + one YAML file per phase

The player is deliberately sloppy, as real players are: holds, moves to neighbours,
supports of neighbouring units' moves and holds (mostly of moves that were really
ordered), convoys wherever a fleet at sea lies next to a coastal army (chains of up to
three fleets, own and foreign, and moves to adjacent provinces with and without
"via convoy"), a few illegal or void orders, the odd missed phase (NMR), random retreats
and disbands, builds, waives and too few removals (civil disorder). It never gives two
orders to one unit nor orders another power's unit: a game folder with those is an
error for `dipgen check`, and the corpus must replay from its folders.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from dipgen.core.board import Board, province_of
from dipgen.play.step import end_of_season, skip_empty
from dipgen.core.orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, UnitRef, Waive
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.core.position import Position, Unit
from dipgen.variants import get_variant


@dataclass(frozen=True)
class CorpusPhase:
    game: int
    position: Position                     # the position the orders are given in
    orders: Mapping[str, tuple[Order, ...]]  # power -> orders, in the order written (absent: NMR)

    @property
    def phase(self) -> Phase:
        return self.position.phase

    @property
    def kind(self) -> str:
        return self.position.phase.kind


@dataclass
class Corpus:
    seed: int
    phases: list[CorpusPhase] = field(default_factory=list)
    winners: dict[int, str] = field(default_factory=dict)  # game -> solo winner, where one won

    def game(self, index: int) -> list[CorpusPhase]:
        return [p for p in self.phases if p.game == index]

    @property
    def games(self) -> list[int]:
        return sorted({p.game for p in self.phases})


# ---------------------------------------------------------------------------- the player
class RandomPlayer:
    """Orders for every power in a phase, from a seeded `random.Random`."""

    def __init__(self, board: Board, rng: random.Random, nmr: float = 0.03, illegal: float = 0.04):
        self.b, self.rng, self.nmr, self.illegal = board, rng, nmr, illegal
        self.coastal = [p for p, info in board.provinces.items() if info.type == "coast"]
        self.seas = {p for p, info in board.provinces.items() if info.type == "sea"}

    # --- helpers
    def ref(self, u: Unit) -> UnitRef:
        return UnitRef(u.kind, u.loc)

    def unit_moves(self, u: Unit) -> list[str]:
        """Locations the unit can move to directly."""
        if u.kind == "A":
            return sorted(self.b.army_adj.get(u.province, ()))
        return sorted(self.b.fleet_adj.get(u.loc, ()))

    def reaches(self, u: Unit, prov: str) -> bool:
        if u.kind == "A":
            return prov in self.b.army_adj.get(u.province, ())
        nbrs = self.b.fleet_adj.get(u.loc, ())
        return any(loc in nbrs for loc in self.b.fleet_locations(prov))

    def sea_next_to(self, sea: str, prov: str) -> bool:
        nbrs = self.b.fleet_adj.get(sea, ())
        return any(loc in nbrs for loc in self.b.fleet_locations(prov))

    def convoy_routes(self, army: Unit, fleets_at_sea: dict[str, Unit],
                      max_len: int = 3) -> list[tuple[str, list[str]]]:
        """(destination, fleets on the route) for convoys of `army` over fleets now at sea."""
        src = army.province
        out: dict[str, list[str]] = {}
        start = [s for s in fleets_at_sea if self.sea_next_to(s, src)]
        queue = deque([[s] for s in start])
        while queue:
            path = queue.popleft()
            last = path[-1]
            for dest in self.coastal:
                if dest != src and self.sea_next_to(last, dest) and dest not in out:
                    out[dest] = list(path)
            if len(path) < max_len:
                for s in fleets_at_sea:
                    if s not in path and self.sea_next_to(last, s):
                        queue.append(path + [s])
        return sorted(out.items())

    # --- movement
    def movement(self, pos: Position) -> dict[str, tuple[Order, ...]]:
        rng, b = self.rng, self.b
        units = list(pos.units)
        by_prov = {u.province: u for u in units}
        fleets_at_sea = {u.province: u for u in units if u.kind == "F" and u.province in self.seas}
        decided: dict[str, Order] = {}

        # 1. convoys first, so that they happen often enough to matter
        armies = [u for u in units if u.kind == "A" and b.provinces[u.province].is_coastal]
        rng.shuffle(armies)
        for a in armies:
            if rng.random() > 0.45:
                continue
            free = {p: f for p, f in fleets_at_sea.items() if p not in decided}
            routes = self.convoy_routes(a, free)
            if not routes:
                continue
            dest, path = rng.choice(routes)
            adjacent = self.reaches(a, dest)
            via = adjacent and rng.random() < 0.5 or (not adjacent and rng.random() < 0.2)
            decided[a.province] = Move(self.ref(a), dest, via)
            for s in path:
                f = fleets_at_sea[s]
                # own fleets convoy; foreign ones mostly do (a convoy arranged by diplomacy)
                if f.power == a.power and rng.random() < 0.92 or f.power != a.power and rng.random() < 0.6:
                    decided[s] = Convoy(self.ref(f), self.ref(a), dest)

        # 2. every other unit: hold, move, support, or something illegal
        rest = [u for u in units if u.province not in decided]
        rng.shuffle(rest)
        for u in rest:
            r = rng.random()
            if r < self.illegal:
                decided[u.province] = self.illegal_order(u, pos)
            elif r < 0.16:
                decided[u.province] = Hold(self.ref(u))
            elif r < 0.62:
                decided[u.province] = self.move(u)
            else:
                decided[u.province] = self.support(u, by_prov, decided) or self.move(u)

        out: dict[str, list[Order]] = {}
        for u in units:
            out.setdefault(u.power, []).append(decided[u.province])
        return self.finish(out)

    def move(self, u: Unit) -> Order:
        dests = self.unit_moves(u)
        if not dests:
            return Hold(self.ref(u))
        dest = self.rng.choice(dests)
        if u.kind == "F" and "/" in dest and self.rng.random() < 0.3:
            dest = province_of(dest)  # coast left out: fine when only one coast is reachable
        return Move(self.ref(u), dest)

    def support(self, u: Unit, by_prov: Mapping[str, Unit], decided: Mapping[str, Order]) -> Order | None:
        rng, b = self.rng, self.b
        near = sorted(b.neighbours(u.province))
        # supports of moves already ordered into a province this unit can reach
        matching = []
        for prov, o in decided.items():
            if isinstance(o, Move) and prov != u.province:
                d = province_of(o.dest)
                if d != u.province and self.reaches(u, d):
                    matching.append((by_prov[prov], o.dest))
        holds = [by_prov[p] for p in near if p in by_prov and self.reaches(u, p)]
        if matching and rng.random() < 0.7:
            target, dest = rng.choice(matching)
            dest = dest if rng.random() < 0.5 else province_of(dest)
            return Support(self.ref(u), self.ref(target), dest)
        if holds and rng.random() < 0.5:
            return Support(self.ref(u), self.ref(rng.choice(holds)))
        # a guess: support a unit two steps away into a province both can reach
        cands = []
        for p in near:
            if p == u.province or not self.reaches(u, p):
                continue
            for q in sorted(b.neighbours(p)):
                t = by_prov.get(q)
                if t is not None and t is not u and self.reaches(t, p):
                    cands.append((t, p))
        if cands:
            t, p = rng.choice(cands)
            return Support(self.ref(u), self.ref(t), p)
        return None

    def illegal_order(self, u: Unit, pos: Position) -> Order:
        rng, b = self.rng, self.b
        kind = rng.randrange(5)
        provs = sorted(b.provinces)
        if kind == 0:  # move to a province far away
            return Move(self.ref(u), rng.choice(provs))
        if kind == 1:  # support of a unit that is not there
            empty = [p for p in provs if not pos.units_at(p)]
            return Support(self.ref(u), UnitRef("A", rng.choice(empty)), rng.choice(provs))
        if kind == 2:  # a convoy by anyone, of anyone
            other = rng.choice(pos.units)
            return Convoy(self.ref(u), self.ref(other), rng.choice(self.coastal))
        if kind == 3:  # an army to sea, a fleet inland
            if u.kind == "A":
                return Move(self.ref(u), rng.choice(sorted(self.seas)))
            land = [p for p, i in b.provinces.items() if i.type == "land"]
            return Move(self.ref(u), rng.choice(land))
        # support of a move the supported unit cannot make
        other = rng.choice(pos.units)
        return Support(self.ref(u), self.ref(other), rng.choice(provs))

    def finish(self, out: Mapping[str, list[Order]]) -> dict[str, tuple[Order, ...]]:
        """Drop the powers that miss this phase (NMR)."""
        return {p: tuple(os) for p, os in out.items() if self.rng.random() >= self.nmr}

    # --- retreats
    def retreats(self, pos: Position) -> dict[str, tuple[Order, ...]]:
        rng = self.rng
        out: dict[str, list[Order]] = {}
        for d in pos.dislodged:
            r = rng.random()
            ref = self.ref(d.unit)
            if r < 0.72 and d.retreats:
                order: Order | None = Retreat(ref, rng.choice(d.retreats))
            elif r < 0.80:
                order = Retreat(ref, rng.choice(self.unit_moves(d.unit) or [d.unit.loc]))  # maybe not allowed
            elif r < 0.92:
                order = Disband(ref)
            else:
                order = None
            if order is not None:
                out.setdefault(d.unit.power, []).append(order)
        return self.finish(out)

    # --- adjustments
    def adjustments(self, pos: Position, counts: Mapping[str, int], homes) -> dict[str, tuple[Order, ...]]:
        rng, b = self.rng, self.b
        out: dict[str, list[Order]] = {}
        occupied = {u.province for u in pos.units}
        for power, n in sorted(counts.items()):
            orders: list[Order] = []
            if n > 0:
                free = [c for c in homes(power) if pos.owners.get(c) == power and c not in occupied]
                rng.shuffle(free)
                k = n if rng.random() < 0.8 else rng.randint(0, n)
                for c in free[:k]:
                    if rng.random() < 0.08:
                        orders.append(Waive())
                        continue
                    p = b.provinces[c]
                    if p.type == "coast" and rng.random() < 0.4:
                        loc = f"{c}/{rng.choice(p.coasts)}" if p.coasts else c
                        orders.append(Build(UnitRef("F", loc)))
                    else:
                        orders.append(Build(UnitRef("A", c)))
            else:
                mine = [u for u in pos.units if u.power == power]
                rng.shuffle(mine)
                k = -n if rng.random() < 0.8 else rng.randint(0, -n)
                orders = [Remove(self.ref(u)) for u in mine[:k]]
            if orders:
                out[power] = orders
        return self.finish(out)


# ---------------------------------------------------------------------------- playing games
def play_game(index: int, seed: int, years: int = 20, variant=None) -> tuple[list[CorpusPhase], str | None]:
    """One game of `years` years by the random player; stepped as `dipgen.play.replay.replay` folds them."""
    variant = variant or get_variant("standard")
    rng = random.Random(f"{seed}:{index}")
    player = RandomPlayer(variant.rules.board, rng)
    position = variant.rules.start()
    end_year = position.phase.year + years
    phases: list[CorpusPhase] = []
    winner = None
    while position.phase.year < end_year:
        phase = position.phase
        if phase.kind == MOVEMENT:
            orders = player.movement(position)
            phases.append(CorpusPhase(index, position, orders))
            out = variant.rules.movement(position, orders)
            after = Position(Phase(phase.year, phase.season_index, True), out.units, position.owners, out.dislodged)
            if not out.dislodged:
                after = end_of_season(variant, after)[0]
        elif phase.kind == RETREATS:
            orders = player.retreats(position)
            phases.append(CorpusPhase(index, position, orders))
            out = variant.rules.retreats(position, orders)
            after = end_of_season(variant, Position(phase, out.units, position.owners))[0]
        else:
            counts = variant.rules.adjustment_counts(position)
            orders = player.adjustments(position, counts, variant.rules.home_centres)
            phases.append(CorpusPhase(index, position, orders))
            out = variant.rules.adjustments(position, orders)
            after = Position(Phase(phase.year + 1, 0), out.units, position.owners)
        position = after
        if phase.season_index == 1 and position.phase.season_index == 2:
            winner = variant.rules.winner(position)
            if winner:
                break
        position = skip_empty(variant, position)
    return phases, winner


def build_corpus(games: int = 40, years: int = 20, seed: int = 1) -> Corpus:
    """`games` games of up to `years` years each, deterministic from `seed`."""
    variant = get_variant("standard")
    corpus = Corpus(seed)
    for i in range(games):
        phases, winner = play_game(i, seed, years, variant)
        corpus.phases.extend(phases)
        if winner:
            corpus.winners[i] = winner
    return corpus


# ---------------------------------------------------------------------------- game folders
def write_game(corpus: Corpus, index: int, path: str | Path, title: str | None = None) -> Path:
    """Write game `index` of the corpus as a dipgen game folder (game.yml + a file per phase)."""
    variant = get_variant("standard")
    board = variant.rules.board
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.yml"):
        old.unlink()
    game = {
        "title": title or f"Bench corpus game {index} (seed {corpus.seed})",
        "variant": "standard",
        "gm": "bench/corpus.py",
        "players": {p: f"Random player {j + 1}" for j, p in enumerate(variant.rules.powers())},
        "description": "Played by the seeded random player of bench/corpus.py.",
    }
    (path / "game.yml").write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    for cp in corpus.game(index):
        orders = {p: [o.format(board) for o in os] for p, os in cp.orders.items()}
        if not orders:  # nobody ordered: the loader asks for the powers that could have, each with []
            could = {u.power for u in cp.position.units} | {d.unit.power for d in cp.position.dislodged}
            orders = {p: [] for p in variant.rules.powers() if p in could}
        (path / f"{cp.phase.slug}.yml").write_text(yaml.safe_dump({"orders": orders}, sort_keys=False),
                                                   encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- the reference itself
NO_REFERENCE_HELP = "measure dipgen alone, without the reference installed (CI runs every benchmark so)"


def reference_version(no_reference: bool) -> str | None:
    """The installed reference's version, or None when dipgen is measured alone (`--no-reference`).
    Without the reference and without that option, says how to install it and exits (status 2)."""
    if no_reference:
        return None
    try:
        from diplomacy.version import PACKAGE_VERSION
    except ImportError:
        print("the reference engine is not installed: see bench/README.md (pip install -r bench/requirements.txt), "
              "or measure dipgen alone with --no-reference")
        raise SystemExit(2) from None
    return PACKAGE_VERSION


# ---------------------------------------------------------------------------- the reference's notation
def ref_loc(loc: str) -> str:
    """dipgen ``spa/nc`` -> reference ``SPA/NC`` (the standard ids are the same three letters)."""
    return loc.upper()


def ref_power(power: str) -> str:
    return power.upper()


def ref_unit(u: Unit) -> str:
    return f"{u.kind} {ref_loc(u.loc)}"


def ref_phase(phase: Phase) -> str:
    """``S1901M``, ``F1901R``, ``W1901A``."""
    return f"{'SFW'[phase.season_index]}{phase.year}{ {MOVEMENT: 'M', RETREATS: 'R', ADJUSTMENTS: 'A'}[phase.kind]}"


def ref_order(order: Order, position: Position) -> str:
    """One order in the reference's strict notation (``A LON - NWY VIA``, ``F NTH C A LON - NWY``,
    ``A MUN S A BUR - MAR``, ``A PAR B``, ``F TRI D``, ``WAIVE``). The unit's kind is taken from the
    board where the order leaves it out, as the reference expects it written."""
    def unit(r: UnitRef) -> str:
        kind = r.kind
        here = next(iter(position.units_at(r.province)), None)
        if here is not None:
            return ref_unit(here)
        return f"{kind or 'A'} {ref_loc(r.loc)}"

    if isinstance(order, Hold):
        return f"{unit(order.unit)} H"
    if isinstance(order, Move):
        return f"{unit(order.unit)} - {ref_loc(order.dest)}" + (" VIA" if order.via_convoy else "")
    if isinstance(order, Support):
        s = f"{unit(order.unit)} S {unit(order.target)}"
        return s + (f" - {ref_loc(order.dest)}" if order.dest else "")
    if isinstance(order, Convoy):
        return f"{unit(order.unit)} C {unit(order.target)} - {ref_loc(order.dest)}"
    if isinstance(order, Retreat):
        d = next((d for d in position.dislodged if d.unit.province == order.unit.province), None)
        u = ref_unit(d.unit) if d else f"{order.unit.kind} {ref_loc(order.unit.loc)}"
        return f"{u} R {ref_loc(order.dest)}"
    if isinstance(order, Disband):
        d = next((d for d in position.dislodged if d.unit.province == order.unit.province), None)
        u = ref_unit(d.unit) if d else f"{order.unit.kind} {ref_loc(order.unit.loc)}"
        return f"{u} D"
    if isinstance(order, Build):
        return f"{order.unit.kind} {ref_loc(order.unit.loc)} B"
    if isinstance(order, Remove):
        return f"{unit(order.unit)} D"
    if isinstance(order, Waive):
        return "WAIVE"
    raise TypeError(order)


def ref_orders(cp: CorpusPhase) -> dict[str, list[str]]:
    return {ref_power(p): [ref_order(o, cp.position) for o in os] for p, os in cp.orders.items()}


def summary(corpus: Corpus) -> str:
    kinds: dict[str, int] = {}
    convoys = via = 0
    for p in corpus.phases:
        kinds[p.kind] = kinds.get(p.kind, 0) + 1
        for os in p.orders.values():
            for o in os:
                convoys += isinstance(o, Convoy)
                via += isinstance(o, Move) and o.via_convoy
    parts = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    return (f"{len(corpus.phases)} phases in {len(corpus.games)} games ({parts}); "
            f"{convoys} convoy orders, {via} moves 'via convoy'; solo wins: {len(corpus.winners)}")


if __name__ == "__main__":
    import argparse
    import time

    ap = argparse.ArgumentParser(description="Build the bench corpus and optionally write games as folders.")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--years", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", metavar="DIR", help="write every game as DIR/game-NN/")
    args = ap.parse_args()
    t = time.perf_counter()
    c = build_corpus(args.games, args.years, args.seed)
    print(summary(c), f"({time.perf_counter() - t:.1f} s)")
    if args.write:
        from dipgen.io.gamefiles import load_game
        from dipgen.play.replay import replay

        for g in c.games:
            path = write_game(c, g, Path(args.write) / f"game-{g:02d}")
            # the folder must tell the game as it was played: each phase starts from the same units
            played = {r.phase: r.before.units for r in replay(load_game(path)).records}
            if any(played.get(cp.phase) != cp.position.units for cp in c.game(g)):
                raise SystemExit(f"{path} does not replay to the positions the game was played from")
            print(path)
