"""The leak scanner: look through every file of a built site for what the public may not know.

For each hidden game that is not yet revealed, the secrets are the facts of the GM's view
that the public view never shows, in any phase: a unit's position, an order, the owner of a
centre, and that a phase the public may not know of took place (Blind's retreats). The scanner
then reads every file of the built site (pages, maps, the search index (Pagefind's pages
decompressed), the sitemap, scripts, file names) and reports each secret it finds (and the game's seed, and the
variant's own secrets, `Variant.secret_texts`: Taskdip's tasks and the cards drawn for them):

- in text (HTML with its tags stripped and entities decoded, and the raw file, so that
  attributes and comments count too): an order in canonical notation (``A Wal - Bre``), a
  unit as reports write it (``A Wal``), and an owner as the site and the reports write it
  (``England gains Bre``, ``Brest: England``);
- in the game's map overlays: each unit of the History (its kind and place) and each centre
  the public view of that phase does not show, in any of the forms the renderer draws it
  (`dipgen.present.svg.unit_marks`, `centre_mark`: asked of the renderer, so that the scanner
  knows nothing of SVG nor of the unit kinds there are).

The secrets are facts of the History; the scanner looks for them in the words dipgen writes
and the marks it draws. It reads the files only (it builds nothing), so it can check any
build, including one made by an older dipgen.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from dataclasses import dataclass, field
from collections.abc import Callable
from functools import cache, lru_cache, partial
from pathlib import Path

from dipgen.present.layout import PREFIX
from dipgen.usecases.publish import provided_pages
from dipgen.core.board import Board
from dipgen.core.results import Kind
from dipgen.play.records import History
from dipgen.core.orders import Concealed
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, Phase
from dipgen.present.svg import centre_mark, unit_marks
from dipgen.view import game_view
from dipgen.view.timeline import fixed_calendar
from dipgen.rules.visibility import PUBLIC, revealed

TEXT_SUFFIXES = {".html", ".htm", ".md", ".svg", ".json", ".js", ".xml", ".txt", ".css", ".map"}


@dataclass(frozen=True)
class Leak:
    file: str
    what: str   # the secret, in words
    found: str  # what was found, and where in the file

    def __str__(self) -> str:
        return f"{self.file}: leaks {self.what} ({self.found})"


@dataclass
class Secrets:
    """What the public may not know of one game, and what it may (per phase, for the maps)."""

    game: str
    orders: set[str] = field(default_factory=set)                 # canonical order texts
    units: set[tuple[str, str, str]] = field(default_factory=set)  # (power, kind, loc)
    owners: set[tuple[str, str]] = field(default_factory=set)     # (centre, power)
    phases: set[Phase] = field(default_factory=set)               # phases the public may not know took place
    public_units: dict[Phase | None, set[tuple[str, str, str]]] = field(default_factory=dict)
    public_owners: dict[Phase | None, set[tuple[str, str]]] = field(default_factory=dict)
    all_units: set[tuple[str, str, str]] = field(default_factory=set)  # every unit of the History
    all_owners: set[tuple[str, str]] = field(default_factory=set)     # every owner the History records
    calendar: set[Phase] = field(default_factory=set)             # the phases the public is shown
    due: set[Phase] = field(default_factory=set)                  # what the game waits for, if not public
    texts: list[tuple[str, tuple]] = field(default_factory=list)  # the variant's own secrets, and the seed
    #: what would tell that a unit was misordered (a mis-order is not revealed): the mark of a unit
    #: that held for want of a lawful order, and the disband of one whose retreat was unlawful
    misorders: set[str] = field(default_factory=set)


def _units(position) -> set[tuple[str, str, str]]:
    """Every unit of a position, dislodged ones included (spies too: they are units)."""
    return {(u.power, u.kind, u.loc) for u in position.units} | {
        (d.unit.power, d.unit.kind, d.unit.loc) for d in position.dislodged}


def secrets_of(history: History) -> Secrets:
    board = history.variant.rules.board
    out = Secrets(history.info.slug)
    tl = game_view(history, PUBLIC)
    out.calendar = set(tl.phases())
    seen_orders: set[str] = set()
    seen_units: set[tuple[str, str, str]] = set()
    seen_owners: set[tuple[str, str]] = set()
    all_orders: set[str] = set()
    all_units: set[tuple[str, str, str]] = set()
    all_owners: set[tuple[str, str]] = set()
    for record in history.records:
        if record.phase.retreats and record.phase not in out.calendar:
            out.phases.add(record.phase)
        for r in record.results:
            if r.order is not None and r.effective:
                all_orders.add(r.order.format(board))
        all_units |= _units(record.before) | _units(record.after)
        all_owners |= set(record.before.owners.items()) | set(record.after.owners.items())
    for public in tl.records:
        for r in public.results + public.retreat_results:
            if r.order is not None and not isinstance(r.order, Concealed):
                seen_orders.add(r.order.format(board))
        known_units = _units(public.before) | _units(public.after) | {
            (d.unit.power, d.unit.kind, d.unit.loc) for d in public.dislodged + public.destroyed}
        known_owners = set(public.before.owners.items()) | set(public.after.owners.items())
        seen_units |= known_units
        seen_owners |= known_owners
        out.public_units[public.phase] = known_units
        out.public_owners[public.phase] = known_owners
    out.public_units[None] = _units(tl.now)
    out.public_owners[None] = set(tl.now.owners.items())
    seen_units |= out.public_units[None]
    seen_owners |= out.public_owners[None]
    all_units |= _units(history.position)
    all_owners |= set(history.position.owners.items())
    if history.next_phase is not None and history.next_phase != tl.due:
        out.due.add(history.next_phase)  # what the game really waits for is not the public's to know
        if history.next_phase.retreats:
            out.phases.add(history.next_phase)
    out.all_units, out.all_owners = all_units, all_owners
    out.texts = list(history.variant.policy.secret_texts(history))
    seed = history.draws.seed if history.draws is not None else None
    if seed:
        out.texts.append(("the game's secret seed", (seed.hex(),)))
    out.orders = all_orders - seen_orders
    out.units = all_units - seen_units
    out.owners = all_owners - seen_owners
    out.misorders = _misorder_marks(history, board) - seen_orders
    return out


def _misorder_marks(history: History, board: Board) -> set[str]:
    """By the rule alone, not by any view: a unit whose order could not be carried out holds (or,
    in a retreat, is disbanded), and nothing may tell the public so: not a '(no order)' beside its
    hold, nor its disband. Read off the GM's records: a result the rules supplied for a unit that
    has an illegal order in the same phase."""
    marks = set()
    for record in history.records:
        misordered = {r.unit for r in record.results if r.unit is not None and r.has(Kind.ILLEGAL)}
        for r in record.results:
            if r.default and r.unit in misordered and r.order is not None:
                text = r.order.format(board)
                marks.add(f"{text} (no order)" if record.kind == MOVEMENT else text)
    return marks


def _calendar_leaks(rel: str, own: str, secrets: Secrets) -> list[Leak]:
    """A page or map of the game for a phase the public calendar does not have (`dipgen.view.timeline`)."""
    inside = rel[len(own):]
    head = inside.split("/", 1)[0]
    if head == "maps":
        phase, is_map = _map_phase(inside.rsplit("/", 1)[-1])
    else:
        try:
            phase, is_map = Phase.from_slug(head.split(".", 1)[0]), True
        except ValueError:
            phase, is_map = None, False
    if is_map and phase is not None and phase not in secrets.calendar:
        return [Leak(rel, f"that {phase.name} took place, or when",
                     "a page or map for a phase the public calendar does not show yet")]
    return []


def _early_totals(rel: str, raw: str, own: str) -> list[Leak]:
    """Centre totals on a season page other than a Winter's: before the year is over, the
    totals would tell whether there were retreats to wait for."""
    head = rel[len(own):].split("/", 1)[0]
    try:
        phase = Phase.from_slug(head.split(".", 1)[0])
    except ValueError:
        return []
    if phase.kind != ADJUSTMENTS and 'class="dg-counts"' in raw:
        return [Leak(rel, f"the centre totals before Winter {phase.year} is published",
                     "a table of centre totals on a Spring or Fall page")]
    return []


# ----------------------------------------------------------------------------- text

def _text_of(raw: str, suffix: str) -> str:
    if suffix in (".html", ".htm", ".svg", ".xml"):
        raw = re.sub(r"<[^>]+>", " ", raw)
    return " ".join(html.unescape(raw).split())


@dataclass(frozen=True)
class Needle:
    """One secret and how it may show: as any of `texts` standing as words (found by plain
    search, which is fast), or as a match of `pattern` in text that holds all of `require`."""

    what: str
    texts: tuple[str, ...] = ()
    pattern: re.Pattern | None = None
    require: tuple[str, ...] = ()

    def find(self, haystack: str) -> str | None:
        for text in self.texts:
            start = haystack.find(text)
            while start >= 0:
                end = start + len(text)
                before = haystack[start - 1] if start else " "
                after = haystack[end] if end < len(haystack) else " "
                if not (before.isalnum() or before in "_/") and not (after.isalnum() or after in "_/"):
                    return text
                start = haystack.find(text, start + 1)
        if self.pattern is not None and all(r in haystack for r in self.require):
            m = self.pattern.search(haystack)
            if m:
                return m.group(0)
        return None


#: a word of a file as `Needles` indexes them: a run of ASCII letters and digits
_TOKEN = re.compile(r"[A-Za-z0-9]+")


class Needles:
    """Needles, each file held to those of them that could be in it: a needle's text stands as words
    (`Needle.find`), so each of its runs of letters and digits is one of the file's (a run at the
    text's edge cannot run on, as the text's neighbours are no letters or digits); a needle is tried
    on a file that holds its longest run, and a needle with a pattern always. The same findings as
    trying every needle, in the same order, without searching a file for hundreds of orders and
    places it cannot hold."""

    def __init__(self, needles: list[Needle]):
        self.all = tuple(needles)
        self._always: list[int] = []
        self._by_token: dict[str, list[int]] = {}
        for i, needle in enumerate(self.all):
            keys = [max(_TOKEN.findall(text), key=len, default="") for text in needle.texts]
            if needle.pattern is not None or "" in keys:
                self._always.append(i)
                continue
            for key in set(keys):
                self._by_token.setdefault(key, []).append(i)

    def __iter__(self):
        return iter(self.all)

    def held_by(self, tokens: frozenset[str]) -> list[Needle]:
        """The needles that could be found in a file whose runs of letters and digits are `tokens`,
        in their order."""
        found = set(self._always)
        for token in tokens & self._by_token.keys():
            found.update(self._by_token[token])
        return [self.all[i] for i in sorted(found)]


def _needles(secrets: Secrets, board: Board) -> Needles:
    out = []
    for text in sorted(secrets.orders):
        out.append(Needle(f"the hidden order {text!r}", (text, text.replace(" - ", "-"))))
    public_kind_locs = {(k, loc) for units in secrets.public_units.values() for _, k, loc in units}
    for power, kind, loc in sorted(secrets.units):
        if (kind, loc) in public_kind_locs:
            continue  # another power's unit stood there in public: the words alone prove nothing
        words = f"{kind} {board.format_loc(loc)}"
        out.append(Needle(f"the position of {power}'s hidden {words}", (words,)))
    for text in sorted(secrets.misorders):
        out.append(Needle(f"a misorder, through {text!r}", (text,)))
    for phase in sorted(secrets.phases):
        out.append(Needle(f"that {phase.name} took place", (phase.slug, phase.name)))
    for phase in sorted(secrets.due):
        name = re.escape(phase.name)
        out.append(Needle(f"that the game waits for {phase.name}",
                          pattern=re.compile(rf"\b{name}( adjustments)?\b[^.<>\n]{{0,30}}\bdue\b|Running: {name}\b"),
                          require=(phase.name,)))
    for what, forms in secrets.texts:
        out.append(Needle(what, tuple(f for f in forms if isinstance(f, str))))
        out.extend(Needle(what, pattern=f) for f in forms if not isinstance(f, str))
    for centre, power in sorted(secrets.owners):
        abbr, name = board.format_loc(centre), board.provinces[centre].name
        what = f"that {power} owns {name}"
        out.append(Needle(what, pattern=re.compile(rf"\b{power}\b[^.;<>\n]{{0,40}}\bgains\b"
                                                   rf"[^;<>\n]{{0,80}}\b{re.escape(abbr)}\b"),
                          require=(power, "gains", abbr)))
        out.append(Needle(what, pattern=re.compile(rf"\b{re.escape(name)}\s*:\s*{power}\b"), require=(name, power)))
    return Needles(out)


_BLOBS = re.compile(r"[A-Za-z0-9+/=_-]{200,}")  # base64 runs: ciphertext, data URIs


@lru_cache(maxsize=8192)
def _haystacks(raw: str, suffix: str) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """A file as it stands and as text, white space folded, base64 runs blanked (opaque: no
    secret can be read in them, and they are slow to search), each with its words (`Needles`);
    cached, as every hidden game reads every file."""
    raw = " ".join(_BLOBS.sub(" ", raw).split())
    text = _text_of(raw, suffix)
    return (raw, "in the file", frozenset(_TOKEN.findall(raw))), (text, "in its text", frozenset(_TOKEN.findall(text)))


def _scan_text(name: str, raw: str, suffix: str, needles: Needles) -> list[Leak]:
    found: dict[str, Leak] = {}
    for haystack, where, tokens in _haystacks(raw, suffix):
        for needle in needles.held_by(tokens):
            if needle.what in found:
                continue
            hit = needle.find(haystack)
            if hit is not None:
                found[needle.what] = Leak(name, needle.what, f"{hit!r} {where}")
    return list(found.values())


# ----------------------------------------------------------------------------- maps

def _scan_map(name: str, raw: str, history: History, phase: Phase | None, secrets: Secrets,
              marks: Callable[[str, str], tuple[re.Pattern, ...]]) -> list[Leak]:
    """A map overlay of `phase` (None: the position now) drawing a unit or an owned centre the
    public view of that phase does not show. The forms each may take are the renderer's
    (`unit_marks`, `centre_mark`; `marks`: the game's `unit_marks` of a kind and a place, made once
    a scan); none names a power, so a kind at a place (or a centre's dot) that the public sees for
    one power proves nothing about another."""
    variant = history.variant
    board = variant.rules.board
    public_units = secrets.public_units.get(phase, set())
    public_places = {(kind, loc) for _, kind, loc in public_units}
    leaks = []
    for power, kind, loc in sorted(secrets.all_units - public_units):
        if (kind, loc) in public_places:
            continue
        for mark in marks(kind, loc):
            hit = mark.search(raw)
            if hit:
                leaks.append(Leak(name, f"the position of {power}'s hidden {kind} {board.format_loc(loc)}",
                                  f"{hit.group(0)[:80]!r} on the map"))
                break
    public_owners = secrets.public_owners.get(phase, set())
    owned = {centre for centre, _ in public_owners}
    for centre, power in sorted(secrets.all_owners - public_owners):
        dot = centre_mark(variant, centre) if centre not in owned else None
        hit = dot.search(raw) if dot else None
        if hit:
            leaks.append(Leak(name, f"that {power} owns {board.provinces[centre].name}",
                              f"an ownership mark {hit.group(0)!r} on the map"))
    return leaks


def _map_phase(filename: str) -> tuple[Phase | None, bool]:
    """The phase a map overlay shows (None: the position now), and whether it is one."""
    stem = filename[:-4]
    if stem == "now":
        return None, True
    for when in ("-orders", "-after"):
        if stem.endswith(when):
            try:
                return Phase.from_slug(stem[: -len(when)]), True
            except ValueError:
                return None, False
    return None, False


# ----------------------------------------------------------------------------- the scan

def scan_site(site_dir: Path | str, histories: list[History], prefix: str = PREFIX,
              docs_dir: Path | str | None = None) -> list[Leak]:
    """Every leak of every unrevealed hidden game's secrets anywhere in the built site.

    `docs_dir` holds the site's hand-written pages (``site_src``): outside the games' own
    pages, words that stand in them, or in the pages dipgen adds where the site has none of its
    own (a rules page's ``A Par - Bur``), are the project's own examples, not the game's secrets."""
    site_dir = Path(site_dir)
    leaks: list[Leak] = []
    files = sorted(p for p in site_dir.rglob("*") if p.is_file())
    leaks.extend(_private_sizes(site_dir, histories))
    handwritten = ""
    if docs_dir is not None and Path(docs_dir).is_dir():
        pages = [*sorted(Path(docs_dir).rglob("*.md")), *provided_pages(docs_dir).values()]
        handwritten = "\n".join(f.read_text(encoding="utf-8", errors="replace") for f in pages)
    for history in histories:
        if revealed(history):
            continue
        secrets = secrets_of(history)
        board = history.variant.rules.board
        needles = _needles(secrets, board)
        folded = " ".join(handwritten.split())
        elsewhere = Needles([n for n in needles if n.find(folded) is None])
        own = f"{prefix}/{history.info.slug}/"
        marks = cache(partial(unit_marks, history.variant))  # each map asks again
        others = [f"{prefix}/{h.info.slug}/" for h in histories if h is not history]
        for path in files:
            rel = path.relative_to(site_dir).as_posix()
            leaks.extend(_scan_text(rel + " (its name)", rel, ".txt", needles))
            if rel.startswith(own):
                leaks.extend(_calendar_leaks(rel, own, secrets))
            if any(rel.startswith(o) for o in others):
                continue  # another game's own pages and maps
            if path.suffix == ".pf_fragment":  # a page of Pagefind's index (dipgen.mkdocs.pagefind)
                leaks.extend(_scan_fragment(rel, path.read_bytes(), own, needles, elsewhere))
                continue
            if path.suffix.lower() not in TEXT_SUFFIXES:
                continue
            raw = path.read_text(encoding="utf-8", errors="replace")
            if path.name in ("search_index.json", "search_docs.json"):  # (dipgen.mkdocs.search)
                leaks.extend(_scan_search_index(rel, raw, own, needles, elsewhere))
                continue
            if not rel.startswith(own) and path.suffix.lower() == ".xml" and _ENTRY.search(raw):
                leaks.extend(_scan_entries(rel, raw, own, needles, elsewhere))
                continue
            leaks.extend(_scan_text(rel, raw, path.suffix.lower(), needles if rel.startswith(own) else elsewhere))
            if rel.startswith(own) and fixed_calendar(history):  # totals wait for the Winter page
                leaks.extend(_early_totals(rel, raw, own))
            if rel.startswith(own) and path.suffix.lower() == ".svg" and "/maps/" in rel:
                phase, is_map = _map_phase(path.name)
                if is_map:
                    leaks.extend(_scan_map(rel, raw, history, phase, secrets, marks))
    return leaks


_ENVELOPE = re.compile(r'id="pp-payload">(.*?)</script>', re.S)


def _private_sizes(site_dir: Path, histories: list[History]) -> list[Leak]:
    """A private page is padded to its game's room, a function of public facts alone
    (`dipgen.present.site.pages.private_room`): a page of another size tells what its game's hidden
    phases held. The scanner cannot tell which game a page belongs to (its name is a keyed
    hash), so each page's size must be the room of some running hidden game, and each room must
    hold as many pages as its games have players at most."""
    from dipgen.present.site.pages import private_room

    rooms: dict[int, int] = {}
    for h in histories:
        if h.variant.policy.hidden and not revealed(h):
            size = private_room(game_view(h, PUBLIC))
            rooms[size] = rooms.get(size, 0) + len(h.seating.keys())
    seen: dict[int, int] = {}
    leaks = []
    for page in sorted((site_dir / "private").glob("*.html")) if (site_dir / "private").is_dir() else ():
        rel = page.relative_to(site_dir).as_posix()
        m = _ENVELOPE.search(page.read_text(encoding="utf-8", errors="replace"))
        try:
            size = len(base64.b64decode(json.loads(m.group(1))["ct"])) - 16 if m else -1
        except (ValueError, KeyError, TypeError):
            size = -1
        seen[size] = seen.get(size, 0) + 1
        if size not in rooms:
            leaks.append(Leak(rel, "what a game's hidden phases held, through the size of a private page",
                              f"{size} bytes of padded content; the rooms of public facts are {sorted(rooms)}"))
    for size, n in seen.items():
        if size in rooms and n > rooms[size]:
            leaks.append(Leak("private/", "what a game's hidden phases held, through the size of private pages",
                              f"{n} pages of {size} bytes, "
                              f"more than the {rooms[size]} players of the games of that room"))
    return leaks


#: an entry of a file that lists the site's pages (the archive's Atom feed, the sitemap), and where
#: it points (an Atom link's href, a sitemap's loc)
_ENTRY = re.compile(r"<(entry|url)>(.*?)</\1>", re.S)
_WHERE = re.compile(r'<link[^>]*\bhref="([^"]*)"|<loc>([^<]*)</loc>')


def _scan_entries(rel: str, raw: str, own: str, needles, elsewhere) -> list[Leak]:
    """A file of entries for the whole site (the archive's feed, the sitemap), held as the search
    index is: each entry by the page it points to, another game's entries not at all (they may
    name, in public, a phase this game keeps secret), the rest as a file outside the game."""
    leaks = _scan_text(rel, _ENTRY.sub("", raw), ".xml", elsewhere)
    games_root = own.split("/")[0] + "/"
    for match in _ENTRY.finditer(raw):
        found = _WHERE.search(match.group(2))
        where = (found.group(1) or found.group(2)) if found else ""
        at = 0 if where.startswith(games_root) else where.rfind("/" + games_root) + 1  # relative, or absolute
        inside = where[at:] if at or where.startswith(games_root) else ""
        if inside and not inside.startswith(own) and inside != games_root:
            continue
        held = needles if inside.startswith(own) else elsewhere
        leaks.extend(_scan_text(f"{rel} [{where}]", match.group(2), ".xml", held))
    return leaks


def _scan_search_index(rel: str, raw: str, own: str, needles, elsewhere) -> list[Leak]:
    """The search index holds every page's text, by page: this game's pages are held to every
    secret, other pages as files outside the game are (and other games' pages not at all:
    they may name the same units in public)."""
    try:
        docs = json.loads(raw).get("docs", [])
    except (ValueError, AttributeError):
        return _scan_text(rel, raw, ".json", needles)
    leaks = []
    for doc in docs:
        text = f"{doc.get('title', '')} {doc.get('text', '')}"
        leaks.extend(_scan_page_entry(rel, doc.get("location", ""), text, own, needles, elsewhere))
    return leaks


def _scan_page_entry(rel: str, location: str, text: str, own: str, needles, elsewhere) -> list[Leak]:
    """One page's entry of a search index, by the page it is of (see `_scan_search_index`)."""
    games_root = own.split("/")[0] + "/"
    if location.startswith(games_root) and not location.startswith(own) and location != games_root:
        return []
    return _scan_text(f"{rel} [{location}]", text, ".html", needles if location.startswith(own) else elsewhere)


_FRAGMENT = b"pagefind_dcd"  # what Pagefind's files start with, once decompressed


def _scan_fragment(rel: str, data: bytes, own: str, needles, elsewhere) -> list[Leak]:
    """A page of Pagefind's index: gzipped JSON of the page's address, text, title and headings,
    held as the search index's entries are, by page. Its words in the index's other files are
    those of the fragments (and the non-interference tests compare those files' bytes)."""
    try:
        raw = gzip.decompress(data)
        doc = json.loads(raw[len(_FRAGMENT):] if raw.startswith(_FRAGMENT) else raw)
        location = str(doc.get("url", "")).lstrip("/")
        text = " ".join([*map(str, (doc.get("meta") or {}).values()), str(doc.get("content", "")),
                         *(str(a.get("text", "")) for a in doc.get("anchors") or [] if isinstance(a, dict))])
    except (OSError, EOFError, ValueError, AttributeError, TypeError):
        return _scan_text(rel, data.decode("utf-8", errors="replace"), ".json", needles)
    return _scan_page_entry(rel, location, text, own, needles, elsewhere)
