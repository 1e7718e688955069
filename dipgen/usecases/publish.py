"""What a site publishes, from the games as `dipgen.io.load` takes them: the views each game is
published from and their files, the archive and the files every page shares, the pages dipgen
adds to a site that has none of its own (the rules of every variant, the page on dice and lots),
and the games' cards on a hand-written page. The MkDocs plugin, `dipgen export` and every command
that makes a site's files go through here, so that they cannot drift apart.

This is where a game's secrets meet its views: the private pages are made from each seat's view
(`dipgen.present.site.privatepage`) and encrypted with the passphrases `dipgen.io.load` read. Everything
else a site shows is made from the public view, and once a hidden game is revealed from the
GM's view too (its non-blind edition).
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Iterable, Mapping

from dipgen.usecases.games import Loaded
from dipgen.present.site.crypt import Lock, page_uri
from dipgen.resources.folders import shipped
from dipgen.present.site.card import GameCard
from dipgen.present.site.feeds import site_feed_of
from dipgen.present.layout import PREFIX, RULES_DIR
from dipgen.present.site.pages import (SiteOptions, archive_of, cards_of, check_pages, game_card, private_files,
                                      published_files, site_assets)
from dipgen.present.site.across import across_files
from dipgen.present.site.privatepage import private_content
from dipgen.rules.rating import LEAST_GAMES
from dipgen.rules.scoring import DEFAULT as DEFAULT_SCORING
from dipgen.rules.variant import Variant
from dipgen.view import GameView, game_view, revealed
from dipgen.rules.visibility import GM, PUBLIC


def editions(loaded: Loaded) -> tuple[GameView, GameView | None]:
    """The views a public site publishes of a game: the public one, and for a hidden game once it
    is revealed the GM's (its non-blind edition)."""
    h = loaded.history
    public = game_view(h, PUBLIC, loaded.demo)
    return public, game_view(h, GM) if h.variant.policy.hidden and revealed(h) else None


def missing_passphrases(loaded: Loaded) -> list[str]:
    """The seats of a running hidden game that have no passphrase (and so no private page)."""
    h, secrets = loaded.history, loaded.secrets
    if revealed(h) or secrets is None:
        return []
    return [seat for seat in h.seating.keys() if seat not in secrets.passphrases]


def seat_pages(loaded: Loaded, options: SiteOptions) -> list[tuple[str, str, Lock]]:
    """(site path, HTML, lock) of each seat's private page of a running hidden game, each made from
    that seat's view alone, its lock the seat's passphrase and salt (`dipgen.present.site.crypt.Lock`: the
    same salt at every build); none for an open game, a revealed one, or a seat without a
    passphrase."""
    h, secrets = loaded.history, loaded.secrets
    if secrets is None or not secrets.page_key or revealed(h):
        return []
    out = []
    for seat in h.seating.keys():  # one page per seat (per power in the standard form)
        passphrase = secrets.passphrases.get(seat)
        if passphrase:
            uri = page_uri(secrets.page_key, h.info.slug, seat)
            out.append((uri, private_content(game_view(h, seat), uri, options.prefix, options.directory_urls),
                        Lock.of(secrets.page_key, h.info.slug, seat, passphrase)))
    return out


def game_files(loaded: Loaded, options: SiteOptions) -> dict[str, str | bytes]:
    """Everything one game adds to a public site: its pages, maps and draws, and its players'
    private pages. GameError with every problem its pages have."""
    public, full = editions(loaded)
    files = published_files(public, full, options)
    files.update(private_files(seat_pages(loaded, options), public))
    return files


def check_game(loaded: Loaded, options: SiteOptions) -> None:
    """Make the pages of a game as the build does (but not the maps): GameError with what the build
    would refuse."""
    public, full = editions(loaded)
    check_pages(public, full, options)


# ----------------------------------------------------------------------------- the whole site

#: A hand-written page with this line gets a card per game in its place (running games first).
GAMES_MARKER = "<!-- dipgen:games -->"
#: the package's pages (in its site_src/) that every site has unless it writes its own
PROVIDED = (f"{RULES_DIR}/*.md", "draws.md", "scoring.md")


def provided_pages(docs_dir: str | Path | None, rules_dir: str = RULES_DIR) -> dict[str, Path]:
    """The pages dipgen adds to a site, by their path in it: the package's rules page of every
    variant (in `rules_dir`) and its page on dice and lots, each unless `docs_dir` (the site's
    hand-written pages; None: none) has a file of that name, which then wins."""
    root = shipped("site_src")
    out: dict[str, Path] = {}
    for pattern in PROVIDED:
        for path in sorted(root.glob(pattern)):
            uri = path.relative_to(root).as_posix()
            if uri.startswith(f"{RULES_DIR}/"):  # the package's own folder of rules pages
                uri = f"{rules_dir.strip('/')}/{uri[len(RULES_DIR) + 1:]}"
            if docs_dir is None or not (Path(docs_dir) / uri).exists():
                out[uri] = path
    return out


