"""The plugin's cache of each game's output, on disk, across builds and `mkdocs serve` rebuilds.

    .dipgen-cache/            beside mkdocs.yml; the GM may delete it at any time
      games/<id>.json         one entry per game folder (id: a hash of its path): the key it was
                              made under, the game's card, its board, and each file it adds
      blobs/<sha256>          each file's content, named by the hash of its bytes

An entry's key is a hash of the generator (dipgen's version, code and templates, the site's options)
and of every file of the game folder that the build reads (`game_hash`): secrets.yml, the game's
end and its reveal setting are all files, and nothing else (no clock) decides what a game
publishes, so an entry with the same key is the same output. A game's pages are only ever made
afresh when its key changes: its private pages keep their encryption (and its fresh salts).

Nothing read here is trusted blindly: an entry is used only if it is well formed, was made under
the key asked for, and every blob it names has the size and hash it says (a page must also be a
page `SitePage.restore` accepts). Anything else (a corrupt file, one another version wrote, a blob
gone) is a miss: the game is made again and its entry written anew. An entry is written to a
temporary name and renamed into place, so that a build killed halfway leaves no half-written entry;
a new blob is written under its own name (it is named by its content, and a cold build writes
thousands), so a killed build may leave one short, which the checks above refuse and the next
build writes again.
Blobs no entry names are removed after a build that read every game (`prune`).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from dipgen.present.site.page import SitePage

log = logging.getLogger("mkdocs.plugins.dipgen")

#: the cache folder, beside mkdocs.yml
FOLDER = ".dipgen-cache"
FORMAT = 1
_CARD = {"title": str, "uri": str, "variant": str, "gm": str, "players": list, "years": str, "years_sort": str,
         "status": dict, "finished": bool}


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of dipgen's own code (every module of the package): an entry made by other code is
    another key, whatever its version number says."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for f in sorted(package.rglob("*.py")):
        digest.update(f.relative_to(package).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()


@dataclass
class Stored:
    """A game's output as the cache holds it: its files on disk (`blobs`: {site path: blob path}),
    its pages' structure ({site path: `SitePage.state` without the text}), its card and its board."""

    key: str
    blobs: dict[str, Path]
    pages: dict[str, dict]
    card: dict
    board: tuple[str, str]  # (site path, blob path) of the base map of the game's board
    sizes: dict[Path, int]  # each blob's size
    notes: list[str]        # what the build told the GM when it made the game (warnings, hints)
    #: the pages as this process made them, until its build has read them (`page` reads them here
    #: rather than from their files; `forget_made` lets them go)
    made: dict[str, SitePage] = field(default_factory=dict)

    def intact(self) -> bool:
        """Whether every file is still there, with its size (the GM may delete the folder at any time)."""
        try:
            return all(os.stat(path).st_size == size for path, size in self.sizes.items())
        except OSError:
            return False

    def page(self, uri: str) -> SitePage:
        """The page at `uri`: as this process made it, or read from its blob (ValueError if it is
        not that page)."""
        made = self.made.get(uri)
        if made is not None:
            return made
        text = self.blobs[uri].read_text(encoding="utf-8")
        return SitePage.restore(dict(self.pages[uri], text=text))


