"""The theme's nav, tabs, search box and colour toggles are drawn once a build for the pages outside
the nav (dipgen/mkdocs/speed/partials.py): every page is the same, byte for byte, as when the theme
draws them for each page, including where a game's page is in the nav (its links differ from
folder to folder, and its own entry is marked active)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dipgen.mkdocs import speed
from dipgen.mkdocs.speed import partials
from support import build, make_project

EXAMPLES = ("austrian-question", "night-flights", "quiet-frontier")


def _html(site: Path) -> dict[str, bytes]:
    """Every page of a site, but the players' private pages (encrypted afresh by each build)."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*.html")
            if p.relative_to(site).parts[0] != "private"}


def _nav_with_a_game(project: Path) -> Path:
    """The project's nav with a game's page and one of its seasons in it."""
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text = text.replace("  - Games: games/index.md\n", "  - Games:\n      - games/index.md\n"
                        "      - games/austrian-question/index.md\n"
                        "      - games/austrian-question/1901-spring/index.md\n")
    assert "austrian-question/1901-spring" in text
    config.write_text(text, encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """A project with a game's page and one of its seasons in the nav (so that it has pages of
    both kinds: in the nav, drawn as themselves, and outside it) built twice: with the partials
    drawn once, and drawn for every page; and how many times the memoized partials were drawn in
    the first."""
    root = tmp_path_factory.mktemp("partials")
    made = [_nav_with_a_game(make_project(root / name, EXAMPLES)) for name in ("memo", "each")]
    drawn: list[str] = []
    render = partials._Memo.__call__

    def counting(self, context):
        asked = len(self._drawn)
        yield from render(self, context)
        if len(self._drawn) > asked:
            drawn.append(context.name)

    mp = pytest.MonkeyPatch()
    mp.setattr(partials._Memo, "__call__", counting)
    try:
        memo = build(made[0])
    finally:
        mp.undo()
    mp.setattr(speed, "memoize", lambda env, nav, alike: env)
    try:
        each = build(made[1])
    finally:
        mp.undo()
    return memo, each, drawn


@pytest.mark.slow  # two site builds
def test_every_page_is_the_same_as_drawn_for_each_page(both):
    memo, each, _ = both
    ours, theirs = _html(memo), _html(each)
    assert ours.keys() == theirs.keys()
    assert [uri for uri in ours if ours[uri] != theirs[uri]] == []


@pytest.mark.slow  # two site builds
def test_the_partials_are_drawn_once_per_set_of_links_not_once_a_page(both):
    memo, _, drawn = both
    generated = [p for p in (memo / "games").rglob("index.html")]
    assert len(generated) > 20
    counts = {name: drawn.count(name) for name in drawn}
    assert counts.keys() == set(partials.PARTIALS)
    assert max(counts.values()) <= 5  # once for each depth of page and each set of links at it (see below)


@pytest.mark.slow  # two site builds
def test_a_game_in_the_nav_makes_pages_of_one_depth_differ(both):
    """What the comparison above holds where a game is in the nav: its page marks itself active,
    and the links to it differ between seasons of two games (so that a memo keyed on the depth of
    a page alone would have been wrong)."""
    memo, _, _ = both
    own = (memo / "games" / "austrian-question" / "index.html").read_text(encoding="utf-8")
    seasons = [(memo / "games" / slug / "1901-spring" / "index.html").read_text(encoding="utf-8")
               for slug in ("austrian-question", "night-flights")]
    assert "md-nav__link--active" in own
    assert 'href="../"' in seasons[0]
    assert 'href="../../austrian-question/"' in seasons[1]


def test_a_theme_without_the_url_filter_is_left_alone():
    import jinja2

    env = jinja2.Environment(loader=jinja2.DictLoader({"partials/nav.html": "nav"}))
    partials.memoize(env, nav=object())
    assert env.get_template("partials/nav.html").render() == "nav"
    assert not isinstance(env.get_template("partials/nav.html").root_render_func, partials._Memo)
