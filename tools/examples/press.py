"""Press and GM notes, composed from phrase banks (data/press/*.yml) and what happened."""

from __future__ import annotations

import random
from pathlib import Path

from dipgen.board import province_of
from dipgen.orders import Move
from dipgen.phase import Phase
from dipgen.position import Position
import yaml

from .board import ANY_DIST, BOARD, HOME, place_name, POWERS, SEAS
from .standard import movement_events
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
    "notes": {...}}}, from data/press/<family>.yml. A category written ``{same_as: FAMILY}``
    is that family's bank (one loaded before it), less the templates listed in ``without``."""
    banks: dict = {}
    for family in families:
        path = DATA / "press" / f"{family}.yml"
        raw = _load(path)
        banks[family] = {}
        for section in ("press", "notes"):
            table = {}
            for cat, items in raw[section].items():
                if isinstance(items, dict):
                    base = banks[items["same_as"]][section][cat]
                    drop = items.get("without", [])
                    missing = [t for t in drop if t not in base]
                    if missing:
                        raise ValueError(f"{path}: {section}.{cat}: 'without' names templates "
                                         f"{items['same_as']} does not have: {missing}")
                    items = [t for t in base if t not in drop]
                table[cat] = list(items)
            banks[family][section] = table
    return banks


BANKS = load_banks()
PRESS, NOTES = BANKS["standard"]["press"], BANKS["standard"]["notes"]
STAB_PRESS, STAB_NOTES = BANKS["stab"]["press"], BANKS["stab"]["notes"]
BLIND_PRESS, BLIND_NOTES = BANKS["blind"]["press"], BANKS["blind"]["notes"]


class Writer:
    """Draws press and notes from the template grammar without repeating itself."""

    def __init__(self, rng: random.Random, style: str):
        self.rng = rng
        self.used: dict[str, set] = {}
        self.style = style  # "bold" or "plain" headings for press items

    def pick(self, table: dict, cat: str) -> str:
        items = table[cat]
        used = self.used.setdefault(f"{id(table)}:{cat}", set())
        free = [i for i in range(len(items)) if i not in used]
        if not free:
            used.clear()
            free = list(range(len(items)))
        i = self.rng.choice(free)
        used.add(i)
        return items[i]

    def press(self, cat: str, me: str, you: str = "All", **slots) -> str:
        text = self.pick(PRESS, cat)
        me_c = CAPITAL.get(me, me)
        you_c = CAPITAL.get(you, you)
        line = text.format(me=me_c, you=you_c, adj=ADJ.get(me, me), **slots)
        head, _, body = line.partition(": ")
        if self.style == "bold":
            return f"**{head}:** {body}"
        return f"*{head}:* {body}"

    def note(self, cat: str, **slots) -> str:
        return self.pick(NOTES, cat).format(**slots)

