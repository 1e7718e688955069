"""The pages of the results site, as pure functions: views (and options) in, files out.

Every function returns ``{uri: content}``: pages (`page.SitePage`: a Markdown file of HTML
blocks, autoescaped by Jinja2, and headings; the Markdown of game files, such as press and
notes, rendered and sanitised by `markup` into HTML blocks too) and SVG maps. Each page is made
from one level's `dipgen.view.GameView` and nothing else: this module never sees a History, a
game's files or its secrets.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple, TypeVar

from markupsafe import Markup

from dipgen import __version__
from dipgen.core.errors import GameError, Problem
from dipgen.core.phase import ADJUSTMENTS, Phase
from dipgen.present.site.crypt import Lock, encrypt, padded_size, room
from dipgen.rules.rating import LEAST_GAMES
from dipgen.rules.scoring import DEFAULT as DEFAULT_SCORING
from dipgen.rules.variant import Variant
from dipgen.view import UNKNOWN, GameView, RecordView
from dipgen.present.happened import what_happened
from dipgen.present.site import maps, markup, season
from dipgen.present.site.jinja import TEMPLATES, render
from dipgen.present.site.page import SitePage
from dipgen.present.site.rows import ArchiveRow, archive_row, home_card
from dipgen.present.layout import PREFIX
from dipgen.present.site.links import archive_uri, game_folder, game_uri, href, season_uri
from dipgen.present.site.model import (centre_rows, colour_of, game_status, kind_line, season_name, seat_rows,
                                       years_span)
from dipgen.present.site.card import CardDeadline, CardEnd, CardPlayer, CardStatus, GameCard
from dipgen.present.site.feeds import address, feed_card, feed_uri, game_feed, site_feed, summary as feed_summary
from dipgen.present.site.head import first_sentence, head_meta, plain
from dipgen.present.site.ics import deadline_calendar, ics_uri
from dipgen.present.times import deadline, orders_due
from dipgen.present.site.privatepage import PRIVATE_JS_URI, private_shell
from dipgen.present.site.sheet import SHEET_JS_URI, dumps as sheet_dumps, sheet_data, sheet_html
from dipgen.present.site.scores import SCORING_PAGE, score_table
from dipgen.present.site.people import people_of
from dipgen.present.site.across import across_files
from dipgen.present.svg import map_size
from dipgen.present.svg.chart import centre_chart
from dipgen.present.svg.shapes import SAFE_TARGET

ASSETS = Path(__file__).parent / "assets"
#: a theme folder over mkdocs-material's: the Content-Security-Policy of every page (main.html)
OVERRIDES = Path(__file__).parent / "overrides"
CSS_URI = "assets/dipgen/dipgen.css"
JS_URI = "assets/dipgen/dipgen.js"
#: Panzoom 4.6.2 (github.com/timmywil/panzoom, MIT), the gestures of the maps' full-screen view:
#: dipgen.js fetches it, from beside itself, on pages with maps only; its licence goes beside it
VENDORED = {"assets/dipgen/panzoom.min.js": "panzoom.min.js",
            "assets/dipgen/panzoom.LICENSE.txt": "panzoom.LICENSE.txt"}


T = TypeVar("T")

@dataclass(frozen=True)
class SiteOptions:
    """How the site is laid out.

    prefix: the folder of the generated pages (the archive is ``<prefix>/index.md``).
    directory_urls: as MkDocs' ``use_directory_urls``; relative links depend on it.
    rules: variant name -> the rules page (a source path such as ``rules/standard.md``).
    """

    prefix: str = PREFIX
    directory_urls: bool = True
    rules: Mapping[str, str] = field(default_factory=dict)
    #: "" for a game's own pages; "full" for the non-blind edition of a revealed hidden game
    edition: str = ""
    #: the other edition the game page links to ("full" from the blind pages), if any
    edition_link: str | None = None
    #: the hand-written pages and files (MkDocs' docs_dir), which game Markdown may link to
    docs_dir: str | None = None
    #: the pages dipgen adds to a site whose docs_dir has none of that name (``rules/stab.md``,
    #: ``draws.md``), which game Markdown may link to as well
    provided: frozenset[str] = frozenset()
    #: the site's address (mkdocs.yml's ``site_url``; '' when unset) and name: the feeds', the
    #: calendars' and the social tags' absolute addresses, and the feeds' ids
    site_url: str = ""
    site_name: str = ""
    #: the maps' palette until a reader picks her own (the switch under each map, dipgen.js):
    #: "usual", or "colour-blind" (each power's `safe_colour`; `dipgen.present.svg.shapes.SAFE_TARGET`)
    palette: str = "usual"
    #: whether pages with a site_url get their link previews' pictures (PNG maps, ``og:image``): not
    #: under `mkdocs serve`, whose site_url is the GM's own machine (each picture costs a tenth of a second)
    previews: bool = True
    #: the scoring system of finished games' scores (`dipgen.rules.scoring.SYSTEMS`)
    scoring: str = DEFAULT_SCORING
    #: the players' pages: a name as written -> the person's name (``J. Doe`` -> ``Jane Doe``), and
    #: the people left out of them (`dipgen.present.site.players`)
    aliases: Mapping[str, str] = field(default_factory=dict)
    private_players: frozenset[str] = frozenset()
    #: how many rated games a player needs before the rating's tables list her (`dipgen.rules.rating`)
    rating_games: int = LEAST_GAMES


def _links(view: GameView, options: SiteOptions, page: str) -> markup.Links:
    """How relative links in the game's Markdown are read on `page` (see `markup.Links`)."""
    slug = view.slug
    return markup.Links(page, game_folder(options.prefix, slug), game_folder(options.prefix, slug, options.edition),
                        frozenset(["index.md", *(f"{r.phase.slug}.md" for r in view.records)]),
                        archive_uri(options.prefix), options.docs_dir, options.directory_urls, options.provided)


