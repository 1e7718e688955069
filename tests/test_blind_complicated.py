"""Blind Complicated: Complicated's board played blind with Blind's spies (issue 12). Each
visibility ruling of the rules page's "Blind Complicated" section, non-interference for the
hidden facts this variant adds (a plane's flight, a bombing's result, a supply total), and the
spies' place in the economy."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.core.orders import parse_order
from dipgen.core.phase import Phase
from dipgen.core.position import Position, Unit
from dipgen.core.results import Illegal
from dipgen.present.site.pages import SiteOptions
from dipgen.view import game_view
from support import build, histories, load, make_project, public_site, report, write_game
from dipgen.variants import get_variant
from dipgen.view.seen import seen_record as view_record

V = get_variant("blind-complicated")
GAME = ("title: Night Flights\nvariant: blind-complicated\ngm: Grace\n"
        "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n")


#: the file that closes a Fall nobody retreats in (a hidden game waits for it: site_src/rules/blind.md)
CLOSED = "orders: {}\n"


def game(tmp_path: Path, phases: dict[str, str]) -> Path:
    return write_game(tmp_path / "night", {"game.yml": GAME, **{f"{name}.yml": text for name, text in phases.items()}})


def play(tmp_path: Path, phases: dict[str, str]):
    return replay(load_game(game(tmp_path, phases)))


def seen(h, record, level) -> set[tuple[str, str, str]]:
    """The units (power, kind, province) `level` sees in `record`, before or after it."""
    v = view_record(h, record, level)
    return {(u.power, u.kind, u.province) for u in v.before.units + v.after.units}


def foreign(h, record, level) -> set[tuple[str, str, str]]:
    return {u for u in seen(h, record, level) if u[0] != level}


BOMBING = {
    "1901-spring": "orders:\n  France: [P Par - Bur]\n  Germany: [A Mun - Ruh]\n",
    "1901-fall": "orders:\n  France: [P Bur - Pic]\n",
    "1901-fall-retreats": CLOSED,
    "1901-winter": "orders: {Germany: [Build B Mun]}\n",
}


# ---------------------------------------------------------------------------- composition

def test_the_board_is_complicated_and_the_spies_blind(tmp_path):
    h = play(tmp_path, {})
    kinds = sorted((u.power, u.kind, u.province) for u in h.position.units if u.kind in "PS" and u.power == "France")
    assert kinds == [("France", "P", "par"), ("France", "S", "bre"), ("France", "S", "par")]
    assert V.policy.hidden
    assert V.rules.unit_kinds["B"].name == "bomber"
    assert V.rules.unit_kinds["S"].name == "spy"


def test_dipgen_new_makes_a_check_clean_game(tmp_path, capsys):
    from dipgen.cli import main
    from dipgen.usecases.newgame import create_game

    create_game(tmp_path, "night", "blind-complicated")
    assert main(["check", str(tmp_path)]) == 0
    assert "night: ok" in capsys.readouterr().out


def test_bombing_and_spies_in_one_turn(tmp_path):
    """Blind's movement hands the board to Complicated's: the bombing is adjudicated (and counts in
    the year's supply) while the spies move on their own."""
    h = play(tmp_path, {"1901-spring": "orders:\n  Germany: [P Ber - Mun, S Ber - Mun]\n  France: [P Par - Bur]\n",
                        "1901-fall": "orders:\n  Germany: [P Mun - Ruh]\n"})
    assert ("Germany", "S", "mun") in {(u.power, u.kind, u.province) for u in h.records[0].after.units}
    bomber = play(tmp_path / "b", {**BOMBING, "1902-spring": "orders: {Germany: [B Mun bomb Par, S Ber - Kie]}\n"})
    spring = bomber.records[-1]
    (r,) = [r for r in spring.results if r.power == "Germany" and r.unit.kind == "B"]
    assert r.succeeded
    assert V.words.result_words(r) == ("hit",)
    assert dict(spring.after.economy["bombed"]) == {"par": 1}
    assert ("Germany", "S", "kie") in {(u.power, u.kind, u.province) for u in spring.after.units}


# ---------------------------------------------------------------------------- flights

def test_a_flight_meets_nobody(tmp_path):
    """RULING: a plane's flight is seen by nobody, not even by the unit it lands beside."""
    h = play(tmp_path, {"1901-spring": "spies: {Germany: [Ber, Kie]}\n"
                                       "orders:\n  France: [P Par - Mun]\n  Germany: [A Mun H]\n"
                                       "  England: [P Lon - Hol]\n"})
    spring = h.records[0]
    assert ("France", "P", "mun") in {(u.power, u.kind, u.province) for u in spring.after.units}
    assert foreign(h, spring, "Germany") == set()
    assert foreign(h, spring, "France") == set()


def test_planes_flying_to_one_province_do_not_meet(tmp_path):
    h = play(tmp_path, {"1901-spring": "orders:\n  France: [P Par - Bur]\n  Germany: [P Ber - Mun]\n",
                        "1901-fall": "orders:\n  France: [P Bur - Ruh]\n  Germany: [P Mun - Ruh]\n"})
    fall = h.records[1]
    assert foreign(h, fall, "Germany") == set()
    assert foreign(h, fall, "France") == set()


def test_an_attack_meets_the_planes_based_where_it_strikes(tmp_path):
    """RULING: planes and bombers are met where they are based: an attack on their province finds
    those that stay there (and overruns them if it enters), and their power sees the attack."""
    h = play(tmp_path, {"1901-spring": "orders:\n  France: [P Par - Bur]\n",
                        "1901-fall": "orders:\n  Germany: [A Mun - Bur]\n  France: [P Bur H]\n"})
    fall = h.records[1]
    assert ("France", "P", "bur") in foreign(h, fall, "Germany")
    assert ("Germany", "A", "mun") in foreign(h, fall, "France")
    assert [d.unit.kind for d in view_record(h, fall, "Germany").dislodged] == ["P"]
    assert foreign(h, fall, "Italy") == set()


def test_a_plane_that_flew_off_is_not_met(tmp_path):
    h = play(tmp_path, {"1901-spring": "orders:\n  France: [P Par - Bur]\n",
                        "1901-fall": "orders:\n  Germany: [A Mun - Bur]\n  France: [P Bur - Pic]\n"})
    fall = h.records[1]
    assert foreign(h, fall, "Germany") == set()
    assert foreign(h, fall, "France") == set()


def test_a_plane_supporting_is_not_seen(tmp_path):
    """As a support in Blind: the attacker meets the unit it attacks, not the planes helping it."""
    h = play(tmp_path, {"1901-spring": "orders:\n  Germany: [A Mun - Bur, P Ber - Ruh]\n",
                        "1901-fall": "orders:\n  France: [A Par - Bur, P Par S A Par - Bur]\n"
                                     "  Germany: [A Bur H, P Ruh S A Bur]\n"})
    fall = h.records[1]
    assert foreign(h, fall, "France") == {("Germany", "A", "bur")}
    assert foreign(h, fall, "Germany") == {("France", "A", "par")}


def test_a_reason_names_the_unit_met_not_a_spy_or_plane_beside_it(tmp_path):
    """Russia's spy and army stand in Warsaw, Austria's plane and army in Vienna: each power's report
    names the army its own stood off with (night-flights read "bounced with Russia's S War")."""
    h = play(tmp_path, {"1901-spring": "spies: {Russia: [War, Mos], Austria: [Vie, Bud]}\n"
                                       "orders:\n  Austria: [A Vie - Gal]\n  Russia: [A War - Gal]\n"})
    spring = h.records[0]
    for level in ("Austria", "Russia", "gm"):
        text = report(h, level, spring.phase)
        assert "A Vie - Gal (*bounce*)  -- bounced with Russia's A War" in text
        assert "A War - Gal (*bounce*)  -- bounced with Austria's A Vie" in text


# ---------------------------------------------------------------------------- spies

def test_a_spy_reports_every_unit_in_its_province(tmp_path):
    """RULING: a spy reports the whole stack in its province: the unit holding it and the planes
    and bombers based there, each with its order."""
    h = play(tmp_path, {"1901-spring": "orders:\n  France: [S Par - Bur]\n  Germany: [A Mun - Bur, P Ber - Bur]\n",
                        "1901-fall": "orders:\n  Germany: [A Bur H, P Bur H]\n"})
    fall = h.records[1]
    assert foreign(h, fall, "France") == {("Germany", "A", "bur"), ("Germany", "P", "bur")}
    report_ = report(h, "France", fall.phase)
    assert "A Bur H" in report_
    assert "P Bur H" in report_


def test_spies_are_neither_built_nor_removed_for_upkeep():
    units = [Unit("France", "A", "par"), Unit("France", "A", "pic"), Unit("France", "F", "mao"),
             Unit("France", "S", "mos"), Unit("France", "S", "sev")]
    pos = Position(Phase(1901, 2), tuple(units), {"par": "France"}, economy={"year": 1901, "bombed": {}})
    assert V.rules.adjustment_counts(pos) == {"France": 0} or V.rules.adjustment_counts(pos) == {}
    short = pos.with_(units=pos.units + (Unit("France", "P", "par"),))
    out = V.rules.adjustments(short, {"France": [parse_order(V.rules.board, "Remove S Mos", V.rules.order_words)]})
    removed = [r.order.format(V.rules.board) for r in out.results if r.succeeded]
    assert removed == ["Remove F MAO"]  # the spy saves nothing; civil disorder takes a unit that costs
    rich = Position(Phase(1901, 2), (Unit("Germany", "A", "kie"),), {"ber": "Germany", "mun": "Germany"},
                    economy={"year": 1901, "bombed": {}})
    out = V.rules.adjustments(rich, {"Germany": [parse_order(V.rules.board, "Build S Ber", V.rules.order_words)]})
    assert not out.results[0].succeeded
    assert out.results[0].notes[0].reason is Illegal.CANNOT_BUILD
    assert "spies are not built" in out.results[0].notes[0].why  # the words, tested here once


def test_one_point_and_nothing_to_spend_it_on_is_no_winter():
    """The spies' price (nothing) is not the cheapest build: with 1 point there is nothing to build."""
    pos = Position(Phase(1901, 2), (Unit("Germany", "A", "kie"), Unit("Germany", "A", "mun")), {"ber": "Germany"},
                   economy={"year": 1901, "bombed": {}})
    assert V.rules.adjustment_counts(pos) == {}


# ---------------------------------------------------------------------------- bombing



def test_a_bombing_is_seen_by_the_bombed_and_the_result_by_the_bomber(tmp_path):
    """RULING: the owner of the bombed centre learns the bomber, where it flew from and the result;
    the bomber's power learns the result; nobody else learns anything."""
    h = play(tmp_path, {**BOMBING, "1902-spring": "orders: {Germany: [B Mun bomb Par]}\n"})
    spring = h.records[-1]
    assert ("Germany", "B", "mun") in foreign(h, spring, "France")
    france = view_record(h, spring, "France")
    assert [(r.order.format(V.rules.board), V.words.result_words(r))
            for r in france.results if r.power == "Germany"] == [("B Mun bomb Par", ("hit",))]
    germany = view_record(h, spring, "Germany")
    assert [V.words.result_words(r) for r in germany.results if r.unit.kind == "B"] == [("hit",)]
    assert foreign(h, spring, "Germany") == set()
    assert foreign(h, spring, "Italy") == set()
    assert {r.power for r in view_record(h, spring, "Italy").results} == {"Italy"}
    public = view_record(h, spring, "public")
    assert public.results == ()
    assert public.before.units == ()


def test_defending_planes_see_the_raid(tmp_path):
    """A power whose plane defends the centre (supporting the unit in it) sees the bombing too."""
    h = play(tmp_path, {**BOMBING, "1902-spring": "orders:\n  Germany: [B Mun bomb Par]\n"
                                                  "  France: [P Pic S A Par]\n  England: [P Lon S F Bre]\n"})
    spring = h.records[-1]
    (r,) = [r for r in spring.results if r.unit.kind == "B"]
    assert V.words.result_words(r) == ("defended",)
    assert ("Germany", "B", "mun") in foreign(h, spring, "France")
    assert ("Germany", "B", "mun") not in foreign(h, spring, "England")


def test_supply_accounts_are_private(tmp_path):
    """RULING: each power's supply points are its own secret: Complicated's supply table is shown
    on a running Blind Complicated game's page to the GM only."""
    h = play(tmp_path, {**BOMBING, "1902-spring": "orders: {Germany: [B Mun bomb Par]}\n"})
    winter = h.records[3]
    assert set(view_record(h, winter, "Germany").adjustments) == {"Germany"}
    assert set(view_record(h, winter, "public").adjustments) == set()
    fall = play(tmp_path / "fall", {k: BOMBING[k] for k in ("1901-spring", "1901-fall", "1901-fall-retreats")})
    mine = report(fall, "Germany")
    assert "Germany 5 supply points to spend" in mine
    assert "France" not in mine.split("Next:")[1]
    assert "supply point" not in report(fall, "public")
    assert 'class="dg-supply"' in V.words.game_section(game_view(h, "gm"))  # Complicated's supply table, for the GM
    assert V.words.game_section(game_view(h, "public")) == ""
    assert V.words.game_section(game_view(h, "France")) == ""


# ---------------------------------------------------------------------------- non-interference

def _public(h) -> dict[str, str]:
    return public_site(h)


BASE = {
    "1901-spring": "orders:\n  France: [P Par - Bur, A Par - Pic]\n  Germany: [A Mun - Ruh]\n"
                   "  Turkey: [A Con - Bul]\n  Russia: [P Mos - Ukr]\n",
    "1901-fall": "orders:\n  France: [P Bur - Gas]\n  Turkey: [A Bul - Gre]\n  Russia: [P Ukr - Rum]\n",
    "1901-fall-retreats": CLOSED,
    "1901-winter": "orders:\n  Germany: [Build B Mun]\n  Turkey: [Build B Con]\n",
}

PAIRS = {
    # a bombing far from anyone: a neutral centre, hit or held off by a plane
    "bombing": ({"1902-spring": "orders:\n  Turkey: [B Con bomb Bul]\n  Russia: [P Rum - Sev]\n"},
                {"1902-spring": "orders:\n  Turkey: [B Con bomb Bul]\n  Russia: [P Rum S A Bul]\n"}),
    # a plane's flight
    "flight": ({"1902-spring": "orders:\n  France: [P Gas - Spa]\n"},
               {"1902-spring": "orders:\n  France: [P Gas - Bre]\n"}),
    # a supply total: France's home centre bombed or not; it still builds the same
    "supply": ({"1902-spring": "orders: {Germany: [B Mun bomb Par]}\n",
                "1902-fall": "orders: {France: [A Pic - Bel]}\n", "1902-fall-retreats": CLOSED,
                "1902-winter": "orders: {France: [Build A Par]}\n", "1903-spring": "orders: {Turkey: []}\n"},
               {"1902-spring": "orders: {Germany: [B Mun - Kie]}\n", "1902-fall": "orders: {France: [A Pic - Bel]}\n",
                "1902-fall-retreats": CLOSED, "1902-winter": "orders: {France: [Build A Par]}\n",
                "1903-spring": "orders: {Turkey: []}\n"}),
}


@pytest.mark.parametrize("kind", sorted(PAIRS))
def test_a_hidden_fact_changes_nothing_public(tmp_path, kind):
    one, two = PAIRS[kind]
    a = play(tmp_path / "a", {**BASE, **one})
    b = play(tmp_path / "b", {**BASE, **two})
    assert [r.after for r in a.records] != [r.after for r in b.records] or [r.results for r in a.records] != [
        r.results for r in b.records]
    if kind == "supply":
        sa, sb = (V.rules.base.supply(h.records[-3].after) for h in (a, b))  # after Fall 1902
        assert sa["France"].bombed == 1
        assert sb["France"].bombed == 0
    pa, pb = _public(a), _public(b)
    assert sorted(pa) == sorted(pb)
    assert [k for k in pa if pa[k] != pb[k]] == []


# ---------------------------------------------------------------------------- the example game

EXAMPLE = Path(__file__).resolve().parent.parent / "games" / "night-flights"


@pytest.fixture(scope="module")
def example_site(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("bc") / "p", [EXAMPLE.name])
    return project, build(project), histories(project)


def test_the_example_game_shows_planes_a_bombing_and_a_winter():
    h = load(EXAMPLE)
    assert h.result is None
    assert h.variant.name == "blind-complicated"
    kinds = {u.kind for r in h.records for u in r.after.units}
    assert {"P", "B", "S"} <= kinds
    bombs = [r for rec in h.records for r in rec.results if type(r.order).__name__ == "Bomb"]
    assert any(r.succeeded for r in bombs)
    assert any(not r.succeeded for r in bombs)
    assert any(rec.kind == "adjustments" and rec.adjustments for rec in h.records)


@pytest.mark.slow
def test_nothing_leaks_from_the_example_game(example_site):
    from dipgen.usecases.leaks import scan_site, secrets_of

    project, site, hs = example_site
    (h,) = hs
    s = secrets_of(h)
    assert any(k == "P" for _, k, _ in s.units)
    assert any(k == "B" for _, k, _ in s.units)
    assert any(" bomb " in o for o in s.orders)
    assert scan_site(site, hs, docs_dir=project / "site_src") == []
    assert game_view(h, "public").now.units == ()


@pytest.mark.slow
def test_a_leaky_site_of_the_example_is_caught(tmp_path, monkeypatch):
    """Were the pages and maps drawn from the GM's records, the scanner finds planes, bombers and
    the bombings in the example game's site."""
    import dipgen.usecases.publish as publish
    from dipgen.usecases.leaks import scan_site

    real = publish.game_view
    monkeypatch.setattr(publish, "game_view", lambda history, level, demo=None: real(history, "gm"))
    h = load(EXAMPLE)
    site = tmp_path / "site"
    for uri, text in public_site(h).items():
        (site / uri).parent.mkdir(parents=True, exist_ok=True)
        (site / uri).write_text(text, encoding="utf-8")
    leaks = scan_site(site, [h])
    assert any("hidden P" in leak.what for leak in leaks)
    assert any("hidden B" in leak.what for leak in leaks)
    assert any(" bomb " in leak.what for leak in leaks)


def test_the_game_page_links_to_the_blind_complicated_rules(tmp_path):
    h = play(tmp_path, {"1901-spring": "orders:\n  France: [P Par - Bur]\n"})
    pages = public_site(h, SiteOptions(rules={"complicated": "rules/complicated.md"}))
    assert 'href="../../rules/complicated/#blind-complicated"' in pages["games/night/index.md"]


# ---------------------------------------------------------------------------- builds (issue 21)

PLANE_IN_PARIS = {  # Germany's plane lands in Paris unseen (France's spies are elsewhere)
    "1901-spring": "spies: {France: [Bre, Mar]}\n"
                   "orders:\n  France: [A Par - Bur, P Par - Pic, A Mar - Spa]\n  Germany: [P Ber - Mun]\n",
    "1901-fall": "orders:\n  Germany: [P Mun - Par]\n",
    "1901-fall-retreats": CLOSED,
    "1901-winter": "orders:\n  France: [Build A Par, Build A Mar]\n",
}


def test_a_build_under_an_unseen_foreign_plane_says_no_more_than_the_failure_tells(tmp_path):
    """RULING: the build is void (a warning for the GM, who learns whose plane it is); the builder
    learns that an aircraft of another power stands in her centre, which the failure itself tells
    her, and neither whose nor which; nobody else learns anything."""
    h = play(tmp_path, PLANE_IN_PARIS)
    winter = h.records[-1]
    (w,) = h.warnings
    assert w.code == "illegal-order"
    assert w.subject == "Build A Par"
    france = report(h, "France", winter.phase)
    assert "Build A Par (*illegal*)  -- illegal: a plane or bomber of another power stands in Paris\n" in france
    orders = france.split("France (C):\n")[1].split("\n\n")[0]
    assert "Build A Mar" in orders
    assert "Germany" not in orders
    assert "P Par" not in orders
    for level in ("public", "Germany", "England"):  # the winter is not even on their calendar
        view = game_view(h, level)
        assert winter.phase not in view.phases() or "Build A Par" not in report(h, level, winter.phase)
        assert not any("Build A Par" in report(h, level, r.phase) for r in view.records)


def test_a_foreign_spy_does_not_stop_a_build(tmp_path):
    """Only planes and bombers bar a build (the seed's rule): a spy stands outside the fighting."""
    h = play(tmp_path, {
        "1901-spring": "spies: {Germany: [Mun, Ber]}\n"
                       "orders:\n  France: [A Par - Bur, P Par - Pic, A Mar - Spa]\n  Germany: [S Mun - Bur]\n",
        "1901-fall": "orders:\n  Germany: [S Bur - Par]\n",
        "1901-fall-retreats": CLOSED,
        "1901-winter": "orders:\n  France: [Build A Par]\n"})
    assert ("Germany", "S", "par") in {(u.power, u.kind, u.province) for u in h.records[-1].before.units}
    assert [r.succeeded for r in h.records[-1].results_of("France")] == [True]
    assert not h.warnings
