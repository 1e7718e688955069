"""Every input is bounded and typed: no game file hangs, crashes or fools dipgen; each wrong
value is an error naming file, line, what was expected and a fix."""

import os

import pytest

from dipgen.cli import main
from dipgen.errors import GameError
from dipgen.game import load_game
from dipgen.history import replay
from dipgen import yamlio
from dipgen.yamlio import load
from fuzz_games import ALIAS_BOMB, deep, time_limit

SPRING = "orders:\n  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n  France: [A Par - Bur, A Mar - Spa, F Bre - MAO]\n"
PLAYERS = "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n"


def problems(path):
    with time_limit(20), pytest.raises(GameError) as e:
        replay(load_game(path))
    return e.value.problems


def error(path, *fragments):
    """The one error whose text has every fragment."""
    found = [p for p in problems(path) if p.severity == "error" and all(f in str(p) for f in fragments)]
    assert len(found) == 1, [str(p) for p in problems(path)]
    return found[0]


def check(capsys, *args):
    capsys.readouterr()
    with time_limit(20):
        status = main(["check", *map(str, args)])
    return status, capsys.readouterr().err


# ---------------------------------------------------------------- bounds: depth, aliases, size, kind of file

def test_deep_nesting_is_refused_with_its_line(make_game):
    p = error(make_game({"1901-spring.yml": SPRING + "press: " + deep(5000) + "\n"}), "nested")
    assert p.file.endswith("1901-spring.yml") and p.line == 4 and f"more than {yamlio.MAX_DEPTH} levels" in p.message


def test_a_hundred_thousand_levels_do_not_crash_the_parser(tmp_path):
    (tmp_path / "deep.yml").write_text("press: " + deep(100_000))  # libyaml's composer recursed in C and crashed
    with pytest.raises(GameError, match="nested more than"):
        load(tmp_path / "deep.yml")


def test_alias_bomb_is_refused_before_it_expands(tmp_path):
    (tmp_path / "bomb.yml").write_text(ALIAS_BOMB + "press: *i\n")
    with time_limit(20), pytest.raises(GameError) as e:
        load(tmp_path / "bomb.yml")
    p = e.value.problems[0]
    assert p.line == 1 and "anchors and aliases" in p.message and "quotes" in p.hint


def test_an_order_starting_with_a_star_is_read_once_quoted(make_game):
    with pytest.raises(GameError, match="anchors and aliases"):
        load_game(make_game({"1901-spring.yml": "orders:\n  England:\n    - *F Lon - NTH\n"}))
    path = make_game({"1901-spring.yml": "orders:\n  England: ['F Lon - NTH']\npress: '*Paris:* hello'\n"}, slug="g2")
    assert replay(load_game(path)).records[0].press == "*Paris:* hello"


def test_a_file_over_the_limit_is_an_error(make_game):
    path = make_game({"1901-spring.yml": SPRING + "press: |\n" + "  blah blah blah blah\n" * (yamlio.MAX_BYTES // 20)})
    p = error(path, "larger than")
    assert p.file.endswith("1901-spring.yml") and f"{yamlio.MAX_BYTES // 1024} KiB" in p.message


def test_a_fifo_as_a_phase_file_is_an_error_not_a_hang(make_game):
    path = make_game({"1901-spring.yml": SPRING})
    os.mkfifo(path / "1901-fall.yml")
    p = error(path, "named pipe")
    assert p.file.endswith("1901-fall.yml")


def test_a_fifo_as_game_yml_is_an_error_not_a_hang(make_game):
    path = make_game({"1901-spring.yml": SPRING})
    (path / "game.yml").unlink()
    os.mkfifo(path / "game.yml")
    assert "named pipe" in error(path, "game.yml").message


# ---------------------------------------------------------------- values YAML cannot give

def test_unreadable_dates_and_numbers_are_errors_with_a_line(make_game):
    path = make_game({"1901-spring.yml": SPRING + "notes: 2001-13-45\n"})
    assert error(path, "not a real date").line == 4
    path = make_game({"1901-spring.yml": SPRING + "notes: " + "9" * 5000 + "\n"}, slug="g2")
    assert error(path, "number cannot be read").line == 4


def test_a_list_or_mapping_as_a_key_is_an_error(make_game):
    path = make_game({"1901-spring.yml": "orders:\n  ? {F Lon: NTH}\n  : x\n"})
    assert error(path, "a key must be a name").line == 2


# ---------------------------------------------------------------- orders and warnings in the replay

def test_a_retreat_in_a_movement_phase_is_not_read_as_a_move(make_game):
    p = error(make_game({"1901-spring.yml": "orders:\n  England: [F Lon R ENG]\n"}), "not an order for Spring 1901")
    assert p.line == 2 and "F Lon - ENG" in p.hint


DISLODGED = {  # Germany's army in Burgundy is dislodged in Fall 1901; Paris, whence the attack came, is closed
    "1901-spring.yml": "orders:\n  Germany: [A Mun - Bur]\n",
    "1901-fall.yml": "orders:\n  France: [A Par - Bur, A Mar S A Par - Bur]\n  Germany: [A Bur H]\n",
}


def test_an_illegal_retreat_is_warned_as_a_disband(make_game):
    h = replay(load_game(make_game({**DISLODGED, "1901-fall-retreats.yml": "orders:\n  Germany: [A Bur - Par]\n"})))
    [w] = h.warnings
    assert w.line == 2 and "cannot retreat to Paris" in w.message and w.message.endswith("the army is disbanded")
    assert "holds" not in w.message


def test_warnings_come_with_the_errors_of_later_phases(make_game, capsys):
    misorder = "orders:\n  France: [A Par - Mun]\n"
    for fall, fault in (("orders:\n  France: [A Pic - Bel]\n", "France has no unit in Picardy"),):  # found in the replay
        path = make_game({"1901-spring.yml": misorder, "1901-fall.yml": fall}, slug="g" + str(len(fall)))
        status, err = check(capsys, path)
        assert status == 1 and "1901-spring.yml:2: warning: 'A Par - Mun' cannot be carried out" in err
        assert "1901-fall.yml:2: error: " in err and fault in err and f"{path}: 1 error(s)" in err
