"""The speed layers: what makes a build of the results site fast, and safe to interrupt, behind the
plugin's one seam (`dipgen.mkdocs.seam.Seam`, which `Layers` fills). Each layer is a module of this
room and a few lines here; taking one out touches this module alone, never the plugin, and the site
is the same, byte for byte, with every layer off (``speed: false``; tests/test_speed_seam.py).

- `buildcache`: each game's output cached under a hash of all its files, the dipgen version and the
  generator's templates, in memory and in the cache folder beside mkdocs.yml, so that a build (or a
  `mkdocs serve` rebuild: the plugin lives across rebuilds because it has `on_startup`)
  adjudicates and draws only a changed game; MkDocs reads the game's files from the cache folder.
- `pages`: generated pages handed to MkDocs as HTML (no Markdown pass over HTML it cannot change),
  and their search entries read off dipgen's own markup.
- `staging`: the site is written into a folder beside the site folder and takes its place only
  when the build is complete (`post_build`, last): a build that fails later (a page MkDocs cannot
  render, another plugin, warnings under --strict) leaves the previous site as it was; a build that
  was killed leaves its folder behind, and the next build removes it. Dirty builds write in place.
- `reuse`: under plain `mkdocs serve`, a page that did not change in a site that did not change
  otherwise is not rendered again, and its folder is moved from the last site whole; with `mkdocs
  serve --dirty`, MkDocs itself renders only the files that changed (the layer stages each page
  as a file rewritten only when it changed).
- `settled`: under plain serve, an unchanged game is not given to MkDocs at all: its folder moves
  from the last site whole, and the sitemap and the search index get its pages back from the last
  build's record (`sitemap`: their lines kept; `docsfile`: their entries copied from the last
  index file), and only the games the server's watcher saw change are looked at again
  (`watched`): an edit's cost does not grow with the archive.
- `merged`: under serve, the games' files merged as the last build merged them, but for the games
  that changed.
- `remembered`: under plain serve, a hand-written page is not converted again while nothing it is
  made from changed.
- `partials`: the theme's nav, tabs and search box drawn once a build for the pages outside the nav.
- `themes`: the theme's templates compiled, and its folders listed, once a process.
- `beside`: under `mkdocs build`, a game's maps and other files that are not pages put in the site
  as soon as it is ready, not handed to MkDocs (which would keep a `File` of each till the end).

Every reach into MkDocs's or Material's internals that a layer needs is in `internals`.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import shutil
import tempfile
import weakref
from pathlib import Path

from mkdocs.exceptions import PluginError

from dipgen import __version__
from dipgen.io.paths import display_path
from dipgen.io.commits import CommitLog, Commits
from dipgen.mkdocs.prune import prune
from dipgen.mkdocs.output import Content, Game, Output
from dipgen.mkdocs.seam import Seam
from dipgen.mkdocs.speed.buildcache import (BuildCache, Stored, code_fingerprint, entry_key, game_hash,
                                            game_files_read, open_cache, stamps)
from dipgen.mkdocs.speed.internals import (BUILD_LOGGER, counted, search_index, skipped_note, spliced_index,
                                           unspliced, warning_counter)
from dipgen.mkdocs.speed.pages import GeneratedPage, Headings, index_page
from dipgen.mkdocs.speed.partials import memoize, only_listeners, pages_alike
from dipgen.mkdocs.speed.merged import Merged
from dipgen.mkdocs.speed.remembered import Remembered
from dipgen.mkdocs.speed.settled import Settled
from dipgen.mkdocs.speed.watched import Watched
from dipgen.mkdocs.speed.reuse import TEMPLATE as REUSED, LinkedFile, Reuse
from dipgen.mkdocs.speed.staging import _Staging
from dipgen.mkdocs.speed import beside, notify, themes
from dipgen.present.site import generator_fingerprint
from dipgen.present.site.page import SitePage

log = logging.getLogger("mkdocs.plugins.dipgen")

class Layers(Seam):
    """Every speed layer, behind the seam (see the module). `plugin`: the plugin they serve (which
    of a page's listeners are its own; the file a page is made from, for a message)."""

    def __init__(self, plugin) -> None:
        super().__init__()
        self._plugin = plugin
        self._command = ""
        self._dirty = False                   # `mkdocs serve --dirty`: each page a file rewritten when it changes
        self._in_place = False                # a dirty build: MkDocs writes over the site as it goes
        self._store: BuildCache | None = None  # the cache folder
        self._own_store: Path | None = None    # ... a temporary one, where the site's cannot be written
        self._key = ""                         # what every game's output depends on besides its files
        self._hashes: dict[str, tuple[tuple, str]] = {}  # game folder -> its files' stamps and `game_hash`
        self._games_watch: notify.GamesWatch | None = None  # under serve: the games folder's watcher
        self._commit_log = CommitLog()         # ... and the games' commit times, kept across rebuilds
        self._watched = Watched()              # ... and the games it saw change
        self._stale: set[str] | None = None    # ... the games to look at again this build (None: every one)
        self._unseen: set[str] = set()         # ... those not looked at again since the watcher saw them
        self._keys: dict[str, str] = {}        # game folder -> its entry's key, from `cached` till `made`
        self._entry_keys: dict[str, tuple] = {}  # game folder -> what its last key was made of, and the key
        self._games: list[Stored] = []         # this build's games in the cache
        self._pages: dict[str, Stored] = {}    # each generated page in the cache -> the game's entry
        self._files: dict[str, Content] = {}
        self._stage: Path | None = None        # `serve --dirty`'s pages, as files
        self._staging: _Staging | None = None
        self._site_dir = ""                    # the configured site folder, while the build goes to staging
        self._config = None                    # ... and the config that names the staging folder instead
        self._warnings: logging.Handler | None = None  # (`internals.warning_counter`, under --strict)
        self._headings: Headings | None = None
        self._reuse = Reuse()                  # under plain `mkdocs serve`: unchanged pages not rendered again
        self._remembered = Remembered()        # ... nor hand-written pages converted again
        self._settled = Settled()              # ... nor unchanged games given to MkDocs at all
        self._built = None                     # this build's config (`configured`)
        self._index = None                     # Material's search index, if the site has it (`env`)
        self._archive: tuple | None = None     # under serve: the last archive's pages and what they were made of
        self._merged = Merged[Output, Content](lambda game: game.files)  # ... the last merge of the games' files
        self._page_names = Merged[Stored, str](lambda game: game.page_names)  # ... and of their files' names
        self._file_names = Merged[Stored, str](lambda game: game.file_names)  # in the cache folder
        self._themes = themes.SHARED
        self._state: str | None = None         # what else a page depends on (`Reuse.state`), under serve
        self._linked: list[LinkedFile] = []    # this build's maps and other files (`LinkedFile`)
        self._alone = False  # no other plugin reads pages' sources or changes their output (`light`)
        self._quiet = False  # no other plugin looks at files, pages or templates at all (`beside.usable`)
        self._hushed: set[str] = set()  # MkDocs's notes of pages linked, not written, this build (`_hush`)
        self._nav = None  # this build's nav, for the theme's partials (`partials.memoize`)
        self._in_nav: set[int] = set()  # its pages (`id`): other pages show their titles (`_lets_go`)

    # ----- the process
    def startup(self, command: str, dirty: bool) -> None:
        self._command = command
        self._dirty = dirty and command == "serve"
        self._in_place = dirty
        if command == "serve":
            logging.getLogger(BUILD_LOGGER).addFilter(self._hush)

    def _hush(self, record: logging.LogRecord) -> bool:
        """MkDocs's note of a page it was given nothing to write, for the pages linked instead."""
        return record.msg not in self._hushed

    def serving(self, server, games: Path) -> None:
        if self._games_watch is None or self._games_watch.folder != games:
            notify.stop(self._games_watch)
            self._games_watch = notify.watch(server, games)
        self._watched.listen(self._games_watch.observer, games)

    @property
    def games_observer(self):
        """Under serve, the watchdog observer that watches the games folder (None before `serving`)."""
        return None if self._games_watch is None else self._games_watch.observer

    def shutdown(self) -> None:
        notify.stop(self._games_watch)
        self._games_watch = None
        gc.unfreeze()
        logging.getLogger(BUILD_LOGGER).removeFilter(self._hush)
        self._end_build(discard=True)
        for folder in (self._stage, self._own_store):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        self._stage = self._own_store = None

    @property
    def store(self) -> BuildCache:
        """The cache folder (`configured` sets it, which MkDocs has the plugin call before any build)."""
        if self._store is None:
            raise PluginError("dipgen: the plugin was not configured (MkDocs calls on_config first)")
        return self._store

    def configured(self, config) -> None:
        self._built = config
        self._themes.hook(config.theme)  # templates compiled, and the theme's folders listed, once a process
        self._headings = Headings(config)  # the site's Markdown, for the headings of generated pages
        self._end_build(discard=True)  # whatever an interrupted build (Ctrl-C) left
        if config.strict:  # counted as MkDocs counts them, to keep the old site when --strict fails
            self._warnings = warning_counter()
            logging.getLogger("mkdocs").addHandler(self._warnings)
        if self._own_store is None:  # (after the count starts: a cache git tracks is a warning)
            base_dir = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
            self._store = open_cache(base_dir) or self._own_cache()

    # ----- the games (`buildcache`)
    def begin(self, options) -> None:
        self._key = entry_key(__version__, code_fingerprint(), generator_fingerprint(), options)
        self._state = None
        seen = self._watched.changed(self._plugin.games_path(self._built), self._built.config_file_path) \
            if self._built is not None else None
        self._unseen |= seen or set()
        self._stale = None if seen is None else self._unseen
        if self._command == "serve" and not self._in_place and self._built is not None:
            self._state = Reuse.state(self._built, self._key, repr(self._plugin.config))
        self._settled.begin(self._state, Path(self._built.site_dir) if self._state is not None else None)

    def commits(self, paths: list[Path]) -> dict[str, Commits]:
        """The log read again only where the repository's HEAD moved, and then only the commits since
        (`CommitLog`, kept across `mkdocs serve`'s rebuilds): a rebuild after an edit not yet committed
        reads no log."""
        return self._commit_log.of(paths)

    def cached(self, path: Path, commits: Commits, last: Output | None) -> Output | None:
        """The game's output as this process last made it, or from the cache folder, where its files,
        their commits' times and the rest are as they were."""
        key = self._keys[str(path)] = self._entry_key(path, commits)
        if isinstance(last, Stored) and last.key == key and (self._settled.trusted(str(path), key) or last.intact()):
            return last
        stored = self.store.get(path, key)
        if stored is not None:
            for note in stored.notes:  # as when the game was made
                log.info("%s", note)
        return stored

    def _entry_key(self, path: Path, commits: Commits) -> str:
        """The key of the game's entry: made again only where what it is made of changed (a serve
        rebuild makes one key, the edited game's, not one for every game: the commit times of a
        long game are long)."""
        files = self._hash(path)
        known = self._entry_keys.get(str(path))
        if known is not None and known[0] == self._key and known[1] == files and \
                (known[2] is commits or known[2] == commits):
            return known[3]
        key = entry_key(self._key, files, commits)
        self._entry_keys[str(path)] = (self._key, files, commits, key)
        return key

    def made(self, path: Path, commits: Commits, game: Game) -> Output:
        """A game just made, stored (encrypted afresh only here: an unchanged game keeps its pages,
        and their nonces, from the cache)."""
        key = self._keys.pop(str(path), None) or self._entry_key(path, commits)
        files = {uri: content for uri, content in game.files.items() if uri != game.board}
        board = (game.board, str(game.files[game.board]))
        try:
            return self.store.put(path, key, files, game.card, board, game.notes)  # type: ignore[arg-type]
        except OSError as e:  # a read-only checkout: a cache of this process's own
            root, self._store = self.store.root, self._own_cache()
            log.info("dipgen: cannot write the cache %s (%s); this build keeps it in %s", display_path(root),
                     e.strerror or e, self._own_store)
            return self.store.put(path, key, files, game.card, board, game.notes)  # type: ignore[arg-type]

    def _hash(self, path: Path) -> str:
        """`game_hash`, read again only where a file changed since this process last read it (a
        serve rebuild after an edit reads the one game the GM changed); under serve, only the games
        the server's watcher saw change are looked at (`watched`), where it can tell."""
        known = self._hashes.pop(str(path), None)
        if known is not None and self._stale is not None and path.name not in self._stale:
            self._hashes[str(path)] = known
            return known[1]
        try:
            now = stamps(path)
        except OSError:
            return game_hash(path)
        value = known[1] if known is not None and known[0] == now else game_hash(path, game_files_read(path))
        self._hashes[str(path)] = (now, value)
        self._unseen.discard(path.name)
        return value

    def _own_cache(self) -> BuildCache:
        """A cache of this process's own, in a temporary folder, sealed with a key of its own: removed
        at shutdown (MkDocs's commands call it), or when the plugin goes or the process ends, where
        whatever built the site through MkDocs's Python API never said it was done."""
        self._own_store = Path(tempfile.mkdtemp(prefix="dipgen-cache-"))
        weakref.finalize(self, shutil.rmtree, self._own_store, ignore_errors=True)
        return BuildCache(self._own_store, os.urandom(32))

    def merged(self, games: list[Output]) -> dict[str, Content]:
        """Under serve, the last build's merge with the changed games' files put in place (`merged`); a
        build merges once, and keeps nothing."""
        if self._command != "serve":
            return super().merged(games)
        return self._merged(games)

    def archive(self, cards: list, options, make):
        """Under serve, the archive's pages as the last build made them where every card and the
        site's options are as they were then (an edit that changed no card): they are made of nothing else."""
        if self._command != "serve":
            return make()
        if self._archive is None or self._archive[0] != (cards, options):
            files = make()
            # each page named by its text, as a game's page by its file in the cache (`reuse`)
            names = {uri: "archive-" + hashlib.sha256(page.encode("utf-8")).hexdigest()
                     for uri, page in files.items() if isinstance(page, SitePage)}
            self._archive = ((list(cards), options), files, names)
        return self._archive[1]

    def prepared(self, config, games: dict[str, Output], complete: bool, files: dict[str, Content]) -> None:
        self._games = [game for game in games.values() if isinstance(game, Stored)]
        self._pages = {uri: entry for entry in self._games for uri in entry.pages}
        self._files = files
        self._build_aside(config)
        self._alone = only_listeners(config, ("page_read_source", "page_markdown", "page_content", "post_page"),
                                     self._plugin)
        self._quiet = beside.usable(config, self._plugin)
        if self._state is not None:
            if not self._staging:
                self._settled.begin(None, None)  # no last site to take from
            self._settled.choose(config, self._plugin, {path: (game.key, game.card.uri.rsplit("/", 1)[0] + "/")
                                                        for path, game in games.items() if isinstance(game, Stored)})
            pages, others = self._page_names(self._games), self._file_names(self._games)
            if self._archive is not None:  # the archive's pages, taken as they were where their text is
                pages.update(self._archive[2])
            self._reuse.begin(self._state, pages, Path(self._site_dir) if self._staging else None, others)
        # every game read: what no game names any more goes; but not while a server takes unchanged
        # games from its last build (it would list every file of the cache on each edit): the next
        # build that takes none of them prunes what the edits left
        if complete and not self._settled.likely:
            self.store.prune(self._games, [Path(p) for p in games])

    # ----- staging
    def _build_aside(self, config) -> None:
        """Send the build to a staging folder, unless it is a dirty one (which needs the old output)."""
        site = Path(config.site_dir)
        if self._in_place or not _Staging.usable(site):
            return
        for name in _Staging.sweep(site):
            log.info("dipgen: removed %s, left by a build that did not finish", name)
        try:
            self._staging = _Staging(site)
        except OSError as e:
            log.warning("dipgen: building in place (cannot make a folder beside %s: %s)", display_path(site),
                        e.strerror)
            return
        self._config, self._site_dir = config, config.site_dir
        config.site_dir = str(self._staging.path)
        log.info("dipgen: the site is built in %s and replaces %s once complete", self._staging.path.name,
                 display_path(site))

    def _end_build(self, discard: bool) -> _Staging | None:
        """Give the config its site folder back, and forget the warning count; returns the staging
        folder, if any, removed first with `discard`."""
        staging = self._staging
        if staging is not None and self._config is not None:
            self._config.site_dir = self._site_dir
            if discard:
                staging.discard()
        self._staging, self._config, self._site_dir = None, None, ""
        if self._warnings is not None:
            logging.getLogger("mkdocs").removeHandler(self._warnings)
            self._warnings = None
        return staging

    # ----- the files (`buildcache`, `pages`, `reuse`, `settled`)
    def given(self, config, files: dict[str, Content], known) -> dict[str, Content]:
        """Every generated file but the withheld games' (`settled`, under serve), and under `mkdocs
        build` but the games' files that are not pages (`beside`)."""
        self._index = search_index(config)
        if self._command != "serve" and self._staging is not None and self._quiet:
            given, self.stats["beside"] = beside.put_beside(config, files, known, self._game_folders(),
                                                            lambda: _mentioned(config, known))
            return given
        return self._settled.given(files, known, lambda: _mentioned(config, known))  # (read under serve only)

    def file(self, config, uri: str, content: Content, inclusion):
        if isinstance(content, os.PathLike) and not uri.endswith(".md"):  # a map, from the cache or the last site
            return LinkedFile.made(config, uri, Path(content), inclusion, self._reuse.unchanged_file(uri))
        if self._dirty and not isinstance(content, os.PathLike):
            from mkdocs.structure.files import File
            return File.generated(config, uri, abs_src_path=self._stage_file(uri, content), inclusion=inclusion)
        return None

    def added(self, config, file, content: Content) -> None:
        uri = file.src_uri
        if self._headings is None:
            raise PluginError("dipgen: the plugin was not configured (MkDocs calls on_config first)")
        self._settled.added(file)
        if file.is_documentation_page() and (isinstance(content, SitePage) or uri in self._pages):
            GeneratedPage(None, file, config, sources=self, headings=self._headings, searched=self._index is not None,
                          light=not isinstance(content, SitePage))

    def files_done(self, files) -> None:
        if self._dirty and self._stage is not None:  # what earlier builds staged and this one does not make
            prune(self._stage, set(self._files), {p.name for p in self._stage.iterdir() if p.is_dir()})

    # ----- the generated pages' `pages.Sources`
    def source(self, uri: str) -> SitePage:
        """A generated page, when MkDocs reads it: as it was given, or from the cache."""
        content = self._files[uri]
        return content if isinstance(content, SitePage) else self._pages[uri].page(uri)

    def origin(self, uri: str) -> str:
        return self._plugin.named_origin(uri)

    def light(self, uri: str) -> dict | None:
        """The front matter of a page whose output this build expects to take as it was, where no
        other plugin reads pages' sources or output (their text is not read at all); else None."""
        if not self._alone or not self._reuse.may_take(uri):
            return None
        return SitePage.meta_of(self._pages[uri].state(uri))

    def _stage_file(self, uri: str, content: str | bytes) -> str:
        """For `serve --dirty`: the file on disk, rewritten only when its content changed, so that
        MkDocs (which compares modification times) rebuilds only what changed."""
        if self._stage is None:
            self._stage = Path(tempfile.mkdtemp(prefix="dipgen_"))
        path = self._stage / uri
        data = content.encode("utf-8") if isinstance(content, str) else content
        if not path.exists() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return str(path)

    # ----- the pages (`pages`, `reuse`, `remembered`, `partials`)
    def nav(self, nav, config, files):
        self._nav = nav
        self._in_nav = {id(page) for page in getattr(nav, "pages", ())}
        self._reuse.plan(files, self._game_folders())
        self._reuse.take_whole(self._settled.folders(), self._settled.pages())
        self._remembered.begin(self._state if self._alone else None, files, self._settled.unheard)
        return nav

    def env(self, env, config, files):
        self._linked = [f for f in files if isinstance(f, LinkedFile)]
        self._settled.ordered(files)
        self._settled.learn(env)
        if self._index is not None:  # under plain serve, written by the layer (`docsfile`)
            spliced_index(self._index, lambda head, entries: None if self._state is None or
                          self._plugin.indexed_by_pagefind() else
                          self._settled.write_docs(Path(config.site_dir), head, entries))
        self._remembered.watch(self._index)  # hand-written pages taken as made keep their entries
        # the nav, tabs and search box drawn once, not for every game's page
        return memoize(self._reuse.loader(env), self._nav, pages_alike(config, self._plugin))

    def markdown(self, page, markdown: str) -> str:
        if isinstance(page, GeneratedPage):
            # unchanged, and so is the rest of the site (`reuse`); its output read only for other plugins
            page.reused = self._reuse.output(page, read=not self._alone)
            return markdown
        return self._remembered.markdown(page, markdown)  # "" where it is taken as an earlier build made it

    def context(self, context, page, config):
        """Give the search index the entries of a page handed over as HTML (`pages`), after those of
        the withheld pages before it (`settled`)."""
        index = self._index
        if index is not None:
            self._settled.index_before(index, page)
        if isinstance(page, GeneratedPage):
            page.take_back()
        if isinstance(page, GeneratedPage) and page.direct:
            entries = []
            if index is not None and page.reused is not None:
                entries = page.reused[1]
                index.entries.extend(entries)
            elif index is not None:
                before = len(index.entries)
                index_page(index, page, whole=not self._plugin.indexed_by_pagefind())
                entries = index.entries[before:]
            self._reuse.made(page, entries, page.present_anchor_ids)
            self._settled.made(page, entries, len(index.entries) if index is not None else 0)
        return context

    def template_context(self, context, name: str):
        if name == "sitemap.xml":
            context["pages"] = self._settled.sitemap(context["pages"])
        return context

    def post_template(self, output: str, name: str) -> str:
        return self._settled.fill(output) if name == "sitemap.xml" else output

    def content(self, page, html: str, files) -> str:
        if isinstance(page, GeneratedPage) and page.direct and page.reused is not None:
            page.dipgen_output = page.reused[0]
            page.meta["template"] = REUSED
            return html
        if isinstance(page, GeneratedPage):
            return page.set_aside(html, self._lets_go(page))
        return self._remembered.content(page, html, files)

    def post_page(self, output: str, page) -> str:
        if self._index is not None:  # after the last page: the withheld pages after it (`settled`)
            self._settled.index_after(self._index, page)
        if isinstance(page, GeneratedPage):
            # a page taken as it was, which no plugin changed: its file in the last site linked into
            # this one, and MkDocs given nothing to write (its note that it wrote nothing is hushed)
            same = page.reused is not None and output == page.reused[0] and self._reuse.link_output(page)
            unread = page.reused is not None and not same and output == page.reused[0] == ""
            page.drop(self._lets_go(page))  # written: a big archive need not hold every page's text till the end
            if same:
                self._hushed.add(skipped_note(page.file.src_uri))
                return ""
            if unread:  # not read (`_alone`), and not linked after all: MkDocs writes it
                text = self._reuse.text_of(page)
                if text is None:
                    raise PluginError(f"dipgen: the last build's {page.file.dest_uri} went while this one ran; "
                                      "build again")
                return text
        return output

    def _game_folders(self) -> set[str]:
        """Each game's folder in the site (``games/alpha/``), from its card's page."""
        return {card.uri.rsplit("/", 1)[0] + "/" for card in self._plugin.cards}

    def _lets_go(self, page) -> bool:
        """Whether a generated page may let its front matter go between its reading and its writing,
        and after (`GeneratedPage.set_aside`): where no other plugin looks at pages, and the page is
        not in the nav, whose links show its title on every other page."""
        return self._quiet and id(page) not in self._in_nav

    # ----- the end of a build
    def post_build(self, config) -> None:
        self.stats["reused"] = self._reuse.reused + len(self._settled.pages())
        self.stats["withheld"] = len(self._settled.withheld)
        if self._index is not None:  # written: what wrote it (and so this build) not held by Material's plugin
            unspliced(self._index)
        self._index = None
        self._release()
        self._hushed = set()
        self.stats["linked"] = sum(1 for f in self._linked if f.linked)
        self._linked = []
        site_dir = self._site_dir
        strict_failed = self._warnings is not None and counted(self._warnings)  # MkDocs aborts right after this
        staging = self._end_build(discard=strict_failed)
        if staging is None or strict_failed:
            self._reuse.done(complete=False)
            self._settled.done(complete=False, site=None)
        if staging is None:
            return
        if strict_failed:
            log.error("dipgen: %s is left as it was (warnings under --strict)", display_path(site_dir))
            return
        try:
            moved = self._reuse.move_into(staging.path)  # unchanged games' folders, whole
            try:
                staging.commit()
            except OSError:
                self._reuse.move_back(moved)
                raise
            self.stats["moved"] = len(moved)
            self._reuse.done(complete=True)
            whole = not self._settled.withheld
            self._settled.done(complete=True, site=Path(site_dir))
            if self._command == "serve" and whole:
                _settle_heap()
        except OSError as e:
            self._settled.done(complete=False, site=None)
            staging.discard()
            raise PluginError(f"dipgen: cannot put the new site in place of {display_path(site_dir)}: "
                              f"{e.strerror}; it is left as it was") from e

    def build_error(self) -> None:
        self._reuse.done(complete=False)
        self._settled.done(complete=False, site=None)
        self._release()
        if self._end_build(discard=True) is not None:
            log.info("dipgen: the build failed; the site folder is left as it was")

    def _release(self) -> None:
        """Let go of what only a running build holds: the listening for what hand-written pages say."""
        self._remembered.end()


def _settle_heap() -> None:
    """After a serve build that gave MkDocs every game (the first, or one after mkdocs.yml changed):
    its garbage collected now, and what the server keeps from build to build (the games' cache
    entries, the last build's record) set aside from the collector's full passes, which would
    otherwise walk all of it during the edits that follow (at 1,280 games a full pass took up to
    2 s of an edit). Each edit's own garbage is collected as usual; the next such build gives the
    collector back what was set aside first."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _mentioned(config, known) -> list[str]:
    """The text of mkdocs.yml and of every page MkDocs converts (whose links it resolves against the
    site's files): what `settled` must not withhold a game's pages from."""
    texts = []
    for path in [config.config_file_path] + [f.abs_src_path for f in known.values() if f.is_documentation_page()]:
        try:
            texts.append(Path(path).read_text(encoding="utf-8", errors="replace") if path else "")
        except OSError:
            texts.append("")
    return texts
