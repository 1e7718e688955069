"""A finished game's page shows its scores under the site's scoring system (`dipgen.present.site.scores`),
and the system is read from the site's configuration."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from dipgen.usecases.publish import editions
from dipgen.usecases.siteconfig import options_for_game
from dipgen.present.site.pages import SiteOptions, game_page
from dipgen.present.site.scores import score_table
from support import REPO, loaded, write_game


def public(slug: str):
    return editions(loaded(REPO / "games" / slug))[0]


def score_rows(page: str) -> dict[str, str]:
    """Power -> its score, from the page's scores table."""
    table = page.split('<table class="dg-scores">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr><th scope="row">.*?>([A-Z][a-z]+)</span>.*?<td class="dg-num">([^<]+)</td></tr>', table)
    return dict(rows)


@pytest.fixture(scope="module")
def supply_lines():
    return public("supply-lines")


def test_a_draw_shows_draw_size_scores_by_default(supply_lines):
    """supply-lines ends in a four-way draw (England, France, Russia, Turkey): 1/4 = 0.250 each,
    0 for the three powers out of it."""
    page = next(iter(game_page(supply_lines, SiteOptions()).values()))
    got = score_rows(page)
    assert got["Russia"] == got["England"] == got["France"] == got["Turkey"] == "0.250"
    assert got["Italy"] == "0.000"
    assert "Draw-size scoring" in page


def test_the_site_option_chooses_carnage(supply_lines):
    """Russia 16, England 8, Turkey 6, France 4; Italy out 1907, Austria 1905, Germany 1904:
    7,016 / 6,008 / 5,006 / 4,004 / 3,000 / 2,000 / 1,000."""
    page = next(iter(game_page(supply_lines, SiteOptions(scoring="carnage")).values()))
    assert score_rows(page) == {"Russia": "7,016", "England": "6,008", "Turkey": "5,006", "France": "4,004",
                                "Italy": "3,000", "Austria": "2,000", "Germany": "1,000"}


def test_sum_of_squares_reads_every_survivor(supply_lines):
    """Squares 256 + 64 + 36 + 16 = 372: Russia 256/372 = 0.688, France 16/372 = 0.043."""
    table = score_table(supply_lines, "sum-of-squares")
    assert table is not None
    got = {r.power: r.score for r in table.rows}
    assert got["Russia"] == "0.688"
    assert got["France"] == "0.043"


def test_a_solo_of_a_revealed_hidden_game_is_scored_from_its_public_view():
    """whispering-gallery (Blind) ends in Italy's solo: 28,034 to Italy under Carnage, 0 to the rest."""
    table = score_table(public("whispering-gallery"), "carnage")
    assert table is not None
    assert table.rows[0].power == "Italy"
    assert table.rows[0].score == "28,034"
    assert {r.score for r in table.rows[1:]} == {"0"}


def test_a_running_game_has_no_scores():
    view = public("north-sea-ledger")
    assert score_table(view, "draw-size") is None
    assert "dg-scores" not in next(iter(game_page(view, SiteOptions()).values()))


@pytest.mark.parametrize("slug", ["two-captains", "two-crowns", "austrian-question"])
def test_variants_the_systems_do_not_fit_say_how_they_score(slug):
    """Double's pairs, the 2-player game and Taskdip's tasks: the variant's sentence, no table."""
    view = public(slug)
    table = score_table(view, "carnage")
    assert table is not None
    assert table.note == view.variant.words.scoring_note
    assert not table.rows
    page = next(iter(game_page(view, SiteOptions(scoring="carnage")).values()))
    assert 'class="dg-scores-note"' in page
    assert '<table class="dg-scores">' not in page


def test_an_abandoned_game_has_no_scores(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": """
        title: Left
        gm: Gina
        players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}
        end: {abandoned: the players left}
        """, "1901-spring.yml": "orders: {England: []}\n"})
    assert score_table(editions(loaded(folder))[0], "draw-size") is None


def test_the_system_is_read_from_mkdocs_yml(tmp_path: Path):
    (tmp_path / "games" / "g").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - dipgen:\n      scoring: sum-of-squares\n")
    assert options_for_game(tmp_path / "games" / "g").scoring == "sum-of-squares"
    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - dipgen:\n      scoring: elo\n")
    assert options_for_game(tmp_path / "games" / "g").scoring == "draw-size"  # MkDocs itself refuses it
    assert replace(SiteOptions(), scoring="carnage").scoring == "carnage"


def test_export_refuses_a_system_it_does_not_know(tmp_path: Path):
    from dipgen.usecases.export import ExportError, export

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: s\nplugins:\n  - dipgen:\n      scoring: elo\n")
    with pytest.raises(ExportError) as refused:
        export(tmp_path / "mkdocs.yml", tmp_path / "out")
    assert refused.value.code == "bad-site-config"
    assert "carnage" in refused.value.message  # the systems it knows, named
