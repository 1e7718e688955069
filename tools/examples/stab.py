"""Stab! games: hidden movement, free placement, and press that keeps to the public report."""

from __future__ import annotations

from collections import Counter

from dipgen.core.board import province_of
from dipgen.core.results import Bounce, Kind
from dipgen.core.orders import Concealed, Convoy, Disband, Hold, Move, Support, UnitRef
from dipgen.core.phase import Phase
from dipgen.core.position import Position

from .board import BOARD, place_name, reaches, sea_touches, SEAS, units_of
from .checks import contact_kinds
from .hidden import HiddenComposer
from .sim import opening_position, PhaseLog, Sim


class StabSim(Sim):
    """A Stab! game: the players place their units, then play in the dark. Each loses track of
    foreign units now and then (`Script.fog`) and so blunders into them, and the scenes the
    reports must show (`Script.wants`) are set up on purpose if the bots have not produced them."""

    def start_position(self) -> Position:
        if not self.s.placement:
            return super().start_position()
        return opening_position(self.variant, {"placement": self.s.placement})

    def believed(self, pos: Position, power: str) -> Position:
        """What `power` thinks the board looks like: its own units, its allies' (they talk), foreign
        units in its own centres (the GM tells it), and each other foreign unit unless it has lost
        track of it."""
        if not self.s.fog:
            return pos
        mine = set(pos.centres_of(power))
        keep = [u for u in pos.units if u.power == power or self.rel.trusts(power, u.power) or u.province in mine
                or self.fog_rng.random() >= self.s.fog]
        return pos.with_(units=tuple(keep))

    def set_scenes(self, pos: Position, plans: dict) -> list:
        """For each feature the example still lacks (see `Script.wants`), look for a place on
        the board where two players' plans could plausibly produce it, and change those orders."""
        done = []
        for feature, since in self.s.wants.items():
            if pos.phase < Phase.from_slug(since) or self.shown[feature]:
                continue
            scene = getattr(self, f"scene_{feature}")(pos, plans)
            if scene:
                done.append((feature, *scene))
        return done

    def _mine_idle(self, plans, power: str, prov: str) -> bool:
        o = plans[power].orders.get(prov)
        return isinstance(o, (Hold, Support))

    def _undo_supports_of(self, plans, power: str, provs: set) -> None:
        for q, o in list(plans[power].orders.items()):
            if isinstance(o, Support) and o.target.province in provs:
                plans[power].orders[q] = Hold(o.unit)

    def _targets(self, plans) -> Counter:
        return Counter(province_of(o.dest) for plan in plans.values() for o in plan.orders.values()
                       if isinstance(o, Move))

    def scene_convoy_attacked(self, pos: Position, plans: dict):
        """An army crosses a sea to an empty coast, and a foreign fleet picks that season to attack
        the convoying fleet (it sees a convoy, not what is convoyed)."""
        occupied = {u.province: u for u in pos.units}
        targets = self._targets(plans)
        for power in sorted(plans):
            for f in sorted(units_of(pos, power), key=lambda u: u.loc):
                if f.kind != "F" or f.province not in SEAS or isinstance(plans[power].orders.get(f.province), Convoy):
                    continue
                # an enemy's fleet, or failing that a friend's that did not know what was there
                attackers = sorted((g for g in pos.units if g.power != power and g.power in plans and g.kind == "F"
                                    and reaches(g, f.province)),
                                   key=lambda g: (self.rel.trusts(g.power, power), g.loc))
                if not attackers:
                    continue
                for a in sorted(units_of(pos, power), key=lambda u: u.loc):
                    if a.kind != "A" or not sea_touches(f.province, a.province):
                        continue
                    dests = [d for d in sorted(BOARD.provinces) if d not in SEAS and d != a.province
                             and sea_touches(f.province, d) and d not in occupied and not targets[d]
                             and d not in BOARD.army_adj.get(a.province, ())]
                    if not dests:
                        continue
                    d, g = dests[0], attackers[0]
                    for q, o in list(plans[power].orders.items()):
                        if isinstance(o, Move) and province_of(o.dest) == d:
                            plans[power].orders[q] = Hold(o.unit)
                    self._undo_supports_of(plans, power, {a.province, f.province})
                    plans[power].orders[a.province] = Move(UnitRef("A", a.loc), d)
                    plans[power].orders[f.province] = Convoy(UnitRef("F", f.loc), UnitRef("A", a.loc), d)
                    self._undo_supports_of(plans, g.power, {g.province})
                    plans[g.power].orders[g.province] = Move(UnitRef(g.kind, g.loc), f.province)
                    return power, g.power, f.province
        return None

    def scene_self_standoff_shown(self, pos: Position, plans: dict):
        """Two of a power's units try for the same empty space, while a foreign unit attacks one of
        them where it stood: the report shows that one's self-standoff, not the other."""
        occupied = {u.province: u for u in pos.units}
        targets = self._targets(plans)
        for power in sorted(plans):
            for q, o in sorted(((q, o) for p2, plan in plans.items() if p2 != power for q, o in plan.orders.items()),
                               key=lambda t: t[0]):
                if not isinstance(o, Move):
                    continue
                u1 = occupied.get(province_of(o.dest))
                if u1 is None or u1.power != power or not self._mine_idle(plans, power, u1.province):
                    continue
                for u2 in sorted(units_of(pos, power), key=lambda u: u.loc):
                    if u2 == u1 or not self._mine_idle(plans, power, u2.province):
                        continue
                    xs = [x for x in sorted(BOARD.provinces) if x not in occupied and not targets[x]
                          and reaches(u1, x) and reaches(u2, x)]
                    if xs:
                        x = xs[0]
                        self._undo_supports_of(plans, power, {u1.province, u2.province})
                        for u in (u1, u2):
                            loc = (next(where for where in BOARD.fleet_locations(x)
                                        if where in BOARD.fleet_adj.get(u.loc, ()))
                                   if u.kind == "F" else x)
                            plans[power].orders[u.province] = Move(UnitRef(u.kind, u.loc), loc)
                        return power, occupied[q].power, x
        return None

    def observe(self, log: PhaseLog) -> None:
        if log.phase.kind == "movement":
            self.shown.update(contact_kinds(log))