def _markdown(text: str, what: str, file: str, links: markup.Links, problems: list[Problem]) -> Markup:
    """Markdown from a game file as sanitised HTML (`markup.render`); its problems go to `problems`."""
    if not text.strip():
        return Markup("")
    try:
        return markup.render(text, what, file, links)
    except GameError as e:
        problems.extend(e.problems)
        return Markup("")


def add_overrides(theme_dirs: list[str], custom_dir: str | None) -> None:
    """Put `OVERRIDES` in a theme's search path: after the site's own custom_dir, if any (which
    then wins), before the theme's templates."""
    if str(OVERRIDES) not in theme_dirs:
        theme_dirs.insert(1 if custom_dir else 0, str(OVERRIDES))


# ----------------------------------------------------------------------------- maps

def _page_map(view: GameView, options: SiteOptions, page: str, phase: Phase | None, when: str,
         caption: str, alt: str) -> dict:
    variant = view.variant
    size = map_size(variant)
    slug = view.slug
    overlay = maps.overlay_uri(options.prefix, slug, phase, when, options.edition)
    target = f"#{SAFE_TARGET}" if options.palette == "colour-blind" else ""
    name = f"{slug}-{phase.slug}-{when}.svg" if phase else f"{slug}-now.svg"
    return dict(id=f"map-{when}" if phase else "map-now",
                board=href(page, maps.board_uri(variant), options.directory_urls),
                overlay=href(page, overlay, options.directory_urls) + target,
                width=f"{size.width:g}", height=f"{size.height:g}", caption=caption, alt=alt, filename=name,
                loading="eager")


# ----------------------------------------------------------------------------- game page

