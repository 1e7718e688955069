"""A build that fails never leaves a half-written or emptied site: every game is read, replayed
and drawn before MkDocs cleans anything, the site is written beside the site folder and put in
its place only when complete, and every failure is a message naming the game, not a traceback."""

from __future__ import annotations

import gzip
import json
import logging
import os
from pathlib import Path

import markdown
import pytest
from mkdocs.exceptions import Abort

import dipgen.mkdocs.plugin as plugin_module
from dipgen.mkdocs import output
from dipgen.mkdocs.speed import staging
from support import (ALPHA, BRAVO, REPO, Special, build, make_project, reveal_now, set_plugin_options, site_config,
                     write_game)

pytestmark = pytest.mark.slow  # every test here builds the site with MkDocs

#: Press that Markdown cannot render. Nested a few hundred levels deep, such press passes every
#: check and then makes the converter recurse without end; here it is nested only 120 levels (a
#: game file is at most a few hundred kB), and `unrenderable` makes the converter fail on it at
#: once, whatever a future converter makes of deep nesting.
DEEP_PRESS = ("orders:\n  France: [A Bur H]\npress: |\n"
              + "".join("  " + "    " * i + "- unrenderable\n" for i in range(6)))


@pytest.fixture(autouse=True)
def unrenderable(monkeypatch):
    convert = markdown.Markdown.convert

    def fails_on_deep_press(self, source: str) -> str:
        if "    - unrenderable" in source:
            raise RecursionError("maximum recursion depth exceeded")
        return convert(self, source)

    monkeypatch.setattr(markdown.Markdown, "convert", fails_on_deep_press)


