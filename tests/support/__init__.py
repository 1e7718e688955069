"""What the tests share: one writer of game folders, one loader, one site builder.

Every test that needs a game folder writes it with `write_game` (support/folders.py, with the
folders several modules share: the test archive, a standard game.yml); every test that needs a
game takes it as the build does (`load`, `loaded`: `dipgen.usecases.games.load_checked`,
secrets.yml read once); every test that needs a site makes it with `public_site` (in memory, from
the views the build publishes) or `build` (a whole MkDocs build, in this process, of a project
made by `make_project`). `mkdocs_command` runs the command itself, for the tests of what it
prints. No test module imports another: what two modules share lives here (browser.py: the
browser tests' server and pages; pairs.py: hidden games differing in one fact; fuzz.py: hostile
game folders; golden.py: the golden files).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from dipgen.usecases.games import Loaded, load_checked
from dipgen.usecases.publish import editions, game_files
from dipgen.play.records import History
from dipgen.present.report import phase_report
from dipgen.present.site.card import GameCard
from dipgen.present.site.pages import SiteOptions, archive_page, build_site, game_card, shared_files
from dipgen.view import GameView, game_view

from .folders import (ALPHA, ARCHIVE, BRAVO, GAME_YML, NEW, PLAYERS, TASKDIP_LOTS, Special,  # noqa: F401
                      reveal_now, write_game)

REPO = Path(__file__).resolve().parent.parent.parent
SHARED = REPO.parent / "shared"
GAMES = REPO / "games"


def loaded(path: Path | str) -> Loaded:
    """The game in `path` as the build takes it (History, secrets, demo secrets)."""
    return load_checked(Path(path))


def load(path: Path | str) -> History:
    """The History of the game in `path`, as the build replays it (its secrets.yml included)."""
    return load_checked(Path(path)).history


def card(path: Path | str, options: SiteOptions | None = None) -> GameCard:
    """The card of the game in `path`, as a build makes it (from its public edition's view)."""
    return game_card(editions(loaded(path))[0], options or SiteOptions())


def public_site(history: History, options: SiteOptions | None = None) -> dict[str, str]:
    """Every file the game adds to a public site but its private pages, in memory: its pages and maps
    (and its full edition's, once revealed), its draws, the archive and the shared files."""
    return build_site([editions(Loaded(history))], options)


def site_files(game: Loaded, options: SiteOptions | None = None) -> dict[str, str]:
    """Every file one game adds to a site, its private pages included (`dipgen.usecases.publish.game_files`),
    with the archive and the shared files."""
    options = options or SiteOptions()
    public, _ = editions(game)
    out = game_files(game, options)
    out.update(archive_page([public], options))
    out.update(shared_files([public]))
    return out


def report(history: History, level: str = "gm", phase=None) -> str:
    """The report of `phase` (default: the level's latest) as `level` is sent it."""
    view = game_view(history, level)
    record = view.records[-1] if phase is None else view.record(phase)
    return phase_report(view, record)


def view(history: History, level: str = "public") -> GameView:
    return game_view(history, level)


def histories(project: Path) -> list[History]:
    """The History of every game in the project's games/, by folder name."""
    return [load(p) for p in sorted((project / "games").iterdir())]


# --------------------------------------------------------------------------- the site builder

#: the dipgen plugin's options in every test project unless the test says otherwise: the games made in
#: the test's own process (pytest-xdist already runs a test on each core, where a pool of processes
#: per build costs more than it gains; tests/test_parallel_games.py builds with the pool and shows
#: the site the same)
TEST_PLUGIN: dict[str, str | int] = {"workers": 1}


def make_project(root: Path, examples=(), games: dict[str, dict] | None = None, source: Path = GAMES,
                 plugin: dict[str, str | int] | None = None) -> Path:
    """A site project at `root`, as in a clean checkout: this repository's mkdocs.yml and
    site_src, the example games named in `examples` (copied from `source`, by default games/)
    and the games given as files in `games` ({slug: {file name: content}}, by `write_game`).
    `plugin`: options of the dipgen plugin set in its mkdocs.yml over `TEST_PLUGIN` (``search:
    material`` for a test that reads Material's index, or compares a build with what `mkdocs serve`
    makes, which is Material's index either way; ``workers: 2`` for a test of the games made on
    several processes)."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    set_plugin_options(root, **{**TEST_PLUGIN, **(plugin or {})})
    shutil.copytree(REPO / "site_src", root / "site_src")
    for slug in examples:
        shutil.copytree(source / slug, root / "games" / slug)
    for slug, files in (games or {}).items():
        write_game(root / "games" / slug, files)
    return root


def set_plugin_options(project: Path, **options: str | int | bool) -> Path:
    """Set options of the dipgen plugin in `project`'s mkdocs.yml (``search="material"``,
    ``workers=1``, ``speed=False``), before its build or between two, each in the place of the one it
    replaces; returns the project."""
    import re

    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "  - dipgen:\n" in text
    for key, value in options.items():
        line = f"      {key}: {str(value).lower() if isinstance(value, bool) else value}\n"
        text, replaced = re.subn(rf"(?m)^      {re.escape(key)}: .*\n", line, text)
        if not replaced:
            text = text.replace("  - dipgen:\n", "  - dipgen:\n" + line)
    config.write_text(text, encoding="utf-8")
    return project


def site_config(project: Path, **options):
    """The project's MkDocs configuration, read as MkDocs reads it (`options` as on the command line:
    strict=True, site_dir=...), for a test that keeps it across builds or reads it after one."""
    from mkdocs.config import load_config

    return load_config(str(project / "mkdocs.yml"), **options)


def build(project, *, dirty: bool = False, serve_url: str | None = None) -> Path:
    """`mkdocs build --strict` of the project in folder `project`, in this process (so that a test
    can change the generator), or the build of a configuration made by `site_config` (as `mkdocs
    serve` rebuilds, with `serve_url`); returns the site folder."""
    from mkdocs.commands.build import build as mkdocs_build

    config = site_config(project, strict=True) if isinstance(project, (str, Path)) else project
    mkdocs_build(config, dirty=dirty, serve_url=serve_url)
    return Path(config.site_dir)


def built_once(factory, examples=(), games: dict[str, dict] | None = None) -> Path:
    """The project `make_project(examples=examples, games=games)` makes, built (`build`) once for the
    whole test run and shared by every test module that reads the same site, in whichever pytest-xdist
    worker it runs: the fixture of each such module calls this with `tmp_path_factory`. Returns the
    project; its site is `project / "site"`. The tests that take it only read it: a test that changes
    the project or the site makes its own (`make_project`, `build`) or copies this one.

    The project lives in the run's temporary folder (the one the workers' own folders are in), under
    a name made from the inputs; the first worker to ask builds it while holding a lock, the others
    wait for it and then read it. A build that fails leaves no mark, and the next to ask builds again."""
    import fcntl
    import hashlib
    import json

    key = hashlib.sha256(json.dumps([sorted(examples), games or {}], sort_keys=True).encode()).hexdigest()[:16]
    base = factory.getbasetemp()
    run = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the folder the workers share
    folder = run / "built-once" / key
    folder.mkdir(parents=True, exist_ok=True)
    project, done = folder / "project", folder / "built"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, by the build's end or its failure
        if not done.exists():
            shutil.rmtree(project, ignore_errors=True)  # what a failed build left
            build(make_project(project, examples, games))
            done.touch()
    return project


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now (for a server a test starts)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mkdocs_command(project: Path, *args: str) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` (or `mkdocs ARGS`) run as a GM runs it, in `project`: for the tests of
    what the command prints and returns, where building in this process would not show it."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "mkdocs", *(args or ("build", "--strict"))], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)


def game_report(history: History, phase=None) -> str:
    """The game report a GM e-mails everyone (`dipgen adjudicate`): the public's while a hidden game
    runs, everything otherwise."""
    from dipgen.present.report import report_level
    from dipgen.view import revealed

    return report(history, report_level(revealed(history)), phase)
