"""What one game publishes on a site, from the game as `dipgen.io.load` takes it: the views it is
published from, and their files. The MkDocs plugin and every command that makes a site's files
go through here, so that they cannot drift apart.

This is where a game's secrets meet its views: the private pages are made from each seat's view
(`dipgen.present.site.privatepage`) and encrypted with the passphrases `dipgen.io.load` read. Everything
else a site shows is made from the public view, and once a hidden game is revealed from the
GM's view too (its non-blind edition).
"""

from __future__ import annotations

from dipgen.adapters.games import Loaded
from dipgen.core.crypt import page_uri
from dipgen.present.site.pages import SiteOptions, check_pages, private_files, published_files
from dipgen.present.site.privatepage import private_content
from dipgen.view import GameView, game_view, revealed
from dipgen.rules.visibility import GM, PUBLIC


def editions(loaded: Loaded) -> tuple[GameView, GameView | None]:
    """The views a public site publishes of a game: the public one, and for a hidden game once it
    is revealed the GM's (its non-blind edition)."""
    h = loaded.history
    public = game_view(h, PUBLIC, loaded.demo)
    return public, game_view(h, GM) if h.variant.visibility.hidden and revealed(h) else None


def missing_passphrases(loaded: Loaded) -> list[str]:
    """The seats of a running hidden game that have no passphrase (and so no private page)."""
    h, secrets = loaded.history, loaded.secrets
    if revealed(h) or secrets is None:
        return []
    return [seat for seat in h.seating.keys() if seat not in secrets.passphrases]


def seat_pages(loaded: Loaded, options: SiteOptions) -> list[tuple[str, str, str]]:
    """(site path, HTML, passphrase) of each seat's private page of a running hidden game, each made
    from that seat's view alone; none for an open game, a revealed one, or a seat without a
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
                        passphrase))
    return out


def game_files(loaded: Loaded, options: SiteOptions) -> dict[str, str]:
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
