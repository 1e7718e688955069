"""The one seam between the plugin and what makes its builds fast: `Seam`, which does nothing.

The plugin (`dipgen.mkdocs.plugin`) hands every MkDocs event it does not need for itself to a
`Seam`, and takes what the seam gives back where it gives something: a game's output from a
cache rather than made again, a file of its own making, a page's output taken as it was. This
class is the site built the plain way: every game made afresh, every page converted by MkDocs,
nothing kept between builds. `dipgen.mkdocs.speed.Layers` is the same seam with the speed layers
behind it; the site is the same, byte for byte, either way (``speed: false`` in mkdocs.yml picks
this one; tests/test_speed_seam.py builds both ways and compares every file).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from mkdocs.structure.files import File, Files

from dipgen.io.commits import Commits, commit_times_of
from dipgen.mkdocs.output import Content, Game, Output, first_wins

class Seam:
    """The plain build (see the module); each method is one place the speed layers may act."""

    def __init__(self) -> None:
        #: what the last build did, for the log and the tests: games, games made afresh, seconds...
        self.stats: dict[str, float] = {}

    # ----- the process (`on_startup`, `on_shutdown`)
    def startup(self, command: str, dirty: bool) -> None:
        pass

    def shutdown(self) -> None:
        pass

    def serving(self, server, games: Path) -> None:
        """`on_serve`: have the `games` folder watched for MkDocs's `server` (which rebuilds on a change)."""
        server.watch(str(games))

    # ----- before the build
    def configured(self, config) -> None:
        """`on_config`: the build's configuration, as the plugin set it."""

    def begin(self, options) -> None:
        """`on_pre_build`, before the games are read: the site's options (part of what a game's
        output depends on)."""

    def commits(self, paths: list[Path]) -> dict[str, Commits]:
        """The commit times of the games in `paths` (by ``str(path)``): one ``git log`` of them all."""
        return commit_times_of(paths)

    def cached(self, path: Path, commits: Commits, last: Output | None) -> Output | None:
        """The output of the game in `path` taken from a cache, where its files are as they were
        (None: it must be made). `last`: its output in this process's last build, if any."""
        return None

    def made(self, path: Path, commits: Commits, game: Game) -> Output:
        """The output of a game just made (read, adjudicated and drawn, perhaps in another
        process: `dipgen.mkdocs.parallel`), as the build uses it (stored in a cache, say)."""
        return game

    def merged(self, games: list[Output]) -> dict[str, Content]:
        """Every file of `games` as one (`first_wins`), in a dict of the plugin's own."""
        return first_wins(game.files for game in games)

    def archive(self, cards: list, options, make: Callable[[], Mapping[str, Content]]) -> Mapping[str, Content]:
        """The archive's pages (home, archive, feeds, players) of the games' `cards`: `make`'s."""
        return make()

    def prepared(self, config, games: dict[str, Output], complete: bool, files: dict[str, Content]) -> None:
        """`on_pre_build`, every game read: `games` by folder, `complete` unless a game failed,
        `files` every file the plugin adds to the site."""

    # ----- the build
    def given(self, config, files: dict[str, Content], known) -> dict[str, Content]:
        """`on_files`: the generated files MkDocs gets (`known`: its files before the plugin's)."""
        return files

    def file(self, config, uri: str, content: Content, inclusion) -> File | None:
        """The file MkDocs gets for a generated one (None: the plugin's plain `File.generated`)."""
        return None

    def added(self, config, file: File, content: Content) -> None:
        """A generated file was added to the build (`on_files`)."""

    def files_done(self, files: Files) -> None:
        """Every generated file was added (`on_files`)."""

    def nav(self, nav, config, files):
        return nav

    def env(self, env, config, files):
        return env

    def markdown(self, page, markdown: str) -> str:
        """A page's Markdown, after the plugin put the games' cards in it."""
        return markdown

    def context(self, context, page, config):
        return context

    def content(self, page, html: str, files) -> str:
        return html

    def post_page(self, output: str, page) -> str:
        return output

    def template_context(self, context, name: str):
        return context

    def post_template(self, output: str, name: str) -> str:
        return output

    def post_build(self, config) -> None:
        """`on_post_build`, last, after the plugin's own."""

    def build_error(self) -> None:
        pass
