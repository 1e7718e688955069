"""The feature checks: what each example game must show (`require`), counted from dipgen's own
replay of the game's folder. They read only the replay and the story, never the simulation, so
the generator checks each game it writes with them and tests/test_example_games.py checks the
committed games with the same code. Stab!'s contact kinds and Blind's spy counts are also what
the simulation watches to know which scenes an example still lacks."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

from dipgen.core.board import province_of
from dipgen.core.results import Bounce, Kind
from dipgen.io.gamefiles import load_game
from dipgen.core.orders import Build, Convoy, Disband, Move, Remove, Retreat, Support
from dipgen.variants.blind.rules import CounterEspionage
from dipgen.core.phase import Phase
from dipgen.variants import get_variant
from dipgen.variants.stab.visibility import contacts

from .board import HOME, KINDS, on_board, POWERS, reaches, spies_of


def feature_counts(history) -> Counter:
    """Counts of the things an example game must show, read from dipgen's own replay."""
    c: Counter = Counter()
    for rec in history.records:
        kind = rec.phase.kind
        c["press"] += bool(rec.press.strip())
        c["notes"] += bool(rec.notes.strip())
        c["nmr"] += len(rec.nmr)
        if kind == "movement":
            c["dislodgements"] += len(rec.dislodged) + len(rec.destroyed)
            moved = {r.unit.province: r for r in rec.results if isinstance(r.order, Move) and r.unit}
            convoying = Counter((r.order.target.province, r.order.dest) for r in rec.results
                                if isinstance(r.order, Convoy) and r.succeeded)
            beaten = {d.attacker_from for d in rec.dislodged + rec.destroyed}
            for r in moved.values():
                if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, province_of(r.order.dest)):
                    c["convoys"] += 1
                    if convoying[(r.unit.province, r.order.dest)] >= 2:
                        c["multi_fleet_convoys"] += 1
            for r in rec.results:
                if isinstance(r.order, Support) and r.order.dest and r.succeeded and r.order.target.province in beaten:
                    c["supported_attacks"] += 1
        elif kind == "retreats":
            for r in rec.results:
                if isinstance(r.order, Retreat) and r.succeeded:
                    c["retreats"] += 1
                if isinstance(r.order, Disband) and not r.default:
                    c["disbands"] += 1
        else:
            for r in rec.results:
                if isinstance(r.order, Build) and r.succeeded:
                    c["builds"] += 1
                if isinstance(r.order, Remove) and r.succeeded:
                    c["removals"] += 1
                    if r.default:
                        c["cd_removals"] += 1
    pos = history.position
    c["eliminated"] = sum(1 for p in POWERS if not on_board(pos).units_of(p) and not pos.centres_of(p))
    c["years"] = history.records[-1].phase.year - history.records[0].phase.year + 1 if history.records else 0
    c["warnings"] = len(history.warnings)
    return c


def summary(history, script=None) -> str:
    """What the generator prints about a game it wrote: the centre table and the feature counts."""
    lines = [f"{history.info.slug}: {history.info.title}"]
    lines.append("  " + (history.result_line() or f"running, waits for {history.next_phase.name}"))
    table = history.centre_table()
    lines.append("  " + "         " + " ".join(f"{str(y)[2:]:>3}" for y, _ in table))
    for p in POWERS:
        lines.append(f"  {p:<9}" + " ".join(f"{counts.get(p, 0):>3}" for _, counts in table))
    c = feature_counts(history)
    keys = ["years", "convoys", "multi_fleet_convoys", "supported_attacks", "dislodgements", "retreats", "disbands",
            "builds", "removals", "cd_removals", "nmr", "eliminated", "press", "notes", "warnings"]
    lines.append("  " + ", ".join(f"{k} {c[k]}" for k in keys))
    if history.variant.name == "stab":
        sc = stab_counts(history)
        lines.append("  contacts: " + ", ".join(f"{k} {sc[k]}" for k in STAB_KEYS))
    if history.variant.name == "blind":
        bc = blind_counts(history)
        lines.append("  spies: " + ", ".join(f"{k} {bc[k]}" for k in BLIND_KEYS))
        lines.append("  contacts: " + ", ".join(f"{k} {bc[k]}" for k in ("attack_found", "attack_received", "meetings",
                                                                          "spy_reports", "destroyed")))
    if script is not None:
        stabs = [(ph, a, b) for ph, evs in sorted(script.events.items()) for k, a, b in evs if k == "stab"]
        lines.append("  stabs: " + "; ".join(f"{a} stabs {b} ({Phase.from_slug(ph).name})" for ph, a, b in stabs))
    return "\n".join(lines)


