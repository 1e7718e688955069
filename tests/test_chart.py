"""The centre chart of a game page (dipgen.present.svg.chart): each power's centres by year as the
view knows them, in the powers' colours, named and described for screen readers; and what it
shares with the TIR's chart of relationships."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from support import GAME_YML, load, view, write_game
from dipgen.present.centres import centre_table
from dipgen.present.site.model import centre_rows
from dipgen.present.site.pages import SiteOptions, game_page
from dipgen.present.svg.chart import FONT, WIDTH, centre_chart, centre_series, label_step, legend
from dipgen.variants.tir.words import chart_svg

REPO = Path(__file__).resolve().parent.parent
NS = {"s": "http://www.w3.org/2000/svg"}

BLIND = ("title: In the Dark\nvariant: blind\ngm: Grace\n"
         "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n")
#: two years in which France takes Belgium and Spain (and builds), and Germany Holland and Denmark
YEARS = {
    "1901-spring.yml": "orders:\n  France: [A Par - Pic, A Mar - Spa]\n  Germany: [F Kie - Hol, A Ber - Kie]\n",
    "1901-fall.yml": "orders:\n  France: [A Pic - Bel]\n  Germany: [F Hol H, A Kie - Den]\n",
    "1901-winter.yml": "orders:\n  France: [Build A Par, Build F Bre]\n  Germany: [Build A Ber, Build F Kie]\n",
    "1902-spring.yml": "orders: {France: [], Germany: []}\n",
    "1902-fall.yml": "orders: {France: [], Germany: []}\n",
}
#: the same years in a Blind game, whose Fall nobody retreats in is closed by an empty retreats file
BLIND_YEARS = {**YEARS, "1901-fall-retreats.yml": "orders: {}\n"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_the_series_are_the_centre_table_from_the_start(tmp_path):
    h = load(write_game(tmp_path / "g", {"game.yml": GAME_YML, **YEARS}))
    v = view(h)
    columns, series = centre_series(v)
    assert columns == ["start", "1901", "1902"]
    table = centre_table(v)
    for power, values in series.items():
        assert values == [len(v.variant.rules.home_centres(power))] + [c[power] for _, c in table]
    assert series["France"] == [3, 5, 5]
    assert series["Germany"] == [3, 5, 5]
    assert series["Russia"] == [4, 4, 4]


def test_the_chart_draws_each_power_in_its_colour_and_says_it_in_words(tmp_path):
    v = view(load(write_game(tmp_path / "g", {"game.yml": GAME_YML, **YEARS})))
    svg = parse(centre_chart(v))
    assert svg.get("role") == "img"
    title = svg.find("s:title", NS)
    desc = svg.find("s:desc", NS)
    assert svg.get("aria-labelledby") == title.get("id")
    assert svg.get("aria-describedby") == desc.get("id")
    assert title.text == "Supply centres of each power, 1901 to 1902"
    assert "France 3 at the start, 5 in 1902" in desc.text
    assert "Russia 4 at the start, 4 in 1902" in desc.text
    board = v.variant.rules.board
    lines = svg.findall("s:g", NS)
    assert len(lines) == 7
    for power, line in zip(v.variant.rules.powers(), lines, strict=True):
        assert line.find("s:title", NS).text.startswith(f"{power} (start: ")
        drawn = line.findall("s:polyline", NS)[-1]
        assert drawn.get("stroke") == board.powers[power].colour
        assert len(drawn.get("points").split()) == 3  # the start and two years
    # France's line climbs from 3 to 5: its points go up the page (smaller y)
    ys = [float(p.split(",")[1]) for p in lines[2].findall("s:polyline", NS)[-1].get("points").split()]
    assert ys[0] > ys[1] == ys[2]
    # every label reads at 11 CSS px or more in the 358 px column of a 390 px phone
    sizes = {float(t.get("font-size")) for t in svg.iter("{http://www.w3.org/2000/svg}text")}
    assert min(sizes) * 358 / WIDTH >= 11
    assert FONT in sizes


def test_an_eliminated_powers_line_ends_with_its_last_year(tmp_path):
    v = view(load(REPO / "games" / "winter-palace"))
    columns, series = centre_series(v)
    rows = {r.power: r for r in centre_rows(v)[1]}
    for power, values in series.items():
        out = rows[power].out_year
        assert len(values) == (columns.index(str(out)) + 1 if out else len(columns)), power
        if out:
            assert values[-1] == 0
    assert "Austria 3 at the start, out in 1910" in centre_chart(v)


def test_no_chart_before_the_first_year_ends(tmp_path):
    v = view(load(write_game(tmp_path / "g", {"game.yml": GAME_YML})))
    assert centre_chart(v) == ""
    assert centre_series(v) == ([], {})
    page = next(iter(game_page(v, SiteOptions()).values()))
    assert "dg-chart" not in page
    # as the table does, the chart counts only the years whose Fall was played ("at the end of each year")
    v = view(load(write_game(tmp_path / "s", {"game.yml": GAME_YML, "1901-spring.yml": YEARS["1901-spring.yml"]})))
    assert centre_series(v) == ([], {})
    assert centre_table(v) == []
    v = view(load(write_game(tmp_path / "s", {"1901-fall.yml": YEARS["1901-fall.yml"]})))
    assert centre_series(v)[0] == ["start", "1901"] == ["start"] + [str(y) for y, _ in centre_table(v)]


def test_a_hidden_games_chart_shows_only_the_years_the_public_is_told(tmp_path):
    """After Fall 1901 of a Blind game the GM knows the year's totals; the public learns them with
    the Winter page, which its calendar shows with the next Spring: until then its chart has no
    year, and then it has 1901."""
    fall = write_game(tmp_path / "fall",
                      {"game.yml": BLIND, **{k: YEARS[k] for k in ("1901-spring.yml", "1901-fall.yml")}})
    h = load(fall)
    assert centre_series(view(h, "gm"))[0] == ["start", "1901"]
    assert centre_chart(view(h, "public")) == ""
    assert centre_chart(view(load(write_game(tmp_path / "winter", {"game.yml": BLIND, **{
        k: v for k, v in BLIND_YEARS.items() if "1902" not in k}})), "public")) == ""
    winter = write_game(tmp_path / "spring",
                        {"game.yml": BLIND, **{k: v for k, v in BLIND_YEARS.items() if k != "1902-fall.yml"}})
    public = view(load(winter), "public")
    columns, series = centre_series(public)
    assert columns == ["start", "1901"]
    assert series["France"] == [3, 5]
    page = next(iter(game_page(public, SiteOptions()).values()))
    assert 'class="dg-chart"' in page
    assert "France 3 at the start, 5 in 1901" in page


def test_the_game_page_sets_the_chart_under_the_centre_table(tmp_path):
    v = view(load(write_game(tmp_path / "g", {"game.yml": GAME_YML, **YEARS})))
    page = next(iter(game_page(v, SiteOptions()).values()))
    assert (page.index('<table class="dg-centres">')
            < page.index('<svg xmlns="http://www.w3.org/2000/svg" class="dg-chart"'))
    parse(page[page.index("<svg"):page.index("</svg>") + 6])  # well-formed, as set in the page


def test_the_shared_pieces():
    assert label_step(40, 36) == 1
    assert label_step(20, 36) == 2
    assert label_step(11, 36) == 4
    svg, height = legend([("#f00", "At War"), ("#00f", "Allied"), ("#0f0", "Neutral")], 10, 200, 12)
    assert svg.count("<rect") == 3
    assert height == 2 * 12 * 1.6  # two columns fit 200 units: two rows
    assert legend([], 0, 100, 12) == ("", 0.0)


def test_the_tir_chart_is_named_described_and_reads_in_both_schemes():
    v = view(load(REPO / "games" / "two-crowns"))
    html = chart_svg(v.variant.rules, v.records)
    svg = parse(html[html.index("<svg"):html.index("</svg>") + 6])
    assert svg.get("role") == "img"
    assert svg.find("s:title", NS).text == "Each relationship of the TIR, turn by turn"
    assert "France-Russia" not in svg.find("s:desc", NS).text.split(":")[1]  # the players' own is left out
    assert "Austria-England" in svg.find("s:desc", NS).text
    # its text takes the page's colour (no fixed ink that vanishes on the dark scheme)
    assert svg.get("fill") == "currentColor"
    assert all(t.get("fill") in (None, "currentColor") for t in svg.iter("{http://www.w3.org/2000/svg}text"))


def test_a_year_still_being_played_has_no_column_nor_point(tmp_path):
    """A running game in the Spring of 1902 (here Complicated, whose year is like the standard one)
    shows 1901's totals only: 1902's centres change hands in its Fall. A game over in a Spring
    shows that year, as it ended."""
    from support import GAMES

    names = ("game.yml", "1901-spring.yml", "1901-fall.yml", "1901-fall-retreats.yml", "1901-winter.yml",
             "1902-spring.yml", "1902-spring-retreats.yml")
    files = {name: (GAMES / "supply-lines" / name).read_bytes() for name in names}
    files["game.yml"] = files["game.yml"][:files["game.yml"].index(b"\nend:")] + b"\n"  # still running
    folder = write_game(tmp_path / "supply-lines", files)
    running = view(load(folder))
    assert not running.finished
    assert running.records[-1].phase.year == 1902
    assert [y for y, _ in centre_table(running)] == [1901]
    assert centre_rows(running)[0] == [1901]
    chart = centre_chart(running)
    assert "1902" not in chart
    assert "1901" in chart

    ended = b"end: {draw: [England, France], phase: 1902-spring-retreats}\n"
    write_game(folder, {"game.yml": files["game.yml"] + ended})
    assert [y for y, _ in centre_table(view(load(folder)))] == [1901, 1902]
