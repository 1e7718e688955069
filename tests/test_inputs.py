"""Every input is bounded and typed: no game file hangs, crashes or fools dipgen; each wrong
value is an error naming file, line, what was expected and a fix."""

import os

import pytest

from dipgen.cli import main
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.io.folders import discover_games
from dipgen.play.replay import replay
from dipgen.io import yamlfile as yamlio
from dipgen.io.yamlfile import load
from support.fuzz import ALIAS_BOMB, deep, time_limit

SPRING = ("orders:\n  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n"
          "  France: [A Par - Bur, A Mar - Spa, F Bre - MAO]\n")
PLAYERS = "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n"


def problems(path):
    with time_limit(20), pytest.raises(GameError) as e:
        replay(load_game(path))
    return e.value.problems


def error(path, code, *fragments):
    """The one error of `code` whose text has every fragment: this module is where the words of
    these errors are tested, once each, beside their code (the rest of the suite compares codes)."""
    found = [p for p in problems(path)
             if p.severity == "error" and p.code == code and all(f in str(p) for f in fragments)]
    assert len(found) == 1, [str(p) for p in problems(path)]
    return found[0]


def check(capsys, *args):
    capsys.readouterr()
    with time_limit(20):
        status = main(["check", *map(str, args)])
    return status, capsys.readouterr().err


# ---------------------------------------------------------------- bounds: depth, aliases, size, kind of file

def test_deep_nesting_is_refused_with_its_line(make_game):
    p = error(make_game({"1901-spring.yml": SPRING + "press: " + deep(5000) + "\n"}), "broken-yaml", "nested")
    assert p.file.endswith("1901-spring.yml")
    assert p.line == 4
    assert p.code == "broken-yaml"
    assert str(yamlio.MAX_DEPTH) in p.message


def test_a_hundred_thousand_levels_do_not_crash_the_parser(tmp_path):
    (tmp_path / "deep.yml").write_text("press: " + deep(100_000))  # libyaml's composer recursed in C and crashed
    with pytest.raises(GameError) as e:
        load(tmp_path / "deep.yml")
    assert [p.code for p in e.value.problems] == ["broken-yaml"]


def test_alias_bomb_is_refused_before_it_expands(tmp_path):
    (tmp_path / "bomb.yml").write_text(ALIAS_BOMB + "press: *i\n")
    with time_limit(20), pytest.raises(GameError) as e:
        load(tmp_path / "bomb.yml")
    p = e.value.problems[0]
    assert p.line == 1
    assert p.code == "broken-yaml"
    assert "aliases" in p.message
    assert "quotes" in p.hint


def test_an_order_starting_with_a_star_is_read_once_quoted(make_game):
    with pytest.raises(GameError) as e:
        load_game(make_game({"1901-spring.yml": "orders:\n  England:\n    - *F Lon - NTH\n"}))
    assert [p.code for p in e.value.problems] == ["broken-yaml"]
    path = make_game({"1901-spring.yml": "orders:\n  England: ['F Lon - NTH']\npress: '*Paris:* hello'\n"}, slug="g2")
    assert replay(load_game(path)).records[0].press == "*Paris:* hello"


