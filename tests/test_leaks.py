"""The leak scanner on real builds: a running Stab! game leaks nothing anywhere in the site,
a finished one publishes everything, and a template that prints one hidden fact is caught."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipgen.usecases.leaks import scan_site, secrets_of
from dipgen.core.phase import Phase
from dipgen.view import game_view
from dipgen.view.seen import seen_record as view_record
from support import REPO, build, histories, load, make_project, public_site, reveal_now, write_game

pytestmark = pytest.mark.slow  # the scanner on real builds: every test builds a site

RUNNING, FINISHED = "lamps-out", "masked-ball"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("leaks") / "p", [RUNNING, FINISHED, "north-sea-ledger"])
    return project, build(project), histories(project)


def test_the_running_game_has_secrets_to_keep(built):
    _, _, hs = built
    running = next(h for h in hs if h.info.slug == RUNNING)
    s = secrets_of(running)
    assert len(s.orders) > 50
    assert len(s.units) > 20
    assert len(s.owners) > 20


def test_nothing_leaks_from_the_running_game(built):
    _, site, hs = built
    assert (site / "search" / "search_index.json").exists()
    fragments = [gzip.decompress(f.read_bytes()) for f in (site / "pagefind" / "fragment").glob("*.pf_fragment")]
    game = [json.loads(f[len(b"pagefind_dcd"):]) for f in fragments if b'"url":"/games/%s/"' % RUNNING.encode() in f]
    assert len(game) == 1
    assert len(game[0]["anchors"]) > 5  # the game's document, its seasons its sections
    assert (site / "sitemap.xml").exists()
    assert (site / "games" / RUNNING / "maps" / "1903-fall-orders.svg").exists()
    assert scan_site(site, hs, docs_dir=site.parent / 'site_src') == []


def test_the_packages_rules_pages_count_as_hand_written(built, tmp_path):
    """A GM's archive (dipgen init) has no rules pages of its own: those the plugin adds from the
    package are the project's own examples too, not a game's secrets."""
    _, site, hs = built
    own = tmp_path / "site_src"
    own.mkdir()
    (own / "index.md").write_text("# Our games\n")
    assert scan_site(site, hs, docs_dir=own) == scan_site(site, hs, docs_dir=site.parent / "site_src") == []


def test_the_finished_game_publishes_everything(built):
    _, site, hs = built
    finished = next(h for h in hs if h.info.slug == FINISHED)
    blind = (site / "games" / FINISHED / "index.html").read_text()
    assert "Click here for the non-blind page" in blind
    full = site / "games" / FINISHED / "full"
    assert (full / "index.html").exists()
    board = finished.variant.rules.board
    for record in finished.records[:6]:  # every order the GM saw is on the non-blind season page
        if not record.results:  # the empty file that closed a Fall: read in its Fall's page
            continue
        text = (full / record.phase.slug / "index.html").read_text()
        for r in record.results:
            if r.effective:
                assert r.order.format(board).replace(" - ", " - ") in text.replace("&gt;", ">")
    # and the blind pages still show only what the public knew at the time
    record = finished.records[3]
    public = view_record(finished, record, "public")
    blind_season = (site / "games" / FINISHED / record.phase.slug / "index.html").read_text()
    hidden = {r.order.format(board) for r in record.results if r.effective} - {
        r.order.format(board) for r in public.results}
    assert hidden
    assert not any(h in blind_season for h in hidden)


def test_one_hidden_order_in_one_file_is_caught(built, tmp_path):
    _, site, hs = built
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    running = next(h for h in hs if h.info.slug == RUNNING)
    secret = sorted(secrets_of(running).orders)[0]
    page = copy / "games" / RUNNING / "1902-spring" / "index.html"
    page.write_text(page.read_text().replace("</article>", f"<!-- {secret} --></article>", 1))
    leaks = scan_site(copy, hs, docs_dir=site.parent / 'site_src')
    assert leaks
    assert all(leak.file.startswith(f"games/{RUNNING}/1902-spring/index.html") for leak in leaks)
    assert any(secret in leak.what for leak in leaks)


def test_the_archive_feed_and_the_sitemap_are_read_entry_by_entry(built, tmp_path):
    """The archive's feed and the sitemap list every game's pages: an entry of another game may name
    a phase this hidden game keeps secret (an open game's "Spring 1902 retreats"), and is no leak;
    the same words in this game's own entry, or outside any entry, are. (Without the entries read
    one by one, the example archive's feed was a leak: The Two Captains' Spring 1902 retreats.)"""
    _, site, hs = built
    running = next(h for h in hs if h.info.slug == RUNNING)
    # a retreat phase someone retreated in (a Fall's empty closing phase is named on the site's own pages:
    # draws.md's 1901-fall-retreats)
    hidden = sorted(p for p in secrets_of(running).phases if running.record(p).before.dislodged)
    assert hidden, "the running example has a phase the public may not know took place"
    name, slug = hidden[0].name, hidden[0].slug

    def entry(game: str) -> str:
        return (f'<entry><title>{game}: {name}</title><link rel="alternate" href="games/{game}/{slug}/" />'
                "</entry>")

    def sitemap(game: str) -> str:
        return f"<url><loc>https://club.example/archive/games/{game}/{slug}/</loc></url>"

    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    feed, smap = copy / "feed.xml", copy / "sitemap.xml"
    feed.write_text(f"<feed><title>Games</title>{entry(FINISHED)}</feed>")
    smap.write_text(f"<urlset>{sitemap(FINISHED)}</urlset>")
    assert scan_site(copy, hs, docs_dir=site.parent / "site_src") == []
    feed.write_text(f"<feed><title>Games</title>{entry(FINISHED)}{entry(RUNNING)}</feed>")
    found = {leak.file for leak in scan_site(copy, hs, docs_dir=site.parent / "site_src")}
    assert found == {f"feed.xml [games/{RUNNING}/{slug}/]"}
    feed.write_text(f"<feed><title>Games: {name}</title>{entry(FINISHED)}</feed>")
    assert {leak.file for leak in scan_site(copy, hs, docs_dir=site.parent / "site_src")} == {"feed.xml"}


def test_a_generator_that_uses_the_gm_view_is_caught(tmp_path, monkeypatch):
    """Were a template or the renderer to draw from the records instead of the public view,
    the scan finds it in the pages, the maps and the search index."""
    import dipgen.usecases.publish as publish

    real = publish.game_view
    monkeypatch.setattr(publish, "game_view", lambda history, level, demo=None: real(history, "gm"))
    project = make_project(tmp_path / "p", [RUNNING])
    site = build(project)
    leaks = scan_site(site, histories(project), docs_dir=project / 'site_src')
    files = {leak.file.split(" ")[0] for leak in leaks}
    assert any(f.endswith(".svg") for f in files), "a hidden unit drawn on a map"
    assert any(f.endswith("index.html") for f in files), "a hidden order printed on a page"
    assert any(f.startswith("pagefind/fragment/") for f in files), "a hidden order in the search index"
    assert any("owns" in leak.what for leak in leaks), "an owner shown"


def test_leaks_command(built, capsys):
    from dipgen.cli import main

    project, site, _ = built
    assert main(["leaks", str(site), "--games", str(project / "games"), "--docs", str(project / "site_src")]) == 0
    assert "no leaks" in capsys.readouterr().out


def test_reveal_now_publishes_a_running_game(tmp_path):
    project = make_project(tmp_path / "p", [RUNNING])
    reveal_now(project / "games" / RUNNING)
    site = build(project)
    assert "Click here for the non-blind page" in (site / "games" / RUNNING / "index.html").read_text()
    assert (site / "games" / RUNNING / "full" / "1903-fall" / "index.html").exists()


def test_spies_drawn_on_a_public_map_are_caught(tmp_path, monkeypatch):
    """A Blind game's public maps show no spy; a renderer that drew the GM's spies is caught."""
    import dataclasses

    import dipgen.present.site.maps as maps

    real = maps.map_view
    project = make_project(tmp_path / "p", ["closed-shutters"])
    gm = game_view(load(project / "games" / "closed-shutters"), "gm")

    def leaky(view, phase, when="orders"):
        return dataclasses.replace(real(view, phase, when), pieces=real(gm, phase, when).pieces)

    monkeypatch.setattr(maps, "map_view", leaky)
    site = build(project)
    leaks = scan_site(site, histories(project), docs_dir=project / "site_src")
    assert any(leak.file.endswith(".svg") and "hidden S" in leak.what for leak in leaks), leaks[:3]


def test_a_retreat_phase_the_public_may_not_know_of_is_a_secret():
    from dipgen.usecases.leaks import _needles, _scan_text

    h = load(REPO / "games" / "closed-shutters")
    s = secrets_of(h)
    # (every Fall's too: closed by its file, empty or not, and never on the public calendar)
    assert {p.slug for p in s.phases} == {"1901-fall-retreats", "1902-fall-retreats", "1903-fall-retreats",
                                          "1904-spring-retreats"}
    needles = _needles(s, h.variant.rules.board)
    found = _scan_text("page.html", "<p>Please have Fall 1902 retreats in by Friday.</p>", ".html", needles)
    assert [leak.what for leak in found] == ["that Fall 1902 retreats took place"]
    assert _scan_text("page.html", "<p>Please have the rest of Fall 1902 in by Friday.</p>", ".html", needles) == []


def _write(files: dict[str, str], root: Path) -> Path:
    for uri, text in files.items():
        (root / uri).parent.mkdir(parents=True, exist_ok=True)
        (root / uri).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("upto,found", [
    ("1902-fall", "that the game waits for Fall 1902 retreats"),  # the status names the retreats due
    (None, "that Fall 1902 retreats took place"),                    # a page for the retreats
    (None, "the centre totals before Winter 1903 is published"),     # totals on a Fall page
])
def test_a_calendar_that_follows_hidden_phases_is_caught(tmp_path, monkeypatch, upto, found):
    """Were the public pages to follow the game's real phases instead of the fixed public
    calendar (`dipgen.view.timeline`), the scanner finds it from the one built site."""
    import dipgen.view.timeline as timeline_module

    game = tmp_path / "games" / RUNNING
    shutil.copytree(REPO / "games" / RUNNING, game)
    if upto:
        for f in game.glob("*-*.yml"):
            if Phase.from_slug(f.stem) > Phase.from_slug(upto):
                f.unlink()
    h = load(game)
    site = _write(public_site(h), tmp_path / "fixed")
    assert scan_site(site, [h]) == []
    h = load(game)
    site_h = load(game)
    # the site follows the phases as played and says what the game really waits for; the scanner
    # (reading another History) does not
    real = timeline_module._make

    def following(history, level):
        if history is not site_h:
            return real(history, level)
        _, now, _, _, _ = timeline_module._as_played(history, level)
        return ([timeline_module._played(history, r, level) for r in history.records], now, history.next_phase, None,
                False)

    monkeypatch.setattr(timeline_module, "_make", following)
    site = _write(public_site(site_h), tmp_path / "following")
    leaks = scan_site(site, [h])
    assert any(found in leak.what for leak in leaks), leaks


def _rekind(value, power: str, old: str, new: str):
    """`value` (a History's records and positions) with every `old` unit of `power` made `new`."""
    import dataclasses

    from dipgen.core.position import Unit

    if isinstance(value, Unit):
        return dataclasses.replace(value, kind=new) if (value.power, value.kind) == (power, old) else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _rekind(getattr(value, f.name), power, old, new)
                   for f in dataclasses.fields(value) if f.init and not f.name.startswith("_")}
        return dataclasses.replace(value, **changes)
    if isinstance(value, (tuple, list)):
        return type(value)(_rekind(v, power, old, new) for v in value)
    if isinstance(value, dict):
        return {k: _rekind(v, power, old, new) for k, v in value.items()}
    return value


