"""'Complicated' Diplomacy: planes, bombers, bombing and supply points (issue 12)."""

from pathlib import Path

import pytest

from dipgen.usecases.datc import run_file
from dipgen.core.orders import Build, UnitRef, parse_order
from dipgen.variants.complicated.rules import Bomb
from dipgen.core.phase import Phase
from dipgen.core.position import Position, Unit
from dipgen.variants import get_variant
from dipgen.core.results import Illegal, Kind

CASES = sorted((Path(__file__).parent / "datc_variants").glob("complicated*.txt"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_cases(path):
    report = run_file(path)
    assert report.failed == 0, "\n".join(line for line in report.lines if not line.startswith("PASS"))
    assert report.passed >= 3


def test_there_are_forty_cases():
    assert sum(run_file(p).passed for p in CASES) >= 40


@pytest.fixture
def v():
    return get_variant("complicated")


def winter(v, units, owners=None, year=1901, bombed=None):
    owners = owners if owners is not None else {p.id: p.home for p in v.rules.board.provinces.values() if p.home}
    economy = {"year": year, "bombed": bombed or {}}
    return Position(Phase(year, 2), tuple(units), owners, economy=economy)


def test_opening_arithmetic(v):
    """Seed: 'a starting production of 9 supplies, with only 4 needed for support (12 and 5 for Russia)'."""
    s = v.rules.supply(v.rules.start().with_(phase=Phase(1901, 2)))
    assert {p: (a.income, a.upkeep) for p, a in s.items()} == {
        **{p: (9, 4) for p in ("Austria", "England", "France", "Germany", "Italy", "Turkey")}, "Russia": (12, 5)}


def test_start_has_a_plane_in_each_capital(v):
    planes = sorted((u.power, u.province) for u in v.rules.start().units if u.kind == "P")
    assert planes == [("Austria", "vie"), ("England", "lon"), ("France", "par"), ("Germany", "ber"),
                      ("Italy", "rom"), ("Russia", "mos"), ("Turkey", "ank")]


def test_other_centres_give_two(v):
    pos = winter(v, [], {"par": "France", "bel": "France", "mun": "France"})
    assert v.rules.supply(pos)["France"].income == 3 + 2 + 2


def test_bomb_order_reads_and_prints(v):
    order = parse_order(v.rules.board, "B Mun bomb Par", v.rules.order_words, v.rules.verbs)
    assert order == Bomb(UnitRef("B", "mun"), "par")
    assert order.format(v.rules.board) == "B Mun bomb Par"
    assert parse_order(v.rules.board, "B Mun", v.rules.order_words) == Build(UnitRef(None, "mun"))


def spring(v, units, owners=None, economy=None):
    owners = owners if owners is not None else {p.id: p.home for p in v.rules.board.provinces.values() if p.home}
    return Position(Phase(1901, 0), tuple(units), owners, economy=economy)


def orders(v, **by_power):
    return {p: [parse_order(v.rules.board, o, v.rules.order_words, v.rules.verbs) for o in os]
            for p, os in by_power.items()}


def test_undefended_bombing_takes_one_point(v):
    pos = spring(v, [Unit("Germany", "B", "mun"), Unit("France", "A", "par")])
    out = v.rules.movement(pos, orders(v, Germany=["B Mun bomb Par"]))
    (r,) = [r for r in out.results if r.power == "Germany"]
    assert r.succeeded
    assert v.words.result_words(r) == ("hit",)
    assert dict(out.economy["bombed"]) == {"par": 1}


def test_bombers_must_outnumber_defending_planes(v):
    """Seed 2.5: each bomber negates one supporting or occupying plane; it succeeds when bombers exceed them."""
    units = [Unit("Germany", "B", "mun"), Unit("Germany", "B", "ruh"), Unit("France", "P", "par"),
             Unit("France", "P", "pic"), Unit("France", "A", "par")]
    two_defend = v.rules.movement(spring(v, units), orders(v, Germany=["B Mun bomb Par", "B Ruh bomb Par"],
                                                       France=["P Pic S A Par"]))
    assert dict(two_defend.economy["bombed"]) == {}
    assert all(v.words.result_words(r) == ("defended",) for r in two_defend.results if r.power == "Germany")
    assert {r.explain(v.rules.board) for r in two_defend.results if r.power == "Germany"} == {
        "2 bombers against 2 defending planes over Paris"}  # the report's words, not a bounce's
    one_defends = v.rules.movement(spring(v, units), orders(v, Germany=["B Mun bomb Par", "B Ruh bomb Par"],
                                                        France=["P Pic - Bel"]))
    assert dict(one_defends.economy["bombed"]) == {"par": 1}


def test_a_plane_that_flies_away_does_not_defend(v):
    units = [Unit("Germany", "B", "mun"), Unit("France", "P", "par")]
    out = v.rules.movement(spring(v, units), orders(v, Germany=["B Mun bomb Par"], France=["P Par - Bel"]))
    assert dict(out.economy["bombed"]) == {"par": 1}


def test_bombing_out_of_range_or_not_a_centre_is_illegal(v):
    units = [Unit("Germany", "B", "ber")]
    out = v.rules.movement(spring(v, units), orders(v, Germany=["B Ber bomb Spa"]))
    assert not out.results[0].succeeded
    assert v.words.result_words(out.results[0]) == ("illegal",)
    out = v.rules.movement(spring(v, units), orders(v, Germany=["B Ber bomb Sil"]))
    assert v.words.result_words(out.results[0]) == ("illegal",)


def test_spring_and_fall_bombings_add_up_and_count_for_whoever_owns_the_centre(v):
    """Seed 2.5: bombed in both Spring and Fall, a centre gives 2 less; whoever controls it at the year's end."""
    units = [Unit("Germany", "B", "mun"), Unit("France", "A", "bur")]
    out = v.rules.movement(spring(v, units), orders(v, Germany=["B Mun bomb Par"]))
    fall = Position(Phase(1901, 1), out.units, spring(v, []).owners, economy=out.economy)
    out2 = v.rules.movement(fall, orders(v, Germany=["B Mun bomb Par"]))
    assert dict(out2.economy["bombed"]) == {"par": 2}
    owners = {"par": "Germany", "mun": "Germany"}
    s = v.rules.supply(winter(v, [], owners, bombed=out2.economy["bombed"]))
    assert (s["Germany"].income, s["Germany"].bombed) == (5, 2)


def test_last_years_bombing_is_forgotten(v):
    pos = winter(v, [], {"par": "France"}, year=1901, bombed={"par": 1}).with_(phase=Phase(1902, 2))
    assert v.rules.supply(pos)["France"].bombed == 0


def test_builds_are_paid_in_points(v):
    """France with 9 points and 2 units: builds cost 2, so three builds and no fourth."""
    units = [Unit("France", "A", "mar"), Unit("France", "P", "pic")]
    pos = winter(v, units, {"par": "France", "bre": "France", "mar": "France"})
    assert v.rules.adjustment_counts(pos) == {"France": 7}
    out = v.rules.adjustments(pos, orders(v, France=["Build A Par", "Build F Bre", "Build P Mar", "Build A Mar"]))
    assert [r.succeeded for r in out.results] == [True, True, False, False]


def test_unpaid_upkeep_removes_units(v):
    """A power whose upkeep exceeds its points removes units until it can pay (its own choice first)."""
    units = [Unit("France", "A", "par"), Unit("France", "P", "par"), Unit("France", "A", "pic"),
             Unit("France", "F", "mao")]
    pos = winter(v, units, {"hol": "France"})
    assert v.rules.adjustment_counts(pos) == {"France": -2}
    out = v.rules.adjustments(pos, orders(v, France=["Remove P Par"]))
    kept = sorted((u.kind, u.province) for u in out.units)
    assert len(kept) == 2
    assert ("P", "par") not in kept
    assert sum(1 for r in out.results if r.default) == 1


def test_no_build_where_an_enemy_plane_stands(v):
    units = [Unit("Germany", "P", "par")]
    pos = winter(v, units, {"par": "France", "bre": "France"})
    out = v.rules.adjustments(pos, orders(v, France=["Build A Par"]))
    assert not out.results[0].succeeded
    assert out.results[0].notes[0].reason is Illegal.CANNOT_BUILD
    assert out.results[0].notes[0].source == units[0]  # the enemy plane in the way


def test_tank_costs_four_and_an_upgrade_three(v):
    """Seed 2.3: tanks cost 4 to build and 2 to keep; an army on a home centre upgrades for 3."""
    units = [Unit("France", "A", "par"), Unit("France", "P", "pic")]
    pos = winter(v, units, {"par": "France", "bre": "France", "mar": "France"})
    assert v.rules.supply(pos)["France"].net == 7
    out = v.rules.adjustments(pos, orders(v, France=["Build T Mar", "Upgrade A Par", "Build A Bre"]))
    assert [r.succeeded for r in out.results] == [True, True, False]
    assert sorted((u.kind, u.province) for u in out.units) == [("P", "pic"), ("T", "mar"), ("T", "par")]


def test_tank_counts_two_in_combat(v):
    pos = spring(v, [Unit("Germany", "T", "kie"), Unit("England", "A", "hol"), Unit("England", "P", "hol")])
    out = v.rules.movement(pos, orders(v, Germany=["T Kie - Hol"], England=["P Hol S A Hol"]))
    assert sorted((u.kind, u.province) for u in out.units) == [("T", "hol")]


def test_plane_limit_worked_example():
    """Seed, optional rule: a tank supported by an army and three planes has strength 4 (beats 3, not 4)."""
    v = get_variant("complicated")
    v.rules.plane_limit = True
    attack = ["T Kie - Hol", "A Ruh S T Kie - Hol", "P Ber S T Kie - Hol", "P Mun S T Kie - Hol",
              "P Bur S T Kie - Hol"]
    base = [Unit("Germany", "T", "kie"), Unit("Germany", "A", "ruh"), Unit("Germany", "P", "ber"),
            Unit("Germany", "P", "mun"), Unit("Germany", "P", "bur"), Unit("England", "T", "hol"),
            Unit("England", "A", "bel"), Unit("England", "F", "nth")]
    three = v.rules.movement(spring(v, base), orders(v, Germany=attack, England=["A Bel S T Hol"]))
    assert ("T", "hol", "Germany") in {(u.kind, u.province, u.power) for u in three.units}
    four = v.rules.movement(spring(v, base), orders(v, Germany=attack, England=["A Bel S T Hol", "F NTH S T Hol"]))
    assert ("T", "hol", "England") in {(u.kind, u.province, u.power) for u in four.units}


def test_own_planes_do_not_stop_a_build(v):
    """RULING (where planes may be built): in an owned, free home centre, as any unit; the seed
    forbids a build only where an *enemy* plane stands."""
    pos = winter(v, [Unit("France", "P", "par"), Unit("France", "B", "par")], {"par": "France", "bre": "France"})
    out = v.rules.adjustments(pos, orders(v, France=["Build P Par"]))
    assert out.results[0].succeeded
    assert sorted(u.kind for u in out.units if u.province == "par") == ["B", "P", "P"]


def test_a_bomber_does_not_defend_against_bombing(v):
    """RULING: only planes defend a centre (a bomber has no strength in combat)."""
    units = [Unit("Germany", "B", "mun"), Unit("France", "B", "par"), Unit("France", "A", "par")]
    out = v.rules.movement(spring(v, units), orders(v, Germany=["B Mun bomb Par"]))
    assert dict(out.economy["bombed"]) == {"par": 1}


def test_civil_disorder_with_points_points_to_spend_are_lost(v):
    """RULING (civil disorder): a power that sends no winter orders builds nothing; its points are lost."""
    pos = winter(v, [Unit("France", "A", "bur")], {"par": "France", "bre": "France", "mar": "France"})
    assert v.rules.adjustment_counts(pos) == {"France": 8}
    out = v.rules.adjustments(pos, {})
    assert out.results == ()
    assert out.units == pos.units


def test_civil_disorder_with_points_short_removes_until_paid(v):
    """RULING (civil disorder): a power short of upkeep that sends nothing loses units in the
    standard civil-disorder order (farthest from its centres first), each saving its upkeep, and
    no more once the upkeep is paid."""
    units = [Unit("France", "A", "par"), Unit("France", "P", "mun"), Unit("France", "A", "gas"),
             Unit("France", "F", "wes"), Unit("France", "P", "par")]
    pos = winter(v, units, {"par": "France"})  # 3 points, upkeep 5
    assert v.rules.adjustment_counts(pos) == {"France": -2}
    out = v.rules.adjustments(pos, {})
    removed = [(r.unit.kind, r.unit.province) for r in out.results if r.default]
    assert len(removed) == 2
    assert ("A", "par") not in removed
    assert len(out.units) == 3
    assert all(r.notes[0].kind is Kind.CIVIL_DISORDER for r in out.results)
    assert out.results[0].notes[0].why == "upkeep it could not pay"  # the words, tested here once


def test_a_tank_removed_in_civil_disorder_saves_its_two(v):
    """RULING: a removal saves its unit's whole upkeep: a tank removed when one point is owed
    saves two, and the point over is lost as any unspent point."""
    units = [Unit("France", "T", "mun"), Unit("France", "A", "par"), Unit("France", "P", "par")]
    pos = winter(v, units, {"par": "France"})  # 3 points, upkeep 4
    out = v.rules.adjustments(pos, {})
    assert [(r.unit.kind, r.unit.province) for r in out.results] == [("T", "mun")]


def test_of_two_equal_planes_a_removal_takes_one(v):
    """Units compare by value: the winter keeps removed units by identity, so removing one of two
    French planes in Paris leaves the other."""
    units = [Unit("France", "P", "par"), Unit("France", "P", "par"), Unit("France", "A", "pic")]
    pos = winter(v, units, {"hol": "France"})  # 2 points, upkeep 3
    out = v.rules.adjustments(pos, orders(v, France=["Remove P Par"]))
    assert [r.succeeded for r in out.results] == [True]
    assert sorted((u.kind, u.province) for u in out.units) == [("A", "pic"), ("P", "par")]


def test_a_removal_names_the_unit_its_letter_names(v):
    """Ruling (rules page, "Which unit an order of the winter names"): `Remove P Par` with no French plane in
    Paris is void and civil disorder pays the upkeep; `Remove A Par` names the army holding Paris,
    Germany's, and is void though a French plane stands there."""
    units = [Unit("France", "A", "par"), Unit("France", "P", "pic"), Unit("France", "F", "mao")]
    pos = winter(v, units, {"hol": "France"})  # 2 points, upkeep 3
    out = v.rules.adjustments(pos, orders(v, France=["Remove P Par"]))
    (void, *disorder) = out.results
    assert not void.succeeded
    assert void.unit is None
    assert len(disorder) == 1
    assert disorder[0].default
    assert ("A", "par") in {(u.kind, u.province) for u in out.units}
    units = [Unit("Germany", "A", "par"), Unit("France", "P", "par"), Unit("France", "A", "pic"),
             Unit("France", "F", "mao")]
    out = v.rules.adjustments(winter(v, units, {"hol": "France", "mun": "Germany"}), orders(v, France=["Remove A Par"]))
    assert not out.results[0].succeeded
    assert out.results[0].unit == Unit("Germany", "A", "par")


def test_an_upgrade_names_the_unit_its_letter_names(v):
    """Ruling (rules page, "Which unit an order of the winter names"): `Upgrade P Par` names a plane
    in Paris. Germany's there: refused as not France's, though France's own army holds Paris (it was
    upgraded in its place, found by a random position of the legal orders' test); France's own: a
    plane is not upgraded. `Upgrade A Par` upgrades the army."""
    owners = {"par": "France", "bre": "France", "mar": "France", "mun": "Germany"}  # each pays its upkeep
    beside = [Unit("France", "A", "par"), Unit("Germany", "P", "par")]
    out = v.rules.adjustments(winter(v, beside, owners), orders(v, France=["Upgrade P Par"]))
    assert not out.results[0].succeeded
    assert out.results[0].unit == Unit("Germany", "P", "par")
    assert out.results[0].notes[0].reason is Illegal.NOT_YOURS
    assert sorted((u.power, u.kind) for u in out.units) == [("France", "A"), ("Germany", "P")]
    own = [Unit("France", "A", "par"), Unit("France", "P", "par")]
    out = v.rules.adjustments(winter(v, own, owners), orders(v, France=["Upgrade P Par"]))
    assert not out.results[0].succeeded
    assert out.results[0].notes[0].reason is Illegal.CANNOT_BUILD
    assert sorted(u.kind for u in out.units) == ["A", "P"]
    out = v.rules.adjustments(winter(v, beside, owners), orders(v, France=["Upgrade A Par"]))
    assert out.results[0].succeeded
    assert sorted((u.power, u.kind) for u in out.units) == [("France", "T"), ("Germany", "P")]


def test_an_upgraded_unit_comes_after_a_plane_in_its_province(v):
    """The units after a winter: those kept, those built, then those changed, sorted by place
    (units sharing a place keep that order): the tank made in Paris follows the plane there."""
    units = [Unit("France", "A", "par"), Unit("France", "P", "par")]
    pos = winter(v, units, {"par": "France", "bre": "France", "mar": "France"})  # 9 points, upkeep 2
    out = v.rules.adjustments(pos, orders(v, France=["Upgrade A Par", "Build A Bre"]))
    assert [r.succeeded for r in out.results] == [True, True]
    assert [(u.kind, u.loc) for u in out.units] == [("A", "bre"), ("P", "par"), ("T", "par")]
    assert [u.uid for u in out.units if u.province == "par"] == [2, 1]  # the tank is the army it was


def test_a_waive_costs_no_points(v):
    """Unlike a standard winter's waive (one build given up), a waive spends no supply points."""
    pos = winter(v, [Unit("France", "P", "pic")], {"par": "France"})  # 3 points, upkeep 1
    out = v.rules.adjustments(pos, orders(v, France=["Waive", "Build A Par"]))
    assert [r.succeeded for r in out.results] == [True, True]


# ---------------------------------------------------------------------------- game folders (issue 21)

from dipgen.io.gamefiles import load_game  # noqa: E402
from dipgen.play.replay import replay  # noqa: E402
from support import game_report, write_game  # noqa: E402

GAME = ("title: Supply test\nvariant: complicated\ngm: Grace\n"
        "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n")


def play(tmp_path, phases: dict[str, str], slug: str = "g"):
    return replay(load_game(write_game(tmp_path / slug,
                                       {"game.yml": GAME, **{f"{k}.yml": t for k, t in phases.items()}})))


def test_a_reason_names_the_unit_that_bounced_not_the_plane_beside_it(tmp_path):
    """Two units stand in Vienna at the start (A Vie and P Vie): the bounce in Galicia names the army."""
    h = play(tmp_path, {"1901-spring": "orders:\n  Austria: [A Vie - Gal, P Vie H]\n  Russia: [A War - Gal]\n"})
    text = game_report(h, h.records[0].phase)
    assert "A War - Gal (*bounce*)  -- bounced with Austria's A Vie" in text
    assert "A Vie - Gal (*bounce*)  -- bounced with Russia's A War" in text
    assert "P Vie" not in text.split("A War - Gal")[1].splitlines()[0]


def test_a_warning_quotes_the_plane_s_own_order_and_line(tmp_path):
    """The army and the plane of one power in Paris: the plane's impossible flight is warned about
    at its own line, in its own words (not the army's)."""
    h = play(tmp_path, {"1901-spring": "orders:\n  France:\n    - P Par - Mos\n    - A Par - Bur\n"})
    (w,) = h.warnings
    assert w.line == 3
    assert w.code == "illegal-order"
    assert w.subject == "P Par - Mos"


PLANE_IN_PARIS = {  # Germany's plane lands in Paris, which France left empty; France has points to build
    "1901-spring": "orders:\n  France: [A Par - Bur, P Par - Pic, A Mar - Spa]\n  Germany: [P Ber - Mun]\n",
    "1901-fall": "orders:\n  Germany: [P Mun - Par]\n",
    "1901-winter": "orders:\n  France: [Build A Par, Build A Mar]\n",
}


def test_a_build_under_a_foreign_plane_is_void_the_next_counts_and_the_gm_is_warned(tmp_path):
    """The seed: 'Units may not be built in a supply center occupied by enemy 'planes': the player's
    misorder, void; the build after it is paid for and made."""
    h = play(tmp_path, PLANE_IN_PARIS)
    winter = h.records[-1]
    (w,) = h.warnings
    assert w.line == 2
    assert w.code == "illegal-order"
    assert w.subject == "Build A Par"
    assert [r.succeeded for r in winter.results_of("France")] == [False, True]
    text = game_report(h, winter.phase)
    assert ("Build A Par (*illegal*)  -- illegal: a plane or bomber of another power stands in Paris "
            "(Germany's P Par is there)") in text


def test_a_plane_supports_a_move_into_the_province_it_stands_in(tmp_path):
    """Seed 2.4: "'Planes may support any move or hold within two spaces", its own province included:
    France's P Bel S A Pic - Bel with A Pic - Bel against England's A Bel is 1 1/2 against 1."""
    h = play(tmp_path, {
        "1901-spring": "orders:\n  France: [A Par - Pic, P Par H]\n  England: [F Lon - NTH, A Lvp - Yor]\n",
        "1901-fall": "orders:\n  France: [A Pic H, P Par - Bel]\n  England: [F NTH C A Yor - Bel, A Yor - Bel]\n",
        "1901-winter": "orders:\n  England: []\n",
        "1902-spring": "orders:\n  France: [A Pic - Bel, P Bel S A Pic - Bel]\n  England: [A Bel H]\n"})
    before = {(u.power, u.kind) for u in h.records[-1].before.units if u.province == "bel"}
    assert before == {("England", "A"), ("France", "P")}
    spring = h.records[-1]
    assert not h.warnings
    assert [d.unit for d in spring.dislodged] == [u for u in spring.before.units
                                                  if u.power == "England" and u.province == "bel"]
    assert {(u.power, u.kind) for u in spring.after.units if u.province == "bel"} == {("France", "A"), ("France", "P")}
    (support,) = [r for r in spring.results_of("France") if r.unit.kind == "P"]
    assert support.succeeded
    assert not support.notes


def test_bad_options_are_said_with_the_game_file_they_are_in(tmp_path):
    """A message about game.yml's options names the game's own game.yml, not a bare 'game.yml'
    (found by the hostile-folders fuzz test of `dipgen check`)."""
    from dipgen.core.errors import GameError
    from dipgen.io.gamefiles import load_game
    from dipgen.play.replay import replay
    from support import write_game

    folder = write_game(tmp_path / "opts", {"game.yml": "title: Opts\nvariant: complicated\ngm: G\n"
                                            "options: yes please\nplayers: {Austria: A, England: B, France: C, "
                                            "Germany: D, Italy: E, Russia: F, Turkey: G}\n"})
    with pytest.raises(GameError) as e:
        replay(load_game(folder))
    [problem] = [p for p in e.value.problems if p.code == "bad-value"]
    assert problem.file.endswith("opts/game.yml")
    assert problem.line == 4
