"""The standard board's data: counts, symmetry, and a sample of known adjacencies."""

import pytest

from dipgen.board import UnknownName, province_of


def test_counts(board):
    provs = board.provinces.values()
    assert len(board.provinces) == 75
    assert sum(p.type == "sea" for p in provs) == 19
    assert sum(p.type == "land" for p in provs) == 14
    assert sum(p.type == "coast" for p in provs) == 42
    assert len(board.centres) == 34
    homes = {power: board.home_centres(power) for power in board.powers}
    assert {p: len(h) for p, h in homes.items()} == {
        "Austria": 3, "England": 3, "France": 3, "Germany": 3, "Italy": 3, "Russia": 4, "Turkey": 3}
    assert sum(len(u) for u in board.starting_units.values()) == 22


def test_army_adjacency_is_symmetric_and_on_land(board):
    for a, nbrs in board.army_adj.items():
        assert board.provinces[a].is_land
        for b in nbrs:
            assert board.provinces[b].is_land, (a, b)
            assert a in board.army_adj[b], f"{a}->{b} but not back"


def test_fleet_adjacency_is_symmetric_and_not_inland(board):
    for a, nbrs in board.fleet_adj.items():
        assert board.provinces[province_of(a)].type != "land"
        for b in nbrs:
            assert b in board.fleet_adj, (a, b)
            assert a in board.fleet_adj[b], f"{a}->{b} but not back"


def test_split_coasts(board):
    assert board.provinces["spa"].coasts == ("nc", "sc")
    assert board.provinces["stp"].coasts == ("nc", "sc")
    assert board.provinces["bul"].coasts == ("ec", "sc")
    assert "spa" not in board.fleet_adj and "spa/nc" in board.fleet_adj
    assert board.fleet_adj["bul/ec"] == {"bla", "con", "rum"}
    assert board.fleet_adj["stp/nc"] == {"bar", "nwy"}


@pytest.mark.parametrize("a,b,army,fleet", [
    ("bur", "mun", True, False), ("kie", "den", True, True), ("con", "ank", True, True),
    ("den", "swe", True, True), ("arm", "syr", True, False), ("ven", "tus", True, False),
    ("rom", "ven", True, False), ("nth", "nwy", False, True), ("mao", "spa/sc", False, True),
    ("mao", "wes", False, True), ("gas", "spa/sc", False, False), ("par", "bur", True, False),
    ("ukr", "rum", True, False), ("fin", "nwy", True, False), ("lvn", "stp/sc", False, True),
    ("bre", "lon", False, False), ("boh", "swi", False, False), ("naf", "tun", True, True),
])
def test_known_adjacencies(board, a, b, army, fleet):
    assert (b in board.army_adj.get(a, ())) == army
    assert (b in board.fleet_adj.get(a, ())) == fleet


@pytest.mark.parametrize("text,loc", [
    ("NAt", "nao"), ("nat", "nao"), ("Mid", "mao"), ("MAO", "mao"), ("Nrg", "nwg"), ("NWG", "nwg"),
    ("GoL", "lyo"), ("lyo", "lyo"), ("ECh", "eng"), ("Nwy", "nwy"), ("Nor", "nwy"), ("Lvo", "lvn"),
    ("StP", "stp"), ("st petersburg", "stp"), ("Mid-Atlantic Ocean", "mao"), ("north sea", "nth"),
    ("Spa(sc)", "spa/sc"), ("spa/nc", "spa/nc"), ("StP/nc", "stp/nc"), ("bul ec", "bul/ec"),
    ("Spain (north coast)", "spa/nc"), ("MARSEILLES", "mar"),
])
def test_spellings(board, text, loc):
    assert board.location(text) == loc


def test_unknown_province_suggests(board):
    with pytest.raises(UnknownName) as e:
        board.location("Belguim")
    assert "Belgium" in str(e.value)
    with pytest.raises(UnknownName) as e:
        board.power_name("Germnay")
    assert "Did you mean Germany" in str(e.value)


def test_neighbours_collapse_coasts(board):
    assert board.neighbours("spa") == {"gas", "mar", "por", "mao", "lyo", "wes"}
    assert "bul" in board.neighbours("bla")


def test_home_territories(board):
    terr = board.home_territories
    assert sum(len(v) for v in terr.values()) == 6 * 5 + 7 + 5
    for power, provs in terr.items():
        assert set(board.home_centres(power)) <= set(provs)
    seen = [p for provs in terr.values() for p in provs]
    assert len(seen) == len(set(seen))