def _gm_maps(monkeypatch, h):
    """A site whose maps are drawn from the GM's view of `h`, whatever the level."""
    import dipgen.present.site.maps as maps

    real = maps.map_view
    monkeypatch.setattr(maps, "map_view", lambda view, phase, when: real(game_view(h, "gm"), phase, when))


def test_a_new_unit_kind_is_covered_with_no_scanner_code(tmp_path, monkeypatch):
    """England's armies become a kind no scanner code names (``Z``): hidden on a public map,
    they are found all the same, and the honest site shows none of them."""
    import dataclasses

    h = load(REPO / "games" / RUNNING)
    kinds = h.variant.rules.unit_kinds  # the variant declares the new kind, as a real one would
    monkeypatch.setattr(h.variant.rules, "unit_kinds",
                        {**kinds, "Z": dataclasses.replace(kinds["A"], letter="Z", name="zeppelin")})
    h = dataclasses.replace(h, records=_rekind(h.records, "England", "A", "Z"),
                            position=_rekind(h.position, "England", "A", "Z"))
    assert any(u.kind == "Z" for u in h.position.units)
    assert scan_site(_write(public_site(h), tmp_path / "honest"), [h]) == []
    _gm_maps(monkeypatch, h)
    leaks = scan_site(_write(public_site(h), tmp_path / "leaky"), [h])
    assert any(leak.file.endswith(".svg") and "England's hidden Z" in leak.what for leak in leaks), leaks[:3]


