"""The `dipgen` MkDocs plugin: a thin adapter that adds the results site to a build.

    plugins:
      - search
      - dipgen:
          games_dir: games     # the folder of game folders, relative to mkdocs.yml

Before each build the plugin reads and adjudicates every game and generates all its pages
and maps (`on_pre_build`: MkDocs runs it before it cleans the site folder, so a broken game
stops the build with nothing written; the message is the one `dipgen check` prints, and an
unexpected failure names the game too). It then registers the generated pages and maps
(`dipgen.present.site`, pure functions of the histories) as files (`on_files`).

The site is written into a folder beside the site folder and takes its place only when the
build is complete (`on_post_build`, last): a build that fails later (a page MkDocs cannot
render, another plugin, warnings under --strict) leaves the previous site as it was. A build
that was killed leaves its folder behind; the next build removes it (`_Staging.sweep`). Dirty
builds write in place, as MkDocs does, and then remove what dipgen wrote before and no longer
generates (`_prune`): a game no longer revealed loses its full edition.

Under `mkdocs serve`, a game that breaks while the GM edits it is reported and shown as it
last built, so the server goes on serving (when a rebuild fails, MkDocs's server holds every
request until a rebuild succeeds).

Each game's output is cached under a hash of all its files, the dipgen version and the
generator's templates, in memory and in the cache folder beside mkdocs.yml (`buildcache`), so
that a build (or a `mkdocs serve` rebuild: the plugin lives across rebuilds because it has
`on_startup`) adjudicates and draws only a changed game. MkDocs reads the game's files from
the cache folder, and gets its pages as HTML (`mkdocs_pages`). Under plain `mkdocs serve`, a
page that did not change in a site that did not change otherwise is not rendered again
(`reuse`); with `mkdocs serve --dirty`, MkDocs itself renders only the files that changed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import time
from functools import partial
from pathlib import Path

from mkdocs.config import base
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.utils import CountHandler

from dipgen import __version__
from dipgen.core.errors import GameError, Problem, display_path
from dipgen.io.commits import Commits, commit_times_of
from dipgen.io.secretsfile import SECRETS_FILE
from dipgen.io.folders import discover_games
from dipgen.adapters import livereload
from dipgen.adapters.buildcache import BuildCache, Stored, code_fingerprint, entry_key, open_cache
from dipgen.usecases.games import Loaded, load_checked
from dipgen.adapters.partials import memoize, only_listeners, pages_alike
from dipgen.adapters.remembered import Remembered
from dipgen.usecases.reported import report_problems
from dipgen.adapters.reuse import TEMPLATE as REUSED, LinkedFile, Reuse
from dipgen.adapters.themes import Themes
from dipgen.adapters.staging import _Staging, _lock, _prune, _roots  # noqa: F401 (_lock: tests)
from dipgen.adapters.mkdocs_pages import GeneratedPage, Headings, failure, index_page, name_failures, search_index
from dipgen.core.crypt import PRIVATE_DIR
from dipgen.usecases.publish import (archive_files_of, editions, game_files, missing_passphrases, provided_pages,
                                     site_options, with_cards)
from dipgen.io.secretsfile import shared_secrets
from dipgen.present.site import SiteOptions, generator_fingerprint
from dipgen.present.site.page import SitePage
from dipgen.present.site.pages import CSS_URI, JS_URI, GameCard, add_overrides, game_card
from dipgen.present.site.maps import board_map, board_uri
from dipgen.view import revealed
from dipgen.rules.scoring import DEFAULT as DEFAULT_SCORING, SYSTEMS

log = logging.getLogger("mkdocs.plugins.dipgen")


class DipgenConfig(base.Config):
    games_dir = c.Type(str, default="games")
    """The folder holding one folder per game, relative to mkdocs.yml."""
    prefix = c.Type(str, default="games")
    """Where the generated pages go in the site: ``<prefix>/index.md`` is the archive."""
    palette = c.Choice(("usual", "colour-blind"), default="usual")
    """The maps' palette until a reader picks her own with the switch under each map (README, "Maps")."""
    rules_dir = c.Type(str, default="rules")
    """The rules pages, one per variant: ``<rules_dir>/<variant>.md``; dipgen adds its own for each
    variant the site has no page of its own for (and ``draws.md``, the page on dice and lots)."""
    scoring = c.Choice(SYSTEMS, default=DEFAULT_SCORING)
    """The scoring system of finished games' scores (``scoring.md`` defines each)."""
    player_aliases = c.DictOfItems(c.Type(str), default={})
    """The players' pages: a name as written -> the person it names (``J. Doe: Jane Doe``)."""
    private_players = c.ListOfItems(c.Type(str), default=[])
    """People the players' pages leave out (their games' own pages still name them)."""


