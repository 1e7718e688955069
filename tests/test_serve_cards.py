"""An edit under `mkdocs serve` that changes a game's card (a game ended, a result taken back): the
archive's pages drawn from every card (the archive's table, the players' pages, the hall of fame, the
home page's cards, the feed) keep each row they drew while its game was as it was
(`dipgen.present.site.rows`, `dipgen.present.site.players.game_row`), and the site is a fresh build's, byte for byte."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dipgen.present.site.card import CardEnd, CardStatus
from dipgen.present.site.pages import archive_of, cards_of
from dipgen.present.site.players import game_row, player_files
from dipgen.present.site.rows import archive_row, home_card
from dipgen.usecases.publish import site_options
from support import card, make_project, site_config
from support.folders import ARCHIVE, write_game
from support.served import fresh_site, serving, site_bytes


def _cards(root: Path) -> list:
    """The cards of the test archive, made as a build makes them (each from its public view)."""
    for slug, files in ARCHIVE.items():
        write_game(root / slug, files)
    options = site_options(None)
    return [card(path, options) for path in sorted(root.iterdir())]


def test_rows_kept_from_an_earlier_archive_draw_the_pages_a_first_draw_does(tmp_path):
    """The players' pages and the archive's table drawn after one card changed (the rows of the others
    kept from the draw before) are those a process that never drew them makes, and the change shows."""
    options = site_options(None)
    cards = _cards(tmp_path)
    before = player_files(cards), archive_of(cards, options), cards_of(cards, options, "index.md")
    bravo = next(c for c in cards if c.slug == "bravo")
    ended = dataclasses.replace(bravo, finished=True, ended=CardEnd("draw", ("France", "Turkey")),
                                status=CardStatus("draw", "Drawn between France and Turkey", "2draw"),
                                people=tuple(dataclasses.replace(e, result="out") for e in bravo.people))
    changed = [ended if c is bravo else c for c in cards]
    kept = player_files(changed), archive_of(changed, options), cards_of(changed, options, "index.md")
    for memo in (game_row, archive_row, home_card):
        assert memo.cache_info().hits  # the unchanged games' rows were kept
        memo.cache_clear()
    assert (player_files(changed), archive_of(changed, options), cards_of(changed, options, "index.md")) == kept
    assert kept[2].count("Drawn between") == before[2].count("Drawn between") + 1  # bravo's card on the home page
    assert kept[0]["players/bob/index.md"] != before[0]["players/bob/index.md"]  # Bob's page shows the result
    assert "Eliminated" in kept[0]["players/bob/index.md"]


@pytest.mark.slow  # whole-site builds, seven
def test_serve_after_a_game_ends_or_its_end_is_taken_back_is_a_fresh_build(tmp_path):
    """Under plain `mkdocs serve`: a running game ended (a draw), a finished game's end taken back, then
    the first edit undone; after each the site (players' pages, hall of fame and its rating, archive,
    home page, feeds, search index, sitemap) is a fresh build's, byte for byte, and the edit shows."""
    project = make_project(tmp_path / "p", games=ARCHIVE, plugin={"search": "material"})
    yml = project / "mkdocs.yml"
    yml.write_text("site_url: https://club.example.org/dip/\n" + yml.read_text(encoding="utf-8"), encoding="utf-8")
    games = project / "games"
    bravo = (games / "bravo" / "game.yml").read_text(encoding="utf-8")
    alpha = (games / "alpha" / "game.yml").read_text(encoding="utf-8")

    def served(name: str) -> dict[str, bytes]:
        from mkdocs.commands.build import build

        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        site = site_bytes(project)
        assert site == fresh_site(project, tmp_path / name, plugin)
        assert plugin.stats["redone"] == 1
        return site

    with serving(project) as plugin:
        from mkdocs.commands.build import build

        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        first = site_bytes(project)
        write_game(games / "bravo", {"game.yml": bravo + "end: {draw: [France, Turkey], phase: 1901-spring}\n"})
        ended = served("ended")
        for page in ("players/bob/index.html", "hall-of-fame/index.html", "games/index.html", "index.html"):
            assert ended[page] != first[page], page
        assert "2 rated games" in ended["players/chloe/index.html"].decode()
        unended = alpha.replace("end: {draw: [France, Turkey], phase: 1902-spring}\n", "")
        write_game(games / "alpha", {"game.yml": unended})
        taken = served("taken-back")
        assert taken["players/chloe/index.html"] != ended["players/chloe/index.html"]
        write_game(games / "alpha", {"game.yml": alpha})
        write_game(games / "bravo", {"game.yml": bravo})
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        assert site_bytes(project) == first  # both games as they were: the rows kept from the first build
