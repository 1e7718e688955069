"""Seats apart from powers (issue 10, item 3): a player holding two powers, a power changing
hands in play through `rules.variant.Rules.control_changes`, views, reports, private pages and
passphrases per seat; and the standard form of `players:` as it was."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.core.phase import Phase
from dipgen.present.site.crypt import decrypt, page_uri
from dipgen.usecases.games import Loaded
from dipgen.usecases.publish import seat_pages
from dipgen.rules.seats import ControlChange, Seat, Seating
from dipgen.io.secretsfile import load_secrets
from dipgen.present.site.pages import SiteOptions, private_files
from dipgen.present.site.privatepage import private_content
from dipgen.view import game_view
from dipgen.view.seen import seen_record as view_record
from support import report as phase_report, write_game
from dipgen.variants import VARIANTS
from dipgen.rules.variant import Variant
from dipgen.variants.stab.files import StabFiles
from dipgen.variants.stab.rules import StabRules
from dipgen.variants.stab.visibility import StabPolicy
from dipgen.variants.stab.words import StabWords

ROOT = Path(__file__).resolve().parent.parent
PAIRS = {"Alice": ["England", "France"], "Anna": ["Austria"], "Bob": ["Germany"], "Ida": ["Italy"],
         "Rob": ["Russia"], "Tess": ["Turkey"]}
PASS = {"Alice": "alice-pass-phrase-0001", "Anna": "anna-pass-phrase-00002", "Bob": "bob-pass-phrase-000003",
        "Ida": "ida-pass-phrase-000004", "Rob": "rob-pass-phrase-000005", "Tess": "tess-pass-phrase-00006"}


class TwoPowerStabRules(StabRules):
    """Stab! where Italy passes from Ida to Alice after Spring 1901 (a rule made up for this test)."""

    def control_changes(self, record, seating):
        if record.phase == Phase(1901, 0) and seating.controllers("Italy", record.phase) == ("Ida",):
            return [ControlChange("Italy", "Ida", "Alice", record.after.phase, "Ida left the table")]
        return ()


class TwoPowerStabFiles(StabFiles):
    """Stab! with players apart from powers: `players:` maps each player to her powers."""

    def read_seats(self, raw, file, line, problems):
        seats = tuple(Seat(name, ((name, None),)) for name in raw)
        control = {p: tuple(n for n, ps in raw.items() if p in ps) for p in self.rules.powers()}
        return Seating(seats, control)


def two_power_stab() -> Variant:
    """Stab! with players apart from powers, and Italy changing hands after Spring 1901."""
    return Variant.of("two-power-stab", TwoPowerStabRules(), files=TwoPowerStabFiles, policy=StabPolicy,
                      words=StabWords)


@pytest.fixture
def variant(monkeypatch):
    monkeypatch.setitem(VARIANTS, "two-power-stab", two_power_stab)


def two_powers(folder: Path, german: str = "F Kie - Den") -> Path:
    from dipgen.variants import get_variant

    board = get_variant("stab").rules.board
    game = {"title": "Two powers", "variant": "two-power-stab", "gm": "Grace", "players": PAIRS}
    orders = {p: [] for p in board.powers}
    orders["England"] = ["F Lon - NTH"]
    orders["France"] = ["A Par - Bur"]
    orders["Germany"] = [german]
    spring = {"placement": {p: list(board.starting_units[p]) for p in board.powers}, "orders": orders}
    return write_game(folder, {"game.yml": yaml.safe_dump(game, sort_keys=False),
                               "1901-spring.yml": yaml.safe_dump(spring, sort_keys=False)})


def history_of(folder: Path):
    return replay(load_game(folder))


def test_the_standard_form_is_one_seat_per_power_keyed_by_the_power():
    game = load_game(ROOT / "games" / "masked-ball")
    seats = game.seating
    assert seats.standard
    assert seats.keys() == game.variant.rules.powers()
    assert seats.powers_of("Germany") == ("Germany",)
    assert game.player("Germany", Phase(1904, 1)) == "Dieter Brandt"
    assert game.player("Germany") == "Sabine Kohl"
    assert game.player_names("Germany") == ["Dieter Brandt", "Sabine Kohl"]


def test_a_player_holds_two_powers_and_a_power_changes_hands_through_the_hook(tmp_path, variant):
    h = history_of(two_powers(tmp_path / "two"))
    seats = h.start_seating
    assert not seats.standard
    assert seats.powers_of("Alice") == ("England", "France")
    assert h.player("France", Phase(1901, 0)) == "Alice"
    spring = h.record(Phase(1901, 0))
    assert spring.control == (ControlChange("Italy", "Ida", "Alice", Phase(1901, 1), "Ida left the table"),)
    assert h.seating.controllers("Italy", Phase(1901, 0)) == ("Ida",)
    assert h.seating.controllers("Italy", Phase(1901, 1)) == ("Alice",)
    assert h.seating.powers_of("Alice") == ("England", "France", "Italy")
    assert h.player("Italy") == "Alice"
    assert h.player("Italy", Phase(1901, 0)) == "Ida"


def test_a_seat_sees_what_its_powers_knew_phase_by_phase(tmp_path, variant):
    h = history_of(two_powers(tmp_path / "two"))
    spring = h.record(Phase(1901, 0))
    alice = view_record(h, spring, "Alice")
    assert {u.power for u in alice.before.units} == {"England", "France"}  # Stab!: her own units only
    assert {r.power for r in alice.results} >= {"England", "France"}
    assert "Germany" not in {r.power for r in alice.results}
    ida = view_record(h, spring, "Ida")
    assert {u.power for u in ida.before.units} == {"Italy"}
    # Italy changed hands after Spring 1901: now Alice knows where Italy's units stand, Ida does not
    assert "Italy" in {u.power for u in game_view(h, "Alice").now.units}
    assert not game_view(h, "Ida").now.units
    # a power's own level is as it was
    assert {u.power for u in view_record(h, spring, "England").before.units} == {"England"}


def test_a_players_report_names_her_and_each_of_her_units_power(tmp_path, variant):
    folder = two_powers(tmp_path / "two")
    h = history_of(folder)
    report = phase_report(h, "Alice", h.records[-1].phase)
    assert report.splitlines()[0] == "Two powers: Spring 1901, for Alice"
    units_line = next(line for line in report.splitlines() if line.startswith("Your units:"))
    # the powers she controlled in Spring 1901; Italy became hers only after it
    assert units_line == ("Your units: England F Edi, England A Lvp, England F NTH, "
                          "France F Bre, France A Bur, France A Mar.")
    assert "Italy passes from Ida to Alice from Fall 1901: Ida left the table." in phase_report(h, "gm")
    cli = subprocess.run([sys.executable, "-c",
                          "import sys; sys.path.insert(0, 'tests'); from tests.test_seats import two_power_stab; "
                          "from dipgen.variants import VARIANTS; VARIANTS['two-power-stab'] = two_power_stab; "
                          "from dipgen.cli import main; sys.exit(main(sys.argv[1:]))",
                          "adjudicate", str(folder), "--player", "alice"], capture_output=True, text=True, cwd=ROOT)
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout == report


def test_passphrases_and_private_pages_are_per_seat(tmp_path, variant):
    folder = two_powers(tmp_path / "two")
    write_game(folder, {"secrets.yml": yaml.safe_dump({"page_key": "ab" * 32, "passphrases": PASS})})
    h = history_of(folder)
    keys = h.start_seating.keys()
    secrets = load_secrets(folder / "secrets.yml", keys)
    assert sorted(secrets.passphrases) == sorted(PASS)
    write_game(folder,
               {"secrets.yml": yaml.safe_dump({"page_key": "ab" * 32, "passphrases": {"England": PASS["Alice"]}})})
    with pytest.raises(GameError) as e:  # a power is not a seat of this game
        load_secrets(folder / "secrets.yml", keys)
    assert [p.code for p in e.value.problems] == ["unknown-power"]
    files = private_files(seat_pages(Loaded(h, secrets), SiteOptions()), game_view(h, "public"))
    uri = page_uri(secrets.page_key, h.info.slug, "Alice")
    assert uri in files
    assert page_uri(secrets.page_key, h.info.slug, "England") not in files
    assert len([f for f in files if f.startswith("private/")]) == len(PASS)
    envelope = json.loads(re.search(r'id="pp-payload">(.*?)</script>', files[uri], re.S).group(1))
    page = decrypt(envelope, PASS["Alice"]).decode()
    assert "Alice" in page
    assert "France A Bur" in page
    assert "Italy A " in page


def test_a_seats_private_page_does_not_depend_on_another_seats_hidden_facts(tmp_path, variant):
    """Bob's German fleet moves or holds, meeting nobody: Alice (England and France) must not be
    able to tell from her page."""
    a = history_of(two_powers(tmp_path / "a" / "two", german="F Kie - Den"))
    b = history_of(two_powers(tmp_path / "b" / "two", german="F Kie H"))
    uri = "private/x.html"
    assert private_content(game_view(a, "Alice"), uri) == private_content(game_view(b, "Alice"), uri)
    assert private_content(game_view(a, "Bob"), uri) != private_content(game_view(b, "Bob"), uri)  # it can fail


def test_a_player_may_not_bear_a_powers_name(tmp_path, variant):
    folder = two_powers(tmp_path / "two")
    data = yaml.safe_load((folder / "game.yml").read_text())
    data["players"] = {"France": ["England", "France"], **{k: v for k, v in PAIRS.items() if k != "Alice"}}
    write_game(folder, {"game.yml": yaml.safe_dump(data, sort_keys=False)})
    with pytest.raises(GameError) as e:
        load_game(folder)
    assert [p.code for p in e.value.problems] == ["bad-player"]
