"""Armor Diplomacy: the variant's own DATC-format cases, its orders, its GM checks and its symbol."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from dipgen.usecases.datc import parse_cases, run_file, variant_of, _Lines, _run_case
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.core.orders import Downgrade, Upgrade, parse_order
from dipgen.core.position import Position, Unit
from dipgen.core.phase import Phase
from dipgen.present.svg.symbols import symbol_table
from dipgen.variants import get_variant

from support import REPO, write_game

ARMOR = REPO / "tests" / "datc_armor" / "armor.txt"
TEXT = ARMOR.read_text(encoding="utf-8")
CASES = parse_cases(TEXT, str(ARMOR))


def test_at_least_25_cases_each_saying_its_rule():
    assert len(CASES) >= 25
    assert len({c.name for c in CASES}) == len(CASES)
    lines = TEXT.splitlines()
    for case in CASES:  # the comment line just above CASE names the rule shown
        assert lines[case.line - 2].startswith("# "), case.name


@pytest.fixture(scope="module")
def armor_lines():
    v = variant_of(TEXT, str(ARMOR))
    assert v.name == "armor"
    return _Lines(v.rules.board, v.rules.unit_kinds, v.rules.order_words, v.rules.home_centres)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_armor_case(case, armor_lines):
    ok, diff = _run_case(case, armor_lines)
    assert ok, diff


def test_datc_command_runs_an_armor_file():
    report = run_file(ARMOR)
    assert report.failed == 0
    assert report.passed == len(CASES)


def test_a_file_naming_an_unknown_variant_is_refused(tmp_path):
    from dipgen.usecases.datc import DatcFormatError

    f = tmp_path / "x.txt"
    f.write_text("VARIANT_ALL Armour\nCASE 1\nPRESTATE\n  France: A par\nORDERS\nPOSTSTATE_SAME\nEND\n")
    with pytest.raises(DatcFormatError) as e:
        run_file(f)
    assert e.value.code == "bad-datc"
    assert "armor" in e.value.message  # the variant it meant, suggested


@pytest.mark.parametrize("text,order", [
    ("Upgrade A Par", Upgrade), ("upgrade a par", Upgrade), ("UPGRADE army Paris", Upgrade),
    ("Downgrade T Par", Downgrade), ("downgrade tank par", Downgrade),
])
def test_upgrade_and_downgrade_are_read_in_any_case(text, order):
    v = get_variant("armor")
    o = parse_order(v.rules.board, text, v.rules.order_words)
    assert type(o) is order
    assert o.format(v.rules.board) == f"{order.__name__} {'A' if order is Upgrade else 'T'} Par"


def test_a_tank_is_read_by_its_letter():
    v = get_variant("armor")
    assert parse_order(v.rules.board, "T Bur - Mun", v.rules.order_words).format(v.rules.board) == "T Bur - Mun"
    assert parse_order(v.rules.board, "Build T Par", v.rules.order_words).format(v.rules.board) == "Build T Par"
    assert parse_order(v.rules.board, "Remove T Mun", v.rules.order_words).format(v.rules.board) == "Remove T Mun"


def test_builds_due_count_tanks_and_the_room_to_build_them():
    v = get_variant("armor")
    owners = {"bre": "France", "par": "France", "mar": "France", "spa": "France", "por": "France"}
    # five centres, one tank: three builds, and room for them (two free home centres take tanks)
    pos = Position(Phase(1901, 2), (Unit("France", "T", "bur"),), owners)
    assert v.rules.adjustment_counts(pos)["France"] == 3
    # three home centres all taken by armies: the only builds are their upgrades
    pos = Position(Phase(1901, 2),
                   tuple(Unit("France", "A", c) for c in ("bre", "par")) + (Unit("France", "F", "mar"),), owners)
    assert v.rules.adjustment_counts(pos)["France"] == 2  # two armies to upgrade, the fleet cannot be
    # the standard game keeps its count: one build per free home centre
    std = get_variant("standard")
    assert std.rules.adjustment_counts(Position(Phase(1901, 2), (Unit("France", "A", "bur"),), owners))["France"] == 3


ARMOR_GAME = """
title: Armor test
gm: Grace
variant: armor
players: {Austria: Anna, England: Ed, France: Fran, Germany: Gus, Italy: Ida, Russia: Rob, Turkey: Tom}
"""


def test_a_game_plays_tanks_from_yaml(make_game):
    path = make_game({
        "game.yml": ARMOR_GAME,
        "1901-spring.yml": "orders:\n  France: [A Par - Pic, A Mar - Spa]\n",
        "1901-fall.yml": "orders:\n  France: [A Pic - Bel, A Spa H]\n",
        "1901-winter.yml": "orders:\n  France: [Build T Par]\n",
        "1902-spring.yml": "orders:\n  France: [T Par - Bur]\n  Germany: [A Mun - Bur]\n",
    })
    h = replay(load_game(path))
    winter = h.records[2]
    assert [r.order.format(h.variant.rules.board) for r in winter.results] == ["Build T Par"]
    spring = h.records[3]
    assert Unit("France", "T", "bur") in spring.after.units  # 2 beats 1 into an empty province


@pytest.mark.parametrize("spring,fall,winter,warning,built", [
    # one build in hand: a tank cannot be built
    ("[A Par - Pic]", "[A Pic - Bel]", "[Build T Par]", "tank takes two builds; France has one left", []),
    # two in hand: the tank takes both, the army after it is one too many
    ("[A Par - Pic, A Mar - Spa]", "[A Pic - Bel, A Spa H]", "[Build T Par, Build A Mar]",
     "France has no builds left", ["T"]),
])
def test_a_tank_build_counts_two_and_one_too_many_is_void_with_a_warning(make_game, spring, fall, winter, warning,
                                                                        built):
    """A build the builds left cannot pay for is the player's misorder: void, and the GM is warned."""
    path = make_game({
        "game.yml": ARMOR_GAME,
        "1901-spring.yml": f"orders:\n  France: {spring}\n",
        "1901-fall.yml": f"orders:\n  France: {fall}\n",
        "1901-winter.yml": f"orders:\n  France: {winter}\n",
    })
    h = replay(load_game(path))
    (w,) = h.warnings
    assert w.file.endswith("1901-winter.yml")
    assert w.line == 2
    assert warning in w.message
    assert [r.unit.kind for r in h.records[-1].results if r.succeeded] == built


