"""The 2-player game with a Table of International Relations (variant ``tir``): the dice and
the diplomacy points, the validity of the five powers' orders, the players' own shifts, the
random choices, `dipgen check` on malformed points, and `dipgen verify` on the game's dice."""

from __future__ import annotations

import copy
import json
from itertools import pairwise
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from dipgen.usecases.games import replay_folder
from dipgen.present.drawfile import check, dumps
from dipgen.rules.draws import commitment
from dipgen.core.results import Kind
from dipgen.core.errors import GameError
from dipgen.core.orders import Convoy, Support, parse_order
from dipgen.core.phase import Phase
from dipgen.variants import get_variant
from dipgen.variants.tir.rules import ALLIED, FRIENDLY, HOSTILE, NEUTRAL, WAR, TirNote, shifted
from dipgen.view import game_view
from dipgen.io.yamlfile import Signed
from support import game_report, write_game


def document(history):
    from dipgen.present.drawfile import document as make
    from dipgen.usecases.games import Loaded
    from dipgen.usecases.publish import editions

    public, full = editions(Loaded(history))
    return make(full or public)

SEED = bytes(range(32))
TIR = get_variant("tir")


class Dice:
    """Draws with dice set by the test (a die not set rolls 4: two of them make 8, no shift)."""

    def __init__(self, **faces):
        self.faces = faces
        self._drawn = []

    def die(self, label, sides=6, secret=False):
        value = self.faces.get(label.replace("/", "_").replace("-", "_"), 4)
        self._drawn.append(value)
        return value

    @property
    def drawn(self):
        return tuple(self._drawn)


def write(folder: Path, phases: dict, seed: bytes = SEED, publish_seed: bool = False, **game) -> Path:
    data = {"title": "Two", "variant": "tir", "gm": "Grace", "players": {"France": "Alice", "Russia": "Boris"},
            "seed_sha256": commitment(seed), **game}
    secrets = {}
    if publish_seed:
        data["seed"] = seed.hex()
    else:
        secrets["secrets.yml"] = yaml.safe_dump({"seed": seed.hex()})
    return write_game(folder, {**secrets, "game.yml": yaml.safe_dump(data, sort_keys=False),
                               **{f"{slug}.yml": body for slug, body in phases.items()}})


def start(table: dict | None = None):
    """The opening position of a France v Russia game, with some markers set."""
    class G:
        start = 1901
        seating = TIR.files.read_seats({"France": "Alice", "Russia": "Boris"}, "game.yml", 1, [])
    pos = TIR.rules.initial_position(G())
    tir = dict(pos.economy["tir"])
    tir.update(table or {})
    return pos.with_(economy={**pos.economy, "tir": tir})


def order(text):
    return parse_order(TIR.rules.board, text)


# ------------------------------------------------------------------ the dice and the points
def test_the_seeds_worked_example_neutral_plus_8_plus_2_minus_1_is_friendly():
    assert shifted(NEUTRAL, 8 + 2 - 1) == FRIENDLY


@pytest.mark.parametrize("total, level, expected", [
    (-3, ALLIED, WAR), (2, ALLIED, WAR), (3, FRIENDLY, WAR), (4, NEUTRAL, HOSTILE), (5, WAR, WAR),
    (6, NEUTRAL, NEUTRAL), (8, HOSTILE, HOSTILE), (9, NEUTRAL, FRIENDLY), (10, ALLIED, ALLIED),
    (11, WAR, ALLIED), (16, HOSTILE, ALLIED)])
def test_each_band_of_the_shift_table(total, level, expected):
    assert shifted(level, total) == expected


