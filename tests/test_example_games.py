"""The bundled example games: every folder in games/ checks clean, the finished game is a
real game (ten years or more, a result, convoys, dislodgements, retreats, builds, removals,
press and notes) and the running game waits for its next phase. The Stab! examples (a
finished one and a running one) place their units freely, and between them show every kind
of contact the variant's reports reveal; their press says only what the public report shows.

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
from dipgen.orders import Build, Concealed, Convoy, Disband, Move, Remove, Retreat, Support, parse_unit
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
        lines = [x.strip() for x in text.splitlines()]
        assert any(x.endswith("S (*cut*)") or x.endswith("S (*cut, dislodged*)") for x in lines)
        assert any(x.startswith("F ") and (x.endswith(" C") or " C (*" in x) for x in lines)
        assert "(*self-standoff*)" in text and "(*dislodged*)" in text and "(NMR)" in text


def test_stab_press_says_only_what_the_public_knows():
    """No press or note names an order the public report withheld, or a province where a hidden unit
    stood or went that season (the capitals sign the press, so they are not counted)."""
    for h in _stab():
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
            hidden = {u.province for u in rec.before.units + rec.after.units}
            hidden |= {province_of(r.order.dest) for r in rec.results if isinstance(r.order, Move)}
            for p in sorted(hidden - known - capitals):
                name = board.full_name(p)
                assert not re.search(rf"\b{re.escape(name)}\b", text), (rec.file, name)