def test_the_tank_has_its_own_shape():
    """Told apart from the army, the fleet and the lettered default by shape, not colour."""
    table = symbol_table(get_variant("armor"))

    def outline(body: str):
        first = ET.fromstring(f"<g>{body}</g>")[0]
        return first.tag, tuple(sorted(first.attrib.items()))

    shapes = {kind: outline(sym.body) for kind, sym in table.items()}
    assert set(shapes) == {"A", "F", "T"}
    assert len(set(shapes.values())) == 3
    assert table["T"].name == "tank"
    assert "<text" not in table["T"].body


def test_an_upgrade_is_drawn_as_the_new_tank_with_its_mark(make_game):
    from dipgen.present import svg as render
    from dipgen.present.mapview import map_view

    path = make_game({
        "game.yml": ARMOR_GAME,
        "1901-spring.yml": "orders:\n  France: [A Par - Pic, A Mar - Spa]\n",
        "1901-fall.yml": "orders:\n  France: [A Pic - Bel, A Spa H]\n",
        "1901-winter.yml": "orders:\n  France: [Upgrade A Spa, Build T Par]\n",
    })
    (w,) = replay(load_game(path)).warnings  # the GM is told
    assert w.code == "illegal-order"
    assert w.subject == "Upgrade A Spa"
    assert "Spain is not a home centre of France" in w.message  # the words, tested here once
    write_game(path, {"1901-winter.yml": "orders:\n  France: [Build A Par]\n",
                      "1902-spring.yml": "orders:\n  France: [A Spa - Gas]\n",
                      "1902-fall.yml": "orders:\n  France: [A Gas - Bur, A Bel H, A Par H]\n",
                      "1902-winter.yml": "orders:\n  France: [Upgrade A Par]\n"})
    h = replay(load_game(path))
    from dipgen.view import game_view

    svg = render.overlay_svg(map_view(game_view(h, "public"), Phase.from_slug("1902-winter"), "orders"))
    assert 'href="#u-T"' in svg
    assert 'id="o-up"' in svg
    assert ">upgraded<" in svg
    assert ">tank<" in svg