def site_options(docs_dir: str | Path | None, *, prefix: str = PREFIX, directory_urls: bool = True,
                 rules_dir: str = RULES_DIR, site_url: str | None = None, site_name: str | None = None,
                 palette: str = "usual", scoring: str = DEFAULT_SCORING, aliases: Mapping[str, str] | None = None,
                 private_players: Iterable[str] = (), previews: bool = True,
                 rating_games: int | None = None) -> SiteOptions:
    """How a site is laid out, from its configuration: where the generated pages go, its URL style,
    the rules page of each variant (the site's own, else the package's), the pages game Markdown
    may link to, the site's address and name (mkdocs.yml's site_url and site_name), the maps'
    palette until a reader picks her own (the plugin's `palette`), the scoring system of finished
    games (``scoring``), and the players' pages' alias table and the people left out of them
    (``player_aliases``, ``private_players``); `previews`: draw the link previews' pictures where
    there is a site_url; `rating_games`: the rating's tables list players from that many rated games
    (None: `dipgen.rules.rating.LEAST_GAMES`)."""
    provided = provided_pages(docs_dir, rules_dir)
    rules_dir = rules_dir.strip("/")
    rules = {Path(uri).stem: uri for uri in provided if uri.startswith(rules_dir + "/")}
    if docs_dir is not None:
        rules.update({p.stem: f"{rules_dir}/{p.name}" for p in sorted((Path(docs_dir) / rules_dir).glob("*.md"))})
    url = str(site_url or "").strip()
    return SiteOptions(prefix=prefix, directory_urls=directory_urls, rules=rules,
                       docs_dir=None if docs_dir is None else str(docs_dir), provided=frozenset(provided),
                       site_url=url.rstrip("/") + "/" if url else "", site_name=str(site_name or "").strip(),
                       palette=palette, scoring=scoring, aliases=dict(aliases or {}),
                       private_players=frozenset(private_players), previews=previews,
                       rating_games=LEAST_GAMES if rating_games is None else rating_games)


def players_options(plugin: Mapping) -> dict:
    """The dipgen plugin's options of the players' pages and the rating (``player_aliases``,
    ``private_players``, ``rating_games``) as `site_options` takes them."""
    return dict(aliases=plugin.get("player_aliases") or {}, private_players=plugin.get("private_players") or [],
                rating_games=plugin.get("rating_games"))


def archive_files(views: Iterable[GameView], options: SiteOptions) -> dict[str, str]:
    """What the games share on a site: the archive page and feed (each game by its public view), the
    base map of each board in use, the stylesheet and the script."""
    views = list(views)
    return archive_files_of([game_card(v, options) for v in views], [v.variant for v in views], options)


def archive_files_of(cards: Iterable[GameCard], variants: Iterable[Variant], options: SiteOptions) -> dict[str, str]:
    """`archive_files` of the games' cards (`dipgen.present.site.pages.game_card`) and variants."""
    cards = list(cards)
    files = archive_of(cards, options)
    files.update(across_files(cards, options))
    files.update(site_feed_of(cards, options))
    files.update(site_assets(variants))
    return files


def with_cards(markdown: str, cards: Iterable[GameCard], options: SiteOptions, uri: str) -> str:
    """A hand-written page (`uri`, its path in the site) with `GAMES_MARKER` replaced by the cards of
    the games (`game_card`); the page as it is without the marker. For a generator that converts the
    cards with the page (`dipgen export`); the plugin puts them in after Markdown (`cards_into`)."""
    if GAMES_MARKER not in markdown:
        return markdown
    return markdown.replace(GAMES_MARKER, "\n" + cards_of(list(cards), options, uri) + "\n")


def marked_for_cards(markdown: str) -> str:
    """A hand-written page's Markdown with `GAMES_MARKER` a block of its own, which Markdown passes
    through as it is, for `cards_into` to find in the page's HTML. The cards are HTML already: a
    thousand of them through Markdown's HTML parser cost a big archive's home page a tenth of a second,
    on every edit under serve that changes a card (and the page, otherwise unchanged, is not converted
    again: `dipgen.mkdocs.speed.remembered`)."""
    if GAMES_MARKER not in markdown:
        return markdown
    return markdown.replace(GAMES_MARKER, "\n\n" + GAMES_MARKER + "\n\n")


def cards_into(html: str, cards: Iterable[GameCard], options: SiteOptions, uri: str) -> str:
    """A hand-written page's HTML (`marked_for_cards`'s Markdown converted) with the cards in the
    marker's place; the HTML as it is where Markdown did not keep the marker (in a code block, it
    shows the marker, escaped, as the code it is)."""
    if GAMES_MARKER not in html:
        return html
    return html.replace(GAMES_MARKER, cards_of(list(cards), options, uri).rstrip("\n"))
