"""Order notation: what GMs and players write, and the canonical form printed back."""

import pytest
from hypothesis import given, settings, strategies as st

from dipgen.board import UnknownName, load_board
from dipgen.orders import (Build, Convoy, Disband, Hold, Move, OrderSyntaxError, Remove, Retreat, Support,
                           UnitRef, Waive, for_phase, parse_order)

A, F = "A", "F"


@pytest.mark.parametrize("text,order", [
    ("A Par - Bur", Move(UnitRef(A, "par"), "bur")),
    ("A Par-Bur", Move(UnitRef(A, "par"), "bur")),
    ("A Par -> Bur", Move(UnitRef(A, "par"), "bur")),
    ("a paris - burgundy", Move(UnitRef(A, "par"), "bur")),
    ("F NTH C A Lon - Bel", Convoy(UnitRef(F, "nth"), UnitRef(A, "lon"), "bel")),
    ("A Mun S A Bur", Support(UnitRef(A, "mun"), UnitRef(A, "bur"))),
    ("A Mun s A Bur - H", Support(UnitRef(A, "mun"), UnitRef(A, "bur"))),
    ("A Mun S A Bur - Mar", Support(UnitRef(A, "mun"), UnitRef(A, "bur"), "mar")),
    ("F Spa(sc) - GoL", Move(UnitRef(F, "spa/sc"), "lyo")),
    ("F StP/nc", Hold(UnitRef(F, "stp/nc"))),
    ("Build A Par", Build(UnitRef(A, "par"))),
    ("Remove F Tri", Remove(UnitRef(F, "tri"))),
    ("Waive", Waive()),
    ("A Pic R Bur", Retreat(UnitRef(A, "pic"), "bur")),
    ("A Pic disband", Disband(UnitRef(A, "pic"))),
    ("A Lon - Bel via convoy", Move(UnitRef(A, "lon"), "bel", True)),
    ("A Lon - NTH - Nwy", Move(UnitRef(A, "lon"), "nwy", True)),
    ("F Mid-Atlantic Ocean - English Channel", Move(UnitRef(F, "mao"), "eng")),
    ("A Mun Supports Russian A War", Support(UnitRef(A, "mun"), UnitRef(A, "war"))),
    ("Par - Bur", Move(UnitRef(None, "par"), "bur")),
    ("F Bul/ec - Con", Move(UnitRef(F, "bul/ec"), "con")),
    ("Build F StP(nc)", Build(UnitRef(F, "stp/nc"))),
    ("A Rom H", Hold(UnitRef(A, "rom"))),
])
def test_parse(board, text, order):
    assert parse_order(board, text) == order


@pytest.mark.parametrize("text,canonical", [
    ("a par-bur", "A Par - Bur"), ("f nth c a lon-bel", "F NTH C A Lon - Bel"),
    ("A Mun S A Bur - Mar", "A Mun S A Bur - Mar"), ("F Spa(sc) - GoL", "F Spa/sc - LYO"),
    ("build a par", "Build A Par"), ("A Pic R Bur", "A Pic R Bur"), ("F StP/nc", "F StP/nc H"),
])
def test_canonical_form(board, text, canonical):
    assert parse_order(board, text).format(board) == canonical


def test_phase_sense(board):
    move = parse_order(board, "A Pic - Bur")
    assert for_phase(move, "retreats") == Retreat(UnitRef(A, "pic"), "bur")
    assert for_phase(parse_order(board, "Disband F Tri"), "adjustments") == Remove(UnitRef(F, "tri"))


@pytest.mark.parametrize("text,expect", [
    ("A Parus - Bur", "Did you mean Paris"),
    ("A Par x Bur", "did not expect 'x'"),
    ("F Nth C A Lon", "a convoy needs the army's move"),
    ("", "empty order"),
    ("A Par - ", "a province is missing"),
])
def test_errors_are_readable(board, text, expect):
    with pytest.raises((OrderSyntaxError, UnknownName)) as e:
        parse_order(board, text)
    assert expect in str(e.value)


_BOARD = load_board("standard")
_LOCS = sorted(_BOARD.locations())
_loc = st.sampled_from(_LOCS)
_unit = st.builds(UnitRef, st.sampled_from(["A", "F"]), _loc)
_orders = st.one_of(
    st.builds(Hold, _unit),
    st.builds(Move, _unit, _loc, st.booleans()),
    st.builds(Support, _unit, _unit, st.one_of(st.none(), _loc)),
    st.builds(Convoy, _unit, _unit, _loc),
    st.builds(Retreat, _unit, _loc),
    st.builds(Disband, _unit),
    st.builds(Build, _unit),
    st.builds(Remove, _unit),
    st.just(Waive()),
)


@settings(max_examples=300, deadline=None)
@given(_orders)
def test_round_trip(order):
    """Every order prints to text that parses back to the same order."""
    if isinstance(order, Support) and order.dest is not None and order.dest == order.target.loc:
        return  # "A Mun S A Bur - Bur" is not an order anyone writes
    assert parse_order(_BOARD, order.format(_BOARD)) == order