@pytest.mark.parametrize("variant,what", [
    ("armor", "Winter 1901 takes builds, upgrades, downgrades, removals and waives"),
    ("standard", "Winter 1901 takes builds, removals and waives"),
])
def test_the_winter_hint_names_the_orders_the_variant_has(make_game, variant, what):
    from dipgen.core.errors import GameError

    path = make_game({
        "game.yml": ARMOR_GAME.replace("variant: armor", f"variant: {variant}"),
        "1901-spring.yml": "orders:\n  France: [A Par - Pic, A Mar - Spa]\n",
        "1901-fall.yml": "orders:\n  France: [A Pic - Bel, A Spa H]\n",
        "1901-winter.yml": "orders:\n  France: [Build A Par, A Spa - Por]\n",
    })
    with pytest.raises(GameError) as caught:
        replay(load_game(path))
    assert what in str(caught.value)


def test_the_example_game_shows_what_it_claims():
    """tracks-in-the-mud (tools/examples/armor.py): tanks built, armies upgraded, tanks downgraded,
    battles a tank won and lost that armies would not have, each pointed at by the GM's notes, and
    the season pages and reports saying "tank" in words."""
    from dipgen.core.orders import Build, Move
    from support import game_report

    h = replay(load_game(REPO / "games" / "tracks-in-the-mud"))  # tools/examples/armor.py writes it
    assert not h.warnings
    assert h.result is not None
    assert h.records[-1].phase.year >= 1906
    done = [r for rec in h.records for r in rec.results if r.succeeded and r.order is not None]
    builds = [r for r in done if isinstance(r.order, Build) and r.order.unit.kind == "T"]
    upgrades = [r for r in done if isinstance(r.order, Upgrade)]
    downgrades = [r for r in done if isinstance(r.order, Downgrade)]
    assert len(builds) >= 2
    assert len(upgrades) >= 2
    assert len(downgrades) >= 1
    for r in builds + upgrades + downgrades:  # each one pointed at in its winter's notes
        rec = next(rec for rec in h.records if r in rec.results)
        assert f"{r.power}: {r.order.format(h.variant.rules.board)}" in rec.notes
    # a battle a tank decided, checked here with the engine: the same orders with that tank an army
    # end otherwise (France's tank is held out of the Ruhr by Germany's tank supporting from Kiel)
    from dataclasses import replace
    from dipgen.engine.movement import adjudicate_movement

    fall = next(rec for rec in h.records if rec.phase.slug == "1903-fall")
    board, kinds = h.variant.rules.board, h.variant.rules.unit_kinds
    bur = next(r for r in fall.results if r.unit and r.unit.province == "bur")
    assert bur.unit.kind == "T"
    assert isinstance(bur.order, Move)
    assert not bur.succeeded
    assert "**France: T Bur - Ruh** failed because of Germany's tank in Kiel" in fall.notes
    units = [replace(u, kind="A") if u.province == "kie" else u for u in fall.before.units]
    orders = {}
    for r in fall.results:
        o = r.order
        if r.unit is not None and r.unit.province == "kie":
            o = replace(o, unit=replace(o.unit, kind="A"))
        orders.setdefault(r.power, []).append(o)
    alt = adjudicate_movement(board, units, orders, kinds)
    assert next(r for r in alt.results if r.unit and r.unit.province == "bur").succeeded
    # tanks in words in the reports: the centre table says how many of a power's units are tanks
    winter = next(rec for rec in h.records if rec.phase.slug == "1904-winter")
    assert "France    4 centres,  2 units (2 tanks)" in game_report(h, winter.phase)
    assert "Russia    5 centres,  4 units (1 tank)" in game_report(h, winter.phase)
