"""A game's maps and other files that are not pages, put in the site beside MkDocs's output under
`mkdocs build` (dipgen/mkdocs/speed/beside.py): MkDocs is not given them (it would hold a `File` of
each till the build ends), the site has them as before, and a game a hand-written page mentions
(whose maps a Markdown link may name, which MkDocs checks against its files) gives MkDocs its files.
That the site is the same, byte for byte, as with every speed layer off: tests/test_speed_seam.py."""

from __future__ import annotations

import pytest
from mkdocs.config.defaults import MkDocsConfig

from dipgen.mkdocs.plugin import DipgenPlugin
from support import ALPHA, BRAVO, build, make_project, site_config


@pytest.fixture
def seen(monkeypatch) -> set[str]:
    """The source paths of the files MkDocs had in the builds of the test."""
    files_seen: set[str] = set()
    on_env = DipgenPlugin.on_env

    def watched(plugin, env, *, config, files):
        files_seen.update(f.src_uri for f in files)
        return on_env(plugin, env, config=config, files=files)

    monkeypatch.setattr(DipgenPlugin, "on_env", watched)
    return files_seen


def _build(project):
    """The project built (--strict): the site folder and the plugin's stats."""
    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)  # a plugin of its own, as a new process has
    config = site_config(project, strict=True)
    site = build(config)
    return site, dict(config.plugins["dipgen"].stats)


def test_the_games_maps_go_beside_mkdocs_and_reach_the_site(tmp_path, seen):
    site, stats = _build(make_project(tmp_path / "p", games={"alpha": ALPHA, "bravo": BRAVO}))
    maps = sorted(p.relative_to(site).as_posix() for p in (site / "games").rglob("*.svg"))
    assert stats["beside"] == len([p for p in (site / "games").rglob("*") if p.is_file() and p.suffix != ".html"])
    assert maps
    assert not set(maps) & seen  # in the site, never handed to MkDocs
    assert "games/alpha/index.md" in seen  # the pages are MkDocs's still
    assert any(uri.startswith("assets/maps/") for uri in seen)  # a board's base map is no game's file


def test_a_game_a_hand_written_page_mentions_gives_mkdocs_its_files(tmp_path, seen):
    project = make_project(tmp_path / "p", games={"alpha": ALPHA, "bravo": BRAVO})
    site, _ = _build(project)
    some_map = next(p for p in (site / "games" / "alpha").rglob("*.svg")).relative_to(site).as_posix()
    (project / "site_src" / "alpha-map.md").write_text(f"# Alpha\n\n![the map]({some_map})\n", encoding="utf-8")
    seen.clear()
    site, stats = _build(project)  # --strict: a link MkDocs could not resolve would stop the build
    assert some_map in seen
    assert not any(uri.startswith("games/bravo/") and not uri.endswith(".md") for uri in seen)
    assert stats["beside"] > 0
    assert (site / some_map).is_file()
