"""A game's output, as the plugin makes it and the seam hands it back: every file it adds to the
site and its card (`Output`); `make` reads, adjudicates and draws one game."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from dipgen.usecases.games import Loaded, load_checked
from dipgen.usecases.publish import editions, game_files, missing_passphrases
from dipgen.io.paths import display_path
from dipgen.io.commits import Commits
from dipgen.io.secretsfile import SECRETS_FILE
from dipgen.present.site import SiteOptions
from dipgen.present.site.maps import board_map, board_uri
from dipgen.present.site.page import SitePage
from dipgen.present.site.card import GameCard
from dipgen.present.site.pages import game_card
from dipgen.view import revealed

log = logging.getLogger("mkdocs.plugins.dipgen")

#: a generated file's content: a page, text, a picture's bytes, or a file on disk holding it (a `Path`,
#: or a file of the build cache: `dipgen.mkdocs.speed.buildcache.Blob`)
Content = SitePage | str | bytes | os.PathLike
V = TypeVar("V")


class Output(Protocol):
    """One game's output: every file it adds to the site (its pages, maps, draws, private pages, and
    the base map of its board) and its card (the archive's line for it)."""

    @property
    def files(self) -> Mapping[str, Content]: ...

    @property
    def card(self) -> GameCard: ...


def first_wins(files: Iterable[Mapping[str, V]], shared: set[str] | None = None) -> dict[str, V]:
    """The files of every game as one: a file two games make (their board's base map) is the first
    game's, in the place it first comes; the names of such files added to `shared`, where it is given.
    By dict and set operations, not a loop in Python over the files: a big archive has hundreds of
    thousands."""
    merged: dict[str, V] = {}
    for own in files:
        common = own.keys() & merged.keys()  # what an earlier game made
        kept = {uri: merged[uri] for uri in common}
        merged.update(own)
        merged.update(kept)
        if shared is not None:
            shared |= common
    return merged


@dataclass
class Game:
    """A game's output as the plugin makes it (`Output`), with what the build told the GM about it
    (`notes`: its warnings, its players without a private page) and the path of its board's base map."""

    files: Mapping[str, Content]
    card: GameCard
    notes: list[str] = field(default_factory=list)
    board: str = ""


def make(path: Path, options: SiteOptions, commits: Commits, boards: dict[str, str]) -> Game:
    """The game in `path` read (as 'dipgen check' reads it: they refuse the same things), adjudicated,
    and all its files made; what the build tells the GM about it logged. `boards`: each board's base
    map, drawn once."""
    loaded = load_checked(path, commits)
    notes = _notes(path, loaded)
    for note in notes:
        log.info("%s", note)
    public = editions(loaded)[0]
    files: dict[str, Content] = dict(game_files(loaded, options))
    board = board_uri(public.variant)
    if board not in boards:
        boards[board] = board_map(public.variant)
    files[board] = boards[board]
    return Game(files, game_card(public, options), notes, board)


def _notes(path: Path, loaded: Loaded) -> list[str]:
    """What the build tells the GM about a game: its warnings, and which players of a running
    hidden game get no private page, and why."""
    h = loaded.history
    notes = [str(w) for w in h.warnings]
    if not h.variant.policy.hidden or revealed(h):
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