def contact_kinds(rec) -> Counter:
    """The kinds of contact a Stab! movement phase shows (rec: a PhaseLog or a PhaseRecord), by
    dipgen's own `contacts`: who touched a foreign unit, and whose orders were disputed."""
    touched, disputed = contacts(rec, KINDS)
    unit_at = {u.province: u for u in on_board(rec.before).units}
    eff = [r for r in rec.results if r.effective]
    moves = [r for r in eff if isinstance(r.order, Move) and not r.has(Kind.NO_CONVOY)]
    moved = {m.unit.province for m in moves if m.succeeded}
    by_dest = defaultdict(list)
    for m in moves:
        by_dest[province_of(m.order.dest)].append(m)
    c: Counter = Counter()
    for m in moves:
        there = unit_at.get(province_of(m.order.dest))
        if there is not None and there.power != m.power and m.unit in touched and there in touched:
            c["direct"] += 1
    for dest, ms in by_dest.items():
        there = unit_at.get(dest)
        if len({m.power for m in ms}) >= 2 and (there is None or dest in moved):
            c["same_space"] += 1
            if there is None and not any(m.succeeded for m in ms):
                c["empty_bounce"] += 1
    for r in eff:
        if isinstance(r.order, Support) and r.unit in disputed:
            if r.has(Kind.CUT):
                c["cut"] += 1
            elif r.succeeded and unit_at.get(r.order.target.province) in touched:
                c["support_contact"] += 1
        if isinstance(r.order, Convoy) and r.unit in disputed:
            if unit_at.get(r.order.target.province) in touched:
                c["convoy_contact"] += 1
            elif r.unit in touched:
                c["convoy_attacked"] += 1
        if isinstance(r.order, Move) and any(n.reason is Bounce.SELF_STANDOFF for n in r.notes):
            c["self_standoff"] += 1
            c["self_standoff_shown"] += r.unit in disputed
    c["hidden_orders"] = sum(1 for r in eff if r.unit not in disputed)
    return c


STAB_KEYS = ("direct", "empty_bounce", "same_space", "support_contact", "convoy_contact", "cut", "convoy_attacked",
             "self_standoff", "self_standoff_shown", "hidden_orders", "destroyed")


def stab_counts(history) -> Counter:
    c: Counter = Counter()
    for rec in history.records:
        if rec.phase.kind == "movement":
            c.update(contact_kinds(rec))
            c["destroyed"] += len(rec.destroyed)
    return c


# Press in a hidden game is public: it may say only what the public report shows (revealed
# orders, dislodgements, NMRs, centre totals), diplomacy, rumour and bluster. {prov} slots are
# filled from the public report (or a home centre at the end), never from where units really are.
def spy_survivors(rec) -> list[tuple[str, str, str]]:
    """The spies standing when a movement phase's spy turn ends, before any are lost or replaced
    at the end of the Fall turn (rec: a PhaseLog or a PhaseRecord), as (power, kind, location)."""
    out = []
    for r in rec.results:
        if r.unit is None or r.unit.kind != "S" or r.has(Kind.DESTROYED):
            continue
        moved = isinstance(r.order, Move) and r.succeeded
        out.append((r.power, "S", province_of(r.order.dest) if moved else r.unit.province))
    return out


def spy_kinds(rec) -> Counter:
    """What the spies did in one phase (rec: a PhaseLog or a PhaseRecord of a Blind game): moves,
    holds, counter-espionage, kills (one in two hunters killing each other), and the spies lost
    and added when the Fall turn ended."""
    c: Counter = Counter()
    if rec.phase.kind == "movement":
        hunters = defaultdict(set)
        for r in rec.results:
            if r.unit is None or r.unit.kind != "S":
                continue
            o = r.order
            if isinstance(o, Move):
                c["spy_moves"] += r.succeeded
                c["spy_misorders"] += r.has(Kind.ILLEGAL)
            elif isinstance(o, CounterEspionage):
                c["counter_espionage"] += 1
                hunters[r.unit.province].add(r.power)
                c["ce_at_home"] += r.unit.province in HOME[r.power]
                c["ce_abroad"] += r.unit.province not in HOME[r.power]
            else:
                c["spy_holds"] += 1
            if r.has(Kind.DESTROYED):
                c["spies_killed"] += 1
        dead = {(r.power, r.unit.province) for r in rec.results if r.unit is not None and r.unit.kind == "S"
                and r.has(Kind.DESTROYED)}
        c["mutual_kills"] += sum(1 for prov, ps in hunters.items()
                                 if len(ps) >= 2 and sum((p, prov) in dead for p in ps) >= 2)
        standing = spy_survivors(rec)
    else:
        standing = [(s.power, s.kind, s.loc) for s in spies_of(rec.before)]
    if rec.phase.season_index == 1 and rec.after.phase.season_index == 2:  # the Fall turn ended
        now = Counter((s.power, s.kind, s.loc) for s in spies_of(rec.after))
        added = Counter(s[0] for s in (now - Counter(standing)).elements())
        lost = Counter(s[0] for s in (Counter(standing) - now).elements())
        c["spies_added"] += sum(added.values())
        c["spies_lost"] += sum(lost.values())
        before, after = rec.before.owners, rec.after.owners
        for power, n in added.items():
            taken = sum(1 for p, cap in get_variant("blind").rules.capitals.items()
                        if p != power and after.get(cap) == power and before.get(cap) != power)
            c["spies_for_capitals"] += min(n, taken)
        for power, n in lost.items():
            cap = get_variant("blind").rules.capitals[power]
            c["spies_lost_with_capital"] += min(n, 1) if before.get(cap) == power and after.get(cap) != power else 0
    return c


