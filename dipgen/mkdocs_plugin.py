"""The `dipgen` MkDocs plugin: a thin adapter that adds the results site to a build.

    plugins:
      - search
      - dipgen:
          games_dir: games     # the folder of game folders, relative to mkdocs.yml

Before each build the plugin reads and adjudicates every game (`on_pre_build`, before
MkDocs cleans the site folder, so a broken game stops the build with nothing written:
the message is the one `dipgen check` prints). It then registers the generated pages and
maps (`dipgen.site`, pure functions of the histories) as files (`on_files`).

Each game's output is cached under a hash of all its files, the dipgen version and the
generator's templates, so that during `mkdocs serve` (the plugin lives across rebuilds
because it has `on_startup`) only a changed game is adjudicated and drawn again. With
`mkdocs serve --dirty` the generated files are also kept on disk and rewritten only when
their content changes, so MkDocs re-renders just the pages of the changed game.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel

from . import __version__
from .errors import GameError, display_path
from .game import SECRETS_FILE, discover_games, load_game
from .history import History, replay
from .secrets import load_secrets
from .site import (SiteOptions, archive_page, games_cards, generator_fingerprint, private_files, published_files,
                   revealed, shared_files)
from .site.pages import CSS_URI, JS_URI, add_overrides

log = logging.getLogger("mkdocs.plugins.dipgen")

#: A hand-written page with this line gets a card per game in its place (running games first).
GAMES_MARKER = "<!-- dipgen:games -->"


class DipgenConfig(base.Config):
    games_dir = c.Type(str, default="games")
    """The folder holding one folder per game, relative to mkdocs.yml."""
    prefix = c.Type(str, default="games")
    """Where the generated pages go in the site: ``<prefix>/index.md`` is the archive."""
    rules_dir = c.Type(str, default="rules")
    """The hand-written rules pages, one per variant: ``<rules_dir>/<variant>.md``."""


@dataclass
class _Cached:
    key: str
    history: History
    files: dict[str, str]


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
        self._histories: list[History] = []
        self._files: dict[str, str] = {}
        self._options = SiteOptions()
        self.stats: dict[str, float] = {}

    # ----- lifecycle
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defining this keeps one plugin object across `mkdocs serve` rebuilds, and so the cache."""
        self._command = command
        self._dirty = dirty and command == "serve"
        self._hinted = False

    def on_shutdown(self) -> None:
        if self._stage is not None:
            shutil.rmtree(self._stage, ignore_errors=True)
            self._stage = None

    def games_path(self, config) -> Path:
        base_dir = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        return (base_dir / self.config.games_dir).resolve()

    def on_config(self, config):
        add_overrides(config.theme.dirs, config.theme.custom_dir)  # the pages' Content-Security-Policy
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
        """Adjudicate every game (or take it from the cache); stop the build on any error."""
        started = time.perf_counter()
        folder = self.games_path(config)
        rules_dir = Path(config.docs_dir) / self.config.rules_dir
        options = SiteOptions(level="public", prefix=self.config.prefix, directory_urls=config.use_directory_urls,
                              rules={p.stem: f"{self.config.rules_dir}/{p.name}" for p in rules_dir.glob("*.md")},
                              docs_dir=config.docs_dir)
        fingerprint = f"{__version__}:{generator_fingerprint()}:{options!r}"
        paths = discover_games(folder) if folder.is_dir() else []
        if not folder.is_dir():
            log.warning("no games folder at %s; the archive is empty", display_path(folder))
        problems = []
        fresh: dict[str, _Cached] = {}
        redone = 0
        for path in paths:
            key = hashlib.sha256(f"{fingerprint}:{game_hash(path)}".encode()).hexdigest()
            cached = self._cache.get(str(path))
            if cached is not None and cached.key == key:
                fresh[str(path)] = cached
                continue
            try:
                history = replay(load_game(path))
                secrets = self._secrets(path, history)
                files = published_files(history, options)  # GameError: Markdown or links it cannot publish
            except GameError as e:
                problems.extend(e.problems)
                continue
            for w in history.warnings:
                log.info(str(w))
            # encrypted afresh only here: an unchanged game keeps its pages (and their salts) from the cache
            files.update(private_files(history, secrets, options))
            fresh[str(path)] = _Cached(key, history, files)
            redone += 1
        if problems:
            errors = sum(1 for p in problems if p.severity == "error")
            raise PluginError("\n".join(str(p) for p in problems) + f"\n{errors} error(s) in the games; "
                              "nothing was built (run 'dipgen check' for the same list)")
        self._cache = fresh
        self._options = options
        self._histories = [entry.history for entry in fresh.values()]
        files: dict[str, str] = {}
        for entry in fresh.values():
            files.update(entry.files)
        files.update(archive_page(self._histories, options))
        files.update(shared_files(self._histories))
        self._files = files
        self.stats = {"games": len(paths), "redone": redone, "seconds": time.perf_counter() - started}
        log.info("dipgen: %d game(s), %d adjudicated afresh, %d files in %.2fs",
                 len(paths), redone, len(files), self.stats["seconds"])
        if self._command == "serve" and not self._dirty and len(files) > 1000 and not self._hinted:
            self._hinted = True
            log.info("dipgen: a big archive; 'mkdocs serve --dirty' re-renders only the pages of a changed game")

    def _secrets(self, path: Path, history: History):
        """The game's secrets.yml, if it needs one (a running hidden game) and has one."""
        if revealed(history):
            return None
        file = path / SECRETS_FILE
        if not file.exists():
            log.info("dipgen: %s: no private pages for the players (no %s); make one with 'dipgen secrets %s'",
                     history.game.slug, SECRETS_FILE, display_path(path))
            return None
        secrets = load_secrets(file, history.game.variant.powers())
        missing = [p for p in history.game.variant.powers() if p not in secrets.passphrases]
        if missing:
            log.info("dipgen: %s: no private page for %s (no passphrase); add one with 'dipgen secrets %s'",
                     history.game.slug, ", ".join(missing), display_path(path))
        return secrets

    def on_files(self, files: Files, *, config) -> Files:
        """Add the generated pages and maps; a hand-written page of the same name wins, with a warning."""
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
        return files

    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        if GAMES_MARKER in markdown:
            block = games_cards(self._histories, self._options, page.file.src_uri)
            markdown = markdown.replace(GAMES_MARKER, "\n" + block + "\n")
        return markdown

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
