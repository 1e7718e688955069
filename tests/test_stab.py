"""Stab!: placement, the seed's reporting rules, private news, and what each level sees."""

from pathlib import Path

import pytest

from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.core.orderline import OrderLine
from dipgen.play.game import PhaseFile
from dipgen.play.replay import replay
from dipgen.play.step import step
from dipgen.core.orders import for_phase, parse_order, parse_unit
from dipgen.core.phase import Phase
from dipgen.core.position import Position, Unit
from dipgen.variants import get_variant
from dipgen.play.records import GameInfo, History
from dipgen.rules.seats import Seating
from dipgen.view import UNKNOWN, game_view
from dipgen.view.seen import seen_record as view_record
from support import write_game

STAB = get_variant("stab")
B = STAB.rules.board

# The position and orders of the rule text's Autumn 1902 example.
POSITION = {
    "England": ["F NTH", "A Edi", "A Pic", "A Wal", "F ENG", "F SKA"],
    "France": ["A Par", "F Bre", "A Gas", "A Mar", "F MAO", "F IRI"],
    "Germany": ["A Mun", "A Ruh", "A Bur", "A Kie", "F Swe", "F BAL"],
}
ORDERS = {
    "England": ["F NTH c A Edi – Hol", "A Edi – Hol", "A Pic s A Wal – Bre", "A Wal – Bre",
                "F ENG c A Wal – Bre", "F SKA – Swe"],
    "France": ["A Par s F Bre – Pic", "F Bre – Pic", "A Gas – Bur", "A Mar s A Gas – Bur", "F MAO – NAO",
               "F IRI – ENG"],
    "Germany": ["A Mun s A Bur – H", "A Ruh s A Bur – H", "A Bur s A Ruh – H", "A Kie – Hol", "F Swe – Den",
                "F BAL – Den"],
}
# The game report the rule text shows for it, written in dipgen's notation
# (S and C for s and c, '-' for '–', a supported hold without '- H', a concealed '*s' as 'S').
REPORT = {
    "England": ["F NTH C A Edi - Hol", "A Edi - Hol (*bounce*)", "A Pic S (*cut, dislodged*)", "F ENG C",
                "F SKA - Swe (*fails*)"],
    "France": ["A Par S F Bre - Pic", "F Bre - Pic", "A Gas - Bur (*fails*)", "A Mar S A Gas - Bur",
               "F IRI - ENG (*fails*)"],
    "Germany": ["A Mun S A Bur", "A Ruh S A Bur", "A Bur S (*cut*)", "A Kie - Hol (*bounce*)",
                "F Swe - Den (*self-standoff*)"],
}


class _Record:
    """A Stab! history of one phase, for the visibility functions."""


def example_record():
    phase = Phase(1902, 1)  # the example's Autumn 1902
    units = tuple(Unit(p, *parse_unit(B, s)) for p, specs in POSITION.items() for s in specs)
    owners = {c: p.home for c, p in B.provinces.items() if p.home}
    position = Position(phase, units, owners)
    pf = PhaseFile(phase, Path("1902-fall.yml"), {
        p: [OrderLine(p, t, for_phase(parse_order(B, t), "movement"), "1902-fall.yml", i) for i, t in enumerate(ts, 1)]
        for p, ts in ORDERS.items()}, {})
    return step(STAB, position, pf)


def FakeHistory(record) -> History:
    """A running game of one phase: `record`."""
    seats = Seating.one_per_power({p: [(p, None)] for p in STAB.rules.powers()})
    return History(GameInfo("fake", "Fake"), STAB, seats, [record], record.after, record.after.phase, None)


def public_report(record):
    h = FakeHistory(record)
    seen = view_record(h, record, "public")
    return {p: [STAB.words.format_result(r) for r in seen.results if r.power == p] for p in POSITION}, seen


def test_the_rule_texts_autumn_1902_report_line_for_line():
    record = example_record()
    report, _ = public_report(record)
    assert report == REPORT


