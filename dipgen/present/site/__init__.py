"""The results site: pages and maps made from views of games, independent of MkDocs.

    from dipgen.present.site import SiteOptions, build_site
    files = build_site([(public_view, None)], SiteOptions())   # {uri: content}

`dipgen.usecases.publish` makes the views of a loaded game and hands them over; `dipgen.mkdocs.plugin`
registers the files with MkDocs; nothing here imports MkDocs, a History or a game's secrets.
"""

from dipgen.present.site.pages import (SiteOptions, archive_page, build_site, edition_files, game_page, game_pages,
                                       games_cards, generator_fingerprint, private_files, published_files, season_page,
                                       shared_files)

__all__ = ["SiteOptions", "archive_page", "build_site", "edition_files", "game_page", "game_pages", "games_cards",
           "generator_fingerprint", "private_files", "published_files", "season_page", "shared_files"]
