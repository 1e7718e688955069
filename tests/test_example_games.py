"""The bundled example games: every folder in games/ checks clean, the finished game is a
real game (ten years or more, a result, convoys, dislodgements, retreats, builds, removals,
press and notes) and the running game waits for its next phase. The Stab! examples (a
finished one and a running one) place their units freely, and between them show every kind
of contact the variant's reports reveal; their press says only what the public report shows.
The Blind examples (a finished one and a running one) place some spies with the ``spies`` key,
and between them show the spies at work (moving, holding, hunting at home and abroad, killing
and being killed, replaced, lost with a capital, gained for one) and every kind of contact the
private reports reveal; their press and notes name nothing the public, which sees only the
centre totals and the NMRs, cannot know.

The counts here are read from dipgen's own replay, independently of the generator
(tools/example_games.py), so a generator that quietly lost a feature would fail here.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from dipgen.cli import main as dipgen_main
from dipgen.game import discover_games, load_game
from dipgen.history import replay
from collections import defaultdict

from dipgen.board import province_of
from dipgen.orders import (Build, Concealed, Convoy, CounterEspionage, Disband, Move, Remove, Retreat, Support,
                           parse_unit)
from dipgen.position import Unit
from dipgen.phase import Phase
from dipgen.report import phase_report
from dipgen.variants.stab import contacts
from dipgen.visibility import view_record

GAMES = Path(__file__).resolve().parent.parent / "games"
FOLDERS = discover_games(GAMES)


def _history(folder: Path):
    return replay(load_game(folder))


def _counts(history) -> Counter:
    board = history.game.variant.board
    c: Counter = Counter()
    for rec in history.records:
        c["press"] += bool(rec.press.strip())
        c["notes"] += bool(rec.notes.strip())
        c["nmr"] += len(rec.nmr)
        if rec.phase.kind == "movement":
            c["dislodged"] += len(rec.dislodged) + len(rec.destroyed)
            convoying = Counter((r.order.target.province, r.order.dest) for r in rec.results
                                if isinstance(r.order, Convoy) and r.succeeded)
            for r in rec.results:
                if isinstance(r.order, Move) and r.succeeded and r.unit and r.unit.kind == "A" \
                        and r.order.dest not in board.army_adj[r.unit.province]:
                    c["convoyed"] += 1
                    c["multi_fleet"] += convoying[(r.unit.province, r.order.dest)] >= 2
                if isinstance(r.order, Support) and r.order.dest and r.succeeded:
                    c["supported_moves"] += 1
        for r in rec.results:
            if isinstance(r.order, Retreat) and r.succeeded:
                c["retreats"] += 1
            if isinstance(r.order, Disband) and not r.default:
                c["disbands"] += 1
            if isinstance(r.order, Build) and r.succeeded:
                c["builds"] += 1
            if isinstance(r.order, Remove) and r.succeeded:
                c["removals"] += 1
                c["cd_removals"] += r.default
    return c


def test_there_are_example_games():
    assert len(FOLDERS) >= 2


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_game_checks_clean(folder):
    history = _history(folder)  # raises GameError on anything dipgen check would call an error
    assert history.records
    assert history.game.title and history.game.gm and history.game.description
    # warnings are allowed only for the deliberate misorders, and there are few of them
    assert len(history.warnings) <= 3


def test_dipgen_check_passes(capsys):
    assert dipgen_main(["check", str(GAMES)]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok,") == len(FOLDERS)


def _finished(variant="standard"):
    done = [h for h in map(_history, FOLDERS) if h.result is not None and h.game.variant.name == variant]
    assert done, f"no finished {variant} example game"
    return done


def _running(variant="standard"):
    running = [h for h in map(_history, FOLDERS) if h.result is None and h.game.variant.name == variant]
    assert running, f"no running {variant} example game"
    return running


def test_finished_game_is_a_real_game():
    for h in _finished():
        years = {r.phase.year for r in h.records}
        assert max(years) - min(years) + 1 >= 10
        assert h.next_phase is None
        assert h.result_line()
        c = _counts(h)
        assert c["convoyed"] >= 3 and c["multi_fleet"] >= 1, c
        assert c["supported_moves"] >= 5 and c["dislodged"] >= 5, c
        assert c["retreats"] >= 2 and c["disbands"] >= 1, c
        assert c["builds"] >= 10 and c["removals"] >= 3 and c["cd_removals"] >= 1, c
        assert c["nmr"] >= 1, c
        movement = [r for r in h.records if r.phase.kind == "movement"]
        assert all(r.press.strip() for r in movement), "press every season"
        assert c["notes"] >= 10, c
        final = h.position
        powers = h.game.variant.powers()
        assert any(not final.units_of(p) and not final.centres_of(p) for p in powers), "someone is eliminated"
        assert len(h.centre_table()) >= 10


def test_running_game_waits_for_orders():
    for h in _running():
        assert h.next_phase is not None
        years = {r.phase.year for r in h.records}
        assert len(years) >= 3
        c = _counts(h)
        assert c["press"] and c["notes"] and c["builds"], c


def test_orders_are_written_in_varied_notation():
    texts = [ol.text for h in map(_history, FOLDERS) for r in h.records for ls in r.orders.values() for ol in ls]
    assert any(t == t.lower() and t[0] in "af" for t in texts), "lower case"
    assert any("-" in t and " - " not in t and "->" not in t for t in texts), "A Par-Bur"
    assert any("->" in t for t in texts), "arrows"
    assert any(len(t.split()[1]) > 3 and t.split()[1].istitle() for t in texts if t[0] in "AF"), "full names"


# ---------------------------------------------------------------------------- Stab!

def _stab():
    return _finished("stab") + _running("stab")


def _contact_counts(history) -> Counter:
    """The kinds of contact the public reports of a Stab! game show, from `contacts` (who touched
    a foreign unit, whose orders were disputed) and the results themselves."""
    c: Counter = Counter()
    for rec in history.records:
        if rec.phase.kind != "movement":
            continue
        touched, disputed = contacts(rec)
        unit_at = {u.province: u for u in rec.before.units}
        eff = [r for r in rec.results if r.effective]
        moves = [r for r in eff if isinstance(r.order, Move) and not r.has("no_convoy")]
        to = defaultdict(list)
        for m in moves:
            to[province_of(m.order.dest)].append(m)
            there = unit_at.get(province_of(m.order.dest))
            if there is not None and there.power != m.power and {m.unit, there} <= touched:
                c["direct conflict"] += 1
        for dest, ms in to.items():
            if dest not in unit_at and len({m.power for m in ms}) >= 2 and not any(m.succeeded for m in ms):
                c["bounce in an empty space"] += 1
        for r in eff:
            if isinstance(r.order, Support) and r.unit in disputed:
                if r.has("cut"):
                    c["cut support"] += 1
                elif r.succeeded and unit_at.get(r.order.target.province) in touched:
                    c["support of a unit in contact"] += 1
            if isinstance(r.order, Convoy) and r.unit in disputed:
                if unit_at.get(r.order.target.province) in touched:
                    c["convoy of a unit in contact"] += 1
                elif r.unit in touched:
                    c["convoying fleet under attack"] += 1
            if isinstance(r.order, Move) and r.unit in disputed and any(
                    n.kind == "bounce" and n.why == "self-standoff" for n in r.notes):
                c["self-standoff shown"] += 1
        c["destroyed"] += len(rec.destroyed)
    return c


def test_there_are_stab_examples():
    assert _finished("stab") and _running("stab")


def test_stab_placements():
    for h in _stab():
        variant = h.game.variant
        board = variant.board
        first = h.game.phases[Phase(h.game.start, 0)]
        placement = first.extra.get("placement")
        assert isinstance(placement, dict) and set(placement) == set(variant.powers()), first.name
        opening = 0
        placed = set()
        for power, specs in placement.items():
            assert len(specs) == len(board.home_centres(power))
            units = [parse_unit(board, s) for s in specs]
            assert all(province_of(loc) in variant.home_spaces(power) for _, loc in units)
            placed |= {(power, kind, loc) for kind, loc in units}
            opening += sorted(specs) == sorted(board.starting_units[power])
        assert opening <= 1, "placements should differ from the standard opening"
        assert {(u.power, u.kind, u.loc) for u in h.records[0].before.units} == placed  # the game starts from them
    specs = [s for h in _stab() for ss in h.game.phases[Phase(1901, 0)].extra["placement"].values() for s in ss]
    assert "F NTH" in specs, "England uses its North Sea option somewhere"
    centres = {c for h in _stab() for c in h.game.variant.board.centres}
    assert any(province_of(parse_unit(_stab()[0].game.variant.board, s)[1]) not in centres for s in specs), \
        "some units start outside the home centres"


def test_stab_finished_game():
    for h in _finished("stab"):
        years = {r.phase.year for r in h.records}
        assert max(years) - min(years) + 1 >= 8
        assert h.next_phase is None and h.result_line()
        assert h.result.kind in ("solo", "draw")
        c = _counts(h)
        assert c["dislodged"] >= 5 and c["retreats"] >= 2 and c["disbands"] >= 1, c
        assert c["builds"] >= 10 and c["removals"] >= 3 and c["nmr"] >= 1, c
        assert all(r.press.strip() for r in h.records if r.phase.kind == "movement"), "press every season"


def test_stab_running_game():
    for h in _running("stab"):
        years = {r.phase.year for r in h.records}
        assert 3 <= len(years) <= 4
        assert h.next_phase is not None
        c = _counts(h)
        assert c["press"] and c["notes"] and c["builds"] and c["removals"] and c["nmr"], c
        assert c["dislodged"] >= 2 and c["retreats"] >= 1, c


@pytest.mark.parametrize("kind", ["direct conflict", "bounce in an empty space", "support of a unit in contact",
                                  "convoy of a unit in contact", "cut support", "convoying fleet under attack",
                                  "self-standoff shown", "destroyed"])
def test_stab_games_show_every_kind_of_contact(kind):
    for h in _stab():
        assert _contact_counts(h)[kind] >= 1, (h.game.slug, kind)


def test_stab_public_reports_read_like_the_rule_text():
    """Cut supports without their object, convoys under attack without their army, self-standoffs."""
    for h in _stab():
        text = "".join(phase_report(h, r, level="public") for r in h.records)
        lines = [x.split("  -- ")[0].strip() for x in text.splitlines()]  # without the reasons
        assert any(x.endswith("S (*cut*)") or x.endswith("S (*cut, dislodged*)") for x in lines)
        assert any(x.startswith("F ") and (x.endswith(" C") or " C (*" in x) for x in lines)
        assert "(*self-standoff*)" in text and "(*dislodged*)" in text and "(NMR)" in text


def test_hidden_press_says_only_what_the_public_knows():
    """No press or note of a hidden game (Stab! or Blind) names an order the public report withheld,
    a unit or spy as reports write it (``A Par``, ``S Bur``) that the public view does not show, or a
    province where a hidden unit or spy stood or went that season (the capitals sign the press, so
    they are not counted)."""
    for h in _stab() + _blind():
        board = h.game.variant.board
        capitals = {"vie", "lon", "par", "ber", "rom", "mos", "con"}
        known: set[str] = set()
        for rec in h.records:
            pub = view_record(h, rec, "public")
            for u in pub.before.units + pub.after.units:
                known.add(u.province)
            for d in pub.dislodged + pub.destroyed:
                known.add(d.unit.province)
            for r in pub.results:
                if isinstance(r.order, Move):
                    known.add(province_of(r.order.dest))
            text = rec.press + rec.notes
            public_orders = {r.order.format(board) for r in pub.results if not isinstance(r.order, Concealed)}
            for r in rec.results:
                if r.order is None or isinstance(r.order, Concealed):
                    continue
                written = r.order.format(board)
                if written not in public_orders:
                    assert written not in text, (rec.file, written)
            hidden = {u.province for u in rec.before.units + rec.after.units + rec.before.pieces + rec.after.pieces}
            hidden |= {province_of(r.order.dest) for r in rec.results if isinstance(r.order, Move)}
            for p in sorted(hidden - known - capitals):
                name = board.full_name(p)
                assert not re.search(rf"\b{re.escape(name)}\b", text), (rec.file, name)
            shown = {(u.kind, u.loc) for u in pub.before.units + pub.after.units + pub.before.pieces + pub.after.pieces}
            for u in rec.before.units + rec.after.units + rec.before.pieces + rec.after.pieces:
                if (u.kind, u.loc) not in shown:
                    words = f"{u.kind} {board.format_loc(u.loc)}"
                    assert not re.search(rf"(?<![\w/]){re.escape(words)}(?![\w/])", text), (rec.file, words)


# ---------------------------------------------------------------------------- Blind

def _blind():
    return _finished("blind") + _running("blind")


def _spy_counts(history) -> Counter:
    """What the spies of a Blind game did, read from the records: moves, holds, counter-espionage at
    home and abroad, spies killed (and pairs of hunters that killed each other), and the spies lost
    and added (replacements, spies for captured capitals) when each Fall turn ended."""
    variant = history.game.variant
    homes = {p: set(variant.home_centres(p)) for p in variant.powers()}
    c: Counter = Counter()
    for rec in history.records:
        if rec.phase.kind == "movement":
            standing = []
            hunting = defaultdict(set)
            for r in rec.results:
                if r.unit is None or r.unit.kind != "S":
                    continue
                if isinstance(r.order, Move):
                    c["spy moves"] += r.succeeded
                elif isinstance(r.order, CounterEspionage):
                    c["counter-espionage at home" if r.unit.province in homes[r.power] else
                      "counter-espionage abroad"] += 1
                    hunting[r.unit.province].add(r.power)
                else:
                    c["spy holds"] += 1
                if r.has("destroyed"):
                    c["spies killed"] += 1
                    c["hunters killed"] += r.unit.province in hunting and isinstance(r.order, CounterEspionage)
                    continue
                moved = isinstance(r.order, Move) and r.succeeded
                standing.append(Unit(r.power, "S", province_of(r.order.dest) if moved else r.unit.province))
            dead = {(r.power, r.unit.province) for r in rec.results if r.unit and r.unit.kind == "S" and r.has("destroyed")}
            c["mutual kills"] += sum(1 for prov, ps in hunting.items() if len(ps) > 1
                                     and sum((p, prov) in dead for p in ps) > 1)
        else:
            standing = list(rec.before.pieces)
        if rec.phase.season_index == 1 and rec.after.phase.season_index == 2:  # after_fall
            added = Counter(rec.after.pieces) - Counter(standing)
            lost = Counter(standing) - Counter(rec.after.pieces)
            c["spies replaced or gained"] += sum(added.values())
            before, after = rec.before.owners, rec.after.owners
            for spy in added:
                if any(p != spy.power and after.get(cap) == spy.power and before.get(cap) != spy.power
                       for p, cap in variant.capitals.items()):
                    c["spies gained for a capital"] += 1
            for spy in lost:
                cap = variant.capitals[spy.power]
                if before.get(cap) == spy.power and after.get(cap) != spy.power:
                    c["spies lost with the capital"] += 1
    return c


def _blind_contacts(history) -> Counter:
    """The contacts the private reports of a Blind game show, from each power's view."""
    c: Counter = Counter()
    for rec in history.records:
        if rec.phase.kind != "movement":
            continue
        stayed = {r.unit.province for r in rec.results
                  if r.unit is not None and not (isinstance(r.order, Move) and r.succeeded)}
        for power in history.game.variant.powers():
            view = view_record(history, rec, power)
            at = {u.province: u for u in view.before.units}
            moves = [r for r in view.results if isinstance(r.order, Move) and r.unit and r.unit.kind != "S"]
            for r in moves:
                there = at.get(province_of(r.order.dest))
                if there is None:
                    continue
                if r.power == power and there.power != power and there.province in stayed:
                    c["attack on a staying unit"] += 1
                if r.power != power and there.power == power:
                    c["attack received"] += 1
            mine = [r for r in moves if r.power == power]
            c["meeting in a province"] += sum(1 for r in mine for q in moves if q.power != power
                                              and province_of(q.order.dest) == province_of(r.order.dest))
            spied = {s.province for s in rec.after.pieces if s.power == power}
            c["spy report"] += sum(1 for u in view.before.units if u.power != power and u.province in spied)
    return c


