"""The maps of the site: one shared base map per board, and a transparent overlay per
phase (the orders on the position before, and the position after) and per game (now).

Pages stack the overlay `<img>` on the base map `<object>` (so the board's province
names show on hover). All drawing is `dipgen.present.svg`'s; this module only names the
files, builds each map's view (`dipgen.present.mapview`) and hands it over.

Where the site has an address (``site_url``), each game page and season page also has a picture for
link previews (``og:image``, which must be an absolute address): a PNG of the page's map, 1200x630,
drawn from the same view as the page (a hidden game's public pages: the public's map alone).
"""

from __future__ import annotations


from dipgen.present import svg as render
from dipgen.present.svg import raster
from dipgen.present.mapview import WHEN, map_view
from dipgen.core.phase import Phase
from dipgen.rules.variant import Variant
from dipgen.view import GameView
from dipgen.present.site.links import game_folder


def board_uri(variant: Variant) -> str:
    """Where the shared base map of the variant's board is written, once per site."""
    return f"assets/maps/{variant.rules.board_name}.svg"


def overlay_uri(prefix: str, slug: str, phase: Phase | None, when: str = "after", edition: str = "") -> str:
    """The overlay of `phase` (`when`: 'orders' or 'after'), or of the current position (phase None)."""
    folder = game_folder(prefix, slug, edition) + "maps/"
    if phase is None:
        return folder + "now.svg"
    return folder + f"{phase.slug}-{when}.svg"


def picture_uri(prefix: str, slug: str, phase: Phase | None, edition: str = "") -> str:
    """The link preview's picture of a season page (its orders' map), or of the game page (phase None:
    the position now)."""
    return game_folder(prefix, slug, edition) + "maps/" + ("now.png" if phase is None else f"{phase.slug}.png")


def board_map(variant: Variant) -> str:
    return render.board_svg(variant)


def overlay_map(view: GameView, phase: Phase | None, when: str) -> str:
    """The overlay of `phase` (None: the position now) as `view`'s level knows it."""
    return render.overlay_svg(map_view(view, phase, when))


def game_maps(view: GameView, prefix: str, edition: str = "") -> dict[str, str]:
    """Every overlay of one game: two per phase the view shows (not even a file's name may tell
    that another phase took place), and the position now."""
    slug = view.slug
    out = {overlay_uri(prefix, slug, None, edition=edition): overlay_map(view, None, "after")}
    for record in view.records:
        if record.summary_only:
            continue
        for when in WHEN:
            out[overlay_uri(prefix, slug, record.phase, when, edition)] = overlay_map(view, record.phase, when)
    return out


def picture(view: GameView, phase: Phase | None) -> bytes:
    """The link preview's picture of `phase`'s page (its orders and results; None: the position now)
    as `view`'s level knows it, `raster.OG_SIZE` (drawn once per map in a process: `raster.png`)."""
    return raster.png(render.og_svg(map_view(view, phase, "orders" if phase else "after")))


def game_pictures(view: GameView, prefix: str, edition: str = "") -> dict[str, bytes]:
    """The link previews' pictures of one game's pages: the game page's, and each season page's that
    shows maps (`picture_uri`)."""
    out = {picture_uri(prefix, view.slug, None, edition): picture(view, None)}
    for record in view.records:
        if not record.summary_only:
            out[picture_uri(prefix, view.slug, record.phase, edition)] = picture(view, record.phase)
    return out
