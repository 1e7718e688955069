"""Stab! games: hidden movement, free placement, and press that keeps to the public report."""

from __future__ import annotations

import random
from collections import Counter

from dipgen.board import province_of
from dipgen.orders import Concealed, Convoy, Disband, Hold, Move, Support, UnitRef
from dipgen.phase import Phase
from dipgen.position import Position
from .board import BOARD, HOME, place_name, POWERS, reaches, sea_touches, SEAS
from .press import _and_words, _count_word, _public_name, ADJ, CAPITAL, Composer, STAB_NOTES, STAB_PRESS, Writer
from .checks import contact_kinds
from .sim import opening_position, PhaseLog, Sim

# ====================================================================== Stab!

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
            for f in sorted(pos.units_of(power), key=lambda u: u.loc):
                if f.kind != "F" or f.province not in SEAS or isinstance(plans[power].orders.get(f.province), Convoy):
                    continue
                # an enemy's fleet, or failing that a friend's that did not know what was there
                attackers = sorted((g for g in pos.units if g.power != power and g.power in plans and g.kind == "F"
                                    and reaches(g, f.province)),
                                   key=lambda g: (self.rel.trusts(g.power, power), g.loc))
                if not attackers:
                    continue
                for a in sorted(pos.units_of(power), key=lambda u: u.loc):
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
                for u2 in sorted(pos.units_of(power), key=lambda u: u.loc):
                    if u2 == u1 or not self._mine_idle(plans, power, u2.province):
                        continue
                    xs = [x for x in sorted(BOARD.provinces) if x not in occupied and not targets[x]
                          and reaches(u1, x) and reaches(u2, x)]
                    if xs:
                        x = xs[0]
                        self._undo_supports_of(plans, power, {u1.province, u2.province})
                        for u in (u1, u2):
                            loc = next(l for l in BOARD.fleet_locations(x) if l in BOARD.fleet_adj.get(u.loc, ())) \
                                if u.kind == "F" else x
                            plans[power].orders[u.province] = Move(UnitRef(u.kind, u.loc), loc)
                        return power, occupied[q].power, x
        return None

    def observe(self, log: PhaseLog) -> None:
        if log.phase.kind == "movement":
            self.shown.update(contact_kinds(log))


class StabWriter(Writer):
    def press(self, cat: str, me: str, you: str = "All", **slots) -> str:
        text = self.pick(STAB_PRESS, cat)
        line = text.format(me=CAPITAL.get(me, me), you=CAPITAL.get(you, you),
                           adj=ADJ.get(me, me), youadj=ADJ.get(you, you), **slots)
        head, _, body = line.partition(": ")
        return f"**{head}:** {body}" if self.style == "bold" else f"*{head}:* {body}"

    def note(self, cat: str, **slots) -> str:
        return self.pick(STAB_NOTES, cat).format(**slots)


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
                if n.kind != "bounce":
                    continue
                if n.why == "self-standoff":
                    ev["self"].append((r.power, dest))
                for q in n.against:
                    other = shown.get(q)
                    if other is None or other.power == r.power:
                        continue
                    if n.why == "standoff" and isinstance(other.order, Move) and province_of(other.order.dest) == dest \
                            and r.power < other.power:
                        ev["bounces"].append((r.power, other.power, dest))
                    elif n.why == "held" and q == dest:
                        ev["held"].append((other.power, r.power, dest))
            if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, dest):
                ev["convoys"].append((r.power, dest))
        elif isinstance(o, Concealed):
            if o.verb == "S" and r.has("cut"):
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


