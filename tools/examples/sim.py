"""The simulation: every phase played by the bots and stepped with dipgen's own engine."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from dipgen.board import province_of
from dipgen.orders import Convoy, Hold, Move, Order, Support, UnitRef, for_phase, parse_order
from dipgen.phase import Phase
from dipgen.position import Position
from dipgen.variants import get_variant
from .board import abbr, BOARD, full_name, POWERS, reaches, sea_touches, SEAS, VARIANT
from .checks import contact_kinds
from .bot import Bot, Relations
from .notation import written
from .story import Script

@dataclass
class PhaseLog:
    phase: Phase
    before: Position
    after: Position
    texts: dict          # power -> [text]
    orders: dict         # power -> [Order] as adjudicated
    results: tuple = ()
    dislodged: tuple = ()
    destroyed: tuple = ()
    changes: tuple = ()  # (centre, old, new)
    due: dict = field(default_factory=dict)
    nmr: tuple = ()
    misorders: list = field(default_factory=list)  # (power, text, why)
    events: list = field(default_factory=list)     # diplomacy applied this phase
    ally_supports: list = field(default_factory=list)
    press: str = ""
    notes: str = ""
    placement: dict | None = None  # Stab!: the initial placement, written in the first phase file
    tweaks: list = field(default_factory=list)     # Stab!: scenes set up on purpose (feature, power, ...)
    spies: dict | None = None  # Blind: where the spies start, written in the first phase file


class Sim:
    def __init__(self, script: Script):
        self.s = script
        self.rng = random.Random(script.seed)
        self.rel = Relations()
        for a, b in script.alliances:
            self.rel.allies.add(frozenset((a, b)))
        self.bot = Bot(self.rng, self.rel, script.aggression)
        self.variant = get_variant(script.variant)
        from .stab import placed_position

        self.pos = VARIANT.start(1901) if not script.placement else placed_position(self.variant, script.placement)
        self.fog_rng = random.Random(script.seed * 31 + 7)  # only Stab! games draw from it
        self.shown: Counter = Counter()  # Stab!: contact kinds seen so far (to know which scenes are still wanted)
        self.log: list[PhaseLog] = []
        self.result = None  # ("solo", power) or ("draw", powers)
        self.cd_done = False

    # ----- diplomacy
    def apply_events(self, slug: str) -> list:
        self.rel.stabbing.clear()
        evs = self.s.events.get(slug, [])
        for kind, a, b in evs:
            pair = frozenset((a, b))
            if kind == "ally":
                self.rel.allies.add(pair)
                self.rel.wars.discard(pair)
            elif kind == "break":
                self.rel.allies.discard(pair)
            elif kind == "war":
                self.rel.allies.discard(pair)
                self.rel.wars.add(pair)
            elif kind == "peace":
                self.rel.wars.discard(pair)
            elif kind == "stab":
                self.rel.stabbing[a] = b
        return list(evs)

    def after_events(self, evs) -> None:
        for kind, a, b in evs:
            if kind == "stab":
                pair = frozenset((a, b))
                self.rel.allies.discard(pair)
                self.rel.wars.add(pair)

    def alive(self, pos: Position) -> list[str]:
        return [p for p in POWERS if pos.units_of(p) or pos.centres_of(p)]

    # ----- the loop
    def run(self) -> "Sim":
        stop = Phase.from_slug(self.s.stop) if self.s.stop else None
        draw_after = Phase.from_slug(self.s.draw_after) if self.s.draw_after else None
        while True:
            pos = self.pos
            phase = pos.phase
            if stop is not None and phase >= stop:
                break
            if draw_after is not None and phase > draw_after and not (
                    phase.retreats and phase.year == draw_after.year and phase.season_index == draw_after.season_index):
                alive = self.alive(pos)
                self.result = ("draw", [p for p in alive if len(pos.centres_of(p)) >= 3] or alive)
                break
            evs = self.apply_events(phase.slug)
            if phase.kind == "movement":
                log = self.movement(pos)
            elif phase.kind == "retreats":
                log = self.retreats(pos)
            else:
                log = self.adjustments(pos)
            log.events = evs
            self.after_events(evs)
            self.log.append(log)
            self.pos = log.after
            if phase.season_index == 1 and self.pos.phase.season_index == 2:
                w = VARIANT.winner(self.pos)
                if w:
                    self.result = ("solo", [w])
                    break
            self.pos = self.skip_empty(self.pos)
        return self

    def skip_empty(self, pos: Position) -> Position:
        while True:
            ph = pos.phase
            if ph.kind == "retreats" and not pos.dislodged:
                pos = pos.with_(phase=ph.next_candidates()[0])
            elif ph.kind == "adjustments" and not VARIANT.adjustment_counts(pos):
                pos = pos.with_(phase=ph.next_candidates()[0])
            else:
                return pos

    def end_of_season(self, after: Position):
        ph = after.phase
        changes = ()
        if ph.season_index == 1:
            owners = VARIANT.update_owners(after.units, after.owners)
            changes = tuple((c, after.owners.get(c), o) for c, o in sorted(owners.items()) if after.owners.get(c) != o)
            after = after.with_(owners=owners, phase=Phase(ph.year, 2), dislodged=())
        else:
            after = after.with_(phase=Phase(ph.year, 1), dislodged=())
        return after, changes

    # ----- Stab!: play in the dark, and the scenes an example must show
    def believed(self, pos: Position, power: str) -> Position:
        """What `power` thinks the board looks like: its own units, its allies' (they talk), foreign
        units in its own centres (the GM tells it), and each other foreign unit unless it has lost
        track of it."""
        mine = set(pos.centres_of(power))
        keep = [u for u in pos.units if u.power == power or self.rel.trusts(power, u.power) or u.province in mine
                or self.fog_rng.random() >= self.s.fog]
        return pos.with_(units=tuple(keep))

    def set_scenes(self, pos: Position, plans: dict) -> list:
        """Stab!: for each feature the example still lacks (see `Script.wants`), look for a place on
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

    def texts_for(self, power: str, orders: list[Order], kind: str) -> list[str]:
        style = self.s.styles.get(power, "canonical")
        out = []
        for o in orders:
            st = style
            if self.rng.random() < 0.12:  # nobody is perfectly consistent
                st = self.rng.choice(["canonical", "compact", "lower", "names", "arrows"])
            out.append(written(o, st, kind, self.rng))
        return out

    def parse_back(self, texts: dict, kind: str) -> dict:
        return {p: [for_phase(parse_order(BOARD, t), kind) for t in ts] for p, ts in texts.items()}

    def movement(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        plans = {}
        claimed: dict[str, set] = {}
        for power in POWERS:
            if not pos.units_of(power):
                continue
            friends = set()
            for q, cl in claimed.items():
                if self.rel.trusts(power, q):
                    friends |= cl
            seen = self.believed(pos, power) if self.s.fog else pos
            plan = self.bot.movement(seen, power, friends)
            plans[power] = plan
            claimed[power] = {province_of(o.dest) for o in plan.orders.values() if isinstance(o, Move)}
        self.bot.ally_supports(pos, plans, self.rng)
        tweaks = self.set_scenes(pos, plans) if self.s.wants else []
        orders = {p: [plan.orders[k] for k in sorted(plan.orders)] for p, plan in plans.items()}
        texts = {p: self.texts_for(p, os, "movement") for p, os in orders.items()}
        for p, ts in self.s.overrides.get(slug, {}).items():
            texts[p] = list(ts)
        misorders = []
        if slug in self.s.misorders:
            power, how = self.s.misorders[slug]
            mis = self.misorder(pos, power, orders[power], how)
            if mis:
                i, text, why = mis
                texts[power][i] = text
                misorders.append((power, text, why))
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "movement")
        out = self.variant.movement(pos, parsed)
        ph = pos.phase
        after = Position(Phase(ph.year, ph.season_index, True), out.units, pos.owners, out.dislodged)
        changes = ()
        if not out.dislodged:
            after, changes = self.end_of_season(after)
        log = PhaseLog(ph, pos, after, texts, parsed, out.results, out.dislodged, out.destroyed, changes,
                       nmr=nmr, misorders=misorders)
        log.ally_supports = [(p, n) for p, plan in plans.items() for n in plan.notes]
        log.tweaks = tweaks
        if self.s.placement and ph == Phase(1901, 0):
            log.placement = self.s.placement
        if self.s.variant == "stab":
            self.shown.update(contact_kinds(log))
        return log

    def misorder(self, pos, power, orders, how):
        """A plausible slip of the pen: a move to a province two steps away, or the wrong unit letter."""
        for i, o in enumerate(orders):
            u = pos.unit_at(o.unit.province)
            if how == "kind" and isinstance(o, Move):
                other = "F" if u.kind == "A" else "A"
                text = f"{other} {abbr(u.loc)} - {abbr(o.dest)}"
                return i, text, f"the unit in {full_name(u.province)} is {'an army' if u.kind == 'A' else 'a fleet'}; read as {o.format(BOARD)}"
            if how == "far" and isinstance(o, Move) and (u.kind == "F" or not BOARD.provinces[u.province].is_coastal):
                dest = province_of(o.dest)
                far = sorted(q for q in BOARD.neighbours(dest) if q != u.province and not reaches(u, q)
                             and (u.kind == "A" and BOARD.provinces[q].is_land
                                  or u.kind == "F" and BOARD.provinces[q].type != "land" and not BOARD.provinces[q].coasts))
                if far:
                    q = far[0]
                    return i, f"{u.kind} {abbr(u.loc)} - {abbr(q)}", f"{full_name(q)} does not border {full_name(u.province)}; the unit held"
        return None

    def retreats(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        powers = sorted({d.unit.power for d in pos.dislodged})
        orders = {}
        for p in powers:
            units_after = len(pos.units_of(p)) + sum(1 for d in pos.dislodged if d.unit.power == p)
            centres_next = len(pos.centres_of(p))
            if pos.phase.season_index == 1:
                owners = VARIANT.update_owners(pos.units, pos.owners)
                centres_next = sum(1 for o in owners.values() if o == p)
            rs = self.bot.retreats(pos, p, units_after > centres_next)
            orders[p] = [rs[k] for k in sorted(rs)]
        texts = {p: self.texts_for(p, os, "retreats") for p, os in orders.items()}
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "retreats")
        out = VARIANT.retreats(pos, parsed)
        after, changes = self.end_of_season(Position(pos.phase, out.units, pos.owners))
        return PhaseLog(pos.phase, pos, after, texts, parsed, out.results, changes=changes, nmr=nmr)

    def adjustments(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        due = VARIANT.adjustment_counts(pos)
        orders = {p: self.bot.adjustments(pos, p, n) for p, n in sorted(due.items())}
        texts = {p: self.texts_for(p, os, "adjustments") for p, os in orders.items() if os}
        nmr = [p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts]
        if not self.cd_done and pos.phase.year >= self.s.cd_after:
            for cd in self.s.cd_power:
                if due.get(cd, 0) < 0:
                    nmr.append(cd)
                    self.cd_done = True
                    break
        for p in nmr:
            texts.pop(p, None)
        parsed = self.parse_back(texts, "adjustments")
        out = VARIANT.adjustments(pos, parsed)
        after = Position(Phase(pos.phase.year + 1, 0), out.units, pos.owners)
        return PhaseLog(pos.phase, pos, after, texts, parsed, out.results, due=due, nmr=tuple(nmr))

