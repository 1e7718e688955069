"""The plugin's cache folder (.dipgen-cache/, dipgen/mkdocs/speed/buildcache.py): an unchanged game
costs a later build (another process) neither adjudication nor drawing, keeps its encrypted pages,
and nothing in the folder is trusted that is not exactly what was written for that game."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from pathlib import Path

import pytest

from dipgen.present.site.card import CardStatus, GameCard
from dipgen.mkdocs.speed.buildcache import BuildCache, sealed
from dipgen.usecases.cachefiles import FOLDER, KEY_FILE
from dipgen.present.site.page import SitePage
from support import REPO, build, make_project, site_config
from support.folders import ARCHIVE, reveal_now, write_game
from support.served import fresh_site, reload_server, serving, site_bytes

RUNNING = "lamps-out"  # a running hidden game of the examples (private pages once it has secrets)


def _build(project: Path):
    """A build as `mkdocs build` makes one, in a new process: a new configuration and plugin (MkDocs
    keeps a plugin that has on_startup for the whole process, as `mkdocs serve` needs)."""
    from mkdocs.config.defaults import MkDocsConfig

    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)
    config = site_config(project, strict=True)
    build(config)
    return config.plugins["dipgen"]


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path / "project", games=ARCHIVE)


@pytest.mark.slow  # whole-site builds, two or more
def test_a_later_build_takes_unchanged_games_from_the_folder(project):
    assert _build(project).stats["redone"] == 3
    first = site_bytes(project)
    assert (project / FOLDER / "games").is_dir()
    assert len(list((project / FOLDER / "games").iterdir())) == 3
    again = _build(project)
    assert again.stats["redone"] == 0
    assert site_bytes(project) == first
    spring = project / "games" / "bravo" / "1901-spring.yml"
    write_game(spring.parent, {spring.name: spring.read_text(encoding="utf-8") + "  Late news from Vienna.\n"})
    third = _build(project)
    assert third.stats["redone"] == 1
    assert "Late news from Vienna." in (project / "site" / "games" / "bravo" / "1901-spring" / "index.html").read_text()


@pytest.mark.slow  # whole-site builds, two or more
def test_the_folder_may_be_deleted(project):
    _build(project)
    first = site_bytes(project)
    import shutil
    shutil.rmtree(project / FOLDER)
    assert _build(project).stats["redone"] == 3
    assert site_bytes(project) == first


def _corrupt_entry(project: Path, *changes) -> None:
    """Each entry changed (the entries in their names' order, the first by the first of `changes`,
    the next by the next, the last change for the rest), and sealed again with the machine's key (as
    a bug of the build's own would write it): the checks behind the seal refuse it all the same
    (tests/test_build_cache_trust.py: one sealed by anyone else)."""
    key = bytes.fromhex((project / KEY_FILE).read_text(encoding="utf-8"))
    for i, entry in enumerate(sorted((project / FOLDER / "games").iterdir())):
        data = json.loads(entry.read_bytes().partition(b"\n")[2])
        change = changes[min(i, len(changes) - 1)]
        entry.write_bytes(sealed(key, entry.name, change(data).encode("utf-8")))


def _corrupt(project: Path, how: str) -> None:
    folder = project / FOLDER
    if how == "entries":  # one game's not JSON; one's key another version of dipgen, or another game,
        # would have; one's card no card
        _corrupt_entry(project, lambda d: "{not json", lambda d: json.dumps(dict(d, key="0" * 64)),
                       lambda d: json.dumps(dict(d, card=dict(d["card"], title=["<script>"]))))
    elif how == "page moved":  # a heading said to be where the text has none (in a blob that is what its name says)
        def moved(d):
            pages = json.loads((folder / "blobs" / d["structure"][0]).read_bytes())
            for state in pages.values():
                state["headings"] = [[s + 1, e + 1, level] for s, e, level in state["headings"]]
            data = json.dumps(pages).encode("utf-8")
            (folder / "blobs" / hashlib.sha256(data).hexdigest()).write_bytes(data)
            return json.dumps(dict(d, structure=[hashlib.sha256(data).hexdigest(), len(data)]))
        _corrupt_entry(project, moved)
    elif how == "blob replaced":  # the same size, other bytes: its name is its hash
        for blob in (folder / "blobs").iterdir():
            data = blob.read_bytes()
            blob.write_bytes(data[:-1] + (b"x" if data[-1:] != b"x" else b"y"))
    elif how == "blob short":  # as a build killed while writing it leaves it (a blob is written under its name)
        for blob in (folder / "blobs").iterdir():
            blob.write_bytes(blob.read_bytes()[: blob.stat().st_size // 2])
    else:
        for blob in (folder / "blobs").iterdir():
            blob.unlink()


@pytest.mark.slow  # whole-site builds, eleven
def test_a_corrupt_or_foreign_entry_is_made_again(project):
    """Each way an entry can go wrong, one after another in the same project (the three ways an entry
    alone can, one game each, at once): each build after one finds every game's entry refused and
    makes it again (the site as the first build made it), and the next build trusts what it wrote,
    which is where the next way starts from."""
    assert len(ARCHIVE) == 3  # a game for each way of "entries"
    _build(project)
    first = site_bytes(project)
    for how in ("entries", "page moved", "blob replaced", "blob short", "blob gone"):
        _corrupt(project, how)
        assert _build(project).stats["redone"] == 3, how
        assert site_bytes(project) == first, how
        assert _build(project).stats["redone"] == 0, how  # written anew, and trusted again


@pytest.mark.slow  # whole-site builds, two or more
def test_an_unchanged_hidden_game_keeps_its_encrypted_pages_and_a_reveal_publishes_it(tmp_path):
    from dipgen.cli import main

    project = make_project(tmp_path / "p", [RUNNING])
    assert main(["secrets", str(project / "games" / RUNNING)]) == 0
    _build(project)
    private = {k: v for k, v in site_bytes(project).items() if k.startswith("private/")}
    assert private
    _build(project)
    kept = {k: v for k, v in site_bytes(project).items() if k.startswith("private/")}
    assert kept == private  # kept: the same nonces
    reveal_now(project / "games" / RUNNING)
    assert _build(project).stats["redone"] == 1
    after = site_bytes(project)
    assert not any(k.startswith("private/") for k in after)
    assert f"games/{RUNNING}/full/index.html" in after


def test_a_folder_that_cannot_be_written_leaves_the_build_working(project, caplog):
    caplog.set_level(logging.INFO)
    (project / FOLDER).write_text("not a folder", encoding="utf-8")
    plugin = _build(project)
    assert plugin.stats["redone"] == 3
    assert (project / "site" / "games" / "alpha" / "index.html").is_file()
    assert "cannot write the cache" in caplog.text
    plugin.on_shutdown()
    assert plugin.seam._own_store is None


def test_a_cache_of_the_builds_own_goes_with_the_plugin_where_nothing_shut_it_down(project):
    """A build through MkDocs's Python API (a script's, a test's) need not call on_shutdown: the
    temporary folder of a cache of the build's own goes when the plugin does, not left in /tmp."""
    import gc

    (project / FOLDER).write_text("not a folder", encoding="utf-8")
    plugin = _build(project)
    own = plugin.seam._own_store
    assert own is not None
    assert own.is_dir()
    from mkdocs.config.defaults import MkDocsConfig

    MkDocsConfig.plugins.plugin_cache.clear()  # where MkDocs keeps the plugins (Material's search, which
    del plugin                                  # holds what writes its index, too) for the process
    site_config(project)  # MkDocs holds the last configuration it read (and its plugins) until the next
    gc.collect()
    assert not own.exists()


