"""The players' pages (`dipgen.present.site.players`): one page per person from the games' cards,
aliases merged, private players left out, replacements said, and nothing but the public view."""

from __future__ import annotations

import re

import pytest

from dipgen.present.site.card import GameCard
from dipgen.present.site.pages import SiteOptions
from dipgen.present.site.players import INDEX, player_files, player_uris, slug_of
from support import GAME_YML, REPO, card, load, public_site, write_game

SPRING = "orders: {England: [F Lon - NTH]}\n"


def cards(*slugs: str) -> list[GameCard]:
    return [card(REPO / "games" / s) for s in slugs]


def text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_a_replacement_is_said_on_both_players_pages():
    """The Winter Palace: Mirela Vasic played Austria until Fall 1905, Tomas Kral from then to the
    end (Austria eliminated, 0 centres, draw-size score 0.000)."""
    files = player_files(cards("winter-palace"))
    kral, vasic = text(files["players/tomas-kral/index.md"]), text(files["players/mirela-vasic/index.md"])
    assert "took over from Mirela Vasic in Fall 1905" in kral
    assert "Eliminated 0 centres · score 0.000" in kral
    assert "replaced by Tomas Kral in Fall 1905" in vasic
    assert "Replaced" in vasic


def test_the_winner_page_counts_the_win():
    files = player_files(cards("winter-palace"))
    page = text(files["players/pavel-ostrov/index.md"])
    assert "Won 1, drew 0" in page
    assert "18 centres · score 1.000" in page


def test_a_running_game_shows_its_status_and_no_result():
    """A Quiet Frontier (Taskdip) is running: Hanna Berg's powers as its public view has them, its status."""
    page = text(player_files(cards("quiet-frontier"))["players/hanna-berg/index.md"])
    assert "Running games" in page
    assert "Finished games" not in page
    assert "Austria" in page
    assert "Running:" in page


def game(folder, names: dict[str, str]):
    yml = GAME_YML
    for power, name in names.items():
        yml = re.sub(rf"({power}: ).*", rf"\g<1>{name}", yml)
    return write_game(folder, {"game.yml": yml, "1901-spring.yml": SPRING})


@pytest.fixture
def two_games(tmp_path):
    a = game(tmp_path / "a", {"England": "Jane Doe", "France": "Ann Lee"})
    b = game(tmp_path / "b", {"England": "J. Doe", "France": "Ann Lee"})
    return [card(f) for f in (a, b)]


def test_an_alias_merges_two_spellings(two_games):
    files = player_files(two_games, aliases={"J. Doe": "Jane Doe"})
    assert "players/j-doe/index.md" not in files
    assert "2 games" in text(files["players/jane-doe/index.md"])
    assert "Jane Doe · 2 games" in text(files["players/ann-lee/index.md"])
    apart = player_files(two_games)  # without the alias: two people
    assert "players/j-doe/index.md" in apart
    assert "Jane Doe · 1 game" in text(apart["players/ann-lee/index.md"])


def test_a_private_player_has_no_page_and_is_named_nowhere(two_games):
    files = player_files(two_games, aliases={"J. Doe": "Jane Doe"}, private=["Jane Doe"])
    assert not any("doe" in uri for uri in files)
    assert all("Doe" not in page for page in files.values())
    assert "players/ann-lee/index.md" in files


def test_an_archive_without_players_still_has_its_index():
    files = player_files([])
    assert list(files) == [INDEX]
    assert "No players yet" in files[INDEX]


def test_names_become_distinct_folders():
    assert slug_of("Zoë O'Neil") == "zoe-o-neil"
    uris = player_uris(["Zoë", "Zoe", "Index", "!!!"])
    assert len(set(uris.values())) == 4
    assert uris["Index"] != "players/index/index.md"  # never the index's own folder


