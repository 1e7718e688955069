"""The scoring systems (`dipgen.rules.scoring`) against hand-computed cases; each docstring shows
the computation."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dipgen.rules.scoring import CARNAGE_SOLO, End, Standing, carnage, draw_size, places, scores, sum_of_squares

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def board(centres: dict[str, int], out: dict[str, int] | None = None) -> list[Standing]:
    out = out or {}
    return [Standing(p, centres.get(p, 0), out.get(p)) for p in POWERS]


def test_draw_size_solo_scores_one_to_the_soloist():
    """Russia solos with 18: Russia 1, every other power 0, whatever its centres."""
    got = draw_size(End("solo", ("Russia",)), board({"Russia": 18, "Turkey": 8, "France": 8}))
    assert got["Russia"] == 1
    assert sum(got.values()) == 1
    assert got["Turkey"] == 0


def test_draw_size_three_way_draw_splits_one():
    """A draw of England, France and Turkey: 1/3 each; Germany, alive with 4 but not in the draw, 0."""
    got = draw_size(End("draw", ("England", "France", "Turkey")),
                    board({"England": 10, "France": 10, "Turkey": 10, "Germany": 4}))
    assert got["England"] == got["France"] == got["Turkey"] == Fraction(1, 3)
    assert got["Germany"] == 0


def test_sum_of_squares_draw_uses_every_power_centres():
    """Centres 12, 10, 8, 4 (others 0): squares 144 + 100 + 64 + 16 = 324.
    France 144/324 = 4/9; England 100/324 = 25/81; Turkey 64/324 = 16/81; Germany 16/324 = 4/81,
    although Germany is not in the declared draw (sum-of-squares does not read draw membership)."""
    got = sum_of_squares(End("draw", ("France", "England", "Turkey")),
                         board({"France": 12, "England": 10, "Turkey": 8, "Germany": 4}))
    assert got["France"] == Fraction(4, 9)
    assert got["England"] == Fraction(25, 81)
    assert got["Turkey"] == Fraction(16, 81)
    assert got["Germany"] == Fraction(4, 81)
    assert got["Italy"] == 0
    assert sum(got.values()) == 1


def test_sum_of_squares_solo_scores_one():
    """A solo is winner-takes-all under sum-of-squares too: Turkey 1, France (with 10 centres) 0."""
    got = sum_of_squares(End("solo", ("Turkey",)), board({"Turkey": 18, "France": 10, "Italy": 6}))
    assert got["Turkey"] == 1
    assert got["France"] == 0


def test_carnage_ranks_with_eliminations():
    """Russia 14, Turkey 7, France 6, Germany 4, England 3; Italy out in 1907, Austria out in 1905.
    Ranks: Russia 7000+14 = 7014, Turkey 6000+7 = 6007, France 5006, Germany 4004, England 3003,
    Italy (out later) 2000+0 = 2000, Austria 1000. Total 28,034."""
    got = carnage(End("draw", ("Russia", "Turkey")),
                  board({"Russia": 14, "Turkey": 7, "France": 6, "Germany": 4, "England": 3},
                        {"Italy": 1907, "Austria": 1905}))
    assert got == {"Russia": 7014, "Turkey": 6007, "France": 5006, "Germany": 4004, "England": 3003,
                   "Italy": 2000, "Austria": 1000}
    assert sum(got.values()) == CARNAGE_SOLO == 28034


def test_carnage_shared_ranks_split_their_points():
    """England and Russia top with 8: (7000+6000)/2 + 8 = 6508 each; France 5000+7 = 5007,
    Turkey 4006, Italy 3004, Austria 2001, Germany (out) 1000."""
    got = carnage(End("draw", ("England", "Russia", "France")),
                  board({"England": 8, "Russia": 8, "France": 7, "Turkey": 6, "Italy": 4, "Austria": 1},
                        {"Germany": 1908}))
    assert got == {"England": 6508, "Russia": 6508, "France": 5007, "Turkey": 4006, "Italy": 3004,
                   "Austria": 2001, "Germany": 1000}


def test_carnage_powers_out_in_the_same_year_share_the_last_ranks():
    """Italy and Austria both out in 1906 share 6th and 7th: (2000+1000)/2 = 1500 each."""
    got = carnage(End("draw", ("Russia",)),
                  board({"Russia": 10, "Turkey": 9, "France": 8, "Germany": 4, "England": 3},
                        {"Italy": 1906, "Austria": 1906}))
    assert got["Italy"] == got["Austria"] == 1500


def test_carnage_solo_takes_all():
    """A solo: 28,034 to Russia, 0 to France with 10 centres."""
    got = carnage(End("solo", ("Russia",)), board({"Russia": 18, "France": 10}))
    assert got["Russia"] == 28034
    assert got["France"] == 0


def test_a_concession_scores_as_a_solo():
    """A concession to France: 1 under draw-size and sum-of-squares, 28,034 under Carnage."""
    end, b = End("concession", ("France",)), board({"France": 15, "England": 10})
    assert scores("draw-size", end, b)["France"] == 1
    assert scores("sum-of-squares", end, b)["England"] == 0
    assert scores("carnage", end, b)["France"] == 28034


def test_an_abandoned_game_has_no_scores():
    assert scores("carnage", End("abandoned", ()), board({"France": 15})) is None


def test_an_unknown_system_is_refused():
    with pytest.raises(ValueError, match="draw-size"):
        scores("elo", End("draw", ("France",)), board({"France": 15}))


def test_places_put_the_soloist_first_then_centres_then_the_eliminated():
    """Russia solos with 18; Turkey 8 and France 8 tie 2nd (3rd skipped: competition ranking);
    England 4 is 4th; the eliminated below every survivor, the later out the better: Austria and
    Germany (out 1905) tie 5th, Italy (out 1903) 7th."""
    got = places(End("solo", ("Russia",)), board({"Russia": 18, "Turkey": 8, "France": 8, "England": 4},
                                                  {"Austria": 1905, "Italy": 1903, "Germany": 1905}))
    assert got == {"Russia": 1, "Turkey": 2, "France": 2, "England": 4, "Austria": 5, "Germany": 5, "Italy": 7}


def test_places_tie_a_draws_members_whatever_their_centres():
    """A draw of England 12, France 10 and Turkey 6: all three 1st; Germany, alive with 6 but left out
    of the draw, 4th, below Turkey's 6; the eliminated after her."""
    got = places(End("draw", ("England", "France", "Turkey")),
                 board({"England": 12, "France": 10, "Turkey": 6, "Germany": 6}, {"Italy": 1907, "Austria": 1904,
                                                                                 "Russia": 1909}))
    assert got == {"England": 1, "France": 1, "Turkey": 1, "Germany": 4, "Russia": 5, "Italy": 6, "Austria": 7}


def test_an_abandoned_game_has_no_places():
    assert places(End("abandoned", ()), board({"France": 10})) is None