@pytest.mark.slow  # whole-site builds, two or more
def test_unused_entries_and_blobs_go(project):
    _build(project)
    import shutil
    shutil.rmtree(project / "games" / "charlie")
    blobs = set(os.listdir(project / FOLDER / "blobs"))
    _build(project)
    assert len(list((project / FOLDER / "games").iterdir())) == 2
    assert set(os.listdir(project / FOLDER / "blobs")) < blobs


def test_a_page_comes_back_as_it_was_stored(tmp_path):
    key = b"k" * 32
    cache = BuildCache(tmp_path / FOLDER, key)
    page = SitePage.make("A & B", '<div>a</div>\n<h2 data-dg-heading>Heading</h2>\n<p>b</p>\n')
    card = GameCard(title="t", uri="games/g/index.md", variant="Standard", gm="G", players=(), years="—",
                    years_sort="0", status=CardStatus(kind="running", label="Running", sort_key="0"), deadline=None,
                    slug="g", finished=False, people=(), ended=None, latest="", feed=())
    game = tmp_path / "games" / "g"
    stored = cache.put(game, "k" * 64, {"games/g/index.md": page, "games/g/m.svg": "<svg/>"}, card,
                       ("assets/maps/b.svg", "<svg>board</svg>"), ["a note"])
    again = BuildCache(tmp_path / FOLDER, key).get(game, "k" * 64)
    assert again is not None
    assert again.card == card
    assert again.blobs == stored.blobs
    assert again.notes == ["a note"]
    back = again.page("games/g/index.md")
    assert back == page
    assert back.name == page.name
    assert list(back.pieces()) == list(page.pieces())
    assert BuildCache(tmp_path / FOLDER, key).get(game, "j" * 64) is None
    assert BuildCache(tmp_path / FOLDER, key).get(tmp_path / "games" / "other", "k" * 64) is None
    assert BuildCache(tmp_path / FOLDER, b"j" * 32).get(game, "k" * 64) is None  # sealed with another key


