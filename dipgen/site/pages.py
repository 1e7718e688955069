"""The pages of the results site, as pure functions: History (and options) in, files out.

Every function returns ``{uri: content}``: Markdown pages for MkDocs (raw HTML blocks
for the laid-out parts, autoescaped by Jinja2; the Markdown of game files, such as press
and notes, rendered and sanitised by `markup` into raw HTML blocks too) and SVG maps. Each
page is made from the views of one visibility level (`SiteOptions.level`), never from the
records themselves.
"""

from __future__ import annotations

import hashlib
import html
import json
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Mapping

from markupsafe import Markup

from .. import __version__
from ..engine.results import Kind
from ..errors import GameError, Problem, display_path
from ..phase import ADJUSTMENTS, MOVEMENT, Phase
from ..private import encrypt, padded_size, page_uri, room, seat_keys
from ..records import History, PhaseRecord
from ..timeline import timeline
from ..visibility import GM, PUBLIC
from . import maps, markup
from .jinja import TEMPLATES, render
from .links import archive_uri, game_folder, game_uri, href, season_uri
from .model import (and_list, centre_moves, centre_rows, game_status, kind_line, order_items, ordering_powers,
                    phase_title, season_name, seat_rows, views, written_orders, years_span)
from .privatepage import PRIVATE_JS_URI, private_content, private_shell

ASSETS = Path(__file__).parent / "assets"
#: a theme folder over mkdocs-material's: the Content-Security-Policy of every page (main.html)
OVERRIDES = Path(__file__).parent / "overrides"
CSS_URI = "assets/dipgen/dipgen.css"
JS_URI = "assets/dipgen/dipgen.js"


@dataclass(frozen=True)
class SiteOptions:
    """How the site is laid out.

    level: the visibility level every page is made for ("public" on a published site;
      "gm" for the non-blind edition of a hidden game once it is revealed).
    prefix: the folder of the generated pages (the archive is ``<prefix>/index.md``).
    directory_urls: as MkDocs' ``use_directory_urls``; relative links depend on it.
    rules: variant name -> the rules page (a source path such as ``rules/standard.md``).
    """

    level: str = "public"
    prefix: str = "games"
    directory_urls: bool = True
    rules: Mapping[str, str] = field(default_factory=dict)
    #: "" for a game's own pages; "full" for the non-blind edition of a revealed hidden game
    edition: str = ""
    #: the other edition the game page links to ("full" from the blind pages), if any
    edition_link: str | None = None
    #: the hand-written pages and files (MkDocs' docs_dir), which game Markdown may link to
    docs_dir: str | None = None


def _title(text: str) -> Markup:
    """A front-matter title: HTML-escaped (themes insert it unescaped), quoted for YAML."""
    return Markup(json.dumps(html.escape(text, quote=False), ensure_ascii=False))


def _links(history: History, options: SiteOptions, page: str, records: list[PhaseRecord]) -> markup.Links:
    """How relative links in the game's Markdown are read on `page` (see `markup.Links`)."""
    slug = history.game.slug
    return markup.Links(page, game_folder(options.prefix, slug), game_folder(options.prefix, slug, options.edition),
                        frozenset(["index.md", *(f"{r.phase.slug}.md" for r in records)]),
                        archive_uri(options.prefix), options.docs_dir, options.directory_urls)


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

def _map(history: History, options: SiteOptions, page: str, phase: Phase | None, when: str,
         caption: str, alt: str) -> dict:
    variant = history.game.variant
    size = maps.map_size(variant)
    slug = history.game.slug
    overlay = maps.overlay_uri(options.prefix, slug, phase, when, options.edition)
    name = f"{slug}-{phase.slug}-{when}.svg" if phase else f"{slug}-now.svg"
    return dict(id=f"map-{when}" if phase else "map-now",
                board=href(page, maps.board_uri(variant), options.directory_urls),
                overlay=href(page, overlay, options.directory_urls),
                width=f"{size.width:g}", height=f"{size.height:g}", caption=caption, alt=alt, filename=name,
                loading="eager")


# ----------------------------------------------------------------------------- game page