class BuildCache:
    """The cache folder `root` (see the module)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._checked: dict[str, int] = {}  # blobs checked in this process: name -> size

    def _entry_path(self, game: Path) -> Path:
        return self.root / "games" / (hashlib.sha256(str(game.resolve()).encode()).hexdigest()[:32] + ".json")

    def get(self, game: Path, key: str) -> Stored | None:
        """The output of `game` made under `key`, or None (see the module: never a half-trusted entry)."""
        path = self._entry_path(game)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return self._checked_entry(data, key)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as e:
            log.debug("dipgen: cache entry %s ignored: %s", path, e)
            return None

    def _checked_entry(self, data, key: str) -> Stored | None:
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
            return None
        card, board = data["card"], data["board"]
        if not isinstance(card, dict) or any(not isinstance(card.get(k), t) for k, t in _CARD.items()):
            raise ValueError("not a game's card")
        sizes: dict[Path, int] = {}
        blobs = {uri: self._blob(name, size, sizes) for uri, (name, size) in data["files"].items()
                 if isinstance(uri, str)}
        if len(blobs) != len(data["files"]) or not isinstance(board, list) or len(board) != 3:
            raise ValueError("not a list of files")
        pages = data["pages"]
        if not isinstance(pages, dict) or not set(pages) <= set(blobs):
            raise ValueError("a page without its file")
        notes = data["notes"]
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise ValueError("not a list of notes")
        stored = Stored(key, blobs, pages, card, (str(board[0]), str(self._blob(board[1], board[2], sizes))), sizes,
                        notes)
        for uri in pages:
            stored.page(uri)  # ValueError unless it is a page
        return stored

    def _blob(self, name, size, sizes: dict[Path, int]) -> Path:
        """The blob `name`, checked (its size, and its hash once a process); ValueError if not it."""
        if not isinstance(name, str) or len(name) != 64 or not all(c in "0123456789abcdef" for c in name) \
                or not isinstance(size, int):
            raise ValueError("not a blob's name")
        path = self.root / "blobs" / name
        if self._checked.get(name) != size:
            data = path.read_bytes()
            if len(data) != size or hashlib.sha256(data).hexdigest() != name:
                raise ValueError(f"blob {name} is not what its name says")
            self._checked[name] = size
        sizes[path] = size
        return path

    def put(self, game: Path, key: str, files: dict[str, str | bytes], card: dict, board: tuple[str, str],
            notes: list[str]) -> Stored:
        """Store the output of `game` made under `key` ({site path: content}, pages as `SitePage`s,
        pictures as bytes); OSError if the folder cannot be written."""
        entry_files, pages, blobs, sizes = {}, {}, {}, {}
        for uri, content in files.items():
            name, size, blobs[uri] = self._write_blob(content if isinstance(content, bytes)
                                                      else content.encode("utf-8"))
            sizes[blobs[uri]] = size
            entry_files[uri] = [name, size]
            if isinstance(content, SitePage):
                state = content.state()
                del state["text"]
                pages[uri] = state
        name, size, board_path = self._write_blob(board[1].encode("utf-8"))
        sizes[board_path] = size
        data = {"format": FORMAT, "key": key, "card": card, "board": [board[0], name, size], "files": entry_files,
                "pages": pages, "notes": notes}
        _write(self._entry_path(game), json.dumps(data, ensure_ascii=False).encode("utf-8"))
        made = {uri: content for uri, content in files.items() if isinstance(content, SitePage)}
        return Stored(key, blobs, pages, card, (board[0], str(board_path)), sizes, notes, made)

    def _write_blob(self, data: bytes) -> tuple[str, int, Path]:
        name = hashlib.sha256(data).hexdigest()
        path = self.root / "blobs" / name
        if _create(str(path), data):
            self._checked[name] = len(data)
            return name, len(data), path
        try:  # there already: kept if it is this content (a killed build may have left it short)
            same = path.stat().st_size == len(data) and (self._checked.get(name) == len(data) or
                                                         hashlib.sha256(path.read_bytes()).hexdigest() == name)
        except OSError:
            same = False
        if same:
            os.utime(path)  # newer than the page MkDocs last wrote from it (`mkdocs serve --dirty` compares)
        else:
            _write(path, data)
        self._checked[name] = len(data)
        return name, len(data), path

    def prune(self, kept: list[Stored], games: list[Path]) -> int:
        """Remove the entries of game folders not in `games` and the blobs no entry in `kept` names;
        returns how many files went."""
        wanted = {p.name for s in kept for p in [*s.blobs.values(), Path(s.board[1])]}
        entries = {self._entry_path(g).name for g in games}
        removed = 0
        for folder, keep in ((self.root / "blobs", wanted), (self.root / "games", entries)):
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                if name not in keep and not name.startswith("."):
                    try:
                        (folder / name).unlink()
                        removed += 1
                        self._checked.pop(name, None)
                    except OSError:
                        pass
        return removed


_FOLDERS: set[str] = set()  # folders made (or found) by this process
_SERIAL = itertools.count()


def folder_of(path: str, again: bool = False) -> str:
    """The folder `path` goes in, made where it is not there: looked for once a process (a build
    puts thousands of files into a few folders), or `again`, where it went since."""
    folder = os.path.dirname(path)
    if again or folder not in _FOLDERS:
        os.makedirs(folder, exist_ok=True)
        _FOLDERS.add(folder)
    return folder


def forget_folder(path: str) -> None:
    """The folder `path` goes in is to be looked for again (it may have gone)."""
    _FOLDERS.discard(os.path.dirname(path))


def _create(path: str, data: bytes) -> bool:
    """Write `data` to `path` if no file is there (False if one is): under its own name, a blob
    being named by its content (a cold build writes thousands; a temporary name and a rename
    each cost as much again). A build killed meanwhile may leave it short: its size and hash
    are checked before it is trusted (`_blob`, `_write_blob`)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        try:
            fd = os.open(path, flags, 0o666)  # as any file (the umask's)
        except FileNotFoundError:  # the folder is not there (yet, or any more)
            folder_of(path, again=True)
            fd = os.open(path, flags, 0o666)
    except FileExistsError:
        return False
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BaseException:
        os.close(fd)
        os.unlink(path)
        raise
    os.close(fd)
    return True


def _write(path: Path, data: bytes) -> None:
    """Write `path` atomically: a temporary file beside it, renamed into place. The temporary
    file's name is this process's and a counter's (thousands of blobs a cold build: `mkstemp`'s
    random names cost more than the writing); one left by a killed build is passed over."""
    folder = folder_of(str(path))
    while True:
        tmp = os.path.join(folder, f".tmp-{os.getpid()}-{next(_SERIAL)}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # as any file (the umask's)
            break
        except FileExistsError:
            continue
        except FileNotFoundError:  # the folder went (a cache removed while serve runs)
            folder_of(str(path), again=True)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
