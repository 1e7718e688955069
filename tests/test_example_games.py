"""The bundled example games: every folder in games/ checks clean, the finished game is a
real game (ten years or more, a result, convoys, dislodgements, retreats, builds, removals,
press and notes) and the running game waits for its next phase.

The counts here are read from dipgen's own replay, independently of the generator
(tools/example_games.py), so a generator that quietly lost a feature would fail here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from dipgen.cli import main as dipgen_main
from dipgen.game import discover_games, load_game
from dipgen.history import replay
from dipgen.orders import Build, Convoy, Disband, Move, Remove, Retreat, Support

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


def _finished():
    done = [h for h in map(_history, FOLDERS) if h.result is not None]
    assert done, "no finished example game"
    return done


def _running():
    running = [h for h in map(_history, FOLDERS) if h.result is None]
    assert running, "no running example game"
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
