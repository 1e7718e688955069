"""dipgen as a GM installs it: a wheel built from this checkout, installed in a fresh venv outside it.

Once per session (it takes a minute: a wheel, a venv, dipgen's dependencies): `dipgen init club`,
`dipgen new`, a first phase, `dipgen check`, `mkdocs build --strict` give a site with the game,
its maps and the rules; the pre-commit hook (the archive's own, and this repository's
.pre-commit-hooks.yaml through `pre-commit try-repo`) passes a good game and stops one with an
unknown province; `dipgen export` builds with ProperDocs and Zensical into the same pages as
MkDocs, and so does the exported example archive, whose season pages a browser opens: maps drawn,
no 404, no console error.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO, write_game
from support.browser import DESKTOP, PHONE, Watched, assert_maps_drawn, browser_test, serve

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent  # the test venv's: pre-commit, properdocs, zensical (requirements-export.txt)
#: what a wheel is built from: the package's sources, the maps, the pages (nothing else of the checkout)
SOURCES = ("pyproject.toml", "setup.py", "README.md", ".pre-commit-hooks.yaml", "dipgen", "svg_templates",
           "site_src")

SPRING = """\
orders:
  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]
  France: [A Par - Bur, A Mar S A Par - Bur, F Bre - MAO]
  Germany: [A Mun - Ruh, F Kie - Den, A Ber - Kie]
press: |
  **Paris to Berlin:** Burgundy is a garden, not a road ([the rules](../../rules/standard.md)).