def game_page(view: GameView, options: SiteOptions) -> dict[str, str]:
    """The game's own page: result, kind of game, GM, map now, centre table, history."""
    records = view.records
    variant = view.variant
    uri = game_uri(options.prefix, view.slug, options.edition)
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    status = game_status(view)
    years, rows = centre_rows(view)
    span = years_span(view)

    if view.finished:
        map_heading = "Final map"
        caption = f"Final position, after {records[-1].title}" if records else "Final position"
    elif records:
        due, playing = view.due, view.season
        map_heading, caption = "Current map", (
            f"What the public knows of the position: {due.name} is the next turn" if view.fixed and due else
            f"The position now: {orders_due(view.due_title(), capital=False)}" if due else
            f"The position now: the {playing.season_name if playing else 'current'} turn is being completed")
    else:  # a game not finished, with no season played, waits for its first
        first = view.due.name if view.due else "the first"
        map_heading, caption = "Starting map", f"The starting position: {orders_due(first, capital=False)}"

    table: dict[int, list[dict]] = {}
    for r in records:
        table.setdefault(r.phase.year, []).append(
            dict(url=link(season_uri(options.prefix, view.slug, r.phase, options.edition)), label=season_name(r.phase),
                 css=r.phase.kind))
    if view.due is not None:
        table.setdefault(view.due.year, []).append(dict(url=None, label=season_name(view.due), css="due"))

    problems: list[Problem] = []
    description = _markdown(view.info.description, "description", view.info.file, _links(view, options, uri),
                            problems)
    page, _, anchor = (variant.words.rules_page or variant.name).partition("#")
    rules = options.rules.get(page)
    if options.edition:
        edition_link = dict(url=link(game_uri(options.prefix, view.slug)), label="Back to the blind page")
    elif options.edition_link:
        edition_link = dict(url=link(game_uri(options.prefix, view.slug, options.edition_link)),
                            label="Click here for the non-blind page")
    else:
        edition_link = None
    demo = None if view.demo is None else [dict(name=d.name, url=link(d.page), passphrase=d.passphrase)
                                           for d in view.demo]
    head = _game_head(view, options, uri, description, status.line)
    meta = head.pop("head")
    # the order sheet: an open game's on its page; a hidden game's on its private pages, and once it is
    # published whole while it runs ("reveal: now"), on its non-blind edition (made from the GM's view)
    whole = not view.hidden if not options.edition else options.edition == "full"
    sheet = sheet_data(view, variant.rules.powers(), view.info.orders_to) if whole else None
    content = render(
        "game.html", edition_link=edition_link, **head, game=view.info, status=status,
        kind_line=variant.words.description or variant.words.title, variant_title=variant.words.title,
        span=f"{span[0]}–{span[1]}" if span and span[0] != span[1] else (str(span[0]) if span else ""),
        description=description, variant_section=Markup(variant.words.game_section(view)),
        section_below_centres=variant.words.game_section_below_centres,
        demo_pages=demo, map_heading=map_heading,
        now_map=_page_map(view, options, uri, None, "after", caption, f"Map of {view.title}: {caption}"),
        years=years, rows=rows, centre_chart=Markup(centre_chart(view)),
        victory=variant.words.victory_text(), seats=seat_rows(view, rows),
        history=sorted(table.items()), next_name=view.due.name if view.due else "",
        rules_href=(link(rules) + (f"#{anchor}" if anchor else "")) if rules else "",
        archive_href=link(archive_uri(options.prefix)),
        record=_record(view, options, uri, view.chain.latest if view.chain else None),
        sheet=None if sheet is None else sheet_html(sheet, link(sheet_uri(options.prefix, view.slug)),
                                                    link(SHEET_JS_URI)),
        scores=score_table(view, options.scoring), scoring_href=link(SCORING_PAGE),
    )
    if problems:
        raise GameError(problems)
    out: dict[str, str] = {uri: SitePage.make(view.title, content, head=meta)}
    if sheet is not None:  # an open running game's order sheet, beside its page
        out[sheet_uri(options.prefix, view.slug)] = sheet_dumps(sheet)
    return out


def _feed_meta(view: GameView, options: SiteOptions, uri: str, description: str, kind: str,
               picture: tuple[Phase | None, str] | None = None) -> dict[str, str]:
    """The page's front matter for its ``<head>`` (`head.head_meta`): its description, the game's feed
    and, with a site_url, the picture of `picture`'s map ((phase, what it shows); `maps.game_pictures`)."""
    image = ""
    if picture is not None and options.site_url and options.previews:
        image = address(options, uri, maps.picture_uri(options.prefix, view.slug, picture[0], options.edition))
    return head_meta(description, href(uri, feed_uri(options.prefix, view.slug), options.directory_urls),
                     f"{view.title}: every season", kind, image, picture[1] if image and picture else "")


def _game_head(view: GameView, options: SiteOptions, uri: str, description: Markup, status: str) -> dict:
    """What the game page says of the deadline, its calendar and its feed, and its head's front matter."""
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    calendar = ics_uri(options.prefix, view.slug)
    due = deadline(view)
    subscribe = ""
    if due is not None and options.site_url:
        subscribe = "webcal://" + address(options, uri, calendar).split("://", 1)[1]
    picture = (None, f"Map of {view.title}: the {'final position' if view.finished else 'position now'}")
    return dict(head=_feed_meta(view, options, uri, first_sentence(plain(description)) or status, "website", picture),
                deadline=due, calendar_href=link(calendar) if due is not None else "", subscribe_href=subscribe,
                feed_href=link(feed_uri(options.prefix, view.slug)))