def test_the_worked_example_through_the_phase_file_the_dice_and_the_points(tmp_path):
    pos = start()
    from dipgen.play.game import PhaseFile

    seating, problems = TIR.files.read_seats({"France": "Alice", "Russia": "Boris"}, "game.yml", 1, []), []
    dp = {"dp": {"France": {"France-Germany": Signed(2)}, "Russia": {"Germany-France": -1}}}
    extra = TIR.files.read_phase(Phase(1901, 0), dp, "1901-spring.yml", Phase(1901, 0), seating, problems)
    assert not problems
    pf = PhaseFile(Phase(1901, 0), tmp_path / "1901-spring.yml", {}, {}, extra=extra)
    after = TIR.rules.prepare(pos, pf, Dice(tir_France_Germany_1=5, tir_France_Germany_2=3))
    assert after.economy["tir"]["France-Germany"] == FRIENDLY
    roll = next(r for r in after.economy["turn"][1] if r.pair == "France-Germany")
    assert roll.dice == (5, 3)
    assert roll.points == (("France", 2), ("Russia", -1))
    assert roll.total == 9
    assert after.economy["tir"]["France-Russia"] == WAR  # the players' own: never rolled
    assert "France-Russia" not in {r.pair for r in after.economy["turn"][1]}


# ------------------------------------------------------------------ validity of the five's orders
def test_an_attack_is_valid_only_at_war_and_a_move_to_an_empty_foreign_centre_is_an_attack():
    pos = start()
    ger = next(u for u in pos.units if u.province == "mun")
    assert TIR.rules.valid(pos, pos.economy["tir"], ger, order("A Mun - Bur")) == (True, "")  # no one there, no centre
    ok, why = TIR.rules.valid(pos, pos.economy["tir"], ger, order("A Mun - Tyr"))
    assert ok  # Tyrolia: empty, not a centre
    war = start({"Austria-Germany": HOSTILE})
    ok, why = TIR.rules.valid(war, war.economy["tir"], ger, order("A Mun - Boh"))
    assert ok  # Bohemia is Austria's neighbour but no centre
    kie = next(u for u in pos.units if u.province == "kie")
    # Holland is neutral and unowned: no attack; Denmark likewise
    assert TIR.rules.valid(pos, pos.economy["tir"], kie, order("F Kie - Hol"))[0]
    # an empty centre owned by another power is an attack on it
    moved = pos.with_(units=tuple(u for u in pos.units if u.province != "war"))
    sil = next(u for u in pos.units if u.province == "ber")
    assert TIR.rules.attacked(moved, "Germany", "war") == ["Russia"]
    ok, why = TIR.rules.valid(moved, moved.economy["tir"], sil, order("A Ber - Pru"))
    assert ok
    atwar = moved.with_(economy={**moved.economy, "tir": {**moved.economy["tir"], "Germany-Russia": WAR}})
    assert TIR.rules.attacked(atwar, "Germany", "war") == ["Russia"]


def test_an_attack_on_an_occupied_space_needs_both_powers_at_war():
    pos = start()
    vie = next(u for u in pos.units if u.province == "vie")
    ok, why = TIR.rules.valid(pos, pos.economy["tir"], vie, order("A Vie - Tri"))
    assert ok  # its own unit: no attack
    pos = pos.with_(units=tuple(u if u.province != "tri" else u.__class__("Italy", "F", "tri", u.uid)
                                for u in pos.units))
    ok, why = TIR.rules.valid(pos, pos.economy["tir"], vie, order("A Vie - Tri"))
    assert not ok
    assert "Austria-Italy At War" in why
    assert "Neutral" in why
    war = start({"Austria-Italy": WAR}).with_(units=pos.units)
    assert TIR.rules.valid(war, war.economy["tir"], vie, order("A Vie - Tri"))[0]


def test_a_convoy_between_two_powers_needs_them_allied_and_not_against_an_ally():
    pos = start()
    units = [u for u in pos.units if u.province not in ("lon", "edi")]
    from dipgen.core.position import Unit

    units += [Unit("England", "F", "nth", 900), Unit("Germany", "A", "yor", 901)]
    base = pos.with_(units=tuple(units))
    fleet = next(u for u in base.units if u.province == "nth")
    convoy = order("F NTH C A Yor - Bel")
    assert isinstance(convoy, Convoy)
    assert "Allied" in TIR.rules.valid(base, base.economy["tir"], fleet, convoy)[1]
    allied = start({"England-Germany": ALLIED}).with_(units=base.units)
    assert TIR.rules.valid(allied, allied.economy["tir"], fleet, convoy)[0]
    # into Belgium held by France, England's ally: a convoy of an attack on an ally
    with_french = base.units + (Unit("France", "A", "bel", 903),)
    both = start({"England-Germany": ALLIED, "England-France": ALLIED}).with_(units=with_french)
    ok, why = TIR.rules.valid(both, both.economy["tir"], fleet, convoy)
    assert not ok
    assert "an attack on France, England's ally" in why
    # an English army convoyed by an English fleet involves one power only
    own = base.with_(units=tuple(u for u in base.units if u.province != "yor") + (Unit("England", "A", "yor", 902),))
    assert TIR.rules.valid(own, own.economy["tir"], fleet, convoy)[0]


