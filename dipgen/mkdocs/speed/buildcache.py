"""The plugin's cache of each game's output, on disk, across builds and `mkdocs serve` rebuilds.

    .dipgen-cache/            beside mkdocs.yml; the GM may delete it at any time
      games/<id>.json         one entry per game folder (id: a hash of its path): the key it was
                              made under, the game's card, its board, and each file it adds
      blobs/<sha256>          each file's content, named by the hash of its bytes; and of each
                              game its pages' structure (JSON: their titles, front matter and
                              where their headings are, read with a page's text) and its card's
                              feed entries (JSON, read only for the archive's feed: `KeptFeed`)
    .dipgen-cache.key         beside it: the key that seals the entries (`machine_key`), never in git

An entry's key is a hash of the generator (dipgen's version, code and templates, the site's options)
and of every file of the game folder that the build reads (`game_hash`): secrets.yml, the game's
end and its reveal setting are all files, and nothing else (no clock) decides what a game
publishes, so an entry with the same key is the same output. The key is made of canonical data
only (`canonical`: sorted, never a `repr`, whose order of a set changes from process to process),
so that a build in another process finds it. A game's pages are only ever made afresh when its key
changes: its private pages keep their encryption (and its fresh salts).

The cache holds bytes the build publishes without making them again, so it holds only what this
machine's builds made: each entry is sealed (an HMAC of its bytes and its name) with a key that
lives beside the folder, out of git, and never leaves the machine. An entry that is not sealed
with it was written by someone else (a cache copied in, a pull request that brought one): it is
not used, the game is made again from its files, and the GM is warned. A cache folder or key that
git tracks is refused whole (`dipgen.usecases.cachefiles`, which names both): whoever can push could
have written both; the build then keeps a cache of its own, in a temporary folder, and `dipgen
check` says how to remove them.

Nothing read here is trusted blindly: an entry is used only if it is sealed, well formed, was made
under the key asked for, and every blob it names has the size and hash it says (a page must also
be a page `SitePage.restore` accepts). Anything else (a corrupt file, one another version wrote, a
blob gone) is a miss: the game is made again and its entry written anew. An entry is written to a
temporary name and renamed into place, so that a build killed halfway leaves no half-written entry;
a new blob is written under its own name (it is named by its content, and a cold build writes
thousands), so a killed build may leave one short, which the checks above refuse and the next
build writes again.
Blobs no entry names are removed after a build that read every game (`prune`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import hmac
import itertools
import json
import logging
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath

from dipgen.io.paths import display_path
from dipgen.present.site.card import FeedEntry, GameCard, KeptFeed, stamp, unstamp
from dipgen.present.site.page import SitePage
from dipgen.mkdocs.speed.cachekey import machine_key
from dipgen.usecases.cachefiles import FOLDER, KEY_FILE, committed

log = logging.getLogger("mkdocs.plugins.dipgen")

FORMAT = 3
#: an entry's first line: this, its format and its seal; then its JSON
_MAGIC = b"dipgen-cache "
_CARD = {"title": str, "uri": str, "variant": str, "gm": str, "players": list, "years": str, "years_sort": str,
         "status": dict, "finished": bool}


def canonical(value) -> str:
    """`value` as JSON text that is the same in every process for the same data (a cache key's
    ingredient): mappings by their keys, sets sorted, dataclasses by their fields, times in ISO form.
    TypeError for anything else: never a `repr`, whose order of a set's items changes from process
    to process (PYTHONHASHSEED), so that a key made of it misses in every new process."""
    return json.dumps(_plain(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def entry_key(*parts) -> str:
    """A cache key: the hash of `parts` in their `canonical` form."""
    return hashlib.sha256(canonical(list(parts)).encode("utf-8")).hexdigest()


def _plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, PurePath):
        return value.as_posix()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("a mapping with keys that are not text has no canonical form")
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    raise TypeError(f"no canonical form for {type(value).__name__}")


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of dipgen's own code (every module of the package): an entry made by other code is
    another key, whatever its version number says."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for f in sorted(package.rglob("*.py")):
        digest.update(f.relative_to(package).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()


def _game_entries(folder: Path, quiet: bool) -> Iterator[os.DirEntry]:
    """Every file of a game folder that the build reads: hidden ones aside, links to folders not
    followed (`game_files_read`, `stamps`), in no order. A folder that cannot be listed is passed
    over where `quiet` (as `os.walk` does), else OSError."""
    todo = [str(folder)]
    while todo:
        try:
            listing = os.scandir(todo.pop())
        except OSError:
            if quiet:
                continue
            raise
        with listing as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    todo.append(entry.path)
                elif entry.is_file():
                    yield entry


def game_files_read(folder: Path) -> list[Path]:
    """Every file of a game folder that the build reads (`_game_entries`; a folder that cannot be
    listed passed over), in order: as ``sorted(folder.rglob("*"))`` would list them, sorted as
    strings' parts, not paths (a serve rebuild lists every game's folder)."""
    top = str(folder)
    found = sorted(tuple(os.path.relpath(entry.path, top).split(os.sep)) for entry in _game_entries(folder, quiet=True))
    return [folder.joinpath(*parts) for parts in found]


def game_hash(folder: Path, files: list[Path] | None = None) -> str:
    """A hash of everything in a game folder that the build reads, secrets.yml included (a new
    passphrase re-encrypts the pages)."""
    digest = hashlib.sha256()
    for f in game_files_read(folder) if files is None else files:  # each length first: no two folders alike
        name, data = f.relative_to(folder).as_posix().encode(), f.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)) + data)
    return digest.hexdigest()


def stamps(folder: Path) -> tuple:
    """What tells that a file `game_files_read` lists in `folder` changed, came or went without
    reading it (as `mkdocs serve --dirty` tells): each one's path, size, time and inode, in one pass
    over the folder (one `stat` a file; a serve rebuild looks at every game). OSError where a file
    cannot be looked at."""
    out = []
    for entry in _game_entries(folder, quiet=False):
        st = entry.stat()
        out.append((entry.path, st.st_size, st.st_mtime_ns, st.st_ino))
    out.sort()
    return tuple(out)


class Blob:
    """A file of the cache folder (`os.PathLike`): its folder (one string every blob of a cache
    shares), its name (the hash of its bytes) and its size. A build holds one of each file of every
    game till its end (at 1,280 games some 150,000), so a blob is a name, not a `Path` (some 0.5 kB
    each, its parts parsed and kept)."""

    __slots__ = ("folder", "name", "size")

    def __init__(self, folder: str, name: str, size: int) -> None:
        self.folder, self.name, self.size = folder, name, size

    def __fspath__(self) -> str:
        return self.folder + self.name

    __str__ = __fspath__

    def __eq__(self, other) -> bool:
        return isinstance(other, Blob) and (self.name, self.size, self.folder) == (other.name, other.size, other.folder)

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"Blob({self.folder!r}, {self.name!r}, {self.size!r})"

    def read_text(self, encoding: str = "utf-8") -> str:
        """The blob's text (as `Path.read_text`: a file of the build may be a `Path` or a blob)."""
        with open(self.folder + self.name, encoding=encoding) as f:
            return f.read()


