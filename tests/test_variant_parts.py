"""A variant is a bundle of four parts (dipgen.rules.variant): the registry finds each variant's
package once, makes a new bundle per game, and tests may add their own; a variant's order kinds
are its own words in the grammar; Blind is laid over a board's rules, not inherited."""

from __future__ import annotations

import pytest

from dipgen.resources.boards import load_board
from dipgen.core.orders import OrderSyntaxError, Strike, UnitRef, parse_order
from dipgen.rules.variant import Files, Policy, Rules, Variant, Words
from dipgen.variants import VARIANTS, get_variant, variant_names
from dipgen.variants.blind.rules import BlindRules, CounterEspionage, StandardBoard
from dipgen.variants.complicated.rules import Bomb, ComplicatedRules

BOARD = load_board("standard")


def test_each_package_is_a_variant_of_its_own_name_with_its_four_parts():
    assert variant_names() == ["armor", "blind", "blind-complicated", "complicated", "double", "stab", "standard",
                               "taskdip", "tir"]
    for name in variant_names():
        v = get_variant(name)
        assert v.name == name
        assert repr(v) == f"get_variant({name!r})"
        assert isinstance(v.rules, Rules)
        assert isinstance(v.files, Files)
        assert isinstance(v.policy, Policy)
        assert isinstance(v.words, Words)
        assert v.files.rules is v.rules
        assert v.policy.rules is v.rules


def test_a_game_gets_a_variant_of_its_own_and_names_are_read_in_any_case():
    a, b = get_variant("complicated"), get_variant(" Complicated ")
    assert a.name == b.name
    assert a.rules is not b.rules  # one game's options are not another's
    with pytest.raises(ValueError, match="unknown variant 'stabb'. Did you mean stab?"):
        get_variant("stabb")


def test_a_variant_registered_by_a_test_is_found_and_made(monkeypatch):
    class Open(Words):
        title = "Open House"

    monkeypatch.setitem(VARIANTS, "open-house", lambda: Variant.of("open-house", Rules(), words=Open))
    assert "open-house" in variant_names()
    assert get_variant("open-house").words.title == "Open House"


def test_a_variants_order_kinds_are_known_only_to_its_own_grammar():
    complicated, blind, both = (get_variant(n).rules for n in ("complicated", "blind", "blind-complicated"))
    assert parse_order(BOARD, "B Mun bomb Par", complicated.order_words, complicated.verbs) == \
        Bomb(UnitRef("B", "mun"), "par")
    assert isinstance(Bomb(UnitRef("B", "mun"), "par"), Strike)  # what the maps draw
    assert Bomb(UnitRef("B", "mun"), "par").format(BOARD) == "B Mun bomb Par"
    for text in ("S Par CE", "S Par counter-espionage", "S Par counter espionage", "s par counterespionage"):
        assert parse_order(BOARD, text, blind.order_words, blind.verbs) == CounterEspionage(UnitRef("S", "par"))
        assert parse_order(BOARD, text, both.order_words, both.verbs) == CounterEspionage(UnitRef("S", "par"))
    with pytest.raises(OrderSyntaxError, match="did not expect 'bomb'"):
        parse_order(BOARD, "A Mun bomb Par")
    with pytest.raises(OrderSyntaxError, match="did not expect 'ce'"):
        parse_order(BOARD, "A Par CE", blind.order_words)  # the unit words without the verbs


def test_blind_is_laid_over_a_boards_rules_and_hands_them_every_hook():
    hooks = {n for n, f in vars(Rules).items() if callable(f) and not n.startswith("_")}
    assert hooks <= set(vars(BlindRules))  # a hook Rules gains must be handed on (or ruled on) here
    with pytest.raises(ValueError, match="need Blind's spy"):
        BlindRules(ComplicatedRules())
    blind, both = BlindRules(StandardBoard()), get_variant("blind-complicated").rules
    assert blind.movement_orders_text == ("movement orders: hold, move, support and convoy, and for spies move, "
                                          "hold and counter-espionage (S Par - Bur, S Par H, S Par CE)")
    assert both.movement_orders_text == ("movement orders: hold, move, support and convoy, for bombers bomb (B Mun "
                                         "bomb Par), and for spies move, hold and counter-espionage (S Par - Bur, "
                                         "S Par H, S Par CE)")
    assert both.movement_orders[-2:] == (Bomb, CounterEspionage)
    assert isinstance(both.base, ComplicatedRules)
    assert both.unit_kinds["S"].name == "spy"
    v = get_variant("blind-complicated")
    for part in (v.rules, v.files, v.policy, v.words):  # composed, not inherited from two variants
        assert all(len(cls.__bases__) <= 1 for cls in type(part).__mro__), type(part)