def public_news(pub) -> dict:
    """What the public report of a movement phase (its public view) shows, in press terms."""
    ev = {k: [] for k in ("bounces", "held", "dislodged", "cut", "convoy_seen", "convoys", "thanks", "self")}
    shown = {}
    for r in pub.results:
        if r.unit is not None:
            shown[r.unit.province] = r
    for r in pub.results:
        o = r.order
        if isinstance(o, Move):
            dest = province_of(o.dest)
            for n in r.notes:
                if n.kind is not Kind.BOUNCE:
                    continue
                if n.reason is Bounce.SELF_STANDOFF:
                    ev["self"].append((r.power, dest))
                for u in n.against:
                    q = u.province
                    other = shown.get(q)
                    if other is None or other.power == r.power:
                        continue
                    if n.reason is Bounce.STANDOFF and isinstance(other.order, Move) \
                            and province_of(other.order.dest) == dest and r.power < other.power:
                        ev["bounces"].append((r.power, other.power, dest))
                    elif n.reason is Bounce.HELD and q == dest:
                        ev["held"].append((other.power, r.power, dest))
            if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, dest):
                ev["convoys"].append((r.power, dest))
        elif isinstance(o, Concealed):
            if o.verb == "S" and r.has(Kind.CUT):
                ev["cut"].append((r.power, r.unit.province))
            elif o.verb == "C":
                ev["convoy_seen"].append((r.power, r.unit.province))
        elif isinstance(o, Support):
            if o.dest and r.succeeded:
                target = shown.get(o.target.province)
                if target is not None and target.power != r.power and target.succeeded:
                    ev["thanks"].append((target.power, r.power, province_of(o.dest)))
    for d in pub.dislodged + pub.destroyed:
        ev["dislodged"].append((d.unit.power, d.by_power or "All", d.unit.province))
    return ev


class StabComposer(HiddenComposer):
    """Press and notes for a Stab! game: everything said in public keeps to the public report
    (dipgen's public view of each season), drawing on data/press/stab.yml."""

    family = "stab"
    quiet_retreats = 0.4
    all_in_note = 0.2

    def news_press(self, j: int, pos: Position, alive: list, cands: list):
        w, rng = self.w, self.rng
        ev = public_news(self.public[j])
        for victim, attacker, prov in ev["dislodged"][:2]:
            if units_of(pos, victim) and rng.random() < 0.6:
                cands.append((3 + rng.random(), w.press("dislodged", victim, attacker, prov=place_name(prov))))
            elif attacker != "All" and units_of(pos, attacker) and rng.random() < 0.5:
                cands.append((3 + rng.random(), w.press("dislodger", attacker, victim, prov=place_name(prov))))
        for a, b, prov in ev["bounces"][:2]:
            if rng.random() < 0.6:
                cands.append((3 + rng.random(), w.press("bounce", a, b, prov=place_name(prov))))
        for d, a, prov in ev["held"][:1]:
            if rng.random() < 0.4:
                cands.append((2 + rng.random(), w.press("held", d, a, prov=place_name(prov))))
        for p, prov in ev["cut"][:1]:
            others = [x for x in alive if x != p]
            if others and rng.random() < 0.6:
                cands.append((3 + rng.random(), w.press("cut", rng.choice(others), p, prov=place_name(prov))))
        for p, prov in ev["convoy_seen"][:1]:
            others = [x for x in alive if x != p]
            cands.append((4 + rng.random(), w.press("convoy_seen", rng.choice(others), p, prov=place_name(prov))))
        for p, prov in ev["convoys"][:1]:
            cands.append((4 + rng.random(), w.press("convoy", p, "All", prov=place_name(prov))))
        for mover, helper, prov in ev["thanks"][:1]:
            if rng.random() < 0.7:
                cands.append((4 + rng.random(), w.press("thanks", mover, helper, prov=place_name(prov))))
        for p, prov in ev["self"][:1]:
            others = [x for x in alive if x != p]
            cands.append((4 + rng.random(), w.press("self_standoff", rng.choice(others), p, prov=place_name(prov))))
        return ev

    def propaganda_press(self, ev, pos: Position, cands: list) -> None:
        w, rng = self.w, self.rng
        if ev["dislodged"] and rng.random() < 0.25:
            _, who, prov = ev["dislodged"][0]
            if who != "All" and units_of(pos, who):
                cands.append((3.5, w.press("propaganda", who, prov=place_name(prov))))

    def disbands_shown(self, i: int) -> list:
        return [r for r in self.public[i].results if isinstance(r.order, Disband)]
