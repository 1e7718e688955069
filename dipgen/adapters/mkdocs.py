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
generator's templates, so that during `mkdocs serve` (the plugin lives across rebuilds
because it has `on_startup`) only a changed game is adjudicated and drawn again. With
`mkdocs serve --dirty` the generated files are also kept on disk and rewritten only when
their content changes, so MkDocs re-renders just the pages of the changed game.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets as _random
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.utils import CountHandler

from dipgen import __version__
from dipgen.core.errors import GameError, Problem, display_path, visible
from dipgen.io.secretsfile import SECRETS_FILE
from dipgen.io.folders import discover_games
from dipgen.adapters.games import Loaded, load_checked
from dipgen.core.crypt import PRIVATE_DIR
from dipgen.adapters.publish import (archive_files, editions, game_files, missing_passphrases, provided_pages,
                                     site_options, with_cards)
from dipgen.io.secretsfile import shared_secrets
from dipgen.present.site import SiteOptions, generator_fingerprint
from dipgen.present.site.pages import CSS_URI, JS_URI, add_overrides
from dipgen.view import GameView, revealed

log = logging.getLogger("mkdocs.plugins.dipgen")


class DipgenConfig(base.Config):
    games_dir = c.Type(str, default="games")
    """The folder holding one folder per game, relative to mkdocs.yml."""
    prefix = c.Type(str, default="games")
    """Where the generated pages go in the site: ``<prefix>/index.md`` is the archive."""
    rules_dir = c.Type(str, default="rules")
    """The rules pages, one per variant: ``<rules_dir>/<variant>.md``; dipgen adds its own for each
    variant the site has no page of its own for (and ``draws.md``, the page on dice and lots)."""


@dataclass
class _Cached:
    key: str
    loaded: Loaded
    files: dict[str, str]

    @property
    def public(self) -> GameView:
        return editions(self.loaded)[0]


BUG = ("'dipgen check' may name the file to fix; if it finds nothing, this is a bug in dipgen: report it "
       "with the game's files ('mkdocs build -v' shows the details)")


def failure(where: str, e: BaseException, what: str, hint: str = BUG) -> str:
    """An unexpected exception, said plainly: where, what dipgen was doing, and what to do."""
    detail = str(e).strip().splitlines()[0][:300] if str(e).strip() else ""
    return visible(f"{where}: error: {what} failed ({type(e).__name__}{': ' + detail if detail else ''})\n"
                   f"    hint: {hint}")


