"""Blind games: every position secret, spies, and press that names no place."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from dipgen.core.board import province_of
from dipgen.core.orders import Disband, Hold, Move, Order, UnitRef
from dipgen.variants.blind.rules import CounterEspionage
from dipgen.core.phase import Phase
from dipgen.core.position import Position, Unit

from .board import abbr, ANY_DIST, BOARD, CENTRES, full_name, HOME, occupant, on_board, POWERS, spies_of
from .checks import spy_kinds
from .hidden import HiddenComposer
from .sim import opening_position, PhaseLog, Sim
from .story import Script


def spy_text(order: Order, style: str) -> str:
    """A spy's order as a player with writing habit `style` might send it: ``S Par - Bur``,
    ``s par ce``, ``S Paris holds``..."""
    canon = order.format(BOARD)
    if style == "compact":
        return canon.replace(" - ", "-")
    if style == "lower":
        return canon.lower()
    if style == "arrows":
        return canon.replace(" - ", " -> ")
    if style in ("names", "wordy"):
        here = full_name(order.unit.loc)
        if isinstance(order, Move):
            return (f"S {here} - {full_name(order.dest)}" if style == "names"
                    else f"Spy {here} -> {full_name(order.dest)}")
        if isinstance(order, CounterEspionage):
            return f"S {here} CE" if style == "names" else f"Spy {here} counter-espionage"
        return f"S {here} H" if style == "names" else f"Spy {here} holds"
    return canon


class BlindSim(Sim):
    """A Blind game: nobody sees the board. Each player plans with what it knows: its own units,
    its allies' (they talk), and the foreign units its fights and its spies revealed (dipgen's own
    private view of each season), which it forgets again as they go stale. Spies scout toward
    enemy centres and fronts, sit in key places, and hunt enemy spies at home and abroad."""

    def __init__(self, script: Script):
        super().__init__(script)
        self.spy_rng = random.Random(script.seed * 53 + 11)
        self.memory: dict[str, dict[str, tuple[Unit, int]]] = {p: {} for p in POWERS}  # province -> (unit, when)
        self.tick = 0
        self.alarmed: set[str] = set()  # powers that lost a centre last Fall: their spies hunt at home

    # ----- what each power knows
    def believed(self, pos: Position, power: str) -> Position:
        units = [u for u in on_board(pos).units if u.power == power or self.rel.trusts(power, u.power)]
        taken = {u.province for u in units}
        for prov, (u, _) in sorted(self.memory[power].items()):
            if prov not in taken and not self.rel.trusts(power, u.power):
                units.append(u)
                taken.add(prov)
        return pos.with_(units=tuple(units))

    def forget(self) -> None:
        for power in POWERS:
            mem = self.memory[power]
            for prov in sorted(mem):
                _, when = mem[prov]
                if self.tick - when > 3 or (when < self.tick and self.fog_rng.random() < self.s.fog):
                    del mem[prov]

    def learn(self, log: PhaseLog) -> None:
        """Each power's private view of the season (dipgen's own rulings) updates what it knows."""
        from dipgen.play.records import PhaseRecord
        from dipgen.view.seen import apply

        if log.phase.kind == "movement":
            rec = PhaseRecord(log.phase, log.before, {p: () for p in log.texts}, log.results, log.after,
                              log.dislodged, log.destroyed, log.changes)
            vis = self.variant.policy.record_visibility(None, rec)
            for power in POWERS:
                view = apply(rec, vis, power, self.variant)
                mem = self.memory[power]
                for u in on_board(view.before).units:
                    if u.power != power:
                        mem.pop(u.province, None)
                for u in list(on_board(log.after).units) + spies_of(log.after):
                    if u.power == power:
                        mem.pop(u.province, None)  # its own units and spies see their province
                for u in on_board(view.after).units:
                    if u.power != power:
                        mem[u.province] = (u, self.tick)
        for c, old, new in log.changes:  # the GM tells a power which centres it lost, and to whom
            u = occupant(log.after, c)
            if old is not None and u is not None and u.power == new:
                self.memory[old][c] = (u, self.tick)
        if log.phase.season_index == 1 and log.after.phase.season_index != 1:
            self.alarmed = {old for _, old, _ in log.changes if old is not None}

    def foes(self, pos: Position, power: str) -> set[str]:
        alive = [p for p in POWERS if p != power and (on_board(pos).units_of(p) or pos.centres_of(p))]
        war = {p for p in alive if self.rel.at_war(power, p)}
        return war or {p for p in alive if not self.rel.trusts(power, p)} or set(alive)

    # ----- spies
    def spy_orders(self, pos: Position, power: str) -> list[Order]:
        rng = self.spy_rng
        spies = [p for p in spies_of(pos) if p.power == power]
        homes = {c for c in HOME[power] if pos.owners.get(c) == power}
        foes = self.foes(pos, power)
        targets: Counter = Counter()
        for c in CENTRES:
            owner = pos.owners.get(c)
            if owner in foes:
                targets[c] += 3 + (2 if c in HOME[owner] else 0)
        for u in self.believed(pos, power).units:
            if u.power in foes:
                targets[u.province] += 2
        claimed: set[str] = set()
        guarded = False
        out: list[Order] = []
        for spy in spies:
            here = spy.province
            ref = UnitRef("S", here)
            if here in homes and not guarded and (len(spies) == 1 or power in self.alarmed or rng.random() < 0.6):
                guarded = True
                hunt = 0.7 if power in self.alarmed else 0.3
                out.append(CounterEspionage(ref) if rng.random() < hunt else Hold(ref))
                continue
            if targets[here] and here not in claimed and rng.random() < 0.75:
                claimed.add(here)
                out.append(CounterEspionage(ref) if rng.random() < 0.12 else Hold(ref))
                continue
            options = [t for t in sorted(targets) if t != here and t not in claimed]
            if not options:
                out.append(Hold(ref))
                continue
            goal = min(options, key=lambda t: (ANY_DIST[here].get(t, 99) - 0.4 * targets[t] + rng.uniform(0, 1.5), t))
            claimed.add(goal)
            d = ANY_DIST[here].get(goal, 99)
            steps = sorted(n for n in BOARD.neighbours(here) if ANY_DIST[n].get(goal, 99) == d - 1)
            out.append(Move(ref, rng.choice(steps)) if steps else Hold(ref))
        return out

    def spy_scene(self, pos: Position, spy_orders: dict, mutual: bool):
        """A hunt the example must show: two powers' spies share a province and both hunt (they
        kill each other), or a spy at home hunts an enemy spy sitting there."""
        by_prov = defaultdict(list)
        for spy in spies_of(pos):
            if spy.power in spy_orders:
                by_prov[spy.province].append(spy)
        for prov, spies in sorted(by_prov.items()):
            powers = sorted({s.power for s in spies})
            if len(powers) < 2:
                continue
            if mutual:
                a, b = powers[:2]
            else:
                home = [p for p in powers if prov in HOME[p]]
                if not home:
                    continue
                a = home[0]
                b = next(p for p in powers if p != a)
            for p, what in ((a, "ce"), (b, "ce" if mutual else "hold")):
                orders = spy_orders[p]
                i = next(i for i, o in enumerate(orders) if o.unit.province == prov)
                orders[i] = CounterEspionage(orders[i].unit) if what == "ce" else Hold(orders[i].unit)
            return a, b, prov
        return None

    # ----- the phases
    def start_position(self) -> Position:
        """The opening position, spies included, read by the variant from the first phase file's
        ``spies`` key (powers left out start in the capital and the next home centre)."""
        return opening_position(self.variant, {"spies": self.s.spies} if self.s.spies else {})

    def before_movement(self) -> None:
        self.tick += 1
        self.forget()

    def add_orders(self, pos: Position, plans: dict, texts: dict, misorders: list) -> list:
        """The spies' orders, with the hunts the example must show set up, and a spy sent too far
        where the story asks for it (``misorders: {phase: [power, spy_far]}``)."""
        slug = pos.phase.slug
        how = self.s.misorders.get(slug, (None, None))
        spies = {p: self.spy_orders(pos, p) for p in plans}
        tweaks = []
        for feature, since in self.s.wants.items():
            if pos.phase >= Phase.from_slug(since) and not self.shown[feature]:
                scene = self.spy_scene(pos, spies, mutual=feature == "mutual_kills")
                if scene:
                    tweaks.append((feature, *scene))
        spy_texts = {p: [spy_text(o, self.s.styles.get(p, "canonical")) for o in os] for p, os in spies.items()}
        if how[1] == "spy_far" and spies.get(how[0]):
            # a spy sent two spaces: the one that was moving, or failing that the first
            mine = spies[how[0]]
            i = next((i for i, o in enumerate(mine) if isinstance(o, Move)), 0)
            o = mine[i]
            first = province_of(o.dest) if isinstance(o, Move) else sorted(BOARD.neighbours(o.unit.province))[0]
            far = sorted(q for q in BOARD.neighbours(first) if ANY_DIST[o.unit.province].get(q, 99) == 2)
            text = f"S {abbr(o.unit.loc)} - {abbr(far[0])}"
            spy_texts[how[0]][i] = text
            misorders.append((how[0], text, f"a spy moves one space a season; {full_name(far[0])} is two "
                                            f"from {full_name(o.unit.loc)}"))
        for p in texts:
            texts[p] = texts[p] + spy_texts.get(p, [])
        return tweaks

    def observe(self, log: PhaseLog) -> None:
        self.shown.update(spy_kinds(log))
        self.learn(log)


class BlindComposer(HiddenComposer):
    """Press and notes for a Blind game: the public learns only the centre totals and the NMRs,
    so what is said in public names no province, unit or order. The players' press draws on what
    their own reports told them (who they fought, whose spies they caught) without saying where;
    from data/press/blind.yml."""

    family = "blind"
    names_places = False
    all_in_note = 0.0
    spy_rumours = 0.25

    def fights(self, j: int) -> list[tuple[str, str]]:
        """Pairs of powers whose units met in phase `j` (each knows; the public does not)."""
        from dipgen.view.seen import seen_record as view_record

        rec = self.history.records[j]
        pairs = []
        for power in POWERS:
            view = view_record(self.history, rec, power)
            for u in on_board(view.before).units:
                if u.power != power and (power, u.power) not in pairs:
                    pairs.append((power, u.power))
        return pairs

    def news_press(self, j: int, pos: Position, alive: list, cands: list):
        w, rng = self.w, self.rng
        last = self.sim.log[j]
        fights = [(a, b) for a, b in self.fights(j) if a in alive and b in alive]
        if fights and rng.random() < 0.6:
            a, b = rng.choice(fights)
            cands.append((3 + rng.random(), w.press("fight", a, b)))
        for d in list(last.dislodged)[:1]:
            if d.unit.power in alive and rng.random() < 0.5:
                cands.append((3 + rng.random(), w.press("dislodged", d.unit.power, d.by_power)))
        k = spy_kinds(last)
        if (k["spies_killed"] or k["counter_espionage"]) and rng.random() < 0.6:
            p = rng.choice(alive)
            cands.append((3 + rng.random(), w.press("spies", p, self.neighbour(p, pos))))

    def disbands_shown(self, i: int) -> list:
        return [r for r in self.sim.log[i].results if isinstance(r.order, Disband)]