def run_turn(pos, orders, dice=None):
    """Intake of one movement turn: orders as {writer: {power: [text...]}}."""
    from dipgen.core.orderline import OrderLine

    lines = {}
    for writer, by_power in orders.items():
        for power, texts in by_power.items():
            for t in texts:
                lines.setdefault(power, []).append(OrderLine(power, t, order(t), "f.yml", 1, writer))
    economy = {**pos.economy, "turn": (pos.economy["tir"], ())}
    return TIR.rules.intake(pos.with_(economy=economy), lines, dice or Dice())


def boh(table):
    """The opening with Austria's Vienna army in Bohemia (beside Munich and Tyrolia)."""
    from dipgen.core.position import Unit

    pos = start(table)
    return pos.with_(units=tuple(u for u in pos.units if u.province != "vie") + (Unit("Austria", "A", "boh", 970),))


def test_supports_find_their_objective_and_follow_rules_3_and_4():
    sup = order("A Boh S A Mun")
    # rule 3: a holding unit supported by a friendly power
    out = run_turn(boh({"Austria-Germany": FRIENDLY}),
                   {"France": {"Austria": ["A Boh S A Mun"], "Germany": ["A Mun H"]}})
    assert out.orders["Austria"] == [Support(sup.unit, sup.target, None)]
    # a neutral power's support: invalid, the unit holds, and the note says why
    out = run_turn(boh({}), {"France": {"Austria": ["A Boh S A Mun"]}})
    assert "Austria" not in out.orders
    (note,) = out.notes[("Austria", "boh")]
    assert note.reason is TirNote.INVALID
    assert "Friendly or Allied" in note.why
    # support of a move finds the move as its objective (not an attack: Tyrolia is empty): rule 3
    out = run_turn(boh({"Austria-Germany": FRIENDLY}),
                   {"France": {"Austria": ["A Boh S A Mun"], "Germany": ["A Mun - Tyr"]}})
    assert out.orders["Austria"] == [Support(sup.unit, sup.target, "tyr")]
    # ... which the supporter must reach: Bohemia does not reach Burgundy
    out = run_turn(boh({"Austria-Germany": FRIENDLY}),
                   {"France": {"Austria": ["A Boh S A Mun"], "Germany": ["A Mun - Bur"]}})
    assert "Austria" not in out.orders
    assert "cannot reach Burgundy" in out.notes[("Austria", "boh")][0].why
    # rule 4: an attack (on Italy's Venice army moving... on Italian-held Tyrolia) needs an ally, and
    # the attacked power hostile or at war with the supporter
    from dipgen.core.position import Unit

    def tyr(table):
        pos = boh(table)
        return pos.with_(units=pos.units + (Unit("Italy", "A", "tyr", 971),))
    orders = {"France": {"Germany": ["A Mun - Tyr"], "Austria": ["A Boh S A Mun"]}}
    base = {"Germany-Italy": WAR, "Austria-Germany": ALLIED, "Austria-Italy": HOSTILE}
    out = run_turn(tyr(base), orders)
    assert out.orders["Austria"] == [Support(sup.unit, sup.target, "tyr")]
    assert out.orders["Germany"] == [order("A Mun - Tyr")]
    out = run_turn(tyr({**base, "Austria-Germany": FRIENDLY}), orders)
    assert "Austria" not in out.orders
    assert "Allied" in out.notes[("Austria", "boh")][0].why
    out = run_turn(tyr({**base, "Austria-Italy": NEUTRAL}), orders)
    assert "Austria" not in out.orders
    assert "Hostile or At War" in out.notes[("Austria", "boh")][0].why