@dataclass
class Stored:
    """A game's output as the cache holds it: its files on disk (`blobs`: {site path: `Blob`}), which
    of them are pages (their site paths, in order), their structure (`structure`: a blob of
    {site path: `SitePage.state` without the text}, read when a page is: `state`), its card and its
    board. Nothing is held that a build does not need of every game at once."""

    key: str
    blobs: dict[str, Blob]
    pages: tuple[str, ...]
    structure: Blob
    card: GameCard
    board: tuple[str, Blob]  # (site path, blob) of the base map of the game's board
    notes: list[str]         # what the build told the GM when it made the game (warnings, hints)
    feed: Blob               # the card's feed entries (its `KeptFeed`)

    @property
    def files(self) -> dict[str, Blob]:
        """Every file of the game's output, its board's base map last (`dipgen.mkdocs.seam.Output`)."""
        return {**self.blobs, self.board[0]: self.board[1]}

    @functools.cached_property
    def page_names(self) -> dict[str, str]:
        """Each page's file in the cache folder, by name (`reuse` compares them from build to build)."""
        return {uri: self.blobs[uri].name for uri in self.pages}

    @functools.cached_property
    def file_names(self) -> dict[str, str]:
        """Each other file's (maps, draws, its board's base map) file in the cache folder, by name."""
        return {uri: blob.name for uri, blob in self.files.items() if not uri.endswith(".md")}

    def intact(self) -> bool:
        """Whether every file is still there, with its size (the GM may delete the folder at any time)."""
        try:
            return all(os.stat(blob).st_size == blob.size for blob in self.kept())
        except OSError:
            return False

    def kept(self) -> list[Blob]:
        """Every blob the entry names."""
        return [*self.blobs.values(), self.board[1], self.feed, self.structure]

    def page(self, uri: str) -> SitePage:
        """The page at `uri`, read from its blob (ValueError if it is not that page): even a page this
        process has just made, so that a build never holds every game's pages at once (MkDocs reads
        every page before it writes any)."""
        text = self.blobs[uri].read_text()
        return SitePage.restore(dict(self.state(uri), text=text))

    def state(self, uri: str) -> dict:
        """The page's `SitePage.state` without its text (KeyError: no such page; ValueError: the
        structure's blob is not one)."""
        return _structure(self.structure)[uri]


