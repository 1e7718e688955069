"""Each power's private pages of a running hidden game: secrets.yml, the `dipgen secrets` command,
the encrypted pages a build publishes (decrypted here in Python), and what they must not show."""

from __future__ import annotations

import base64
import html
import gzip
import json
import logging
import os
import re
import shutil
import stat
from pathlib import Path
from urllib.parse import unquote

import pytest
from cryptography.exceptions import InvalidTag

from dipgen.cli import main
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.usecases.leaks import scan_site
from dipgen.mkdocs.search import INDEX
from dipgen.core.orders import Concealed
from dipgen.present.site.crypt import ITERATIONS, Lock, decrypt, encrypt, page_salt, page_token, page_uri
from dipgen.present.site.maps import overlay_map as _overlay
from dipgen.io.secretsfile import (ALPHABET, PASSPHRASE_BITS, generate_passphrase, load_secrets, normalize,
                                   update_secrets)
from dipgen.view import game_view
from dipgen.view.seen import seen_record as view_record
from support import build, histories, make_project, reveal_now, write_game
from support.codes import codes
from support.private import envelope


def overlay_map(history, phase, level, when):
    return _overlay(game_view(history, level), phase, when)

RUNNING, FINISHED, OPEN = "lamps-out", "masked-ball", "north-sea-ledger"
DATA_URI = re.compile(r'src="data:image/svg\+xml,([^"]+)"')


def powers_of(project: Path, slug: str) -> list[str]:
    return load_game(project / "games" / slug).variant.rules.powers()


def make_secrets(project: Path, slug: str):
    assert main(["secrets", str(project / "games" / slug)]) == 0
    return load_secrets(project / "games" / slug / "secrets.yml", powers_of(project, slug))


def envelope_of(page: Path) -> dict:
    return envelope(page.read_text(encoding="utf-8"))


def open_page(page: Path, passphrase: str) -> str:
    return decrypt(envelope_of(page), passphrase).decode("utf-8")


def svg_of(uri_data: str) -> str:
    return unquote(html.unescape(uri_data))


def seasons_of(text: str) -> dict[str, str]:
    """The report of each season on a decrypted page, by its title."""
    out = {}
    for title, report in re.findall(r"<summary>(.*?)</summary>\s*<pre class=\"pp-report\">(.*?)</pre>", text, re.S):
        out[html.unescape(title)] = html.unescape(report)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("private") / "p", [RUNNING, FINISHED, OPEN])
    secrets = {slug: make_secrets(project, slug) for slug in (RUNNING, FINISHED)}
    site = build(project)
    hs = {h.info.slug: h for h in histories(project)}
    return project, site, hs, secrets


# ----------------------------------------------------------------------------- secrets.yml and the command

def test_passphrases_have_at_least_80_bits():
    assert PASSPHRASE_BITS >= 80
    assert len(set(ALPHABET)) == len(ALPHABET) == 31
    assert not set(ALPHABET) & set("01ilo")
    drawn = {generate_passphrase() for _ in range(500)}
    assert len(drawn) == 500
    assert all(re.fullmatch(r"[a-z2-9]{5}(-[a-z2-9]{5}){3}", p) for p in drawn)
    # the draws use the whole alphabet, evenly enough
    counts = {c: sum(p.count(c) for p in drawn) for c in ALPHABET}
    assert min(counts.values()) > 0.5 * 500 * 20 / 31