def test_two_conflicting_valid_orders_are_settled_by_a_die_and_equal_orders_are_not():
    pos = start()
    orders = {"France": {"Germany": ["A Mun - Bur"]}, "Russia": {"Germany": ["A Mun - Tyr"]}}
    low = run_turn(pos, orders, Dice(choice_Germany_mun=2))
    high = run_turn(pos, orders, Dice(choice_Germany_mun=5))
    assert low.orders["Germany"] == [order("A Mun - Bur")]
    assert high.orders["Germany"] == [order("A Mun - Tyr")]
    (note,) = high.notes[("Germany", "mun")]
    assert note.reason is TirNote.CHOSEN
    assert "draw 1 rolled 5 (1-3 France's, 4-6 Russia's), so Russia's" in note.why
    same = run_turn(pos, {"France": {"Germany": ["A Mun - Bur"]}, "Russia": {"Germany": ["A Mun-Bur"]}})
    assert ("Germany", "mun") not in same.notes
    assert same.report.choices[0].die is None
    # an invalid order is no conflict: the valid one counts, no die
    pos = start({"Austria-Germany": HOSTILE})
    pos = pos.with_(units=tuple(u for u in pos.units if u.province != "vie") +
                    (type(pos.units[0])("Austria", "A", "boh", 950),))
    one = run_turn(pos, {"France": {"Germany": ["A Mun - Boh"]}, "Russia": {"Germany": ["A Mun - Bur"]}})
    assert one.orders["Germany"] == [order("A Mun - Bur")]
    assert not one.report.choices[0].die


def test_a_players_attack_goes_to_war_and_her_support_of_an_attack_two_steps_after_the_check():
    pos = start({"France-Germany": ALLIED, "Germany-Russia": FRIENDLY})
    out = run_turn(pos, {"France": {"France": ["A Par - Bur", "F Bre - MAO", "A Mar S A Par - Bur"]},
                         "Russia": {"Russia": ["A War - Sil", "A Mos S A War - Sil", "F Sev - BLA"]}})
    assert out.economy["tir"]["France-Germany"] == ALLIED  # Burgundy: no centre, no unit
    pos = start({"France-Germany": ALLIED, "Germany-Russia": FRIENDLY, "Austria-Russia": FRIENDLY})
    out = run_turn(pos, {"France": {"France": ["A Par - Pic"]},
                         "Russia": {"Russia": ["A War - Gal", "A Mos - Sil"], "Germany": ["A Ber - Pru"]}})
    assert out.economy["tir"]["Austria-Russia"] == FRIENDLY
    # Russia's army into German-held Prussia? Prussia holds no centre; Berlin's army moves there:
    pos = start({"Germany-Russia": ALLIED})
    out = run_turn(pos, {"Russia": {"Russia": ["A War - Sil", "F StP/sc - Bot"]}, "France": {}})
    assert out.economy["tir"]["Germany-Russia"] == ALLIED
    from dipgen.core.position import Unit

    units = pos.units + (Unit("Russia", "A", "pru", 960),)
    pos = pos.with_(units=units)
    out = run_turn(pos, {"Russia": {"Russia": ["A Pru - Ber", "A War S A Pru - Ber"]}})
    assert out.economy["tir"]["Germany-Russia"] == WAR
    assert sorted(s.what for s in out.report.shifts) == ["attack", "support"]
    pos = start({"Germany-Russia": ALLIED}).with_(units=units)
    out = run_turn(pos, {"Russia": {"Russia": ["A War S A Pru - Ber"]}})
    assert out.economy["tir"]["Germany-Russia"] == NEUTRAL  # two steps toward war
    # the shift counts from the next turn: this turn's German orders were checked with Allied
    assert pos.economy["tir"]["Germany-Russia"] == ALLIED