def _record(view: GameView, options: SiteOptions, uri: str, latest) -> dict | None:
    """The link of the game's record a page shows (`latest`: a `dipgen.view.Link`, or None), with
    where to check it."""
    if latest is None:
        return None
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    return dict(after=latest.after.slug, label=latest.after.name, value=latest.value,
                json_href=link(chain_uri(options.prefix, view.slug)), about_href=link("draws.md") + "#record")


# ----------------------------------------------------------------------------- season pages

def _counts(view: GameView, record: RecordView) -> tuple[list[dict], str]:
    """The centre totals the record's page tells (a year's end), with each power's units and the
    builds or removals due where the view knows the whole position; and the heading of that column."""
    after = record.after
    if not record.tells_totals or after.totals is UNKNOWN:
        return [], ""
    variant = view.variant
    counts = []
    for p in variant.rules.powers():
        n, u = after.totals.get(p, 0), len(after.units_of(p, variant.rules.unit_kinds))
        d = record.due_after.get(p, 0)
        counts.append(dict(power=p, colour=colour_of(view, p), centres=n, units=u if after.whole else "?",
                           out=n == 0 and (u == 0 or not after.whole),
                           adjust=variant.words.adjustment_text(d) if d else ""))
    year_end = after.whole and variant.rules.calendar.ends_year(record.phase) and after.phase.kind == ADJUSTMENTS
    return counts, "Winter" if year_end else ""


def season_page(view: GameView, options: SiteOptions, index: int) -> dict[str, str]:
    """The page of one phase: maps before and after, every power's orders with results,
    dislodgements, centres changing hands, press and GM notes, links to the neighbours. What it
    shows is `season`'s typed values; this adds the links, the maps and the Markdown of the files."""
    records = view.records
    record = records[index]
    phase, title, summary = record.phase, record.title, record.summary_only
    uri = season_uri(options.prefix, view.slug, phase, options.edition)
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    counts, counts_note = _counts(view, record)

    def neighbour(i: int) -> dict | None:
        if 0 <= i < len(records):
            return dict(url=link(season_uri(options.prefix, view.slug, records[i].phase, options.edition)),
                        label=records[i].title)
        return None

    pager = dict(prev=neighbour(index - 1), next=neighbour(index + 1),
                 up=link(game_uri(options.prefix, view.slug, options.edition)),
                 last_label=season.last_label(view, index))
    problems: list[Problem] = []
    links = _links(view, options, uri)
    file = record.source or view.info.file
    content = render(
        "season.html", game=view.info, title=title,
        kind="The year's centre totals" if summary else kind_line(phase), kind_code=record.kind,
        archive_href=link(archive_uri(options.prefix)),
        game_href=link(game_uri(options.prefix, view.slug, options.edition)),
        pager=pager, happened=what_happened(view, index),
        orders_map=None if summary else _page_map(view, options, uri, phase, "orders", f"{title}: orders",
                                             f"Map of {title}: the orders on the position before"),
        after_map=None if summary else _page_map(view, options, uri, phase, "after", f"After {title}",
                                            f"Map of the position after {title}"),
        units_known=any(c["units"] != "?" for c in counts), orders_heading=season.orders_heading(record),
        powers=season.power_orders(view, record), dislodged=season.dislodged_rows(view, record),
        retreat_results=season.retreat_rows(view, record), moves=season.centre_move_rows(view, record),
        counts=counts, counts_note=counts_note,
        press=_markdown(record.press, "press", file, links, problems),
        notes=_markdown(record.notes, "GM's notes", file, links, problems),
        result_line=view.result_line if index == len(records) - 1 and view.finished else "",
        status_kind=view.result.kind if view.result else "",
        draws=_draws_section(view, options, uri, record),
        record=_record(view, options, uri, record.link),
        variant_section=Markup(view.variant.words.season_section(view, record)),
        deadline=deadline(view) if index == len(records) - 1 else None,  # the latest season's page only
    )
    if problems:
        raise GameError(problems)
    picture = None if summary else (phase, f"Map of {title} in {view.title}: the orders and their results")
    return {uri: SitePage.make(f"{title} · {view.title}", content,
                               head=_feed_meta(view, options, uri, feed_summary(view, index), "article", picture))}