def test_undisputed_moves_and_hidden_units_stay_hidden():
    record = example_record()
    _, seen = public_report(record)
    shown = {u.loc for u in seen.before.units}
    assert {"wal", "mao", "bal"}.isdisjoint(shown)
    assert {"nth", "edi", "pic", "eng", "ska", "par", "bre", "gas", "mar", "iri", "mun", "ruh", "bur", "kie",
            "swe"} == shown
    # afterwards the public knows where the revealed units stand, not the hidden ones
    after = {(u.power, u.loc) for u in seen.after.units}
    assert ("France", "pic") in after
    assert ("England", "bre") not in after
    assert ("France", "nao") not in after
    # nobody publicly owns anything; the totals are public
    assert seen.after.owners == {}
    assert seen.after.totals["England"] == 3
    # the dislodged unit is reported, its retreats are not
    assert [(d.unit.loc, d.retreats) for d in seen.dislodged] == [("pic", UNKNOWN)]


def test_each_power_sees_its_own_and_its_news():
    record = example_record()
    h = FakeHistory(record)
    england = view_record(h, record, "England")
    assert {u.loc for u in england.after.units if u.power == "England"} == {"nth", "edi", "bre", "eng", "ska"}
    assert [d.retreats for d in england.dislodged] == [record.dislodged[0].retreats]
    # France learns who took Brest, and with what (it changes hands after the retreats) ...
    france = view_record(h, record, "France")
    assert Unit("England", "A", "bre") in france.after.units
    # ... but Germany does not
    germany = view_record(h, record, "Germany")
    assert Unit("England", "A", "bre") not in germany.after.units
    # England's full orders, as written, are England's alone
    assert set(england.orders) == {"England"}
    assert set(france.orders) == {"France"}


GAME = ("title: Knives Out\nvariant: stab\ngm: Grace\n"
        "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n")


def test_placement(tmp_path):
    path = write_game(tmp_path / "g", {"game.yml": GAME, "1901-spring.yml": (
        "placement:\n"
        "  England: [F NTH, F Lon, A Wal]\n"
        "  Russia: [A Ukr, A Lvn, F StP/nc, F Sev]\n"
        "orders:\n"
        "  England: [F NTH - Nwy]\n")})
    h = replay(load_game(path))
    before = h.records[0].before
    assert Unit("England", "F", "nth") in before.units
    assert Unit("Russia", "A", "ukr") in before.units
    assert Unit("France", "A", "par") in before.units  # no placement sent: the usual opening units
    public = view_record(h, h.records[0], "public")
    assert Unit("England", "A", "wal") not in public.before.units  # placements are not published


@pytest.mark.parametrize("placement,message", [
    ("  Russia: [A Fin, A Mos, F Sev, A War]\n", "Finland is not a home space of Russia"),
    ("  France: [A Par, A Bre]\n", "France places 2 units; it must place 3"),
    ("  Germany: [F Mun, A Ber, A Kie]\n", "a fleet cannot stand inland in Munich"),
    ("  Russia: [F StP, A Mos, F Sev, A War]\n", "say which coast of St Petersburg"),
    ("  France: [F NTH, A Par, A Mar]\n", "North Sea is not a home space of France"),
    ("  Italy: [A Rom, F Rom, A Ven]\n", "two units placed in Rome"),
])
def test_placement_errors(tmp_path, placement, message):
    path = write_game(tmp_path / "g",
                      {"game.yml": GAME, "1901-spring.yml": "placement:\n" + placement + "orders: {England: []}\n"})
    with pytest.raises(GameError) as e:
        replay(load_game(path))
    assert any(message in p.message for p in e.value.problems), [str(p) for p in e.value.problems]
    assert all(p.line for p in e.value.problems)


def test_retreats_and_builds_are_private(tmp_path):
    path = write_game(tmp_path / "g", {"game.yml": GAME,
        "1901-spring.yml": "placement:\n  Austria: [A Tyr, A Boh, F Tri]\n"
                           "orders:\n  Austria: [A Tyr - Mun, A Boh S A Tyr - Mun]\n",
        "1901-spring-retreats.yml": "orders:\n  Germany: [A Mun - Ruh]\n"})
    h = replay(load_game(path))
    retreat = h.records[1]
    assert [r.succeeded for r in retreat.results] == [True]
    assert view_record(h, retreat, "public").results == ()
    assert len(view_record(h, retreat, "Austria").results) == 1  # the attacker hears where it went
    assert len(view_record(h, retreat, "Germany").results) == 1
    assert view_record(h, retreat, "Russia").results == ()


