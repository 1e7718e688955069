"""Complicated's supply table on the game page: per year and power, income, bombing losses,
upkeep, points built with and points lost; upkeep a power could not pay and what it removed."""

import re

from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay

from dipgen.view import game_view
from support import write_game

PLAYERS = "".join(f"  {p}: P{i}\n" for i, p in enumerate(
    ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]))
FILES = {
    "1901-spring.yml": "orders:\n  France: [A Par - Bur, A Mar - Spa]\n  Germany: [A Mun - Ruh]\n",
    "1901-fall.yml": "orders:\n  France: []\n",
    "1901-winter.yml": "orders:\n  France: [Build A Par, Build B Mar]\n  Germany: [Build B Mun]\n",
    # P Par stands in Paris and defends it; nothing defends Marseilles
    "1902-spring.yml": "orders:\n  Germany: [B Mun bomb Par]\n",
    "1902-fall.yml": "orders:\n  Germany: [B Mun bomb Mar]\n",
}


def history(tmp_path, files=FILES):
    game = "title: T\nvariant: complicated\ngm: G\nstart: 1901\nplayers:\n" + PLAYERS
    return replay(load_game(write_game(tmp_path / "g", {"game.yml": game, **files})))


def row(html: str, year: int, power: str) -> list[str]:
    block = html.split(f"<summary>{year}</summary>")[1].split("</details>")[0]
    tr = next(t for t in block.split("<tr>") if f"</span>{power}</span>" in t)
    return re.findall(r'<td class="dg-num[^"]*"[^>]*>([^<]*)</td>', tr)


def test_supply_table_per_year(tmp_path):
    h = history(tmp_path)
    v = h.variant
    html = v.words.game_section(game_view(h, "public"))
    assert '<h2 id="supply-points">Supply points</h2>' in html
    # France 1901: Paris, Marseilles, Brest 3 each and Spain 2; four units; built A (2) and B (2); 3 lost
    assert row(html, 1901, "France") == ["11", "0", "4", "4", "3"]
    assert row(html, 1901, "Russia") == ["12", "0", "5", "0", "7"]
    # 1902: Marseilles bombed (Paris was defended by its plane); the winter is still to come
    assert row(html, 1902, "France") == ["11", "1", "6", "due", "—"]
    assert html.index("<summary>1902</summary>") < html.index("<summary>1901</summary>")  # latest first, open
    assert '<details class="dg-supply-year" open><summary>1902' in html


def test_a_game_that_ends_with_a_fall_spends_nothing_more(tmp_path):
    """A game declared over after a Fall has no winter: the year's points are neither built
    with nor due ("—"), not all lost."""
    history(tmp_path)  # writes the folder
    game = (tmp_path / "g" / "game.yml").read_text()
    write_game(tmp_path / "g", {"game.yml": game + "end:\n  draw: [France, Russia]\n"})
    h = replay(load_game(tmp_path / "g"))
    assert h.finished
    assert row(h.variant.words.game_section(game_view(h, "public")), 1902, "France") == ["11", "1", "6", "—", "—"]


SHORT = {
    # Germany's armies walk away, Russia takes Berlin and France Munich: Germany keeps Kiel
    # alone, 3 points against an upkeep of 4 (two armies, a fleet, a plane)
    "1901-spring.yml": "orders:\n  Germany: [A Mun - Tyr, A Ber - Pru, F Kie - Hel]\n"
                       "  France: [A Par - Bur]\n  Russia: [A War - Sil]\n",
    "1901-fall.yml": "orders:\n  Germany: [P Ber - Kie]\n  France: [A Bur - Mun]\n  Russia: [A Sil - Ber]\n",
}


def test_unpaid_upkeep_is_said_with_what_was_removed(tmp_path):
    h = history(tmp_path, {**SHORT, "1901-winter.yml": "orders:\n  Germany: [Remove A Tyr]\n"})
    html = h.variant.words.game_section(game_view(h, "public"))
    assert row(html, 1901, "Germany") == ["3", "0", "4", "—", "—"]
    assert "<li>Germany was 1 point short of its upkeep and removed A Tyr.</li>" in html


def test_upkeep_not_ordered_away_is_removed_in_civil_disorder(tmp_path):
    h = history(tmp_path, {**SHORT, "1901-winter.yml": "orders:\n  Germany: []\n"})
    html = h.variant.words.game_section(game_view(h, "public"))
    assert re.search(r"<li>Germany was 1 point short of its upkeep and removed [^<]+ \(some in civil disorder\)\.</li>",
                     html)


def test_the_section_stands_under_the_centre_table(tmp_path):
    from dipgen.variants import get_variant

    assert get_variant("complicated").words.game_section_below_centres
    assert not get_variant("standard").words.game_section_below_centres


def test_the_example_game_shows_what_it_claims():
    """supply-lines (tools/examples/complicated.py): eight years or more ending in a result, tanks,
    an army with three planes over it, bombings that hit and bombings defended, powers short of
    their upkeep, one of them in civil disorder, all said on the game page's supply table."""
    from pathlib import Path

    from dipgen.core.orders import Build, Upgrade
    from dipgen.variants.complicated.rules import Bomb
    from dipgen.present.site import SiteOptions, game_page

    h = replay(load_game(Path(__file__).resolve().parent.parent / "games" / "supply-lines"))
    v = h.variant
    assert not h.warnings
    assert h.result is not None
    assert h.records[-1].phase.year >= 1908
    assert v.rules.plane_limit
    done = [r for rec in h.records for r in rec.results if r.succeeded and r.unit is not None]
    assert any(isinstance(r.order, (Build, Upgrade)) and r.unit.kind in "TA" and
               (r.order.unit.kind == "T" or isinstance(r.order, Upgrade)) for r in done)
    bombs = [v.words.result_words(r)[0] for rec in h.records for r in rec.results if isinstance(r.order, Bomb)]
    assert bombs.count("hit") >= 5
    assert bombs.count("defended") >= 2
    assert any(sum(1 for u in rec.after.units if u.kind == "P" and u.province == prov) >= 3
               for rec in h.records for prov in {u.province for u in rec.after.units if u.kind in "AFT"})
    short = [(rec.phase.year, p) for rec in h.records for p, n in rec.adjustments.items() if n < 0]
    disorder = [rec.phase.year for rec in h.records for r in rec.results if r.default and r.succeeded]
    assert len(short) >= 3
    assert disorder
    (page,) = game_page(game_view(h, "public"), SiteOptions()).values()
    assert page.index("## Supply centres") < page.index('<h2 id="supply-points">') < page.index("## History")
    assert "(some in civil disorder)" in page
    assert "short of its upkeep" in page