def _draws_section(view: GameView, options: SiteOptions, uri: str, record: RecordView) -> dict | None:
    """What the phase drew and the key to check it with (None when it drew nothing shown)."""
    if not record.draws:
        return None
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    show = lambda v: ", ".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)  # noqa: E731
    items = [dict(label=d.label, among=show(d.among), value=show(d.value), secret=d.secret) for d in record.draws]
    return dict(drawn=items, key=record.draw_key, seed=view.draws.seed if view.draws else "",
                json_href=link(draws_uri(options.prefix, view.slug)), about_href=link("draws.md"))


def draws_uri(prefix: str, slug: str) -> str:
    return game_folder(prefix, slug) + "draws.json"


def sheet_uri(prefix: str, slug: str) -> str:
    return game_folder(prefix, slug) + "sheet.json"


def chain_uri(prefix: str, slug: str) -> str:
    return game_folder(prefix, slug) + "chain.json"


def chain_files(view: GameView, options: SiteOptions) -> dict[str, str]:
    """The game's chain.json (see `dipgen.present.chainfile`) and, where the game is open or revealed,
    its phase files beside it, their bytes unchanged (a game file is UTF-8: `dipgen.io.yamlfile`)."""
    from dipgen.present.chainfile import document, dumps, published_files as phase_files

    doc = document(view)
    if doc is None:
        return {}
    folder = game_folder(options.prefix, view.slug)
    out = {chain_uri(options.prefix, view.slug): dumps(doc)}
    out.update({folder + name: data.decode("utf-8") for name, data in phase_files(view).items()})
    return out


def draws_files(view: GameView, options: SiteOptions) -> dict[str, str]:
    """The game's draws.json (see `dipgen.present.drawfile`), if it has drawn anything the site shows."""
    from dipgen.present.drawfile import document, dumps

    doc = document(view)
    return {draws_uri(options.prefix, view.slug): dumps(doc)} if doc else {}


# ----------------------------------------------------------------------------- whole games and the site

def game_pages(view: GameView, options: SiteOptions) -> dict[str, str]:
    """The game page and one page per phase the view shows. Raises GameError with the problems of
    every page (Markdown that cannot be rendered, links that point nowhere)."""
    return _collect([partial(game_page, view, options),
                     *(partial(season_page, view, options, i) for i in range(len(view.records)))])


def _collect(makers: Iterable[Callable[[], Mapping[str, T]]]) -> dict[str, T]:
    """The files of each maker, merged; the problems of all of them in one GameError."""
    out: dict[str, T] = {}
    problems: list[Problem] = []
    for make in makers:
        try:
            out.update(make())
        except GameError as e:
            problems.extend(p for p in e.problems if p not in problems)
    if problems:
        raise GameError(problems)
    return out


def edition_files(view: GameView, options: SiteOptions) -> dict[str, str | bytes]:
    """Everything one edition of a game adds to the site: its pages, its map overlays and, with a
    site_url, its link previews' pictures (PNG, the only bytes of a game's files)."""
    out: dict[str, str | bytes] = dict(game_pages(view, options))
    out.update(maps.game_maps(view, options.prefix, options.edition))
    if options.site_url and options.previews:  # the link previews (`_feed_meta`): only where they can be addressed
        out.update(maps.game_pictures(view, options.prefix, options.edition))
    return out


def edition_options(public: GameView, full: GameView | None,
                    options: SiteOptions) -> list[tuple[GameView, SiteOptions]]:
    """The editions of a game a public site shows: its pages from the public view, and for a
    hidden game once it is revealed the non-blind edition too (`full`: the GM's view)."""
    plain = replace(options, edition="", edition_link=None)
    if full is None:
        return [(public, plain)]
    return [(public, replace(plain, edition_link="full")), (full, replace(plain, edition="full"))]


def published_files(public: GameView, full: GameView | None, options: SiteOptions) -> dict[str, str | bytes]:
    """What one game adds to a public site: the pages and maps of each of its editions
    (`edition_options`), its draws, its feed and its deadline's calendar."""
    out = _collect(partial(edition_files, view, edition) for view, edition in edition_options(public, full, options))
    out.update(draws_files(full or public, options))
    out.update(game_feed(public, options))  # the feed and the calendar tell what the public may know
    out.update(deadline_calendar(public, options))
    out.update(chain_files(full or public, options))
    return out