# ------------------------------------------------------------------ dipgen check and the replay
SPRING = """orders:
  France:
    France: [A Par - Bur, F Bre - MAO, A Mar S A Par - Bur]
    Germany: [A Mun - Ruh, A Ber S A Mun, F Kie - Den]
  Russia:
    Russia: [A War - Gal, A Mos - Ukr, F Sev - BLA, F StP/sc - Bot]
    Germany: [A Mun - Bur, F Kie - Hol, A Ber S A Mun]
dp:
  France: {France-Germany: +2, England-Italy: -1}
  Russia: {France-Germany: -1}
"""


@pytest.mark.parametrize("dp, message", [
    ("France: {France-Germany: +3}", "at most 2"),
    ("France: {France-Germany: +2, England-Italy: +2, Austria-Turkey: -2, Germany-Italy: +2, Austria-Italy: +2, "
     "England-Turkey: +1}", "11 points: at most 10"),
    ("France: {France-Gremany: +1}", "not a relationship"),
    ("France: {France-Russia: +1}", "the players' own relationship"),
    ("Germany: {France-Germany: +1}", "not a player's power"),
    ("France: {France-Germany: lots}", "whole number"),
    ("France: {France-Germany: 2}", "2 points on France-Germany: say whether for or against, +2 or -2"),
])
def test_dipgen_check_catches_malformed_points_with_file_and_line(tmp_path, dp, message):
    folder = write(tmp_path / "g", {"1901-spring": f"orders:\n  France:\n    France: [A Par - Bur]\ndp:\n  {dp}\n"})
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    (p,) = e.value.problems
    assert message in p.message
    assert p.file.endswith("1901-spring.yml")
    assert p.line == 5


def test_dipgen_check_catches_orders_for_the_opponents_units(tmp_path):
    folder = write(tmp_path / "g", {"1901-spring": "orders:\n  France:\n    France: [A Par - Bur]\n"
                                                   "    Russia: [A War - Gal]\n"})
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    (p,) = e.value.problems
    assert p.line == 4
    assert p.code == "not-her-power"


def test_a_game_replays_with_its_dice_recorded_and_the_choices_said_on_the_results(tmp_path):
    folder = write(tmp_path / "g", {"1901-spring": SPRING})
    h = replay_folder(folder)
    rec = h.records[0]
    assert sum(d.label.startswith("1901-spring/tir/") for d in rec.draws) == 40  # two dice, 20 relationships
    assert rec.intake.after == rec.after.economy["tir"]
    chosen = [r for r in rec.results if any(n.kind is Kind.INTAKE and n.reason is TirNote.CHOSEN for n in r.notes)]
    assert {r.unit.province for r in chosen} == {"mun", "kie"}
    assert "chosen by die" in TIR.words.result_words(chosen[0])