def game_page(history: History, options: SiteOptions, records: list[PhaseRecord] | None = None) -> dict[str, str]:
    """The game's own page: result, kind of game, GM, map now, centre table, history."""
    records = views(history, options.level) if records is None else records
    game, variant = history.game, history.game.variant
    uri = game_uri(options.prefix, game.slug, options.edition)
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    tl = timeline(history, options.level)
    status = game_status(history, options.level)
    years, rows = centre_rows(history, records, tl.fixed)
    span = years_span(history, options.level)

    if history.finished:
        last = records[-1].phase
        map_heading, caption = "Final map", f"Final position, after {tl.title(last)}"
    elif records:
        due = tl.due
        map_heading, caption = "Current map", (
            f"What the public knows of the position: {due.name} is the next turn" if tl.fixed else
            f"The position now: {phase_title(due)} orders are due" if due else
            f"The position now: the {history.next_phase.season_name} turn is being completed")
    else:
        map_heading, caption = "Starting map", f"The starting position: {history.next_phase.name} orders are due"

    table: dict[int, list[dict]] = {}
    for r in records:
        table.setdefault(r.phase.year, []).append(
            dict(url=link(season_uri(options.prefix, game.slug, r.phase, options.edition)), label=season_name(r.phase),
                 css=r.phase.kind))
    if tl.due is not None:
        table.setdefault(tl.due.year, []).append(dict(url=None, label=season_name(tl.due), css="due"))

    problems: list[Problem] = []
    description = _markdown(game.description, "description", display_path(game.path / "game.yml"),
                            _links(history, options, uri, records), problems)
    page, _, anchor = (variant.rules_page or variant.name).partition("#")
    rules = options.rules.get(page)
    if options.edition:
        edition_link = dict(url=link(game_uri(options.prefix, game.slug)), label="Back to the blind page")
    elif options.edition_link:
        edition_link = dict(url=link(game_uri(options.prefix, game.slug, options.edition_link)),
                            label="Click here for the non-blind page")
    else:
        edition_link = None
    content = render(
        "game.md", edition_link=edition_link,
        page_title=_title(game.title), game=game, status=status,
        kind_line=variant.description or variant.title, variant_title=variant.title,
        span=f"{span[0]}–{span[1]}" if span and span[0] != span[1] else (str(span[0]) if span else ""),
        description=description, variant_section=Markup(variant.game_section(history, options.level)),
        section_below_centres=variant.game_section_below_centres,
        demo_pages=_demo_pages(history, link), map_heading=map_heading,
        now_map=_map(history, options, uri, None, "after", caption, f"Map of {game.title}: {caption}"),
        years=years, rows=rows,
        victory=variant.victory_text(), seats=seat_rows(history, rows),
        history=sorted(table.items()), next_name=tl.due.name if tl.due else "",
        rules_href=(link(rules) + (f"#{anchor}" if anchor else "")) if rules else "", archive_href=link(archive_uri(options.prefix)),
    )
    if problems:
        raise GameError(problems)
    return {uri: content}


# ----------------------------------------------------------------------------- season pages

