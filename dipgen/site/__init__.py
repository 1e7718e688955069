"""The results site: pages and maps generated from game Histories, independent of MkDocs.

    from dipgen.site import SiteOptions, build_site
    files = build_site(histories, SiteOptions(level="public"))   # {uri: content}

`dipgen.mkdocs_plugin` registers these files with MkDocs; nothing here imports MkDocs.
"""

from .pages import (SiteOptions, archive_page, build_site, game_files, game_page, game_pages, games_cards,
                    generator_fingerprint, private_files, published_files, revealed, season_page, shared_files)

__all__ = ["SiteOptions", "archive_page", "build_site", "game_files", "game_page", "game_pages", "games_cards",
           "generator_fingerprint", "private_files", "published_files", "revealed", "season_page", "shared_files"]
