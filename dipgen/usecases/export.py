"""`dipgen export OUT`: the whole site as a plain source tree, with no dipgen plugin left in it.

MkDocs 1.x is unmaintained and Material for MkDocs reaches its end of life on 5 May 2027; their
successors read ``mkdocs.yml`` but not every plugin (Zensical ignores third-party plugins
silently). So an archive must not need the plugin to be built. The export writes:

    OUT/mkdocs.yml     the site's configuration, less the dipgen plugin, with the stylesheet,
                       the script and the theme folder the plugin would have added
    OUT/docs/          the hand-written pages (a page with the games marker gets the games'
                       cards in its place), the package's rules pages and page on dice and lots
                       where the site has none of its own, and every generated page, map, asset
                       and private page
    OUT/hooks/         dipgen_pages.py (`export_hook`, named under ``hooks:``): ProperDocs (and MkDocs)
                       take each generated page's HTML as it is and convert only its headings;
                       Zensical, which runs no hooks, converts the same files as Markdown
    OUT/overrides/     dipgen's theme folder (the Content-Security-Policy) but its search box
                       (`NOT_EXPORTED`: it breaks Zensical's), with the site's own custom_dir,
                       if any, copied over it

The files are the MkDocs plugin's, from one producer (`dipgen.usecases.publish`). Every
generated page is the index.md of its own folder (`dipgen.present.site.links`), so its links and
maps hold under any generator, with or without directory URLs. The tree is written beside OUT and
put in its place once complete; an OUT that is not an earlier export is never written over.
"""

from __future__ import annotations

import io
import shutil
import secrets as _random
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from dipgen.usecases.games import load_checked
from dipgen.usecases.publish import GAMES_MARKER, archive_files, editions, game_files, provided_pages, with_cards
from dipgen.usecases.siteconfig import layout_of, plugin_of
from dipgen.core.errors import CommandError, GameError, Problem
from dipgen.io.paths import display_path
from dipgen.io.folders import discover_games
from dipgen.io.secretsfile import shared_secrets
from dipgen.present.layout import CONFIG_FILE, PREFIX
from dipgen.present.site.page import SitePage
from dipgen.present.site.pages import CSS_URI, JS_URI, OVERRIDES, game_card
from dipgen.usecases import export_hook

#: a file in every export, so that a later export may replace the folder (and nothing else)
MARK = ".dipgen-export"
DOCS, THEME = "docs", "overrides"
#: the hook that hands ProperDocs the generated pages as HTML (`dipgen.usecases.export_hook`)
HOOK = "hooks/dipgen_pages.py"


class ExportError(CommandError):
    """What stops an export, said for the GM (the configuration, the output folder)."""


@dataclass
class Exported:
    out: Path
    games: int = 0
    files: int = 0
    hidden: list[str] = field(default_factory=list)  # hand-written pages that hide a generated one
    cards: list[str] = field(default_factory=list)   # pages other than an index.md with the games' cards


def _yaml() -> YAML:
    yaml = YAML()  # round trip: comments, order and tags (!ENV, !!python/name:) kept as written
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)  # as MkDocs' own examples (and dipgen init) write it
    return yaml


def read_config(config_file: Path):
    """The site's configuration as written, and the dipgen plugin's options. ExportError if it cannot
    be read or has no dipgen plugin."""
    try:
        data = _yaml().load(config_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError) as e:
        raise ExportError(f"{display_path(config_file)}: cannot be read ({type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else ''})", code="bad-site-config") from None
    if not isinstance(data, dict):
        raise ExportError(f"{display_path(config_file)}: not a MkDocs configuration (a mapping of settings)",
                          code="bad-site-config")
    plugin = plugin_of(data)
    if plugin is not None:
        return data, plugin
    raise ExportError(f"{display_path(config_file)}: no dipgen plugin in 'plugins', so no games to export; "
                      "add '- dipgen' under 'plugins:' (dipgen init writes it)", code="bad-site-config")


