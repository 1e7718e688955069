"""The `dipgen` MkDocs plugin: it adds the results site to a build.

    plugins:
      - search
      - dipgen:
          games_dir: games     # the folder of game folders, relative to mkdocs.yml

Before each build the plugin reads and adjudicates every game and makes all its pages and maps
(`on_pre_build`: MkDocs runs it before it cleans the site folder, so a broken game stops the
build with nothing written; the message is the one `dipgen check` prints, and an unexpected
failure names the game too). It adds them to the build as files (`on_files`), with the package's
rules pages where the site has none of its own, and puts the games' cards in a hand-written page
that asks for them (`on_page_markdown`). A dirty build writes in place, as MkDocs does, and then
removes what dipgen wrote before and no longer makes (`prune`): a game no longer revealed loses
its full edition.

Under `mkdocs serve` the games folder is watched, a page reloads itself after an edit
(`livereload`), and a game that breaks while the GM edits it is reported and shown as it last
built, so the server goes on serving (when a rebuild fails, MkDocs's server holds every request
until a rebuild succeeds).

What makes a build fast (each game's output cached, pages handed over as HTML, what did not
change taken as it was under serve, the theme's partials drawn once) and safe to interrupt (the
site built beside the old one) is not here: the plugin hands each event to one seam
(`dipgen.mkdocs.seam`), which the speed layers (`dipgen.mkdocs.speed`) fill. With
``speed: false`` the seam does nothing, and the site is the same.
"""

from __future__ import annotations

import logging
import os
import time
from functools import partial
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel

from dipgen.present.site.crypt import PRIVATE_DIR
from dipgen.core.errors import Problem
from dipgen.io.paths import display_path
from dipgen.io.folders import discover_games
from dipgen.io.secretsfile import shared_secrets
from dipgen.usecases.publish import (archive_files_of, cards_into, marked_for_cards, players_options, provided_pages,
                                     site_options)
from dipgen.mkdocs.reported import report_problems
from dipgen.mkdocs import livereload, output, parallel
from dipgen.mkdocs.failures import failure, name_failures
from dipgen.mkdocs.prune import prune, roots
from dipgen.mkdocs.output import Content, Output
from dipgen.mkdocs.pagefind import BUNDLE, PagefindError, index_site
from dipgen.mkdocs.search import split_index
from dipgen.mkdocs.seam import Seam
from dipgen.mkdocs.speed import Layers
from dipgen.present.site import SiteOptions
from dipgen.present.site.card import GameCard
from dipgen.present.site.pages import CSS_URI, JS_URI, add_overrides
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
    rating_games = c.Optional(c.Type(int))  # the rating's tables list players from this many games (3: README)
    search = c.Choice(("pagefind", "material"), default="pagefind")
    """The site's search: ``pagefind``, an index in chunks that a search fetches a few of (its cost to
    a reader does not grow with the archive; `dipgen.mkdocs.pagefind`), or ``material``, Material's
    index of every page, fetched whole on a reader's first search (`dipgen.mkdocs.search`). Under
    ``mkdocs serve`` it is Material's either way (README, "What a page costs a reader")."""
    workers = c.Optional(c.Type(int))
    """How many processes make the games (each game read, adjudicated and drawn in one); unset, as
    many as the machine has cores; 1, all in MkDocs's own process (README, "Big archives")."""
    speed = c.Type(bool, default=True)
    """The speed layers (`dipgen.mkdocs.speed`); off, every build is made the plain way: the same
    site, slower (README, "For developers")."""