def test_the_players_pages_are_in_what_the_non_interference_tests_compare():
    """`support.public_site` (what `support.pairs.published` compares between two hidden games that
    differ in a hidden fact) has the players' pages of a running hidden game."""
    site = public_site(load(REPO / "games" / "lamps-out"))
    assert INDEX in site
    assert "players/katalin-szabo/index.md" in site


@pytest.mark.slow  # a whole site built
def test_the_site_options_reach_the_built_pages(tmp_path):
    """mkdocs.yml's scoring, player_aliases, private_players and rating_games, as a GM writes them,
    through the plugin: Carnage on the game page (Pavel Ostrov's solo: 28,034), Hugh Penhallow's page
    merged into "H. Penhallow", Deniz Kaplan left out of every players' page and the hall of fame,
    the rating's table listing players from one game (the default asks for three)."""
    from support import build, make_project

    project = make_project(tmp_path / "p", ["winter-palace"])
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "      games_dir: games\n",
        "      games_dir: games\n      scoring: carnage\n      player_aliases: {Hugh Penhallow: H. Penhallow}\n"
        "      private_players: [Deniz Kaplan]\n      rating_games: 1\n"), encoding="utf-8")
    site = build(project)
    assert "28,034" in (site / "games" / "winter-palace" / "index.html").read_text(encoding="utf-8")
    assert (site / "players" / "h-penhallow" / "index.html").is_file()
    assert not (site / "players" / "hugh-penhallow").exists()
    assert not (site / "players" / "deniz-kaplan").exists()
    for page in [*(site / "players").rglob("*.html"), site / "hall-of-fame" / "index.html"]:
        assert "Deniz Kaplan" not in page.read_text(encoding="utf-8"), page
    fame = (site / "hall-of-fame" / "index.html").read_text(encoding="utf-8")
    assert 'class="dg-fame dg-rating"' in fame
    assert 'href="../players/h-penhallow/">H. Penhallow</a>' in fame


def test_a_card_from_the_build_cache_is_the_card_it_was_made_from():
    """The plugin keeps each game's card as JSON (`GameCard.as_json`); the card read back
    (`GameCard.from_json`) is equal to the one made, and the archive, the players' pages and the hall
    of fame made from the cards read back are the same, byte for byte."""
    import json

    from dipgen.usecases.publish import archive_files_of

    made = cards("winter-palace", "quiet-frontier")
    back = [GameCard.from_json(json.loads(json.dumps(c.as_json()))) for c in made]
    assert back == made
    assert {type(e).__name__ for c in back for e in c.people} == {"Sitter"}  # typed, not the JSON's dicts
    assert {type(e).__name__ for c in back for e in c.feed} == {"FeedEntry"}
    assert {e.updated for c in back for e in c.feed} == {e.updated for c in made for e in c.feed}
    assert archive_files_of(back, [], SiteOptions()) == archive_files_of(made, [], SiteOptions())


def test_what_is_not_a_card_is_refused_as_such():
    made = cards("winter-palace")[0].as_json()
    with pytest.raises(ValueError):
        GameCard.from_json({k: v for k, v in made.items() if k != "people"})
    with pytest.raises(ValueError):
        GameCard.from_json(dict(made, status=["running"]))
    with pytest.raises(ValueError):  # a sitter with a field no sitter has
        GameCard.from_json(dict(made, people=[dict(made["people"][0], colour="red")]))
    with pytest.raises(ValueError):  # a feed entry whose time is not a stamp
        GameCard.from_json(dict(made, feed=[dict(made["feed"][0], updated="yesterday")]))


def test_the_players_pages_put_one_blank_line_between_blocks():
    """Each block of a player's page and of the index follows the last after one blank line, as the
    pages come out of Markdown: a longer run would have to be found among the page's tags and made one
    (`SitePage`), a scan of every row of a long table on every build."""
    games = sorted(p.name for p in (REPO / "games").iterdir() if (p / "game.yml").is_file())
    files = player_files(cards(*games))
    assert len(files) > 10
    for uri, page in files.items():
        assert "\n\n\n" not in page.body, uri