@pytest.mark.slow  # whole-site builds, two or more
def test_plain_serve_renders_only_the_changed_pages_and_the_site_is_as_a_full_build(tmp_path, caplog):
    """A rebuild under plain `mkdocs serve` (the plugin object kept) takes the output of every
    unchanged generated page from the last build; the site is byte for byte what a full build makes."""

    # serve makes Material's search index (no Pagefind under serve): so does the build it is held to
    project = make_project(tmp_path / "p", games=ARCHIVE, plugin={"search": "material"})
    yml = project / "mkdocs.yml"  # a site address: the sitemap lists every page
    yml.write_text("site_url: https://club.example.org/dip/\n" + yml.read_text(encoding="utf-8"), encoding="utf-8")
    with serving(project) as plugin:
        config = site_config(project)
        build(config, serve_url="http://127.0.0.1:8000/")
        assert plugin.stats["reused"] == 0
        assert plugin.stats["linked"] == 0
        spring = project / "games" / "bravo" / "1901-spring.yml"
        write_game(spring.parent, {spring.name: spring.read_text(encoding="utf-8") + "  Late news from Vienna.\n"})
        config = site_config(project)
        caplog.set_level(logging.INFO)
        build(config, serve_url="http://127.0.0.1:8000/")
        # the unchanged pages are linked from the last site, and MkDocs's note of each is hushed
        assert not [r for r in caplog.records if "Page skipped" in r.getMessage()]
        pages = sum(1 for uri in plugin._files if uri.endswith(".md") and uri != "games/index.md")
        assert 0 < plugin.stats["reused"] < pages  # alpha's and charlie's, not bravo's
        # the unchanged games' folders are taken from the last site whole; bravo's maps are as they
        # were (the news is in a page): linked from the last site, not copied
        assert plugin.stats["moved"] == 2
        maps = sum(1 for uri in plugin._files if uri.endswith(".svg") and uri.startswith("games/bravo/maps/"))
        assert plugin.stats["linked"] >= maps > 0
        bravo_spring = project / "site" / "games" / "bravo" / "1901-spring" / "index.html"
        assert "Late news from Vienna." in bravo_spring.read_text()
        # alpha's and charlie's files never went to MkDocs: their pages are in the sitemap and the
        # search index all the same, in their places (bravo's between them)
        assert plugin.stats["withheld"] == 2
        served = site_bytes(project)
        sitemap = served["sitemap.xml"].decode()
        assert sitemap.index("/dip/games/alpha/") < sitemap.index("/dip/games/bravo/") < \
            sitemap.index("/dip/games/charlie/")
        docs = served["search/search_docs.json"].decode()
        assert docs.index('"games/alpha/') < docs.index('"games/bravo/') < docs.index('"games/charlie/')
        (project / "site_src" / "about.md").write_text("# About\n\nA new line.\n", encoding="utf-8")
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        assert plugin.stats["reused"] == 0  # the rest of the site changed: every page rendered again
        (project / "site_src" / "about.md").write_text((REPO / "site_src" / "about.md").read_text(encoding="utf-8"),
                                                       encoding="utf-8")
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
    assert fresh_site(project, tmp_path / "fresh", plugin) == served


