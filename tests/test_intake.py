"""The intake step (`Rules.intake`): orders keyed by who wrote them, merged by the variant's
rule, with typed notes on the results; and the draws a phase makes, recorded in its record.

The variant here is made up for the test: every power has two captains, `Ann` and `Ben`, who
each send orders for it; a unit whose two orders differ gets one of them by a draw from the
game's seed, and the result says so.
"""

from __future__ import annotations

import enum
from pathlib import Path

import pytest
import yaml

from dipgen.usecases.games import replay_folder
from dipgen.rules.draws import commitment
from dipgen.core.results import Kind, Note
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.rules.intake import Intake
from dipgen.rules.seats import Seat, Seating
from dipgen.variants import VARIANTS
from dipgen.rules.variant import Files, Rules, Variant, Words
from support import write_game

SEED = bytes(range(32))


class Picked(enum.Enum):
    BY_DRAW = "chosen by draw"


class TwoCaptainsRules(Rules):
    makes_draws = True

    def intake(self, position, lines, draws=None):
        orders, notes = {}, {}
        for power, ls in lines.items():
            by_unit: dict[str, dict[str, object]] = {}
            for ol in ls:
                by_unit.setdefault(ol.order.unit.province, {})[ol.writer] = ol.order
            for prov, given in sorted(by_unit.items()):
                choices = list(dict.fromkeys(given.values()))
                if len(choices) > 1:
                    order = draws.choice(f"{power}/{prov}", choices)
                    notes[(power, prov)] = (Note(Kind.INTAKE, Picked.BY_DRAW, why="the captains disagreed"),)
                else:
                    order = choices[0]
                orders.setdefault(power, []).append(order)
        return Intake(orders, notes)


class TwoCaptainsFiles(Files):
    order_form = "power/writer"

    def read_seats(self, raw, file, line, problems):
        seats = (Seat("Ann", (("Ann", None),)), Seat("Ben", (("Ben", None),)))
        return Seating(seats, {p: ("Ann", "Ben") for p in self.rules.powers()})


class TwoCaptainsWords(Words):
    result_vocabulary = {**Words.result_vocabulary, Picked.BY_DRAW: "drawn"}


def two_captains() -> Variant:
    return Variant.of("two-captains", TwoCaptainsRules(), files=TwoCaptainsFiles, words=TwoCaptainsWords)


@pytest.fixture
def variant(monkeypatch):
    monkeypatch.setitem(VARIANTS, "two-captains", two_captains)


def write(folder: Path, orders: dict, seed: bytes | None = SEED) -> Path:
    game = {"title": "Two captains", "variant": "two-captains", "gm": "Grace", "players": ["Ann", "Ben"]}
    secrets = {}
    if seed is not None:
        game["seed_sha256"] = commitment(seed)
        secrets["secrets.yml"] = yaml.safe_dump({"seed": seed.hex()})
    return write_game(folder, {**secrets, "game.yml": yaml.safe_dump(game, sort_keys=False),
                               "1901-spring.yml": yaml.safe_dump({"orders": orders}, sort_keys=False)})


def test_orders_per_writer_are_merged_by_the_variant_and_the_draw_recorded(tmp_path, variant):
    folder = write(tmp_path / "g", {"France": {"Ann": ["A Par - Bur", "F Bre - MAO"],
                                               "Ben": ["A Par - Pic", "F Bre - MAO"]},
                                    "England": {"ben": ["F Lon - NTH"]}})
    h = replay_folder(folder)
    rec = h.records[0]
    assert {ol.writer for ol in rec.orders["France"]} == {"Ann", "Ben"}  # both kept, as written
    assert [d.label for d in rec.draws] == ["1901-spring/France/par"]  # one disagreement, one draw
    par = next(r for r in rec.results if r.unit is not None and r.unit.province == "par")
    assert any(n.kind is Kind.INTAKE and n.reason is Picked.BY_DRAW for n in par.notes)
    assert "drawn" in h.variant.words.result_words(par)
    again = replay_folder(folder).records[0]  # the replay is deterministic
    assert again.results == rec.results
    assert again.draws == rec.draws


def test_an_unknown_writer_is_an_error_with_its_line_and_a_suggestion(tmp_path, variant):
    folder = write(tmp_path / "g", {"France": {"Anne": ["A Par - Bur"]}})
    with pytest.raises(GameError) as e:
        load_game(folder)
    (p,) = e.value.problems
    assert p.line == 3
    assert p.code == "unknown-writer"
    assert "'Anne' under France is not a player" in p.message  # the words, tested here once
    assert "Ann" in p.message + p.hint


def test_one_writer_ordering_a_unit_twice_is_an_error_two_writers_are_not(tmp_path, variant):
    folder = write(tmp_path / "g", {"France": {"Ann": ["A Par - Bur", "A Par - Pic"]}})
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    assert [p.code for p in e.value.problems] == ["second-order"]


def test_a_variant_that_draws_needs_the_seed(tmp_path, variant):
    folder = write(tmp_path / "g", {"France": {"Ann": ["A Par - Bur"], "Ben": ["A Par - Pic"]}}, seed=None)
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    assert [p.code for p in e.value.problems] == ["no-seed"]
    assert "makes random draws" in e.value.problems[0].message  # the words, tested here once
