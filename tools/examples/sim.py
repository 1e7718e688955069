"""The simulation: every phase played by the bots and stepped with dipgen's own engine."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from dipgen.core.board import province_of
from dipgen.play.replay import end_of_season, skip_empty
from dipgen.core.orders import for_phase, Move, Order, parse_order
from dipgen.core.phase import Phase
from dipgen.core.position import Position
from dipgen.variants import get_variant

from .board import abbr, BOARD, full_name, occupant, on_board, POWERS, reaches, units_of
from .bot import Bot, Relations
from .notation import written
from .story import Script


def opening_position(variant, extra: dict) -> Position:
    """The position before Spring 1901, read by the variant itself from a first phase file that
    carries `extra` (Stab!'s ``placement``, Blind's ``spies``)."""
    from dipgen.play.game import PhaseFile

    first = Phase(1901, 0)
    pf = PhaseFile(first, Path("1901-spring.yml"), {}, {}, extra=extra)
    game = type("Opening", (), {"start": 1901, "phases": {first: pf}, "raw": {}, "lines": {}})()
    problems: list = []
    game.setup = variant.files.read_setup(game, problems)  # as dipgen.io reads a game's set-up
    if problems:
        raise ValueError("\n".join(map(str, problems)))
    return variant.rules.initial_position(game)


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
    misorders: list = field(default_factory=list)  # (power, text, why): the slips the story asked for
    events: list = field(default_factory=list)     # diplomacy applied this phase
    ally_supports: list = field(default_factory=list)
    press: str = ""
    notes: str = ""
    placement: dict | None = None  # Stab!: the initial placement, written in the first phase file
    tweaks: list = field(default_factory=list)     # hidden games: scenes set up on purpose (feature, power, ...)
    spies: dict | None = None  # Blind: where the spies start, written in the first phase file


class Sim:
    """A game played out by the bots from its story, phase by phase, each phase stepped with the
    variant's own adjudication. This is the standard game; a family of variants subclasses it
    and fills in the hooks (`start_position`, `believed`, `before_movement`, `set_scenes`,
    `add_orders`, `observe`). The random draws happen in the order written: moving one changes
    the games."""

    def __init__(self, script: Script):
        self.s = script
        self.rng = random.Random(script.seed)
        self.rel = Relations()
        for a, b in script.alliances:
            self.rel.allies.add(frozenset((a, b)))
        self.bot = Bot(self.rng, self.rel, script.aggression)
        self.variant = get_variant(script.variant)
        self.pos = self.start_position()
        self.fog_rng = random.Random(script.seed * 31 + 7)  # only hidden games draw from it
        self.shown: Counter = Counter()  # hidden games: features seen so far (to know which scenes are still wanted)
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
        return [p for p in POWERS if units_of(pos, p) or pos.centres_of(p)]

    # ----- the loop
    def run(self) -> Sim:
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
                w = self.variant.rules.winner(self.pos)
                if w:
                    self.result = ("solo", [w])
                    break
            self.pos = skip_empty(self.variant, self.pos)
        return self

    # ----- hooks: what a variant family changes
    def start_position(self) -> Position:
        """The position before the first phase."""
        return self.variant.rules.start(1901)

    def believed(self, pos: Position, power: str) -> Position:
        """The board as `power` plans with it: all of it, in a game where everyone sees it."""
        return pos

    def before_movement(self) -> None:
        """Called as a movement phase starts, before anyone plans."""

    def set_scenes(self, pos: Position, plans: dict) -> list:
        """Change the bots' plans where a scene the example must show can be set up; the scenes set."""
        return []

    def add_orders(self, pos: Position, plans: dict, texts: dict, misorders: list) -> list:
        """Add orders for pieces beside the units (Blind's spies) to `texts`; the scenes set up."""
        return []

    def observe(self, log: PhaseLog) -> None:
        """Called after a movement or retreat phase, with what happened."""

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
        words, verbs = self.variant.rules.order_words, self.variant.rules.verbs
        return {p: [for_phase(parse_order(BOARD, t, words, verbs), kind) for t in ts] for p, ts in texts.items()}

    def movement(self, whole: Position) -> PhaseLog:
        slug = whole.phase.slug
        pos = on_board(whole)  # what the bots plan with: the units that occupy provinces
        self.before_movement()
        plans = {}
        claimed: dict[str, set] = {}
        for power in POWERS:
            if not units_of(pos, power):
                continue
            friends = set()
            for q, cl in claimed.items():
                if self.rel.trusts(power, q):
                    friends |= cl
            plan = self.bot.movement(self.believed(pos, power), power, friends)
            plans[power] = plan
            claimed[power] = {province_of(o.dest) for o in plan.orders.values() if isinstance(o, Move)}
        self.bot.ally_supports(pos, plans, self.rng)
        tweaks = self.set_scenes(pos, plans)
        orders = {p: [plan.orders[k] for k in sorted(plan.orders)] for p, plan in plans.items()}
        texts = {p: self.texts_for(p, os, "movement") for p, os in orders.items()}
        for p, ts in self.s.overrides.get(slug, {}).items():
            texts[p] = list(ts)
        misorders = []
        power, how = self.s.misorders.get(slug, (None, None))
        mis = self.misorder(pos, power, orders.get(power, []), how) if power else None
        if mis:
            i, text, why = mis
            texts[power][i] = text
            misorders.append((power, text, why))
        tweaks += self.add_orders(whole, plans, texts, misorders)
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "movement")
        out = self.variant.rules.movement(whole, parsed)
        ph = pos.phase
        after = Position(Phase(ph.year, ph.season_index, True), out.units, pos.owners, out.dislodged)
        changes = ()
        if not out.dislodged and not self.variant.policy.closed_by_file(after.phase):
            after, changes = end_of_season(self.variant, after)
        log = PhaseLog(ph, whole, after, texts, parsed, out.results, out.dislodged, out.destroyed, changes,
                       nmr=nmr, misorders=misorders)
        log.ally_supports = [(p, n) for p, plan in plans.items() for n in plan.notes]
        log.tweaks = tweaks
        if ph == Phase(1901, 0):  # what the first phase file sets up
            log.placement = self.s.placement or None
            log.spies = self.s.spies or None
        self.observe(log)
        return log

    def misorder(self, pos, power, orders, how):
        """A plausible slip of the pen: a move to a province two steps away, or the wrong unit letter."""
        for i, o in enumerate(orders):
            u = occupant(pos, o.unit.province)
            if how == "kind" and isinstance(o, Move):
                other = "F" if u.kind == "A" else "A"
                text = f"{other} {abbr(u.loc)} - {abbr(o.dest)}"
                return i, text, (f"the unit in {full_name(u.province)} is {'an army' if u.kind == 'A' else 'a fleet'}; "
                                 f"read as {o.format(BOARD)}")
            if how == "far" and isinstance(o, Move) and (u.kind == "F" or not BOARD.provinces[u.province].is_coastal):
                dest = province_of(o.dest)
                far = sorted(q for q in BOARD.neighbours(dest) if q != u.province and not reaches(u, q)
                             and (u.kind == "A" and BOARD.provinces[q].is_land
                                  or u.kind == "F" and BOARD.provinces[q].type != "land"
                                  and not BOARD.provinces[q].coasts))
                if far:
                    q = far[0]
                    return i, f"{u.kind} {abbr(u.loc)} - {abbr(q)}", (f"{full_name(q)} does not border "
                                                                      f"{full_name(u.province)}; the unit held")
        return None

    def retreats(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        powers = sorted({d.unit.power for d in pos.dislodged})
        orders = {}
        for p in powers:
            units_after = len(units_of(pos, p)) + sum(1 for d in pos.dislodged if d.unit.power == p)
            centres_next = len(pos.centres_of(p))
            if pos.phase.season_index == 1:
                owners = self.variant.rules.update_owners(pos.units, pos.owners)
                centres_next = sum(1 for o in owners.values() if o == p)
            rs = self.bot.retreats(on_board(pos), p, units_after > centres_next)
            orders[p] = [rs[k] for k in sorted(rs)]
        texts = {p: self.texts_for(p, os, "retreats") for p, os in orders.items()}
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "retreats")
        out = self.variant.rules.retreats(pos, parsed)
        after, changes = end_of_season(self.variant, Position(pos.phase, out.units, pos.owners))
        log = PhaseLog(pos.phase, pos, after, texts, parsed, out.results, changes=changes, nmr=nmr)
        self.observe(log)
        return log

    def adjustments(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        due = self.variant.rules.adjustment_counts(pos)
        orders = {p: self.bot.adjustments(on_board(pos), p, n) for p, n in sorted(due.items())}
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
        out = self.variant.rules.adjustments(pos, parsed)
        after = Position(Phase(pos.phase.year + 1, 0), out.units, pos.owners)
        return PhaseLog(pos.phase, pos, after, texts, parsed, out.results, due=due, nmr=tuple(nmr))