def _forget_drawn() -> None:
    """Empty every cache of the map renderer's modules (what it drew once a process)."""
    import importlib
    import pkgutil

    import dipgen.present.svg as svg

    for info in pkgutil.iter_modules(svg.__path__):
        for value in vars(importlib.import_module(f"dipgen.present.svg.{info.name}")).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def test_the_scanner_follows_the_renderer_not_a_copy_of_its_format(tmp_path, monkeypatch, request):
    """The renderer names its symbols differently: what it draws is still known to the scanner,
    as it asks the renderer how each fact looks rather than parsing the maps itself."""
    import importlib

    # the renderer draws each token, glyph and mark once a process (functools' caches): none drawn
    # with the usual names is used here, and none drawn with these is left for the tests after this
    # one in the same process
    _forget_drawn()
    request.addfinalizer(_forget_drawn)
    for name in ("overlay", "shapes", "legend"):  # every module of the renderer that names a symbol
        module = importlib.import_module(f"dipgen.present.svg.{name}")
        monkeypatch.setattr(module, "symbol_id", lambda kind: f"kind-{kind}")
    h = load(REPO / "games" / RUNNING)
    assert scan_site(_write(public_site(h), tmp_path / "honest"), [h]) == []
    _gm_maps(monkeypatch, h)
    site = _write(public_site(h), tmp_path / "leaky")
    assert 'href="#kind-A"' in (site / "games" / RUNNING / "maps" / "now.svg").read_text()
    leaks = scan_site(site, [h])
    assert any(leak.file.endswith(".svg") and "hidden A" in leak.what for leak in leaks), leaks[:3]
    assert any(leak.file.endswith(".svg") and "owns" in leak.what for leak in leaks), leaks[:3]