def season_page(history: History, options: SiteOptions, records: list[PhaseRecord], index: int) -> dict[str, str]:
    """The page of one phase: maps before and after, every power's orders with results,
    dislodgements, centres changing hands, press and GM notes, links to the neighbours."""
    game, variant = history.game, history.game.variant
    board = variant.board
    record = records[index]
    phase = record.phase
    uri = season_uri(options.prefix, game.slug, phase, options.edition)
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    colour = lambda p: board.powers[p].colour if p in board.powers else "#888"  # noqa: E731
    tl = timeline(history, options.level)
    title = tl.title(phase)
    summary = tl.summary_only(phase)

    powers = []
    for p in ordering_powers(history, record):
        items = []
        for o in order_items(history, record, p):
            first = o.default and record.kind == MOVEMENT
            last = o.default and not first and "no order" not in o.text and Kind.CIVIL_DISORDER not in o.kinds
            css = "dg-default" if o.default else ("dg-fail" if not o.succeeded or o.tags else "dg-ok")
            items.append(dict(text=o.text, tags=o.tags, no_order_first=first, no_order_last=last, css=css))
        due = record.adjustments.get(p, 0)
        adjust = variant.adjustment_text(due) if due else ""
        nmr_text = ""
        if p in record.nmr and not items:
            nmr_text = "No orders received." + (" Builds waived." if due > 0 else "")
        writers, written = written_orders(history, record, p)
        powers.append(dict(power=p, colour=colour(p), player=history.player(p, phase), orders=items,
                           nmr=p in record.nmr, adjust=adjust, nmr_text=nmr_text, writers=writers, written=written))

    dislodged = [dict(power=d.unit.power, colour=colour(d.unit.power), unit=d.unit.describe(board),
                      attacker=board.format_loc(d.attacker_from), by=d.by_power, fate_known=d.retreats is not None,
                      retreats=and_list([board.format_loc(x) for x in d.retreats or ()]).replace(" and ", " or "))
                 for d in (*record.dislodged, *record.destroyed)]
    retreat_results = [dict(power=r.power, colour=colour(r.power), text=r.order_text(board), tags=variant.result_words(r))
                       for r in record.retreat_results]
    moves = [dict(power=p, colour=colour(p), gained=", ".join(board.format_loc(c) for c in g),
                  lost=", ".join(board.format_loc(c) for c in lost))
             for p, g, lost in centre_moves(record)]

    counts, counts_note = [], ""
    year_end = phase.season_index == 1 and record.after.phase.season_index == 2 and not tl.fixed
    if record.centre_changes or record.kind == ADJUSTMENTS or year_end:
        after = record.after
        centres = after.centre_counts(variant.powers())
        # where the view knows the totals but not who owns what (a hidden game), it knows
        # neither every unit nor the adjustments: show the totals alone
        whole = after.counts is None
        due = variant.adjustment_counts(after) if year_end and whole else {}
        counts_note = "Winter" if year_end and whole else ""
        for p in variant.powers():
            n, u = centres.get(p, 0), len(after.units_of(p, variant.unit_kinds))
            d = due.get(p, 0)
            counts.append(dict(power=p, colour=colour(p), centres=n, units=u if whole else "?",
                               out=n == 0 and (u == 0 or not whole),
                               adjust=variant.adjustment_text(d) if d else ""))

    def neighbour(i: int) -> dict | None:
        if 0 <= i < len(records):
            return dict(url=link(season_uri(options.prefix, game.slug, records[i].phase, options.edition)),
                        label=tl.title(records[i].phase))
        return None

    if index + 1 < len(records):
        last_label = ""
    elif history.finished:
        last_label = "Game over"
    else:
        due = tl.due
        last_label = (f"{due.name}: the next turn" if tl.fixed else f"{phase_title(due)}: orders due" if due
                      else f"{history.next_phase.season_name}: in play")
    pager = dict(prev=neighbour(index - 1), next=neighbour(index + 1), up=link(game_uri(options.prefix, game.slug, options.edition)),
                 last_label=last_label)
    is_last = index == len(records) - 1
    problems: list[Problem] = []
    links = _links(history, options, uri, records)
    file = record.file or display_path(game.path)
    press = _markdown(record.press, "press", file, links, problems)
    notes = _markdown(record.notes, "GM's notes", file, links, problems)
    content = render(
        "season.md",
        page_title=_title(f"{title} · {game.title}"), game=game, title=title, kind="The year's centre totals" if summary else kind_line(phase),
        kind_code=record.kind,
        archive_href=link(archive_uri(options.prefix)), game_href=link(game_uri(options.prefix, game.slug, options.edition)),
        pager=pager,
        orders_map=None if summary else _map(history, options, uri, phase, "orders", f"{title}: orders",
                                             f"Map of {title}: the orders on the position before"),
        after_map=None if summary else _map(history, options, uri, phase, "after", f"After {title}",
                                            f"Map of the position after {title}"),
        units_known=any(c["units"] != "?" for c in counts),
        orders_heading={MOVEMENT: "Orders", ADJUSTMENTS: "Builds and removals"}.get(record.kind, "Retreats"),
        powers=powers, dislodged=dislodged, retreat_results=retreat_results, moves=moves, counts=counts,
        counts_note=counts_note, press=press, notes=notes,
        result_line=history.result_line() if is_last and history.finished else "",
        status_kind=history.result.kind if history.result else "",
        draws=_draws_section(history, options, uri, phase),
        variant_section=Markup(variant.season_section(record)),
    )
    if problems:
        raise GameError(problems)
    return {uri: content}