@functools.lru_cache(maxsize=2)
def _structure(blob: Blob) -> dict[str, dict]:
    """A game's pages' structure, read from its blob: the last two read kept (MkDocs reads and
    writes the pages game by game), none more."""
    data = json.loads(blob.read_text())
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ValueError("not the structure of a game's pages")
    return data


class BuildCache:
    """The cache folder `root`, its entries sealed with `key` (see the module)."""

    def __init__(self, root: Path, key: bytes) -> None:
        self.root = root
        self._key = key
        self._checked: dict[str, int] = {}  # blobs checked in this process: name -> size
        self._blobs = str(root / "blobs") + os.sep  # (every `Blob`'s folder: one string)

    def _entry_path(self, game: Path) -> Path:
        return self.root / "games" / (hashlib.sha256(str(game.resolve()).encode()).hexdigest()[:32] + ".json")

    def get(self, game: Path, key: str) -> Stored | None:
        """The output of `game` made under `key`, or None (see the module: never a half-trusted entry)."""
        path = self._entry_path(game)
        try:
            payload = _opened(self._key, path.name, path.read_bytes())
        except FileNotFoundError:
            return None
        except OSError as e:
            log.debug("dipgen: cache entry %s ignored: %s", path, e)
            return None
        except _Foreign:
            log.warning("dipgen: %s: its entry in %s was not written by this machine's builds (it is not sealed "
                        "with %s), so it is not used: the game is made again from its files", display_path(game),
                        display_path(self.root), KEY_FILE)
            return None
        try:
            return None if payload is None else self._checked_entry(json.loads(payload), key)
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as e:  # a blob gone, or not it
            log.debug("dipgen: cache entry %s ignored: %s", path, e)
            return None

    def _checked_entry(self, data, key: str) -> Stored | None:
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
            return None
        board = data["board"]
        if not isinstance(data["card"], dict) or any(not isinstance(data["card"].get(k), t) for k, t in _CARD.items()):
            raise ValueError("not a game's card")
        card = GameCard.from_json(dict(data["card"], feed=[]))  # ValueError where it is not one
        blobs = {uri: self._blob(name, size) for uri, (name, size) in data["files"].items() if isinstance(uri, str)}
        if len(blobs) != len(data["files"]) or not isinstance(board, list) or len(board) != 3:
            raise ValueError("not a list of files")
        pages, structure = data["pages"], data["structure"]
        if not isinstance(pages, list) or not set(pages) <= set(blobs) or not isinstance(structure, list) \
                or len(structure) != 2:
            raise ValueError("a page without its file")
        notes = data["notes"]
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise ValueError("not a list of notes")
        feed = data["feed"]
        if not isinstance(feed, list) or len(feed) != 3:
            raise ValueError("not a feed")
        blob = self._blob(feed[0], feed[1])
        head = None if feed[2] is None else (unstamp(feed[2][0]), str(feed[2][1]), int(feed[2][2]))
        entries = _entries(blob)
        if (entries[0].rank if entries else None) != head:
            raise ValueError("not the feed's newest entry")
        card = dataclasses.replace(card, feed=KeptFeed(head, blob.name, functools.partial(_entries, blob)))
        stored = Stored(key, blobs, tuple(pages), self._blob(structure[0], structure[1]), card,
                        (str(board[0]), self._blob(board[1], board[2])), notes, blob)
        for uri in pages:
            stored.page(uri)  # ValueError unless it is a page
        return stored

    def _blob(self, name, size) -> Blob:
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
        return Blob(self._blobs, name, size)

    def put(self, game: Path, key: str, files: dict[str, str | bytes], card: GameCard, board: tuple[str, str],
            notes: list[str]) -> Stored:
        """Store the output of `game` made under `key` ({site path: content}, pages as `SitePage`s,
        pictures as bytes); OSError if the folder cannot be written."""
        entry_files, pages, blobs = {}, {}, {}
        for uri, content in files.items():
            blob = blobs[uri] = self._write_blob(content if isinstance(content, bytes) else content.encode("utf-8"))
            entry_files[uri] = [blob.name, blob.size]
            if isinstance(content, SitePage):
                state = content.state()
                del state["text"]
                pages[uri] = state
        base = self._write_blob(board[1].encode("utf-8"))
        shown = card.as_json()
        feed = self._write_blob(json.dumps(shown.pop("feed"), ensure_ascii=False).encode("utf-8"))
        structure = self._write_blob(json.dumps(pages, ensure_ascii=False).encode("utf-8"))
        head = next(iter(card.feed), None)
        data = {"format": FORMAT, "key": key, "card": shown, "board": [board[0], base.name, base.size],
                "files": entry_files, "pages": list(pages), "structure": [structure.name, structure.size],
                "notes": notes,
                "feed": [feed.name, feed.size, None if head is None else [stamp(head.updated), head.slug, head.index]]}
        path = self._entry_path(game)
        _write(path, sealed(self._key, path.name, json.dumps(data, ensure_ascii=False).encode("utf-8")))
        kept = KeptFeed(None if head is None else head.rank, feed.name, functools.partial(_entries, feed))
        return Stored(key, blobs, tuple(pages), structure, dataclasses.replace(card, feed=kept), (board[0], base),
                      notes, feed)

    def _write_blob(self, data: bytes) -> Blob:
        name = hashlib.sha256(data).hexdigest()
        path = self.root / "blobs" / name
        if _create(str(path), data):
            self._checked[name] = len(data)
            return Blob(self._blobs, name, len(data))
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
        return Blob(self._blobs, name, len(data))

    def prune(self, kept: list[Stored], games: list[Path]) -> int:
        """Remove the entries of game folders not in `games` and the blobs no entry in `kept` names;
        returns how many files went."""
        wanted = {blob.name for s in kept for blob in s.kept()}
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


