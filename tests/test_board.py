"""The standard board's data: counts, symmetry, and a sample of known adjacencies."""

import pytest

from dipgen.core.board import UnknownName, province_of


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
    assert "spa" not in board.fleet_adj
    assert "spa/nc" in board.fleet_adj
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


def test_tables_made_at_load_agree_with_the_graphs(board):
    """The engine's per-board tables say what the adjacency graphs say."""
    from dipgen.core.board import coast_of

    assert set(board.loc_province) == set(board.locations())
    for loc, prov in board.loc_province.items():
        assert prov == province_of(loc)
        assert (coast_of(loc) is None) == (loc == prov)
        assert board.army_reach[loc] == board.army_adj.get(prov, frozenset())
    for loc, nbrs in board.fleet_adj.items():
        assert board.fleet_touches[loc] == {province_of(n) for n in nbrs}
        # a fleet reaches a province when it is next to one of the places a fleet may stand there
        for prov in board.provinces:
            assert (prov in board.fleet_touches[loc]) == any(x in nbrs for x in board.fleet_locations(prov))
    assert board.seas == {p.id for p in board.provinces.values() if p.is_sea}
    assert board.power_name("England") == board.power_name("england") == board.power_name("ENG") == "England"


def _board_file(tmp_path):
    from pathlib import Path

    import dipgen.resources.boards

    path = tmp_path / "data" / "standard.yml"
    path.parent.mkdir()
    original = Path(dipgen.resources.boards.__file__).parent.parent / "data" / "standard.yml"
    path.write_text(original.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def test_board_data_is_read_through_a_compiled_copy(tmp_path, monkeypatch):
    import os

    import dipgen.resources.boards as B

    monkeypatch.setattr(B.sys, "dont_write_bytecode", False)
    path = _board_file(tmp_path)
    parsed = B._parse(path.read_text(encoding="utf-8"))
    assert B.board_data(path) == parsed
    copies = list((path.parent / "__pycache__").glob("standard.*.marshal"))
    assert len(copies) == 1
    assert not list(path.parent.glob("__pycache__/*.tmp"))
    calls = []
    monkeypatch.setattr(B, "_parse", lambda text: calls.append(text) or parsed)
    assert B.board_data(path) == parsed
    assert calls == []  # read from the copy, not parsed

    # the file changes: parsed again, and the copy made again
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert B.board_data(path) == parsed
    assert len(calls) == 1
    assert B.board_data(path) == parsed
    assert len(calls) == 1

    # a broken copy is no copy
    copies[0].write_bytes(b"not marshal data")
    assert B.board_data(path) == parsed
    assert len(calls) == 2
    assert B.board_data(path) == parsed
    assert len(calls) == 2

    # a folder that cannot be written: parsed every time, and no error
    os.utime(path, ns=(1, 1))
    monkeypatch.setattr(B.Path, "write_bytes", lambda self, data: (_ for _ in ()).throw(PermissionError(self)))
    assert B.board_data(path) == parsed
    assert B.board_data(path) == parsed
    assert len(calls) == 4


def test_board_data_writes_no_copy_where_python_writes_no_bytecode(tmp_path, monkeypatch):
    import dipgen.resources.boards as B

    monkeypatch.setattr(B.sys, "dont_write_bytecode", True)
    path = _board_file(tmp_path)
    assert B.board_data(path) == B._parse(path.read_text(encoding="utf-8"))
    assert not (path.parent / "__pycache__").exists()