def test_there_are_blind_examples():
    assert _finished("blind") and _running("blind")


def test_blind_spies_start_where_the_first_phase_says():
    for h in _blind():
        variant = h.game.variant
        spies = h.game.phases[Phase(h.game.start, 0)].extra.get("spies")
        assert isinstance(spies, dict) and 0 < len(spies) < len(variant.powers())
        start = h.records[0].before.pieces
        assert len(start) == 2 * len(variant.powers())
        for power in variant.powers():
            mine = sorted(s.province for s in start if s.power == power)
            if power in spies:
                assert mine == sorted(province_of(variant.board.location(x)) for x in spies[power])
            else:
                assert variant.capitals[power] in mine
            assert set(mine) <= set(variant.home_centres(power))


def test_blind_finished_game():
    for h in _finished("blind"):
        years = {r.phase.year for r in h.records}
        assert max(years) - min(years) + 1 >= 8
        assert h.next_phase is None and h.result_line()
        assert h.result.kind in ("solo", "draw")
        c = _counts(h)
        assert c["dislodged"] >= 5 and c["retreats"] >= 2 and c["disbands"] >= 1, c
        assert c["builds"] >= 10 and c["removals"] >= 3 and c["nmr"] >= 1, c
        assert sum(len(r.destroyed) for r in h.records) >= 1
        assert all(r.press.strip() for r in h.records if r.phase.kind == "movement"), "press every season"
        final = h.position
        assert any(not final.units_of(p) and not final.centres_of(p) for p in h.game.variant.powers())