@settings(max_examples=5, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_the_same_seed_gives_the_same_game_and_a_changed_seed_is_caught(tmp_path_factory, seed):
    folder = write(tmp_path_factory.mktemp("g") / "g", {"1901-spring": SPRING}, seed=seed, publish_seed=True,
                   end={"abandoned": "a test"})
    one, two = replay_folder(folder), replay_folder(folder)
    assert one.records[0].results == two.records[0].results
    assert one.records[0].draws == two.records[0].draws
    doc = json.loads(dumps(document(one)))
    assert check(doc, commitment(seed))[0] == []
    bad = copy.deepcopy(doc)
    bad["seed"] = bytes(32).hex() if seed != bytes(32) else bytes([1] * 32).hex()
    assert [f.label for f in check(bad, commitment(seed))[0]][:1] == ["seed"]
    tampered = copy.deepcopy(doc)
    tampered["phases"][-1]["key"] = "00" * 32
    assert check(tampered, commitment(seed))[0]


def test_retreats_and_builds_of_the_five_are_decided_by_a_die_between_suggestions():
    pos = start()
    from dipgen.core.orderline import OrderLine

    pos = pos.with_(phase=Phase(1901, 2))
    lines = {"Germany": [OrderLine("Germany", "Build A Kie", order("Build A Kie"), "f", 1, "France"),
                         OrderLine("Germany", "Build F Kie", order("Build F Kie"), "f", 2, "Russia")],
             "France": [OrderLine("France", "Build A Par", order("Build A Par"), "f", 3, "France")]}
    low = TIR.rules.intake(pos, lines, Dice(suggestion_Germany=1))
    high = TIR.rules.intake(pos, lines, Dice(suggestion_Germany=6))
    assert low.orders["Germany"] == [order("Build A Kie")]
    assert high.orders["Germany"] == [order("Build F Kie")]
    assert low.orders["France"] == [order("Build A Par")]
    only = TIR.rules.intake(pos, {"Germany": lines["Germany"][:1]}, Dice())
    assert only.orders["Germany"] == [order("Build A Kie")]
    assert not only.report.choices[0].die


def test_a_player_wins_when_her_opponent_has_no_unit_and_no_home_centre():
    pos = start()
    owners = {c: ("France" if p == "Russia" else p) for c, p in pos.owners.items()}

    class R:
        phase = Phase(1905, 0)
        after = pos.with_(units=tuple(u for u in pos.units if u.power != "Russia"), owners=owners)
    assert TIR.rules.winner_after(R) == "France"
    R.after = pos.with_(units=tuple(u for u in pos.units if u.power != "Russia"))
    assert TIR.rules.winner_after(R) is None  # Russia still owns home centres it may build on


def test_the_example_game_is_finished_and_shows_every_shift_and_a_random_choice():
    h = replay_folder(Path(__file__).resolve().parent.parent / "games" / "two-crowns")
    assert h.finished
    assert h.result.kind == "solo"
    assert h.result.powers == ("France",)  # by elimination
    assert not h.position.units_of("Russia", TIR.rules.unit_kinds)
    assert not [c for c in TIR.rules.home_centres("Russia") if h.position.owners.get(c) == "Russia"]
    reports = [(r.kind, r.intake) for r in h.records if r.intake is not None]
    moved = set()  # every band of the dice, each seen moving a marker (6-8: leaving it)
    for _, rep in reports:
        for r in rep.rolls:
            total = max(2, min(12, r.total))
            band = ("war" if total <= 3 else "down" if total <= 5 else "none" if total <= 8 else
                    "up" if total <= 10 else "allied")
            if (r.after != r.before) == (band != "none") and (band != "war" or r.before > HOSTILE) and \
                    (band != "allied" or r.before < FRIENDLY):
                moved.add(band)
    assert moved == {"war", "down", "none", "up", "allied"}
    shifts = [s for _, rep in reports for s in rep.shifts]
    assert any(s.what == "attack" and s.before > WAR and s.after == WAR for s in shifts)
    assert any(s.what in ("support", "convoy") and s.after == s.before - 2 for s in shifts)
    assert any(c.die and all(x.valid for x in c.candidates) for k, rep in reports if k == "movement"
               for c in rep.choices)
    assert any(not x.valid for _, rep in reports for c in rep.choices for x in c.candidates)
    assert any(c.die for k, rep in reports if k == "retreats" for c in rep.choices)
    assert any(c.die and "Build" in c.chosen for k, rep in reports if k == "adjustments" for c in rep.choices)


def test_the_five_powers_unordered_are_no_nmr_but_a_silent_player_is(tmp_path):

    silent = SPRING.replace("    Russia: [A War - Gal, A Mos - Ukr, F Sev - BLA, F StP/sc - Bot]\n", "")
    h = replay_folder(write(tmp_path / "g", {"1901-spring": silent}))
    rec = h.records[0]
    assert rec.nmr == ("Russia",)  # Austria, England, Italy, Turkey: nobody ordered them, they hold
    assert all(r.order_text(TIR.rules.board).endswith(" H") for r in rec.results_of("Turkey"))
    text = game_report(h, rec.phase)
    assert text.count("NMR") == 1
    assert "Russia (Boris):  no orders received (NMR)" in text


def test_one_invalid_order_is_noted_with_why_and_the_other_carried_out_and_both_invalid_hold():
    pos = start({"Austria-Germany": HOSTILE})
    pos = pos.with_(units=tuple(u for u in pos.units if u.province != "vie") +
                    (type(pos.units[0])("Austria", "A", "boh", 950),))
    one = run_turn(pos, {"France": {"Germany": ["A Mun - Boh"]}, "Russia": {"Germany": ["A Mun - Bur"]}})
    (note,) = one.notes[("Germany", "mun")]
    assert note.reason is TirNote.OVERRULED
    assert TIR.words.result_vocabulary[note.reason] == "one order invalid"
    assert note.why == ("France's A Mun - Boh is invalid: an attack on Austria needs Austria-Germany At War "
                        "(it is Hostile); Russia's order is carried out")
    both = run_turn(pos, {"France": {"Germany": ["A Mun - Boh"]}, "Russia": {"Germany": ["A Mun - Boh"]}})
    (note,) = both.notes[("Germany", "mun")]
    assert note.reason is TirNote.INVALID
    assert "Germany" not in both.orders
    assert note.why.startswith("no valid order under the TIR (France's A Mun - Boh is invalid: an attack on Austria")
    assert "Russia's A Mun - Boh is invalid" in note.why
    assert note.why.endswith("; the unit holds")


def test_the_report_names_the_players_and_shows_the_table_before_and_after_with_dice_points_and_why(tmp_path):
    from dipgen.variants.tir.rules import OwnShift
    from dipgen.variants.tir.words import shift_text

    h = replay_folder(write(tmp_path / "g", {"1901-spring": SPRING}))
    rec = h.records[0]
    text = game_report(h, rec.phase)
    germany = text[text.index("Germany:"):].splitlines()
    assert germany[1].split() == ["France", "(Alice)", "Russia", "(Boris)", "carried", "out"]
    assert "points from France (Alice) and Russia (Boris):" in text
    roll = next(r for r in rec.intake.rolls if r.pair == "France-Germany")
    row = next(line for line in text.splitlines() if line[4:].startswith("France-Germany "))
    after = rec.intake.after["France-Germany"]
    changed = "*" if after != NEUTRAL else " "
    assert row.split() == [*changed.split(), "France-Germany", "Neutral", str(roll.dice[0]), "+", str(roll.dice[1]),
                           "+2", "-1", str(roll.total), *TIR_LEVEL_WORDS[after], "total", f"{roll.total}:",
                           *band_words(roll.total)]
    assert "France-Russia    At War" in text
    assert "the players' own: At War for the whole game" in text
    shift = OwnShift("Russia", "Russia-Turkey", "F BLA S A Ser - Bul", "support", FRIENDLY, WAR + 1)
    assert shift_text(shift) == "Russia's F BLA S A Ser - Bul supports an attack on Turkey: Hostile"


TIR_LEVEL_WORDS = {WAR: ["At", "War"], HOSTILE: ["Hostile"], NEUTRAL: ["Neutral"], FRIENDLY: ["Friendly"],
                   ALLIED: ["Allied"]}


def band_words(total):
    total = max(2, min(12, total))
    return ("to At War" if total <= 3 else "one step toward war" if total <= 5 else "no change" if total <= 8
            else "one step toward alliance" if total <= 10 else "to Allied").split()


def test_the_chart_is_one_narrow_band_per_relationship_and_the_victory_is_by_elimination(tmp_path):
    import re

    from dipgen.variants.tir.words import chart_svg

    fall = "orders:\n  France: {}\n  Russia: {}\ndp:\n  France: {France-Germany: -2}\n"  # every unit holds
    h = replay_folder(write(tmp_path / "g", {"1901-spring": SPRING, "1901-fall": fall}))
    svg = chart_svg(TIR.rules, game_view(h, "public").records)
    width = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
    assert width <= 440
    assert "max-width:560px" in svg  # it shrinks to a phone's width and reads there
    labels = re.findall(r'font-size="13">([A-Za-z-]+)</text>', svg)
    assert len(labels) == 20
    assert "France-Russia" not in labels  # the players' own is said in words
    assert "France-Russia, the players' own, is At War throughout" in svg
    germany = [t for t in re.findall(r"<title>([^<]+)</title>", svg) if t.startswith("France-Germany:")]
    levels = [NEUTRAL] + [r.intake.after["France-Germany"] for r in h.records]
    runs = 1 + sum(a != b for a, b in pairwise(levels))
    assert len(germany) == runs  # one rectangle per run of turns at one level
    assert "1901" in svg
    assert "no unit left" in TIR.words.victory_text()
    assert "centres win outright" not in TIR.words.victory_text()


def test_a_build_both_players_suggested_stands_on_one_row_with_the_build_carried_out():
    from dipgen.core.phase import Phase

    h = replay_folder(Path(__file__).resolve().parent.parent / "games" / "two-crowns")
    text = game_report(h, Phase(1901, 2))
    germany = text[text.index("\nGermany:"):].split("\n\n")[0].splitlines()
    assert [line.split() for line in germany[3:]] == [["Build", "A", "Ber"] * 3, ["Build", "A", "Kie"] * 3]
    assert "not carried out" not in text


def test_who_owes_orders_is_read_from_the_game_not_remembered_by_the_variant():
    """One variant object serves every TIR game of a site: the players of one game must not
    decide who owes orders in another (they are in the position, not on the variant)."""
    class Other:
        start = 1901
        seating = TIR.files.read_seats({"England": "Cleo", "Turkey": "Dan"}, "game.yml", 1, [])
    france_russia = start()
    england_turkey = TIR.rules.initial_position(Other())  # a second game set up after the first
    assert TIR.rules.must_order("France", france_russia)
    assert not TIR.rules.must_order("England", france_russia)
    assert TIR.rules.must_order("England", england_turkey)
    assert not TIR.rules.must_order("France", england_turkey)


def test_a_support_a_die_chose_that_then_fails_its_objective_is_said_once(tmp_path):
    """Both supports are valid as written; the die picks France's, whose objective (Budapest moves to
    Serbia) Vienna cannot reach, so the unit holds: one note says that, in one sentence (it said both
    'both are valid' and 'no valid order')."""
    spring = ("orders:\n  France:\n    France: [A Par H]\n    Austria: [A Vie S A Bud, A Bud - Ser]\n"
              "  Russia:\n    Russia: [A War H]\n    Austria: [A Vie S F Tri, A Bud - Ser]\n")
    h = replay_folder(write(tmp_path / "g", {"1901-spring": spring}, seed=bytes(32)))
    (c,) = [c for c in h.records[0].intake.choices if c.where == "vie"]
    assert (c.die, c.by, c.chosen) == (2, "France", "")  # this seed's die: France's support, which then fails
    (r,) = [r for r in h.records[0].results_of("Austria") if r.unit.province == "vie"]
    (note,) = r.notes
    assert TIR.words.result_words(r) == ("invalid under the TIR",)
    assert note.why == ("France's A Vie S A Bud and Russia's A Vie S F Tri are both valid as written: draw 41 rolled 2 "
                        "(1-3 France's, 4-6 Russia's), so France's, which then fails under the TIR (it cannot reach "
                        "Serbia, where the supported unit moves); the unit holds")
    view = game_view(h, "public")
    page = TIR.words.season_section(view, view.records[0])
    assert ("draw 41 rolled 2 (1-3 France&#x27;s, 4-6 Russia&#x27;s): France's, which then fails; holds (it cannot "
            "reach Serbia, where the supported unit moves)</li>") in page


def test_points_must_carry_their_sign_and_zero_needs_none(tmp_path):
    """The seed: "The type of allocation (positive or negative must be specified)": 2 is neither;
    +2 and -1 are read as written, and 0 (nothing allotted) needs no sign."""
    body = ("orders:\n  France:\n    France: [A Par - Bur]\n"
            "dp:\n  France: {France-Germany: %s, England-Italy: -1, Austria-Italy: 0}\n")
    folder = write(tmp_path / "bad", {"1901-spring": body % "2"})
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    (p,) = e.value.problems
    assert p.line == 5
    assert p.code == "bad-points"
    assert p.hint == "e.g. France-Germany: +2"
    h = replay_folder(write(tmp_path / "ok", {"1901-spring": body % "+2"}))
    (roll,) = [r for r in h.records[0].intake.rolls if r.pair == "France-Germany"]
    assert dict(roll.points)["France"] == 2
