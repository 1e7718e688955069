"""The order sheet's data and its page without JavaScript: an open running game's page lists each
unit's legal orders and has its sheet.json beside it; every order in it reads back through the order
reader and is one the enumeration offers; a hidden game's public pages and a finished game's have
none; game.yml's orders_to is checked."""

from __future__ import annotations

import gzip
import json
import re
import shutil

import pytest

from dipgen.core.errors import GameError
from dipgen.core.orders import parse_order
from dipgen.core.results import Kind
from dipgen.io.gamefiles import load_game
from dipgen.present.site.sheet import SHEET_JS_URI
from support import GAMES, load, public_site, write_game

OPEN = "north-sea-ledger"   # standard, running
HIDDEN = "lamps-out"        # Stab!, running: hidden from the public
OVER = "winter-palace"      # standard, finished


@pytest.fixture(scope="module")
def open_site():
    return public_site(load(GAMES / OPEN))


def test_an_open_running_game_has_its_sheet_beside_its_page(open_site):
    page = open_site[f"games/{OPEN}/index.md"]
    data = json.loads(open_site[f"games/{OPEN}/sheet.json"])
    assert data["phase"] == "Spring 1905"
    assert data["orders_to"] == ""
    assert [p["power"] for p in data["powers"]] == ["Austria", "England", "France", "Germany", "Italy", "Russia",
                                                    "Turkey"]
    assert 'data-dg-sheet="sheet.json"' in page or 'data-dg-sheet="../sheet.json"' in page
    assert re.search(r'<script src="[./]*assets/dipgen/sheet\.js" defer></script>', page)
    assert SHEET_JS_URI in open_site
    history = load(GAMES / OPEN)
    board = history.variant.rules.board
    for entry in data["powers"]:
        for row in entry["rows"]:
            assert row["orders"][0] == row["unit"] + " H"
            for text in row["orders"]:  # canonical: the reader reads it and prints it back the same
                assert parse_order(board, text).format(board) == text
                assert f"<li>{text}</li>" in page.replace("&gt;", ">")  # the list without JavaScript


def test_the_sheet_is_light(open_site):
    for entry in json.loads(open_site[f"games/{OPEN}/sheet.json"])["powers"]:
        one = json.dumps(entry, separators=(",", ":")).encode()
        assert len(gzip.compress(one)) < 50_000


def test_no_sheet_on_a_hidden_games_public_pages_nor_a_finished_game():
    for slug in (HIDDEN, OVER):
        files = public_site(load(GAMES / slug))
        assert f"games/{slug}/sheet.json" not in files
        assert not any("dg-sheet" in text for uri, text in files.items() if uri.endswith(".md")), slug


def test_orders_to_reaches_the_sheet(tmp_path):
    shutil.copytree(GAMES / OPEN, tmp_path / OPEN)
    game_yml = tmp_path / OPEN / "game.yml"
    write_game(tmp_path / OPEN, {"game.yml": game_yml.read_text(encoding="utf-8") + "orders_to: gm@example.org\n"})
    files = public_site(load(tmp_path / OPEN))
    assert json.loads(files[f"games/{OPEN}/sheet.json"])["orders_to"] == "gm@example.org"
    assert "or mail them" in files[f"games/{OPEN}/index.md"]


@pytest.mark.parametrize("value", ["not an address", "a@b", "[gm@example.org]", "one@example.org, two@example.org",
                                   "12"])
def test_orders_to_must_be_one_address(tmp_path, value):
    shutil.copytree(GAMES / OPEN, tmp_path / OPEN)
    game_yml = tmp_path / OPEN / "game.yml"
    text = game_yml.read_text(encoding="utf-8")
    write_game(tmp_path / OPEN, {"game.yml": text + f"orders_to: {value}\n"})
    with pytest.raises(GameError) as e:
        load_game(tmp_path / OPEN)
    codes = {p.code for p in e.value.problems}
    assert codes == {"bad-orders-to"}
    line = next(p.line for p in e.value.problems)
    assert line == len(text.splitlines()) + 1
    assert re.search("orders_to", str(e.value))


def cut(tmp_path, keep_until: str):
    """The open game with its phase files after `keep_until` removed: it waits for the next phase."""
    folder = tmp_path / OPEN
    shutil.copytree(GAMES / OPEN, folder)
    phases = [r.phase.slug + ".yml" for r in load(GAMES / OPEN).records]
    for name in phases[phases.index(keep_until) + 1:]:
        (folder / name).unlink()
    return folder


def test_a_retreat_phase_offers_the_dislodged_units_only(tmp_path):
    folder = cut(tmp_path, "1904-spring.yml")
    history = load(folder)
    data = json.loads(public_site(history)[f"games/{OPEN}/sheet.json"])
    board = history.variant.rules.board
    dislodged = {d.unit.describe(board) for d in history.position.dislodged}
    rows = [(e["power"], r) for e in data["powers"] for r in e["rows"]]
    assert dislodged
    assert {r["unit"] for _, r in rows} == dislodged
    for power, row in rows:  # each retreat, written in the phase file, is read and carried out
        assert row["orders"][-1] == row["unit"] + " disband"
        for text in row["orders"]:
            write_game(folder, {"1904-spring-retreats.yml": f"orders:\n  {power}: [{text}]\n"})
            record = load(folder).records[-1]
            assert record.phase.retreats
            results = [r for r in record.results if r.power == power and not r.default]
            assert results, text
            assert not any(r.has(Kind.ILLEGAL) for r in results), text


def test_an_adjustment_phase_offers_a_row_per_build_or_removal(tmp_path):
    folder = cut(tmp_path, "1904-fall.yml")
    history = load(folder)
    data = json.loads(public_site(history)[f"games/{OPEN}/sheet.json"])
    due = history.variant.rules.adjustment_counts(history.position)
    assert {e["power"]: len(e["rows"]) for e in data["powers"]} == {p: abs(n) for p, n in due.items()}
    for entry in data["powers"]:
        n = due[entry["power"]]
        assert entry["rows"][0]["unit"] == ("Build" if n > 0 else "Removal") + f" 1 of {abs(n)}"
        orders = entry["rows"][0]["orders"]
        assert ("Waive" in orders) == (n > 0)
        assert all(o.startswith("Build " if n > 0 else "Remove ") for o in orders if o != "Waive")


def test_a_hidden_game_published_whole_while_it_runs_has_the_sheet_on_its_non_blind_edition(tmp_path):
    shutil.copytree(GAMES / HIDDEN, tmp_path / HIDDEN)
    game_yml = tmp_path / HIDDEN / "game.yml"
    write_game(tmp_path / HIDDEN, {"game.yml": game_yml.read_text(encoding="utf-8") + "reveal: now\n"})
    history = load(tmp_path / HIDDEN)
    files = public_site(history)
    assert "dg-sheet" not in files[f"games/{HIDDEN}/index.md"]
    full = files[f"games/{HIDDEN}/full/index.md"]
    assert 'data-dg-sheet="../sheet.json"' in full
    data = json.loads(files[f"games/{HIDDEN}/sheet.json"])
    assert {p["power"] for p in data["powers"]} == {u.power for u in history.position.units}  # the GM's view