@pytest.mark.slow  # whole-site builds, two or more
def test_serve_takes_an_unchanged_games_folder_whole_only_where_the_last_site_has_it(tmp_path):
    """Under plain `mkdocs serve`, an unchanged game's folder moves from the last site into the new
    one whole (the server's own folder, which nothing but its builds writes: it is not listed again);
    where the folder went from the last site meanwhile, that game's files are made as they would be
    without a last site; where the new site cannot be put in place, the last site gets its folders
    back. The site stays a full build's, byte for byte."""
    from mkdocs.exceptions import Abort

    from dipgen.mkdocs.speed import staging

    project = make_project(tmp_path / "p", games=ARCHIVE)
    with serving(project) as plugin:
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        full = site_bytes(project)
        shutil.rmtree(project / "site" / "games" / "alpha")
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        assert plugin.stats["moved"] == 2
        assert plugin.stats["withheld"] == 2  # bravo and charlie never went to MkDocs
        assert site_bytes(project) == full  # bravo's and charlie's; alpha's made
        before = site_bytes(project)
        failing = staging._Staging._commit

        def refuse(self):
            raise OSError(28, "No space left on device")

        staging._Staging._commit = refuse
        try:
            with pytest.raises(Abort):  # MkDocs's word for the plugin's error (it says "left as it was")
                build(site_config(project), serve_url="http://127.0.0.1:8000/")
        finally:
            staging._Staging._commit = failing
        assert site_bytes(project) == before  # every folder given back
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        assert site_bytes(project) == full


@pytest.mark.slow  # whole-site builds, two or more
def test_serve_converts_a_hand_written_page_again_only_when_it_or_the_sites_files_change(tmp_path, caplog):
    """Under plain `mkdocs serve`, a hand-written page whose Markdown, site and files are as at the
    last build takes what that build made (its search entries too), and MkDocs's warning about its
    broken link is said again (so `--strict` fails again); once the page it links to exists, the
    link works. Each build's site is a fresh full build's, byte for byte."""
    from material.plugins.search import plugin as search_plugin

    # serve makes Material's search index (no Pagefind under serve): so does the build it is held to
    project = make_project(tmp_path / "p", games={"alpha": ARCHIVE["alpha"]}, plugin={"search": "material"})
    about = project / "site_src" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + "\nSee [the next game](games/bravo/index.md).\n",
                     encoding="utf-8")

    def fresh(name: str) -> dict[str, bytes]:
        return fresh_site(project, tmp_path / name, plugin)

    def broken() -> list[str]:
        return [r.getMessage() for r in caplog.records if "games/bravo/index.md" in r.getMessage()
                and r.levelno >= logging.INFO]

    caplog.set_level(logging.INFO)
    with serving(project) as plugin:
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        said = broken()
        assert said
        caplog.clear()
        remembered = plugin.seam._remembered._made.copy()
        parsed = []
        feed = search_plugin.Parser.feed
        search_plugin.Parser.feed = lambda self, data: parsed.append(data) or feed(self, data)
        try:
            build(site_config(project), serve_url="http://127.0.0.1:8000/")
        finally:
            search_plugin.Parser.feed = feed
        assert remembered
        assert plugin.seam._remembered._made == remembered  # nothing converted again
        assert parsed == []  # nor parsed again for the search index: its entries as made (the site a full build's)
        assert broken() == said
        assert site_bytes(project) == fresh("fresh-1")
        write_game(project / "games" / "bravo", ARCHIVE["bravo"])
        caplog.clear()
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        assert not broken()
        assert len(plugin.seam._remembered._made) == len(remembered)  # each page's last version only
        page = (project / "site" / "about" / "index.html").read_text(encoding="utf-8")
        assert 'href="../games/bravo/"' in page
        assert site_bytes(project) == fresh("fresh-2")


