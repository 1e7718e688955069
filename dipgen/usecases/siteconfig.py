"""The layout of a site, read in one place from its ``mkdocs.yml``: where its games and its
hand-written pages are, where the generated pages go, its URL style, address, name, palette,
scoring and players' options, with MkDocs' and the plugin's defaults where it is silent.

`dipgen check` and `dipgen mail` take the layout of the site a game folder belongs to
(`options_for_game`), so that they make the game's pages as the build does and report the same
problems, with file and line, before anything is built or pushed; `dipgen export` takes the
layout of the site it exports (`layout_of`, on the configuration it rewrites). The plugin reads
the same options through MkDocs' own configuration, with the same defaults
(`dipgen.present.layout`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from dipgen.io.paths import display_path
from dipgen.present.layout import CONFIG_FILE, DOCS_DIR, GAMES_DIR, PREFIX, RULES_DIR
from dipgen.present.site.pages import SiteOptions
from dipgen.rules.scoring import DEFAULT as DEFAULT_SCORING, SYSTEMS
from dipgen.usecases.publish import site_options

@dataclass(frozen=True)
class SiteLayout:
    """A site as its mkdocs.yml lays it out. `problems`: what the plugin would refuse in its
    options, each said for the GM (the option's default is taken in its place)."""

    docs_dir: Path | None = None
    games_dir: Path = Path(GAMES_DIR)
    prefix: str = PREFIX
    rules_dir: str = RULES_DIR
    directory_urls: bool = True
    site_url: str = ""
    site_name: str = ""
    palette: str = "usual"
    scoring: str = DEFAULT_SCORING
    aliases: Mapping[str, str] = field(default_factory=dict)
    private_players: tuple[str, ...] = ()
    rating_games: int | None = None
    problems: tuple[str, ...] = ()

    def options(self) -> SiteOptions:
        """The options the site's pages are made with."""
        return site_options(self.docs_dir, prefix=self.prefix, directory_urls=self.directory_urls,
                            rules_dir=self.rules_dir, site_url=self.site_url, site_name=self.site_name,
                            palette=self.palette, scoring=self.scoring, aliases=self.aliases,
                            private_players=self.private_players, rating_games=self.rating_games)


def plugin_of(data: Mapping) -> dict | None:
    """The dipgen plugin's options in a configuration's ``plugins`` ({} for a bare ``- dipgen``),
    or None where it has no dipgen plugin."""
    for entry in data.get("plugins") or []:
        if entry == "dipgen":
            return {}
        if isinstance(entry, dict) and "dipgen" in entry:
            options = entry["dipgen"]
            return dict(options) if isinstance(options, dict) else {}
    return None


def layout_of(data: Mapping, plugin: Mapping, config_file: Path) -> SiteLayout:
    """The layout `config_file` (a mkdocs.yml, read as `data`, its dipgen plugin's options
    `plugin`) gives its site."""
    base, shown = Path(config_file).resolve().parent, display_path(config_file)
    problems = []
    scoring = str(plugin.get("scoring", DEFAULT_SCORING))
    if scoring not in SYSTEMS:
        problems.append(f"{shown}: the dipgen plugin's scoring {scoring!r} is not one of {', '.join(SYSTEMS)}")
        scoring = DEFAULT_SCORING
    aliases, private = plugin.get("player_aliases") or {}, plugin.get("private_players") or []
    if not isinstance(aliases, dict) or not all(isinstance(v, str) for kv in aliases.items() for v in kv):
        problems.append(f"{shown}: player_aliases must map names to names (J. Doe: Jane Doe)")
        aliases = {}
    if not isinstance(private, list) or not all(isinstance(n, str) for n in private):
        problems.append(f"{shown}: private_players must be a list of names")
        private = []
    least = plugin.get("rating_games")
    if least is not None and (not isinstance(least, int) or isinstance(least, bool)):
        problems.append(f"{shown}: rating_games must be a whole number of games (3)")
        least = None
    return SiteLayout(docs_dir=base / str(data.get("docs_dir") or DOCS_DIR),
                      games_dir=base / str(plugin.get("games_dir", GAMES_DIR)),
                      prefix=str(plugin.get("prefix", PREFIX)), rules_dir=str(plugin.get("rules_dir", RULES_DIR)),
                      directory_urls=bool(data.get("use_directory_urls", True)),
                      site_url=str(data.get("site_url") or ""), site_name=str(data.get("site_name") or ""),
                      palette=str(plugin.get("palette", "usual")), scoring=scoring, aliases=dict(aliases),
                      private_players=tuple(private), rating_games=least, problems=tuple(problems))


class _Tolerant(yaml.SafeLoader):
    """Reads mkdocs.yml, whose ``!!python/name:`` and ``!ENV`` tags mean nothing here."""


_Tolerant.add_multi_constructor("", lambda loader, suffix, node: None)


def options_for_game(game_path: Path) -> SiteOptions:
    """The options of the site a game folder belongs to: from the ``mkdocs.yml`` beside its games
    folder (or in the current folder); MkDocs' and the plugin's defaults without one, or where it
    cannot be read (MkDocs itself will say what is wrong with it)."""
    game_path = Path(game_path).resolve()
    for config in (game_path.parent.parent / CONFIG_FILE, Path.cwd() / CONFIG_FILE):
        if config.is_file():
            break
    else:
        return SiteLayout().options()
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_Tolerant) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return SiteLayout().options()
    if not isinstance(data, dict):
        return SiteLayout().options()
    return layout_of(data, plugin_of(data) or {}, config).options()