"""


def run(args, cwd: Path, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, f"{result.args}\n{result.stdout}\n{result.stderr}"
    return result


def _need(tool: str) -> Path:
    path = BIN / tool
    if not path.exists():
        pytest.skip(f"{tool} is not installed (pip install -r requirements-export.txt)")
    return path


class GM:
    """A GM's machine: a venv with dipgen from the wheel, and her archive."""

    def __init__(self, root: Path):
        self.root = root
        self.venv = root / "venv"
        self.env = {**{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")},
                    "PATH": f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                    "NO_MKDOCS_2_WARNING": "1", "PRE_COMMIT_HOME": str(root / "pre-commit-cache"),
                    # pip installs without compiling every module it copies (Python compiles what is
                    # imported, when it is): the GM's venv and pre-commit's, a third of each install;
                    # and her commands write no bytecode (measured: the whole module's CPU 69 s so,
                    # 75 s with her commands writing it, 68 s with that and a compiled install)
                    "PIP_NO_COMPILE": "1", "PYTHONDONTWRITEBYTECODE": "1",
                    "GIT_AUTHOR_NAME": "GM", "GIT_AUTHOR_EMAIL": "gm@example.org",
                    "GIT_COMMITTER_NAME": "GM", "GIT_COMMITTER_EMAIL": "gm@example.org"}
        self.club = root / "work" / "club"

    def __call__(self, *args, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
        return run(args, cwd or self.club, self.env, timeout)


def copy_sources(dest: Path) -> Path:
    """The checkout's sources as they are now (committed or not), to build from outside it."""
    dest.mkdir(parents=True)
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, dest / name)
    return dest


@pytest.fixture(scope="session")
def gm(tmp_path_factory) -> GM:
    root = tmp_path_factory.mktemp("gm")
    machine = GM(root)
    source = copy_sources(root / "dipgen-src")
    ok(run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", root / "dist", source], root))
    wheel = next((root / "dist").glob("dipgen-*.whl"))
    # the venv without a pip of its own, installed into by this one's (seconds of bootstrapping saved)
    ok(run([sys.executable, "-m", "venv", "--without-pip", machine.venv], root))
    ok(machine(sys.executable, "-m", "pip", "--python", machine.venv / "bin" / "python", "install", "-q", wheel,
               "-c", REPO / "requirements.txt", cwd=root, timeout=600))
    (root / "work").mkdir()
    ok(machine("dipgen", "init", "club", cwd=root / "work"))
    ok(machine("dipgen", "new", "first-game", "--gm", "Ann Example"))
    write_game(machine.club / "games" / "first-game", {"1901-spring.yml": SPRING})
    machine.wheel = wheel
    machine.source = source
    return machine


def test_the_wheel_carries_maps_pages_and_templates(gm):
    import zipfile

    names = set(zipfile.ZipFile(gm.wheel).namelist())
    assert {"dipgen/svg_templates/standard/board.svg", "dipgen/svg_templates/standard/layout.json",
            "dipgen/site_src/draws.md", "dipgen/usecases/archive/mkdocs.yml", "dipgen/usecases/archive/pages.yml",
            "dipgen/usecases/archive/site-repo.yml",
            "dipgen/present/site/overrides/main.html"} <= names
    rules = {n.rsplit("/", 1)[1] for n in names if n.startswith("dipgen/site_src/rules/")}
    assert rules == {p.name for p in (REPO / "site_src" / "rules").glob("*.md")}


def test_the_source_distribution_builds_the_same_wheel(gm, tmp_path):
    """A source distribution (what a package index would carry) holds everything: a wheel built
    from it has exactly the files of the wheel built from the checkout."""
    import tarfile
    import zipfile

    ok(run([sys.executable, "setup.py", "-q", "sdist", "-d", tmp_path / "sdist"], copy_sources(tmp_path / "src")))
    sdist = next((tmp_path / "sdist").glob("dipgen-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        assert not [n for n in archive.getnames() if "__pycache__" in n or n.endswith(".pyc")]
    ok(run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "wheel", sdist], tmp_path))
    rebuilt = next((tmp_path / "wheel").glob("dipgen-*.whl"))

    def files(wheel: Path) -> set[str]:
        return {n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n}

    assert files(rebuilt) == files(gm.wheel)


def test_a_new_archive_checks_renders_and_builds_outside_the_checkout(gm):
    club = gm.club
    assert REPO not in club.parents
    where = gm("python", "-c", "import dipgen.resources.folders as r; print(r.shipped('svg_templates'))").stdout
    assert str(gm.venv) in where  # the installed copy, not this checkout
    assert (club / "wheels" / gm.wheel.name).is_file()
    assert f"./wheels/{gm.wheel.name}" in (club / "requirements.txt").read_text(encoding="utf-8").splitlines()
    check = ok(gm("dipgen", "check"))
    assert "games/first-game: ok, 1 phases played, waiting for Fall 1901" in check.stdout
    assert "F Edi - NWG" in ok(gm("dipgen", "adjudicate", "games/first-game")).stdout
    ok(gm("dipgen", "render", "games/first-game", "--phase", "1901-spring", "-o", club / "map.svg"))
    assert (club / "map.svg").read_text(encoding="utf-8").startswith("<svg")
    (club / "map.svg").unlink()
    build = ok(gm("mkdocs", "build", "--strict"))
    assert "end of life" not in build.stderr  # NO_MKDOCS_2_WARNING, as the workflow sets it
    site = club / "site"
    spring = (site / "games" / "first-game" / "1901-spring" / "index.html").read_text(encoding="utf-8")
    assert "Burgundy is a garden" in spring
    assert 'href="../../../rules/standard/"' in spring
    for path in ("games/first-game/maps/1901-spring-orders.svg", "assets/maps/standard.svg",
                 "rules/standard/index.html", "rules/taskdip/index.html", "draws/index.html", "index.html"):
        assert (site / path).is_file(), path
    assert "First Game" in (site / "index.html").read_text(encoding="utf-8")  # the games' cards on her home page
    ok(gm("dipgen", "leaks", "site"))


def _git_repo(folder: Path, gm: GM) -> None:
    ok(gm("git", "init", "-q", "-b", "main", cwd=folder))
    ok(gm("git", "add", "-A", cwd=folder))
    ok(gm("git", "commit", "-q", "-m", "start", cwd=folder))


def test_the_precommit_hook_passes_a_good_game_and_stops_an_unknown_province(gm):
    """This repository's hook as another repository's configuration names it (its address and a
    commit: pre-commit installs dipgen from there into an environment of its own, once, and keeps it),
    and the archive's own configuration (`dipgen init`'s, the dipgen on the PATH)."""
    precommit = _need("pre-commit")
    club = gm.club
    if not (club / ".git").exists():
        _git_repo(club, gm)
    if not (gm.source / ".git").exists():
        _git_repo(gm.source, gm)
    rev = ok(gm("git", "rev-parse", "HEAD", cwd=gm.source)).stdout.strip()
    config = gm.root / "hook-from-the-repository.yaml"
    config.write_text(f"repos:\n  - repo: {gm.source.as_uri()}\n    rev: {rev}\n    hooks:\n      - id: dipgen-check\n",
                      encoding="utf-8")
    from_repo = [precommit, "run", "--config", config]
    good = ok(gm(*from_repo, "--all-files", timeout=600))
    assert "dipgen check" in good.stdout
    assert "Passed" in good.stdout
    assert "games/first-game: ok" in good.stdout  # verbose: what the check said is shown
    assert "Passed" in ok(gm(precommit, "run", "--all-files")).stdout  # the archive's own configuration

    fall = write_game(club / "games" / "first-game", {"1901-fall.yml": "orders:\n  England: [F NTH - Atlantis]\n"}) \
        / "1901-fall.yml"
    try:
        ok(gm("git", "add", fall))
        for args in (from_repo, [precommit, "run"]):  # the files the commit touches
            bad = gm(*args, timeout=600)
            assert bad.returncode == 1, bad.stdout + bad.stderr
            assert "Failed" in bad.stdout, bad.stdout + bad.stderr
            assert "games/first-game/1901-fall.yml:2: error" in bad.stdout
            assert "Atlantis" in bad.stdout
    finally:
        gm("git", "rm", "-q", "--cached", fall)
        fall.unlink()


def _built_pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html") if p.name != "404.html"}


def _export_and_build(gm: GM, archive: Path, out: Path, dipgen: list) -> dict[str, Path]:
    """`dipgen export` of `archive`, built by ProperDocs and by Zensical: {generator: site folder}."""
    properdocs, zensical = _need("properdocs"), _need("zensical")
    ok(run([*dipgen, "export", out], archive, gm.env))
    ok(run([properdocs, "build", "-f", "mkdocs.yml", "--strict", "-d", "site-properdocs"], out, gm.env))
    zen = ok(run([zensical, "build"], out, gm.env))
    assert "Build finished" in zen.stdout + zen.stderr
    (out / "site").rename(out / "site-zensical")
    return {"properdocs": out / "site-properdocs", "zensical": out / "site-zensical"}


def test_the_export_builds_with_properdocs_and_zensical_into_the_same_pages(gm):
    club = gm.club
    if not (club / "site").is_dir():
        ok(gm("mkdocs", "build", "--strict"))
    sites = _export_and_build(gm, club, gm.root / "club-export", ["dipgen"])
    pages = _built_pages(club / "site")
    assert "games/first-game/1901-spring/index.html" in pages
    for name, site in sites.items():
        assert _built_pages(site) == pages, name
        spring = (site / "games" / "first-game" / "1901-spring" / "index.html").read_text(encoding="utf-8")
        assert "Burgundy is a garden" in spring, name
        assert 'src="../maps/1901-spring-orders.svg"' in spring, name
        assert 'data="../../../assets/maps/standard.svg"' in spring, name


@pytest.fixture(scope="session")
def example_sites(gm) -> dict[str, Path]:
    """The example archive of this repository, exported and built by both generators."""
    return _export_and_build(gm, REPO, gm.root / "example-export", [BIN / "dipgen"])


def test_the_exported_example_archive_has_every_game(example_sites):
    games = sorted(p.name for p in (REPO / "games").iterdir() if p.is_dir())
    for name, site in example_sites.items():
        built = sorted(p.name for p in (site / "games").iterdir() if (p / "index.html").is_file())
        assert built == games, name
        assert list((site / "private").glob("*.html")), name  # the demo game's private pages

    # the search of each finds a player, a game and a season, a season page section by section (the
    # headings ProperDocs got through the export's hook, the rest of the page as it is)
    indexes = {"properdocs": ("search/search_index.json", "docs"), "zensical": ("search.json", "items")}
    for name, (file, key) in indexes.items():
        entries = json.loads((example_sites[name] / file).read_text(encoding="utf-8"))[key]
        text = " ".join(f"{e['title']} {e['text']}" for e in entries)
        for words in ("Mirela Vasic", "The Winter Palace", "Fall 1903"):
            assert words in text, (name, words)
        sections = [e["location"] for e in entries if e["location"].startswith("games/winter-palace/1903-fall/#")]
        assert sections == [f"games/winter-palace/1903-fall/#{s}" for s in ("maps", "orders", "dislodged", "press",
                                                                             "gms-notes")], (name, sections)
        orders = next(e for e in entries if e["location"] == "games/winter-palace/1903-fall/#orders")
        assert "Bul S F Smy - Con" in orders["text"], name


SEASONS = ["games/two-crowns/1901-fall/", "games/winter-palace/1903-fall/"]


@browser_test
def test_a_browser_opens_the_season_pages_of_each_build(example_sites, browser, tmp_path):
    for generator, site in example_sites.items():
        with serve(site) as url:
            _open_seasons(browser, url, generator, tmp_path)


def _open_seasons(browser, url: str, generator: str, tmp_path: Path) -> None:
    watched = Watched(browser, PHONE, tmp_path)
    page = watched.page
    try:
        for size in (PHONE, DESKTOP):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            for season in SEASONS:
                page.goto(url + season)
                assert_maps_drawn(page, 2)
                watched.shot(f"{generator}-{season.strip('/').replace('/', '-')}-{size[0]}")
        page.locator("a.dg-next").first.click()  # a link between generated pages
        page.wait_for_url("**/games/winter-palace/1903-fall-retreats/")
        assert_maps_drawn(page, 2)
        page.goto(url + "games/winter-palace/")
        page.get_by_role("link", name=re.compile("^Rules: ")).click()  # to a page of the package's
        page.wait_for_url("**/rules/standard/")
        page.wait_for_load_state("load")
        assert not watched.errors, (generator, watched.errors)
    finally:
        watched.close()


@pytest.fixture(scope="session")
def mkdocs_example_site(tmp_path_factory) -> Path:
    """The example archive built by MkDocs with the dipgen plugin, as this repository publishes it: built
    once for the run (tests/test_axe_browser.py reads the same site)."""
    from support import built_once

    games = sorted(p.name for p in (REPO / "games").iterdir() if (p / "game.yml").is_file())
    return built_once(tmp_path_factory, games) / "site"


#: the pages compared under each generator: the home page's cards, the archive's table, a season
LOOKS = ["", "games/", "games/winter-palace/1903-fall/"]


@browser_test
def test_the_export_looks_as_the_site_does_under_each_generator(example_sites, mkdocs_example_site, browser,
                                                                tmp_path):
    """The same pages under MkDocs (the plugin's build), and the export under ProperDocs and Zensical,
    at a phone's width and a desktop's: the header holds its search box (at most 80 px high: Material's
    classic search markup came out under Zensical as a stack of raw controls, "Initializing search"
    under them, that made it twice that), the search dialog, where there is one, is named, and the
    cards' titles and badges are not underlined. Screenshots of each are kept in the test's folder."""
    sites = {"mkdocs": mkdocs_example_site, **example_sites}
    heights: dict[str, dict[int, float]] = {}
    for generator, site in sites.items():
        with serve(site) as url:
            watched = Watched(browser, DESKTOP, tmp_path)
            page = watched.page
            try:
                for size in (PHONE, DESKTOP):
                    page.set_viewport_size({"width": size[0], "height": size[1]})
                    for uri in LOOKS:
                        page.goto(url + uri)
                        page.wait_for_load_state("load")
                        watched.shot(f"{generator}-{uri.strip('/').replace('/', '-') or 'home'}-{size[0]}")
                        header = page.locator("header").first.bounding_box()
                        assert header is not None
                        heights.setdefault(generator, {})[size[0]] = header["height"]
                        assert header["height"] <= 80, (generator, uri, size, header)
                        unnamed = page.locator(".md-search[role='dialog']:not([aria-label])")
                        assert unnamed.count() == 0, (generator, uri)
                        if uri == "":
                            decorations = page.eval_on_selector_all(
                                "a.dg-card, .dg-card-title, .dg-card .dg-status",
                                "els => els.map(e => getComputedStyle(e).textDecorationLine)")
                            assert decorations, (generator, decorations)
                            assert set(decorations) == {"none"}, (generator, decorations)
                assert not watched.errors, (generator, watched.errors)
            finally:
                watched.close()
    assert set(heights) == {"mkdocs", "properdocs", "zensical"}
