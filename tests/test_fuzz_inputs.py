"""No input breaks dipgen: hostile game folders (tests/support/fuzz.py) fed to `dipgen check` and
`dipgen adjudicate` end with exit status 0 or 1, never a traceback or a hang, and every
message names a file of the game."""

import subprocess
import sys
import unicodedata

from hypothesis import event, given

from dipgen.cli import main
from support import REPO, Special, write_game
from support.fuzz import ALIAS_BOMB, EXAMPLES, FUZZ, deep, game_folders, games_trees, time_limit, write_games

LIMIT = 30  # seconds; a hang, not a slow run


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    with time_limit(LIMIT):
        status = main(list(args))
    out, err = capsys.readouterr()
    assert_terminal_safe(out + err)
    return status, err


def assert_terminal_safe(text: str) -> None:
    """Nothing a terminal would act on (an escape sequence, a carriage return, a bidirectional
    override) and nothing that is not Unicode reaches the terminal from a game file."""
    unsafe = [c for c in text if (unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\t")
              or "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069"]
    assert not unsafe, unsafe


def assert_clean(status: int, err: str, where) -> None:
    assert status in (0, 1), err
    assert "Traceback" not in err
    assert "datetime." not in err, "Python's notation shown to the GM"
    assert " object at 0x" not in err, "Python's notation shown to the GM"
    if status == 1:
        assert err.strip(), "exit status 1 without a word"
    for line in err.splitlines():
        if line.strip() and not line.startswith(" "):  # hints are indented under their problem
            assert line.startswith(str(where)), f"a message that names no file of the game: {line!r}"


@FUZZ
@given(spec=game_folders())
def test_check_and_adjudicate_survive_hostile_game_folders(tmp_path_factory, capsys, spec):
    folder = write_game(tmp_path_factory.mktemp("fuzz") / "game", spec)
    for args in (("check", str(folder)), ("adjudicate", str(folder)), ("adjudicate", str(folder), "--full")):
        status, err = run(capsys, *args)
        event(f"{args[0]}: exit status {status}")
        assert_clean(status, err, folder)


@FUZZ
@given(tree=games_trees())
def test_check_survives_hostile_games_folders(tmp_path_factory, capsys, tree):
    root = write_games(tmp_path_factory.mktemp("fuzz") / "games", tree)
    status, err = run(capsys, "check", str(root))
    assert_clean(status, err, root)


def test_check_as_a_subprocess_never_hangs_or_shows_a_traceback(tmp_path):
    spec = {"game.yml": EXAMPLES["winter-palace"]["game.yml"].encode(),
            "1901-spring.yml": Special.FIFO,
            "1901-fall.yml": f"orders:\n  England: []\npress: {deep(100_000)}\n".encode(),
            "1901-winter.yml": (ALIAS_BOMB + "orders: {England: []}\npress: *i\n").encode()}
    folder = write_game(tmp_path / "game", spec)
    done = subprocess.run([sys.executable, "-m", "dipgen.cli", "check", str(folder)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert_clean(done.returncode, done.stderr, folder)
    assert done.returncode == 1