def test_a_file_over_the_limit_is_an_error(make_game):
    path = make_game({"1901-spring.yml": SPRING + "press: |\n" + "  blah blah blah blah\n" * (yamlio.MAX_BYTES // 20)})
    p = error(path, "too-large", "larger than")
    assert p.file.endswith("1901-spring.yml")
    assert p.code == "too-large"
    assert f"{yamlio.MAX_BYTES // 1024} KiB" in p.message


def test_a_fifo_as_a_phase_file_is_an_error_not_a_hang(make_game):
    path = make_game({"1901-spring.yml": SPRING})
    os.mkfifo(path / "1901-fall.yml")
    p = error(path, "not-a-file", "named pipe")
    assert p.file.endswith("1901-fall.yml")


def test_a_fifo_as_game_yml_is_an_error_not_a_hang(make_game):
    path = make_game({"1901-spring.yml": SPRING})
    (path / "game.yml").unlink()
    os.mkfifo(path / "game.yml")
    assert "named pipe" in error(path, "not-a-file", "game.yml").message


def test_a_folder_where_a_phase_file_should_be_is_an_error(make_game):
    path = make_game({"1901-spring.yml": SPRING})
    (path / "1901-fall.yml").mkdir()
    (path / "pictures").mkdir()  # the GM's own folders: left alone
    (path / "1901-drafts").mkdir()
    p = error(path, "folder-not-file", "a folder where a phase file should be")
    assert p.file.endswith("1901-fall.yml")


def test_links_out_of_the_game_folder_are_refused_links_inside_are_followed(make_game, tmp_path):
    path = make_game({"1901-spring.yml": SPRING})
    (tmp_path / "elsewhere.yml").write_text("orders:\n  England: [F Lon - NTH]\npress: from elsewhere\n")
    (path / "1901-fall.yml").symlink_to(tmp_path / "elsewhere.yml")
    assert error(path, "link-outside", "outside the game folder").file.endswith("1901-fall.yml")
    (path / "1901-fall.yml").unlink()
    (path / "drafts").mkdir()
    (path / "drafts" / "fall.txt").write_text("orders:\n  England: [F NTH - Nwy]\n")
    (path / "1901-fall.yml").symlink_to("drafts/fall.txt")
    assert replay(load_game(path)).records[1].orders["England"][0].text == "F NTH - Nwy"


# ---------------------------------------------------------------- types of values

@pytest.mark.parametrize("yaml_text, fragment", [
    ("- {F Lon: NTH}", "reads as a mapping"),
    ("- F Lon: NTH", "reads as a mapping"),
    ("- 42", "an order must be text, not a number"),
    ("- [F Lon - NTH]", "an order must be text, not a list"),
])
def test_an_order_that_is_not_text_is_an_error_with_the_fix(make_game, yaml_text, fragment):
    path = make_game({"1901-spring.yml": f"orders:\n  England:\n    {yaml_text}\n"})
    p = error(path, "bad-order", fragment)
    assert p.line in (2, 3)
    assert "unknown province" not in p.message
    if "mapping" in fragment:
        assert p.line == 3
        assert p.hint == 'quote the order: - "F Lon - NTH"'


@pytest.mark.parametrize("key", ["press", "notes"])
def test_press_and_notes_must_be_text(make_game, key):
    p = error(make_game({"1901-spring.yml": SPRING + f"{key}: [a, b]\n"}),
              "bad-value", f"{key} must be text, not a list")
    assert p.line == 4
    assert f"{key}: |" in p.hint


@pytest.mark.parametrize("line, fragment, code", [
    ("title: [x]", "title must be text, not a list", "bad-value"),
    ("gm: {a: 1}", "gm must be text, not a mapping", "bad-value"),
    ("description: 42", "description must be text, not a number", "bad-value"),
    ("variant: [stab]", "variant must be text, not a list", "bad-value"),
    ("reveal: yes", "reveal must be 'end' or 'now', not yes/no", "bad-value"),
    ("map: 3", "played on the standard map, not a number", "wrong-map"),
    ("map: modern", "played on the standard map, not 'modern'", "wrong-map"),
    ("seed_sha256: 12", "64 hexadecimal digits, not a number", "bad-value"),
    ("start: 1901-01-01", "start must be a year such as 1901, not a date", "bad-value"),
    ("start: yes", "start must be a year such as 1901, not yes/no", "bad-value"),
    ("end: [England]", "end must be a mapping, not a list", "bad-end"),
    ("end: {draw: [England, 3]}", "expected the name of a power here, not a number", "unknown-power"),
    ("end: {abandoned: [x]}", "abandoned must be text, not a list", "bad-value"),
    ("end: {concession: England, phase: 1901}",
     "phase must be the last phase played, such as 1910-fall, not a number", "bad-value"),
])
def test_every_game_yml_key_has_a_type(make_game, line, fragment, code):
    key = line.split(":")[0]
    text = "title: X\ngm: Y\n" + PLAYERS + line + "\n"
    if key in ("title", "gm"):
        text = text.replace(f"{key}: {'X' if key == 'title' else 'Y'}\n", "")
    p = error(make_game({"game.yml": text, "1901-spring.yml": SPRING}), code, fragment)
    assert p.file.endswith("game.yml")
    assert p.line == text.splitlines().index(line) + 1
    assert "datetime" not in str(p)
    assert "['" not in str(p)
    assert "{'" not in str(p)


@pytest.mark.parametrize("players, fragment, code", [
    ("players: [a]", "players must map each power to its player, not be a list", "bad-value"),
    ("players: {England: A, england: B}", "England appears twice under players", "duplicate-power"),
    ("players: {England: 42}", "England's player must be a name", "bad-player"),
    ("players: {England: }", "no player named for England", "no-player"),
    ("players: {England: [{name: A}, {name: B}]}", "'B' needs from:", "bad-player"),
    ("players: {England: [{name: A}, {name: B, from: 1903}]}",
     "from must be a phase such as 1905-fall, not a number", "bad-value"),
    ("players: {England: [{name: A}, {nam: B, from: 1903-spring}]}",
     "each of England's players needs name:", "bad-player"),
])
def test_players_have_a_shape(make_game, players, fragment, code):
    path = make_game({"game.yml": "title: X\ngm: Y\n" + players + "\n", "1901-spring.yml": SPRING})
    assert error(path, code, fragment).file.endswith("game.yml")


def test_unreadable_dates_and_numbers_are_errors_with_a_line(make_game):
    path = make_game({"1901-spring.yml": SPRING + "notes: 2001-13-45\n"})
    assert error(path, "broken-yaml", "not a real date").line == 4
    path = make_game({"1901-spring.yml": SPRING + "notes: " + "9" * 5000 + "\n"}, slug="g2")
    assert error(path, "broken-yaml", "number cannot be read").line == 4


def test_a_list_or_mapping_as_a_key_is_an_error(make_game):
    path = make_game({"1901-spring.yml": "orders:\n  ? {F Lon: NTH}\n  : x\n"})
    assert error(path, "broken-yaml", "a key must be a name").line == 2


# ---------------------------------------------------------------- games that vanished or half-built

@pytest.mark.parametrize("name", ["game.yaml", "Game.yml"])
def test_a_misnamed_game_yml_is_an_error_not_a_vanished_game(make_game, capsys, name):
    path = make_game({"1901-spring.yml": SPRING})
    (path / "game.yml").rename(path / name)
    assert discover_games(path.parent) == [path]
    status, err = check(capsys, path.parent)
    assert status == 1
    assert f"{path}: error: no game.yml in this folder" in err
    assert "[no-game]" in err
    assert f"rename {name} to game.yml" in err


def test_a_stray_yaml_file_beside_the_games_is_no_game(make_game, capsys):
    path = make_game({"1901-spring.yml": SPRING})
    (path.parent / "notes.yml").write_text("just: notes\n")
    status, err = check(capsys, path.parent)
    assert status == 0, err


def test_phase_files_without_game_yml_are_an_error(make_game, capsys):
    path = make_game({"1901-spring.yml": SPRING})
    (path / "game.yml").unlink()
    status, err = check(capsys, path.parent)
    assert status == 1
    assert f"{path}: error: " in err
    assert "[no-game]" in err


def test_an_empty_game_folder_is_named(tmp_path, capsys):
    (tmp_path / "games" / "new-game").mkdir(parents=True)
    status, err = check(capsys, tmp_path / "games")
    assert status == 1
    assert err.startswith(f"{tmp_path / 'games' / 'new-game'}: error: ")
    assert "[no-game]" in err


def test_the_games_are_the_folders_and_the_links_to_folders_by_name(tmp_path):
    games = tmp_path / "games"
    (games / "beta").mkdir(parents=True)
    (tmp_path / "kept-elsewhere").mkdir()
    (games / "alpha").symlink_to(tmp_path / "kept-elsewhere", target_is_directory=True)  # a game linked in
    (games / "notes.md").write_text("notes\n")
    (games / "link-to-notes").symlink_to(games / "notes.md")
    (games / ".drafts").mkdir()
    (games / "loop").symlink_to(games / "loop")  # a link that goes round: nothing (not an error)
    assert discover_games(games) == [games / "alpha", games / "beta"]


def test_a_folder_named_badly_is_an_error_and_a_dot_folder_is_skipped(make_game, capsys):
    good = make_game({"1901-spring.yml": SPRING}, slug="good")
    make_game({"1901-spring.yml": SPRING}, slug=".hidden")
    make_game({"1901-spring.yml": SPRING}, slug="Winter Palace")
    assert [p.name for p in discover_games(good.parent)] == ["Winter Palace", "good"]
    status, err = check(capsys, good.parent)
    assert status == 1
    assert "'Winter Palace' cannot name a game folder" in err
    assert "[bad-folder-name]" in err
    assert "rename the folder to 'winter-palace'" in err
    assert ".hidden" not in err
    status, err = check(capsys, good.parent / ".hidden")  # named on its own, it is an error too
    assert status == 1
    assert "[bad-folder-name]" in err


# ---------------------------------------------------------------- accepted without a word before

def test_a_draw_naming_a_power_twice(make_game):
    path = make_game({"game.yml": "title: X\ngm: Y\n" + PLAYERS + "end: {draw: [England, England]}\n",
                      "1901-spring.yml": SPRING})
    assert error(path, "duplicate-power", "England is named twice in the draw").line == 4


STAB = "title: X\nvariant: stab\ngm: Y\n" + PLAYERS
BLIND = "title: X\nvariant: blind\ngm: Y\n" + PLAYERS


@pytest.mark.parametrize("game, key", [(STAB, "placement:\n  England: [F Lon, F Edi, A Lvp]\n"),
                                       (BLIND, "spies:\n  England: [Lon, Edi]\n")])
def test_set_up_keys_only_in_the_first_phase_file(make_game, game, key):
    path = make_game({"game.yml": game, "1901-spring.yml": SPRING, "1901-fall.yml": SPRING.replace("- NTH", "H") + key})
    p = error(path, "setup-key-misplaced", "belongs in the game's first phase file, 1901-spring.yml")
    assert p.file.endswith("1901-fall.yml")
    assert p.line == 4


@pytest.mark.parametrize("game, key, fragment, code", [
    (STAB, "placement:\n  England: [42, F Edi, A Lvp]\n",
     "a unit to place is text such as F Lon, not a number", "bad-placement"),
    (STAB, "placement:\n  England: {F Lon: x}\n",
     "England's placement must be a list of units, not a mapping", "bad-placement"),
    (STAB, "placement:\n  3: [F Lon, F Edi, A Lvp]\n",
     "expected the name of a power here, not a number", "unknown-power"),
    (BLIND, "spies:\n  England: [[Lon], Edi]\n", "a spy's place is a province such as Lon, not a list", "bad-spies"),
    (BLIND, "spies:\n  england: [Lon]\n", "England places 1 spies; it has 2", "bad-spies"),
    (BLIND, "spies:\n  England: [Lon, Edi]\n  england: [Lon, Lvp]\n",
     "England appears twice under spies", "duplicate-power"),
])
def test_set_up_values_have_a_type(make_game, game, key, fragment, code):
    p = error(make_game({"game.yml": game, "1901-spring.yml": key + SPRING}), code, fragment)
    assert p.line == key.count("\n")
    assert "['" not in str(p)
    assert "{'" not in str(p)


def test_an_empty_phase_file_is_an_error_with_the_fix(make_game):
    p = error(make_game({"1901-spring.yml": "# nothing yet\n"}), "empty-file", "the file is empty")
    assert "England: []" in p.hint


@pytest.mark.parametrize("text, message", [("orders: {}\n", "orders is empty"), ("orders:\n", "orders is empty"),
                                           ("press: hello\n", "no orders")])
def test_a_phase_file_without_orders_is_an_error_with_the_fix(make_game, text, message):
    p = error(make_game({"1901-spring.yml": text}), "no-orders", message)
    assert "if nobody sent orders, list each power with an empty list, e.g. England: []" in p.hint


def test_an_explicit_empty_list_means_no_orders_sent(make_game):
    h = replay(load_game(make_game({"1901-spring.yml": "orders:\n  England: []\n  France: [A Par - Bur]\n"})))
    assert "England" in h.records[0].nmr
    assert "France" not in h.records[0].nmr
    p = error(make_game({"1901-spring.yml": "orders:\n  England:\n  France: [A Par - Bur]\n"}, slug="g2"),
              "no-orders", "England has nothing after it")
    assert p.line == 2
    assert "England: []" in p.hint


def test_a_retreat_in_a_movement_phase_is_not_read_as_a_move(make_game):
    p = error(make_game({"1901-spring.yml": "orders:\n  England: [F Lon R ENG]\n"}),
              "not-this-phase", "not an order for Spring 1901")
    assert p.line == 2
    assert "F Lon - ENG" in p.hint


def test_start_after_the_files_says_so(make_game):
    path = make_game({"game.yml": "title: X\ngm: Y\n" + PLAYERS + "start: 2050\n", "1901-spring.yml": SPRING})
    p = error(path, "before-start", "Spring 1901 is before the game's start in Spring 2050")
    assert "start:" in p.hint
    assert "skipped" not in p.message


def test_a_spy_order_in_a_standard_game(make_game):
    p = error(make_game({"1901-spring.yml": "orders:\n  France: [S Par - Bur]\n"}),
              "unknown-unit-kind", "'S' is not a unit of this game")
    assert "unknown province" not in p.message
    assert "Blind" in p.hint


def test_two_files_for_one_phase(make_game):
    path = make_game({"1901-spring.yml": SPRING, "1901-Spring.yml": SPRING})
    assert error(path, "duplicate-phase", "are the file of Spring 1901")


def test_game_yml_beside_a_misspelt_one(make_game):
    path = make_game({"1901-spring.yml": SPRING, "game.yaml": "title: Old\n"})
    p = error(path, "misnamed-file", "dipgen reads game.yml")
    assert p.file.endswith("game.yaml")
    assert "merge it into game.yml" in p.hint


DISLODGED = {  # Germany's army in Burgundy is dislodged in Fall 1901; Paris, whence the attack came, is closed
    "1901-spring.yml": "orders:\n  Germany: [A Mun - Bur]\n",
    "1901-fall.yml": "orders:\n  France: [A Par - Bur, A Mar S A Par - Bur]\n  Germany: [A Bur H]\n",
}


def test_an_illegal_retreat_is_warned_as_a_disband(make_game):
    h = replay(load_game(make_game({**DISLODGED, "1901-fall-retreats.yml": "orders:\n  Germany: [A Bur - Par]\n"})))
    [w] = h.warnings
    assert w.line == 2
    assert w.code == "illegal-order"
    assert w.subject == "A Bur - Par"
    assert "cannot retreat to Paris" in w.message  # the words of a void retreat, tested here once
    assert w.message.endswith("the army is disbanded")
    assert "holds" not in w.message


def test_warnings_come_with_the_errors_of_later_phases(make_game, capsys):
    misorder = "orders:\n  France: [A Par - Mun]\n"
    for fall, fault in (("orders:\n  France: [A Par - Pic, A Par - Bur]\n",
                         "[second-order]"),  # found in the replay
                        ("orders:\n  France: [A Par - Bxx]\n", "[bad-order]")):  # found in reading
        path = make_game({"1901-spring.yml": misorder, "1901-fall.yml": fall}, slug="g" + str(len(fall)))
        status, err = check(capsys, path)
        assert status == 1
        assert "1901-spring.yml:2: warning: " in err
        assert "[illegal-order]" in err
        assert "1901-fall.yml:2: error: " in err
        assert fault in err
        assert f"{path}: 1 error(s)" in err


def test_the_example_generator_writes_a_phase_nobody_ordered_in_as_dipgen_reads_it(make_game):
    from tools.examples.files import PhaseLog, phase_yaml

    text = phase_yaml(PhaseLog(phase=None, before=None, after=None, texts={}, orders={}), set())
    h = replay(load_game(make_game({"1901-spring.yml": text})))
    assert len(h.records[0].nmr) == 7


# ---------------------------------------------------------------- what still broke things (issue 21, section 4)

@pytest.mark.parametrize("where, files, line", [
    ("the title", {"game.yml": 'title: "The \\ud800 Game"\ngm: Y\n' + PLAYERS}, 1),
    ("a player's name", {"game.yml": "title: X\ngm: Y\n" + PLAYERS.replace("England: B", 'England: "B\\ud800"')}, 3),
    ("a key", {"game.yml": "title: X\ngm: Y\n" + PLAYERS + '"\\udfff": 1\n'}, 4),
    ("the press", {"1901-spring.yml": SPRING + 'press: "Paris \\udc00 Berlin"\n'}, 4),
    ("an order", {"1901-spring.yml": 'orders:\n  France:\n    - "A Par - Bur"\n    - "A Mar \\ud800 Spa"\n'}, 4),
])
def test_a_lone_surrogate_is_refused_where_it_is_read(make_game, capsys, where, files, line):
    """"\ud800" is an escape YAML reads, and no UTF-8 file or page can hold: refused with file and
    line by the reader, so that neither the checks, the reports nor the build ever meet it."""
    path = make_game({"1901-spring.yml": SPRING, **files})
    p = error(path, "broken-yaml", "lone surrogate")
    assert p.line == line
    assert p.file.endswith(next(iter(files)))
    for args in (["check", path], ["adjudicate", path]):
        status, err = check(capsys, *args[1:]) if args[0] == "check" else (None, None)
        if args[0] == "adjudicate":
            capsys.readouterr()
            with time_limit(20):
                status = main(["adjudicate", str(path)])
            err = capsys.readouterr().err
        assert status == 1
        assert "Traceback" not in err
        assert f"{next(iter(files))}:{line}: error: " in err


def test_a_surrogate_pair_is_the_character_it_writes(make_game):
    path = make_game({"1901-spring.yml": SPRING + 'press: "Paris \\ud83d\\ude00 Berlin"\n'})
    assert replay(load_game(path)).records[0].press == "Paris \U0001F600 Berlin"


def test_every_refusal_in_a_file_is_reported_at_once(make_game):
    text = 'title: X\ntitle: Y\ngm: "Y \\ud800"\n' + PLAYERS + "gm: Z\n"
    found = [(p.line, p.message) for p in problems(make_game({"game.yml": text, "1901-spring.yml": SPRING}))]
    assert [line for line, _ in found] == [2, 3, 5], found
    assert "appears twice (first on line 1)" in found[0][1]
    assert "lone surrogate" in found[1][1]


def test_game_yml_as_a_link_to_itself_is_an_error_naming_it(make_game, capsys):
    path = make_game({"1901-spring.yml": SPRING})
    (path / "game.yml").unlink()
    (path / "game.yml").symlink_to("game.yml")
    p = error(path, "link-loop")
    assert p.file.endswith("game.yml")
    assert "replace the link" in p.hint
    status, err = check(capsys, path)
    assert status == 1
    assert "Traceback" not in err
    assert "RuntimeError" not in err


def test_a_link_out_of_the_folder_is_named_as_the_link(make_game, tmp_path, monkeypatch):
    """The message names the file the GM sees in the game folder, not where it leads."""
    monkeypatch.chdir(tmp_path)
    path = make_game({"1901-spring.yml": SPRING})
    (tmp_path / "elsewhere.yml").write_text("orders:\n  England: [F NTH - Nwy]\n")
    (path / "1901-fall.yml").symlink_to(tmp_path / "elsewhere.yml")
    p = error(path, "link-outside", "outside the game folder")
    assert p.file == "test-game/1901-fall.yml"
    assert str(tmp_path / "elsewhere.yml") in p.message
    (path / "1901-fall.yml").unlink()
    (path / "1901-fall.yml").symlink_to("nowhere.yml")  # inside, but leads nowhere
    p = error(path, "broken-link", "which does not exist")
    assert p.file == "test-game/1901-fall.yml"
    assert p.code == "broken-link"
    assert "nowhere.yml" in p.message


def test_a_game_folder_linked_to_the_games_folder_is_named(make_game, capsys, monkeypatch):
    good = make_game({"1901-spring.yml": SPRING}, slug="good")
    monkeypatch.chdir(good.parent.parent)
    (good.parent / "loop").symlink_to(".")
    status, err = check(capsys, good.parent.name)
    assert status == 1
    assert f"{good.parent.name}/loop: error: a link to ., the folder that holds it" in err
    assert "[link-loop]" in err
    assert f"{good.parent.name}: error" not in err, err
    assert err.count("error:") == 1, err


def test_a_games_folder_holding_only_hidden_folders_says_so(tmp_path, capsys):
    (tmp_path / "games" / ".drafts").mkdir(parents=True)
    status, err = check(capsys, tmp_path / "games")
    assert status == 1
    assert "no game here: .drafts is hidden (a folder whose name starts with a dot is skipped)" in err
    assert "[no-game]" in err
    assert "rename it without the dot" in err


def test_a_folder_named_game_yml_is_named(make_game, capsys):
    path = make_game({"1901-spring.yml": SPRING})
    (path / "game.yml").unlink()
    (path / "game.yml").mkdir()
    status, err = check(capsys, path)
    assert status == 1
    assert f"{path}/game.yml: error: game.yml is a folder" in err
    assert "[not-a-file]" in err
    assert err.count("error:") == 1, err


def test_an_end_phase_outside_the_game_has_its_line(make_game):
    text = "title: X\ngm: Y\n" + PLAYERS + "end:\n  draw: [England, France]\n  phase: 1930-fall\n"
    p = error(make_game({"game.yml": text, "1901-spring.yml": SPRING}), "end-not-played", "never played")
    assert p.file.endswith("game.yml")
    assert p.line == 6


@pytest.mark.parametrize("orders, line", [("  England:\n  -\n", 3), ("  England:\n    - F Lon - NTH\n    -\n", 4),
                                          ("  England: [~]\n", 2)])
def test_an_empty_order_is_an_error_not_an_nmr(make_game, orders, line):
    """`England:` then a bare `-` is a list of one empty item: the orders were lost, not missed."""
    p = error(make_game({"1901-spring.yml": "orders:\n" + orders}), "bad-order", "an empty order in England's list")
    assert p.line == line
    assert "England: []" in p.hint


def test_a_title_and_names_are_one_short_line(make_game, capsys):
    text = f"title: {'x' * 200_000}\ngm: Y\n" + PLAYERS
    p = error(make_game({"game.yml": text, "1901-spring.yml": SPRING}),
              "too-long", "the title is 200,000 characters long")
    assert p.line == 1
    assert p.code == "too-long"
    assert "at most 200" in p.message
    assert "description" in p.hint
    text = 'title: "Two\\nlines"\ngm: "Y\\e[2J"\n' + PLAYERS.replace("England: B", f"England: {'B' * 201}")
    found = {p.line: p.message for p in problems(make_game({"game.yml": text, "1901-spring.yml": SPRING}, slug="g2"))}
    assert "the title holds a line break" in found[1]
    assert "the GM's name holds a control character (\\x1b)" in found[2]
    assert "a name is 201 characters long; at most 200" in found[3]
    path = make_game({"game.yml": f"title: {'x' * 200}\ngm: Y\n" + PLAYERS, "1901-spring.yml": SPRING}, slug="g3")
    assert replay(load_game(path)).info.title == "x" * 200  # the limit itself is fine


def test_a_name_in_a_variant_s_own_players_form_is_checked_too(make_game):
    text = f"title: X\nvariant: taskdip\ngm: Y\nplayers: [Ann, \"B\\tob\", {'C' * 250}]\n"
    found = [p for p in problems(make_game({"game.yml": text})) if p.severity == "error"]
    assert [(p.line, p.code) for p in found if p.code in ("not-one-line", "too-long")] == [
        (4, "not-one-line"), (4, "too-long")]


def test_dipgen_prints_what_a_terminal_would_act_on_as_escapes(make_game, capsys):
    """Press (and a name with a bidirectional override) in `dipgen adjudicate`: escapes, never
    the raw characters; the files and the History keep the text as written."""
    press = 'press: "Hello\\e]0;owned\\a\\e[2J \\u202eevil\\r\\x9b"\n'
    path = make_game({"game.yml": "title: X\ngm: Y\n" + PLAYERS.replace("England: B", 'England: "B\\u202eob"'),
                      "1901-spring.yml": SPRING + press})
    capsys.readouterr()
    assert main(["adjudicate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Hello\\x1b]0;owned\\x07\\x1b[2J \\u202eevil" in out
    assert "\\x9b" in out
    assert not any(c in out for c in "\x1b\x07\r\u202e\x9b")
    assert "\x1b" in replay(load_game(path)).records[0].press  # the text itself is untouched
    capsys.readouterr()
    assert main(["check", str(path)]) == 0
