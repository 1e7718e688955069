"""A player's misorders are hers, not the GM's (issue 21): an order for a unit that is not there
or belongs to another power, a build the rules refuse, a removal of a unit she does not have.
Each is kept as written, adjudicated as void with its reason (the unit it could not name is not
affected), shown in the reports and on the season page, and reported to the GM as a warning with
file and line. Hidden games show it to the ordering power only. What is really the GM's mistake
(two orders for one unit by one writer, an order of the wrong phase, bad syntax) stays an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.core.results import Illegal, Kind
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.view.seen import seen_record as view_record
from support import game_report, public_site, report, write_game

PLAYERS = "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n"


def play(path: Path):
    return replay(load_game(path))


def voids(record, power: str):
    return [r for r in record.results_of(power) if r.has(Kind.ILLEGAL) or r.has(Kind.VOID)]


def line_of(report: str, start: str) -> str:
    return next(line.strip() for line in report.splitlines() if line.strip().startswith(start))


# ---------------------------------------------------------------------------- movement

def test_an_order_for_a_unit_that_is_not_there_is_void_and_a_warning(make_game, capsys):
    path = make_game({"1901-spring.yml": "orders:\n  France:\n    - A Par - Bur\n    - A Pic - Bel\n"})
    h = play(path)
    (w,) = h.warnings
    assert w.file.endswith("1901-spring.yml")
    assert w.line == 4
    assert w.severity == "warning"
    assert w.code == "no-unit"
    assert w.subject == "A Pic - Bel"
    spring = h.records[0]
    (void,) = voids(spring, "France")
    assert void.unit is None
    assert not void.succeeded
    assert void.notes[0].reason is Illegal.NO_UNIT
    assert [ol.text for ol in spring.orders["France"]] == ["A Par - Bur", "A Pic - Bel"]  # kept as written
    assert ("France", "A", "bur") in {(u.power, u.kind, u.province) for u in spring.after.units}
    report = game_report(h, spring.phase)
    assert line_of(report, "A Pic - Bel") == "A Pic - Bel (*illegal*)  -- illegal: France has no unit in Picardy"
    assert main(["check", str(path)]) == 0
    assert "1901-spring.yml:4: warning: " in capsys.readouterr().err


def test_an_order_for_another_power_s_unit_leaves_that_unit_alone(make_game):
    path = make_game({"1901-spring.yml": "orders:\n  France: [A Mun - Bur]\n  Germany: [A Mun - Ruh]\n"})
    h = play(path)
    (w,) = h.warnings
    assert w.line == 2
    assert w.code == "foreign-unit"
    assert w.subject == "A Mun - Bur"
    spring = h.records[0]
    (void,) = voids(spring, "France")
    assert void.unit is None
    assert void.notes[0].reason is Illegal.NOT_YOURS
    (ruh,) = [r for r in spring.results_of("Germany") if r.unit is not None and r.unit.province == "mun"]
    assert ruh.succeeded
    assert ruh.order.format(h.variant.rules.board) == "A Mun - Ruh"
    assert line_of(game_report(h, spring.phase), "A Mun - Bur") == (
        "A Mun - Bur (*illegal*)  -- illegal: France has no unit in Munich (Germany's A Mun is there)")


def test_another_power_s_unit_that_got_no_order_holds_and_its_power_is_nmr(make_game):
    h = play(make_game({"1901-spring.yml": "orders:\n  France: [A Mun - Bur, A Par - Bur]\n"}))
    spring = h.records[0]
    assert "Germany" in spring.nmr
    assert "France" not in spring.nmr
    (mun,) = [r for r in spring.results_of("Germany") if r.unit.province == "mun"]
    assert mun.default
    assert mun.succeeded
    assert ("France", "A", "bur") in {(u.power, u.kind, u.province) for u in spring.after.units}


def test_a_power_whose_only_order_was_void_sent_orders(make_game):
    spring = play(make_game({"1901-spring.yml": "orders:\n  France: [A Pic - Bel]\n"})).records[0]
    assert "France" not in spring.nmr
    assert all(r.default for r in spring.results_of("France") if r.unit is not None)


def test_the_gm_s_own_mistakes_stay_errors(make_game):
    for text, line, what in (("orders:\n  France: |\n    A Par - Bur\n    A Par - Pic\n", 4, "second order for a par"),
                             ("orders:\n  France:\n    - Build A Par\n", 3, "not an order for spring 1901"),
                             ("orders:\n  France:\n    - A Par - Gascny\n", 3, "gascny")):
        with pytest.raises(GameError) as e:
            play(make_game({"1901-spring.yml": text}, slug=f"g{line}{len(text)}"))
        (p,) = [p for p in e.value.problems if p.severity == "error"]
        assert p.line == line
        assert what in p.message.lower()


# ---------------------------------------------------------------------------- retreats

DISLODGE = {
    "1901-spring.yml": "orders:\n  Germany: [A Mun - Tyr]\n  Italy: [A Ven H]\n",
    "1901-fall.yml": "orders:\n  Germany: [A Tyr - Ven, A Ber - Mun]\n  Austria: [F Tri S A Tyr - Ven]\n"
                     "  Italy: [A Ven H]\n",
}


def test_a_retreat_for_a_unit_that_was_not_dislodged_is_void(make_game):
    path = make_game({**DISLODGE, "1901-fall-retreats.yml": "orders:\n  Italy: [A Rom - Tus, A Ven - Tus]\n"})
    h = play(path)
    retreats = h.records[2]
    assert retreats.phase.name == "Fall 1901 retreats"
    (w,) = h.warnings
    assert w.line == 2
    assert w.code == "no-unit"
    assert w.subject == "A Rom - Tus"
    (void,) = voids(retreats, "Italy")
    assert void.unit is None
    assert void.notes[0].reason is Illegal.NO_UNIT
    assert ("Italy", "A", "tus") in {(u.power, u.kind, u.province) for u in retreats.after.units}


# ---------------------------------------------------------------------------- adjustments

HOME_FLEET = {
    "1901-spring.yml": "orders:\n  France: [A Par - Bur, A Mar - Spa, F Bre H]\n",
    "1901-fall.yml": "orders:\n  France: [A Bur - Bel, A Spa H, F Bre H]\n",
}


def test_a_build_into_an_occupied_centre_is_void_and_the_next_build_counts(make_game):
    path = make_game({**HOME_FLEET, "1901-winter.yml": "orders:\n  France: [Build F Bre, Build A Par, Build A Mar]\n"})
    h = play(path)
    winter = h.records[-1]
    (w,) = h.warnings
    assert w.line == 2
    assert w.code == "illegal-order"
    assert w.subject == "Build F Bre"
    (void,) = voids(winter, "France")
    assert void.order.format(h.variant.rules.board) == "Build F Bre"
    assert void.unit is None
    built = sorted(u.province for u in winter.after.units if u.power == "France" and u.province in ("par", "mar"))
    assert built == ["mar", "par"]
    assert line_of(game_report(h, winter.phase), "Build F Bre").startswith("Build F Bre (*illegal*)  -- illegal: ")


def test_builds_the_rules_refuse_are_void_with_a_warning_each(make_game):
    """Too many builds, a build outside the home centres, a removal while building, and orders from a
    power with nothing to adjust: the player's misorders, each void (the first legal builds count)."""
    path = make_game({**HOME_FLEET, "1901-winter.yml": "orders:\n  France: [Build A Bel, Build A Par, Remove A Spa, "
                                                       "Build A Mar, Waive]\n  Italy: [Build A Rom]\n"})
    h = play(path)
    winter = h.records[-1]
    assert sorted(w.line for w in h.warnings) == [2, 2, 2, 3]
    assert [r.succeeded for r in winter.results_of("France")] == [False, True, False, True, False]
    assert [r.succeeded for r in winter.results_of("Italy")] == [False]
    assert sorted((w.code, w.subject) for w in h.warnings) == [
        ("illegal-order", "Build A Bel"), ("illegal-order", "Build A Rom"), ("illegal-order", "Remove A Spa"),
        ("illegal-order", "Waive")]