def check_pages(public: GameView, full: GameView | None, options: SiteOptions) -> None:
    """Make the pages of every edition a public site shows, as the build does (but not the maps),
    and raise GameError with what the build would refuse (see `game_pages`)."""
    _collect(partial(game_pages, view, edition) for view, edition in edition_options(public, full, options))


def private_room(public: GameView) -> int:
    """The size every private page of a game is padded to: `dipgen.present.site.crypt.room` of what the
    public view shows (how many phases, and how much press and notes), public facts alone."""
    text = "".join(r.press + r.notes for r in public.records)
    return room(public.public_phases, text)


def private_files(pages: list[tuple[str, str, Lock]], public: GameView) -> dict[str, str]:
    """The private pages of a running hidden game, each encrypted with its player's passphrase, and
    the script that opens them. `pages`: (site path, the page's HTML, lock) for each seat
    (`dipgen.present.site.privatepage.private_content`, each made from that seat's view alone; the
    lock its passphrase and salt, `dipgen.present.site.crypt.Lock`); `public`: the game's public view.

    Every page is padded to one size, `private_room`, made of public facts alone: a page's size
    must not tell which player has more to read, nor what happened out of the public's sight. A
    page that outgrows it is an error, never a bigger size that a hidden fact could move.

    Pure but for the encryption's random nonce: one key derivation per seat and process (the salt
    is the seat's, the same at every build)."""
    if not pages:
        return {}
    size = private_room(public)
    fits = padded_size((content.encode("utf-8") for _, content, _ in pages), least=size)
    if fits != size:
        raise GameError([Problem("", None, f"a private page needs {fits} bytes, more than the {size} its size is "
                                 "fixed to: its size would tell what the public may not know",
                                 "this is a bug in dipgen (the room of a private page is made too small): report "
                                 "it; 'reveal: now' in game.yml publishes the game without private pages",
                                 code="private-page-too-large")])
    out = {uri: private_shell(encrypt(content.encode("utf-8"), lock, size=size), uri)
           for uri, content, lock in pages}
    out[PRIVATE_JS_URI] = (ASSETS / "private.js").read_text(encoding="utf-8")
    return out


def game_card(view: GameView, options: SiteOptions) -> GameCard:
    """What the archive and the home page show of a game, from its public `view` (the MkDocs plugin
    keeps it with the game's files, `GameCard.as_json`, so that an unchanged game is not read
    again): title, page, variant, GM, players, years, status, deadline, who sat where, how it
    ended, and the latest activity and feed entries (`feeds.feed_card`)."""
    variant = view.variant
    now = view.records[-1].after if view.records else None
    span = years_span(view)
    players = []
    for p in variant.rules.powers():
        out = now is not None and not now.units_of(p, variant.rules.unit_kinds) and not now.total(p)
        players.append(CardPlayer(p, colour_of(view, p), ", ".join(view.seating.player_names(p)) or "—", out))
    status, due, feed = game_status(view), deadline(view), feed_card(view, options)
    return GameCard(title=view.title, uri=game_uri(options.prefix, view.slug, options.edition),
                    variant=variant.words.title, gm=view.info.gm, players=tuple(players),
                    years=(f"{span[0]}–{span[1]}" if span[0] != span[1] else str(span[0])) if span else "—",
                    years_sort=f"{span[0]:04d}{span[1]:04d}" if span else "0",
                    status=CardStatus(kind=status.kind, label=status.label, sort_key=status.sort_key),
                    deadline=None if due is None else CardDeadline(iso=due.iso, text=due.text, label=due.label),
                    slug=view.slug, finished=view.finished, people=tuple(people_of(view, options.scoring)),
                    ended=None if view.result is None else CardEnd(view.result.kind, tuple(view.result.powers)),
                    latest=feed.latest, feed=feed.feed)


class CardRow(NamedTuple):
    """A game's card as a page shows it, with its link from that page."""

    card: GameCard
    url: str


def _game_rows(cards: Iterable[GameCard], options: SiteOptions, from_uri: str) -> list[CardRow]:
    """One row per game for the archive and the home page, running games first."""
    rows = [CardRow(card, href(from_uri, card.uri, options.directory_urls)) for card in cards]
    rows.sort(key=lambda r: (r.card.status.sort_key[:1], r.card.title.lower()))
    return rows