def test_secrets_command_creates_then_never_overwrites(tmp_path, capsys):
    shutil.copytree(Path(__file__).parent.parent / "games" / RUNNING, tmp_path / "games" / RUNNING)
    folder = tmp_path / "games" / RUNNING
    file = folder / "secrets.yml"
    assert main(["secrets", str(folder)]) == 0
    out = capsys.readouterr().out
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    powers = powers_of(tmp_path, RUNNING)
    first = load_secrets(file, powers)
    assert sorted(first.passphrases) == sorted(powers)
    assert len(first.page_key) == 32
    for power in powers:  # the GM's table: power, player, page, passphrase
        line = next(ln for ln in out.splitlines() if ln.startswith(power + " "))
        assert page_uri(first.page_key, RUNNING, power) in line
        assert first.passphrases[power] in line
    assert "Owen Pritchard" in out

    before = file.read_bytes()
    assert main(["secrets", str(folder)]) == 0
    assert file.read_bytes() == before
    assert "nothing was changed" in capsys.readouterr().out

    # a power missing from the file gets one; the others keep theirs
    text = "\n".join(ln for ln in file.read_text().splitlines() if not ln.strip().startswith("France:"))
    write_game(folder, {"secrets.yml": text + "\n"})
    assert main(["secrets", str(folder)]) == 0
    second = load_secrets(file, powers)
    assert second.page_key == first.page_key
    assert {p: v for p, v in second.passphrases.items() if p != "France"} == {
        p: v for p, v in first.passphrases.items() if p != "France"}
    assert second.passphrases["France"] != first.passphrases["France"]

    # --new renews just the one named
    assert main(["secrets", str(folder), "--new", "england"]) == 0
    third = load_secrets(file, powers)
    assert third.passphrases["England"] != second.passphrases["England"]
    assert {p: v for p, v in third.passphrases.items() if p != "England"} == {
        p: v for p, v in second.passphrases.items() if p != "England"}
    capsys.readouterr()
    assert main(["secrets", str(folder), "--new", "Englund"]) == 1
    err = capsys.readouterr().err
    assert codes(err) == ["not-in-game"]
    assert "Did you mean England?" in err
    assert load_secrets(file, powers).passphrases == third.passphrases


def test_a_broken_secrets_file_names_file_and_line(tmp_path):
    file = write_game(tmp_path, {"secrets.yml": 'page_key: "abcd"\npassphrases:\n  Englnd: "k7mq2-vx9ra-d4hte-8wnpc"\n'
                                                '  France: "short"\nseeds: 1\n'}) / "secrets.yml"
    powers = ["England", "France"]
    with pytest.raises(GameError) as e:
        load_secrets(file, powers)
    text = str(e.value)
    assert "secrets.yml:1: error: page_key must be at least 32 hex digits" in text
    assert "secrets.yml:3: error: 'Englnd' is not a power" in text
    assert "Did you mean England?" in text
    assert "secrets.yml:4: error: France's passphrase is too short" in text
    assert "secrets.yml:5: error: unknown key 'seeds'" in text
    assert "k7mq2" not in text  # no passphrase in an error message
    # a number where a key should be, and no key at all
    write_game(tmp_path, {"secrets.yml": "page_key: 12345\n"})
    with pytest.raises(GameError) as e:
        load_secrets(file, powers)
    assert [p.code for p in e.value.problems] == ["bad-value"]
    write_game(tmp_path, {"secrets.yml": "passphrases: {}\n"})
    with pytest.raises(GameError) as e:
        load_secrets(file, powers)
    assert [p.code for p in e.value.problems] == ["missing-key"]
    assert "k7mq2" not in repr(update_secrets(tmp_path / "new.yml", powers).secrets)


def test_envelope_round_trip_and_wrong_passphrase():
    env = encrypt("<p>Österreich</p>".encode(), "k7mq2-vx9ra-d4hte-8wnpc")
    assert env["iter"] >= 600_000
    assert env["kdf"] == "PBKDF2-SHA256"
    assert env["cipher"] == "AES-256-GCM"
    assert len(base64.b64decode(env["salt"])) == 16
    assert len(base64.b64decode(env["iv"])) == 12
    assert decrypt(json.dumps(env), "  k7mq2-vx9ra-d4hte-8wnpc ").decode() == "<p>Österreich</p>"
    assert env["zip"] == "deflate"
    plain = encrypt(b"x" * 1000, "k7mq2-vx9ra-d4hte-8wnpc", compress=False)
    assert "zip" not in plain
    assert decrypt(plain, "k7mq2-vx9ra-d4hte-8wnpc") == b"x" * 1000
    with pytest.raises(InvalidTag):
        decrypt(env, "k7mq2-vx9ra-d4hte-8wnpd")
    again = encrypt(b"same", "k7mq2-vx9ra-d4hte-8wnpc")
    assert again["salt"] != env["salt"]
    assert again["iv"] != env["iv"]
    with pytest.raises(ValueError):
        encrypt(b"x", "k7mq2-vx9ra-d4hte-8wnpc", iterations=100_000)
    assert normalize(" e\u0301t\u00e9 ") == "\u00e9t\u00e9"