def _draws_section(history: History, options: SiteOptions, uri: str, phase: Phase) -> dict | None:
    """What the phase drew and the key to check it with (None when it drew nothing shown)."""
    from ..drawfile import draws_revealed, published_draws

    drawn = published_draws(history, phase)
    if not drawn:
        return None
    link = lambda target: href(uri, target, options.directory_urls)  # noqa: E731
    show = lambda v: ", ".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)  # noqa: E731
    items = [dict(label=d.label, among=show(d.among), value=show(d.value), secret=d.secret) for d in drawn]
    seed = history.draws.seed.hex() if draws_revealed(history) and history.draws.seed else ""
    return dict(drawn=items, key=history.draws.key(phase).hex(), seed=seed,
                json_href=link(draws_uri(options.prefix, history.game.slug)), about_href=link("draws.md"))


def draws_uri(prefix: str, slug: str) -> str:
    return game_folder(prefix, slug) + "draws.json"


def draws_files(history: History, options: SiteOptions) -> dict[str, str]:
    """The game's draws.json (see `dipgen.drawfile`), if it has drawn anything the site shows."""
    from ..drawfile import document, dumps

    doc = document(history)
    return {draws_uri(options.prefix, history.game.slug): dumps(doc)} if doc else {}


# ----------------------------------------------------------------------------- whole games and the site

def game_pages(history: History, options: SiteOptions) -> dict[str, str]:
    """The game page and one page per phase played. Raises GameError with the problems of
    every page (Markdown that cannot be rendered, links that point nowhere)."""
    records = views(history, options.level)
    return _collect([partial(game_page, history, options, records),
                     *(partial(season_page, history, options, records, i) for i in range(len(records)))])


def _collect(makers: Iterable[Callable[[], dict[str, str]]]) -> dict[str, str]:
    """The files of each maker, merged; the problems of all of them in one GameError."""
    out: dict[str, str] = {}
    problems: list[Problem] = []
    for make in makers:
        try:
            out.update(make())
        except GameError as e:
            problems.extend(p for p in e.problems if p not in problems)
    if problems:
        raise GameError(problems)
    return out


def game_files(history: History, options: SiteOptions) -> dict[str, str]:
    """Everything one game adds to the site: its pages and its map overlays."""
    out = game_pages(history, options)
    out.update(maps.game_maps(history, options.level, options.prefix, options.edition))
    return out


def revealed(history: History) -> bool:
    """May everything about this game be published? Open games: always; hidden ones when they
    are over, or when the GM says so (``reveal: now``)."""
    return not history.game.variant.hidden or history.finished or history.game.reveal == "now"


def editions(history: History, options: SiteOptions) -> list[SiteOptions]:
    """The editions of a game a public site shows: its pages at the public level, and for a
    hidden game once it is revealed the non-blind edition too (made from the GM's view)."""
    public = replace(options, level=PUBLIC, edition="")
    if not history.game.variant.hidden or not revealed(history):
        return [public]
    return [replace(public, edition_link="full"), replace(options, level=GM, edition="full")]


def published_files(history: History, options: SiteOptions) -> dict[str, str]:
    """What one game adds to a public site: the pages and maps of each of its `editions`, and its draws."""
    out = _collect(partial(game_files, history, edition) for edition in editions(history, options))
    out.update(draws_files(history, options))
    return out


def _demo_pages(history: History, link: Callable[[str], str]) -> list[dict] | None:
    """An example game that ships its secrets on purpose (``demo_secrets: true``, checked by
    `dipgen.load.demo_problems`): each player's private page and passphrase, for the game page to
    say openly; None for every other game."""
    from ..game import SECRETS_FILE
    from ..secrets import load_secrets

    game = history.game
    if not game.demo_secrets or revealed(history) or not (game.path / SECRETS_FILE).exists():
        return None
    secrets = load_secrets(game.path / SECRETS_FILE, seat_keys(game))
    return [dict(name=seat, url=link(page_uri(secrets.page_key, game.slug, seat)), passphrase=passphrase)
            for seat, passphrase in secrets.passphrases.items()]


def check_pages(history: History, options: SiteOptions) -> None:
    """Make the pages of every edition a public site shows, as the build does (but not the maps),
    and raise GameError with what the build would refuse (see `game_pages`)."""
    _collect(partial(game_pages, history, edition) for edition in editions(history, options))


