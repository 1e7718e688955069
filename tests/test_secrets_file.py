"""secrets.yml as the GM keeps it: `dipgen secrets` edits it in place (her comments and layout
stay), `dipgen check` finds a passphrase shared by two powers, and a hostile file is an error
with file and line, never a crash."""

from __future__ import annotations

import difflib
import os
import re
import shutil
from pathlib import Path

import pytest

from dipgen.rules.draws import commitment

from dipgen.cli import main
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.io.secretsfile import load_secrets
from dipgen.io.yamlfile import read_text
from support import Special, write_game

REPO = Path(__file__).resolve().parent.parent
RUNNING = "lamps-out"  # a running hidden game: it has private pages

# Comments everywhere a GM might put one; 4-space indentation, a single-quoted value, a blank
# line inside the table, keys dipgen does not write itself. France has no passphrase yet.
GM_FILE = """\
# Secrets of lamps-out. Kept on my laptop only!

# rotated in March, after the leak
page_key: "9f1c0e5a9f1c0e5a9f1c0e5a9f1c0e5a9f1c0e5a9f1c0e5a9f1c0e5a9f1c0e5a"   # do not share

passphrases:
    # Hugh asked for a new one on 3 March
    Austria: "k7mq2-vx9ra-d4hte-8wnpc"    # sent by post
    England: 'r3nvz-hq8ke-w2mxa-7tjdp'

    Germany: "j6wqe-zk3mv-p9hra-c4xnt"
    # Italy's player changed in 1903
    Italy: "q8hzm-e3wkv-x6rpa-t2njd"
    Russia: "u5ekx-n9qzh-a3wrm-v7pjc"   # Rus
    Turkey: "x4mhr-y8wka-z3enq-d6vtp"
# the seed decides the lots
seed: "b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1b7e1"   # never change it mid-game
# end of file
"""

PHRASE = re.compile(r"""(["'])[a-z2-9]{5}(?:-[a-z2-9]{5}){3}\1""")
KEY = re.compile(r'"[0-9a-f]{64}"')


def masked(text: str) -> str:
    """The file with every passphrase and the page key replaced by a placeholder."""
    return KEY.sub("<KEY>", PHRASE.sub("<PHRASE>", text))


@pytest.fixture
def game(tmp_path) -> Path:
    folder = tmp_path / "games" / RUNNING
    shutil.copytree(REPO / "games" / RUNNING, folder)
    # GM_FILE's seed, committed to as `dipgen secrets` does before the first phase
    game_yml = (folder / "game.yml").read_text(encoding="utf-8")
    return write_game(folder, {"game.yml": game_yml + f'seed_sha256: "{commitment(bytes.fromhex("b7e1" * 16))}"\n'})


def powers(folder: Path) -> list[str]:
    return load_game(folder).variant.rules.powers()


def test_secrets_command_keeps_the_gms_comments_and_layout(game, capsys):
    file = write_game(game, {"secrets.yml": GM_FILE}) / "secrets.yml"
    comments = [line for line in GM_FILE.splitlines() if line.lstrip().startswith("#") or " # " in line]
    assert len(comments) >= 7

    # a power with no passphrase gets one: one line added, at the end of the table, nothing else moves
    assert main(["secrets", str(game)]) == 0
    text = file.read_text(encoding="utf-8")
    added = [line for line in difflib.ndiff(GM_FILE.splitlines(), text.splitlines()) if line[:1] in "+-"]
    assert len(added) == 1, added
    assert re.fullmatch(r'\+     France: "[a-z2-9-]{23}"', added[0]), added
    assert text.splitlines().index(added[0][2:]) == GM_FILE.splitlines().index("# the seed decides the lots")
    first = load_secrets(file, powers(game))
    assert first.passphrases["Austria"] == "k7mq2-vx9ra-d4hte-8wnpc"
    assert first.extra == {"seed": "b7e1" * 16}

    # --new England: only England's value changes, its quotes and the rest of the file stay
    before = text
    assert main(["secrets", str(game), "--new", "England"]) == 0
    text = file.read_text(encoding="utf-8")
    assert masked(text) == masked(before)
    assert text != before
    changed = [(a, b) for a, b in zip(before.splitlines(), text.splitlines(), strict=True) if a != b]
    assert len(changed) == 1
    assert changed[0][0].startswith("    England: '")
    assert changed[0][1].startswith("    England: '")
    second = load_secrets(file, powers(game))
    assert second.passphrases["England"] != first.passphrases["England"]
    assert {p: v for p, v in second.passphrases.items() if p != "England"} == {
        p: v for p, v in first.passphrases.items() if p != "England"}

    # --new-page-key: only the key's value changes, its comment stays on its line
    before = text
    assert main(["secrets", str(game), "--new-page-key"]) == 0
    text = file.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), text.splitlines(), strict=True) if a != b]
    assert masked(text) == masked(before)
    assert len(changed) == 1
    assert changed[0][1].startswith('page_key: "')
    assert changed[0][1].endswith('"   # do not share')
    assert load_secrets(file, powers(game)).page_key != second.page_key
    for line in comments:  # every comment of the GM's, word for word
        assert line.strip().partition("#")[2] in text


