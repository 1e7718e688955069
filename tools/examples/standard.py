"""The standard game: everyone sees the board, so the press may talk about all of it.

The standard game's simulation is `sim.Sim` itself; its press and notes are `StandardComposer`,
drawing on data/press/standard.yml.
"""

from __future__ import annotations

from dipgen.core.board import province_of
from dipgen.core.results import Kind
from dipgen.core.orders import Move, Support
from dipgen.core.position import Position

from .board import HOME, occupant, place_name, reaches, units_of
from .press import _count_word, Composer
from .sim import PhaseLog


def movement_events(log: PhaseLog) -> dict:
    """What a movement phase did, in the terms press talks about."""
    ev = {"dislodged": [], "bounces": [], "convoys": [], "thanks": []}
    for d in list(log.dislodged) + list(log.destroyed):
        ev["dislodged"].append((d.unit.power, d.by_power, d.unit.province))
    moved_ok = {}
    for r in log.results:
        if isinstance(r.order, Move) and r.unit is not None:
            moved_ok[r.unit.province] = r.succeeded
            if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, province_of(r.order.dest)):
                ev["convoys"].append((r.power, province_of(r.order.dest)))
            for n in r.notes:
                if n.kind is Kind.BOUNCE:
                    for u in n.against:
                        other = occupant(log.before, u.province)
                        theirs = next((o for o in log.orders.get(other.power, []) if other is not None
                                       and o.unit.province == other.province), None) if other else None
                        standoff = isinstance(theirs, Move) and province_of(theirs.dest) == province_of(r.order.dest)
                        if other is not None and other.power != r.power and standoff and r.power < other.power:
                            ev["bounces"].append((r.power, other.power, province_of(r.order.dest)))
    for r in log.results:
        if isinstance(r.order, Support) and r.order.dest and r.succeeded:
            target = occupant(log.before, r.order.target.province)
            if target is not None and target.power != r.power and moved_ok.get(target.province):
                ev["thanks"].append((target.power, r.power, r.order.dest))
    return ev


class StandardComposer(Composer):
    """Press and notes for a standard game: what happened on the board, as everyone saw it."""

    family = "standard"
    public_board = True

    def stab_place(self, log: PhaseLog, pos: Position, a: str, b: str) -> str:
        return self.stab_target(log, a, b) or self.border(pos, a, b)

    def stab_target(self, log: PhaseLog, a: str, b: str) -> str | None:
        """Where `a` attacked `b` in `log`, if it did."""
        for o in log.orders.get(a, []):
            if isinstance(o, Move):
                prov = province_of(o.dest)
                occ = occupant(log.before, prov)
                if (occ is not None and occ.power == b) or log.before.owners.get(prov) == b:
                    return prov
        return None

    def news_press(self, j: int, pos: Position, alive: list, cands: list):
        w, rng = self.w, self.rng
        ev = movement_events(self.sim.log[j])
        for victim, attacker, prov in ev["dislodged"]:
            if units_of(pos, victim) and rng.random() < 0.5:
                cands.append((3 + rng.random(), w.press("dislodged", victim, attacker, prov=place_name(prov))))
        for a, b, prov in ev["bounces"][:2]:
            if rng.random() < 0.35:
                cands.append((2 + rng.random(), w.press("bounce", a, b, prov=place_name(prov))))
        for p, prov in ev["convoys"][:1]:
            cands.append((4 + rng.random(), w.press("convoy", p, "All", prov=place_name(prov))))
        for mover, helper, prov in ev["thanks"][:1]:
            if rng.random() < 0.7:
                cands.append((4 + rng.random(), w.press("thanks", mover, helper, prov=place_name(prov))))
        return ev

    def propaganda_press(self, ev, pos: Position, cands: list) -> None:
        if (ev["dislodged"] or ev["convoys"]) and self.rng.random() < 0.3:
            who, prov = (ev["dislodged"][0][1], ev["dislodged"][0][2]) if ev["dislodged"] else ev["convoys"][0]
            if units_of(pos, who):
                cands.append((3.5, self.w.press("propaganda", who, prov=place_name(prov))))

    def centre_press(self, i: int, j: int | None, pos: Position, alive: list, cands: list) -> None:
        w, rng = self.w, self.rng
        prev = self.sim.log[j:i] if j is not None else []
        changes = [c for lg in prev for c in lg.changes]
        gained = [(c, old, new) for c, old, new in changes if old is not None]
        for c, old, new in gained[:3]:
            if rng.random() < 0.5:
                cands.append((3 + rng.random(), w.press("boast", new, old, prov=place_name(c))))
            elif units_of(pos, old):
                cands.append((3 + rng.random(), w.press("lost_centre", old, new, prov=place_name(c))))

    def filler_press(self, pos: Position, alive: list, cands: list) -> None:
        w, rng = self.w, self.rng
        while len(cands) < 2:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("quiet", p, self.neighbour(p, pos))))
        if rng.random() < 0.4:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("quiet", p, self.neighbour(p, pos))))

    def build_slots(self, power: str, n: int, pos: Position) -> dict:
        home = [c for c in sorted(HOME[power]) if pos.owners.get(c) == power]
        units = "One new unit" if n == 1 else f"{_count_word(n)} new units"
        return {"units": units, "prov": place_name(self.rng.choice(home))}

    def farewell_to(self, power: str, pos: Position) -> str:
        return self.last_taker(power) or "All"

    def last_taker(self, power: str) -> str | None:
        for log in reversed(self.sim.log):
            for _centre, old, new in log.changes:
                if old == power:
                    return new
        return None

    def asides(self, log: PhaseLog, i: int) -> list:
        w, rng = self.w, self.rng
        out = []
        if i == 1 or (rng.random() < 0.08):
            out.append(w.note("press"))
        if rng.random() < 0.12:
            out.append(w.note("misc_winter" if log.phase.kind == "adjustments" else "misc"))
        return out

    def draw_press(self, log: PhaseLog, powers: list) -> list:
        items = []
        for p in self.rng.sample(powers, 2):
            items.append(self.w.press("endgame", p, self.rng.choice([x for x in powers if x != p]),
                                      **self.home_where(p)))
        return items