BLIND_KEYS = ("spy_moves", "spy_holds", "counter_espionage", "ce_at_home", "ce_abroad", "spies_killed",
              "mutual_kills", "spies_lost", "spies_lost_with_capital", "spies_added", "spies_for_capitals",
              "spy_misorders")


def blind_counts(history) -> Counter:
    """Spy events, and the contacts each power's private reports show, from dipgen's replay."""
    from dipgen.view.seen import seen_record as view_record

    c: Counter = Counter()
    for rec in history.records:
        c.update(spy_kinds(rec))
        if rec.phase.kind != "movement":
            continue
        c["destroyed"] += len(rec.destroyed)
        c.update(blind_contacts(history, rec, view_record))
    return c


def blind_contacts(history, rec, view_record) -> Counter:
    """From each power's private view of a movement phase: foreign units it found by attacking
    them where they stood, attacks it received, meetings in a province both tried for, and units
    only its spies saw."""
    c: Counter = Counter()
    left = {r.unit.province for r in rec.results if isinstance(r.order, Move) and r.succeeded and r.unit is not None}
    for power in POWERS:
        view = view_record(history, rec, power)
        at = {u.province: u for u in on_board(view.before).units}
        moves = [r for r in view.results if isinstance(r.order, Move) and r.unit is not None and r.unit.kind != "S"]
        mine = [r for r in moves if r.power == power]
        theirs = [r for r in moves if r.power != power]
        for r in mine:
            there = at.get(province_of(r.order.dest))
            if there is not None and there.power != power and there.province not in left:
                c["attack_found"] += 1  # the unit attacked stayed to meet it
        for r in theirs:
            there = at.get(province_of(r.order.dest))
            if there is not None and there.power == power:
                c["attack_received"] += 1
        for r in mine:
            c["meetings"] += sum(1 for q in theirs if province_of(q.order.dest) == province_of(r.order.dest))
        spied = {s.province for s in spies_of(rec.after) if s.power == power}
        c["spy_reports"] += sum(1 for u in on_board(view.before).units if u.power != power and u.province in spied)
    return c


# ---------------------------------------------------------------------- what each example must show

def needs(history, ok: bool, what: str, counts=None) -> None:
    if not ok:
        raise AssertionError(f"example game {history.info.slug}: {what}" + (f" ({dict(counts)})" if counts else ""))


