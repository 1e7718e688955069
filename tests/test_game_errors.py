"""Every way a GM can get a file wrong gives file, line, the fault and a fix; never a traceback."""

import pytest

from dipgen.cli import main
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay

SPRING_OK = """
orders:
  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]
  France: [A Par - Bur, A Mar S A Par - Bur, F Bre - MAO]
"""


def problems(path):
    with pytest.raises(GameError) as e:
        replay(load_game(path))
    return e.value.problems


def one(path):
    ps = [p for p in problems(path) if p.severity == "error"]
    assert len(ps) == 1, [str(p) for p in ps]
    return ps[0]


def test_broken_yaml(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n  England:\n    - F Lon - NTH\n   - A Lvp - Yor\n"}))
    assert p.file.endswith("1901-spring.yml") and p.line == 4 and p.code == "broken-yaml"


def test_tab_indentation_hint(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n\tEngland: [F Lon - NTH]\n"}))
    assert p.code == "broken-yaml" and "tabs" in p.hint


def test_unknown_power(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n  Englnd: [F Lon - NTH]\n"}))
    assert p.line == 2 and p.code == "unknown-power" and "'Englnd'" in p.message and "England" in p.message


def test_unknown_province(make_game):
    p = one(make_game({"1901-spring.yml":
                       "orders:\n  France:\n    - A Par - Bur\n    - A Mar - Pie\n    - F Bre - Gascny\n"}))
    assert p.line == 5 and p.code == "bad-order" and "gascny" in p.message.lower() and "Gascony" in p.message


def test_unit_not_there(make_game):
    """A player's misorder, not the GM's: a warning (tests/test_misorders.py has the rest)."""
    (w,) = replay(load_game(make_game(
        {"1901-spring.yml": "orders:\n  France:\n    - A Par - Bur\n    - A Pic - Bel\n"}))).warnings
    assert w.line == 4 and w.code == "no-unit" and "Picardy" in w.message
    assert "A Par" in w.hint and "F Bre" in w.hint


def test_unit_of_another_power(make_game):
    (w,) = replay(load_game(make_game({"1901-spring.yml": "orders:\n  France:\n    - A Mun - Bur\n"}))).warnings
    assert w.line == 3 and w.code == "foreign-unit" and "Germany's" in w.message


def test_two_orders_for_one_unit(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n  France: |\n    A Par - Bur\n    A Par - Pic\n"}))
    assert p.line == 4 and p.code == "second-order" and "A Par" in p.message and "line 3" in p.message


def test_order_of_the_wrong_kind(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n  France:\n    - Build A Par\n"}))
    assert p.line == 3 and p.code == "not-this-phase" and "Spring 1901" in p.message


def test_retreat_file_without_dislodgement(make_game):
    p = one(make_game({"1901-spring.yml": SPRING_OK, "1901-spring-retreats.yml": "orders: {England: []}\n"}))
    assert p.file.endswith("1901-spring-retreats.yml") and p.code == "skipped-phase"
    assert "1901-fall.yml" in p.hint


def test_misspelt_phase_file(make_game):
    p = one(make_game({"1901-sprng.yml": SPRING_OK}))
    assert p.code == "bad-phase-name" and "1901-spring.yml" in p.hint


def test_phase_after_a_gap(make_game):
    p = one(make_game({"1901-spring.yml": SPRING_OK, "1902-spring.yml": "orders: {England: []}\n"}))
    assert p.code == "not-yet" and "Fall 1901" in p.message


def test_unknown_key_suggests(make_game):
    p = one(make_game({"1901-spring.yml": "order:\n  France: [A Par - Bur]\n"}))
    assert p.line == 1 and p.code == "unknown-key" and "'order'" in p.message and "orders" in p.hint


def test_game_yml_needs_players(make_game):
    ps = problems(make_game({"game.yml": "title: X\ngm: Y\n"}))
    assert ("missing-key", "'players'") in {(p.code, p.message[-9:]) for p in ps}


def test_unknown_variant(make_game):
    p = one(make_game({"game.yml": "title: X\ngm: Y\nvariant: standrad\nplayers: {England: A}\n"}))
    assert p.line == 3 and p.code == "unknown-variant" and "standard" in p.message


FALL_TO_WINTER = {
    "1901-spring.yml": """
        orders:
          France: [A Par - Bur, A Mar - Spa, F Bre - MAO]
        """,
    "1901-fall.yml": """
        orders:
          France: [A Bur - Bel, A Spa H, F MAO - Por]
        """,
}


def test_build_in_a_centre_that_is_not_a_free_owned_home_centre(make_game):
    path = make_game({**FALL_TO_WINTER,
                      "1901-winter.yml": "orders:\n  France:\n    - Build A Par\n    - Build A Bel\n"})
    (w,) = replay(load_game(path)).warnings
    assert w.line == 4 and w.code == "illegal-order" and "Belgium" in w.message and "void" in w.message


def test_too_many_builds(make_game):
    path = make_game({**FALL_TO_WINTER,
                      "1901-winter.yml": "orders:\n  France: [Build A Par, Build A Mar, Build F Bre, Build A Par]\n"})
    h = replay(load_game(path))
    assert [(w.code, w.line) for w in h.warnings] == [("illegal-order", 2)]
    assert "no builds left" in h.warnings[0].message
    assert [r.succeeded for r in h.records[-1].results_of("France")] == [True, True, True, False]


def test_orders_from_a_power_with_nothing_to_adjust(make_game):
    path = make_game({**FALL_TO_WINTER,
                      "1901-winter.yml": "orders:\n  France: [Build A Par]\n  Italy: [Build A Rom]\n"})
    (w,) = replay(load_game(path)).warnings
    assert w.line == 3 and w.code == "illegal-order" and "Italy" in w.message


def test_phase_after_the_end(make_game):
    path = make_game({
        "game.yml": "title: X\ngm: Y\n"
                    "players: {England: A, France: B, Germany: C, Italy: D, Austria: E, Russia: F, Turkey: G}\n"
                    "end: {draw: [England, France], phase: 1901-spring}\n",
        "1901-spring.yml": SPRING_OK, "1901-fall.yml": "orders: {England: []}\n"})
    p = one(path)
    assert p.file.endswith("1901-fall.yml") and p.code == "after-the-end"


def test_cli_check_exit_status_and_no_traceback(make_game, capsys):
    path = make_game({"1901-spring.yml": "orders:\n  France:\n    - A Par - Pic\n    - A Par - Bur\n"})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "1901-spring.yml:4: error: a second order for A Par" in err
    assert "Traceback" not in err


def test_misorder_is_a_warning_not_an_error(make_game, capsys):
    path = make_game({"1901-spring.yml": "orders:\n  France:\n    - A Par - Mun\n"})
    history = replay(load_game(path))
    assert [w.line for w in history.warnings] == [3]
    assert "cannot be carried out" in history.warnings[0].message
    assert main(["check", str(path)]) == 0


# ---------------------------------------------------------------- every independent error in one run

def check_err(capsys, path):
    capsys.readouterr()
    assert main(["check", str(path)]) == 1
    return capsys.readouterr().err


def test_check_reports_every_independent_error_at_once(make_game, capsys):
    """A title of the wrong type, two bad orders of one phase (one unreadable, one of the wrong kind
    for the phase), a broken later file: all in one run, as a compiler would; the phase after the
    first broken one is said once not to be adjudicated, with no errors that follow from it."""
    path = make_game({
        "game.yml": "title: [The, Game]\ngm: Y\nplayers: {Austria: A, England: B, France: C, Germany: D, Italy: E, "
                    "Russia: F, Turkey: G}\n",
        "1901-spring.yml": "orders:\n  France:\n    - A Par - Bur\n    - A Mar R Pie\n    - F Bre - Gascny\n",
        # two orders: an error, if played
        "1901-fall.yml": "orders:\n  France:\n    - A Bur - Bel\n    - A Bur - Mun\n",
        "1902-spring.yml": "orders:\n  France: [A Bel - Hol\n",
    })
    err = check_err(capsys, path)
    for expected in ("game.yml:1: error: title must be text, not a list",
                     "1901-spring.yml:4: error: 'A Mar R Pie' is not an order for Spring 1901",
                     "1901-spring.yml:5: error: unknown province",
                     "1902-spring.yml:3: error: broken YAML",
                     "1901-fall.yml: note: not adjudicated, nor the 1 phase file(s) after it, until the errors in "
                     "Spring 1901 are fixed"):
        assert expected in err, err
    assert "second order" not in err and err.count(": note: ") == 1
    assert f"{path}: 4 error(s)" in err
    # in the order of the files, game.yml first, then the phases as played; the note last
    at = [err.index(x) for x in ("game.yml:1:", "1901-spring.yml:4:", "1901-spring.yml:5:", "1902-spring.yml:3:",
                                 ": note: ")]
    assert at == sorted(at), err


def test_a_game_yml_the_play_needs_stops_the_play_and_says_so_once(make_game, capsys):
    path = make_game({"game.yml": "title: X\ngm: Y\nplayers: {England: B}\nstart: soon\n",
                      "1901-spring.yml": "orders:\n  France: [A Par - Bxx]\n",
                      "1901-fall.yml": "orders:\n  France: [A Pic - Bel]\n"})
    err = check_err(capsys, path)
    assert "game.yml:3: error: no player named for Austria" in err and "game.yml:4: error: start must be a year" in err
    assert "1901-spring.yml:2: error: unknown province" in err  # read for its form all the same
    assert "game.yml: note: the 2 phase file(s) are not adjudicated until the errors in game.yml are fixed" in err
    assert "Picardy" not in err


def test_a_later_phase_is_not_judged_on_a_broken_earlier_one(make_game, capsys):
    path = make_game({"1901-spring.yml": "orders:\n  France: [A Par R Pic]\n",
                      "1901-fall.yml": "orders:\n  France: [A Bel R Hol]\n",  # would be another error
                      "1901-winter.yml": "orders:\n  France: [Build A Par]\n"})
    err = check_err(capsys, path)
    assert "1901-spring.yml:2: error: 'A Par R Pic' is not an order for Spring 1901" in err
    assert "1901-fall.yml: note: not adjudicated, nor the 1 phase file(s) after it" in err
    assert "Belgium" not in err and "1901-winter.yml:" not in err and err.count("error:") == 1


def test_an_error_in_what_the_game_shows_does_not_stop_the_play(make_game, capsys):
    """A title or a name the site cannot show is game.yml's error; the phases are still played."""
    path = make_game({"game.yml": f"title: X\ngm: Y\nplayers: {{Austria: A, England: {'B' * 300}, France: C, "
                                  "Germany: D, Italy: E, Russia: F, Turkey: G}\n",
                      "1901-spring.yml": "orders:\n  France: [A Par R Pic]\n"})
    err = check_err(capsys, path)
    assert "game.yml:3: error: a name is 300 characters long" in err
    assert "1901-spring.yml:2: error: 'A Par R Pic' is not an order for Spring 1901" in err and "note" not in err