def archive_page(views: Iterable[GameView], options: SiteOptions) -> dict[str, str]:
    """The list of every game (each by its public view): variant, GM, players, years, status; sortable."""
    return archive_of([game_card(v, options) for v in views], options)


def archive_of(cards: Iterable[GameCard], options: SiteOptions) -> dict[str, str]:
    """`archive_page` of the games' cards (`game_card`)."""
    uri = archive_uri(options.prefix)
    cards = list(cards)
    rows = _game_rows(cards, options, uri)
    running = sum(1 for c in cards if not c.finished)
    summary = (f"{len(cards)} game{'s' if len(cards) != 1 else ''}: "
               f"{running} running, {len(cards) - running} finished.")
    table = Markup("".join(archive_row(ArchiveRow.of(r.card, r.url)) for r in rows))
    return {uri: SitePage.make("Games", render("archive.html", games=bool(rows), rows=table, summary=summary))}


def by_activity(rows: list[CardRow]) -> list[CardRow]:
    """Rows of games, the one that moved last first (its newest season's time); of one time, by folder."""
    return sorted(sorted(rows, key=lambda r: r.card.slug), key=lambda r: r.card.latest, reverse=True)


def games_cards(views: Iterable[GameView], options: SiteOptions, from_uri: str, finished: int = 6) -> str:
    """A block of cards for a hand-written page (the home page): every running game, the one that
    moved last first, each with the phase it waits for and its deadline; then the `finished` games
    that ended last."""
    return cards_of([game_card(v, options) for v in views], options, from_uri, finished)


def cards_of(cards: Iterable[GameCard], options: SiteOptions, from_uri: str, finished: int = 6) -> str:
    """`games_cards` of the games' cards (`game_card`)."""
    rows = _game_rows(cards, options, from_uri)
    running = by_activity([r for r in rows if not r.card.finished])
    ended = by_activity([r for r in rows if r.card.finished])
    games = Markup("".join(home_card(ArchiveRow.of(r.card, r.url)) for r in running + ended[:finished]))
    return render("cards.html", games=games, more=len(ended) > finished, count=len(rows),
                  archive_url=href(from_uri, archive_uri(options.prefix), options.directory_urls))


def shared_files(views: Iterable[GameView]) -> dict[str, str]:
    """Files every page shares: the base map of each board in use, the stylesheet and script, and
    the vendored script the maps' full-screen view loads (with its licence)."""
    return site_assets(v.variant for v in views)


def site_assets(variants: Iterable[Variant]) -> dict[str, str]:
    """`shared_files` of the variants the games are played in."""
    out: dict[str, str] = {}
    for variant in variants:
        uri = maps.board_uri(variant)
        if uri not in out:
            out[uri] = maps.board_map(variant)
    out[CSS_URI] = (ASSETS / "dipgen.css").read_text(encoding="utf-8")
    out[JS_URI] = (ASSETS / "dipgen.js").read_text(encoding="utf-8")
    out[SHEET_JS_URI] = (ASSETS / "sheet.js").read_text(encoding="utf-8")
    out.update((uri, (ASSETS / name).read_text(encoding="utf-8")) for uri, name in VENDORED.items())
    return out


def build_site(games: Iterable[tuple[GameView, GameView | None]],
               options: SiteOptions | None = None) -> dict[str, str | bytes]:
    """The whole generated site, without caching or private pages: each game's files (from its
    public view, and its full edition's once revealed), the archive, shared files."""
    options = options or SiteOptions()
    games = list(games)
    out: dict[str, str | bytes] = {}
    for public, full in games:
        out.update(published_files(public, full, options))
    out.update(archive_page((public for public, _ in games), options))
    cards = [game_card(public, options) for public, _ in games]
    out.update(across_files(cards, options))
    out.update(site_feed((public for public, _ in games), options))
    out.update(shared_files(public for public, _ in games))
    return out


def generator_fingerprint() -> str:
    """A hash of the templates and assets, so that cached pages follow a changed template."""
    digest = hashlib.sha256(__version__.encode())
    for folder in (TEMPLATES, ASSETS):
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                digest.update(f.name.encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()