# ---------------------------------------------------------------------------- what one site tells

def _stab_pair_game(tmp_path: Path, fall: str, retreat: str | None = None) -> Path:
    """A running Stab! game where France's A Par, attacked by a German army, gets `fall`; with
    `retreat`, France's dislodged A Bur gets it in the Fall retreats instead."""
    game = {"game.yml": "title: Knives Out\nvariant: stab\ngm: Grace\nplayers: {Austria: A, England: B, "
                        "France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n"}
    if retreat is None:
        game["1901-spring.yml"] = ("placement: {France: [A Par, F Bre, A Mar]}\n"
                                   "orders:\n  Germany: [A Mun - Bur]\n  France: [A Par H]\n")
        game["1901-fall.yml"] = f"orders:\n  Germany: [A Bur - Par]\n  France: [{fall}]\n"
    else:
        game["1901-spring.yml"] = ("placement: {France: [A Par, F Bre, A Mar]}\n"
                                   "orders:\n  France: [A Par - Bur]\n  Germany: [A Mun - Ruh, A Ber - Mun]\n")
        game["1901-fall.yml"] = "orders:\n  Germany: [A Ruh - Bur, A Mun S A Ruh - Bur]\n  France: [A Bur H]\n"
        game["1901-fall-retreats.yml"] = f"orders:\n  France: [{retreat}]\n"
    return write_game(tmp_path / "games" / "knives", game)


