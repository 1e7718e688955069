"""What a game publishes of its draws (draws.json, the season pages) and `dipgen verify`."""

from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.present.drawfile import check, dumps
from dipgen.present.drawfile import document as _document
from dipgen.rules.draws import GameDraws, commitment
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.usecases.games import Loaded
from dipgen.usecases.publish import editions
from dipgen.present.site.pages import SiteOptions, published_files
from dipgen.view import game_view
from dipgen.rules.visibility import PUBLIC
from support import load, reveal_now, write_game


def document(history):
    """The draws.json the build publishes of `history` (from its full edition, once revealed)."""
    public, full = editions(Loaded(history))
    return _document(full or public)

REPO = Path(__file__).resolve().parent.parent
SEED = bytes(range(100, 132))
POWERS = ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"]
GAME = ("title: Dice\ngm: Jane Doe\nplayers: {England: A, France: B, Germany: C, Italy: D, Austria: E, Russia: F, "
        f"Turkey: G}}\nseed_sha256: \"{commitment(SEED)}\"\n")


def with_draws(history, seed=SEED):
    """The history as a variant that draws would make it: a die, a choice, a shuffle and a secret
    number in every phase, a shuffle in the set-up (what the replay's hooks will record)."""
    draws = GameDraws(commitment(seed), history.info.start or 1901, seed)
    setup = draws.phase(None)
    setup.shuffle("seats", POWERS)
    draws.setup_draws = setup.drawn
    records = []
    for r in history.records:
        d = draws.phase(r.phase)
        d.die("tir/England-France")
        d.choice("who", POWERS)
        d.shuffle("order", ["a", "b", "c", "d"])
        d.integer("task", 5, secret=True)
        records.append(replace(r, draws=d.drawn))
    return replace(history, draws=draws, records=records)  # a new History: the views of the old one are its own


@pytest.fixture
def folder(tmp_path) -> Path:
    return write_game(tmp_path / "games" / "dice", {"game.yml": GAME,
                                                    "1901-spring.yml": "orders: {France: [A Par - Bur]}\n",
                                                    "1901-fall.yml": "orders: {France: [A Bur - Bel]}\n"})


def running(folder):
    return with_draws(replay(load_game(folder)))


def test_a_running_game_publishes_each_phases_public_draws_and_key_but_not_the_seed(folder):
    h = running(folder)
    doc = document(h)
    assert doc["seed"] is None
    assert doc["commitment"] == commitment(SEED)
    assert [p["phase"] for p in doc["phases"]] == ["setup", "1901-spring", "1901-fall"]
    assert all(not d["secret"] for p in doc["phases"] for d in p["draws"])
    assert SEED.hex() not in dumps(doc)
    failures, checked = check(json.loads(dumps(doc)), commitment(SEED))
    assert failures == []
    assert checked == 1 + 3 * 2


def test_at_the_reveal_the_seed_and_the_secret_draws_are_published(folder):
    reveal_now(folder)
    doc = document(running(folder))
    assert doc["seed"] == SEED.hex()
    assert sum(d["secret"] for p in doc["phases"] for d in p["draws"]) == 2
    assert check(json.loads(dumps(doc)), commitment(SEED)) == ([], 1 + 4 * 2)


def test_tampered_values_keys_seeds_and_commitments_are_each_caught(folder):
    reveal_now(folder)
    doc = json.loads(dumps(document(running(folder))))

    bad = copy.deepcopy(doc)
    die = bad["phases"][2]["draws"][0]
    die["value"] = die["value"] % 6 + 1
    (failure,), _ = check(bad)
    assert failure.label == "1901-fall/tir/England-France"
    assert failure.published == str(die["value"])
    assert failure.expected == str(doc["phases"][2]["draws"][0]["value"])

    bad = copy.deepcopy(doc)
    bad["phases"][1]["draws"][3]["value"] = (doc["phases"][1]["draws"][3]["value"] + 1) % 5  # a secret draw
    assert [f.label for f in check(bad)[0]] == ["1901-spring/task"]

    bad = copy.deepcopy(doc)
    bad["phases"][1]["key"] = doc["phases"][2]["key"]  # a later key in an earlier phase
    assert [(f.label, f.what) for f in check(bad)[0]] == [
        ("1901-spring", "the phase's key does not lead to the commitment")]

    bad = copy.deepcopy(doc)
    bad["seed"] = "00" * 32
    assert [f.label for f in check(bad)[0]] == ["seed", "1901-spring/task", "1901-fall/task"]

    assert [f.label for f in check(doc, commitment(b"x" * 32))[0]] == ["commitment"]
    other = json.loads(dumps(document(with_draws(replay(load_game(folder)), b"y" * 32))))
    other["commitment"] = doc["commitment"]  # the draws of another seed, under this game's commitment
    assert [f.label for f in check(other)[0]] == ["seed", "setup", "1901-spring", "1901-fall"]
    assert check({"format": "dipgen-draws/1", "phases": 3})[0][0].label == "draws.json"