def _entries(blob: Blob) -> tuple[FeedEntry, ...]:
    """A card's feed entries, read from their blob (`KeptFeed`); ValueError where it holds none."""
    data = json.loads(blob.read_text())
    if not isinstance(data, list):
        raise ValueError("not a list of feed entries")
    try:
        return tuple(FeedEntry.from_json(e) for e in data)
    except (KeyError, TypeError) as e:
        raise ValueError(f"not a feed entry: {e}") from None


def sealed(key: bytes, name: str, payload: bytes) -> bytes:
    """The entry file `name` holding `payload` (its JSON), sealed with `key`."""
    return _MAGIC + f"{FORMAT} ".encode() + _seal(key, name, payload) + b"\n" + payload


def _seal(key: bytes, name: str, payload: bytes) -> bytes:
    return hmac.new(key, name.encode("utf-8") + b"\0" + payload, hashlib.sha256).hexdigest().encode()


class _Foreign(Exception):
    """An entry sealed with another key than this machine's, or not sealed at all."""


def _opened(key: bytes, name: str, raw: bytes) -> bytes | None:
    """The JSON of the entry file `name` (its bytes `raw`) if it is sealed with `key`; None if it is
    no entry of this format (an older dipgen's: a miss like any other); `_Foreign` if its seal is
    not this key's (written by someone else)."""
    head, newline, payload = raw.partition(b"\n")
    parts = head.split(b" ")
    if not newline or len(parts) != 3 or parts[0] + b" " != _MAGIC or parts[1] != str(FORMAT).encode():
        return None
    if not hmac.compare_digest(parts[2], _seal(key, name, payload)):
        raise _Foreign(name)
    return payload


def open_cache(base: Path) -> BuildCache | None:
    """The cache folder beside `base`'s mkdocs.yml, sealed with this machine's key; None where it
    may not be used (git tracks it or its key: a warning says so) or its key cannot be made."""
    tracked = committed(base)
    if tracked:
        log.warning("dipgen: %s: git tracks it, so the build does not use it (anyone who can push could have "
                    "written it) and keeps a cache of its own; 'dipgen check' says how to remove it from git",
                    " and ".join(display_path(base / name) for name in tracked))
        return None
    try:
        return BuildCache(base / FOLDER, machine_key(base))
    except OSError as e:
        log.info("dipgen: cannot write the cache's key %s (%s)", display_path(base / KEY_FILE), e.strerror or e)
        return None


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