def test_a_seats_salt_is_the_same_at_every_build_and_tells_nothing():
    """The salt is the seat's (HMAC under the page key), so a remembered key opens the next build's
    page; the nonce is new at every encryption; a new passphrase under the same salt does not open
    with the old one."""
    key, phrase = bytes(range(32)), "k7mq2-vx9ra-d4hte-8wnpc"
    salt = page_salt(key, RUNNING, "England")
    assert len(salt) == 16
    assert page_salt(key, RUNNING, "England") == salt
    others = {page_salt(key, RUNNING, "France"), page_salt(key, "other-game", "England"),
              page_salt(bytes(32), RUNNING, "England")}
    assert salt not in others
    assert len(others) == 3
    assert salt.hex() != page_token(key, RUNNING, "England")[:32]  # not the page's (public) name
    lock = Lock.of(key, RUNNING, "England", phrase)
    assert phrase not in repr(lock)
    assert lock.salt == salt
    first, second = (encrypt(b"<p>mine</p>", lock) for _ in range(2))
    assert first["salt"] == second["salt"] == base64.b64encode(salt).decode()
    assert first["iv"] != second["iv"]
    assert first["ct"] != second["ct"]  # never one nonce twice under a key
    assert decrypt(first, phrase) == decrypt(second, phrase) == b"<p>mine</p>"
    renewed = encrypt(b"<p>mine</p>", Lock.of(key, RUNNING, "England", "z2vx8-kqm7r-d4hte-8wnpc"))
    assert renewed["salt"] == first["salt"]
    with pytest.raises(InvalidTag):  # the old passphrase's key, under the same salt, is locked out
        decrypt(renewed, phrase)
    with pytest.raises(ValueError, match="16 bytes"):
        encrypt(b"x", Lock(phrase, b"short"))


def test_a_process_derives_one_key_per_seat_however_often_it_encrypts(monkeypatch):
    """PBKDF2 runs once per seat: the second making of a game's private pages (a rebuild under
    serve) derives no key, and a new passphrase derives one, for its seat alone."""
    import dipgen.present.site.crypt as crypt
    from dipgen.usecases.games import Loaded
    from dipgen.usecases.publish import seat_pages
    from dipgen.io.secretsfile import GameSecrets
    from dipgen.present.site.pages import SiteOptions, private_files
    from support import load

    runs = []
    real = crypt.PBKDF2HMAC

    def counted(**kw):
        runs.append(kw["salt"])
        return real(**kw)

    monkeypatch.setattr(crypt, "PBKDF2HMAC", counted)
    crypt._derived.cache_clear()
    h = load(Path(__file__).resolve().parent.parent / "games" / RUNNING)
    powers = h.variant.rules.powers()
    phrases = {p: f"{p.lower()}-passphrase-of-the-test" for p in powers}
    secrets = GameSecrets(Path("secrets.yml"), bytes(range(32)), phrases)
    public = game_view(h, "public")
    first = private_files(seat_pages(Loaded(h, secrets), SiteOptions()), public)
    assert len(runs) == len(powers) == len(set(runs))
    second = private_files(seat_pages(Loaded(h, secrets), SiteOptions()), public)
    assert len(runs) == len(powers)
    assert first.keys() == second.keys()
    uri = page_uri(secrets.page_key, RUNNING, "England")
    assert envelope(first[uri])["iv"] != envelope(second[uri])["iv"]
    secrets.passphrases["England"] = "a-new-passphrase-for-england"
    third = private_files(seat_pages(Loaded(h, secrets), SiteOptions()), public)
    assert len(runs) == len(powers) + 1
    assert runs[-1] == page_salt(secrets.page_key, RUNNING, "England")
    assert "Private page of" in decrypt(envelope(third[uri]), "a-new-passphrase-for-england").decode()


def test_page_names_reveal_nothing():
    key = bytes(range(32))
    a, b = page_token(key, RUNNING, "England"), page_token(key, RUNNING, "France")
    assert re.fullmatch(r"[0-9a-f]{32}", a)
    assert a != b
    assert page_token(bytes(32), RUNNING, "England") != a  # another key, another name


