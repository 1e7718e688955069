"""The hall of fame (`dipgen.present.site.fame`) of the example games, against counts made by hand
from their game.yml files and results."""

from __future__ import annotations

import re

import pytest

from dipgen.present.site.fame import URI, fame_files
from dipgen.present.svg.bars import bar_chart
from support import REPO, card, load, public_site

GAMES = ["austrian-question", "two-crowns", "whispering-gallery", "winter-palace", "masked-ball", "lamps-out"]


@pytest.fixture(scope="module")
def cards():
    return [card(REPO / "games" / s) for s in GAMES]


def section(page: str, title: str) -> str:
    """The plain text of the page's section headed `title`, up to the next heading."""
    body = page.split(f"## {title}", 1)[1].split("\n## ", 1)[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_solos_are_listed_with_their_winners(cards):
    """Four of the six games were won outright: Italy (Ben Okafor) in 1902, France (Alice Martin) in
    1908, Italy (Marco Gentile) in 1911, Russia (Pavel Ostrov) in 1912; Masked Ball was drawn and
    Lamps Out runs."""
    solos = section(fame_files(cards)[URI], "Solos")
    assert "The Austrian Question" in solos
    assert "Ben Okafor 1902" in solos
    assert "Pavel Ostrov 1912" in solos
    assert "Masked Ball" not in solos
    assert "Lamps Out" not in solos


def test_wins_per_power_count_solos(cards):
    """Italy won twice (The Austrian Question, The Whispering Gallery), France once (Two Crowns),
    Russia once (The Winter Palace): a draw is no win."""
    wins = section(fame_files(cards)[URI], "Wins per power")
    assert "Italy 2, France 1, Russia 1, Austria 0" in wins
    assert "England 0" in wins


def test_longest_games_by_years(cards):
    """Masked Ball 1901-1914 is 14 years; Winter Palace 1901-1912, 12; a running game is left out."""
    longest = section(fame_files(cards)[URI], "Longest games")
    assert longest.index("The Masked Ball") < longest.index("The Winter Palace") < longest.index("Two Crowns")
    assert "14" in longest
    assert "Lamps Out" not in longest


def test_best_scores_are_best_first(cards):
    """Draw-size: the two standard-seated solos score 1.000 (Whispering Gallery's and Winter Palace's);
    Masked Ball's three-way draw 0.333. Two Crowns (TIR) and Taskdip have no per-power score."""
    best = section(fame_files(cards)[URI], "Best scores")
    assert best.index("1.000") < best.index("0.333")
    assert "Alice Martin" not in best
    assert "Ben Okafor" not in best


def test_a_private_player_is_not_named(cards):
    page = fame_files(cards, private=["Pavel Ostrov"])[URI]
    assert "Pavel Ostrov" not in page
    assert "Russia" in section(page, "Solos")


def test_most_games_count_running_games_too(cards):
    """Every player of these six games played one of them: the list holds ten people with 1 game."""
    most = section(fame_files(cards)[URI], "Most games")
    assert most.count("1 game") == 10


def test_the_chart_draws_a_bar_per_power_and_names_itself():
    svg = bar_chart([("Italy", 2, "#3f9868"), ("France", 1, "#29a9ee"), ("Turkey", 0, "#f2e227")], "x", "Wins",
                    "Italy 2, France 1, Turkey 0.")
    assert svg.count("<rect") == 3
    assert 'role="img"' in svg
    assert "<desc id=\"x-desc\">Italy 2" in svg
    assert bar_chart([("Italy", 0, "#3f9868")], "x", "Wins", "none") == ""


def test_a_bar_takes_its_powers_colour_blind_colour_with_the_page():
    """Each bar is drawn in its power's colour and carries its colour in the colour-blind palette
    (``--dg-cs``), which dipgen.css gives it while the page is in that palette, as the squares
    beside the powers' names; a colour that stays the same carries none."""
    svg = bar_chart([("Austria", 2, "#e0540b"), ("Russia", 1, "#7a5ba6")], "x", "Wins", "Austria 2, Russia 1.",
                    safe={"#e0540b": "#c52c00", "#7a5ba6": "#7a5ba6"})
    rects = re.findall(r"<rect [^>]*>", svg)
    assert 'fill="#e0540b" style="--dg-cs: #c52c00"' in rects[0]
    assert "style" not in rects[1]
    css = (REPO / "dipgen" / "present" / "site" / "assets" / "dipgen.css").read_text(encoding="utf-8")
    assert ".dg-cb .dg-bars rect[style] { fill: var(--dg-cs); }" in css


def test_the_hall_of_fames_wins_chart_knows_each_powers_colour_blind_colour(cards):
    from dipgen.present.site.jinja import safe_colour

    page = fame_files(cards)[URI]
    chart = page[page.index('class="dg-bars"'):]
    assert safe_colour("#e0540b") == "#c52c00"  # Austria's, on the standard board
    assert 'fill="#e0540b" style="--dg-cs: #c52c00"' in chart


def test_the_hall_of_fame_is_in_what_the_non_interference_tests_compare():
    assert URI in public_site(load(REPO / "games" / "lamps-out"))


def test_each_variant_has_its_records(cards):
    """By variant: Standard (The Winter Palace, a solo, 12 years 1901-1912: Pavel Ostrov's 1.000 its
    best score), Stab! (The Masked Ball drawn; Lamps Out running), Taskdip (The Austrian Question,
    won by Italy: no per-power score)."""
    by = re.sub(r" ([,.])", r"\1", section(fame_files(cards)[URI], "By variant"))
    standard = by.split("### Standard Diplomacy", 1)[1].split("###", 1)[0]
    assert "1 game: 1 solo." in standard
    assert "Best score: 1.000, Pavel Ostrov (Russia) in The Winter Palace" in standard
    assert "Longest game: The Winter Palace, 12 years (1901–1912)" in standard
    stab = by.split("### Stab!", 1)[1].split("###", 1)[0]
    assert "2 games: 1 draw, 1 running." in stab
    assert "Solos" not in stab
    taskdip = by.split("### Taskdip", 1)[1].split("###", 1)[0]
    assert "Solos: The Austrian Question (Italy, Ben Okafor, 1902)" in taskdip
    assert "Best score" not in taskdip


def test_the_variants_chart_stacks_each_result():
    from dipgen.present.svg.bars import stacked_bars

    svg = stacked_bars([("Standard", [2, 1, 0]), ("Stab!", [0, 0, 3])], [("Solos", "#111"), ("Draws", "#222"),
                                                                        ("Running", "#333")], "v", "Games", "d")
    assert svg.count('fill="#111"') == 2
    assert svg.count('fill="#333"') == 2  # each part where it counts, and its key
    assert ">3</text>" in svg
    assert ">Running</text>" in svg
    assert stacked_bars([("Standard", [0, 0])], [("Solos", "#111"), ("Draws", "#222")], "v", "Games", "d") == ""