class StabComposer(Composer):
    """Press and notes for a Stab! game: everything said in public keeps to the public report."""

    def __init__(self, sim: Sim, history, rng: random.Random, style: str):
        super().__init__(sim, rng, style)
        from dipgen.visibility import view_record

        self.w = StabWriter(rng, style)
        self.public = [view_record(history, rec, "public") for rec in history.records]
        assert [r.phase for r in history.records] == [lg.phase for lg in sim.log]

    def compose(self) -> None:
        logs = self.sim.log
        last_move = None
        for i, log in enumerate(logs):
            if log.phase.kind == "movement":
                log.press = self.stab_movement_press(i, last_move)
                last_move = i
            elif log.phase.kind == "retreats":
                log.press = self.stab_retreat_press(i)
            else:
                log.press = self.stab_winter_press(log)
            log.notes = self.stab_notes(log, i)
        self.finish()

    def stab_movement_press(self, i: int, j: int | None) -> str:
        log = self.sim.log[i]
        pos = log.before
        w, rng = self.w, self.rng
        alive = [p for p in POWERS if pos.units_of(p)]
        cands = []
        if log.phase == Phase(1901, 0):
            for p in rng.sample(alive, 3):
                cands.append((5, w.press("opening", p, self.neighbour(p, pos))))
        for kind, a, b in log.events:
            prov = place_name(self.border(pos, a, b))
            if kind == "ally":
                cands.append((6, w.press("ally", a, b, prov=prov)))
            elif kind == "war":
                cands.append((6, w.press("war", a, b)))
            elif kind == "stab":
                cands.append((7, w.press("stab_lie", a, b, prov=prov)))
        if j is not None:
            last = self.sim.log[j]
            for kind, a, b in last.events:
                if kind == "stab":
                    cands.append((8, w.press("stab_outrage", b, a, year=pos.phase.year + 1)))
                    if rng.random() < 0.6:
                        cands.append((4, w.press("stab_excuse", a, b)))
            ev = public_news(self.public[j])
            for victim, attacker, prov in ev["dislodged"][:2]:
                if pos.units_of(victim) and rng.random() < 0.6:
                    cands.append((3 + rng.random(), w.press("dislodged", victim, attacker, prov=place_name(prov))))
                elif attacker != "All" and pos.units_of(attacker) and rng.random() < 0.5:
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
            if last.nmr and rng.random() < 0.8:
                p = last.nmr[0]
                q = self.neighbour(p, pos)
                if q != "All":
                    cands.append((3, w.press("nmr", q, p)))
            for p in POWERS:
                if last.before.units_of(p) and not pos.units_of(p) and not pos.centres_of(p):
                    cands.append((5, w.press("eulogy", rng.choice([x for x in alive if x != p]), p)))
            if ev["dislodged"] and rng.random() < 0.25:
                _, who, prov = ev["dislodged"][0]
                if who != "All" and pos.units_of(who):
                    cands.append((3.5, w.press("propaganda", who, prov=place_name(prov))))
        if pos.phase.season_index == 0 and pos.phase.year > 1901:
            # the centre totals published before the winter, against the year before
            now = pos.centre_counts(POWERS)
            before = self.totals_before(pos.phase.year - 1)
            ups = sorted((now[p] - before[p], p) for p in POWERS if now[p] > before[p])
            downs = sorted((now[p] - before[p], p) for p in POWERS if now[p] < before[p] and pos.units_of(p))
            if ups and rng.random() < 0.7:
                n, p = ups[-1]
                others = [x for x in alive if x != p]
                cands.append((3 + rng.random(), w.press("totals_up", rng.choice(others), p, n=_count_word(n).lower())))
            if downs and rng.random() < 0.5:
                n, p = downs[0]
                cands.append((3 + rng.random(), w.press("totals_down", p, n=_count_word(-n).lower())))
        counts = pos.centre_counts(POWERS)
        leader = max(POWERS, key=lambda p: (counts[p], p))
        if counts[leader] >= 10 and rng.random() < 0.6:
            other = self.neighbour(leader, pos)
            if other != "All":
                cands.append((5, w.press("leader", other, leader, n=counts[leader])))
        if self.s.draw_after:
            end = Phase.from_slug(self.s.draw_after)
            if end.year - pos.phase.year <= 1 and rng.random() < 0.6:
                p = rng.choice(alive)
                cands.append((4, w.press("draw", p, self.neighbour(p, pos))))
        while len(cands) < 2 or rng.random() < 0.35:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("rumour", p, self.neighbour(p, pos))))
        cands.sort(key=lambda c: -c[0])
        return self._join([t for _, t in cands[:rng.choice([2, 3, 3, 4])]])

    def finish(self) -> None:
        if self.sim.result is None:
            return self.standings()
        kind, powers = self.sim.result
        if kind == "solo":
            return super().finish()
        log = self.sim.log[-1]
        items = []
        for p in self.rng.sample(powers, 2):
            items.append(self.w.press("draw_end", p, "All", prov=place_name(sorted(HOME[p])[0])))
        out = [p for p in POWERS if p not in powers and log.after.centres_of(p)]
        if out:
            items.append(self.w.press("survivor", out[0], "All"))
        note = (f"The draw proposal ({_and_words(powers)}) passed unanimously. The game ends after "
                f"{log.phase.name}. Thank you all. The full game, every unit and every order, is now "
                "published beside the blind reports.")
        log.press = (log.press + "\n" if log.press else "") + self._join(items)
        log.notes = (log.notes + "\n" if log.notes else "") + note + "\n"

    def totals_before(self, year: int) -> dict:
        """The centre totals published before the winter of `year` (the opening ones before 1901)."""
        for log in self.sim.log:
            if log.phase.year == year and log.after.phase.kind == "adjustments":
                return log.after.centre_counts(POWERS)
        return self.sim.log[0].before.centre_counts(POWERS)

    def stab_retreat_press(self, i: int) -> str:
        log = self.sim.log[i]
        pub = self.public[i]
        if self.rng.random() < 0.4:
            return ""
        disbands = [r for r in pub.results if isinstance(r.order, Disband)]
        if disbands and self.rng.random() < 0.6:
            return self._join([self.w.press("disband", disbands[0].power)])
        d = log.before.dislodged[0]  # that it was dislodged, and by whom, was in the public report
        return self._join([self.w.press("dislodged", d.unit.power, d.by_power, prov=place_name(d.unit.province))])

    def stab_winter_press(self, log: PhaseLog) -> str:
        items = []
        pos = log.before
        for p, n in sorted(log.due.items(), key=lambda t: -abs(t[1])):
            if len(items) >= 2:
                break
            if n >= 2 or (n > 0 and self.rng.random() < 0.3):
                items.append(self.w.press("builds", p, self.neighbour(p, pos)))
            elif n < 0 and p not in log.nmr and self.rng.random() < 0.6:
                items.append(self.w.press("removals", p, self.neighbour(p, pos)))
        for p in POWERS:
            if pos.units_of(p) and not pos.centres_of(p) and self.rng.random() < 0.9:
                items.append(self.w.press("eliminated", p, self.neighbour(p, pos)))
        return self._join(items)

    def stab_notes(self, log: PhaseLog, i: int) -> str:
        w, rng = self.w, self.rng
        out = []
        if log.placement:
            out.append(w.note("placement"))
        if log.phase.kind == "adjustments":
            for p in log.nmr:
                out.append(w.note("cd_removal", power=p))
        else:
            for p in log.nmr:
                out.append(w.note("nmr", power=p))
        if log.phase.slug in self.replacements:
            power, old, new = self.replacements[log.phase.slug]
            out.append(w.note("replaced", power=power, old=old, new=new))
        for p in POWERS:
            if (log.before.units_of(p) or log.before.centres_of(p)) and not (log.after.units_of(p) or log.after.centres_of(p)):
                out.append(w.note("eliminated", power=p, player=self.player(p, log.phase)))
        if log.phase.kind == "retreats" and rng.random() < 0.4:
            out.append(w.note("retreats"))
        if log.phase.kind == "movement" and not log.nmr and not out and rng.random() < 0.2:
            out.append(w.note("all_in", late=rng.choice([p for p in POWERS if log.before.units_of(p)])))
        if (i in (1, 2) or rng.random() < 0.15) and log.phase.kind != "adjustments":
            out.append(w.note("ruling"))
        if rng.random() < 0.08:
            out.append(w.note("misc"))
        if self.s.draw_after and not self.draw_proposed and log.phase.kind == "movement":
            end = Phase.from_slug(self.s.draw_after)
            if log.phase.year == end.year - 1 and log.phase.season_index == 1:
                alive = [p for p in POWERS if log.after.units_of(p)]
                big = sorted(alive, key=lambda p: -len(log.after.centres_of(p)))[:3]
                out.append(w.note("draw_proposal", powers=_and_words(sorted(big))))
                self.draw_proposed = True
        nxt = self.next_phase(i)
        if nxt is not None and (rng.random() < 0.3 or not out):
            out.append(w.note("deadline", next=_public_name(nxt), when=rng.choice(self.s.deadlines)))
        return self._join(out)


