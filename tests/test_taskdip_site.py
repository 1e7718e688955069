"""Taskdip's pages: the public site shows players, neutral powers, violations and re-allotments
but never a task while the game runs (two games differing only in their tasks publish the same
site, byte for byte); a player's private page shows her tasks, centre by centre."""

from __future__ import annotations

import pytest

from dipgen.usecases.games import replay_folder
from dipgen.present.site.privatepage import private_content as _private_content
from dipgen.variants.taskdip.rules import allotment_of
from dipgen.view import game_view
from support import public_site, write_game


def private_content(h, seat, uri):
    return _private_content(game_view(h, seat), uri)


LOTS = """\
    lots:
      powers:
        Andreas: [Austria, Italy]
        Katja: [Turkey, Germany]
      tasks:
        Austria: [Eight, {austria}]
        Italy: {italy}
        Turkey: {turkey}
        Germany: {germany}
    """
PHASES = {
    "1901-spring": "orders:\n  Austria: [A Vie - Gal, A Bud - Ser, F Tri - Alb]\n"
                   "  Germany: [A Mun - Bur, A Ber - Kie, F Kie - Hol]\n",
    "1901-fall": "orders:\n  Austria: [A Gal H, A Ser H, F Alb - Gre]\n"
                 "  France: [A Par S A Mar - Bur, A Mar - Bur, F Bre H]\n"
                 "  Germany: [A Bur H, A Kie - Den, F Hol H]\n",
    "1901-fall-retreats": "orders:\n  Germany: [A Bur - Ruh]\n",
}


def make(tmp_path, name, austria, italy, turkey, germany="Nine"):
    lots = LOTS.format(austria=austria, italy=italy, turkey=turkey, germany=germany)
    return replay_folder(write_game(tmp_path / name / "run", {
        "game.yml": "title: Taskdip test\ngm: G\nvariant: taskdip\nplayers: [Andreas, Katja]\n", "secrets.yml": lots,
        **{f"{slug}.yml": body for slug, body in PHASES.items()}}))


def test_public_site_independent_of_tasks(tmp_path):
    a = make(tmp_path, "a", "Nine", "Eight", "Seven")
    b = make(tmp_path, "b", "Ten", "Nine", "Nine", germany="Seven")
    ta, tb = allotment_of(a.position).tasks, allotment_of(b.position).tasks
    assert sorted(ta) == sorted(tb) == ["Austria", "Germany", "Italy", "Turkey"]
    assert all(ta[p].text != tb[p].text for p in ta)  # every task differs; nothing else does
    site_a, site_b = public_site(a), public_site(b)
    assert sorted(site_a) == sorted(site_b)
    assert [k for k in site_a if site_a[k] != site_b[k]] == []
    page = site_a["games/run/index.md"]
    assert "Andreas</strong>: Austria, Italy; later France (after Spring 1901)" in page
    assert "France&#x27;s neutrality was violated in Spring 1901 by Katja (Germany: A Mun - Bur)" in page
    assert "England</strong>: neutral: its units hold" in page
    assert "Austria's first task was redrawn" in page
    for task in allotment_of(a.position).tasks.values():
        assert all(task.text not in text for text in site_a.values())


def test_private_page_shows_own_tasks(tmp_path):
    h = make(tmp_path, "a", "Nine", "Eight", "Seven")
    mine = private_content(h, "Andreas", "games/run/private/x.html")
    assert "Control three Russian home centres and the Balkans (Bul, Gre, Rum, Ser)" in mine
    assert "all of Bul, Gre, Rum, Ser: Austria holds Gre, Ser (2 of 4)" in mine
    assert "Control one English home centre" in mine
    assert "Allotted to you later, without a task: France." in mine
    assert "Iberian" not in mine  # Katja's Turkey's task
    theirs = private_content(h, "Katja", "games/run/private/y.html")
    assert "Iberian" in theirs
    assert "English home centre" not in theirs


def _written(site: dict, folder):
    for uri, text in site.items():
        path = folder / uri
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


@pytest.mark.slow
def test_leak_scanner_knows_the_tasks_the_cards_and_the_seed(tmp_path):
    """The running demo game's public site is clean; a task, a card or the seed planted in it is caught."""
    from pathlib import Path

    from dipgen.usecases.leaks import scan_site

    demo = replay_folder(Path(__file__).resolve().parent.parent / "games" / "quiet-frontier")
    site = _written(public_site(demo), tmp_path / "site")
    assert scan_site(site, [demo]) == []
    game_page = site / "games" / "quiet-frontier" / "index.md"
    clean = game_page.read_text()
    plants = {
        "Jonas says his task is to control one English home centre.": "Italy's secret task",
        "<li><strong>Turkey</strong> (card: Eight; the Nine was redrawn)</li>": "the card drawn for Turkey's task",
        "Russia: Eight": "the card drawn for Russia's task",
        demo.draws.seed.hex(): "the game's secret seed",
    }
    for plant, what in plants.items():
        game_page.write_text(clean + "\n" + plant + "\n")
        assert [leak.what for leak in scan_site(site, [demo])] == [what], plant
    game_page.write_text(clean)
    (site / "index.md").write_text("Nobody knows whether France has to control Tun.\n")  # another page than the game's
    assert [leak.what for leak in scan_site(site, [demo])] == []
    (site / "index.md").write_text("France: control five of the Italian and English home centres\n")
    assert [leak.what for leak in scan_site(site, [demo])] == ["France's secret task"]