def _load_games(folder: Path):
    """Every game of `folder`, as the build reads them; GameError with every game's problems."""
    paths = discover_games(folder) if folder.is_dir() else []
    shared = {str(f): p for f, p in shared_secrets(paths)}
    loaded, problems = [], []
    for path in paths:
        try:
            game = load_checked(path)
        except GameError as e:
            problems.extend(e.problems)
            game = None
        if str(path) in shared:
            problems.append(shared[str(path)])
        elif game is not None:
            loaded.append(game)
    if problems:
        raise GameError(problems)
    return loaded


def export_config(data, plugin: dict, custom_dir: bool) -> str:
    """The configuration of the exported tree: the site's own, without the dipgen plugin, its pages
    in `DOCS`, its theme folder `THEME`, and the stylesheet and script the plugin adds."""
    data["plugins"] = [p for p in data["plugins"] if p != "dipgen" and not (isinstance(p, dict) and "dipgen" in p)]
    if not data["plugins"]:
        del data["plugins"]
    data["docs_dir"] = DOCS
    data["site_dir"] = "site"
    if "not_in_nav" not in data:  # the games' pages are reached from the archive, as in the plugin's build
        data["not_in_nav"] = f"/{str(plugin.get('prefix', PREFIX)).strip('/')}/\n"
    hooks = [str(h) for h in data.get("hooks") or []]
    if HOOK not in hooks:
        data["hooks"] = [*(data.get("hooks") or []), HOOK]
    theme = data.get("theme")
    if isinstance(theme, str) or theme is None:
        data["theme"] = theme = {"name": theme or "mkdocs"}
    theme["custom_dir"] = THEME
    for key, uri in (("extra_css", CSS_URI), ("extra_javascript", JS_URI)):
        listed = data.get(key) or []
        if uri not in [str(x) for x in listed]:
            data[key] = [*listed, uri]
    text = io.StringIO()
    _yaml().dump(data, text)
    head = ("# Written by 'dipgen export' from the site's mkdocs.yml: the dipgen plugin's pages, maps and theme\n"
            "# folder are files here, so any generator that reads mkdocs.yml builds the site without the plugin.\n")
    return head + text.getvalue()


def export(config_file: Path, out: Path) -> Exported:
    """Write the site of `config_file` (a mkdocs.yml with the dipgen plugin) as a plain tree in
    `out`. GameError with every game's problems; ExportError for the configuration or the folder."""
    config_file = Path(config_file)
    base = config_file.resolve().parent
    data, plugin = read_config(config_file)
    layout = layout_of(data, plugin, config_file)
    docs = layout.docs_dir
    assert docs is not None  # a layout read from a configuration has its docs_dir
    if not docs.is_dir():
        raise ExportError(f"{display_path(config_file)}: its docs_dir {display_path(docs)} is not a folder",
                          code="bad-site-config")
    if layout.problems:
        raise ExportError(layout.problems[0], code="bad-site-config")
    rules_dir, options = layout.rules_dir, layout.options()
    games = _load_games(layout.games_dir)
    views = [editions(g)[0] for g in games]
    files: dict[str, str | bytes] = {}
    for game in games:
        files.update(game_files(game, options))
    files.update(archive_files(views, options))

    out = Path(out)
    _check_out(out, base, docs)
    stage = out.with_name(f".{out.name}.dipgen-export-{_random.token_hex(4)}")
    stage.mkdir(parents=True)
    try:
        result = _write(stage, data, plugin, docs, base, files, views, options, rules_dir)
        _replace(out, stage)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    result.out, result.games = out, len(games)
    return result