def test_adjudicate_reports_public_and_private(tmp_path, capsys):
    from dipgen.cli import main

    path = write_game(tmp_path / "g", {"game.yml": GAME,
        "1901-spring.yml": "placement:\n  Austria: [A Tyr, A Boh, F Tri]\n"
                           "orders:\n  Austria: [A Tyr - Mun, A Boh S A Tyr - Mun, F Tri - ADR]\n"
                           "  Germany: [A Ber - Sil, F Kie - Den]\n"})
    assert main(["adjudicate", str(path)]) == 0
    public = capsys.readouterr().out
    # a unit with no order is seen holding: whether it had one is Germany's to know
    assert "A Tyr - Mun" in public
    assert "A Mun H (*dislodged*)" in public
    assert "(no order)" not in public
    for secret in ("ADR", "Sil", "Den", "may retreat"):
        assert secret not in public
    assert main(["adjudicate", str(path), "--power", "germany"]) == 0
    german = capsys.readouterr().out
    assert "Your units: F Den, A Sil." in german
    assert "may retreat to Ber, Bur, Kie and Ruh" in german
    assert "Austria A Mun stands in your centre Munich." in german
    assert "ADR" not in german


@pytest.mark.parametrize("slug,phase", [("lamps-out", "1902-fall"), ("masked-ball", "1905-fall")])
def test_season_pages_never_call_a_retreating_unit_destroyed(slug, phase):
    """The public is told a unit was dislodged, never its fate; the full edition of a finished
    game says where it might go. (The season pages once said 'nowhere to retreat, destroyed'
    of every dislodged unit, whatever became of it.)"""
    import re

    from dipgen.present.site.pages import SiteOptions, season_page
    from support import load

    h = load(Path(__file__).resolve().parent.parent / "games" / slug)
    record = h.record(Phase.from_slug(phase))
    could_retreat = [d for d in record.dislodged if d.retreats]
    assert could_retreat, "the example has a unit that could retreat"
    for level in ("public", "gm"):
        view = game_view(h, level)
        index = view.phases().index(record.phase)
        page = next(iter(season_page(view, SiteOptions(), index).values()))
        for d in could_retreat:
            unit = d.unit.describe(h.variant.rules.board)
            line = re.search(rf'<span class="dg-unit">{re.escape(unit)}</span>[^<]*(?:<[^l][^<]*)*', page).group(0)
            assert "destroyed" not in line, (level, line)
            if level == "gm":
                assert "may retreat to" in line


# ---------------------------------------------------------------------------- mis-orders are not revealed