def test_removing_another_power_s_unit_is_void_and_civil_disorder_removes_one_of_hers(make_game):
    path = make_game({
        "1901-spring.yml": "orders:\n  Germany: [A Mun - Tyr]\n  Austria: [A Vie - Boh]\n",
        "1901-fall.yml": "orders:\n  Germany: [A Tyr - Vie, A Ber - Mun]\n  Austria: [A Boh H, A Bud H]\n",
        "1901-winter.yml": "orders:\n  Austria: [Remove A Mun]\n  Germany: [Build A Ber]\n"})
    h = play(path)
    (w,) = [w for w in h.warnings if w.subject == "Remove A Mun"]
    assert w.code == "foreign-unit"
    winter = h.records[-1]
    (void,) = voids(winter, "Austria")
    assert void.unit is None
    assert ("Germany", "A", "mun") in {(u.power, u.kind, u.province) for u in winter.after.units}


# ---------------------------------------------------------------------------- hidden games

def hidden_game(tmp_path: Path, variant: str, spring: str) -> object:
    return play(write_game(tmp_path / variant, {
        "game.yml": f"title: Misorders\nvariant: {variant}\ngm: Grace\n{PLAYERS}", "1901-spring.yml": spring}))


@pytest.mark.parametrize("variant", ["stab", "blind", "blind-complicated"])
def test_a_hidden_game_shows_a_void_order_to_its_power_only(tmp_path, variant):
    """France orders Germany's army in Munich: France learns her order was void, not whose unit
    stands there (she cannot see it); the public and the other powers learn nothing of it."""
    placement = ("placement: {France: [A Par, F Bre, A Mar], Germany: [A Mun, A Ber, F Kie]}\n" if variant == "stab"
                 else "")
    h = hidden_game(tmp_path, variant,
                    placement + "orders:\n  France: [A Mun - Bur, A Par - Pic]\n  Germany: [A Mun H]\n")
    spring = h.records[0]
    assert h.warnings[0].code == "foreign-unit"  # the GM knows
    (mine,) = [r for r in view_record(h, spring, "France").results
               if r.order.format(h.variant.rules.board) == "A Mun - Bur"]
    assert mine.notes[0].reason is Illegal.NO_UNIT
    assert mine.notes[0].source is None
    france = report(h, "France", spring.phase)
    assert line_of(france, "A Mun - Bur") == "A Mun - Bur (*illegal*)  -- illegal: France has no unit in Munich"
    assert "Germany's" not in france
    for level in ("public", "Germany", "England"):
        assert "Mun - Bur" not in report(h, level, spring.phase)
        assert not [r for r in view_record(h, spring, level).results if r.power == "France" and r.unit is None]