def game_files_read(folder: Path) -> list[Path]:
    """Every file of a game folder that the build reads (hidden ones aside), in order: as
    ``sorted(folder.rglob("*"))`` would list them (links to folders not followed), read with strings,
    not paths (a serve rebuild lists every game's folder)."""
    top = str(folder)
    found: list[tuple[str, ...]] = []
    for here, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = tuple(os.path.relpath(here, top).split(os.sep)) if here != top else ()
        found.extend((*rel, name) for name in names
                     if not name.startswith(".") and os.path.isfile(os.path.join(here, name)))
    return [folder.joinpath(*parts) for parts in sorted(found)]


def game_hash(folder: Path, files: list[Path] | None = None) -> str:
    """A hash of everything in a game folder that the build reads, secrets.yml included (a new
    passphrase re-encrypts the pages)."""
    digest = hashlib.sha256()
    for f in game_files_read(folder) if files is None else files:  # each length first: no two folders alike
        name, data = f.relative_to(folder).as_posix().encode(), f.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)) + data)
    return digest.hexdigest()


def _stamps(files: list[Path]) -> tuple:
    """What tells that a file changed without reading it (as `mkdocs serve --dirty` tells)."""
    out = []
    for f in files:
        st = f.stat()
        out.append((str(f), st.st_size, st.st_mtime_ns, st.st_ino))
    return tuple(out)


