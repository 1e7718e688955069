"""The one writer of game folders, and the game folders several test modules share.

`write_game` writes (or adds to) a game folder from {file name: content}: text (YAML written
inline in a test is dedented), bytes (written as they are: broken encodings, exact bytes) or a
`Special` (what a hostile folder holds instead of a file: a FIFO, a link, ...). Every test
that makes a game folder, or changes a file in one, does it with `write_game`.
"""

from __future__ import annotations

import enum
import os
import textwrap
from pathlib import Path


class Special(enum.Enum):
    """What a hostile game folder may hold in place of a regular file."""

    FIFO = "a named pipe"
    DIRECTORY = "a directory"
    LINK_OUT = "a symlink to a file outside the game folder"
    HUGE = "a file larger than any game file should be"
    LOOP = "a symlink to itself"
    DEVICE = "a symlink to /dev/zero, which reads without end"
    DANGLING = "a symlink to nothing"


def write_game(path: Path, files: dict[str, str | bytes | Special], outside: Path | None = None) -> Path:
    """Write the game folder at `path` (made if missing, its other files kept) from {file name:
    content} and return it. Text is written as it is, in UTF-8, unless it starts with a newline or
    an indent, as YAML written inline in a test does: then it is dedented and its leading newlines
    dropped. Bytes are written as they are; a `Special` makes what it names (a `Special.LINK_OUT`
    links to a file written in `outside`, by default the folder's parent)."""
    path.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        target = path / name
        if isinstance(content, Special):
            _special(target, content, outside or path.parent)
        elif isinstance(content, bytes):
            target.write_bytes(content)
        else:
            if content[:1].isspace():  # a block written inline in a test
                content = textwrap.dedent(content).lstrip("\n")
            target.write_text(content, encoding="utf-8")
    return path


def reveal_now(folder: Path) -> Path:
    """The GM reveals a running hidden game: `reveal: now` added to its game.yml."""
    game_yml = (folder / "game.yml").read_text(encoding="utf-8")
    return write_game(folder, {"game.yml": game_yml + "reveal: now\n"})


def _special(path: Path, what: Special, outside: Path) -> None:
    if what is Special.FIFO:
        os.mkfifo(path)
    elif what is Special.DIRECTORY:
        path.mkdir()
        (path / "1901-spring.yml").write_text("orders: {}\n", encoding="utf-8")
    elif what is Special.LINK_OUT:
        target = outside / f"{path.parent.name}-outside.yml"
        target.write_text("orders:\n  England: [F Lon - NTH]\npress: from outside the game folder\n", encoding="utf-8")
        path.symlink_to(target)
    elif what is Special.HUGE:
        path.write_bytes(b"orders:\n  England: [F Lon - NTH]\npress: |\n" + b"  blah blah blah\n" * 200_000)
    elif what is Special.LOOP:
        path.symlink_to(path.name)
    elif what is Special.DEVICE:
        path.symlink_to("/dev/zero")
    elif what is Special.DANGLING:
        path.symlink_to("nothing-here.yml")


# --------------------------------------------------------------------------- a standard game's game.yml

#: game.yml of a standard game, seven players (the `make_game` fixture's)
GAME_YML = """
title: Test Game
gm: Grace
players:
  Austria: Anna
  England: Ed
  France: Fran
  Germany: Gus
  Italy: Ida
  Russia: Rus
  Turkey: Tom
"""

# --------------------------------------------------------------------------- the test archive

#: players whose names need escaping on a page
PLAYERS = """
players:
  Austria: Alice & Co
  England: Bob
  France: Chloé
  Germany: Dieter
  Italy: Elena
  Russia: <b>Fyodor</b>
  Turkey: Gül
"""

#: a finished game (a draw), with press and notes in Markdown and HTML
ALPHA = {
    "game.yml": "title: The Alpha Game\ngm: Grace <GM> Hopper\ndescription: A short **test** game.\n" + PLAYERS
                + "end: {draw: [France, Turkey], phase: 1902-spring}\n",
    "1901-spring.yml": """
        orders:
          Austria: [A Vie - Gal, A Bud - Ser, F Tri - Alb]
          England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]
          France: [A Par - Bur, A Mar - Spa, F Bre - MAO]
          Germany: [A Ber - Kie, A Mun - Ruh, F Kie - Den]
          Italy: [A Ven H, A Rom - Apu, F Nap - ION]
          Turkey: [F Ank - BLA, A Smy - Arm, A Con - Bul]
        press: |
          **Rome:** We come in peace. <em>Honestly.</em>

          * nobody believes Rome
        notes: Russia sent no orders; its units *hold*.
        """,
    "1901-fall.yml": """
        orders:
          Austria: [A Ser H, F Alb - Gre, A Gal H]
          England: [F NWG - Nwy, F NTH C A Yor - Bel, A Yor - Bel]
          France: [A Spa H, F MAO - Por, A Bur H]
          Germany: [A Kie - Hol, A Ruh - Bel, F Den H]
          Italy: [A Ven H, A Apu - Tun, F ION C A Apu - Tun]
          Russia: [F Sev H, A War H, A Mos - Ukr, F StP/sc - Bot]
          Turkey: [F BLA - Sev, A Arm S F BLA - Sev, A Bul H]
        """,
    "1901-fall-retreats.yml": "orders:\n  Russia: [F Sev - Rum]\n",
    "1901-winter.yml": """
        orders:
          Austria: [Build A Vie, Build A Bud]
          England: [Build F Lon]
          Germany: [Build A Ber, Build F Kie]
          France: [Build A Par, Build F Mar]
          Italy: [Build F Nap]
        """,
    "1902-spring.yml": "orders:\n  Austria: [A Vie - Tyr]\n  Italy: [A Ven - Tyr]\n",
}

#: a running game
BRAVO = {
    "game.yml": "title: Bravo, still running\ngm: Hank\n" + PLAYERS,
    "1901-spring.yml": ALPHA["1901-spring.yml"],
}

#: a game not yet started
NEW = {"game.yml": "title: Charlie (not started)\ngm: Ivy\n" + PLAYERS}

#: the test archive: a finished game, a running game and one not yet started, by slug
ARCHIVE = {"alpha": ALPHA, "bravo": BRAVO, "charlie": NEW}

# --------------------------------------------------------------------------- Taskdip

#: secrets.yml of a two-player Taskdip game: the seed's own game start (Austria's Eight redrawn)
TASKDIP_LOTS = """\
    lots:
      powers:
        Andreas: [Austria, Italy]
        Katja: [Turkey, Germany]
      tasks:
        Austria: [Eight, Nine]
        Italy: Eight
        Turkey: Seven
        Germany: Nine
    """