@pytest.mark.parametrize("retreat,planted,what", [
    (None, "A Par H (no order)", "a misorder, through 'A Par H (no order)'"),
    ("A Bur - Lon", "France A Bur disband", "a misorder, through 'A Bur disband'"),
])
def test_a_revealed_misorder_is_caught_from_the_one_site(tmp_path, retreat, planted, what):
    """A mis-order is not revealed (Stab!): were a page to mark the misordered unit's hold '(no
    order)', or report the disband of a unit whose retreat was unlawful, the scanner finds it from
    the rule alone, whatever the view said."""
    h = load(_stab_pair_game(tmp_path, "A Par - Mun", retreat))
    site = _write(public_site(h), tmp_path / "site")
    assert scan_site(site, [h]) == []
    page = site / "games" / "knives" / "1901-fall" / "index.md"
    page.write_text(page.read_text() + f"\n<li>{planted}</li>\n")
    assert what in [leak.what for leak in scan_site(site, [h])]
    # a lawful hold marks nothing: the same words are no secret there
    lawful = load(_stab_pair_game(tmp_path / "lawful", "A Par H"))
    assert not [m for m in secrets_of(lawful).misorders]


def test_a_private_page_of_another_size_is_caught(built, tmp_path):
    """Every private page of a running hidden game is padded to the room of its public facts: a
    page padded to more (say, because a hidden winter's notes went on it) is caught by its size."""
    from dipgen.cli import main
    from dipgen.present.site.crypt import encrypt
    from dipgen.present.site.pages import private_room
    from dipgen.present.site.privatepage import private_shell

    project, site, hs = built
    copy = tmp_path / "p"
    shutil.copytree(project, copy)
    assert main(["secrets", str(copy / "games" / RUNNING)]) == 0
    site = build(copy)
    hs = histories(copy)
    assert scan_site(site, hs, docs_dir=copy / "site_src") == []
    running = next(h for h in hs if h.info.slug == RUNNING)
    room = private_room(game_view(running, "public"))
    page = sorted((site / "private").glob("*.html"))[0]
    page.write_text(private_shell(encrypt(b"<p>a page with more to say</p>", "abcde-fghjk-mnpqr-stuvw",
                                          size=room + 4096), "private/" + page.name))
    leaks = scan_site(site, hs, docs_dir=copy / "site_src")
    assert [leak.file for leak in leaks] == [f"private/{page.name}"]
    assert "size of a private page" in leaks[0].what


WORDS = ["A Par - Bur", "A Par-Bur", "F NTH", "Fall 1902", "1902-fall", "München", "Mün", "chen", "Par", "/", "_",
         " ", "-", "é", "x", "(no order)", "<p>", "2"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(parts=st.lists(st.sampled_from(WORDS), max_size=14),
       texts=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
def test_a_file_is_held_to_every_needle_that_could_be_in_it(parts, texts):
    """The scanner tries on a file only the needles whose longest word the file holds (`Needles`):
    it finds what trying every needle finds, in the same order."""
    from dipgen.usecases.leaks import _TOKEN, Needle, Needles

    needles = Needles([Needle(f"{i}: {text}", (text,)) for i, text in enumerate(texts)])
    haystack = "".join(parts)
    every = [n.what for n in needles if n.find(haystack) is not None]
    held = [n.what for n in needles.held_by(frozenset(_TOKEN.findall(haystack))) if n.find(haystack) is not None]
    assert held == every
