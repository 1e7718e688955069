"""What happened in a season (`dipgen.present.happened`): the lines at the top of each season
page, read from the level's view only."""

from __future__ import annotations

import re
from pathlib import Path

from dipgen.present.happened import what_happened
from tests.support import load, view, write_game

STANDARD = {
    "game.yml": """
        title: Test
        variant: standard
        gm: GM
        start: 1901
        players: {England: E, France: F, Germany: G, Italy: I, Austria: A, Russia: R, Turkey: T}
    """,
    "1901-spring.yml": """
        orders:
          France: [A Par - Bur, A Mar - Spa, F Bre - MAO]
          Germany: [A Mun - Ruh, A Ber - Kie, F Kie - Den]
          Austria: [A Vie - Gal, A Bud - Ser, F Tri - Alb]
          Russia: [F Sev - Rum, A War - Ukr, A Mos - StP, F StP/sc - Bot]
          Turkey: [A Con - Bul, F Ank - BLA, A Smy - Arm]
          England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]
          Italy: [A Ven H, A Rom - Apu, F Nap - ION]
    """,
    "1901-fall.yml": """
        orders:
          France: [A Bur - Bel, A Spa H, F MAO - Por]
          Germany: [A Ruh - Hol, A Kie H, F Den H]
          Austria: [A Gal - Rum, A Ser S A Gal - Rum, F Alb - Gre]
          Russia: [F Rum H, A Ukr S F Rum, A StP H, F Bot - Swe]
          Turkey: [A Bul S A Gal - Rum, F BLA H, A Arm - Sev]
          England: [F NTH - Nwy, F NWG H, A Yor H]
          Italy: [A Ven H, A Apu H, F ION - Tun]
    """,
}


def _lines(tmp_path: Path, level: str = "public") -> dict[str, list[str]]:
    v = view(load(write_game(tmp_path / "g", STANDARD)), level)
    return {r.title: [h.text for h in what_happened(v, i)] for i, r in enumerate(v.records)}


def test_a_quiet_spring_has_nothing_to_say(tmp_path):
    assert _lines(tmp_path)["Spring 1901"] == []


def test_centres_taken_and_lost_are_named_by_power(tmp_path):
    fall = _lines(tmp_path)["Fall 1901"]
    assert "France took Belgium, Portugal and Spain." in fall
    assert "Russia lost Rumania." not in fall  # Rumania was nobody's before the Fall
    assert "Austria took Greece, Rumania and Serbia." in fall


def test_a_destroyed_unit_says_by_whom_and_from_where(tmp_path):
    fall = _lines(tmp_path)["Fall 1901"]
    assert "Russia's fleet in Rumania was destroyed by Austria from Galicia, with nowhere to retreat." in fall, fall


def test_hidden_game_public_summary_tells_only_the_totals():
    """A Blind game's public view knows each year's totals, not which centres changed hands nor
    which units were dislodged: the summary says how the totals moved and nothing else."""
    public = view(load(Path("games/closed-shutters")), "public")
    told = 0
    for i, r in enumerate(public.records):
        lines = [h.text for h in what_happened(public, i)]
        assert all(re.fullmatch(r"\w+ (gained|lost) \d+ centres?\.", line) for line in lines), (r.title, lines)
        assert lines == [] or r.tells_totals, (r.title, lines)
        told += len(lines)
    assert told
    gm = view(load(Path("games/closed-shutters")), "gm")
    assert any(" took " in h.text for i in range(len(gm.records)) for h in what_happened(gm, i))