def test_a_maps_data_uri_is_quotes_very_output():
    from urllib.parse import quote

    from dipgen.present.site.privatepage import URI_SAFE, _data_uri

    for svg in ("".join(map(chr, range(128))), '<svg id="a b">&amp; 100% \n</svg>', "Région: Moskva → Sevastopol"):
        assert _data_uri(svg) == "data:image/svg+xml," + quote(svg, safe=URI_SAFE)


# ----------------------------------------------------------------------------- the built site

def private_pages(site: Path) -> list[Path]:
    return sorted((site / "private").glob("*.html"))


@pytest.mark.slow
def test_one_private_page_per_power_of_the_running_game_only(built):
    project, site, hs, secrets = built
    pages = private_pages(site)
    running = secrets[RUNNING]
    expected = {page_uri(running.page_key, RUNNING, p) for p in hs[RUNNING].variant.rules.powers()}
    assert {p.relative_to(site).as_posix() for p in pages} == expected  # none for the finished game
    assert (site / "assets" / "dipgen" / "private.js").exists()
    for page in pages:
        env = envelope_of(page)
        assert env["iter"] >= ITERATIONS >= 600_000
    assert len({envelope_of(p)["salt"] for p in pages}) == len(pages)


@pytest.mark.slow
def test_each_page_opens_with_its_passphrase_and_shows_that_powers_view(built):
    project, site, hs, secrets = built
    history, s = hs[RUNNING], secrets[RUNNING]
    board = history.variant.rules.board
    powers = history.variant.rules.powers()
    for power in powers:
        page = site / page_uri(s.page_key, RUNNING, power)
        text = open_page(page, s.passphrases[power])
        assert "Private page of <strong" in text
        assert f">{power}</strong>" in text
        assert history.info.title in text
        # the position now: its own units and centres
        view = game_view(history, power)
        now = view.now
        mine = [u.describe(board) for u in sorted(now.units, key=lambda u: u.loc) if u.power == power]
        assert f"<dt>Your units</dt><dd>{', '.join(mine) or 'none'}</dd>" in text
        # every season of her calendar, with her private report and its private news
        seasons = seasons_of(text)
        assert list(seasons) == [r.title for r in reversed(view.records)]
        for record in view.records:
            from dipgen.present.report import phase_report

            report = seasons[record.title]
            assert report == phase_report(view, record)
            assert "Your units:" in report or record.summary_only
        # every map is this power's view of that phase
        overlays = [svg_of(m) for m in DATA_URI.findall(text)]
        expected = [overlay_map(history, None, power, "after")]
        for record in reversed(view.records):
            if not record.summary_only:
                expected += [overlay_map(history, record.phase, power, "orders"),
                             overlay_map(history, record.phase, power, "after")]
        assert overlays == expected
        assert text.count('src="../assets/maps/standard.svg"') == len(expected)


@pytest.mark.slow
def test_no_page_shows_what_only_another_power_knows(built):
    _, site, hs, secrets = built
    history, s = hs[RUNNING], secrets[RUNNING]
    board = history.variant.rules.board
    powers = history.variant.rules.powers()

    checked = 0
    for power in powers:
        text = open_page(site / page_uri(s.page_key, RUNNING, power), s.passphrases[power])
        seasons = seasons_of(text)
        mine = game_view(history, power)
        gm_overlays = {overlay_map(history, r.phase, "gm", "orders") for r in game_view(history, "gm").records}
        overlays = {svg_of(m) for m in DATA_URI.findall(text)}
        assert not overlays & (gm_overlays - {overlay_map(history, r.phase, power, "orders")
                                              for r in mine.records if not r.summary_only})
        for record in history.records:
            if record.phase not in mine.phases():
                continue
            own = {r.order.format(board) for r in view_record(history, record, power).results if r.order}
            report = seasons[mine.record(record.phase).title]
            for other in powers:
                if other == power:
                    continue
                theirs = {r.order.format(board) for r in view_record(history, record, other).results
                          if r.order and r.effective and not isinstance(r.order, Concealed)}
                for order in theirs - own:
                    checked += 1
                    assert not re.search(r"(?<![\w/])" + re.escape(order) + r"(?![\w/])", report), (
                        f"{power}'s page shows {other}'s order {order!r} of {record.phase.name}")
    assert checked > 100  # there were secrets to keep