def _pair(tmp_path: Path, phases: dict[str, str], fact: str, a: str, b: str):
    """Two running games whose files differ only in `fact`'s line of the last phase: `a` in one, `b`
    in the other (same folder name, so that only the fact differs)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from support.pairs import SLUG
    from support import load

    out = []
    for name, line in (("a", a), ("b", b)):
        files = {f"{k}.yml": v.replace(fact, line) for k, v in phases.items()}
        out.append(load(write_game(tmp_path / name / SLUG, {"game.yml": GAME, **files})))
    return out


def _outsiders_see_the_same(a, b, involved: set[str]) -> None:
    from support.pairs import published

    pa, pb = published(a), published(b)
    differ = sorted(k for k in set(pa) | set(pb) if pa.get(k) != pb.get(k))
    # the test can fail: someone knows (on her private page, and in the messages mailed to her)
    assert differ, differ
    assert all(k.startswith(("private/", "mail/")) for k in differ), differ
    assert {k.split("/")[1] for k in differ} <= involved, differ


@pytest.mark.parametrize("misorder", ["A Par - Mun", "A Par S F Bre - Lon"])
def test_a_misorder_under_attack_is_not_revealed(tmp_path, misorder):
    """France's A Par, attacked by a German army, is ordered to Munich (out of reach) or to support
    a fleet into London (unlawful): it holds, and the public sees it hold exactly as after a lawful
    'A Par H' (no '(no order)' mark on the page, the map or the search index, nor in the report).
    Only France, and the German attacker, may tell the two apart."""
    phases = {"1901-spring": "placement: {France: [A Par, F Bre, A Mar]}\n"
                             "orders:\n  Germany: [A Mun - Bur]\n  France: [A Par H]\n",
              "1901-fall": "orders:\n  Germany: [A Bur - Par]\n  France: [FACT]\n"}
    a, b = _pair(tmp_path, phases, "FACT", "A Par H", misorder)
    assert "illegal-order" in [w.code for w in b.warnings]
    _outsiders_see_the_same(a, b, {"France", "Germany"})


def test_an_unlawful_retreat_is_not_revealed(tmp_path):
    """France's dislodged A Bur retreats to Picardy, or is ordered to London (out of reach) and so
    is disbanded: the public learns of neither (a mis-order is not revealed; a disband is told only
    when chosen or when no retreat was ordered). France and its attacker, Germany, are told."""
    phases = {"1901-spring": "placement: {France: [A Par, F Bre, A Mar]}\n"
                             "orders:\n  France: [A Par - Bur]\n  Germany: [A Mun - Ruh, A Ber - Mun]\n",
              "1901-fall": "orders:\n  Germany: [A Ruh - Bur, A Mun S A Ruh - Bur]\n  France: [A Bur H]\n",
              "1901-fall-retreats": "orders:\n  France: [FACT]\n"}
    a, b = _pair(tmp_path, phases, "FACT", "A Bur - Pic", "A Bur - Lon")
    assert [r.phase.slug for r in a.records][-1] == "1901-fall-retreats"
    _outsiders_see_the_same(a, b, {"France", "Germany"})
    # a disband the player chose is told to everyone, as the rules say
    c = _pair(tmp_path / "c", phases, "FACT", "A Bur disband", "A Bur disband")[0]
    from support import game_report

    assert "France A Bur disband" in game_report(c)


def _with_and_without_kiel(tmp_path, support: str) -> list:
    """Two games of one Spring: Germany's A Mun, attacked from Tyrolia (so in contact), gives
    `support`; a fleet stands in Kiel in the first game and not in the second. Their histories."""
    out = []
    for german in ("A Mun, A Ber, F Kie", "A Mun, A Ber, A Ruh"):
        path = write_game(tmp_path / german[-3:].lower(), {"game.yml": GAME,
            "1901-spring.yml": f"placement:\n  Austria: [A Tyr, A Boh, F Tri]\n  Germany: [{german}]\n"
                               f"orders:\n  Austria: [A Tyr - Mun]\n  Germany: [{support}]\n"})
        out.append(replay(load_game(path)))
    return out


def test_a_support_of_a_unit_not_there_is_shown_as_written(tmp_path):
    """Germany's A Mun, under attack (so in contact), supports F Kie - Ber. Whether a fleet stands in
    Kiel is secret: the public reads the support as written in both games, marked neither void nor
    replaced by the hold the rules put in place of a support of nobody (ruling on the rules page)."""
    from support import report

    first, second = (report(h, "public", h.records[0].phase) for h in _with_and_without_kiel(tmp_path,
                                                                                            "A Mun S F Kie - Ber"))
    assert first == second
    assert "A Mun S F Kie - Ber" in first
    assert "void" not in first
    assert "A Mun H" not in first


def test_a_support_unlawful_on_the_map_stays_a_misorder_whoever_it_names(tmp_path):
    """Munich cannot reach Holland: the support is unlawful whether or not a fleet stands in Kiel, so
    it is a mis-order, not revealed (the army is seen holding) in both games alike."""
    from dipgen.core.results import Illegal, Kind
    from support import report

    games = _with_and_without_kiel(tmp_path, "A Mun S F Kie - Hol")
    first, second = (report(h, "public", h.records[0].phase) for h in games)
    assert first == second
    assert "A Mun H" in first
    assert "Hol" not in first
    reasons = [{n.reason for r in h.records[0].results for n in r.notes if n.kind is Kind.ILLEGAL} for h in games]
    assert reasons == [{Illegal.IMPOSSIBLE}, {Illegal.IMPOSSIBLE}]


# ---------------------------------------------------------------------------- the totals before the Winter

#: 1901 with the usual opening units: Austria takes Warsaw, which Russia left; Germany takes
#: Denmark; Germany dislodges Italy's army in Tyrolia, which retreats home to Venice
TOTALS_GAME = ("title: Totals\nvariant: stab\ngm: Grace\n"
               "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n")
TOTALS_YEAR = {
    "1901-spring.yml": "placement: {England: [F Edi, F Lon, A Lvp]}\n"
                       "orders:\n  Austria: [A Vie - Gal]\n  Russia: [A War - Ukr]\n"
                       "  Germany: [F Kie - Den, A Mun - Boh, A Ber - Mun]\n  Italy: [A Ven - Tyr]\n",
    "1901-fall.yml": "orders:\n  Austria: [A Gal - War]\n  Germany: [F Den H, A Boh - Tyr, A Mun S A Boh - Tyr]\n"
                     "  Italy: [A Tyr H]\n",
    "1901-fall-retreats.yml": "orders: {Italy: [A Tyr - Ven]}\n",
    "1901-winter.yml": "orders: {Austria: [Build A Vie], Germany: [Build F Kie], Russia: [Remove A Ukr]}\n",
}
#: every power's total after Fall 1901, counted by hand: Austria 3 + War, Germany 3 + Den, Russia 4 - War
AFTER_1901 = {"Austria": 4, "England": 3, "France": 3, "Germany": 4, "Italy": 3, "Russia": 3, "Turkey": 3}


def _totals(text: str) -> dict[str, int]:
    lines = text.split("Supply centres:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return {line.split()[0]: int(line.split()[1]) for line in lines}


def test_every_player_is_told_every_total_once_the_fall_is_closed(tmp_path):
    """Issue 32, 3.2 (the seed: "Before every winter the GM will report the supply centre totals for
    each power"): after Fall 1901 and its retreats each player's report and private page give
    every power's total after the Fall; the Winter report gives the same totals, not the start's."""
    from support import load, report

    files = {"game.yml": TOTALS_GAME, **TOTALS_YEAR}
    fall = load(write_game(tmp_path / "fall", {k: v for k, v in files.items() if "retreats" not in k
                                               and "winter" not in k}))
    assert "Supply centres:\n" not in report(fall, "England")  # not before the year's centres are settled
    closed = load(write_game(tmp_path / "closed", {k: v for k, v in files.items() if "winter" not in k}))
    for power in ("England", "Austria", "Russia"):  # the Fall, its retreats (they took no part in) folded in
        assert _totals(report(closed, power, Phase(1901, 1))) == AFTER_1901, power
    assert "Your supply centres: Edi, Lon, Lvp." in report(closed, "England", Phase(1901, 1))
    for power in ("Italy", "Germany"):  # the retreat's own report: Italy's unit, dislodged by Germany
        assert _totals(report(closed, power, Phase(1901, 1, True))) == AFTER_1901, power
    assert "Supply centres:\n" not in report(closed, "public")  # the public hears them with the next Spring
    page = game_view(closed, "England").record(Phase(1901, 1))
    assert page.tells_totals
    assert page.after.totals == AFTER_1901  # her private page: the same record
    winter = load(write_game(tmp_path / "winter", files))
    assert _totals(report(winter, "Austria", Phase(1901, 2))) == AFTER_1901
    assert _totals(report(winter, "Russia", Phase(1901, 2))) == AFTER_1901


def test_the_totals_wait_for_the_empty_file_that_closes_a_fall(tmp_path):
    """A Fall nobody retreats in: the totals come with the empty retreats file, as they would with
    retreats, so that their timing tells nobody whether anyone had to retreat."""
    from support import load, report

    quiet = {**TOTALS_YEAR, "1901-fall.yml": "orders:\n  Austria: [A Gal - War]\n  Germany: [F Den H]\n"}
    fall = load(write_game(tmp_path / "fall", {"game.yml": TOTALS_GAME, "1901-spring.yml": quiet["1901-spring.yml"],
                                               "1901-fall.yml": quiet["1901-fall.yml"]}))
    assert fall.next_phase == Phase(1901, 1, True)
    assert "Supply centres:\n" not in report(fall, "England")
    closed = load(write_game(tmp_path / "closed", {"game.yml": TOTALS_GAME, "1901-spring.yml": quiet["1901-spring.yml"],
                                                   "1901-fall.yml": quiet["1901-fall.yml"],
                                                   "1901-fall-retreats.yml": "orders: {}\n"}))
    assert _totals(report(closed, "England", Phase(1901, 1))) == {**AFTER_1901, "Germany": 4}
