"""Press and GM notes, composed from phrase banks (data/press/*.yml) and what happened."""

from __future__ import annotations

import random
from pathlib import Path

import yaml
from dipgen.core.phase import Phase
from dipgen.core.position import Position

from .board import ANY_DIST, BOARD, HOME, place_name, POWERS, SEAS, units_of
from .sim import PhaseLog, Sim

DATA = Path(__file__).resolve().parent / "data"


def _load(path: Path):
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


_POWERS = _load(DATA / "powers.yml")
CAPITAL = {p: v["capital"] for p, v in _POWERS.items()}
ADJ = {p: v["adjective"] for p, v in _POWERS.items()}


def load_banks(families=("standard", "stab", "blind")) -> dict[str, dict[str, dict[str, list[str]]]]:
    """The phrase banks of each family of games, {family: {"press": {category: [template]},
    "notes": {...}, "fixed": {name: text}}}, from data/press/<family>.yml. A category written
    ``{same_as: FAMILY}`` is that family's (one loaded before it), less the templates listed
    in ``without``."""
    banks: dict = {}
    for family in families:
        path = DATA / "press" / f"{family}.yml"
        raw = _load(path)
        banks[family] = {}
        for section in ("press", "notes", "fixed"):
            table = {}
            for cat, items in raw[section].items():
                if isinstance(items, dict):
                    base = banks[items["same_as"]][section][cat]
                    if section == "fixed":
                        table[cat] = base
                        continue
                    drop = items.get("without", [])
                    missing = [t for t in drop if t not in base]
                    if missing:
                        raise ValueError(f"{path}: {section}.{cat}: 'without' names templates "
                                         f"{items['same_as']} does not have: {missing}")
                    items = [t for t in base if t not in drop]
                table[cat] = items if section == "fixed" else list(items)
            banks[family][section] = table
    return banks


BANKS = load_banks()


class Writer:
    """Draws press and notes from one family's phrase banks without repeating itself."""

    def __init__(self, rng: random.Random, style: str, bank: dict):
        self.rng = rng
        self.bank = bank
        self.used: dict[tuple, set] = {}
        self.style = style  # "bold" or "plain" headings for press items

    def pick(self, section: str, cat: str) -> str:
        items = self.bank[section][cat]
        used = self.used.setdefault((section, cat), set())
        free = [i for i in range(len(items)) if i not in used]
        if not free:
            used.clear()
            free = list(range(len(items)))
        i = self.rng.choice(free)
        used.add(i)
        return items[i]

    def press(self, cat: str, me: str, you: str = "All", **slots) -> str:
        text = self.pick("press", cat)
        line = text.format(me=CAPITAL.get(me, me), you=CAPITAL.get(you, you),
                           adj=ADJ.get(me, me), youadj=ADJ.get(you, you), **slots)
        head, _, body = line.partition(": ")
        return f"**{head}:** {body}" if self.style == "bold" else f"*{head}:* {body}"

    def note(self, cat: str, **slots) -> str:
        return self.pick("notes", cat).format(**slots)

    def fixed(self, name: str, **slots) -> str:
        """One of the GM's fixed texts ("" where the family has none); draws nothing."""
        return self.bank["fixed"][name].format(**slots)


