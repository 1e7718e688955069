"""The GM's side of a game (issue 24, point 11): every player's private report written to a folder
ready to mail (`dipgen adjudicate --power all --out DIR`), and warnings acknowledged in a phase file
(`acknowledged:`) so that `dipgen check` stops repeating them."""

from __future__ import annotations

import re

import pytest

from dipgen.cli import main
from dipgen.core.errors import GameError
from dipgen.io.acknowledge import WARNING_CODES
from support import GAME_YML, REPO, load, write_game
from support.codes import codes

SPRING = "orders:\n  France: [A Par - Mun, A Pic - Bel]\n  Germany: [A Mun H]\n"  # out of reach; no unit in Picardy


def game(tmp_path, spring: str = SPRING, **files):
    return write_game(tmp_path / "g", {"game.yml": GAME_YML, "1901-spring.yml": spring, **files})


# ----------------------------------------------------------------------------- warning codes

def test_every_warning_has_a_documented_code_printed_after_it(tmp_path, capsys):
    h = load(game(tmp_path))
    assert sorted(w.code for w in h.warnings) == ["illegal-order", "no-unit"]
    assert main(["check", str(tmp_path / "g")]) == 0
    err = capsys.readouterr().err
    assert "[illegal-order]" in err
    assert "[no-unit]" in err
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert all(f"`{code}`" in readme for code in WARNING_CODES)  # each code is documented


def test_an_acknowledged_warning_is_no_longer_printed(tmp_path, capsys):
    spring = SPRING + "acknowledged:\n  - illegal-order a par-mun\n"  # the order as written, case and spaces aside
    h = load(game(tmp_path, spring))
    assert [w.code for w in h.warnings] == ["no-unit"]
    write_game(tmp_path / "g", {"1901-spring.yml": SPRING + "acknowledged: [illegal-order, no-unit]\n"})
    assert load(tmp_path / "g").warnings == []
    assert main(["check", str(tmp_path / "g")]) == 0
    out, err = capsys.readouterr()
    assert "warning" not in err
    assert "(2 acknowledged warning(s) not shown)" in out


def test_an_acknowledgement_that_matches_no_warning_is_a_warning(tmp_path):
    spring = SPRING + "acknowledged:\n  - illegal-order A Par - Mun\n  - illegal-order A Pic - Bel\n  - no-unit\n"
    (w,) = load(game(tmp_path, spring)).warnings
    assert w.code == "unused-acknowledgement"
    assert w.line == 6
    assert "'illegal-order A Pic - Bel' matches no warning of this file" in w.message
    # an acknowledged order later corrected: the acknowledgement is left over
    fixed = "orders:\n  France: [A Par - Bur]\n  Germany: [A Mun H]\nacknowledged: [illegal-order A Par - Mun]\n"
    (w,) = load(game(tmp_path, fixed)).warnings
    assert w.code == "unused-acknowledgement"
    assert w.line == 4


def test_an_acknowledgement_of_an_unknown_code_says_which_codes_there_are(tmp_path):
    (w, *rest) = load(game(tmp_path, SPRING + "acknowledged: [ilegal-order A Par - Mun]\n")).warnings
    assert w.code == "unused-acknowledgement"
    assert "names no warning dipgen gives" in w.message
    assert "illegal-order" in w.message
    assert "no-unit" in w.hint
    assert sorted(x.code for x in rest) == ["illegal-order", "no-unit"]  # nothing silenced


def test_an_acknowledgement_written_over_two_lines_is_read_not_a_crash(tmp_path):
    """A quoted entry may hold a line break (YAML's "...\\n..."): it is read as one entry, the order
    after its code, spaces and line breaks aside, rather than stopping dipgen with a traceback."""
    h = load(game(tmp_path, SPRING + 'acknowledged: ["illegal-order A Par\\n- Mun"]\n'))
    assert [w.code for w in h.warnings] == ["no-unit"]


@pytest.mark.parametrize("value,says", [("{illegal-order: x}", "a list of warnings, not a mapping"),
                                        ("[[illegal-order]]", "not a list"), ("[3]", "not a number")])
def test_a_malformed_acknowledgement_is_an_error_naming_its_line(tmp_path, value, says):
    with pytest.raises(GameError) as e:
        load(game(tmp_path, SPRING + f"acknowledged: {value}\n"))
    (p,) = [p for p in e.value.problems if p.severity == "error"]
    assert p.line == 4
    assert says in p.message
    assert "acknowledged:" in p.hint
    assert p.code == "bad-acknowledgement"


# ----------------------------------------------------------------------------- --power all --out

def hidden_game(tmp_path):
    game_yml = GAME_YML + "variant: blind\n"
    return write_game(tmp_path / "g", {"game.yml": game_yml, "1901-spring.yml": SPRING})


def test_every_powers_report_a_file_each_named_for_whom(tmp_path, capsys):
    folder, out = hidden_game(tmp_path), tmp_path / "mail"
    assert main(["adjudicate", str(folder), "--power", "all", "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["1901-spring.Austria.Anna.txt", "1901-spring.England.Ed.txt", "1901-spring.France.Fran.txt",
                     "1901-spring.Germany.Gus.txt", "1901-spring.Italy.Ida.txt", "1901-spring.Russia.Rus.txt",
                     "1901-spring.Turkey.Tom.txt"]
    printed = capsys.readouterr().out
    assert "1901-spring.France.Fran.txt: for France" in printed
    assert main(["adjudicate", str(folder), "--power", "France"]) == 0
    assert (out / "1901-spring.France.Fran.txt").read_text() == capsys.readouterr().out
    assert "for France" in (out / "1901-spring.France.Fran.txt").read_text().splitlines()[0]


def test_an_out_folder_that_is_not_empty_is_refused_unless_forced(tmp_path, capsys):
    folder, out = hidden_game(tmp_path), tmp_path / "mail"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert main(["adjudicate", str(folder), "--power", "all", "--out", str(out)]) == 1
    assert codes(capsys.readouterr().err) == ["out-taken"]
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert main(["adjudicate", str(folder), "--power", "all", "--out", str(out), "--force"]) == 0
    assert len(list(out.iterdir())) == 7
    assert not (out / "keep.txt").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # nothing left beside it
    (tmp_path / "file").write_text("x")
    assert main(["adjudicate", str(folder), "--power", "all", "--out", str(tmp_path / "file"), "--force"]) == 1
    assert codes(capsys.readouterr().err) == ["out-taken"]
    assert main(["adjudicate", str(folder), "--out", str(tmp_path / "new")]) == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]


def test_a_failed_write_leaves_no_half_written_folder(tmp_path, capsys, monkeypatch):
    from pathlib import Path

    folder, out = hidden_game(tmp_path), tmp_path / "mail"
    real = Path.write_text
    calls = []

    def failing(self, *a, **k):
        calls.append(self)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "write_text", failing)
    assert main(["adjudicate", str(folder), "--power", "all", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert codes(err) == ["write-failed"]
    assert "No space left" in err  # the system's own words, passed on
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["g"]


def test_players_apart_from_powers_get_a_report_each(tmp_path, capsys):
    out = tmp_path / "mail"
    assert main(["adjudicate", str(REPO / "games" / "two-captains"), "--power", "all", "--out", str(out),
                 "--phase", "1901-spring"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == 7
    assert all(re.fullmatch(r"1901-spring\.[A-Za-z-]+\.txt", n) for n in names)