@pytest.mark.slow
def test_a_wrong_passphrase_fails(built):
    _, site, hs, secrets = built
    s = secrets[RUNNING]
    page = site / page_uri(s.page_key, RUNNING, "England")
    with pytest.raises(InvalidTag):
        decrypt(envelope_of(page), s.passphrases["France"])
    with pytest.raises(InvalidTag):
        decrypt(envelope_of(page), s.passphrases["England"].upper())


@pytest.mark.slow
def test_the_shell_says_nothing_in_clear(built):
    _, site, hs, secrets = built
    history = hs[RUNNING]
    info, board = history.info, history.variant.rules.board
    words = [info.title, info.slug, info.gm, *history.variant.rules.powers(), "Stab",
             *(name for p in history.variant.rules.powers() for name in history.seating.player_names(p)),
             *(board.provinces[c].name for c in board.provinces)]
    abbreviations = [board.format_loc(c) for c in board.provinces]
    orders = {r.order.format(board) for rec in history.records for r in rec.results if r.order}
    for page in private_pages(site):
        raw = page.read_text(encoding="utf-8")
        ct = envelope_of(page)["ct"]
        assert re.fullmatch(r"[A-Za-z0-9+/=]+", ct)
        assert len(ct) > 5_000
        shell = raw.replace(ct, "")  # what is left in clear
        assert "<title>Private page</title>" in shell
        assert '<meta name="robots" content="noindex, nofollow">' in shell
        assert 'name="description"' not in shell
        low = shell.lower()
        for word in words:
            assert word.lower() not in low, f"{page.name} shows {word!r}"
        for abbr in abbreviations:  # as the reports write them, word by word
            assert not re.search(rf"(?<![\w-]){re.escape(abbr)}(?![\w-])", shell), f"{page.name} shows {abbr!r}"
        for order in orders:
            assert order not in shell
        for power in history.variant.rules.powers():
            assert power.lower() not in page.name.lower()


@pytest.mark.slow
def test_no_passphrase_or_key_anywhere_in_the_site(built):
    _, site, _, secrets = built
    needles = [x.encode() for s in secrets.values() for x in [*s.passphrases.values(), s.page_key.hex()]]
    for f in site.rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            assert not any(n in data for n in needles), f


@pytest.mark.slow
def test_private_pages_are_not_indexed(built):
    _, site, _, _ = built
    urls = []  # the pages of Pagefind's index, the site's search (dipgen.mkdocs.pagefind)
    for fragment in (site / "pagefind").rglob("*.pf_fragment"):
        raw = gzip.decompress(fragment.read_bytes())
        urls.append(json.loads(raw[raw.index(b"{"):])["url"])
    assert urls
    assert not [u for u in urls if "private/" in u]
    assert "private/" not in (site / INDEX).read_text()
    assert "private/" not in (site / "sitemap.xml").read_text()
    assert private_pages(site)  # static files, copied as written
    for page in private_pages(site):
        assert page.read_text(encoding="utf-8").startswith("<!doctype html>")
        assert "md-" not in page.read_text(encoding="utf-8")  # not themed by MkDocs


@pytest.mark.slow
def test_the_leak_scanner_finds_nothing_and_is_not_fooled_by_base64(built, tmp_path):
    project, site, hs, secrets = built
    assert scan_site(site, list(hs.values()), docs_dir=project / "site_src") == []
    # while the same page in clear would be caught (a site holding just that page, to be quick)
    s = secrets[RUNNING]
    uri = page_uri(s.page_key, RUNNING, "England")
    clear = tmp_path / "site" / uri
    clear.parent.mkdir(parents=True)
    clear.write_text(open_page(site / uri, s.passphrases["England"]), encoding="utf-8")
    leaks = scan_site(tmp_path / "site", [hs[RUNNING]], docs_dir=project / "site_src")
    assert leaks
    assert all(leak.file.startswith(uri) for leak in leaks)