class DipgenPlugin(BasePlugin[DipgenConfig]):
    def __init__(self) -> None:
        self.seam: Seam = Seam()
        self._command = ""
        self._dirty = False                   # a dirty build: MkDocs writes over the last site
        self._games: dict[str, Output] = {}   # each game's output, by its folder (its last good one)
        self._folder = Path()                 # the games folder
        self._files: dict[str, Content] = {}  # each generated file, by its path in the site
        self._slugs: dict[str, str] = {}      # a game's folder name (its address in the site) -> the folder
        self.cards: list[GameCard] = []           # each game's card, for the archive and the home page
        self._options = SiteOptions()
        self._written: set[str] | None = None  # the site paths of every file of the build (for `prune`)
        self._serving: tuple | None = None     # under serve: MkDocs's server and the games folder it watches

    @property
    def stats(self) -> dict[str, float]:
        """What the last build did: games, games made afresh ("redone"), seconds, and the speed layers'."""
        return self.seam.stats

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defining this keeps one plugin object across `mkdocs serve` rebuilds (the speed layers' memory)."""
        self._command, self._dirty = command, dirty
        self.seam.startup(command, dirty)

    def on_shutdown(self) -> None:
        self.seam.shutdown()

    def games_path(self, config) -> Path:
        base_dir = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        return (base_dir / self.config.games_dir).resolve()

    @event_priority(50)  # before the search plugin's, which makes environments of the theme
    def on_config(self, config):
        if type(self.seam) is not (Layers if self.config.speed else Seam):  # (or mkdocs.yml changed under serve)
            self.seam.shutdown()
            self.seam = Layers(self) if self.config.speed else Seam()
            self.seam.startup(self._command, self._dirty)
            if self._serving is not None:  # the new seam watches the games folder the old one did
                self.seam.serving(*self._serving)
        if self.config.workers is not None and self.config.workers < 1:
            raise PluginError(f"dipgen: workers: {self.config.workers} is no number of processes; "
                              "write 1 or more, or leave it out (as many as the machine has cores)")
        add_overrides(config.theme.dirs, config.theme.custom_dir)  # the pages' Content-Security-Policy
        self.seam.configured(config)
        for uri, option in ((CSS_URI, config.extra_css), (JS_URI, config.extra_javascript)):
            if uri not in [str(x) for x in option]:
                option.append(uri)
        if self._command == "serve":
            livereload.add_script(config)  # the page reloads itself after an edit, within its policy
        return config

    def on_serve(self, server, *, config, builder):
        games = self.games_path(config)
        if games.is_dir():
            self._serving = (server, games)
            self.seam.serving(server, games)  # the games folder watched
        return server

    # ----- the games
    def on_pre_build(self, *, config) -> None:
        """Read every game (or have the seam take it from a cache); stop the build on any error, except
        under `mkdocs serve` for a game that has built before: its last good build stays on show."""
        started = time.perf_counter()
        folder = self._folder = self.games_path(config)
        options = site_options(config.docs_dir, prefix=self.config.prefix,
                               directory_urls=config.use_directory_urls, rules_dir=self.config.rules_dir,
                               site_url=config.site_url, site_name=config.site_name, palette=self.config.palette,
                               scoring=self.config.scoring, previews=self._command != "serve",
                               **players_options(self.config))
        paths = discover_games(folder) if folder.is_dir() else []
        if not folder.is_dir():
            log.warning("no games folder at %s; the archive is empty", display_path(folder))
        self.seam.begin(options)
        fresh, problems, made = self._read_games(paths, options)
        if problems:
            report_problems(problems, stop=len(fresh) < len(paths))
        self.cards = [game.card for game in fresh.values()]
        self._files = self.seam.merged(list(fresh.values()))
        self._slugs = {Path(where).name: where for where in fresh}
        try:
            self._files.update(self.seam.archive(self.cards, options,
                                                 lambda: archive_files_of(self.cards, {}, options)))
        except Exception as e:
            log.debug("dipgen: the archive", exc_info=True)
            raise PluginError(failure(display_path(folder), e, "drawing the archive's pages")) from e
        self._games, self._options = fresh, options  # (before any page is read: `_game_of`)
        self.seam.stats = {"games": len(paths), "redone": len(made), "moved": 0,
                           "workers": parallel.processes(self._workers(), len(made))}
        self.seam.prepared(config, fresh, not problems, self._files)
        self.seam.stats["seconds"] = time.perf_counter() - started
        log.info("dipgen: %d game(s), %d adjudicated afresh, %d files in %.2fs",
                 len(paths), len(made), len(self._files), self.seam.stats["seconds"])

    def _read_games(self, paths: list[Path], options: SiteOptions) -> tuple[dict[str, Output], list, list[Path]]:
        """Each game's output, by folder: from the seam's cache, else made (on `workers` processes:
        `parallel`); the problems of those that failed, in the games' order (under `mkdocs serve`, a
        game that has built before keeps its last good build while the GM fixes it); the games made."""
        found: dict[str, Output | None] = {}
        failed: dict[str, list[Problem | str]] = {}
        boards: dict[str, str] = {}
        commits = self.seam.commits(paths)  # one git log for every game
        for path in paths:
            try:
                found[str(path)] = self.seam.cached(path, commits[str(path)], self._games.get(str(path)))
            except Exception as e:  # a cache nobody foresaw: still a message naming the game
                failed[str(path)] = [_failure(path, e)]
        missing = [path for path in paths if found.get(str(path)) is None and str(path) not in failed]
        made = parallel.make_games(missing, options, commits, self._workers(),
                                   lambda path: output.make(path, options, commits[str(path)], boards))
        for path, result in made:
            failed[str(path)] = result.problems
            try:
                found[str(path)] = None if result.game is None else self.seam.made(path, commits[str(path)],
                                                                                   result.game)
            except Exception as e:
                failed[str(path)] = [_failure(path, e)]
        shared = {str(folder): problem for folder, problem in shared_secrets(paths)}  # as dipgen check does
        problems: list[Problem | str] = []
        fresh: dict[str, Output] = {}
        for path in paths:
            own = failed.get(str(path), []) + ([shared[str(path)]] if str(path) in shared else [])
            game = found.get(str(path))
            problems.extend(own)
            if game is not None and not own:
                fresh[str(path)] = game
            elif self._command == "serve" and str(path) in self._games:
                fresh[str(path)] = self._games[str(path)]  # its last good build, while the GM fixes it
        return fresh, problems, missing

    def _workers(self) -> int:
        return self.config.workers or parallel.cores()

    # ----- the files
    def on_files(self, files: Files, *, config) -> Files:
        """Add the generated pages and maps; a hand-written page of the same name wins, with a warning.
        Add the package's rules pages and page on dice and lots where the site has none of its own."""
        for uri, path in provided_pages(config.docs_dir, self.config.rules_dir).items():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(path)))
        known = files.src_uris  # (get_file_from_path makes a PurePath of every name: thousands of maps)
        for uri, content in self.seam.given(config, self._files, known).items():
            existing = known.get(uri)
            if existing is not None:
                log.warning("dipgen: %s is generated from the games; the hand-written %s hides it", uri,
                            existing.src_uri)
                continue
            inclusion = InclusionLevel.NOT_IN_NAV if uri.endswith(".md") else InclusionLevel.UNDEFINED
            file = self.seam.file(config, uri, content, inclusion)
            if file is None:  # as mkdocs-gen-files adds its files
                file = (File.generated(config, uri, abs_src_path=str(content), inclusion=inclusion)
                        if isinstance(content, os.PathLike) else
                        File.generated(config, uri, content=content, inclusion=inclusion))
            files.append(file)
            self.seam.added(config, file, content)
        if self._command == "serve":
            livereload.add_file(config, files)
        self.seam.files_done(files)
        return files

    def _origin(self, uri: str) -> Path:
        """The file a generated page is made from (for a message that names it): its phase's file if
        there is one, else its game's folder (a season's page is ``<phase>/index.md``), else the games
        folder."""
        game = self._game_of(uri)
        if game is None:
            return self._folder
        phase = Path(game) / (Path(uri).parent.name + ".yml")
        return phase if Path(uri).suffix == ".md" and phase.is_file() else Path(game)

    def _game_of(self, uri: str) -> str | None:
        """The folder of the game whose page `uri` is (a game's pages are in its folder in the site);
        None for the archive's pages."""
        start = self._options.prefix + "/"  # as `dipgen.present.site.links.game_folder` names it
        if not uri.startswith(start):
            return None
        where = self._slugs.get(uri[len(start):].split("/", 1)[0])
        return where if where is not None and uri in self._files else None

    def named_origin(self, uri: str) -> str:
        return display_path(self._origin(uri))

    # ----- the pages: only where the plugin must (the cards), and what it hands the seam
    @event_priority(-100)  # last: the files every plugin added, before MkDocs reads and converts the pages
    def on_nav(self, nav, *, config, files):
        return self.seam.nav(nav, config, files)

    @event_priority(-100)  # last: the files every plugin added
    def on_env(self, env, *, config, files):
        self._written = {f.dest_uri for f in files}
        return self.seam.env(env, config, files)

    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        if page.file.generated_by and self._game_of(page.file.src_uri) is not None:
            name_failures(page, partial(self._origin, page.file.src_uri))
        return self.seam.markdown(page, markdown if self._ours(page) else marked_for_cards(markdown))

    @event_priority(100)  # first: the page's HTML back before any plugin reads it
    def on_page_context(self, context, *, page, config, nav):
        return self.seam.context(context, page, config)

    @event_priority(-100)  # last: every plugin has changed the page's HTML as it would
    def on_page_content(self, html: str, *, page, config, files) -> str:
        html = self.seam.content(page, html, files)  # any other page's with the marker, as Markdown made it
        return html if self._ours(page) else cards_into(html, self.cards, self._options, page.file.src_uri)

    def _ours(self, page) -> bool:
        """Whether `page` is one the plugin made (a game's or the archive's), where the games' cards are
        not put: a hand-written page of the same name wins over it (`on_files`)."""
        return page.file.generated_by is not None and page.file.src_uri in self._files

    @event_priority(-100)  # last: every plugin has seen the page
    def on_post_page(self, output: str, *, page, config) -> str:
        return self.seam.post_page(output, page)

    def on_template_context(self, context, *, template_name: str, config):
        return self.seam.template_context(context, template_name)

    @event_priority(-100)  # last: every plugin has changed the template's output as it would
    def on_post_template(self, output_content: str, *, template_name: str, config) -> str:
        return self.seam.post_template(output_content, template_name)

    @event_priority(-100)  # last: after every other plugin has written its files (the search index)
    def on_post_build(self, *, config) -> None:
        indexed = self._search(config)
        if self._dirty and self._written is not None:
            kept = roots(self._files) | {self.config.prefix.strip("/"), PRIVATE_DIR, CSS_URI.rsplit("/", 1)[0]}
            kept |= set() if indexed else {BUNDLE}  # Pagefind's index of an earlier build, no longer made
            removed = prune(Path(config.site_dir), self._written, kept)
            if removed:
                log.info("dipgen: removed %d file(s) of the last build that this one no longer makes", len(removed))
        self._written = None
        self.seam.post_build(config)

    def indexed_by_pagefind(self) -> bool:
        """Whether this build's search is Pagefind's, which reads the pages' text from the built site
        (Material's index then only lists the pages: `dipgen.mkdocs.pagefind`)."""
        return self.config.search == "pagefind" and self._command != "serve"

    def _search(self, config) -> bool:
        """Pagefind's index of the built site (True), or Material's split (see `DipgenConfig.search`)."""
        site = Path(config.site_dir)
        if self.indexed_by_pagefind():
            try:
                return index_site(site, str(config.theme.get("language") or "en").split("-")[0].split("_")[0])
            except (PagefindError, OSError) as e:
                where = display_path(Path(config.config_file_path or "mkdocs.yml"))
                raise PluginError(failure(where, e, "indexing the site for its search (Pagefind)",
                                          "reinstall dipgen's requirements (the pagefind packages); or set "
                                          "`search: material` under the dipgen plugin to search with "
                                          "Material's index instead")) from e
        split_index(site)  # the search index fetched on a first search, not a first visit
        return False

    def on_build_error(self, *, error: Exception) -> None:
        self.seam.build_error()


def _failure(path: Path, e: Exception) -> str:
    """An exception nobody foresaw, as a message naming the game (the traceback with -v)."""
    log.debug("dipgen: %s", display_path(path), exc_info=True)
    return failure(display_path(path), e, parallel.DOING)
