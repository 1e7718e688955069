"""Order notation: what GMs and players write, and the canonical form printed back."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from dipgen.core.board import UnknownName
from dipgen.resources.boards import load_board
from dipgen.core.orders import (Build, Convoy, Disband, Hold, Move, OrderSyntaxError, Remove, Retreat, Support, UnitRef,
                                Waive, for_phase, parse_order)

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


# ---- the quick reading (orders._Quick) reads common text word by word; it must agree with the
# full parser on every text it accepts, and accept what reports print.
from dipgen.core.orders import STANDARD_KINDS, _Parser, _Quick, parse_unit  # noqa: E402

_BLIND_KINDS = {**STANDARD_KINDS, "s": "S", "spy": "S"}
_SPELLINGS = sorted({w for p in _BOARD.provinces.values() for w in (p.id, p.abbr, p.name)}
                    | {"Mid", "mid atlantic", "St P", "north", "Nor", "spa/sc", "Spa/nc", "StP/sc", "bul/ec",
                       "Par/sc", "Spa(sc)", "nth."})
_VERBS = ["-", "->", "H", "hold", "S", "s", "C", "R", "D", "B", "disband", "Build", "Remove", "Waive", "via",
          "convoy", "by", "vc", "to", "m", "A", "F", "a", "army", "fleet", "spy", "coast", "nc", "sc", "(", ")",
          "/", ",", ":", "'s", "England", "English", "x", "counter", "CE"]


def _full(text, kinds):
    try:
        return _Parser(_BOARD, text, kinds).order()
    except ValueError as e:
        return type(e)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_SPELLINGS), st.sampled_from(_VERBS)), min_size=1, max_size=9),
       st.sampled_from([str, str.lower, str.upper]), st.booleans())
def test_quick_reading_agrees_with_the_full_parser(words, case, blind):
    text = case(" ".join(words))
    kinds = _BLIND_KINDS if blind else STANDARD_KINDS
    quick = _Quick(_BOARD, text, kinds).read()
    assert quick is None or quick == _full(text, kinds), text


@settings(max_examples=300, deadline=None)
@given(_orders, st.sampled_from([str, str.lower, str.upper]))
def test_printed_orders_take_the_quick_reading(order, case):
    """What reports print is read word by word, and means the same as through the full parser."""
    if isinstance(order, Support) and order.dest is not None and order.dest == order.target.loc:
        return
    text = case(order.format(_BOARD))
    assert _Quick(_BOARD, text, STANDARD_KINDS).read() == order == _full(text, STANDARD_KINDS)


@pytest.mark.parametrize("text,unit", [
    ("F StP/sc", ("F", "stp/sc")), ("a par", ("A", "par")), ("F Spa(nc)", ("F", "spa/nc")),
    ("A north africa", ("A", "naf")), ("F Mid", ("F", "mao")), ("A Par/sc", ("A", "par/sc")),
])
def test_parse_unit(board, text, unit):
    assert parse_unit(board, text) == unit


@pytest.mark.parametrize("text", ["A", "Par", "A Par - Bur", "A Parus"])
def test_parse_unit_errors(board, text):
    with pytest.raises(ValueError):
        parse_unit(board, text)


def test_quick_reading_leaves_words_that_begin_longer_names_to_the_full_parser():
    """With an alias "bur h" (as a board's data could have), "A Bur H" is ambiguous word by word;
    the quick reading must not read "bur" alone where the full parser reads "bur h"."""
    import yaml

    from dipgen.core.board import build_board

    data = yaml.safe_load((Path(__file__).resolve().parent.parent / "dipgen" / "data" / "standard.yml").read_text())
    data["aliases"] = {"bur h": "mar"}
    board = build_board(data)
    assert "bur" not in board._word_locations
    assert "par" in board._word_locations
    text = "A Bur H"
    assert _Quick(board, text, STANDARD_KINDS).read() is None
    assert parse_order(board, text) == Hold(UnitRef("A", "mar"))


def test_quick_reading_leaves_coast_words_to_the_full_parser():
    """'s coast' after a province is its south coast, even when a variant has a unit called 'coast'."""
    kinds = {**STANDARD_KINDS, "coast": "C"}
    text = "F Spa S coast Mar"
    assert _Quick(_BOARD, text, kinds).read() is None
    with pytest.raises(OrderSyntaxError):
        parse_order(_BOARD, text, kinds)


def test_a_unit_letter_is_read_by_position():
    """Where B is also a unit letter (Complicated's bombers), it names the unit when an order
    follows it and means Build only at the head of a build; the standard game keeps B = Build."""
    kinds = {**STANDARD_KINDS, "b": "B", "bomber": "B"}
    assert parse_order(_BOARD, "B Mun - Ber", kinds) == Move(UnitRef("B", "mun"), "ber")
    assert parse_order(_BOARD, "B Mun S A Ber", kinds) == Support(UnitRef("B", "mun"), UnitRef("A", "ber"))
    assert parse_order(_BOARD, "B Mun H", kinds) == Hold(UnitRef("B", "mun"))
    assert parse_order(_BOARD, "Build B Mun", kinds) == Build(UnitRef("B", "mun"))
    assert parse_order(_BOARD, "B Mun", kinds) == Build(UnitRef(None, "mun"))
    assert parse_order(_BOARD, "B Par") == Build(UnitRef(None, "par"))
    with pytest.raises(ValueError):
        parse_order(_BOARD, "B Mun - Ber")  # no bombers in the standard game