@pytest.mark.slow
def test_no_private_pages_once_revealed(tmp_path):
    project = make_project(tmp_path / "p", [RUNNING])
    make_secrets(project, RUNNING)
    reveal_now(project / "games" / RUNNING)
    site = build(project)
    assert not (site / "private").exists()
    assert (site / "games" / RUNNING / "full" / "index.html").exists()


@pytest.mark.slow
def test_no_secrets_no_pages_and_a_hint(tmp_path, caplog):
    project = make_project(tmp_path / "p", [RUNNING])
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.dipgen"):
        site = build(project)
    assert not (site / "private").exists()
    hints = [r.getMessage() for r in caplog.records if "dipgen secrets" in r.getMessage()]
    assert len(hints) == 1
    assert RUNNING in hints[0]


@pytest.mark.slow
def test_serve_rebuilds_keep_the_ciphertext_of_an_unchanged_game(tmp_path):
    """The pages are encrypted with a fresh nonce, so they are kept in the plugin's cache (keyed by
    every file of the game, secrets.yml too) and only made again when the game changes."""
    from mkdocs.config import load_config

    project = make_project(tmp_path / "p", [RUNNING])
    s = make_secrets(project, RUNNING)
    cfg = load_config(str(project / "mkdocs.yml"))
    plugin = cfg.plugins["dipgen"]
    plugin.on_startup(command="serve", dirty=False)
    try:  # MkDocs keeps one plugin with on_startup from one config to the next: a clean build again after
        cfg = cfg.plugins.on_config(cfg)  # as MkDocs does before a build (not left to an earlier test)
        uri = page_uri(s.page_key, RUNNING, "England")
        plugin.on_pre_build(config=cfg)
        first = plugin._files[uri].read_text(encoding="utf-8")  # a file in the plugin's cache folder
        plugin.on_pre_build(config=cfg)
        assert plugin.stats["redone"] == 0
        assert plugin._files[uri].read_text(encoding="utf-8") == first
        assert main(["secrets", str(project / "games" / RUNNING), "--new", "England"]) == 0
        plugin.on_pre_build(config=cfg)
        assert plugin.stats["redone"] == 1
        assert plugin._files[uri].read_text(encoding="utf-8") != first
        new = load_secrets(project / "games" / RUNNING / "secrets.yml", powers_of(project, RUNNING))
        opened = envelope(plugin._files[uri].read_text(encoding="utf-8"))
        assert "Private page of" in decrypt(opened, new.passphrases["England"]).decode()
        with pytest.raises(InvalidTag):
            decrypt(envelope(plugin._files[uri].read_text(encoding="utf-8")), s.passphrases["England"])
    finally:
        plugin.on_shutdown()  # the staging folder of its last build removed, the config given its site back
        plugin.on_startup(command="build", dirty=False)


def test_check_reads_secrets_yml_too(tmp_path, capsys):
    from dipgen.cli import main

    game = tmp_path / "g"
    shutil.copytree(Path(__file__).parent.parent / "games" / "lamps-out", game)
    write_game(game, {"secrets.yml": "passphrases:\n  Englnd: short\n"})
    assert main(["check", str(game)]) == 1
    err = capsys.readouterr().err
    assert "secrets.yml:2: error: " in err
    assert "[unknown-power]" in err


def test_ciphertext_size_tells_nothing_within_a_block():
    from dipgen.present.site.crypt import PAD, decrypt, encrypt

    small = encrypt(b"<p>A Par H</p>", "abcde-fghjk-mnpqr-stuvw")
    large = encrypt(b"<p>" + b"x" * 2000 + b"</p>", "abcde-fghjk-mnpqr-stuvw")
    assert len(base64.b64decode(small["ct"])) == len(base64.b64decode(large["ct"])) == PAD + 16
    assert decrypt(small, "abcde-fghjk-mnpqr-stuvw") == b"<p>A Par H</p>"