@pytest.mark.slow  # whole-site builds, two or more
def test_a_game_from_the_folder_tells_the_gm_what_it_told_when_it_was_made(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    project = make_project(tmp_path / "p", [RUNNING])
    _build(project)
    hint = [r.getMessage() for r in caplog.records if "no private pages" in r.getMessage()]
    caplog.clear()
    assert _build(project).stats["redone"] == 0
    assert hint
    assert [r.getMessage() for r in caplog.records if "no private pages" in r.getMessage()] == hint


@pytest.mark.slow  # whole-site builds, two or more
def test_maps_are_linked_from_the_cache_readable_and_never_written_into(project):
    """A map goes into the site as a second name of its file in the cache folder, with the
    permissions a new file gets (a web server reads the site as another user); a later build that
    draws the map anew replaces the site's name, and the cache's file keeps its content. A cache
    file with other permissions (an older dipgen's, 0600) is copied instead."""
    from dipgen.mkdocs.speed.reuse import NEW_FILE_MODE

    _build(project)
    site = project / "site"
    maps = sorted(site.glob("games/*/maps/*.svg"))
    assert maps
    assert all(m.stat().st_nlink >= 2 and m.stat().st_mode & 0o777 == NEW_FILE_MODE for m in maps)
    blobs = {p: p.read_bytes() for p in (project / FOLDER / "blobs").iterdir()}
    spring = project / "games" / "bravo" / "1901-spring.yml"
    write_game(spring.parent, {spring.name: spring.read_text(encoding="utf-8").replace("Bur", "Pic", 1)})
    _build(project)
    assert all(p.read_bytes() == data for p, data in blobs.items() if p.exists())  # nothing written into
    shutil.rmtree(site)
    for blob in (project / FOLDER / "blobs").iterdir():
        blob.chmod(0o600)
    _build(project)
    maps = sorted(site.glob("games/*/maps/*.svg"))
    assert maps
    assert all(m.stat().st_nlink == 1 and m.stat().st_mode & 0o777 == NEW_FILE_MODE for m in maps)


@pytest.mark.slow  # whole-site builds
def test_serve_keeps_a_hidden_game_hidden_and_publishes_its_reveal_as_a_full_build(tmp_path):
    """Under plain `mkdocs serve` (the plugin and its last site kept, pages linked from it), a change
    to a running hidden game's secret orders publishes a public site byte for byte a fresh full
    build's; so does its reveal (no private page left, the full edition there)."""

    from dipgen.cli import main

    # serve makes Material's search index (no Pagefind under serve): so does the build it is held to
    project = make_project(tmp_path / "p", [RUNNING], games=ARCHIVE, plugin={"search": "material"})
    assert main(["secrets", str(project / "games" / RUNNING)]) == 0

    def public(site: dict[str, bytes]) -> dict[str, bytes]:
        return {k: v for k, v in site.items() if not k.startswith("private/")}  # new nonces: compared opened

    def private(site: dict[str, bytes]) -> dict:
        from dipgen.io.secretsfile import load_secrets
        from support import load
        from support.private import opened

        folder = project / "games" / RUNNING
        secrets = load_secrets(folder / "secrets.yml", list(load(folder).seating.keys()))
        return opened(site, secrets.page_key, RUNNING, secrets.passphrases)

    def fresh(name: str) -> dict[str, bytes]:
        return fresh_site(project, tmp_path / name, plugin)

    with serving(project) as plugin:
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        last = sorted(p for p in (project / "games" / RUNNING).glob("1*.yml"))[-1]
        text = last.read_text(encoding="utf-8")
        last.write_text(text.replace("orders:", "orders:  # checked twice\n", 1) if "orders:" in text
                        else text + "# checked twice\n", encoding="utf-8")
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        assert plugin.stats["reused"] > 0
        served = site_bytes(project)
        made = fresh("fresh-hidden")
        assert public(served) == public(made)
        assert private(served) == private(made)
        assert len(private(made)) == 7  # names, sizes, salts, pages
        reveal_now(project / "games" / RUNNING)
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        served = site_bytes(project)
        assert not any(k.startswith("private/") for k in served)
        assert f"games/{RUNNING}/full/index.html" in served
        assert served == fresh("fresh-revealed")


def test_a_games_files_are_listed_as_a_recursive_glob_lists_them(tmp_path):
    """The files a build reads of a game folder (and hashes into its cache key): hidden ones and
    hidden folders left out, links to folders not followed, links to files and nested folders in,
    in the order `sorted(Path.rglob("*"))` gives (by path parts: "a/b" before "a.b/c")."""
    from dipgen.mkdocs.speed.buildcache import game_files_read, stamps

    game = tmp_path / "g"
    for name in ("x.yml", "a/b", "a.b/c", "sub/q", "sub/.hid/y", ".h/z", ".dot", "a-b"):
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_text("1", encoding="utf-8")
    (tmp_path / "out.yml").write_text("2", encoding="utf-8")
    (game / "linkdir").symlink_to(game / "sub")
    (game / "linkfile").symlink_to(tmp_path / "out.yml")
    (game / "broken").symlink_to(tmp_path / "missing")
    expected = [f for f in sorted(game.rglob("*"))
                if f.is_file() and not any(part.startswith(".") for part in f.relative_to(game).parts)]
    assert game_files_read(game) == expected
    assert [f.relative_to(game).as_posix() for f in expected] == ["a/b", "a-b", "a.b/c", "linkfile", "sub/q", "x.yml"]
    # what tells a serve rebuild that one of them changed looks at the same files, each once
    assert [Path(path) for path, *_ in stamps(game)] == sorted(expected, key=str)
    before = stamps(game)
    (game / "sub" / "q").write_text("22", encoding="utf-8")
    assert stamps(game) != before


@pytest.mark.slow  # whole-site builds, five
def test_serve_withholds_only_the_games_an_edit_leaves_as_they_were(tmp_path):
    """Under plain `mkdocs serve`, the games an edit leaves as they were never go to MkDocs (their
    folders move from the last site); a game added, a game removed and a phase file renamed are each
    made or dropped as a full build would, and the site (its sitemap and search index included) is
    a fresh build's, byte for byte, after each."""

    project = make_project(tmp_path / "p", games=ARCHIVE, plugin={"search": "material"})
    yml = project / "mkdocs.yml"  # a site address: the sitemap lists every page
    yml.write_text("site_url: https://club.example.org/dip/\n" + yml.read_text(encoding="utf-8"), encoding="utf-8")

    def served(name: str) -> dict[str, bytes]:
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        site = site_bytes(project)
        assert site == fresh_site(project, tmp_path / name, plugin)
        return site

    with serving(project) as plugin:
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        assert plugin.stats["withheld"] == 0  # a first build: nothing to take
        write_game(project / "games" / "alpha-two", BRAVO_AGAIN)
        site = served("added")
        assert plugin.stats["withheld"] == 3
        assert plugin.stats["redone"] == 1
        assert "games/alpha-two/index.html" in site
        sitemap = site["sitemap.xml"].decode()
        assert sitemap.index("/dip/games/alpha/") < sitemap.index("/dip/games/alpha-two/") < \
            sitemap.index("/dip/games/bravo/")
        shutil.rmtree(project / "games" / "bravo")
        site = served("removed")
        assert plugin.stats["withheld"] == 3
        assert not any(uri.startswith("games/bravo/") for uri in site)
        spring = project / "games" / "alpha-two" / "1901-spring.yml"
        spring.rename(spring.with_name(".1901-spring.yml"))  # no longer a phase of the game
        site = served("renamed")
        assert plugin.stats["withheld"] == 2
        assert "games/alpha-two/1901-spring/index.html" not in site


#: a running game like bravo, under another title
BRAVO_AGAIN = {**ARCHIVE["bravo"],
               "game.yml": ARCHIVE["bravo"]["game.yml"].replace("Bravo, still running", "Bravo again")}


@pytest.mark.slow  # whole-site builds, five, and the games folder watched
def test_serve_looks_again_at_the_games_the_watcher_saw_change_and_at_every_game_where_it_cannot_tell(tmp_path,
                                                                                                  monkeypatch):
    """Under `mkdocs serve`, a rebuild looks again only at the games the server's watcher saw change
    (`dipgen.mkdocs.speed.watched`): an edit it reports is built; an edit made before it began to
    watch, and one made after it stopped, are built too (those rebuilds look at every game); the site
    is a fresh build's, byte for byte, after each."""
    import threading

    from watchdog.events import FileSystemEventHandler

    project = make_project(tmp_path / "p", games=ARCHIVE, plugin={"search": "material"})
    games = project / "games"
    heard = threading.Event()

    class Heard(FileSystemEventHandler):  # the test's own ear: the watcher has polled the edit
        def on_any_event(self, event) -> None:
            heard.set()

    def note(game: str, text: str) -> None:
        phase = games / game / "1901-spring.yml"
        write_game(games / game, {phase.name: phase.read_text(encoding="utf-8") + f"  {text}\n"})

    import dipgen.mkdocs.speed as speed

    looked: list[str] = []  # the games whose files a build looked at again
    stamps = speed.stamps
    monkeypatch.setattr(speed, "stamps", lambda folder: looked.append(folder.name) or stamps(folder))
    keyed: list[object] = []  # the cache keys made (a build's own, then one for each game whose key is made)
    entry_key = speed.entry_key
    monkeypatch.setattr(speed, "entry_key", lambda *parts: keyed.append(parts) or entry_key(*parts))
    keys: list[int] = []  # how many each serve rebuild made

    def served(name: str, *texts: str) -> list[str]:
        looked.clear()
        keyed.clear()
        build(site_config(project), serve_url="http://127.0.0.1:8000/")
        keys.append(len(keyed))
        seen = sorted(looked)
        site = site_bytes(project)
        assert site == fresh_site(project, tmp_path / name, plugin)
        for text in texts:
            assert any(text.encode() in data for uri, data in site.items() if uri.endswith(".html"))
        return seen

    with reload_server(project) as server, serving(project) as plugin:
        config = site_config(project)
        build(config, serve_url="http://127.0.0.1:8000/")
        note("alpha", "Missed by the watcher.")  # before it starts: nobody reports it
        plugin.on_serve(server, config=config, builder=lambda: None)  # the games' watcher started
        watcher = plugin.seam.games_observer
        watcher.schedule(Heard(), str(games), recursive=True)
        note("bravo", "Seen by the watcher.")
        assert heard.wait(10)
        # the first build since it watches looks at every game
        assert served("first", "Missed by the watcher.", "Seen by the watcher.") == ["alpha", "bravo", "charlie"]
        heard.clear()
        note("alpha", "Seen again.")
        assert heard.wait(10)
        assert served("seen", "Seen again.") == ["alpha"]  # bravo and charlie not looked at
        assert keys[-1] == 2  # the build's key and alpha's: bravo's and charlie's kept
        assert plugin.stats["withheld"] == 2
        watcher.stop()
        watcher.join()
        note("bravo", "After the watcher stopped.")
        assert served("stopped", "After the watcher stopped.") == ["alpha", "bravo", "charlie"]