def test_an_empty_table_and_a_missing_key_are_filled_in_place(game):
    file = write_game(game, {"secrets.yml": "# mine\npassphrases:   # to do\n# more to come\n"}) / "secrets.yml"
    assert main(["secrets", str(game)]) == 0
    text = file.read_text(encoding="utf-8")
    for line in ("# mine", "# to do", "# more to come"):
        assert line in text
    assert sorted(load_secrets(file, powers(game)).passphrases) == sorted(powers(game))


def test_a_passphrase_shared_by_two_powers_is_an_error_in_check(game, capsys, monkeypatch):
    monkeypatch.chdir(game.parent.parent)
    file = game / "secrets.yml"
    # the same passphrase for Germany and Russia (the second with a stray space: the same once typed)
    write_game(game, {"secrets.yml": GM_FILE.replace("u5ekx-n9qzh-a3wrm-v7pjc", " j6wqe-zk3mv-p9hra-c4xnt")
                      .replace("    Turkey:", '    France: "f9zkw-m3hxe-q7rna-v2jpc"\n    Turkey:')})
    assert main(["check", f"games/{RUNNING}"]) == 1
    err = capsys.readouterr().err
    assert f"games/{RUNNING}/secrets.yml:14: error: " in err
    assert "[same-passphrase]" in err
    assert "Russia has the same passphrase as Germany (line 11)" in err  # the words, tested here once
    assert f"hint: run 'dipgen secrets games/{RUNNING} --new Russia'" in err
    assert "j6wqe" not in err  # never a passphrase in a message
    # the fix the message gives works, and touches only Russia's line
    before = file.read_text(encoding="utf-8")
    assert main(["secrets", f"games/{RUNNING}", "--new", "Russia"]) == 0
    after = file.read_text(encoding="utf-8")
    changed = [b for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]
    assert changed[0].startswith("    Russia: ")
    capsys.readouterr()
    assert main(["check", f"games/{RUNNING}"]) == 0
    # without --new for one of them, the command refuses and says how
    write_game(game, {"secrets.yml": before})
    assert main(["secrets", f"games/{RUNNING}"]) == 1
    assert "--new Russia" in capsys.readouterr().err
    assert file.read_text(encoding="utf-8") == before


HOSTILE = {
    "a list": "- England\n- France\n",
    "a number": "12\n",
    "passphrases as a list": 'page_key: "' + "ab" * 32 + '"\npassphrases: [a, b]\n',
    "a number as a passphrase": 'page_key: "' + "ab" * 32 + '"\npassphrases:\n  England: 12345678901234567890\n',
    "a mapping as a key": "? {a: 1}\n: x\n",
    "a list of mappings as a key": "? [{a: 1}]\n: x\n",
    "a key as a list": "page_key: [1, 2]\n",
    "a python tag": "!!python/object/apply:os.system [echo]\n",
    "deep": "[" * 100_000,
    "deep, closed": "[" * 900 + "]" * 900,
    "deep mappings": "a: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
    "huge": "# " + "x" * (2 << 20) + "\n",
    "not UTF-8": b"page_key: \xff\xfe\n",
    "binary": bytes(range(256)),
}


@pytest.fixture
def small_game(tmp_path) -> Path:
    """A hidden game not yet started: quick to read."""
    players = "".join(f"  {p}: Player {p}\n" for p in powers(REPO / "games" / RUNNING))
    return write_game(tmp_path / "games" / "small",
                      {"game.yml": f"title: Small\nvariant: stab\ngm: Grace\nplayers:\n{players}"})


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_a_hostile_secrets_file_is_an_error_never_a_crash(small_game, what, capsys):
    content = HOSTILE[what]
    file = write_game(small_game, {"secrets.yml": content if isinstance(content, bytes) else content.encode()}) \
        / "secrets.yml"
    with pytest.raises(GameError) as e:
        load_secrets(file, powers(small_game))
    assert all(p.file.endswith("secrets.yml") and p.message for p in e.value.problems)
    for command in (["check", str(small_game)], ["secrets", str(small_game)]):  # the commands that read it
        capsys.readouterr()
        assert main(command) == 1
        assert "secrets.yml" in capsys.readouterr().err
    if not isinstance(content, bytes):
        assert file.read_text(encoding="utf-8") == content  # never rewritten


