"""What a page of the example archive costs a reader on a first visit, in a real browser (Debian's
chromium): the search index only on a first search, the board map once a page, and no page over
the budget (tests/support/weight.py counts what the server sends, gzipped).

The budget is checked on a sample: one page of each type (home, archive, players, a player, the
hall of fame, a rules page, the page on draws, a private page's shell) and, for each board the
example games are played on (the board's map is a page's largest file), the heaviest game page and
the heaviest season page drawn on it (by the bytes of the page and the maps it shows); every page
of the archive (some 1,200) would take minutes, and every game's pages (34) half of this module's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support import GAMES, built_once
from support.browser import BROWSER, DESKTOP, PHONE, Watched, assert_maps_drawn, settle
from support.weight import counting_server, first_visit

pytestmark = BROWSER

BUDGET = 300_000  # bytes, gzipped: the most a first visit to any page may download (issue 39)
SEASON = "games/two-crowns/1902-spring/"
BOARD = "/assets/maps/standard.svg"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The whole example archive (the demo game's private pages included) as the other browser modules
    read it (built once a run), on a server."""
    folder = built_once(tmp_path_factory, sorted(p.name for p in GAMES.iterdir() if (p / "game.yml").is_file())) \
        / "site"
    with counting_server(folder) as (url, sent):
        yield url, sent, folder


def _weight(page: Path) -> tuple[str, int]:
    """The board a built page is drawn on ('' for none) and the bytes of the page and its own maps."""
    html = page.read_text(encoding="utf-8")
    board = re.search(r'<object class="dg-map-board"[^>]* data="[^"]*/assets/maps/([^"/]+)\.svg"', html)
    maps = {page.parent / m for m in re.findall(r'<img[^>]* src="([^"]+\.svg)"', html)}
    return (board.group(1) if board else ""), len(html) + sum(m.stat().st_size for m in maps if m.is_file())


def _sample(folder: Path) -> list[str]:
    """One page of each type, and each board's heaviest game page and season page (see the module)."""
    player = next(p for p in sorted((folder / "players").iterdir()) if (p / "index.html").is_file())
    pages = ["", "games/", "players/", f"players/{player.name}/", "hall-of-fame/", "rules/standard/", "draws/",
             "private/" + next(p.name for p in sorted((folder / "private").glob("*.html")))]
    heaviest: dict[tuple[str, str], tuple[int, str]] = {}
    for game in sorted(p for p in (folder / "games").iterdir() if (p / "index.html").is_file()):
        for page in [game, *(p for p in game.iterdir() if re.fullmatch(r"\d{4}-.*", p.name))]:
            if (page / "index.html").is_file():
                board, size = _weight(page / "index.html")
                kind = "game" if page == game else "season"
                path = page.relative_to(folder).as_posix() + "/"
                heaviest[board, kind] = max(heaviest.get((board, kind), (0, "")), (size, path))
    return pages + sorted(path for _, path in heaviest.values())


def test_no_page_over_the_budget_on_a_first_visit(browser, site):
    url, sent, folder = site
    costs = {}
    for path in _sample(folder):
        files = first_visit(browser, url + path, sent)
        costs[path] = sum(size for _, size in files)
        assert not [f for f, _ in files if f.endswith("search_docs.json") or f.startswith("/pagefind/")], \
            f"{path}: the search index on a first visit"
    assert [path for path in costs if path.startswith("games/") and path.count("/") == 3], "a season page"
    assert [path for path in costs if path.startswith("games/") and path.count("/") == 2], "a game page"
    over = {path: cost for path, cost in costs.items() if cost > BUDGET}
    assert not over, f"over {BUDGET} bytes gzipped on a first visit: {over}"