def private_files(history: History, secrets, options: SiteOptions) -> dict[str, str]:
    """Each seat's private page of a running hidden game (each power's, in the standard form),
    encrypted with its player's passphrase
    (`secrets`: a `dipgen.secrets.GameSecrets`), and the script that opens them. Nothing for an
    open game, a revealed one (its full edition replaces them), or a power without a passphrase.

    Pure but for the encryption's random salt and nonce: one key derivation per page."""
    if secrets is None or revealed(history):
        return {}
    pages: dict[str, tuple[bytes, str]] = {}
    for seat in seat_keys(history.game):  # one page per seat (per power in the standard form)
        passphrase = secrets.passphrases.get(seat)
        if not passphrase:
            continue
        uri = page_uri(secrets.page_key, history.game.slug, seat)
        content = private_content(history, seat, uri, options.prefix, options.directory_urls)
        pages[uri] = content.encode("utf-8"), passphrase
    # one size for all, from public facts: the size of a page must not tell which power has more
    # to read, nor what happened in the phases the public does not see
    size = padded_size((content for content, _ in pages.values()), least=room(len(timeline(history, PUBLIC).records)))
    out = {uri: private_shell(encrypt(content, passphrase, size=size), uri)
           for uri, (content, passphrase) in pages.items()}
    if out:
        out[PRIVATE_JS_URI] = (ASSETS / "private.js").read_text(encoding="utf-8")
    return out


def _game_rows(histories: list[History], options: SiteOptions, from_uri: str) -> list[dict]:
    """One row per game for the archive and the home page, running games first."""
    rows = []
    for h in histories:
        game, board = h.game, h.game.variant.board
        recs = views(h, options.level)
        now = recs[-1].after if recs else None
        span = years_span(h, options.level)
        players = []
        for p in game.variant.powers():
            out = now is not None and not now.units_of(p, game.variant.unit_kinds) and not now.centre_counts([p])[p]
            players.append((p, board.powers[p].colour if p in board.powers else "#888",
                            ", ".join(h.seating.player_names(p)) or "—", out))
        rows.append(dict(title=game.title,
                         url=href(from_uri, game_uri(options.prefix, game.slug, options.edition), options.directory_urls),
                         variant=game.variant.title, gm=game.gm, players=players,
                         years=(f"{span[0]}–{span[1]}" if span[0] != span[1] else str(span[0])) if span else "—",
                         years_sort=f"{span[0]:04d}{span[1]:04d}" if span else "0",
                         status=game_status(h, options.level)))
    rows.sort(key=lambda r: (r["status"].sort_key[:1], r["title"].lower()))
    return rows


def archive_page(histories: Iterable[History], options: SiteOptions) -> dict[str, str]:
    """The list of every game: variant, GM, players, years, status; sortable."""
    uri = archive_uri(options.prefix)
    histories = list(histories)
    rows = _game_rows(histories, options, uri)
    running = sum(1 for h in histories if not h.finished)
    summary = (f"{len(histories)} game{'s' if len(histories) != 1 else ''}: "
               f"{running} running, {len(histories) - running} finished.")
    return {uri: render("archive.md", page_title=_title("Games"), games=rows, summary=summary)}


def games_cards(histories: Iterable[History], options: SiteOptions, from_uri: str, limit: int = 6) -> str:
    """A block of cards for a hand-written page (the home page): the games, running ones first."""
    histories = list(histories)
    rows = _game_rows(histories, options, from_uri)
    return render("cards.html", games=rows[:limit], more=len(rows) > limit, count=len(rows),
                   archive_url=href(from_uri, archive_uri(options.prefix), options.directory_urls))


def shared_files(histories: Iterable[History]) -> dict[str, str]:
    """Files every page shares: the base map of each board in use, the stylesheet and script."""
    out: dict[str, str] = {}
    for h in histories:
        uri = maps.board_uri(h.game.variant)
        if uri not in out:
            out[uri] = maps.board_map(h.game.variant)
    out[CSS_URI] = (ASSETS / "dipgen.css").read_text(encoding="utf-8")
    out[JS_URI] = (ASSETS / "dipgen.js").read_text(encoding="utf-8")
    return out


def build_site(histories: Iterable[History], options: SiteOptions | None = None) -> dict[str, str]:
    """The whole generated site, without caching: every game's files, the archive, shared files."""
    options = options or SiteOptions()
    histories = list(histories)
    out: dict[str, str] = {}
    for h in histories:
        out.update(published_files(h, options))
    out.update(archive_page(histories, options))
    out.update(shared_files(histories))
    return out


def generator_fingerprint() -> str:
    """A hash of the templates and assets, so that cached pages follow a changed template."""
    digest = hashlib.sha256(__version__.encode())
    for folder in (TEMPLATES, ASSETS):
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                digest.update(f.name.encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()