class Composer:
    """Press and GM notes for each phase of a simulated game, keyed to what happened."""

    def __init__(self, sim: Sim, rng: random.Random, style: str):
        self.sim, self.rng = sim, rng
        self.w = Writer(rng, style)
        self.s = sim.s
        self.replacements = {}
        for power, who in self.s.players.items():
            if isinstance(who, list):
                for item in who[1:]:
                    self.replacements[item[1]] = (power, who[0] if isinstance(who[0], str) else who[0][0], item[0])
        self.draw_proposed = False

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
        alive = [p for p in (pool or POWERS) if p != power and (pos.units_of(p) or pos.centres_of(p))]
        if not alive:
            return "All"
        mine = [u.province for u in pos.units_of(power)] or sorted(HOME[power])

        def closeness(p):
            theirs = [u.province for u in pos.units_of(p)] or sorted(HOME[p])
            return min(ANY_DIST[a].get(b, 99) for a in mine for b in theirs)
        alive.sort(key=lambda p: (closeness(p), p))
        return self.rng.choice(alive[:2])

    def compose(self) -> None:
        logs = self.sim.log
        last_move = None
        for i, log in enumerate(logs):
            prev = logs[last_move:i] if last_move is not None else []
            if log.phase.kind == "movement":
                log.press = self.movement_press(log, prev, logs[last_move] if last_move is not None else None)
                last_move = i
            elif log.phase.kind == "retreats":
                log.press = self.retreat_press(log)
            else:
                log.press = self.winter_press(log)
            log.notes = self.notes(log, i)
        self.finish()

    def finish(self) -> None:
        """End-of-game statements and the GM's last word, on the last phase played."""
        if self.sim.result is None:
            self.standings()
            return
        log = self.sim.log[-1]
        kind, powers = self.sim.result
        alive = [p for p in POWERS if log.after.units_of(p)]
        items = []
        if kind == "solo":
            winner = powers[0]
            items.append(self.w.press("endgame_winner", winner, "All",
                                      prov=place_name(self.rng.choice(sorted(HOME[winner])))))
            for p in self.rng.sample([x for x in alive if x != winner], 2):
                items.append(self.w.press("endgame", p, winner, prov=place_name(sorted(HOME[p])[0])))
            n = len(log.after.centres_of(winner))
            note = (f"{winner} has {n} supply centres and wins. Congratulations to {self.player(winner, log.phase)}, "
                    "and thanks to everyone for playing it out. End-of-game statements are welcome; "
                    "I'll publish them with the final map.")
        else:
            for p in self.rng.sample(powers, 2):
                items.append(self.w.press("endgame", p, self.rng.choice([x for x in powers if x != p]),
                                          prov=place_name(sorted(HOME[p])[0])))
            note = (f"The draw proposal ({_and_words(powers)}) passed unanimously. The game ends after "
                    f"{log.phase.name}. Thank you all.")
        log.press = (log.press + "\n" if log.press else "") + self._join(items)
        log.notes = (log.notes + "\n" if log.notes else "") + note + "\n"

    def standings(self) -> None:
        """A running game: the GM sums up where things stand in the last phase's notes."""
        log = self.sim.log[-1]
        pos = log.after
        counts = {p: len(pos.centres_of(p)) for p in POWERS if pos.units_of(p) or pos.centres_of(p)}
        ranked = sorted(counts, key=lambda p: (-counts[p], p))
        top = [p for p in ranked if counts[p] == counts[ranked[0]]]
        low = ranked[-1]
        stabs = [(Phase.from_slug(ph), a, b) for ph, evs in self.s.events.items() for k, a, b in evs if k == "stab"]
        lines = [f"Where we stand after {log.phase.name}: {_and_words(top)} "
                 f"{'leads' if len(top) == 1 else 'lead'} on {counts[top[0]]} centres; "
                 f"{low} is down to {counts[low]}."]
        if stabs:
            ph, a, b = max(stabs)
            lines.append(f"{a} and {b} have not been on speaking terms since {ph.name}, "
                         "and the press suggests nobody has forgiven anybody.")
        if pos.phase.name not in log.notes:
            lines.append(f"{pos.phase.name} orders are due {self.s.deadlines[0]}.")
        log.notes = (log.notes + "\n" if log.notes else "") + " ".join(lines) + "\n"

    def _join(self, items) -> str:
        return "\n\n".join(items) + "\n" if items else ""

    def movement_press(self, log: PhaseLog, prev: list, last_move: PhaseLog | None) -> str:
        pos = log.before
        w, rng = self.w, self.rng
        cands = []  # (priority, text)
        alive = [p for p in POWERS if pos.units_of(p)]
        if log.phase == Phase(1901, 0):
            for p in rng.sample(alive, 3):
                cands.append((5, w.press("opening", p, self.neighbour(p, pos))))
        for kind, a, b in log.events:
            prov = self.border(pos, a, b)
            if kind == "ally":
                cands.append((6, w.press("ally", a, b, prov=place_name(prov))))
            elif kind == "war":
                cands.append((6, w.press("war", a, b)))
            elif kind == "stab":
                target = self.stab_target(log, a, b) or prov
                cands.append((7, w.press("stab_lie", a, b, prov=place_name(target))))
        if last_move is not None:
            for kind, a, b in last_move.events:
                if kind == "stab":
                    target = self.stab_target(last_move, a, b) or self.border(pos, a, b)
                    cands.append((8, w.press("stab_outrage", b, a, prov=place_name(target), year=pos.phase.year + 1)))
                    if rng.random() < 0.6:
                        cands.append((4, w.press("stab_excuse", a, b, prov=place_name(target))))
            ev = movement_events(last_move)
            for victim, attacker, prov in ev["dislodged"]:
                if pos.units_of(victim) and rng.random() < 0.5:
                    cands.append((3 + rng.random(), w.press("dislodged", victim, attacker, prov=place_name(prov))))
            for a, b, prov in ev["bounces"][:2]:
                if rng.random() < 0.35:
                    cands.append((2 + rng.random(), w.press("bounce", a, b, prov=place_name(prov))))
            for p, prov in ev["convoys"][:1]:
                cands.append((4 + rng.random(), w.press("convoy", p, "All", prov=place_name(prov))))
            for mover, helper, prov in ev["thanks"][:1]:
                if rng.random() < 0.7:
                    cands.append((4 + rng.random(), w.press("thanks", mover, helper, prov=place_name(prov))))
            if last_move.nmr and rng.random() < 0.7:
                p = last_move.nmr[0]
                q = self.neighbour(p, pos)
                if q != "All":
                    cands.append((3, w.press("nmr", q, p)))
        if last_move is not None:
            for p in POWERS:
                if last_move.before.units_of(p) and not pos.units_of(p) and not pos.centres_of(p):
                    q = rng.choice([x for x in alive if x != p])
                    cands.append((5, w.press("eulogy", q, p)))
            ev = movement_events(last_move)
            if (ev["dislodged"] or ev["convoys"]) and rng.random() < 0.3:
                who, prov = (ev["dislodged"][0][1], ev["dislodged"][0][2]) if ev["dislodged"] else ev["convoys"][0]
                if pos.units_of(who):
                    cands.append((3.5, w.press("propaganda", who, prov=place_name(prov))))
        changes = [c for lg in prev for c in lg.changes]
        gained = [(c, old, new) for c, old, new in changes if old is not None]
        for c, old, new in gained[:3]:
            if rng.random() < 0.5:
                cands.append((3 + rng.random(), w.press("boast", new, old, prov=place_name(c))))
            elif pos.units_of(old):
                cands.append((3 + rng.random(), w.press("lost_centre", old, new, prov=place_name(c))))
        counts = pos.centre_counts(POWERS)
        leader = max(POWERS, key=lambda p: (counts[p], p))
        if counts[leader] >= 11 and rng.random() < 0.6:
            other = self.neighbour(leader, pos)
            if other != "All":
                cands.append((5, w.press("leader", other, leader, n=counts[leader])))
        if self.s.draw_after:
            end = Phase.from_slug(self.s.draw_after)
            if end.year - pos.phase.year <= 1 and rng.random() < 0.6:
                p = rng.choice(alive)
                cands.append((4, w.press("draw", p, self.neighbour(p, pos))))
        while len(cands) < 2:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("quiet", p, self.neighbour(p, pos))))
        if rng.random() < 0.4:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("quiet", p, self.neighbour(p, pos))))
        cands.sort(key=lambda c: -c[0])
        k = rng.choice([2, 3, 3, 4])
        return self._join([t for _, t in cands[:k]])

    def retreat_press(self, log: PhaseLog) -> str:
        if self.rng.random() < 0.5:
            return ""
        d = log.before.dislodged[0]
        return self._join([self.w.press("dislodged", d.unit.power, d.by_power, prov=place_name(d.unit.province))])

    def winter_press(self, log: PhaseLog) -> str:
        items = []
        pos = log.before
        for p, n in sorted(log.due.items(), key=lambda t: -abs(t[1])):
            if len(items) >= 2:
                break
            if n >= 2 or (n > 0 and self.rng.random() < 0.3):
                home = [c for c in sorted(HOME[p]) if pos.owners.get(c) == p]
                units = "One new unit" if n == 1 else f"{_count_word(n)} new units"
                items.append(self.w.press("builds", p, self.neighbour(p, pos), units=units,
                                          prov=place_name(self.rng.choice(home))))
            elif n < 0 and p not in log.nmr and self.rng.random() < 0.6:
                items.append(self.w.press("removals", p, self.neighbour(p, pos)))
        # farewells for powers that were just eliminated
        for p in POWERS:
            if pos.units_of(p) and not pos.centres_of(p) and self.rng.random() < 0.9:
                taker = self.last_taker(p)
                items.append(self.w.press("eliminated", p, taker or "All"))
        return self._join(items)

    def last_taker(self, power: str) -> str | None:
        for log in reversed(self.sim.log):
            for c, old, new in log.changes:
                if old == power:
                    return new
        return None

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

    def stab_target(self, log: PhaseLog, a: str, b: str) -> str | None:
        for o in log.orders.get(a, []):
            if isinstance(o, Move):
                prov = province_of(o.dest)
                occ = log.before.unit_at(prov)
                if (occ is not None and occ.power == b) or log.before.owners.get(prov) == b:
                    return prov
        return None

    def notes(self, log: PhaseLog, i: int) -> str:
        w, rng = self.w, self.rng
        out = []
        for power, text, why in log.misorders:
            out.append(w.note("misorder", power=power, text=text, why=why, why_cap=why[0].upper() + why[1:]))
        if log.phase.kind == "adjustments":
            for p in log.nmr:
                removed = [r.order.format(BOARD).replace("Remove ", "") for r in log.results
                           if r.power == p and r.default]
                out.append(w.note("cd_removal", power=p, units=_and_words(removed)))
        else:
            for p in log.nmr:
                out.append(w.note("nmr", power=p))
        if log.phase.slug in self.replacements:
            power, old, new = self.replacements[log.phase.slug]
            out.append(w.note("replaced", power=power, old=old, new=new))
        for p in POWERS:
            if (log.before.units_of(p) or log.before.centres_of(p)) and not (log.after.units_of(p) or log.after.centres_of(p)):
                out.append(w.note("eliminated", power=p, player=self.player(p, log.phase)))
        if log.phase.kind == "retreats" and rng.random() < 0.3:
            out.append(w.note("retreats"))
        if log.phase.kind == "movement" and not log.nmr and not out and rng.random() < 0.25:
            late = rng.choice([p for p in POWERS if log.before.units_of(p)])
            out.append(w.note("all_in", late=late))
        if i == 1 or (rng.random() < 0.08):
            out.append(w.note("press"))
        if rng.random() < 0.12:
            out.append(w.note("misc_winter" if log.phase.kind == "adjustments" else "misc"))
        if self.s.draw_after and not self.draw_proposed and log.phase.kind == "movement":
            end = Phase.from_slug(self.s.draw_after)
            if log.phase.year == end.year - 1 and log.phase.season_index == 1:
                alive = [p for p in POWERS if log.after.units_of(p)]
                big = sorted(alive, key=lambda p: -len(log.after.centres_of(p)))[:3]
                out.append(w.note("draw_proposal", powers=_and_words(sorted(big))))
                self.draw_proposed = True
        nxt = self.next_phase(i)
        if nxt is not None and (rng.random() < 0.3 or not out):
            out.append(w.note("deadline", next=nxt.name, when=rng.choice(self.s.deadlines)))
        return self._join(out)

    def next_phase(self, i: int) -> Phase | None:
        logs = self.sim.log
        if i + 1 < len(logs):
            return logs[i + 1].phase
        return self.sim.pos.phase if self.sim.result is None else None


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