def test_blind_running_game():
    for h in _running("blind"):
        years = {r.phase.year for r in h.records}
        assert 3 <= len(years) <= 4
        assert h.next_phase is not None
        c = _counts(h)
        assert c["press"] and c["notes"] and c["builds"] and c["removals"] and c["nmr"], c
        assert c["dislodged"] >= 2 and c["retreats"] >= 1, c


def test_blind_powers_change_hands():
    for h in _blind():
        first, last = h.records[0].phase, h.records[-1].phase
        assert any(h.game.player(p, first) != h.game.player(p, last) for p in h.game.variant.powers()), h.game.slug


@pytest.mark.parametrize("kind", ["spy moves", "spy holds", "counter-espionage at home", "counter-espionage abroad",
                                  "spies killed", "mutual kills", "spies replaced or gained",
                                  "spies gained for a capital", "spies lost with the capital"])
def test_blind_spies_at_work(kind):
    for h in _blind():
        assert _spy_counts(h)[kind] >= 1, (h.game.slug, kind)


def test_blind_spies_are_busy():
    for h in _blind():
        c = _spy_counts(h)
        assert c["spy moves"] >= 20 and c["spies killed"] >= 3 and c["spies replaced or gained"] >= 3, c


@pytest.mark.parametrize("kind", ["attack on a staying unit", "attack received", "meeting in a province",
                                  "spy report"])
def test_blind_games_show_every_kind_of_contact(kind):
    for h in _blind():
        assert _blind_contacts(h)[kind] >= 3, (h.game.slug, kind)


def test_blind_public_reports_show_only_totals_and_nmrs():
    for h in _blind():
        for rec in h.records:
            pub = view_record(h, rec, "public")
            assert not pub.results and not pub.before.units and not pub.after.units and not pub.after.pieces
            assert not pub.dislodged and not pub.destroyed and not pub.centre_changes and not pub.after.owners
            assert pub.nmr == rec.nmr
        text = "".join(phase_report(h, r, level="public") for r in h.records)
        assert "(NMR)" in text and "centres" in text
        assert not re.search(r"^\s+[AFS] [A-Z][a-z]{2}", text, re.M), "no unit or order lines"