def require(history, script) -> None:
    """The features each example game exists to show, read from dipgen's replay of its folder
    (`history`) and the story it was written from (`script`). The generator checks every game
    it writes with it, and tests/test_example_games.py checks the committed games."""
    c = feature_counts(history)
    need = lambda ok, what, counts=c: needs(history, ok, what, counts)  # noqa: E731
    records = history.records
    need(all(r.press.strip() for r in records if r.phase.kind == "movement"), "every season has press")
    need(c["notes"] >= len(records) // 4, "the GM writes notes in a quarter of the phases or more")
    played = {r.phase.slug for r in records}
    warned = sorted(Path(str(w.file)).stem for w in history.warnings)
    need(warned == sorted(slug for slug in script.misorders if slug in played),
         f"warnings ({warned}) come only from the story's misorders, one each")
    need(c["dislodgements"] >= 2 and c["retreats"] >= 1 and c["builds"] >= 3, "dislodgements, retreats, builds")
    if script.stop:
        need(history.next_phase is not None and history.result is None, "the running game waits for its next phase")
        need(c["years"] >= 3, "three years or more")
    else:
        need(history.result is not None and history.next_phase is None and history.result_line(),
             "the finished game has a result")
        if script.expect:
            kind, what = script.expect
            need(history.result.kind == kind, f"the story ends in a {kind}")
            need(history.result.powers == (what,) if kind == "solo" else len(history.result.powers) == what,
                 f"the {kind} is {what}'s" if kind == "solo" else f"a {what}-way draw")
        need(c["dislodgements"] >= 6 and c["retreats"] >= 2 and c["disbands"] >= 1, "dislodgements, retreats, disbands")
        need(c["builds"] >= 10 and c["removals"] >= 3 and c["nmr"] >= 1, "builds, removals, an NMR")
        need(c["eliminated"] >= 1, "someone is eliminated")
    REQUIRE.get(history.variant.name, require_standard)(history, script, c)


def require_standard(history, script, c: Counter) -> None:
    """A standard example: stabs, convoys, supported attacks, civil disorder, misorders."""
    need = lambda ok, what, counts=c: needs(history, ok, what, counts)  # noqa: E731
    events = [e for evs in script.events.values() for e in evs]
    need(any(e[0] == "stab" for e in events), "a stab or two")
    need(c["dislodgements"] >= 3 and c["builds"] >= 5, "dislodgements and builds")
    if script.stop:
        return
    need(c["years"] >= 10 and len(history.centre_table()) >= 10, "ten years or more")
    need(c["convoys"] >= 3 and c["multi_fleet_convoys"] >= 1, "convoys, one by several fleets")
    convoyers = {r.power for rec in history.records for r in rec.results
                 if isinstance(r.order, Move) and r.succeeded and r.unit and r.unit.kind == "A"
                 and not reaches(r.unit, province_of(r.order.dest))}
    need(len(convoyers & {"England", "Italy", "Turkey"}) >= 2, f"the sea powers convoy ({sorted(convoyers)})")
    need(c["supported_attacks"] >= 5 and c["dislodgements"] >= 8, "supported attacks that dislodge")
    need(c["retreats"] >= 3 and c["builds"] >= 15 and c["notes"] >= 10, "retreats, builds, notes")
    need(c["cd_removals"] >= 1 and c["cd_removals"] + c["nmr"] >= 2, "NMRs, and removals in civil disorder")
    need(1 <= c["warnings"] <= 3, "a misorder or two")
    need(any(e[0] == "ally" for e in events), "alliances form during the game")


def require_stab(history, script, c: Counter) -> None:
    """A Stab! example places its units, and shows every kind of contact the reports reveal."""
    k = stab_counts(history)
    need = lambda ok, what, counts=k: needs(history, ok, what, counts)  # noqa: E731
    first = load_game(Path(history.info.folder)).phases.get(Phase(history.info.start, 0))
    need(first is not None and first.extra.get("placement"), "the first phase places the units", {})
    need(k["direct"] >= 3 and k["empty_bounce"] >= 1 and k["support_contact"] >= 2 and k["cut"] >= 1,
         "direct conflicts, bounces in an empty space, supports in contact, cut supports")
    need(k["convoy_attacked"] >= 1 and k["convoy_contact"] >= 1, "a convoying fleet under attack, a convoy in contact")
    need(k["self_standoff_shown"] >= 1 and k["destroyed"] >= 1, "a self-standoff shown, a unit destroyed")
    need(c["nmr"] >= 1 and c["removals"] >= 1, "an NMR and removals", c)
    if script.stop:
        need(c["years"] <= 4, "four years at most", c)
        return
    need(c["years"] >= 8, "eight years or more", c)


def require_blind(history, script, c: Counter) -> None:
    """A Blind example places some spies and shows them at work, and every kind of contact the
    private reports reveal."""
    k = blind_counts(history)
    need = lambda ok, what, counts=k: needs(history, ok, what, counts)  # noqa: E731
    first = load_game(Path(history.info.folder)).phases.get(Phase(history.info.start, 0))
    need(first is not None and first.extra.get("spies"), "the first phase places some spies", {})
    need(k["spy_moves"] >= 20 and k["spy_holds"] >= 5, "spies move and hold")
    need(k["ce_at_home"] >= 1 and k["ce_abroad"] >= 1, "spies hunt at home and abroad")
    need(k["spies_killed"] >= 3 and k["mutual_kills"] >= 1, "spies killed, two hunters killing each other")
    need(k["spies_added"] >= 3 and k["spies_lost_with_capital"] >= 1 and k["spies_for_capitals"] >= 1,
         "spies replaced, lost with a capital, gained for one")
    need(k["attack_found"] >= 3 and k["attack_received"] >= 3 and k["meetings"] >= 3 and k["spy_reports"] >= 3,
         "every kind of contact, three times or more")
    need(c["nmr"] >= 1 and c["removals"] >= 1, "an NMR and removals", c)
    first_phase, last_phase = history.records[0].phase, history.records[-1].phase
    need(any(history.player(p, first_phase) != history.player(p, last_phase) for p in POWERS),
         "a power changes hands", {})
    if script.stop:
        need(c["years"] <= 4, "four years at most", c)
        return
    need(c["years"] >= 8 and k["destroyed"] >= 1, "eight years or more, a unit destroyed")
    need(1 <= c["warnings"] <= 2, "a misorder or two", c)


#: variant name -> the checks of its family (after the ones every example passes)
REQUIRE = {"standard": require_standard, "stab": require_stab, "blind": require_blind}