def test_what_the_orderer_learns_does_not_depend_on_the_unit_she_cannot_see(tmp_path):
    """Non-interference for the orderer: whether Germany's army is still in Munich (a fact France
    cannot see) changes nothing in France's report of her void order, nor on the public site."""
    def blind(slug: str, germany: str):
        return play(write_game(tmp_path / slug / "g", {
            "game.yml": f"title: Misorders\nvariant: blind\ngm: Grace\n{PLAYERS}",
            "1901-spring.yml": f"orders:\n  Germany: [{germany}]\n  France: [A Par - Pic]\n",
            "1901-fall.yml": "orders:\n  France: [A Mun - Bur, A Pic H]\n"}))

    there, gone = blind("there", "A Mun H"), blind("gone", "A Mun - Ruh")
    assert there.warnings[0].code == "foreign-unit"
    assert gone.warnings[0].code == "no-unit"
    assert report(there, "France", there.records[1].phase) == report(gone, "France", gone.records[1].phase)
    assert public_site(there) == public_site(gone)


def test_the_season_page_shows_the_void_order_with_its_result(make_game):
    h = play(make_game({"1901-spring.yml": "orders:\n  France: [A Par - Bur, A Pic - Bel]\n"}))
    page = public_site(h)["games/test-game/1901-spring/index.md"]
    assert '<li class="dg-fail">A Pic - Bel <span class="dg-res">(<em>illegal</em>)</span></li>' in page
