"""Complicated's maps: planes and bombers by shape, stacked beside the occupying unit, bombings drawn."""

import xml.etree.ElementTree as ET

from dipgen.core.results import Kind, Note, OrderResult
from dipgen.present.mapview import MapView
from dipgen.core.orders import Move, UnitRef
from dipgen.core.position import Unit
from dipgen.present.svg import overlay_svg
from dipgen.present.svg.symbols import symbol_table
from dipgen.variants import get_variant
from dipgen.variants.complicated.rules import Bomb, Bombing
from support import write_game


def outline(body: str):
    first = ET.fromstring(f"<g>{body}</g>")[0]
    return first.tag, first.attrib.get("d") or tuple(sorted(first.attrib.items()))


def test_every_kind_has_its_own_shape():
    table = symbol_table(get_variant("complicated"))
    assert set(table) == {"A", "F", "T", "P", "B"}
    assert not any(">P<" in s.body or ">B<" in s.body for s in table.values())  # not the lettered default
    assert len({outline(s.body) for s in table.values()}) == 5


def view(results=(), units=(), pieces=()):
    v = get_variant("complicated")
    return MapView("Spring 1902", "orders and results", "movement", tuple(units), frozenset(), (), {},
                   tuple(results), (), {}, tuple(pieces), v)


def test_a_stack_draws_its_aircraft_beside_the_army_in_one_row():
    army, plane, bomber = Unit("France", "A", "bur"), Unit("France", "P", "bur"), Unit("France", "B", "bur")
    svg = overlay_svg(view(units=[army], pieces=[plane, bomber]))
    assert svg.count('href="#u-P" transform="translate(') == 1
    assert svg.count('href="#u-B" transform="translate(') == 1
    # two different places, side by side
    import re
    spots = re.findall(r'href="#u-[PB]" transform="translate\(([-\d.]+) ([-\d.]+)\)', svg)
    assert len(set(spots)) == 2
    assert spots[0][1] == spots[1][1]
    assert ">plane<" in svg
    assert ">bomber<" in svg  # the legend names both


def test_a_bombing_is_drawn_with_its_outcome():
    bomber = Unit("Germany", "B", "ber")
    bomb = Bomb(UnitRef("B", "ber"), "par")
    hit = OrderResult("Germany", bomb, bomber, True, (Note(Kind.EFFECT, Bombing.HIT),))
    held = OrderResult("Germany", bomb, bomber, False, (Note(Kind.BOUNCE, Bombing.DEFENDED),))
    svg_hit = overlay_svg(view([hit], pieces=[bomber]))
    svg_held = overlay_svg(view([held], pieces=[bomber]))
    assert 'id="o-bm"' in svg_hit
    assert 'href="#o-bm"' in svg_hit
    assert ">bombing hit<" in svg_hit
    assert ">bombing defended<" in svg_held
    assert ">bombing hit<" not in svg_held
    assert svg_hit.count('<path class="dt"') == 2  # the run and its legend sample


def test_a_flight_is_an_arrow_from_where_the_plane_is_drawn():
    plane = Unit("France", "P", "par")
    move = OrderResult("France", Move(UnitRef("P", "par"), "mun"), plane, True)
    svg = overlay_svg(view([move], pieces=[plane]))
    assert 'class="hd"' in svg
    assert ">move<" in svg


SPRING = """orders:
  France:
    - A Par - Bur
    - P Par - Bur
"""


def test_winter_is_said_in_supply_points(tmp_path):
    """Pages and reports say what a power has to spend in points, not units to build."""
    from dipgen.io.gamefiles import load_game
    from dipgen.play.replay import replay
    from dipgen.present.report import next_steps

    players = "".join(f"  {p}: P{i}\n" for i, p in enumerate(
        ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]))
    tmp_path = write_game(tmp_path / "g", {"game.yml": "title: T\nvariant: complicated\ngm: G\nstart: 1901\nplayers:\n"
                                                       + players,
                                           "1901-spring.yml": SPRING, "1901-fall.yml": "orders:\n  France: []\n"})
    from dipgen.view import game_view

    view = game_view(replay(load_game(tmp_path)), "gm")
    lines = next_steps(view, view.records[-1])
    assert "  France 5 supply points to spend" in lines  # 9 from three home centres, 4 of upkeep
    assert "  Russia 7 supply points to spend" in lines
    assert not any("builds" in line for line in lines)


def _move_path(svg: str) -> str:
    import re

    return re.findall(r'<path d="(M[^"]+)"/><path class="hd"', svg)[0]


def test_a_flight_is_drawn_through_the_space_it_crosses():
    """Paris to Munich is two spaces: the arrow runs in straight legs through Burgundy's middle,
    not in one curve over the board; a flight to a neighbour stays one curve; no convoy is keyed."""
    plane = Unit("France", "P", "par")
    far = overlay_svg(view([OrderResult("France", Move(UnitRef("P", "par"), "mun"), plane, True)], pieces=[plane]))
    near = overlay_svg(view([OrderResult("France", Move(UnitRef("P", "par"), "bur"), plane, True)], pieces=[plane]))
    from dipgen.present.svg.overlay import layout_of
    from dipgen.present.svg.shapes import pt

    bur = pt(layout_of(get_variant("complicated")).unit("bur"))
    assert f"L{bur}L" in _move_path(far)
    assert "q" not in _move_path(far)
    assert _move_path(near).count("q") == 1
    assert "L" not in _move_path(near)
    assert ">convoy<" not in far


def test_the_route_drawn_is_the_shortest_first_by_name():
    """Several shortest routes: the one whose spaces come first by abbreviation (London to Ruhr
    over the English Channel and Belgium, not the North Sea)."""
    from dipgen.core.reach import route

    v = get_variant("complicated")
    assert route(v.rules.board, v.rules.unit_kinds["B"], "lon", "ruh") == ["lon", "eng", "bel", "ruh"]
    assert route(v.rules.board, v.rules.unit_kinds["P"], "par", "mun") == ["par", "bur", "mun"]
    assert route(v.rules.board, v.rules.unit_kinds["P"], "par", "bur") == ["par", "bur"]


def test_a_convoyed_move_is_drawn_through_the_fleets_the_engine_says_carried_it():
    """The renderer draws a convoy from the move's result (`OrderResult.route`), never searching
    for one itself: the fleets come in order from the army, and a fleet the level does not see is
    not drawn (the route is dropped whole)."""
    from dipgen.resources.boards import load_board
    from dipgen.core.orders import parse_order
    from dipgen.engine.movement import adjudicate_movement

    board = load_board("standard")
    units = [Unit("England", "A", "lon"), Unit("England", "F", "nth"), Unit("England", "F", "nwg")]
    orders = {"England": [parse_order(board, t) for t in ("A Lon - Nwy", "F NTH C A Lon - Nwy", "F NWG C A Lon - Nwy")]}
    out = adjudicate_movement(board, units, orders)
    (move,) = [r for r in out.results if r.unit == units[0]]
    assert move.succeeded
    assert [u.province for u in move.route] == ["nth"]  # the shortest chain
    bare = adjudicate_movement(board, units, orders, notes=False)
    assert all(r.route == () for r in bare.results)  # only what words and maps read
    import inspect

    import dipgen.present.svg.overlay as overlay

    assert "def convoy_route" not in inspect.getsource(overlay)
