"""Every way a GM can get a file wrong gives file, line, the fault and a fix; never a traceback."""

import re

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
    assert p.file.endswith("1901-spring.yml")
    assert p.line == 4
    assert p.code == "broken-yaml"


def test_tab_indentation_hint(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n\tEngland: [F Lon - NTH]\n"}))
    assert p.code == "broken-yaml"
    assert "tabs" in p.hint


def test_unknown_power(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n  Englnd: [F Lon - NTH]\n"}))
    assert p.line == 2
    assert p.code == "unknown-power"
    assert "'Englnd'" in p.message
    assert "England" in p.message


def test_unknown_province(make_game):
    p = one(make_game({"1901-spring.yml":
                       "orders:\n  France:\n    - A Par - Bur\n    - A Mar - Pie\n    - F Bre - Gascny\n"}))
    assert p.line == 5
    assert p.code == "bad-order"
    assert "gascny" in p.message.lower()
    assert "Gascony" in p.message


def test_unit_not_there(make_game):
    """A player's misorder, not the GM's: a warning (tests/test_misorders.py has the rest)."""
    (w,) = replay(load_game(make_game(
        {"1901-spring.yml": "orders:\n  France:\n    - A Par - Bur\n    - A Pic - Bel\n"}))).warnings
    assert w.line == 4
    assert w.code == "no-unit"
    assert "Picardy" in w.message
    assert "A Par" in w.hint
    assert "F Bre" in w.hint


def test_unit_of_another_power(make_game):
    (w,) = replay(load_game(make_game({"1901-spring.yml": "orders:\n  France:\n    - A Mun - Bur\n"}))).warnings
    assert w.line == 3
    assert w.code == "foreign-unit"
    assert "Germany's" in w.message


def test_two_orders_for_one_unit(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n  France: |\n    A Par - Bur\n    A Par - Pic\n"}))
    assert p.line == 4
    assert p.code == "second-order"
    assert "A Par" in p.message
    assert "line 3" in p.message


def test_order_of_the_wrong_kind(make_game):
    p = one(make_game({"1901-spring.yml": "orders:\n  France:\n    - Build A Par\n"}))
    assert p.line == 3
    assert p.code == "not-this-phase"
    assert "Spring 1901" in p.message


def test_retreat_file_without_dislodgement(make_game):
    p = one(make_game({"1901-spring.yml": SPRING_OK, "1901-spring-retreats.yml": "orders: {England: []}\n"}))
    assert p.file.endswith("1901-spring-retreats.yml")
    assert p.code == "skipped-phase"
    assert "1901-fall.yml" in p.hint


def test_misspelt_phase_file(make_game):
    p = one(make_game({"1901-sprng.yml": SPRING_OK}))
    assert p.code == "bad-phase-name"
    assert "1901-spring.yml" in p.hint


def test_phase_after_a_gap(make_game):
    p = one(make_game({"1901-spring.yml": SPRING_OK, "1902-spring.yml": "orders: {England: []}\n"}))
    assert p.code == "not-yet"
    assert "Fall 1901" in p.message


def test_unknown_key_suggests(make_game):
    p = one(make_game({"1901-spring.yml": "order:\n  France: [A Par - Bur]\n"}))
    assert p.line == 1
    assert p.code == "unknown-key"
    assert "'order'" in p.message
    assert "orders" in p.hint


def test_game_yml_needs_players(make_game):
    ps = problems(make_game({"game.yml": "title: X\ngm: Y\n"}))
    assert ("missing-key", "'players'") in {(p.code, p.message[-9:]) for p in ps}


def test_unknown_variant(make_game):
    p = one(make_game({"game.yml": "title: X\ngm: Y\nvariant: standrad\nplayers: {England: A}\n"}))
    assert p.line == 3
    assert p.code == "unknown-variant"
    assert "standard" in p.message


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
    assert w.line == 4
    assert w.code == "illegal-order"
    assert "Belgium" in w.message
    assert "void" in w.message


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
    assert w.line == 3
    assert w.code == "illegal-order"
    assert "Italy" in w.message


def test_phase_after_the_end(make_game):
    path = make_game({
        "game.yml": "title: X\ngm: Y\n"
                    "players: {England: A, France: B, Germany: C, Italy: D, Austria: E, Russia: F, Turkey: G}\n"
                    "end: {draw: [England, France], phase: 1901-spring}\n",
        "1901-spring.yml": SPRING_OK, "1901-fall.yml": "orders: {England: []}\n"})
    p = one(path)
    assert p.file.endswith("1901-fall.yml")
    assert p.code == "after-the-end"


def test_cli_check_exit_status_and_no_traceback(make_game, capsys):
    path = make_game({"1901-spring.yml": "orders:\n  France:\n    - A Par - Pic\n    - A Par - Bur\n"})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert located(err) == [("1901-spring.yml:4", "error", "second-order")]
    assert "Traceback" not in err


def test_misorder_is_a_warning_not_an_error(make_game, capsys):
    path = make_game({"1901-spring.yml": "orders:\n  France:\n    - A Par - Mun\n"})
    history = replay(load_game(path))
    assert [w.line for w in history.warnings] == [3]
    assert [w.code for w in history.warnings] == ["illegal-order"]
    assert main(["check", str(path)]) == 0


# ---------------------------------------------------------------- every independent error in one run

def located(err: str) -> list[tuple[str, str, str]]:
    """What `dipgen check` printed, as (file name:line, severity, code) in the order printed."""
    return [(m["where"].rsplit("/", 1)[-1], m["severity"], m["code"])
            for m in re.finditer(r"^(?P<where>\S+?): (?P<severity>error|warning|note): .* \[(?P<code>[a-z0-9-]+)\]$",
                                 err, re.M)]


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
    # in the order of the files, game.yml first, then the phases as played; the note last
    assert located(err) == [("game.yml:1", "error", "bad-value"), ("1901-spring.yml:4", "error", "not-this-phase"),
                            ("1901-spring.yml:5", "error", "bad-order"), ("1902-spring.yml:3", "error", "broken-yaml"),
                            ("1901-fall.yml", "note", "not-adjudicated")]
    assert f"{path}: 4 error(s)" in err
    # the note's words, tested once: what is not adjudicated, and until when
    assert "1901-fall.yml: note: not adjudicated, nor the 1 phase file(s) after it, until the errors in " \
           "Spring 1901 are fixed" in err


def test_a_game_yml_the_play_needs_stops_the_play_and_says_so_once(make_game, capsys):
    path = make_game({"game.yml": "title: X\ngm: Y\nplayers: {England: B}\nstart: soon\n",
                      "1901-spring.yml": "orders:\n  France: [A Par - Bxx]\n",
                      "1901-fall.yml": "orders:\n  France: [A Pic - Bel]\n"})
    err = check_err(capsys, path)
    # 1901-spring.yml read for its form all the same; 1901-fall.yml's order for no unit is not judged
    assert located(err) == [("game.yml:3", "error", "no-player")] * 6 + [  # the six powers without a player
        ("game.yml:4", "error", "bad-value"), ("1901-spring.yml:2", "error", "bad-order"),
        ("game.yml", "note", "not-adjudicated")]


def test_a_later_phase_is_not_judged_on_a_broken_earlier_one(make_game, capsys):
    path = make_game({"1901-spring.yml": "orders:\n  France: [A Par R Pic]\n",
                      "1901-fall.yml": "orders:\n  France: [A Bel R Hol]\n",  # would be another error
                      "1901-winter.yml": "orders:\n  France: [Build A Par]\n"})
    err = check_err(capsys, path)
    assert located(err) == [("1901-spring.yml:2", "error", "not-this-phase"),
                            ("1901-fall.yml", "note", "not-adjudicated")]
    assert err.count("error:") == 1


def test_an_error_in_what_the_game_shows_does_not_stop_the_play(make_game, capsys):
    """A title or a name the site cannot show is game.yml's error; the phases are still played."""
    path = make_game({"game.yml": f"title: X\ngm: Y\nplayers: {{Austria: A, England: {'B' * 300}, France: C, "
                                  "Germany: D, Italy: E, Russia: F, Turkey: G}\n",
                      "1901-spring.yml": "orders:\n  France: [A Par R Pic]\n"})
    err = check_err(capsys, path)
    assert located(err) == [("game.yml:3", "error", "too-long"), ("1901-spring.yml:2", "error", "not-this-phase")]
