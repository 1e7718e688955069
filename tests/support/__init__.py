"""What the tests share: one writer of game folders, one loader, one site builder.

Every test that needs a game folder writes it with `write_game`; every test that needs a game
takes it as the build does (`load`, `loaded`: `dipgen.io.load.load_checked`, secrets.yml read once);
every test that needs a site makes it with `public_site` (in memory, from the views the build
publishes) or `build` (a whole MkDocs build of a project made by `make_project`).
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from dipgen.adapters.games import Loaded, load_checked
from dipgen.adapters.publish import editions, game_files
from dipgen.play.records import History
from dipgen.present.report import phase_report
from dipgen.present.site.pages import SiteOptions, archive_page, build_site, shared_files
from dipgen.view import GameView, game_view

REPO = Path(__file__).resolve().parent.parent.parent
SHARED = REPO.parent / "shared"


def write_game(path: Path, files: dict[str, str]) -> Path:
    """Write a game folder at `path` from {filename: yaml text} (dedented) and return it."""
    path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (path / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def loaded(path: Path | str) -> Loaded:
    """The game in `path` as the build takes it (History, secrets, demo secrets)."""
    return load_checked(Path(path))


def load(path: Path | str) -> History:
    """The History of the game in `path`, as the build replays it (its secrets.yml included)."""
    return load_checked(Path(path)).history


def public_site(history: History, options: SiteOptions | None = None) -> dict[str, str]:
    """Every file the game adds to a public site but its private pages, in memory: its pages and maps
    (and its full edition's, once revealed), its draws, the archive and the shared files."""
    return build_site([editions(Loaded(history))], options)


def site_files(game: Loaded, options: SiteOptions | None = None) -> dict[str, str]:
    """Every file one game adds to a site, its private pages included (`dipgen.adapters.publish.game_files`),
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


def make_project(root: Path, slugs: list[str], games: Path | None = None) -> Path:
    """A site project at `root`: this repository's mkdocs.yml and site_src, and the named games
    (from `games`, by default the example games)."""
    root.mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site_src", root / "site_src")
    for slug in slugs:
        shutil.copytree((games or REPO / "games") / slug, root / "games" / slug)
    return root


def build(project: Path) -> Path:
    """`mkdocs build --strict` of `project`, in this process (so a test can change the generator)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    cfg = load_config(str(project / "mkdocs.yml"), strict=True)
    mkdocs_build(cfg)
    return project / "site"


def game_report(history: History, phase=None) -> str:
    """The game report a GM e-mails everyone (`dipgen adjudicate`): the public's while a hidden game
    runs, everything otherwise."""
    from dipgen.present.report import report_level
    from dipgen.view import revealed

    return report(history, report_level(revealed(history)), phase)