class DipgenPlugin(BasePlugin[DipgenConfig]):
    def __init__(self) -> None:
        self._cache: dict[str, Stored] = {}  # each game's output, by its folder (its files on disk)
        self._store: BuildCache | None = None  # the cache folder
        self._own_store: Path | None = None    # ... a temporary one, where the site's cannot be written
        self._boards: dict[str, str] = {}      # the base map of each board drawn in this process
        self._dirty = False
        self._command = ""
        self._stage: Path | None = None
        self._cards: list[GameCard] = []  # each game's card (its public view), for the archive and the home page
        self._files: dict[str, str | Path] = {}  # each generated file: its content, or its file in the cache
        self._options = SiteOptions()
        self._origins: dict[str, str] = {}  # generated file -> the game folder it comes from (`_origin`)
        self._in_place = False               # a dirty build: MkDocs writes over the site as it goes
        self._staging: _Staging | None = None
        self._site_dir = ""                  # the configured site folder, while the build goes to staging
        self._config: MkDocsConfig | None = None  # ... and the config that names the staging folder instead
        self._warnings: CountHandler | None = None
        self._written: set[str] | None = None  # the site paths of every file of the build (for `_prune`)
        self.stats: dict[str, float] = {}
        self._headings: Headings | None = None
        self._pages: dict[str, Stored] = {}  # each generated page in the cache -> the game's entry
        self._reuse = Reuse()                # under plain `mkdocs serve`: unchanged pages not rendered again
        self._remembered = Remembered()      # ... nor hand-written pages converted again
        self._themes = Themes()
        self._state: str | None = None       # what else a page depends on (`Reuse.state`), under serve
        self._linked: list[LinkedFile] = []  # this build's maps and other files (`LinkedFile`)
        self._alone = False  # no other plugin reads pages' sources or changes their output (`_light`)
        self._hushed: set[str] = set()  # MkDocs's notes of pages linked, not written, this build (`_hush`)
        self._hashes: dict[str, tuple[tuple, str]] = {}  # game folder -> its files' stamps and `game_hash`
        self._nav = None  # this build's nav (`on_nav`), for the theme's partials (`partials.memoize`)

    # ----- lifecycle
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defining this keeps one plugin object across `mkdocs serve` rebuilds, and so the cache."""
        self._command = command
        self._dirty = dirty and command == "serve"
        self._in_place = dirty
        if command == "serve":
            logging.getLogger("mkdocs.commands.build").addFilter(self._hush)

    def _hush(self, record: logging.LogRecord) -> bool:
        """MkDocs's note of a page it was given nothing to write, for the pages linked instead."""
        return record.msg not in self._hushed

    def on_shutdown(self) -> None:
        logging.getLogger("mkdocs.commands.build").removeFilter(self._hush)
        self._end_build(discard=True)
        for folder in (self._stage, self._own_store):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        self._stage = self._own_store = None

    @property
    def store(self) -> BuildCache:
        """The cache folder (`on_config` sets it, which MkDocs calls before any build)."""
        if self._store is None:
            raise PluginError("dipgen: the plugin was not configured (MkDocs calls on_config first)")
        return self._store

    def _origin(self, uri: str, config) -> Path:
        """The file a generated page is made from (for a message that names it), else its game's
        folder, else the games folder."""
        game = self._origins.get(uri)
        return _source(Path(game), uri) if game is not None else self.games_path(config)

    def _hash(self, path: Path) -> str:
        """`game_hash`, read again only where a file changed since this process last read it (a
        serve rebuild after an edit reads the one game the GM changed)."""
        files = game_files_read(path)
        try:
            stamps = _stamps(files)
        except OSError:
            return game_hash(path, files)
        known = self._hashes.get(str(path))
        if known is not None and known[0] == stamps:
            return known[1]
        value = game_hash(path, files)
        self._hashes[str(path)] = (stamps, value)
        return value

    def _named_origin(self, uri: str, config) -> str:
        return display_path(self._origin(uri, config))

    def games_path(self, config) -> Path:
        base_dir = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        return (base_dir / self.config.games_dir).resolve()

    @event_priority(50)  # before the search plugin's, which makes environments of the theme
    def on_config(self, config):
        self._themes.hook(config.theme)  # templates compiled, and the theme's folders listed, once a process
        self._headings = Headings(config)  # the site's Markdown, for the headings of generated pages
        add_overrides(config.theme.dirs, config.theme.custom_dir)  # the pages' Content-Security-Policy
        self._end_build(discard=True)  # whatever an interrupted build (Ctrl-C) left
        if config.strict:  # counted as MkDocs counts them, to keep the old site when --strict fails
            self._warnings = CountHandler()
            self._warnings.setLevel(logging.WARNING)
            logging.getLogger("mkdocs").addHandler(self._warnings)
        if self._own_store is None:  # (after the count starts: a cache git tracks is a warning)
            base_dir = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
            self._store = open_cache(base_dir) or self._own_cache()
        for uri, option in ((CSS_URI, config.extra_css), (JS_URI, config.extra_javascript)):
            if uri not in [str(x) for x in option]:
                option.append(uri)
        if self._command == "serve":
            livereload.add_script(config)  # the page reloads itself after an edit, within its policy
        return config

    def on_serve(self, server, *, config, builder):
        games = self.games_path(config)
        if games.is_dir():
            server.watch(str(games))
        return server

    # ----- the build
    def on_pre_build(self, *, config) -> None:
        """Adjudicate every game (or take it from the cache); stop the build on any error, except
        under `mkdocs serve` for a game that has built before: its last good build stays on show."""
        started = time.perf_counter()
        folder = self.games_path(config)
        options = site_options(config.docs_dir, prefix=self.config.prefix,
                               directory_urls=config.use_directory_urls, rules_dir=self.config.rules_dir,
                               site_url=config.site_url, site_name=config.site_name, palette=self.config.palette,
                               scoring=self.config.scoring, aliases=self.config.player_aliases,
                               private_players=self.config.private_players, previews=self._command != "serve")
        fingerprint = entry_key(__version__, code_fingerprint(), generator_fingerprint(), options)
        paths = discover_games(folder) if folder.is_dir() else []
        if not folder.is_dir():
            log.warning("no games folder at %s; the archive is empty", display_path(folder))
        problems: list[Problem | str] = []
        fresh: dict[str, Stored] = {}
        self._redone = 0
        shared = {str(folder): problem for folder, problem in shared_secrets(paths)}  # as dipgen check does
        commits = commit_times_of(paths)  # one git log for every game
        for path in paths:
            own = [shared[str(path)]] if str(path) in shared else []
            try:
                try:
                    entry = self._game(path, fingerprint, options, commits[str(path)])
                except GameError as e:
                    raise GameError(e.problems + own) from None
                if own:
                    raise GameError(own)
            except GameError as e:
                problems.extend(e.problems)
            except Exception as e:  # a bug, or input nobody foresaw: still a message naming the game
                log.debug("dipgen: %s", display_path(path), exc_info=True)
                problems.append(failure(display_path(path), e, "reading, adjudicating and drawing this game"))
            else:
                fresh[str(path)] = entry
                continue
            if self._command == "serve" and str(path) in self._cache:
                fresh[str(path)] = self._cache[str(path)]  # its last good build, while the GM fixes it
        if problems:
            report_problems(problems, stop=len(fresh) < len(paths))
        cards = [GameCard.from_json(entry.card) for entry in fresh.values()]
        files: dict[str, str | Path] = {}
        origins: dict[str, str] = {}
        for game, entry in fresh.items():
            files.update(entry.blobs)
            origins.update(dict.fromkeys(entry.blobs, game))
            files.setdefault(entry.board[0], Path(entry.board[1]))
        try:
            files.update(archive_files_of(cards, {}, options))
        except Exception as e:
            log.debug("dipgen: the archive", exc_info=True)
            raise PluginError(failure(display_path(folder), e, "drawing the archive's pages")) from e
        self._cache = fresh
        self._pages = {uri: entry for entry in fresh.values() for uri in entry.pages}
        if not problems:  # every game read: what no game names any more goes
            self.store.prune(list(fresh.values()), paths)
        self._options = options
        self._cards = cards
        self._files = files
        self._origins = origins
        self._build_aside(config)
        self._alone = only_listeners(config, ("page_read_source", "page_markdown", "page_content", "post_page"), self)
        self._state = None
        if self._command == "serve" and not self._in_place:
            self._state = Reuse.state(config, fingerprint, repr(self.config))
            self._reuse.begin(self._state,
                              {uri: entry.blobs[uri] for uri, entry in self._pages.items()},
                              Path(self._site_dir) if self._staging else None,
                              {uri: path for uri, path in files.items() if isinstance(path, Path)
                               and not uri.endswith(".md")})
        self.stats = {"games": len(paths), "redone": self._redone, "seconds": time.perf_counter() - started,
                      "moved": 0}
        log.info("dipgen: %d game(s), %d adjudicated afresh, %d files in %.2fs",
                 len(paths), self._redone, len(files), self.stats["seconds"])

    def _game(self, path: Path, fingerprint: str, options: SiteOptions, commits: Commits) -> Stored:
        """One game read, adjudicated and all its pages made, or taken from the cache if unchanged
        (kept from the last build, or in the cache folder: `dipgen.adapters.buildcache`). `commits`:
        when its files were committed (which changes the feed's times, not the files: part of the key)."""
        key = entry_key(fingerprint, self._hash(path), commits)
        cached = self._cache.get(str(path))
        if cached is not None and cached.key == key and cached.intact():
            return cached
        stored = self.store.get(path, key)
        if stored is not None:
            for note in stored.notes:  # as when the game was made
                log.info("%s", note)
            return stored
        self._redone += 1
        loaded = load_checked(path, commits)  # as 'dipgen check' reads it: they refuse the same things
        notes = self._notes(path, loaded)
        for note in notes:
            log.info("%s", note)
        # encrypted afresh only here: an unchanged game keeps its pages (and their nonces) from the cache
        public = editions(loaded)[0]
        files, card = game_files(loaded, options), game_card(public, options).as_json()
        board = board_uri(public.variant)
        if board not in self._boards:
            self._boards[board] = board_map(public.variant)
        try:
            return self.store.put(path, key, files, card, (board, self._boards[board]), notes)
        except OSError as e:  # a read-only checkout: a cache of this process's own
            root, self._store = self.store.root, self._own_cache()
            log.info("dipgen: cannot write the cache %s (%s); this build keeps it in %s", display_path(root),
                     e.strerror or e, self._own_store)
            return self.store.put(path, key, files, card, (board, self._boards[board]), notes)

    def _own_cache(self) -> BuildCache:
        """A cache of this process's own, in a temporary folder, sealed with a key of its own."""
        self._own_store = Path(tempfile.mkdtemp(prefix="dipgen-cache-"))
        return BuildCache(self._own_store, os.urandom(32))

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

    @event_priority(-100)  # last: the files every plugin added, before MkDocs reads and converts the pages
    def on_nav(self, nav, *, config, files):
        self._nav = nav
        self._reuse.plan(files, {card.uri.rsplit("/", 1)[0] + "/" for card in self._cards})
        self._remembered.begin(self._state if self._alone else None, files)
        return nav

    @event_priority(-100)  # last: the files every plugin added
    def on_env(self, env, *, config, files):
        self._written = {f.dest_uri for f in files}
        self._linked = [f for f in files if isinstance(f, LinkedFile)]
        self._remembered.watch(search_index(config))  # hand-written pages taken as made keep their entries
        # the nav, tabs and search box drawn once, not for every game's page
        return memoize(self._reuse.loader(env), self._nav, pages_alike(config, self))

    @event_priority(-100)  # last: after every other plugin has written its files (the search index)
    def on_post_build(self, *, config) -> None:
        self.stats["reused"] = self._reuse.reused
        self._release()
        self._hushed = set()
        self.stats["linked"] = sum(1 for f in self._linked if f.linked)
        self._linked = []
        if self._in_place and self._written is not None:
            roots = _roots(self._files) | {self.config.prefix.strip("/"), PRIVATE_DIR, CSS_URI.rsplit("/", 1)[0]}
            removed = _prune(Path(config.site_dir), self._written, roots)
            if removed:
                log.info("dipgen: removed %d file(s) of the last build that this one no longer makes", len(removed))
        self._written = None
        site_dir = self._site_dir
        strict_failed = bool(self._warnings and self._warnings.get_counts())  # MkDocs aborts right after this
        staging = self._end_build(discard=strict_failed)
        if staging is None or strict_failed:
            self._reuse.done(complete=False)
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
        except OSError as e:
            staging.discard()
            raise PluginError(f"dipgen: cannot put the new site in place of {display_path(site_dir)}: "
                              f"{e.strerror}; it is left as it was") from e

    def on_build_error(self, *, error: Exception) -> None:
        self._reuse.done(complete=False)
        self._release()
        if self._end_build(discard=True) is not None:
            log.info("dipgen: the build failed; the site folder is left as it was")

    def _release(self) -> None:
        """Let go of what only a running build holds: the pages it made (read by now: a later build
        reads them from the cache) and the listening for what hand-written pages say."""
        self._remembered.end()
        for entry in self._cache.values():
            entry.made.clear()

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

    @staticmethod
    def _notes(path: Path, loaded: Loaded) -> list[str]:
        """What the build tells the GM about a game: its warnings, and which players of a running
        hidden game get no private page, and why."""
        h = loaded.history
        notes = [str(w) for w in h.warnings]
        if not h.variant.visibility.hidden or revealed(h):
            return notes
        if loaded.secrets is None:
            notes.append(f"dipgen: {h.info.slug}: no private pages for the players (no {SECRETS_FILE}); make one "
                         f"with 'dipgen secrets {display_path(path)}'")
            return notes
        missing = missing_passphrases(loaded)
        if missing:
            notes.append(f"dipgen: {h.info.slug}: no private page for {', '.join(missing)} (no passphrase); add one "
                         f"with 'dipgen secrets {display_path(path)}'")
        return notes

    def on_files(self, files: Files, *, config) -> Files:
        """Add the generated pages and maps; a hand-written page of the same name wins, with a warning.
        Add the package's rules pages and page on dice and lots where the site has none of its own."""
        headings = self._headings
        if headings is None:
            raise PluginError("dipgen: the plugin was not configured (MkDocs calls on_config first)")
        for uri, path in provided_pages(config.docs_dir, self.config.rules_dir).items():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(path)))
        known = files.src_uris  # (get_file_from_path makes a PurePath of every name: thousands of maps)
        for uri, content in self._files.items():
            existing = known.get(uri)
            if existing is not None:
                log.warning("dipgen: %s is generated from the games; the hand-written %s hides it", uri,
                            existing.src_uri)
                continue
            inclusion = InclusionLevel.NOT_IN_NAV if uri.endswith(".md") else InclusionLevel.UNDEFINED
            if isinstance(content, Path) and not uri.endswith(".md"):  # a map, from the cache or the last site
                file = LinkedFile.made(config, uri, content, inclusion, self._reuse.unchanged_file(uri))
            elif isinstance(content, Path):  # a file in the cache, rewritten only when its content changes
                file = File.generated(config, uri, abs_src_path=str(content), inclusion=inclusion)
            elif self._dirty:
                file = File.generated(config, uri, abs_src_path=self._stage_file(uri, content), inclusion=inclusion)
            else:
                file = File.generated(config, uri, content=content, inclusion=inclusion)
            files.append(file)
            if file.is_documentation_page() and (isinstance(content, SitePage) or uri in self._pages):
                GeneratedPage(None, file, config, source=self._reader(uri, content), headings=headings,
                              origin=partial(self._named_origin, uri, config),
                              searched=search_index(config) is not None,
                              light=None if isinstance(content, SitePage) else partial(self._light, uri))
        if self._command == "serve":
            livereload.add_file(config, files)
        if self._dirty and self._stage is not None:  # what earlier builds staged and this one does not make
            _prune(self._stage, set(self._files), {p.name for p in self._stage.iterdir() if p.is_dir()})
        return files

    def _light(self, uri: str) -> dict | None:
        """The front matter of a page whose output this build expects to take as it was, where no
        other plugin reads pages' sources or output (their text is not read at all); else None."""
        if not self._alone or not self._reuse.may_take(uri):
            return None
        return SitePage.meta_of(self._pages[uri].pages[uri])

    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        if page.file.src_uri in self._origins and page.file.generated_by and not isinstance(page, GeneratedPage):
            name_failures(page, self._origin(page.file.src_uri, config))
        text = with_cards(markdown, self._cards, self._options, page.file.src_uri)
        if isinstance(page, GeneratedPage):
            # unchanged, and so is the rest of the site (`reuse`); its output read only for other plugins
            page.reused = self._reuse.output(page, read=not self._alone)
            return text
        return self._remembered.markdown(page, text)  # "" where it is taken as an earlier build made it

    @event_priority(100)  # first: the page's HTML back before any plugin reads it
    def on_page_context(self, context, *, page, config, nav):
        """Give the search index the entries of a page handed over as HTML (`mkdocs_pages`)."""
        if isinstance(page, GeneratedPage):
            page.take_back()
        if isinstance(page, GeneratedPage) and page.direct:
            index = search_index(config)
            entries = []
            if index is not None and page.reused is not None:
                entries = page.reused[1]
                index.entries.extend(entries)
            elif index is not None:
                before = len(index.entries)
                index_page(index, page)
                entries = index.entries[before:]
            self._reuse.made(page, entries, page.present_anchor_ids)
        return context

    @event_priority(-100)  # last: every plugin has changed the page's HTML as it would
    def on_page_content(self, html: str, *, page, config, files) -> str:
        if isinstance(page, GeneratedPage) and page.direct and page.reused is not None:
            page.dipgen_output = page.reused[0]
            page.meta["template"] = REUSED
            return html
        if isinstance(page, GeneratedPage):
            return page.set_aside(html)
        return self._remembered.content(page, html, files)

    @event_priority(-100)  # last: every plugin has seen the page
    def on_post_page(self, output: str, *, page, config) -> str:
        if isinstance(page, GeneratedPage):
            # a page taken as it was, which no plugin changed: its file in the last site linked into
            # this one, and MkDocs given nothing to write (its note that it wrote nothing is hushed)
            same = page.reused is not None and output == page.reused[0] and self._reuse.link_output(page)
            unread = page.reused is not None and not same and output == page.reused[0] == ""
            page.drop()  # written: a big archive need not hold every page's text till the end
            if same:
                self._hushed.add(f"Page skipped: '{page.file.src_uri}'. Generated empty output.")
                return ""
            if unread:  # not read (`_alone`), and not linked after all: MkDocs writes it
                text = self._reuse.text_of(page)
                if text is None:
                    raise PluginError(f"dipgen: the last build's {page.file.dest_uri} went while this one ran; "
                                      "build again")
                return text
        return output

    def _reader(self, uri: str, content):
        """How a generated page is read when MkDocs reads it: as it is, or from the cache."""
        if isinstance(content, SitePage):
            return lambda: content
        entry = self._pages[uri]
        return lambda: entry.page(uri)

    def _stage_file(self, uri: str, content: str) -> str:
        """For `serve --dirty`: the file on disk, rewritten only when its content changed, so that
        MkDocs (which compares modification times) rebuilds only what changed."""
        if self._stage is None:
            self._stage = Path(tempfile.mkdtemp(prefix="dipgen_"))
        path = self._stage / uri
        data = content.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return str(path)


def _source(folder: Path, uri: str) -> Path:
    """The file a generated page is made from: its phase's file if there is one, else the game folder
    (a season's page is ``<phase>/index.md``)."""
    phase = folder / (Path(uri).parent.name + ".yml")
    return phase if Path(uri).suffix == ".md" and phase.is_file() else folder