class _Staging:
    """A build written into a folder beside the site folder, which replaces the site folder only
    once the build is complete.

    Two builds may run at once (a `mkdocs serve` and a `mkdocs build`, two terminals): each
    writes its own folder, holds a lock on it (`flock`, released by the system when the process
    ends, however it ends) from the moment it is made until it becomes the site or is removed,
    and the last to finish gives the site, as with MkDocs alone. A folder of that name whose lock
    nobody holds is a leftover of a build that was killed: `sweep` removes it."""

    #: a leftover younger than this (seconds since it last changed) is left alone, lock or not: it
    #: may be a build's that has made its folder and not yet locked it (a matter of microseconds);
    #: where there are no locks, it may be a build still running, so a day
    GRACE = 10.0
    NO_LOCKS_GRACE = 24 * 3600.0

    def __init__(self, site: Path):
        self.site = site
        site.parent.mkdir(parents=True, exist_ok=True)
        self.path = site.with_name(f".{site.name}.dipgen-building-{_random.token_hex(4)}")
        self.path.mkdir()  # the mode the umask gives, as MkDocs would make the site folder
        try:
            self._lock = _lock(self.path)
        except OSError:
            self.path.rmdir()
            raise
        if site.is_dir():
            self.path.chmod(site.stat().st_mode & 0o7777)

    @staticmethod
    def usable(site: Path) -> bool:
        """A site folder that can be replaced by renaming: not a link, not a mount point, not a file."""
        return not site.is_symlink() and not os.path.ismount(site) and (site.is_dir() or not site.exists())

    @classmethod
    def sweep(cls, site: Path) -> list[str]:
        """Remove what builds that were killed left beside `site`: only folders named exactly as
        this class names them (not links), unchanged for GRACE, whose lock no running build holds.
        Returns the names removed."""
        pattern = re.compile(re.escape(f".{site.name}.dipgen-building-") + "[0-9a-f]{8}")
        removed = []
        try:
            entries = list(site.parent.iterdir())
        except OSError:
            return removed
        for entry in entries:
            if not pattern.fullmatch(entry.name) or entry.is_symlink() or not entry.is_dir():
                continue
            try:
                age = time.time() - entry.stat().st_mtime
                lock = _lock(entry)
            except OSError:
                continue  # gone meanwhile, or in use (the lock is held)
            try:
                if age >= (cls.GRACE if lock is not None else cls.NO_LOCKS_GRACE):
                    shutil.rmtree(entry, ignore_errors=True)
                    removed.append(entry.name)
            finally:
                _unlock(lock)
        return removed

    def commit(self) -> None:
        try:
            self._commit()
        finally:
            _unlock(self._lock)
            self._lock = None

    def _commit(self) -> None:
        if not self.site.exists():
            self.path.rename(self.site)
            return
        old = self.site.with_name(f".{self.site.name}.dipgen-old-{_random.token_hex(4)}")
        self.site.rename(old)
        try:
            self.path.rename(self.site)
        except OSError:
            old.rename(self.site)
            raise
        kept = True
        for entry in old.iterdir():  # MkDocs never cleans hidden entries (a deploy checkout's .git): keep them
            if entry.name.startswith(".") and not (self.site / entry.name).exists():
                try:
                    entry.rename(self.site / entry.name)
                except OSError:
                    kept = False
        if kept:
            shutil.rmtree(old, ignore_errors=True)
        else:
            log.warning("dipgen: the previous site is kept in %s: some of its hidden files could not be moved",
                        display_path(old))

    def discard(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        _unlock(self._lock)
        self._lock = None


def _lock(folder: Path):
    """An exclusive lock on `folder` (a descriptor of it, locked with flock), or None where the
    system has no flock. OSError if another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: no locks; `sweep` then waits a day before it takes a folder for a leftover
        return None
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise
    return fd


def _unlock(fd) -> None:
    if fd is not None:
        os.close(fd)  # closing the descriptor releases the lock


def _prune(site: Path, written: set[str], roots: set[str]) -> list[str]:
    """In a dirty build, remove the files under `roots` (the folders dipgen writes into) that
    this build did not write (`written`: the site paths of every file of the build), as a clean
    build would: a game that is no longer revealed loses its full edition, a revealed one its
    private pages, a deleted one its pages. Hidden entries (dot names) are left alone, as MkDocs
    leaves them. Returns the paths removed."""
    removed = []
    for root in sorted(roots):
        top = site / root
        if top.is_symlink() or not top.is_dir():
            continue
        for folder, dirs, files in os.walk(top, topdown=False):
            here = Path(folder)
            if any(part.startswith(".") for part in here.relative_to(site).parts):
                continue
            for name in files:
                uri = (here / name).relative_to(site).as_posix()
                if not name.startswith(".") and uri not in written:
                    (here / name).unlink(missing_ok=True)
                    removed.append(uri)
            for name in dirs:
                try:
                    (here / name).rmdir()  # only if empty now
                except OSError:
                    pass
    return removed


def _roots(uris) -> set[str]:
    """The folders of the site that dipgen writes into: each generated file's first folder
    (``games``, ``private``), or its first two under ``assets`` (``assets/dipgen``, ``assets/maps``),
    which the theme and other plugins share."""
    roots = set()
    for uri in uris:
        parts = uri.split("/")
        n = 2 if parts[0] == "assets" else 1
        if len(parts) > n:
            roots.add("/".join(parts[:n]))
    return roots


def game_hash(folder: Path) -> str:
    """A hash of everything in a game folder that the build reads, secrets.yml included (a new
    passphrase re-encrypts the pages)."""
    digest = hashlib.sha256()
    for f in sorted(folder.rglob("*")):
        if f.is_file() and not any(part.startswith(".") for part in f.relative_to(folder).parts):
            digest.update(f.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(f.read_bytes() + b"\0")
    return digest.hexdigest()


class DipgenPlugin(BasePlugin[DipgenConfig]):
    def __init__(self) -> None:
        self._cache: dict[str, _Cached] = {}
        self._dirty = False
        self._command = ""
        self._hinted = False
        self._stage: Path | None = None
        self._views: list[GameView] = []  # each game's public view, for the archive and the home page
        self._files: dict[str, str] = {}
        self._options = SiteOptions()
        self._origins: dict[str, Path] = {}  # generated page -> the file or folder it comes from
        self._in_place = False               # a dirty build: MkDocs writes over the site as it goes
        self._staging: _Staging | None = None
        self._site_dir = ""                  # the configured site folder, while the build goes to staging
        self._config = None                  # ... and the config that names the staging folder instead
        self._warnings: CountHandler | None = None
        self._written: set[str] | None = None  # the site paths of every file of the build (for `_prune`)
        self.stats: dict[str, float] = {}

    # ----- lifecycle
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defining this keeps one plugin object across `mkdocs serve` rebuilds, and so the cache."""
        self._command = command
        self._dirty = dirty and command == "serve"
        self._in_place = dirty
        self._hinted = False

    def on_shutdown(self) -> None:
        self._end_build(discard=True)
        if self._stage is not None:
            shutil.rmtree(self._stage, ignore_errors=True)
            self._stage = None

    def games_path(self, config) -> Path:
        base_dir = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        return (base_dir / self.config.games_dir).resolve()

    def on_config(self, config):
        add_overrides(config.theme.dirs, config.theme.custom_dir)  # the pages' Content-Security-Policy
        self._end_build(discard=True)  # whatever an interrupted build (Ctrl-C) left
        if config.strict:  # counted as MkDocs counts them, to keep the old site when --strict fails
            self._warnings = CountHandler()
            self._warnings.setLevel(logging.WARNING)
            logging.getLogger("mkdocs").addHandler(self._warnings)
        for uri, option in ((CSS_URI, config.extra_css), (JS_URI, config.extra_javascript)):
            if uri not in [str(x) for x in option]:
                option.append(uri)
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
                               directory_urls=config.use_directory_urls, rules_dir=self.config.rules_dir)
        fingerprint = f"{__version__}:{generator_fingerprint()}:{options!r}"
        paths = discover_games(folder) if folder.is_dir() else []
        if not folder.is_dir():
            log.warning("no games folder at %s; the archive is empty", display_path(folder))
        problems: list[Problem | str] = []
        fresh: dict[str, _Cached] = {}
        redone = 0
        shared = {str(folder): problem for folder, problem in shared_secrets(paths)}  # as dipgen check does
        for path in paths:
            own = [shared[str(path)]] if str(path) in shared else []
            try:
                try:
                    entry = self._game(path, fingerprint, options)
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
                redone += entry is not self._cache.get(str(path))
                fresh[str(path)] = entry
                continue
            if self._command == "serve" and str(path) in self._cache:
                fresh[str(path)] = self._cache[str(path)]  # its last good build, while the GM fixes it
        if problems:
            errors = sum(1 for p in problems if not isinstance(p, Problem) or p.severity == "error")
            listed = visible("\n".join(str(p) for p in problems)) + f"\n{errors} error(s) in the games"
            if len(fresh) < len(paths):
                raise PluginError(listed + "; nothing was built (run 'dipgen check' for the same list)")
            log.error("%s; until they are fixed, the server shows the last good build of those games", listed)
        views = [entry.public for entry in fresh.values()]
        files: dict[str, str] = {}
        origins: dict[str, Path] = {}
        for path, entry in fresh.items():
            files.update(entry.files)
            origins.update({uri: _source(Path(path), uri) for uri in entry.files})
        try:
            files.update(archive_files(views, options))
        except Exception as e:
            log.debug("dipgen: the archive", exc_info=True)
            raise PluginError(failure(display_path(folder), e, "drawing the archive's pages")) from e
        self._cache = fresh
        self._options = options
        self._views = views
        self._files = files
        self._origins = origins
        self._build_aside(config)
        self.stats = {"games": len(paths), "redone": redone, "seconds": time.perf_counter() - started}
        log.info("dipgen: %d game(s), %d adjudicated afresh, %d files in %.2fs",
                 len(paths), redone, len(files), self.stats["seconds"])
        if self._command == "serve" and not self._dirty and len(files) > 1000 and not self._hinted:
            self._hinted = True
            log.info("dipgen: a big archive; 'mkdocs serve --dirty' re-renders only the pages of a changed game")

    def _game(self, path: Path, fingerprint: str, options: SiteOptions) -> _Cached:
        """One game read, adjudicated and all its pages made, or taken from the cache if unchanged."""
        key = hashlib.sha256(f"{fingerprint}:{game_hash(path)}".encode()).hexdigest()
        cached = self._cache.get(str(path))
        if cached is not None and cached.key == key:
            return cached
        loaded = load_checked(path)  # as 'dipgen check' reads it: they refuse the same things
        for w in loaded.history.warnings:
            log.info(str(w))
        self._say_private(path, loaded)
        # encrypted afresh only here: an unchanged game keeps its pages (and their salts) from the cache
        return _Cached(key, loaded, game_files(loaded, options))

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

    @event_priority(-100)  # last: the files every plugin added
    def on_env(self, env, *, config, files):
        self._written = {f.dest_uri for f in files}
        return env

    @event_priority(-100)  # last: after every other plugin has written its files (the search index)
    def on_post_build(self, *, config) -> None:
        if self._in_place and self._written is not None:
            roots = _roots(self._files) | {self.config.prefix.strip("/"), PRIVATE_DIR, CSS_URI.rsplit("/", 1)[0]}
            removed = _prune(Path(config.site_dir), self._written, roots)
            if removed:
                log.info("dipgen: removed %d file(s) of the last build that this one no longer makes", len(removed))
        self._written = None
        site_dir = self._site_dir
        strict_failed = bool(self._warnings and self._warnings.get_counts())  # MkDocs aborts right after this
        staging = self._end_build(discard=strict_failed)
        if staging is None:
            return
        if strict_failed:
            log.error("dipgen: %s is left as it was (warnings under --strict)", display_path(site_dir))
            return
        try:
            staging.commit()
        except OSError as e:
            staging.discard()
            raise PluginError(f"dipgen: cannot put the new site in place of {display_path(site_dir)}: "
                              f"{e.strerror}; it is left as it was") from e

    def on_build_error(self, *, error: Exception) -> None:
        if self._end_build(discard=True) is not None:
            log.info("dipgen: the build failed; the site folder is left as it was")

    def _end_build(self, discard: bool) -> _Staging | None:
        """Give the config its site folder back, and forget the warning count; returns the staging
        folder, if any, removed first with `discard`."""
        staging = self._staging
        if staging is not None:
            self._config.site_dir = self._site_dir
            if discard:
                staging.discard()
        self._staging, self._config, self._site_dir = None, None, ""
        if self._warnings is not None:
            logging.getLogger("mkdocs").removeHandler(self._warnings)
            self._warnings = None
        return staging

    @staticmethod
    def _say_private(path: Path, loaded: Loaded) -> None:
        """Tell the GM which players of a running hidden game get no private page, and why."""
        h = loaded.history
        if not h.variant.visibility.hidden or revealed(h):
            return
        if loaded.secrets is None:
            log.info("dipgen: %s: no private pages for the players (no %s); make one with 'dipgen secrets %s'",
                     h.info.slug, SECRETS_FILE, display_path(path))
            return
        missing = missing_passphrases(loaded)
        if missing:
            log.info("dipgen: %s: no private page for %s (no passphrase); add one with 'dipgen secrets %s'",
                     h.info.slug, ", ".join(missing), display_path(path))

    def on_files(self, files: Files, *, config) -> Files:
        """Add the generated pages and maps; a hand-written page of the same name wins, with a warning.
        Add the package's rules pages and page on dice and lots where the site has none of its own."""
        for uri, path in provided_pages(config.docs_dir, self.config.rules_dir).items():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(path)))
        for uri, content in self._files.items():
            existing = files.get_file_from_path(uri)
            if existing is not None:
                log.warning("dipgen: %s is generated from the games; the hand-written %s hides it", uri,
                            existing.src_uri)
                continue
            inclusion = InclusionLevel.NOT_IN_NAV if uri.endswith(".md") else InclusionLevel.UNDEFINED
            if self._dirty:
                files.append(File.generated(config, uri, abs_src_path=self._stage_file(uri, content),
                                            inclusion=inclusion))
            else:
                files.append(File.generated(config, uri, content=content, inclusion=inclusion))
        if self._dirty and self._stage is not None:  # what earlier builds staged and this one does not make
            _prune(self._stage, set(self._files), {p.name for p in self._stage.iterdir() if p.is_dir()})
        return files

    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        origin = self._origins.get(page.file.src_uri)
        if origin is not None and page.file.generated_by:
            _name_failures(page, origin)
        return with_cards(markdown, self._views, self._options, page.file.src_uri)

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


def _name_failures(page, origin: Path) -> None:
    """Make a failure to render a generated page (Markdown nested too deeply for the converter,
    say) a PluginError naming the game's file, rather than a traceback."""
    render = page.render

    def guarded(config, files) -> None:
        try:
            render(config, files)
        except Exception as e:
            log.debug("dipgen: %s", page.file.src_uri, exc_info=True)
            raise PluginError(failure(display_path(origin), e, f"rendering the page {page.file.src_uri}",
                                      "look for Markdown nested very deeply (lists, quotes) in its press, notes "
                                      "or description; if there is none, this is a bug in dipgen: report it with "
                                      "the game's files")) from e

    page.render = guarded