def test_season_pages_show_their_draws_and_the_site_carries_draws_json(folder):
    h = running(folder)
    files = published_files(*editions(Loaded(h)), SiteOptions())
    assert "games/dice/draws.json" in files
    page = files["games/dice/1901-fall/index.md"]
    key = h.draws.key(h.records[-1].phase).hex()
    assert "## Draws" in page
    assert "1901-fall/tir/England-France" in page
    assert key in page
    assert "1901-fall/task" not in page  # secret until the end
    assert 'href="../draws.json"' in page
    assert 'href="../../../draws/"' in page


def test_a_hidden_game_publishes_draws_only_for_its_public_calendar():
    h = with_draws(load(REPO / "games" / "lamps-out"))
    if h.finished or h.info.reveal == "now":
        pytest.skip("the example game is revealed")
    # a Winter of the public calendar tells the year's totals only: what a winter drew (if anyone
    # adjusted at all) is not the public's, so only the Springs and Falls publish their draws
    shown = {r.phase.slug for r in game_view(h, PUBLIC).records if not r.summary_only}
    played = {r.phase.slug for r in h.records}
    assert any(s.endswith("retreats") for s in played)  # the calendar hides some phases
    doc = document(h)
    assert {p["phase"] for p in doc["phases"]} - {"setup"} == shown & played
    assert check(doc, commitment(SEED))[0] == []


def snippet() -> str:
    """The checking script the draws page gives."""
    return re.search(r"```python\n(.*?)```", (REPO / "site_src" / "draws.md").read_text(), re.S).group(1)


def run_snippet(code: str, doc: dict, work: Path) -> None:
    """Run the page's script as a reader would, in a folder holding `doc` as draws.json."""
    work.mkdir(exist_ok=True)
    (work / "draws.json").write_text(dumps(doc))
    cwd = os.getcwd()
    os.chdir(work)
    try:
        exec(compile(code, "draws.md", "exec"), {})
    finally:
        os.chdir(cwd)


def test_the_snippet_on_the_site_checks_a_published_file(folder, tmp_path, capsys):
    reveal_now(folder)
    doc = document(running(folder))
    run_snippet(snippet(), doc, tmp_path / "reader")
    assert "every draw matches the commitment " + doc["commitment"] in capsys.readouterr().out
    doc["phases"][1]["draws"][1]["value"] = "Nobody"
    with pytest.raises(AssertionError, match="1901-spring/who"):
        run_snippet(snippet(), doc, tmp_path / "reader")


def test_dipgen_verify_names_the_draw_that_fails(folder, tmp_path, capsys):
    site = tmp_path / "site"
    (site / "games" / "dice").mkdir(parents=True)
    doc = document(running(folder))
    (site / "games" / "dice" / "draws.json").write_text(dumps(doc))
    assert main(["verify", str(site)]) == 0
    assert main(["verify", str(folder), "--site", str(site)]) == 0
    assert "7 draw(s) match" in capsys.readouterr().out
    doc["phases"][2]["draws"][0]["value"] = doc["phases"][2]["draws"][0]["value"] % 6 + 1
    (site / "games" / "dice" / "draws.json").write_text(dumps(doc))
    assert main(["verify", str(site / "games" / "dice" / "draws.json")]) == 1
    assert "FAIL 1901-fall/tir/England-France: the published value is not the draw" in capsys.readouterr().out
    # a wrong commitment in game.yml: the published draws are not this game's
    write_game(folder, {"game.yml": GAME.replace(commitment(SEED), commitment(b"z" * 32))})
    assert main(["verify", str(folder), "--site", str(site)]) == 1
    assert "FAIL commitment" in capsys.readouterr().out


def test_dipgen_verify_on_a_game_without_draws_says_so(capsys):
    assert main(["verify", str(REPO / "games" / "winter-palace")]) == 0
    assert "no draws published" in capsys.readouterr().out


def test_the_page_says_in_words_that_the_number_is_read_big_endian(tmp_path, capsys):
    """A player re-implementing the draws from the text alone needs the byte order (issue 21): the
    prose says it, and it matters: read little-endian, the example game's dice do not check."""
    text, code = (REPO / "site_src" / "draws.md").read_text(), snippet()
    prose = " ".join(text.replace(code, "").split())
    assert "big-endian" in prose
    assert "the first byte is the most significant" in prose
    doc = document(replay(load_game(REPO / "games" / "two-crowns")))  # finished: its seed is published
    assert sum(1 for ph in doc["phases"] for d in ph["draws"] if d["kind"] == "die") > 100
    run_snippet(code, doc, tmp_path / "reader")
    assert "every draw matches" in capsys.readouterr().out
    with pytest.raises(AssertionError, match="not the published value"):
        run_snippet(code.replace('"big"', '"little"'), doc, tmp_path / "reader")