KEY_LINE = 'page_key: "' + "ab" * 32 + '"'
LAYOUTS = {
    "flow style": KEY_LINE + '\npassphrases: {England: "r3nvz-hq8ke-w2mxa-7tjdp"}  # flow\n',
    "document start": "---\n# top\n" + KEY_LINE + '\npassphrases:\n  England: "r3nvz-hq8ke-w2mxa-7tjdp"\n',
    "CRLF": "# top\r\n" + KEY_LINE + '\r\npassphrases:\r\n  England: "r3nvz-hq8ke-w2mxa-7tjdp"  # e\r\n# end\r\n',
    "byte order mark": "\ufeff# top\n" + KEY_LINE + '\npassphrases:\n  England: "r3nvz-hq8ke-w2mxa-7tjdp"\n',
    "comments only": "# nothing here yet\n# really\n",
    "an empty flow table": KEY_LINE + "\npassphrases: {}   # none\n",
    "a lower-case power": KEY_LINE + '\npassphrases:\n  england: "r3nvz-hq8ke-w2mxa-7tjdp"  # hers\n',
    "no page key": 'passphrases:\n  England: "r3nvz-hq8ke-w2mxa-7tjdp"\n# tail\n',
    "no final newline": KEY_LINE + '\npassphrases:\n  England: "r3nvz-hq8ke-w2mxa-7tjdp"  # last',
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_odd_layouts_are_completed_in_place(small_game, layout):
    before = LAYOUTS[layout]
    file = write_game(small_game, {"secrets.yml": before.encode("utf-8")}) / "secrets.yml"
    assert main(["secrets", str(small_game), "--new", "England"]) == 0
    after = file.read_bytes().decode("utf-8")
    secrets = load_secrets(file, powers(small_game))
    assert sorted(secrets.passphrases) == sorted(powers(small_game))
    assert secrets.passphrases["England"] != "r3nvz-hq8ke-w2mxa-7tjdp"
    for comment in re.findall(r"#[^\r\n]*", before):
        assert comment in after
    assert after.startswith("\ufeff") == before.startswith("\ufeff")
    assert after.count("\r\n") == (after.count("\n") if "\r\n" in before else 0)


def test_an_edit_that_went_wrong_is_never_written(small_game, monkeypatch, capsys):
    import dipgen.io.secretsfile

    file = write_game(small_game, {"secrets.yml": GM_FILE}) / "secrets.yml"
    monkeypatch.setattr(dipgen.io.secretsfile, "_append", lambda mapping, key, value: None)  # France is never added
    assert main(["secrets", str(small_game)]) == 1
    err = capsys.readouterr().err
    assert "[edit-failed]" in err
    assert "editing the file in place went wrong" in err  # the words, tested here once
    assert file.read_text(encoding="utf-8") == GM_FILE


# ---------------------------------------------------------------- what still broke things (issue 21, section 4)

def _commands(folder: Path):
    return [["check", str(folder)], ["adjudicate", str(folder)], ["secrets", str(folder)]]


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_secrets_yml_that_is_no_file_is_refused_before_it_is_opened(small_game, capsys, kind):
    """A FIFO would block every command on open; /dev/zero would be read without end (a link to
    it leads out of the game folder, and says so first; a device itself is refused as one). The
    commands run as processes with a memory limit: reading /dev/zero whole is not a hang that an
    alarm can stop, it fills the memory."""
    import resource
    import subprocess
    import sys

    from support.fuzz import time_limit

    if kind != "fifo" and not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    write_game(small_game, {"secrets.yml": Special.FIFO if kind == "fifo" else Special.DEVICE})
    if kind != "fifo":
        with time_limit(20), pytest.raises(GameError) as e:
            read_text(Path("/dev/zero"))
        assert [p.code for p in e.value.problems] == ["not-a-file"]

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    for command in _commands(small_game):
        done = subprocess.run([sys.executable, "-m", "dipgen.cli", *command], cwd=REPO, capture_output=True,
                              text=True, timeout=60, preexec_fn=limited)
        assert done.returncode == 1, (command, done.stderr)
        assert f"{small_game}/secrets.yml: error: " in done.stderr, (command, done.stderr)
        assert ("this is a named pipe (FIFO)" if kind == "fifo" else "a link to /dev/zero, outside the game") \
            in done.stderr


def test_a_weak_passphrase_is_refused_and_the_fix_works(small_game, capsys):
    folder = write_game(small_game, {"secrets.yml": KEY_LINE + '\npassphrases:\n  England: "aaaaaaaaaaaaaaaa"\n'
                                     '  France: "abcdefghijklmnop"\n  Italy: "Gondolas at dusk, 1901!"\n'})
    file = folder / "secrets.yml"
    with pytest.raises(GameError) as e:
        load_secrets(file, powers(small_game))
    found = {p.line: p for p in e.value.problems}
    assert sorted(found) == [3, 4]  # Italy's, her own choice, is fine
    assert found[3].code == "weak-passphrase"
    assert "England's passphrase is too easy to guess: about 5 bits" in found[3].message  # the words, tested here once
    assert "--new England" in found[3].hint
    assert "aaaa" not in found[3].hint
    assert main(["secrets", str(small_game), "--new", "England", "--new", "France"]) == 0
    assert load_secrets(file, powers(small_game)).passphrases["Italy"] == "Gondolas at dusk, 1901!"


def test_every_passphrase_dipgen_makes_passes_its_own_check(monkeypatch):
    import dipgen.io.secretsfile as s

    assert all(s.strength(s.generate_passphrase()) >= s.MIN_BITS for _ in range(20_000))
    # a draw the check would refuse (runs and repeats) is drawn again, not handed out
    draws = iter("abcdeabcdeabcdeabcde" + "k7mq2vx9rad4hte8wnpc")
    monkeypatch.setattr(s._random, "choice", lambda alphabet: next(draws))
    assert s.generate_passphrase() == "k7mq2-vx9ra-d4hte-8wnpc"
    assert s.strength("abcde-abcde-abcde-abcde") < s.MIN_BITS <= s.strength("k7mq2-vx9ra-d4hte-8wnpc")


def test_secrets_yml_linked_to_another_game_s_is_refused(tmp_path, small_game, capsys):
    other = tmp_path / "games" / "other"
    shutil.copytree(small_game, other)
    assert main(["secrets", str(other)]) == 0
    (small_game / "secrets.yml").symlink_to("../other/secrets.yml")
    before = (other / "secrets.yml").read_bytes()
    for command in _commands(small_game):
        capsys.readouterr()
        assert main(command) == 1
        err = capsys.readouterr().err
        assert f"{small_game}/secrets.yml: error: " in err, err
        assert "[link-outside]" in err, err
    assert (other / "secrets.yml").read_bytes() == before  # never edited through the link
    (small_game / "secrets.yml").unlink()
    (small_game / "secrets.yml").symlink_to(".my-secrets.yml")  # a link inside the folder is the game's own
    shutil.copy(other / "secrets.yml", small_game / ".my-secrets.yml")
    shutil.copy(other / "game.yml", small_game / "game.yml")  # the commitment to its seed (the record's salt)
    os.unlink(other / "secrets.yml")
    capsys.readouterr()
    assert main(["check", str(small_game)]) == 0, capsys.readouterr().err


def test_one_secrets_yml_shared_by_two_games_is_refused(tmp_path, small_game, capsys):
    """A hard link (or a game folder that is a link to another): each game's players could open
    the other's pages. `dipgen check` names both games' files, whether it checks both games or
    only one of them."""
    other = tmp_path / "games" / "other"
    shutil.copytree(small_game, other)
    assert main(["secrets", str(small_game)]) == 0
    os.link(small_game / "secrets.yml", other / "secrets.yml")
    for named, games in (([str(tmp_path / "games")], (small_game, other)), ([str(other)], (other,)),
                         ([str(small_game)], (small_game,))):
        capsys.readouterr()
        assert main(["check", *named]) == 1
        err = capsys.readouterr().err
        for game in games:
            mate = small_game if game == other else other
            assert f"{game}/secrets.yml: error: this secrets.yml is the same file as {mate}/secrets.yml" in err, err
        assert "[shared-secrets]" in err
        assert "run 'dipgen secrets <that game's folder>'" in err


def test_a_broken_secrets_yml_is_reported_with_the_game_s_errors(small_game, capsys):
    write_game(small_game, {"1901-spring.yml": "orders:\n  France: [A Par - Spq]\n",
                            "secrets.yml": KEY_LINE + '\npassphrases:\n  Frnace: "k7mq2-vx9ra-d4hte-8wnpc"\n'})
    assert main(["check", str(small_game)]) == 1
    err = capsys.readouterr().err
    assert "1901-spring.yml:2: error: " in err
    assert "[bad-order]" in err
    assert "secrets.yml:3: error: " in err
    assert "[unknown-power]" in err
