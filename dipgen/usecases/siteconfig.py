"""The layout of the site a game folder belongs to, read from its ``mkdocs.yml``, so that
``dipgen check`` makes the game's pages (`dipgen.usecases.publish.check_game`) as the build does and
reports the same problems, with file and line, before anything is built or pushed.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from dipgen.usecases.publish import site_options as options_of
from dipgen.present.site.pages import SiteOptions
from dipgen.rules.scoring import DEFAULT, SYSTEMS


class _Tolerant(yaml.SafeLoader):
    """Reads mkdocs.yml, whose ``!!python/name:`` and ``!ENV`` tags mean nothing here."""


_Tolerant.add_multi_constructor("", lambda loader, suffix, node: None)


def site_options(game_path: Path) -> SiteOptions:
    """The layout of the site a game folder belongs to: from the ``mkdocs.yml`` beside its games
    folder (or in the current folder); MkDocs' and the plugin's defaults without one."""
    game_path = Path(game_path).resolve()
    for config in (game_path.parent.parent / "mkdocs.yml", Path.cwd() / "mkdocs.yml"):
        if config.is_file():
            break
    else:
        return options_of(None)
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_Tolerant) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return options_of(None)  # MkDocs itself will say what is wrong with it
    if not isinstance(data, dict):
        return options_of(None)
    plugin = next((p["dipgen"] for p in data.get("plugins") or [] if isinstance(p, dict) and "dipgen" in p), None)
    plugin = plugin if isinstance(plugin, dict) else {}
    scoring = plugin.get("scoring", DEFAULT)
    return options_of(config.parent / str(data.get("docs_dir", "docs")), prefix=str(plugin.get("prefix", "games")),
                      directory_urls=bool(data.get("use_directory_urls", True)),
                      rules_dir=str(plugin.get("rules_dir", "rules")),
                      site_url=str(data.get("site_url") or ""), site_name=str(data.get("site_name") or ""),
                      scoring=scoring if scoring in SYSTEMS else DEFAULT)  # MkDocs says what is wrong with another