def _write(stage: Path, data, plugin: dict, docs: Path, base: Path, files: dict[str, str | bytes], views, options,
           rules_dir: str) -> Exported:
    target = stage / DOCS
    result = Exported(stage)
    shown = [game_card(v, options) for v in views]  # the games as the cards show them
    for path in sorted(docs.rglob("*")):  # the hand-written pages and files, as MkDocs reads them
        rel = path.relative_to(docs)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".md":
            text = path.read_text(encoding="utf-8")
            if GAMES_MARKER in text and rel.name != "index.md":
                result.cards.append(rel.as_posix())
            dest.write_text(with_cards(text, shown, options, rel.as_posix()), encoding="utf-8")
        else:
            shutil.copy2(path, dest)
        result.files += 1
    for uri, path in provided_pages(docs, rules_dir).items():
        _put(target / uri, path.read_text(encoding="utf-8"))
        result.files += 1
    for uri, content in sorted(files.items()):
        if (docs / uri).exists():  # as in the build: the hand-written page wins
            result.hidden.append(uri)
            continue
        _put(target / uri, marked(content) if isinstance(content, SitePage) else content)
        result.files += 1
    _put(stage / HOOK, Path(export_hook.__file__).read_text(encoding="utf-8"))
    theme = data.get("theme")
    own = base / str(theme["custom_dir"]) if isinstance(theme, dict) and theme.get("custom_dir") else None
    shutil.copytree(OVERRIDES, stage / THEME, ignore=_not_exported)
    if own is not None and own.is_dir():
        shutil.copytree(own, stage / THEME, dirs_exist_ok=True)  # the site's own wins, as in the build
    (stage / CONFIG_FILE).write_text(export_config(data, plugin, own is not None), encoding="utf-8")
    (stage / MARK).write_text("This folder was written by 'dipgen export'; the next export replaces it.\n",
                              encoding="utf-8")
    return result


def marked(page: SitePage) -> str:
    """The page with the lines of its body that are headings listed in its front matter, for the
    hook that hands ProperDocs the rest as HTML (`export_hook`)."""
    assert page.startswith("---\n")
    return f"---\n{export_hook.KEY}: {page.heading_lines()}\n" + page[4:]


#: the theme folder's files an export leaves out: partials/search.html is Material's classic search
#: markup (dipgen's copy names the dialog); Zensical, which reads the same theme folder, draws it as
#: a stack of raw controls that never finish "Initializing search", and its own search works
#: without it. In the export the dialog is named by dipgen.js instead, under any generator.
NOT_EXPORTED = (Path("partials") / "search.html",)


def _not_exported(folder: str, names: list[str]) -> set[str]:
    rel = Path(folder).resolve().relative_to(Path(OVERRIDES).resolve())
    return {name for name in names if rel / name in NOT_EXPORTED}


def _put(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


def _check_out(out: Path, base: Path, docs: Path) -> None:
    """Refuse an output folder that is not empty and not an earlier export, or that holds the site."""
    resolved = out.resolve()
    if resolved in (base, docs.resolve()) or resolved in base.parents or resolved in docs.resolve().parents:
        raise ExportError(f"{display_path(out)}: the export would replace the site's own folder; "
                          "name a new folder, e.g. out/", code="out-taken")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise ExportError(f"{display_path(out)}: not a folder; name a new folder, e.g. out/", code="out-taken")
    if out.is_dir() and any(out.iterdir()) and not (out / MARK).is_file():
        raise ExportError(f"{display_path(out)}: not empty, and not an earlier export; nothing was written. "
                          "Name a new folder, or empty this one", code="out-taken")


def _replace(out: Path, stage: Path) -> None:
    """Put the finished export in the place of `out` (an earlier export, or nothing)."""
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.dipgen-old-{_random.token_hex(4)}")
        out.rename(old)
    stage.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def problems_text(e: GameError) -> str:
    errors = sum(1 for p in e.problems if not isinstance(p, Problem) or p.severity == "error")
    return "\n".join(str(p) for p in e.problems) + f"\n{errors} error(s) in the games; nothing was exported " \
        "(run 'dipgen check' for the same list)"
