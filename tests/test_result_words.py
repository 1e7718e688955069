"""The site, the maps and the reports say every result in the same words (the variant's).

For every example game, at every level the site publishes (each edition: the public pages, and
the GM's non-blind pages of a revealed hidden game; each power's private page of a running
hidden game), the result words of each order on the pages and in the maps' order titles are
compared with those of the report (`dipgen adjudicate`) of the same phase at the same level.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

import pytest

from dipgen.core.results import STANDARD_WORDS, Bounce, Kind, Note, result_words
from dipgen.present.mapview import map_view
from dipgen.usecases.publish import editions
from dipgen.present.svg import render_standalone
from dipgen.present.report import phase_report
from dipgen.present.site.pages import SiteOptions, season_page
from dipgen.present.site.privatepage import private_content
from dipgen.view import game_view
from support import loaded
from dipgen.variants import VARIANTS, get_variant

GAMES = sorted(p for p in (Path(__file__).parent.parent / "games").iterdir() if (p / "game.yml").exists())

# an order line; or, where a power's orders come from several writers (Double Diplomacy), the
# order carried out, in the last cell of its row
_LI = re.compile(r'<li class="[^"]*">(?P<text>[^<]*)(?P<rest>.*?)</li>'
                 r'|<td class="dg-(?:ok|fail)[^"]*">(?P<cell>[^<]*)(?P<cellrest>.*?)</td>')
_RETREAT_LI = re.compile(r'<li>.*?</span></span> <span class="dg-unit">(?P<text>[^<]*)</span>(?P<rest>.*?)</li>')
_POWER = re.compile(r'<section class="dg-power[^"]*"[^>]*>\s*'
                    r'<div class="dg-power-head"><span class="dg-power-name"[^>]*>'
                    r'<span class="dg-swatch" aria-hidden="true"></span>(?P<power>[^<]+)</span>')
_WORDS = re.compile(r'<span class="dg-res">\(<em>([^<]*)</em>\)</span>')


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in html.unescape(text).split(", ") if w)


def site_items(page: str) -> Counter:
    """(power, order, result words) of each order line and retreat line of a season page."""
    out: Counter = Counter()
    sections = _POWER.split(page)  # [before, power, body, power, body, ...]
    for power, body in zip(sections[1::2], sections[2::2], strict=True):
        body = body.split("</section>")[0]
        for m in _LI.finditer(body):
            text, rest = (m["text"], m["rest"]) if m["text"] is not None else (m["cell"], m["cellrest"])
            if m["text"] is None and html.unescape(text).strip() in ("not made", "—", ""):
                continue  # a writer's order that was not carried out: no result of its own
            words = _WORDS.search(rest)
            out[(power, html.unescape(text).strip(), _words(words[1]) if words else ())] += 1
    for m in _RETREAT_LI.finditer(page):
        power = re.search(r'aria-hidden="true"></span>([^<]+)</span>', m[0])[1]
        words = _WORDS.search(m["rest"])
        out[(power, html.unescape(m["text"]).strip(), _words(words[1]) if words else ())] += 1
    return out


_REPORT_LINE = re.compile(r"^  (?P<text>.+?)(?: \(no order\))?(?: \(\*(?P<words>[^*]+)\*\))?(?: \(no order\))?"
                          r"(?:\s+-- .*)?$")


def report_items(report: str, powers: list[str]) -> Counter:
    """(power, order, result words) of each order line of a report."""
    out: Counter = Counter()
    power, column = None, None
    for line in report.splitlines():
        head = re.match(r"^(\S.*?)(?: \([^)]*\))?:(?:  no orders received \(NMR\))?$", line)
        if head:
            power, column = (head[1] if head[1] in powers else None), None
        elif not line.strip():
            power = None
        elif power is not None and line.endswith("carried out") and column is None:
            column = line.index("carried out")  # several writers: the order carried out is the last column
        elif power is not None and column is not None:
            if line.startswith("  (") or line[column:].startswith("(not carried out)"):
                continue  # the legend, or a writer's order that was not carried out
            m = _REPORT_LINE.match("  " + line[column:])
            out[(power, m["text"].rstrip(), _words(m["words"] or ""))] += 1
        elif power is not None:
            m = _REPORT_LINE.match(line)
            out[(power, m["text"].rstrip(), _words(m["words"] or ""))] += 1
    return out


def map_items(svg: str, powers: list[str]) -> Counter:
    """(power, order, result words) of each order title of a map."""
    out: Counter = Counter()
    for title in re.findall(r"<title>([^<]*)</title>", svg):
        title = html.unescape(title)
        power, _, rest = title.partition(": ")
        if power not in powers:
            continue
        m = re.fullmatch(r"(?P<text>.+?)(?: \((?P<words>[^()]+)\))?", rest)
        out[(power, m["text"], _words(m["words"] or ""))] += 1
    return out


def _in(items: Counter, reference: Counter, once: bool = False) -> list:
    """The items (power, order, words) that `reference` says in other words or not at all
    (`once`: each item at least once, as a map titles an order on each of its marks)."""
    return [k for k, n in items.items() if reference[k] < (1 if once else n)]


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_site_maps_and_reports_say_the_same_words(folder):
    game = loaded(folder)
    history = game.history
    variant = history.variant
    powers = variant.rules.powers()
    compared = 0
    public, full = editions(game)
    for view in (public, full) if full else (public,):
        level = view.level
        for i, record in enumerate(view.records):
            if record.summary_only:
                continue
            page = next(iter(season_page(view, SiteOptions(edition="full" if view is full else ""), i).values()))
            said = report_items(phase_report(view, record), powers)  # the report of the same record
            shown = site_items(page)
            assert not _in(shown, said), f"{record.phase.name} at {level}: the page says {_in(shown, said)}"
            drawn = map_items(render_standalone(map_view(view, record.phase, "orders")), powers)
            assert not _in(drawn, said, True), f"{record.phase.name} at {level}: the map says {_in(drawn, said, True)}"
            compared += sum(n for (_, _, w), n in shown.items() if w)
    if variant.policy.hidden and not history.finished:
        for power in powers:
            seat = game_view(history, power)
            content = private_content(seat, "games/x/private.html")
            reports = [html.unescape(x) for x in re.findall(r'<pre class="pp-report">(.*?)</pre>', content, re.S)]
            assert reports
            for report in reports:
                record = next(r for r in seat.records if report.startswith(phase_report(seat, r).split("\n")[0]))
                said = report_items(report, powers)
                if record.summary_only:
                    continue
                drawn = map_items(render_standalone(map_view(seat, record.phase, "orders")), powers)
                assert not _in(drawn, said, True), \
                    f"{record.phase.name} for {power}: the map says {_in(drawn, said, True)}"
                compared += sum(n for (_, _, w), n in said.items() if w)
    assert compared > 0  # the comparison saw result words


def test_vocabulary_is_keyed_by_typed_values_and_covers_every_kind():
    assert set(STANDARD_WORDS) >= set(Kind)
    for name in VARIANTS:
        variant = get_variant(name)
        vocab = variant.words.result_vocabulary
        assert all(not isinstance(k, str) for k in vocab), variant.name
        assert set(vocab) >= set(Kind), variant.name


def test_stab_says_fails_bounce_and_self_standoff():
    stab = get_variant("stab").words.result_vocabulary
    said = [result_words([Note(Kind.BOUNCE, b)], stab) for b in (Bounce.HELD, Bounce.STANDOFF, Bounce.SELF_STANDOFF)]
    assert said == [("fails",), ("bounce",), ("self-standoff",)]
    assert result_words([Note(Kind.BOUNCE, Bounce.HELD), Note(Kind.DISLODGED)]) == ("bounce", "dislodged")


def test_a_note_refuses_free_text():
    with pytest.raises(TypeError):
        Note("bounce", Bounce.HELD)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Note(Kind.BOUNCE, "held")  # type: ignore[arg-type]


def test_a_result_made_quickly_is_the_constructors():
    """`OrderResult.made` (the engine's, for speed) gives the very result the constructor gives:
    equal, hashed alike, frozen, with the same defaults."""
    import dataclasses

    import pytest

    from dipgen.core.orders import Hold, UnitRef
    from dipgen.core.position import Unit
    from dipgen.core.results import Kind, Note, OrderResult

    unit = Unit("France", "A", "par")
    args = ("France", Hold(UnitRef("A", "par")), unit, False, (Note(Kind.CUT),))
    quick, slow = OrderResult.made(*args, default=True), OrderResult(*args, default=True)
    assert quick == slow
    assert hash(quick) == hash(slow)
    assert repr(quick) == repr(slow)
    assert OrderResult.made(*args[:4]) == OrderResult(*args[:4])
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.succeeded = True  # type: ignore[misc]


def test_a_unit_moved_quickly_is_the_constructors():
    """`Unit.moved` (the engine's, for each unit that moves) gives the unit the constructor gives:
    equal, hashed alike, ordered alike, frozen, its identity kept, pickled alike."""
    import dataclasses
    import pickle

    import pytest

    from dipgen.core.position import Unit

    unit = Unit("England", "F", "lon", 7)
    quick, slow = unit.moved("stp/nc"), Unit("England", "F", "stp/nc", 7)
    assert quick == slow
    assert quick.uid == 7
    assert quick.province == "stp"
    assert hash(quick) == hash(slow)
    assert repr(quick) == repr(slow)
    assert sorted([Unit("England", "F", "nth"), quick]) == sorted([Unit("England", "F", "nth"), slow])
    assert pickle.dumps(unit.moved("nth")) == pickle.dumps(Unit("England", "F", "nth", 7))
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.loc = "lon"  # type: ignore[misc]


@pytest.mark.parametrize("text", ["F Bre - MAO", "1. F Bre - MAO", "a) A Par H", "A) A Par H", "- A Par - Bur",
                                  " A Par", "(3) A Par", "Ab) x", "ſ) A Par", "\u212a) A Par", "x", "", "• A Par"])
def test_an_order_without_its_list_marker_is_the_expression_s(text):
    """`unmarked` answers a line that begins with a letter without the expression: the same text."""
    from dipgen.core.orderwords import _MARKER, unmarked

    assert unmarked(text) == _MARKER.sub("", text, count=1)


def test_a_movement_outcome_made_quickly_is_the_constructors():
    """The engine's outcome of a phase (made by `dipgen.core.frozen.made`) is the one its
    constructor makes from the same fields: equal, shown and pickled alike, frozen."""
    import dataclasses
    import pickle

    import pytest

    from dipgen.core.orders import Hold, Move, UnitRef
    from dipgen.core.position import Unit
    from dipgen.engine.movement import MovementOutcome, adjudicate_movement
    from dipgen.resources.boards import load_board

    units = [Unit("France", "A", "par", 1), Unit("Germany", "A", "mun", 2), Unit("Germany", "A", "ruh", 3)]
    orders = {"France": [Hold(UnitRef("A", "par"))],
              "Germany": [Move(UnitRef("A", "mun"), "bur"), Move(UnitRef("A", "ruh"), "bur")]}
    out = adjudicate_movement(load_board("standard"), units, orders)
    again = MovementOutcome(*(getattr(out, f.name) for f in dataclasses.fields(MovementOutcome)))
    assert out == again
    assert repr(out) == repr(again)
    assert out.standoffs == {"bur"}
    assert pickle.dumps(out) == pickle.dumps(again)
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.economy = {}  # type: ignore[misc]
