"""secrets.yml's ``addresses:``: each player's e-mail, by her name as players: writes it. Read and
checked where secrets.yml is read: a bad address, a name that is no player, an address given
twice are errors with the file, the line, a code and the fix; never printed by accident."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.core.errors import GameError
from dipgen.io.addresses import Addresses, address_problem
from dipgen.io.load import read_files
from dipgen.io.secretsfile import load_secrets
from support import write_game

PLAYERS = {"Austria": "Katalin Szabo", "England": "Owen Pritchard", "France": "Lucien Fabre",
           "Germany": "Heike Sommer", "Italy": "Paolo Esposito", "Russia": "Irina Volkova", "Turkey": "Murat Demir"}
GAME_YML = "title: Small\nvariant: stab\ngm: Grace\nplayers:\n" + "".join(f"  {p}: {n}\n" for p, n in PLAYERS.items())


@pytest.fixture
def small_game(tmp_path) -> Path:
    return write_game(tmp_path / "games" / "small", {"game.yml": GAME_YML})


def secrets(folder: Path, addresses: str) -> Path:
    return write_game(folder, {"secrets.yml": "addresses:\n" + addresses}) / "secrets.yml"


def test_addresses_are_read_by_player_name_one_or_several(small_game):
    secrets(small_game, "  Katalin Szabo: katalin@example.org\n"
                        "  owen pritchard: [owen@example.org, Owen.P+dip@mail.example.com]\n")
    read = read_files(small_game)
    assert not read.problems
    book = read.secrets.addresses
    assert isinstance(book, Addresses)
    assert dict(book) == {"Katalin Szabo": ("katalin@example.org",),
                          "Owen Pritchard": ("owen@example.org", "Owen.P+dip@mail.example.com")}
    assert book.player_of("OWEN.p+dip@MAIL.example.com") == "Owen Pritchard"
    assert book.player_of("nobody@example.org") is None
    assert "example.org" not in repr(book)
    assert "example.org" not in repr(read.secrets)


BAD = {
    "a name": ("  Lucien Fabre: Lucien Fabre <lucien@example.org>\n", 2, "bad-address"),
    "no at": ("  Lucien Fabre: lucien.example.org\n", 2, "bad-address"),
    "two ats": ("  Lucien Fabre: lucien@x@example.org\n", 2, "bad-address"),
    "no dot in the domain": ("  Lucien Fabre: lucien@localhost\n", 2, "bad-address"),
    "a header injection": ('  Lucien Fabre: "lucien@example.org\\nBcc: all@example.org"\n', 2, "bad-address"),
    "a number": ("  Lucien Fabre: 12\n", 2, "bad-address"),
    "an empty list": ("  Lucien Fabre: []\n", 2, "bad-address"),
    "in a list": ("  Lucien Fabre:\n    - lucien@example.org\n    - not an address\n", 4, "bad-address"),
    "not a player": ("  Lucien Fabre: lucien@example.org\n  Lucien Fabra: other@example.org\n", 3, "unknown-player"),
    "a power, not a player": ("  France: lucien@example.org\n", 2, "unknown-player"),
    "a player twice": ("  Lucien Fabre: a@example.org\n  lucien fabre: b@example.org\n", 3, "duplicate-writer"),
    "two players, one address": ("  Lucien Fabre: a@example.org\n  Murat Demir: A@Example.org\n", 3,
                                 "duplicate-address"),
    "one address twice": ("  Lucien Fabre: [a@example.org, a@example.org]\n", 2, "duplicate-address"),
    "not a mapping": ("  - a@example.org\n", 1, "bad-value"),
}


@pytest.mark.parametrize("what", sorted(BAD))
def test_a_bad_address_table_is_an_error_with_file_line_code_and_fix(small_game, what, capsys):
    text, line, code = BAD[what]
    file = secrets(small_game, text)
    with pytest.raises(GameError) as e:
        load_secrets(file, list(PLAYERS), require_key=False, players=list(PLAYERS.values()))
    [problem] = e.value.problems
    assert (problem.file.endswith("secrets.yml"), problem.line, problem.code) == (True, line, code)
    assert problem.hint
    assert main(["check", str(small_game)]) == 1
    err = capsys.readouterr().err
    assert f"secrets.yml:{line}: error: " in err
    assert f"[{code}]" in err


def test_the_name_is_suggested(small_game):
    file = secrets(small_game, "  Lucien Fabr: lucien@example.org\n")
    with pytest.raises(GameError) as e:
        load_secrets(file, list(PLAYERS), require_key=False, players=list(PLAYERS.values()))
    assert e.value.problems[0].code == "unknown-player"
    assert "Lucien Fabre" in e.value.problems[0].hint  # unknown-player's fix, tested here once


@pytest.mark.parametrize("good", ["a@example.org", "first.last+tag@sub.example.co.uk", "o'neil@example.ie",
                                  "x_y-z@xn--bcher-kva.example"])
def test_ordinary_addresses_pass(good):
    assert address_problem(good) == ""


@pytest.mark.parametrize("bad", ["a@example.org ", "a..b@example.org", ".a@example.org", "a@-x.org", "a@x..org",
                                 "a@example.org,b@example.org", "a@exämple.org", "a" * 250 + "@example.org"])
def test_unusual_forms_are_refused(bad):
    assert address_problem(bad)


def test_a_demonstration_secrets_file_holds_example_addresses_only(small_game, capsys):
    def demo(address: str) -> None:
        write_game(small_game, {"game.yml": GAME_YML + "demo_secrets: true\n",
                                "secrets.yml": f"demo: true\naddresses:\n  Lucien Fabre: {address}\n"})

    demo("lucien@example.org")
    assert main(["check", str(small_game)]) == 0
    demo("lucien@gmail.com")
    capsys.readouterr()
    assert main(["check", str(small_game)]) == 1
    assert "[secrets-committed]" in capsys.readouterr().err


def test_a_secrets_file_with_addresses_in_git_is_an_error(small_game, capsys):
    secrets(small_game, "  Lucien Fabre: lucien@example.org\n")
    run = {"cwd": small_game, "check": True, "capture_output": True}
    subprocess.run(["git", "init", "-q"], **run)
    subprocess.run(["git", "add", "-f", "secrets.yml"], **run)
    assert main(["check", str(small_game)]) == 1
    assert "[secrets-committed]" in capsys.readouterr().err