def site_state(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """Two good games (one finished, one running) and a site built from them."""
    root = make_project(tmp_path_factory.mktemp("safety") / "project", games={"alpha": ALPHA, "bravo": BRAVO})
    build(site_config(root))
    return root


@pytest.fixture
def site(project):
    """The built site with a file of the GM's own in it; whatever a test broke is put right after it."""
    site = project / "site"
    (site / "MARKER").write_text("mine\n", encoding="utf-8")
    before = (project / "games" / "bravo" / "1901-spring.yml").read_bytes()
    yield site
    write_game(project / "games" / "bravo", {"1901-spring.yml": before})
    for extra in ("1901-fall.yml", "1901-fall.md"):
        (project / "games" / "bravo" / extra).unlink(missing_ok=True)


def failed_build(project: Path, caplog, **options) -> str:
    """Build in-process as `mkdocs build` does; it must stop with MkDocs's Abort, and the log
    says why. Returns what was logged at ERROR."""
    caplog.clear()
    config = site_config(project, **options)
    with caplog.at_level(logging.INFO), pytest.raises(Abort):
        build(config)
    assert config.site_dir == str(project / "site")
    assert not [p for p in project.iterdir() if p.name.startswith(".site")]  # nothing left beside it
    return "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)


#: a broken file, where the build says the error is, and its code
BROKEN = {
    "bad YAML": ("1901-spring.yml", "orders:\n  France: [A Par - Bur\n  press: x\n",
                 "games/bravo/1901-spring.yml:3: error: ", "broken-yaml"),
    "an order error": ("1901-spring.yml", "orders:\n  France: [A Par - Spq]\n",
                       "games/bravo/1901-spring.yml:2: error: ", "bad-order"),
    "not UTF-8": ("1901-spring.yml", b"orders:\n  France: [A Par - Bur \xff]\n",
                  "games/bravo/1901-spring.yml: error: ", "not-utf8"),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_a_broken_game_fails_with_its_file_and_line_and_the_site_stays(project, site, caplog, what):
    name, content, where, code = BROKEN[what]
    before = site_state(site)
    write_game(project / "games" / "bravo", {name: content})
    logged = failed_build(project, caplog)
    assert where in logged
    assert f"[{code}]" in logged
    assert "nothing was built" in logged
    assert site_state(site) == before


@pytest.mark.parametrize("where", ["game_files", "load_checked", "archive_files_of"])
def test_an_unexpected_exception_is_a_message_naming_the_game(project, site, caplog, monkeypatch, where):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug nobody saw coming")

    monkeypatch.setattr(plugin_module if where == "archive_files_of" else output, where, broken)
    # a changed game, so that the cache does not hide it
    spring = (project / "games" / "bravo" / "1901-spring.yml").read_text(encoding="utf-8")
    write_game(project / "games" / "bravo", {"1901-spring.yml": spring + f"# {where}\n"})
    before = site_state(site)
    logged = failed_build(project, caplog)
    folder = "games" if where == "archive_files_of" else "games/bravo"
    assert f"{folder}: error: " in logged
    assert "[build-failed]" in logged
    assert "(ZeroDivisionError: a bug nobody saw coming)" in logged  # the exception, named
    assert site_state(site) == before


def test_a_page_s_failure_names_its_phase_file_its_game_or_the_games_folder(project):
    """What a message about a generated page that failed to render names (the plugin's named_origin):
    a season's page its phase file, a game's other pages its folder, the archive's pages (and a page
    of no game) the games folder."""
    from dipgen.io.paths import display_path

    config = site_config(project)
    build(config)
    plugin, games = config.plugins["dipgen"], project / "games"
    assert plugin.named_origin("games/bravo/1901-spring/index.md") == display_path(games / "bravo" / "1901-spring.yml")
    assert plugin.named_origin("games/bravo/index.md") == display_path(games / "bravo")
    for uri in ("games/index.md", "players/index.md", "games/nobody/index.md", "bravo/1901-spring/index.md"):
        assert plugin.named_origin(uri) == display_path(games), uri


def test_press_markdown_cannot_render_fails_cleanly_and_keeps_the_site(project, site, caplog):
    """The failure comes after MkDocs has cleaned the folder it builds into: not the site's."""
    write_game(project / "games" / "bravo", {"1901-fall.yml": DEEP_PRESS})
    before = site_state(site)
    logged = failed_build(project, caplog)
    # the sanitiser renders game Markdown before MkDocs cleans anything (dipgen/present/site/markup.py)
    assert "games/bravo/1901-fall.yml:" in logged
    assert "[press-too-deep]" in logged
    assert site_state(site) == before


def test_a_good_build_replaces_the_site_and_keeps_its_hidden_files(project, site):
    (site / ".git").mkdir(exist_ok=True)
    (site / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n", encoding="utf-8")
    os.chmod(site, 0o755)
    config = site_config(project)
    build(config)
    assert config.site_dir == str(site)  # restored for what runs after the build (gh-deploy)
    assert not (site / "MARKER").exists()  # MkDocs cleans the site folder, as ever
    assert (site / ".git" / "HEAD").read_text(encoding="utf-8") == "ref: refs/heads/gh-pages\n"
    assert (site / "index.html").is_file()
    assert (site / "search" / "search_index.json").is_file()
    assert os.stat(site).st_mode & 0o777 == 0o755
    assert not [p for p in project.iterdir() if p.name.startswith(".site")]


def test_strict_warnings_keep_the_old_site(project, site, caplog):
    page = project / "site_src" / "broken-link.md"
    page.write_text("# A page\n\n[nowhere](missing.md)\n", encoding="utf-8")
    try:
        before = site_state(site)
        logged = failed_build(project, caplog, strict=True)
        assert "site is left as it was (warnings under --strict)" in logged
        assert site_state(site) == before
    finally:
        page.unlink()


def test_serve_keeps_the_last_good_build_when_a_rebuild_fails(project, tmp_path, caplog):
    """As `mkdocs serve` does it: the config read again for each rebuild into the same folder, the
    plugin object kept. A broken game is reported and shown as it last built, so that the build
    succeeds and the server goes on serving (when a rebuild fails, MkDocs's server holds every
    request until one succeeds); a page that cannot be rendered fails the rebuild, and the served
    folder is still the last good build."""
    served = tmp_path / "mkdocs_serve"
    served.mkdir()

    def rebuild():
        config = site_config(project, site_dir=str(served))
        build(config, serve_url="http://127.0.0.1:8000/")
        return config.plugins["dipgen"]

    bravo = project / "games" / "bravo"
    fall = bravo / "1901-fall.yml"
    page = served / "games/bravo/1901-fall/index.html"
    plugin = rebuild()
    plugin.on_startup(command="serve", dirty=False)
    try:
        write_game(bravo, {"1901-fall.yml": "orders:\n  France: [A Bur H]\nnotes: All quiet.\n"})
        rebuild()
        assert "All quiet." in page.read_text(encoding="utf-8")
        good = site_state(served)

        write_game(bravo, {"1901-fall.yml": "orders:\n  France: [A Bur - Spq]\n"})
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            rebuild()
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert "games/bravo/1901-fall.yml:2: error: " in logged
        assert "[bad-order]" in logged
        assert "the server shows the last good build of those games" in logged
        assert site_state(served) == good  # the whole site as the last good build left it

        write_game(bravo, {"1901-fall.yml": DEEP_PRESS})  # refused by the sanitiser, like any other error
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            rebuild()
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert "games/bravo/1901-fall.yml:4: error: " in logged
        assert "[press-too-deep]" in logged
        assert "All quiet." in page.read_text(encoding="utf-8")

        write_game(bravo, {"1901-fall.yml": "orders:\n  France: [A Bur H]\nnotes: Back in business.\n"})
        rebuild()
        assert "Back in business." in page.read_text(encoding="utf-8")
    finally:
        plugin.on_startup(command="build", dirty=False)
        fall.unlink(missing_ok=True)

    # `mkdocs build` never shows a game as it last built: it stops
    write_game(bravo, {"1901-fall.yml": "orders:\n  France: [A Bur - Spq]\n"})
    try:
        with pytest.raises(Abort):
            rebuild()
    finally:
        fall.unlink()


# ---------------------------------------------------------------- dirty builds and builds that were killed

@pytest.fixture
def hidden_project(tmp_path) -> Path:
    """A project with one running hidden game (Stab!), cut to its first year: quick to build."""
    example = REPO / "games" / "lamps-out"
    files = {name: (example / name).read_bytes() for name in ("game.yml", "1901-spring.yml", "1901-fall.yml",
                                                               "1901-fall-retreats.yml", "1901-winter.yml")}
    return make_project(tmp_path / "project", games={"lamps-out": files})


def dirty_build(project: Path) -> None:
    """As `mkdocs build --dirty` runs it (the command, not build(), tells the plugins)."""
    config = site_config(project)
    config.plugins.on_startup(command="build", dirty=True)
    try:
        build(config, dirty=True)
    finally:  # MkDocs keeps a plugin with on_startup from one config to the next: as a clean build again
        config.plugins.on_startup(command="build", dirty=False)


def built_files(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}


def test_a_dirty_build_drops_the_full_edition_of_a_game_no_longer_revealed(hidden_project):
    """`reveal: now` publishes the full edition; once it is removed again, `mkdocs build --dirty`
    must leave exactly what a clean build leaves: no page of the full edition (hidden facts)."""
    site = hidden_project / "site"
    game = hidden_project / "games" / "lamps-out"
    running = (game / "game.yml").read_text(encoding="utf-8")
    build(site_config(hidden_project))
    clean = built_files(site)
    assert not [f for f in clean if "/full/" in f]

    reveal_now(game)
    dirty_build(hidden_project)
    revealed = built_files(site)
    assert [f for f in revealed if f.startswith("games/lamps-out/full/")]

    write_game(game, {"game.yml": running})
    dirty_build(hidden_project)
    again = built_files(site)
    assert not [f for f in again if "/full/" in f]
    assert {f for f in again if f.startswith(("games/", "private/", "assets/dipgen/"))} == \
           {f for f in clean if f.startswith(("games/", "private/", "assets/dipgen/"))}
    searched = [json.loads(gzip.decompress(p.read_bytes())[len(b"pagefind_dcd"):])["url"]
                for p in (site / "pagefind" / "fragment").glob("*.pf_fragment")]
    assert [u for u in searched if "/lamps-out/" in u]
    assert not [u for u in searched if "/full/" in u]


LEFTOVER = ".site.dipgen-building-0123abcd"


def test_a_dirty_build_with_materials_search_drops_pagefinds_index(hidden_project):
    """`search: material` after a build with Pagefind's index: `mkdocs build --dirty` leaves no
    index of the earlier build (it would be searched by nothing, and hold what the site no longer
    says)."""
    site = hidden_project / "site"
    build(site_config(hidden_project))
    assert (site / "pagefind" / "pagefind.js").is_file()
    set_plugin_options(hidden_project, search="material")
    dirty_build(hidden_project)
    assert not [f for f in built_files(site) if f.startswith("pagefind/")]
    assert (site / "search" / "search_docs.json").is_file()


def test_a_build_removes_what_a_killed_build_left_and_nothing_else(project, site):
    """A build killed half-way leaves its folder beside the site. The next build removes it, but
    only a folder of exactly that name, old enough, and locked by no running build: another build
    running at the same time keeps its own."""
    import fcntl
    import time

    def leftover(name: str, age: float) -> Path:
        folder = project / name
        folder.mkdir()
        (folder / "index.html").write_text("half a site\n", encoding="utf-8")
        os.utime(folder, (time.time() - age, time.time() - age))
        return folder

    killed = leftover(LEFTOVER, 3600)
    running = leftover(".site.dipgen-building-4567cdef", 3600)
    young = leftover(".site.dipgen-building-89ab0123", 0)  # just made: perhaps not locked yet
    mine = leftover(".site.dipgen-building-notmine", 3600)  # not a name dipgen makes
    (project / ".site.dipgen-building-deadbeef").symlink_to(running)  # a link: never followed
    lock = os.open(running, os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a build still at work
    try:
        build(site_config(project))
    finally:
        os.close(lock)
    assert not killed.exists()
    assert running.is_dir()
    assert young.is_dir()
    assert mine.is_dir()
    assert (project / ".site.dipgen-building-deadbeef").is_symlink()
    for folder in (running, young, mine):
        import shutil

        shutil.rmtree(folder)
    (project / ".site.dipgen-building-deadbeef").unlink()
    assert (site / "index.html").is_file()


def test_a_build_holds_its_staging_folder_locked_while_it_works(project, monkeypatch):
    """What another build's sweep relies on: while a build runs, its folder cannot be locked."""
    seen = []
    staging_init = staging._Staging.__init__

    def spy(self, site):
        staging_init(self, site)
        try:
            staging._lock(self.path)
        except OSError:
            seen.append("locked")
        else:
            seen.append("free")

    monkeypatch.setattr(staging._Staging, "__init__", spy)
    build(site_config(project))
    assert seen == ["locked"]
    assert not [p for p in project.iterdir() if p.name.startswith(".site")]


SECRETS_KEY = 'page_key: "' + "ab" * 32 + '"\n'


def _fifo(game: Path, other: Path) -> None:
    write_game(game, {"secrets.yml": Special.FIFO})


def _link_out(game: Path, other: Path) -> None:
    write_game(other, {"secrets.yml": SECRETS_KEY})
    (game / "secrets.yml").symlink_to(other / "secrets.yml")


def _shared(game: Path, other: Path) -> None:
    write_game(game, {"secrets.yml": SECRETS_KEY})
    os.link(game / "secrets.yml", other / "secrets.yml")


def _weak(game: Path, other: Path) -> None:
    write_game(game, {"secrets.yml": SECRETS_KEY + 'passphrases:\n  England: "aaaaaaaaaaaaaaaa"\n'})


def _surrogate(game: Path, other: Path) -> None:
    text = (game / "game.yml").read_text(encoding="utf-8")
    write_game(game, {"game.yml": text.replace("title: The Lamps Go Out", 'title: "The Lamps \\ud800 Go Out"')})


REFUSED = {"a FIFO as secrets.yml": (_fifo, "lamps-out/secrets.yml: error: this is a named pipe"),
           "secrets.yml linked to another game's":
               (_link_out, "lamps-out/secrets.yml: error: secrets.yml is a link to"),
           "one secrets.yml for two games":
               (_shared, "lamps-out/secrets.yml: error: this secrets.yml is the same file as"),
           "a weak passphrase": (_weak, "lamps-out/secrets.yml:3: error: England's passphrase is too easy to guess"),
           "a lone surrogate": (_surrogate, "lamps-out/game.yml:1: error: this text holds a character that does not "
                                            "exist (a lone surrogate, \\ud800)")}


@pytest.mark.parametrize("what", sorted(REFUSED))
def test_the_build_refuses_what_dipgen_check_refuses(hidden_project, capsys, caplog, what):
    """The build and `dipgen check` read through the same functions: the same refusal, in the
    same words, in both."""
    import shutil

    from dipgen.cli import main
    from support.fuzz import time_limit

    make, message = REFUSED[what]
    games = hidden_project / "games"
    other = games / "lamps-out-copy"
    shutil.copytree(games / "lamps-out", other)
    make(games / "lamps-out", other)
    capsys.readouterr()
    with time_limit(60):
        assert main(["check", str(games)]) == 1
    err = capsys.readouterr().err
    assert message in err, err
    with time_limit(120):
        logged = failed_build(hidden_project, caplog)
    assert message in logged
    assert "nothing was built" in logged


def test_serve_says_a_broken_games_warnings_as_warnings(tmp_path, caplog):
    """Under serve, a game with an error is reported with its warnings (a player's misorder in an
    earlier file): each at its own level, the warning never logged as an error."""
    misorder = {"1901-fall.yml": "orders:\n  France: [A Bur - Mos]\n"}
    project = make_project(tmp_path / "p", games={"bravo": {**BRAVO, **misorder}})
    served = tmp_path / "served"

    def rebuild():
        config = site_config(project, site_dir=str(served))
        build(config, serve_url="http://127.0.0.1:8000/")
        return config.plugins["dipgen"]

    plugin = rebuild()
    plugin.on_startup(command="serve", dirty=False)
    try:  # MkDocs keeps one plugin with on_startup from one config to the next: a build again after
        write_game(project / "games" / "bravo", {"1902-spring.yml": "orders:\n  France: [A Bur - Spq]\n"})
        caplog.clear()
        with caplog.at_level(logging.INFO):
            rebuild()
    finally:
        plugin.on_startup(command="build", dirty=False)
    levels = {code: {r.levelname for r in caplog.records if f"[{code}]" in r.getMessage()}
              for code in ("illegal-order", "bad-order", "not-yet")}
    assert levels == {"illegal-order": {"WARNING"}, "bad-order": {"ERROR"}, "not-yet": {"ERROR"}}, levels