class Composer:
    """Press and GM notes for each phase of a simulated game, keyed to what happened.

    The course of each phase's press and notes is the same for every family of games; what a
    family may talk about, and where its words come from, is in the hooks below (each family's
    module fills them in) and in its phrase banks (``family``: data/press/<family>.yml). The
    random draws happen in the order they are written here: moving one changes the games."""

    family = "standard"
    #: does everyone see the board (so the notes may name units)?
    public_board = True
    #: may press name provinces ({prov})? Blind's may not: the public never learns one
    names_places = True
    #: chances: press reacting to an NMR, a quiet retreat phase, the GM's retreat note and
    #: "all orders in" note (0: never)
    nmr_press = 0.7
    quiet_retreats = 0.5
    retreat_note = 0.3
    all_in_note = 0.25
    #: the centre count from which the others start writing about the leader
    leader_at = 11

    def __init__(self, sim: Sim, history, rng: random.Random, style: str):
        self.sim, self.rng = sim, rng
        self.history = history  # dipgen's replay of the game as played (its files without press)
        self.w = Writer(rng, style, BANKS[self.family])
        self.s = sim.s
        self.replacements = {}
        for power, who in self.s.players.items():
            if isinstance(who, list):
                for item in who[1:]:
                    self.replacements[item[1]] = (power, who[0] if isinstance(who[0], str) else who[0][0], item[0])
        self.draw_proposed = False

    # ----- hooks
    def phase_name(self, phase: Phase) -> str:
        """A phase as the GM's notes name it."""
        return phase.name

    def stab_place(self, log: PhaseLog, pos: Position, a: str, b: str) -> str:
        """The province press about `a`'s stab of `b` names."""
        return self.border(pos, a, b)

    def news_press(self, j: int, pos: Position, alive: list, cands: list):
        """Press on what the last movement phase (`j`) showed; returns what the propaganda hook needs."""

    def propaganda_press(self, news, pos: Position, cands: list) -> None:
        """A gazette's view of the last movement phase."""

    def centre_press(self, i: int, j: int | None, pos: Position, alive: list, cands: list) -> None:
        """Press on centres gained and lost since the last movement phase."""

    def filler_press(self, pos: Position, alive: list, cands: list) -> None:
        """Chatter, so that every season has press."""

    def disbands_shown(self, i: int) -> list:
        """The results of disbands the press of retreat phase `i` may mention."""
        return []

    def build_slots(self, power: str, n: int, pos: Position) -> dict:
        """Slots for a `builds` template."""
        return {}

    def farewell_to(self, power: str, pos: Position) -> str:
        """Whom an eliminated power's last press is addressed to."""
        return self.neighbour(power, pos)

    def asides(self, log: PhaseLog, i: int) -> list:
        """The GM's occasional remarks (rulings, reminders) in the notes of phase `i`."""
        return []

    def draw_press(self, log: PhaseLog, powers: list) -> list:
        """End-of-game statements after a draw."""
        return []

    # ----- what may be named
    def where(self, prov: str) -> dict:
        """The {prov} slot naming `prov`, where this family's press may name places."""
        return {"prov": place_name(prov)} if self.names_places else {}

    def home_where(self, power: str, pick: bool = False) -> dict:
        """The {prov} slot naming one of `power`'s home centres: the first, or one drawn at random."""
        if not self.names_places:
            return {}
        homes = sorted(HOME[power])
        return {"prov": place_name(self.rng.choice(homes) if pick else homes[0])}

    # ----- people
    def player(self, power: str, phase: Phase) -> str:
        who = self.s.players[power]
        if isinstance(who, str):
            return who
        name = who[0]
        for n, since in who[1:]:
            if Phase.from_slug(since) <= phase:
                name = n
        return name

    def neighbour(self, power: str, pos: Position, pool=None) -> str:
        """A power whose units are near `power`'s, for press addressed to someone plausible."""
        alive = [p for p in (pool or POWERS) if p != power and (units_of(pos, p) or pos.centres_of(p))]
        if not alive:
            return "All"
        mine = [u.province for u in units_of(pos, power)] or sorted(HOME[power])

        def closeness(p):
            theirs = [u.province for u in units_of(pos, p)] or sorted(HOME[p])
            return min(ANY_DIST[a].get(b, 99) for a in mine for b in theirs)
        alive.sort(key=lambda p: (closeness(p), p))
        return self.rng.choice(alive[:2])

    def border(self, pos: Position, a: str, b: str) -> str:
        """A province between two powers, for press about them."""
        best = None
        for p in sorted(BOARD.provinces):
            if p in SEAS:
                continue
            da = min((ANY_DIST[p].get(h, 99) for h in HOME[a]), default=99)
            db = min((ANY_DIST[p].get(h, 99) for h in HOME[b]), default=99)
            key = (max(da, db), abs(da - db), p)
            if best is None or key < best[0]:
                best = (key, p)
        return best[1]

    # ----- the course of a game
    def compose(self) -> None:
        logs = self.sim.log
        last_move = None
        for i, log in enumerate(logs):
            if log.phase.retreats and not log.before.dislodged:
                continue  # a hidden game's Fall closed with nobody retreating: an empty file, told to nobody
            if log.phase.kind == "movement":
                log.press = self.movement_press(i, last_move)
                last_move = i
            elif log.phase.kind == "retreats":
                log.press = self.retreat_press(i)
            else:
                log.press = self.winter_press(log)
            log.notes = self.notes(log, i)
        self.finish()

    def _join(self, items) -> str:
        return "\n\n".join(items) + "\n" if items else ""

    def movement_press(self, i: int, j: int | None) -> str:
        """The press of movement phase `i`, answering what happened up to it since movement phase `j`."""
        log = self.sim.log[i]
        pos = log.before
        w, rng = self.w, self.rng
        alive = [p for p in POWERS if units_of(pos, p)]
        cands = []  # (priority, text)
        if log.phase == Phase(1901, 0):
            for p in rng.sample(alive, 3):
                cands.append((5, w.press("opening", p, self.neighbour(p, pos))))
        for kind, a, b in log.events:
            if kind == "ally":
                cands.append((6, w.press("ally", a, b, **self.where(self.border(pos, a, b)))))
            elif kind == "war":
                cands.append((6, w.press("war", a, b)))
            elif kind == "stab":
                cands.append((7, w.press("stab_lie", a, b, **self.where(self.stab_place(log, pos, a, b)))))
        if j is not None:
            last = self.sim.log[j]
            for kind, a, b in last.events:
                if kind == "stab":
                    target = self.where(self.stab_place(last, pos, a, b))
                    cands.append((8, w.press("stab_outrage", b, a, year=pos.phase.year + 1, **target)))
                    if rng.random() < 0.6:
                        cands.append((4, w.press("stab_excuse", a, b, **target)))
            news = self.news_press(j, pos, alive, cands)
            if last.nmr and rng.random() < self.nmr_press:
                p = last.nmr[0]
                q = self.neighbour(p, pos)
                if q != "All":
                    cands.append((3, w.press("nmr", q, p)))
            for p in POWERS:
                if units_of(last.before, p) and not units_of(pos, p) and not pos.centres_of(p):
                    cands.append((5, w.press("eulogy", rng.choice([x for x in alive if x != p]), p)))
            self.propaganda_press(news, pos, cands)
        self.centre_press(i, j, pos, alive, cands)
        counts = pos.centre_counts(POWERS)
        leader = max(POWERS, key=lambda p: (counts[p], p))
        if counts[leader] >= self.leader_at and rng.random() < 0.6:
            other = self.neighbour(leader, pos)
            if other != "All":
                cands.append((5, w.press("leader", other, leader, n=counts[leader])))
        if self.s.draw_after:
            end = Phase.from_slug(self.s.draw_after)
            if end.year - pos.phase.year <= 1 and rng.random() < 0.6:
                p = rng.choice(alive)
                cands.append((4, w.press("draw", p, self.neighbour(p, pos))))
        self.filler_press(pos, alive, cands)
        cands.sort(key=lambda c: -c[0])
        return self._join([t for _, t in cands[:rng.choice([2, 3, 3, 4])]])

    def retreat_press(self, i: int) -> str:
        log = self.sim.log[i]
        if self.rng.random() < self.quiet_retreats:
            return ""
        disbands = self.disbands_shown(i)
        if disbands and self.rng.random() < 0.6:
            return self._join([self.w.press("disband", disbands[0].power)])
        d = log.before.dislodged[0]  # that it was dislodged, and by whom, the movement phase showed
        return self._join([self.w.press("dislodged", d.unit.power, d.by_power, **self.where(d.unit.province))])

    def winter_press(self, log: PhaseLog) -> str:
        items = []
        pos = log.before
        for p, n in sorted(log.due.items(), key=lambda t: -abs(t[1])):
            if len(items) >= 2:
                break
            if n >= 2 or (n > 0 and self.rng.random() < 0.3):
                you = self.neighbour(p, pos)
                items.append(self.w.press("builds", p, you, **self.build_slots(p, n, pos)))
            elif n < 0 and p not in log.nmr and self.rng.random() < 0.6:
                items.append(self.w.press("removals", p, self.neighbour(p, pos)))
        # farewells for powers that were just eliminated
        for p in POWERS:
            if units_of(pos, p) and not pos.centres_of(p) and self.rng.random() < 0.9:
                items.append(self.w.press("eliminated", p, self.farewell_to(p, pos)))
        return self._join(items)

    def notes(self, log: PhaseLog, i: int) -> str:
        w, rng = self.w, self.rng
        out = []
        if log.placement:
            out.append(w.note("placement"))
        if log.spies:
            out.append(w.note("spies"))
        for power, text, why in log.misorders:
            out.append(w.note("misorder", power=power, text=text, why=why, why_cap=why[0].upper() + why[1:]))
        if log.phase.kind == "adjustments":
            for p in log.nmr:
                removed = [r.order.format(BOARD).replace("Remove ", "") for r in log.results
                           if r.power == p and r.default]
                out.append(w.note("cd_removal", power=p,
                                  **({"units": _and_words(removed)} if self.public_board else {})))
        else:
            for p in log.nmr:
                out.append(w.note("nmr", power=p))
        if log.phase.slug in self.replacements:
            power, old, new = self.replacements[log.phase.slug]
            out.append(w.note("replaced", power=power, old=old, new=new))
        for p in POWERS:
            if ((units_of(log.before, p) or log.before.centres_of(p))
                    and not (units_of(log.after, p) or log.after.centres_of(p))):
                out.append(w.note("eliminated", power=p, player=self.player(p, log.phase)))
        if log.phase.kind == "retreats" and rng.random() < self.retreat_note:
            out.append(w.note("retreats"))
        if self.all_in_note and log.phase.kind == "movement" and not log.nmr and not out \
                and rng.random() < self.all_in_note:
            out.append(w.note("all_in", late=rng.choice([p for p in POWERS if units_of(log.before, p)])))
        out += self.asides(log, i)
        if self.s.draw_after and not self.draw_proposed and log.phase.kind == "movement":
            end = Phase.from_slug(self.s.draw_after)
            if log.phase.year == end.year - 1 and log.phase.season_index == 1:
                alive = [p for p in POWERS if units_of(log.after, p)]
                big = sorted(alive, key=lambda p: -len(log.after.centres_of(p)))[:3]
                out.append(w.note("draw_proposal", powers=_and_words(sorted(big))))
                self.draw_proposed = True
        nxt = self.next_phase(i)
        if nxt is not None and (rng.random() < 0.3 or not out):
            out.append(w.note("deadline", next=self.phase_name(nxt), when=rng.choice(self.s.deadlines)))
        return self._join(out)

    def next_phase(self, i: int) -> Phase | None:
        logs = self.sim.log
        if i + 1 < len(logs):
            return logs[i + 1].phase
        return self.sim.pos.phase if self.sim.result is None else None

    def finish(self) -> None:
        """End-of-game statements and the GM's last word, on the last phase played."""
        if self.sim.result is None:
            self.standings()
            return
        log = self.sim.log[-1]
        kind, powers = self.sim.result
        if kind == "solo":
            winner = powers[0]
            alive = [p for p in POWERS if units_of(log.after, p)]
            items = [self.w.press("endgame_winner", winner, "All", **self.home_where(winner, pick=True))]
            for p in self.rng.sample([x for x in alive if x != winner], min(2, len(alive) - 1)):
                items.append(self.w.press("endgame", p, winner, **self.home_where(p)))
            note = self.w.fixed("solo", winner=winner, n=len(log.after.centres_of(winner)),
                                player=self.player(winner, log.phase))
        else:
            items = self.draw_press(log, powers)
            note = self.w.fixed("draw", powers=_and_words(powers), phase=log.phase.name)
        log.press = (log.press + "\n" if log.press else "") + self._join(items)
        log.notes = (log.notes + "\n" if log.notes else "") + note + "\n"

    def standings(self) -> None:
        """A running game: the GM sums up where things stand in the last phase's notes."""
        log = self.sim.log[-1]
        pos = log.after
        counts = {p: len(pos.centres_of(p)) for p in POWERS if units_of(pos, p) or pos.centres_of(p)}
        ranked = sorted(counts, key=lambda p: (-counts[p], p))
        top = [p for p in ranked if counts[p] == counts[ranked[0]]]
        low = ranked[-1]
        lines = [self.w.fixed("standings", phase=log.phase.name, top=_and_words(top),
                              leads="leads" if len(top) == 1 else "lead", n=counts[top[0]], low=low, low_n=counts[low])]
        stabs = [(Phase.from_slug(ph), a, b) for ph, evs in self.s.events.items() for k, a, b in evs if k == "stab"]
        if stabs:
            ph, a, b = max(stabs)
            lines.append(self.w.fixed("feud", a=a, b=b, phase=ph.name))
        if self.phase_name(pos.phase) not in log.notes:
            lines.append(self.w.fixed("due", phase=self.phase_name(pos.phase), when=self.s.deadlines[0]))
        log.notes = (log.notes + "\n" if log.notes else "") + " ".join(x for x in lines if x) + "\n"


def _count_word(n: int) -> str:
    return {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five"}.get(n, str(n))


def _public_name(phase: Phase) -> str:
    """A hidden game's public notes name only the next public turn, never a retreat or an
    adjustment phase (that would tell everyone that someone was dislodged, or adjusts)."""
    if phase.kind == "movement":
        return phase.name
    return (Phase(phase.year, 1) if phase.season_index == 0 else Phase(phase.year + 1, 0)).name


def _and_words(items) -> str:
    items = list(items)
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

