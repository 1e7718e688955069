"""The game's record (issue 24, point 10): a chain of SHA-256 links over the phase files, salted in a
hidden game, published in chain.json with the files once the game is open or revealed, shown on the
pages and in the reports, recomputed by `dipgen verify` and by the scripts of the draws page."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.present.chainfile import check, document, kept_links, published_files
from dipgen.rules.chain import genesis, link, salt_of
from dipgen.rules.draws import commitment
from dipgen.view import game_view
from support import GAME_YML, REPO, build, load, make_project, report, reveal_now, write_game
from support.codes import codes

SEED = bytes(range(7, 39))
OPEN = {
    "game.yml": GAME_YML,
    "1901-spring.yml": "orders:\n  France: [A Par - Bur]\n  Germany: [A Mun - Ruh, A Ber - Mun]\n",
    "1901-fall.yml": "orders:\n  France: [A Bur H]\n  Germany: [A Ruh - Bur, A Mun S A Ruh - Bur]\n",
}
RETREAT = {"1901-fall-retreats.yml": "orders:\n  France: [A Bur - Pic]\n"}
WINTER = {"1901-winter.yml": "orders:\n  Germany: [A Ber]\n"}


def hidden(folder: Path, files: dict[str, str]) -> Path:
    """A Blind game with a seed (committed to in game.yml, kept in secrets.yml)."""
    game = GAME_YML + f"variant: blind\nseed_sha256: {commitment(SEED)}\n"
    return write_game(folder, {**files, "game.yml": game, "secrets.yml": f"seed: \"{SEED.hex()}\"\n"})


def by_hand(slug: str, salt: bytes, files: list[tuple[str, bytes]]) -> list[str]:
    """The links as the draws page says to compute them, with hashlib alone."""
    out, previous = [], hashlib.sha256(f"dipgen-record/1\n{slug}".encode()).hexdigest()
    for phase, data in files:
        previous = hashlib.sha256(f"{previous}\n{salt.hex()}\n{phase}\n".encode() + data).hexdigest()
        out.append(previous)
    return out


def overwrite(published: Path, data: bytes) -> None:
    """Change a file of a built site (a phase file published beside chain.json), as a forger would."""
    published.write_bytes(data)


def page_script(language: str, needle: str) -> str:
    text = (REPO / "site_src" / "draws.md").read_text(encoding="utf-8")
    return next(b for b in re.findall(rf"```{language}\n(.*?)```", text, re.S) if needle in b)


# ----------------------------------------------------------------------------- the construction

def test_an_open_games_links_are_the_chain_of_its_files_as_committed(tmp_path):
    folder = write_game(tmp_path / "g", OPEN)
    write_game(folder, {"1901-fall.yml": b"# Fall\r\norders:\r\n  France: [A Bur H]\r\n  Germany: [A Ruh - Bur, "
                                         b"A Mun S A Ruh - Bur]\r\n"})  # CRLF: the bytes, not the text
    h = load(folder)
    files = [(p, (folder / f"{p}.yml").read_bytes()) for p in ("1901-spring", "1901-fall")]
    assert [value for _, value in h.chain.links] == by_hand("g", b"", files)
    doc = document(game_view(h, "public"))
    assert doc["salt"] is None
    assert not doc["salted"]
    assert doc["genesis"] == genesis("g")
    assert [(e["phase"], e["file"]) for e in doc["links"]] == [("1901-spring", "files/1901-spring.yml"),
                                                               ("1901-fall", "files/1901-fall.yml")]
    assert published_files(game_view(h, "public"))["files/1901-fall.yml"] == files[1][1]
    assert check(doc, published_files(game_view(h, "public")).__getitem__) == ([], 2)
    # the same files in another game's folder: another chain
    assert load(write_game(tmp_path / "other", OPEN)).chain.links[0][1] != h.chain.links[0][1]


def test_a_hidden_running_games_links_are_salted_hashes_of_its_files(tmp_path):
    """The published link of a hidden running game is exactly `link(previous, salt, phase, bytes)`,
    with a 256-bit salt from the secret seed; nothing else of the salt or the files is published."""
    folder = hidden(tmp_path / "g", {**OPEN, **RETREAT})
    h = load(folder)
    salt = hmac.new(SEED, b"dipgen record salt", hashlib.sha256).digest()
    assert h.chain.salt == salt_of(SEED) == salt
    assert len(salt) * 8 == 256
    files = [(p, (folder / f"{p}.yml").read_bytes()) for p in ("1901-spring", "1901-fall", "1901-fall-retreats")]
    assert [value for _, value in h.chain.links] == by_hand("g", salt, files)
    public = game_view(h, "public")
    doc = document(public)
    assert doc["salted"]
    assert doc["salt"] is None
    assert published_files(public) == {}
    assert all("file" not in e for e in doc["links"])
    assert [(e["phase"], e["after"], e["link"]) for e in doc["links"]] == [
        ("1901-spring", "1901-spring", link(genesis("g"), salt, "1901-spring", files[0][1])),
        ("1901-fall", "1901-fall", h.chain.after(h.records[1].phase))]
    text = json.dumps(doc) + report(h, "public")
    assert salt.hex() not in text
    assert SEED.hex() not in text
    assert h.chain.after(h.records[2].phase) not in text  # the link after the hidden retreat file


def test_a_hidden_file_added_moves_no_public_link(tmp_path):
    """Whether a retreat or winter file exists is hidden: the public record does not move when one is
    added; the season after it carries a link that depends on it, indistinguishable from random."""
    before = load(hidden(tmp_path / "g", OPEN))
    after = load(hidden(tmp_path / "g", RETREAT))
    assert before.next_phase != after.next_phase  # the retreat was played
    assert document(game_view(before, "public")) == document(game_view(after, "public"))
    assert report(before, "public").count("Record after 1901-fall: ") == 1
    assert report(before, "public") == report(after, "public")


def test_the_record_of_a_revealed_game_gives_its_salt_and_files(tmp_path):
    folder = reveal_now(hidden(tmp_path / "g", {**OPEN, **RETREAT}))
    h = load(folder)
    full = game_view(h, "gm")
    doc = document(full)
    assert doc["salt"] == salt_of(SEED).hex()
    assert [e["after"] for e in doc["links"]] == ["1901-spring", "1901-fall", "1901-fall-retreats"]
    assert check(doc, published_files(full).__getitem__) == ([], 3)


def test_a_hidden_game_without_its_seed_publishes_no_record_while_it_runs(tmp_path):
    folder = hidden(tmp_path / "g", OPEN)
    (folder / "secrets.yml").unlink()
    h = load(folder)
    assert h.chain is None
    assert document(game_view(h, "public")) is None


# ----------------------------------------------------------------------------- the pages and the scripts

def test_the_pages_show_the_latest_link_and_the_scripts_of_the_draws_page_check_it(tmp_path):
    project = make_project(tmp_path / "p", games={"g": OPEN})
    site = build(project)
    game = site / "games" / "g"
    doc = json.loads((game / "chain.json").read_text())
    latest = doc["links"][-1]["link"]
    assert f'data-after="1901-fall">{latest}</code>' in (game / "index.html").read_text()
    assert f'data-after="1901-spring">{doc["links"][0]["link"]}</code>' in \
        (game / "1901-spring" / "index.html").read_text()
    assert (game / "files" / "1901-spring.yml").read_bytes() == (project / "games/g/1901-spring.yml").read_bytes()
    cwd = os.getcwd()
    try:
        os.chdir(game)
        exec(compile(page_script("python", "chain.json"), "draws.md", "exec"), {})
    finally:
        os.chdir(cwd)
    shell = page_script("sh", "sha256sum").replace("game=my-game", "game=g")
    out = subprocess.run(["sh", "-c", shell], cwd=game, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1901-spring", doc["links"][0]["link"], "1901-fall", latest]
    overwrite(game / "files" / "1901-spring.yml", b"orders: {}\n")
    with pytest.raises(AssertionError, match="1901-spring: not the link"):
        os.chdir(game)
        try:
            exec(compile(page_script("python", "chain.json"), "draws.md", "exec"), {})
        finally:
            os.chdir(cwd)


# ----------------------------------------------------------------------------- dipgen verify

def test_verify_fails_against_a_link_kept_before_a_past_phase_file_was_edited(tmp_path, capsys):
    """An edited past file changes the outcome, and the site rebuilt from it is consistent: the draws
    (none here) and the chain of the new files all check. Only a link kept from before tells."""
    project = make_project(tmp_path / "p", games={"g": OPEN})
    build(project)
    folder = project / "games" / "g"
    kept = tmp_path / "reports.txt"
    for phase in ("1901-spring", "1901-fall"):  # the reports the players were sent
        assert main(["adjudicate", str(folder), "--phase", phase]) == 0
        kept.write_text((kept.read_text() if kept.exists() else "") + capsys.readouterr().out)
    assert len(kept_links(kept.read_text())) == 2
    site = project / "site"
    assert main(["verify", str(site / "games" / "g"), "--links", str(kept)]) == 0
    assert "2 link(s) you kept are in it" in capsys.readouterr().out
    write_game(folder, {"1901-spring.yml": OPEN["1901-spring.yml"].replace("A Par - Bur", "A Par - Pic")})
    shutil.rmtree(site)
    build(project)
    assert main(["verify", str(site)]) == 0  # the site alone agrees with itself
    capsys.readouterr()
    assert main(["verify", str(site / "games" / "g"), "--links", str(kept)]) == 1
    out = capsys.readouterr().out
    assert "FAIL 1901-spring: the link you kept is not the chain's" in out
    fall = kept_links(kept.read_text())[1]
    assert main(["verify", str(folder), "--link", "=".join(fall)]) == 1  # the game folder: its build's record
    assert "FAIL 1901-fall" in capsys.readouterr().out


def test_verify_finds_a_published_file_link_or_page_that_is_not_the_chains(tmp_path, capsys):
    project = make_project(tmp_path / "p", games={"g": OPEN})
    game = build(project) / "games" / "g"
    assert main(["verify", str(game)]) == 0
    assert "2 link(s) recomputed from the published files, the game page's link is the chain's" in \
        capsys.readouterr().out
    page = (game / "index.html").read_text()
    doc = json.loads((game / "chain.json").read_text())
    (game / "index.html").write_text(page.replace(doc["links"][-1]["link"], "0" * 64))
    assert main(["verify", str(game)]) == 1
    assert "FAIL game page" in capsys.readouterr().out
    (game / "index.html").write_text(page)
    data = (game / "files" / "1901-fall.yml").read_bytes()
    overwrite(game / "files" / "1901-fall.yml", data + b"\n")
    assert main(["verify", str(game)]) == 1
    assert "FAIL 1901-fall: the published link is not the chain of the published files" in capsys.readouterr().out
    overwrite(game / "files" / "1901-fall.yml", data)
    doc["genesis"] = "1" * 64
    (game / "chain.json").write_text(json.dumps(doc))
    assert main(["verify", str(game / "chain.json")]) == 1
    assert "FAIL genesis" in capsys.readouterr().out


def test_verify_says_what_is_wrong_with_a_kept_link(tmp_path, capsys):
    folder = write_game(tmp_path / "g", OPEN)
    assert main(["verify", str(folder), "--link", "1901-fall"]) == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]
    assert main(["verify", str(folder), "--links", str(tmp_path / "none.txt")]) == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]
    (tmp_path / "empty.txt").write_text("nothing here\n")
    assert main(["verify", str(folder), "--links", str(tmp_path / "empty.txt")]) == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]
    assert main(["verify", str(folder), "--link", f"1902-spring={'a' * 64}"]) == 1
    assert "FAIL 1902-spring: no link after this phase's file is published" in capsys.readouterr().out


def test_verify_reads_a_game_from_its_address(tmp_path, capsys):
    """An address, as a player has it: chain.json, the files and the page fetched over HTTP (a game
    without draws has no draws.json there: that is no failure)."""
    import functools
    import http.server
    import threading

    game = build(make_project(tmp_path / "p", games={"g": OPEN})) / "games" / "g"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(game.parent.parent))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"http://127.0.0.1:{server.server_address[1]}/games/g/"
        fall = json.loads((game / "chain.json").read_text())["links"][-1]["link"]
        assert main(["verify", address, "--link", f"1901-fall={fall}"]) == 0
        assert "2 link(s) recomputed from the published files, the game page's link is the chain's, the 1 " \
               "link(s) you kept are in it" in capsys.readouterr().out
        assert main(["verify", address, "--link", f"1901-fall={'b' * 64}"]) == 1
        assert "FAIL 1901-fall: the link you kept is not the chain's" in capsys.readouterr().out
    finally:
        server.shutdown()
