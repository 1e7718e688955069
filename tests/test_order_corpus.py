"""The corpus of order lines (tests/data/orders_corpus.txt): each as players and judges write
it, per variant, with the reading dipgen must give, or the refusal; and every order the engine
prints reads back to itself, in every variant."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from dipgen.core.orders import (Action, Build, Disband, Downgrade, Hold, Move, Remove, Retreat, Strike, Support,
                                UnitRef, Upgrade, Waive, read_order)
from dipgen.variants import VARIANTS

CORPUS = Path(__file__).resolve().parent / "data" / "orders_corpus.txt"


def corpus() -> list[tuple[str, str, str]]:
    """(variant, as written, reading) for every line of the corpus."""
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            variant, text, reading = (part.strip() for part in line.split(" | "))
            rows.append((variant, text, reading))
    return rows


def read(variant: str, text: str, guess: bool) -> str:
    """The canonical reading, or '! code' when refused."""
    rules = VARIANTS[variant]().rules
    try:
        order, _ = read_order(rules.board, text, rules.order_words, rules.verbs, guess=guess)
    except ValueError as e:
        return f"! {getattr(e, 'code', 'bad-order')}"
    return order.format(rules.board)


def test_the_corpus_is_large_and_covers_every_variant():
    rows = corpus()
    assert len(rows) >= 300
    assert {v for v, _, _ in rows} == set(VARIANTS)
    assert sum(1 for _, _, r in rows if r.startswith(("!", "?"))) >= 40  # refused, by dipgen check at least


@pytest.mark.parametrize("variant,text,reading", corpus(), ids=lambda x: x if isinstance(x, str) else None)
def test_each_line_reads_as_the_corpus_says(variant, text, reading):
    strict, guessed = read(variant, text, False), read(variant, text, True)
    if reading.startswith("? "):  # a slip: read by dipgen orders, an error in a phase file
        assert (strict[:2], guessed) == ("! ", reading[2:])
    elif reading.startswith("~ "):  # not yet read as a GM would: the corpus says so
        assert reading[2:] not in (strict, guessed)
    else:
        assert strict == guessed == reading


def _variant_orders(variant: str):
    rules = VARIANTS[variant]().rules
    board = rules.board
    locs = sorted(board.locations())
    kinds = sorted(set(rules.order_words.values()))
    unit = st.builds(UnitRef, st.sampled_from(kinds), st.sampled_from(locs))
    loc = st.sampled_from(locs)
    own = [st.builds(v.order, unit, loc) if v.aims else st.builds(v.order, unit) for v in rules.verbs]
    return rules, st.one_of(
        st.builds(Hold, unit), st.builds(Move, unit, loc, st.booleans()),
        st.builds(Support, unit, unit, st.one_of(st.none(), loc)), st.builds(Retreat, unit, loc),
        st.builds(Disband, unit), st.builds(Build, unit), st.builds(Remove, unit), st.builds(Upgrade, unit),
        st.builds(Downgrade, unit), st.just(Waive()), *own)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_order_printed_reads_back_to_itself(variant):
    """Every order the engine can print, in every variant's words, reads back to itself, with
    slips guessed or not."""
    rules, orders = _variant_orders(variant)

    @settings(max_examples=150, deadline=None)
    @given(orders)
    def check(order):
        if isinstance(order, Support) and order.dest is not None and order.dest == order.target.loc:
            return  # "A Mun S A Bur - Bur" is not an order anyone writes
        text = order.format(rules.board)
        for guess in (False, True):
            assert read_order(rules.board, text, rules.order_words, rules.verbs, guess=guess) == (order, ())

    check()
    assert any(isinstance(v.order(UnitRef("A", "par"), "bur") if v.aims else v.order(UnitRef("A", "par")),
                          (Strike, Action)) for v in rules.verbs) == bool(rules.verbs)


def _problems(make_game, orders: str):
    from dipgen.core.errors import GameError
    from dipgen.io.gamefiles import load_game
    from dipgen.play.replay import replay

    try:
        history = replay(load_game(make_game({"1901-spring.yml": f"orders:\n  France:\n{orders}"})))
    except GameError as e:
        return [p for p in e.problems if p.severity == "error"], None
    return [], history


def test_a_slip_of_the_verb_is_said_to_be_one(make_game):
    """Issue 37: 'Buidl A Bud' was 'unknown province buidl ... Bul or Bud?'; the slip is the verb."""
    problems, _ = _problems(make_game, "    - Buidl A Par\n")
    assert [(p.line, p.code) for p in problems] == [(3, "unknown-order-word")]
    assert "Did you mean Build?" in problems[0].message


def test_a_numbered_list_is_read_in_a_phase_file(make_game):
    """Issue 37: '1. F Bre - MAO' was 'unknown province 1' (and 'F Lon - Nth Sea', 'unexpected sea':
    the corpus reads it)."""
    problems, history = _problems(make_game, "    - 1. F Bre - MAO\n    - 2) A Par - Bur\n    - A Mar H\n")
    assert problems == []
    assert history.records[0].after.units_at("mao")
    assert history.records[0].after.units_at("bur")


def test_a_slip_after_a_province_names_the_longer_one(make_game):
    problems, _ = _problems(make_game, "    - F Bre - Nrth Sae\n")
    assert [p.code for p in problems] == ["bad-order"]
    assert "Did you mean North Sea?" in problems[0].message
    problems, _ = _problems(make_game, "    - F Bre - Mid Atlantc\n")
    assert [p.code for p in problems] == ["bad-order"]
    assert "Did you mean Mid-Atlantic Ocean?" in problems[0].message


def test_a_tie_names_both_readings(board):
    with pytest.raises(ValueError) as e:
        read_order(board, "A Lvz - Mos", guess=True)
    assert "Lvp" in str(e.value)
    assert "Lvn" in str(e.value)


@settings(max_examples=400, deadline=None)
@given(st.text("abcde", max_size=9), st.text("abcde", max_size=9), st.integers(0, 3))
def test_a_bounded_distance_is_exact_within_its_bound(a, b, limit):
    from dipgen.core.names import distance

    exact, bounded = distance(a, b), distance(a, b, limit)
    assert bounded == exact if exact <= limit else bounded > limit
    assert distance("buidl", "build") == 1
    assert distance("kitten", "sitting") == 3


_SPELLINGS = VARIANTS["standard"]().rules.board.spellings_folded


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text("aeilnorstu ", min_size=1, max_size=12),
                 st.builds(lambda s, i, c: s[:i] + c + s[i + 1:], st.sampled_from(sorted(_SPELLINGS)),
                           st.integers(0, 12), st.sampled_from("aeiourst"))))
def test_the_indexed_search_finds_what_comparing_every_name_finds(word):
    """The board's Speller (an index of deletions) finds the same nearest names as comparing the
    word with every spelling, and sorted the same way."""
    from dipgen.core.names import closest

    d, found = closest(word, _SPELLINGS)
    d2, found2 = VARIANTS["standard"]().rules.board.speller.closest(word)
    assert (d2, sorted(found2)) == (d, sorted(found))