def test_the_board_map_is_downloaded_once_a_page(browser, site):
    url, sent, folder = site
    html = (folder / SEASON / "index.html").read_text(encoding="utf-8")
    assert len(re.findall(r'<object class="dg-map-board"[^>]* data="[^"]*standard\.svg"', html)) == 2
    assert html.count("<noscript><object") == 1  # the second map's board, fetched when the first's has loaded
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
    events: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda r: events.append("asked") if r.url.endswith(BOARD) else None)
        page.on("requestfinished", lambda r: events.append("came") if r.url.endswith(BOARD) else None)
        sent.clear()
        page.goto(url + SEASON)
        settle(page)
        assert_maps_drawn(page, 2)
        settle(page)
        assert [f for f, _ in sent.of(".svg") if f == BOARD] == [BOARD]
        assert events[:2] == ["asked", "came"]  # the second map asks for it only once the first has it
        page.locator(".dg-map-stack").nth(1).click()  # the second map still opens full screen
        page.locator("dialog.dg-zoom").wait_for(state="visible")
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_both_maps_show_their_board_without_javascript(browser, site, tmp_path, size):
    url, _, _ = site
    w = Watched(browser, size, tmp_path)
    w.context.close()
    w.context = browser.new_context(viewport={"width": size[0], "height": size[1]}, java_script_enabled=False)
    w.page = w.context.new_page()
    try:
        w.page.goto(url + SEASON)
        settle(w.page)
        boards = w.page.locator("object.dg-map-board")
        assert boards.count() == 2
        for i in range(2):
            box, overlay = boards.nth(i).bounding_box(), w.page.locator("img.dg-map-overlay").nth(i).bounding_box()
            assert box
            assert overlay
            assert abs(box["width"] - overlay["width"]) < 1
            assert box["width"] > 200
            assert abs(box["y"] - overlay["y"]) < 1
        w.shot(f"season-no-js-{size[0]}")
    finally:
        w.close()


def _finds(page, query: str, where: str) -> bool:
    """Whether a search for `query` lists a result whose link holds `where`: waits until such a
    result shows or the search has answered without one (Material's line under the box says how many
    documents matched, "No matching documents" for none, once the answer to the query has come)."""
    box = page.locator("input.md-search__input")
    box.fill("")
    box.press_sequentially(query, delay=20)
    return page.wait_for_function("""([where, query]) => {
        const found = [...document.querySelectorAll('.md-search-result__item a')]
            .some(a => a.getAttribute('href').includes(where));
        const meta = document.querySelector('.md-search-result__meta');
        const answered = document.querySelector('input.md-search__input').value === query
            && meta && /matching/.test(meta.textContent);
        return found ? 'found' : (answered && !document.querySelector('.md-search-result__item') ? 'none' : false);
    }""", arg=[where, query], timeout=15000).json_value() == "found"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_search_fetches_a_few_chunks_of_its_index_and_finds_players_games_and_seasons(browser, site, tmp_path, size):
    """Pagefind's index (dipgen.mkdocs.pagefind) in Material's search box: nothing of it on the visit;
    a search fetches Pagefind's searcher and a few of the index's chunks and pages, far under a
    page's budget, never Material's documents. The page's policy allows scripts of the site alone
    (no 'wasm-unsafe-eval'): the WebAssembly runs in the search worker, which the page's policy does
    not govern."""
    url, sent, folder = site
    assert not (folder / "search" / "search_docs.json").exists()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"',
                       (folder / "games" / "index.html").read_text(encoding="utf-8")).group(1)
    assert "script-src 'self';" in policy
    w = Watched(browser, size, tmp_path)
    try:
        sent.clear()
        w.page.goto(url + "games/")
        settle(w.page)
        assert not [f for f, _ in sent.files if "pagefind" in f or "search_docs" in f or "workers/search." in f]
        sent.clear()
        opener = w.page.locator("label.md-header__button[for=__search]").first
        (opener if opener.is_visible() else w.page.locator("input.md-search__input")).click()  # a phone / a desktop
        assert _finds(w.page, "Boris Ivanov", "two-crowns/")
        settle(w.page)
        first = sent.total()
        fetched = [f for f, _ in sent.files]
        assert "/pagefind/pagefind.js" in fetched
        assert any(f.startswith("/pagefind/fragment/") for f in fetched)
        assert not [f for f in fetched if "search_docs" in f or "workers/search." in f]  # not Material's
        assert 0 < first < BUDGET, f"the first search downloaded {first} bytes gzipped"
        assert _finds(w.page, "Winter Palace", "winter-palace/")
        assert _finds(w.page, "Spring 1902 Two Crowns", "two-crowns/1902-spring/")
        assert fetched.count("/pagefind/pagefind.js") == 1
        assert [f for f, _ in sent.files].count("/pagefind/pagefind.js") == 1  # fetched once a visit
        assert not _finds(w.page, "Zzyzx Qwertyuiop", "games/")
        w.shot(f"search-{size[0]}")
        assert w.errors == []
    finally:
        w.close()