@pytest.mark.slow
def test_every_private_page_of_a_game_has_one_size(built, monkeypatch):
    from dipgen.present.site import SiteOptions, private_files, privatepage

    _, site, hs, secrets = built
    pages = private_pages(site)
    assert len(pages) == len(hs[RUNNING].variant.rules.powers())
    # the shells differ only in salt, nonce and ciphertext, all of one length: so do the files
    assert len({len(envelope_of(p)["ct"]) for p in pages}) == 1
    assert len({p.stat().st_size for p in pages}) == 1
    # however much more one power has to read than the others
    import dipgen.usecases.publish as publish
    from dipgen.usecases.games import Loaded

    real = privatepage.private_content
    monkeypatch.setattr(publish, "private_content", lambda view, *a: real(view, *a) + (
        os.urandom(9000).hex() if view.level == "England" else ""))
    files = private_files(publish.seat_pages(Loaded(hs[RUNNING], secrets[RUNNING]), SiteOptions()),
                          game_view(hs[RUNNING], "public"))
    sizes = {len(text) for uri, text in files.items() if uri.startswith("private/")}
    assert len(sizes) == 1


def test_pages_padded_to_a_common_size_open_as_before():
    from dipgen.present.site.crypt import PAD, padded_size

    small, large = b"<p>A Par H</p>", b"<p>" + os.urandom(6000) + b"</p>"  # the large one does not compress
    size = padded_size([small, large])
    assert size % PAD == 0
    assert size > PAD
    envelopes = [encrypt(p, "abcde-fghjk-mnpqr-stuvw", size=size) for p in (small, large)]
    assert {len(base64.b64decode(e["ct"])) for e in envelopes} == {size + 16}
    assert [decrypt(e, "abcde-fghjk-mnpqr-stuvw") for e in envelopes] == [small, large]
    with pytest.raises(ValueError):
        encrypt(large, "abcde-fghjk-mnpqr-stuvw", size=PAD)


def test_a_private_page_s_size_is_a_function_of_public_facts_alone():
    """Two games alike in public whose private pages differ (a hidden phase had more to say)
    publish private pages of one size: the game's room, set by the phases the public sees."""
    from dipgen.present.site.crypt import PAD, padded_size, room

    noise = os.urandom(3 * PAD).hex().encode()[:3 * PAD]
    quiet, busy = [b"<p>A Par H</p>"], [b"<p>A Par H</p>", b"<p>" + noise + b"</p>"]
    assert padded_size(quiet, least=room(6)) == padded_size(busy, least=room(6)) == room(6)
    assert room(7) > room(6)
    assert room(6) % PAD == 0
    huge = [os.urandom(room(6) + 10)]  # does not compress: it outgrows the room
    assert padded_size(huge, least=room(6)) == room(6) + PAD
    # press and notes the public reads make the room bigger: a function of public facts too
    assert room(6, "a long press release " * 500) > room(6)


@pytest.mark.slow
def test_every_running_example_s_private_pages_fit_in_their_room():
    """The room is generous enough for real games: no example's page outgrows it (so none of
    them publishes a size that depends on what the public does not see)."""
    from pathlib import Path

    from dipgen.present.site.crypt import _packed
    from dipgen.present.site.pages import private_room
    from dipgen.present.site.privatepage import private_content
    from support import load

    checked = 0
    for folder in sorted((Path(__file__).resolve().parent.parent / "games").iterdir()):
        h = load(folder)
        if not h.variant.policy.hidden or h.finished:
            continue
        room = private_room(game_view(h, "public"))
        for seat in h.seating.keys():
            packed = 4 + len(_packed(private_content(game_view(h, seat), "private/x/y.html", "", True).encode(), True))
            assert packed <= room, f"{folder.name}, {seat}: {packed} bytes, room {room}"
            checked += 1
    assert checked >= 14


def test_a_page_that_outgrows_its_room_stops_the_build():
    """Rather than a bigger size, which a hidden fact could move, the build refuses (it cannot
    happen with dipgen's own pages: see the test above)."""
    from dipgen.present.site.pages import private_files
    from support import load

    h = load(Path(__file__).resolve().parent.parent / "games" / RUNNING)
    huge = os.urandom(200_000).hex()
    with pytest.raises(GameError) as e:
        private_files([("private/x.html", huge, Lock.of(bytes(32), RUNNING, "England", "abcde-fghjk-mnpqr-stuvw"))],
                      game_view(h, "public"))
    assert [p.code for p in e.value.problems] == ["private-page-too-large"]
    assert "more than the" in e.value.problems[0].message  # the words, tested here once
