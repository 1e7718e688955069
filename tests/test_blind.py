"""Blind Diplomacy: spies (start, moves, counter-espionage, loss and replacement), what fighting
and spying reveal to each power, and what the public sees (nothing but totals and NMRs)."""

from pathlib import Path

import pytest

from dipgen.core.errors import GameError
from dipgen.core.results import Kind
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.core.phase import Phase
from dipgen.core.position import Position, Unit
from dipgen.variants import get_variant
from dipgen.view import game_view
from dipgen.view.seen import seen_record as view_record
from support import game_report, load, report, write_game
from support.codes import codes

BLIND = get_variant("blind")
GAME = ("title: In the Dark\nvariant: blind\ngm: Grace\n"
        "players: {Austria: A, England: B, France: C, Germany: D, Italy: E, Russia: F, Turkey: G}\n")


def game(tmp_path: Path, phases: dict[str, str]) -> Path:
    return write_game(tmp_path / "dark", {"game.yml": GAME, **{f"{name}.yml": text for name, text in phases.items()}})


def spies(position, power):
    return sorted(p.loc for p in position.units if p.power == power and p.kind == "S")


def test_two_spies_each_in_home_centres(tmp_path):
    h = replay(load_game(game(tmp_path, {})))
    assert spies(h.position, "England") == ["edi", "lon"]
    assert spies(h.position, "Russia") == ["mos", "war"]  # the capital, then the next home centre
    h = replay(load_game(game(tmp_path / "b",
                              {"1901-spring": "spies:\n  England: [Lvp, Edi]\norders: {England: []}\n"})))
    assert spies(h.records[0].before, "England") == ["edi", "lvp"]


def test_spies_must_start_in_home_centres(tmp_path):
    with pytest.raises(GameError) as e:
        replay(load_game(game(tmp_path, {"1901-spring": "spies:\n  England: [Lvp, Yor]\norders: {England: []}\n"})))
    assert [(p.code, p.line) for p in e.value.problems] == [("bad-spies", 2)]
    assert "Yorkshire is not a home centre of England" in e.value.problems[0].message  # the words, tested here once


def test_spies_move_through_anything_and_counter_espionage_kills_enemies(tmp_path):
    h = replay(load_game(game(tmp_path, {
        "1901-spring": "spies: {France: [Par, Mar], Germany: [Mun, Ber], Italy: [Rom, Ven]}\n"
                       "orders:\n"
                       "  France: [S Par - Bur, S Mar H]\n"
                       "  Germany: [S Mun - Bur, S Ber - Kie]\n"
                       "  Italy: [S Rom - Tus, S Ven - Pie]\n",
        "1901-fall": "orders:\n"
                     "  France: [S Bur CE, S Mar - Pie]\n"
                     "  Germany: [S Bur CE]\n"
                     "  Italy: [S Pie CE, S Tus - Pie]\n",
        "1901-fall-retreats": "orders: {}\n",  # nobody retreats: the file closes the Fall
    })))
    spring, fall, closing = h.records
    assert spies(spring.after, "France") == ["bur", "mar"]
    assert spies(spring.after, "Germany") == ["bur", "kie"]
    # two enemies hunting in Burgundy kill each other; Italy's hunter in Piedmont kills the French spy
    # arriving there and spares its own; at the end of the year (the Fall closed) the dead are
    # replaced in the capitals
    assert spies(fall.after, "Italy") == ["pie", "pie"]
    assert spies(fall.after, "Germany") == ["kie"]
    assert spies(fall.after, "France") == []
    assert spies(closing.after, "Germany") == ["ber", "kie"]
    assert spies(closing.after, "France") == ["par", "par"]
    killed = [r for r in fall.results if r.has(Kind.DESTROYED)]
    assert {(r.power, r.unit.loc) for r in killed} == {("France", "bur"), ("Germany", "bur"), ("France", "mar")}


def test_spies_lost_with_the_capital_and_replaced_each_year(tmp_path):
    b = BLIND
    owners = {p.id: p.home for p in b.rules.board.provinces.values() if p.home}
    pos = Position(Phase(1902, 2), (Unit("France", "S", "par"),), dict(owners))
    assert b.rules.spies_due("France", owners) == 2
    assert spies(b.rules.after_fall(pos), "France") == ["par", "par"]  # the lost spy is replaced in Paris
    owners2 = dict(owners, par="Germany")
    assert b.rules.spies_due("France", owners2) == 1
    assert b.rules.spies_due("Germany", owners2) == 3
    pos2 = Position(Phase(1902, 2), (Unit("France", "S", "bre"), Unit("France", "S", "mos")), owners2)
    assert spies(b.rules.after_fall(pos2), "France") == ["bre"]  # the one far from home goes
    owners3 = {c: ("Germany" if p == "France" else p) for c, p in owners.items()}
    assert b.rules.spies_due("France", owners3) == 0


@pytest.fixture
def battle(tmp_path):
    return replay(load_game(game(tmp_path, {
        "1901-spring": "orders:\n"
                       "  Germany: [A Mun - Bur, F Kie - Den, A Ber - Kie]\n"
                       "  France: [A Par - Pic, F Bre - MAO, A Mar S A Par - Bur, S Par - Bur]\n"
                       "  Italy: [A Ven - Tyr, F Nap - ION]\n"
                       "  Austria: [A Vie - Tyr, S Vie - Tyr]\n",
    })))


def test_fighting_reveals_units_to_the_powers_involved(battle):
    spring = battle.records[0]
    germany = view_record(battle, spring, "Germany")
    italy = view_record(battle, spring, "Italy")
    austria = view_record(battle, spring, "Austria")
    # Germany moved into an empty Burgundy alone: it meets nobody, and learns nothing of France
    assert all(u.power == "Germany" for u in germany.before.units)
    # Italy and Austria both tried for Tyrolia: each sees the other's move and its result
    assert Unit("Austria", "A", "vie") in italy.before.units
    assert any(r.power == "Austria" and r.unit.loc == "vie" for r in italy.results)
    assert Unit("Italy", "A", "ven") in austria.before.units
    # but not the rest of the board
    assert Unit("Italy", "F", "nap") not in austria.before.units


def test_a_spy_reports_the_unit_in_its_province(battle):
    spring = battle.records[0]
    france = view_record(battle, spring, "France")
    # France's spy went to Burgundy, where Germany's army arrived: France sees it there afterwards
    assert Unit("Germany", "A", "bur") in france.after.units
    # and Austria's spy in Vienna saw the unit there and its order
    austria = view_record(battle, spring, "Austria")
    assert any(r.power == "Austria" and r.unit.loc == "vie" for r in austria.results)


def test_the_public_sees_only_totals_and_nmrs(battle):
    spring = battle.records[0]
    public = view_record(battle, spring, "public")
    assert public.results == ()
    assert public.before.units == ()
    assert public.after.units == ()
    assert set(public.nmr) == {"England", "Russia", "Turkey"}
    now = game_view(battle, "public").now
    assert now.units == ()
    assert now.owners == {}
    assert now.totals["France"] == 3
    text = game_report(battle, spring.phase)
    assert "A Mun" not in text
    assert "S Par" not in text
    assert "no orders received (NMR)" in text


def test_private_report_lists_spies(battle):
    text = report(battle, "France", battle.records[0].phase)
    assert "S Par - Bur" in text
    assert "A Par - Pic" in text
    assert "F Kie" not in text


def test_spy_orders_are_checked(tmp_path):
    """An order for a spy that is not there is the player's misorder (void, a warning); more orders
    than spies is the GM's to settle."""
    h = replay(load_game(game(tmp_path, {"1901-spring": "orders:\n  France: [S Bur - Par, S Par - Pic]\n"})))
    (w,) = h.warnings
    assert w.code == "no-unit"
    assert w.subject == "S Bur - Par"
    assert w.line == 2
    (void,) = [r for r in h.records[0].results if r.power == "France" and r.unit is None]
    assert void.has(Kind.ILLEGAL)
    assert ("France", "S", "pic") in {(u.power, u.kind, u.province) for u in h.records[0].after.units}
    with pytest.raises(GameError) as e:
        replay(load_game(game(tmp_path / "b",
                              {"1901-spring": "orders:\n  France: [S Par - Bur, S Par H, S Par CE]\n"})))
    assert [p.code for p in e.value.problems] == ["too-many-orders"] * 2  # one for each order past the one spy
    assert "more orders than spies: France has 1 spy in Paris" in e.value.problems[0].message  # its words, once


def test_a_spy_cannot_tell_a_void_support_from_one_of_a_missing_unit(tmp_path):
    """Germany's spy in Tyrolia watches Austria's army support F Alb - Tri. Whether a fleet stands
    in Albania (and so whether the support was void, or named a unit not there) is Austria's
    secret: Germany reads the order as written and nothing of the fleet, alike in both games
    (found by the non-interference property test: blind/vacate/124396)."""
    seen, told = {}, {}
    for fleet_to in ("Alb", "Adr"):
        h = replay(load_game(game(tmp_path / fleet_to, {
            "1901-spring": f"orders:\n  Austria: [A Vie - Tyr, F Tri - {fleet_to}]\n  Germany: [S Mun - Tyr]\n",
            "1901-fall": "orders:\n  Austria: [A Tyr S F Alb - Tri]\n  Germany: [S Tyr H]\n",
        })))
        fall = h.records[1].phase
        seen[fleet_to], told[fleet_to] = report(h, "Germany", fall), report(h, "Austria", fall)
    assert seen["Alb"] == seen["Adr"]
    assert "A Tyr S F Alb - Tri" in seen["Alb"]
    assert "void" not in seen["Alb"]
    # the army's owner is told what became of it, and why
    assert "the supported unit did not do that" in told["Alb"]
    assert "there is no unit in Albania to support" in told["Adr"]


# ---------------------------------------------------------------------------- closing the Fall

#: France attacks Germany's army in Burgundy in Fall 1901, with a support (it is dislodged and owes
#: a retreat) or without (it stands)
DISLODGING = {
    "1901-spring": "orders:\n  Germany: [A Mun - Bur, F Kie - Den, A Ber - Kie]\n"
                   "  France: [A Par - Pic, A Mar - Gas]\n",
    "1901-fall": "orders:\n  Germany: [A Bur H, F Den H]\n  France: [A Pic - Bur, A Gas S A Pic - Bur]\n",
}
STANDING = {**DISLODGING, "1901-fall": "orders:\n  Germany: [A Bur H, F Den H]\n  France: [A Pic - Bur, A Gas H]\n"}
UNINVOLVED = ("Austria", "England", "Italy", "Russia", "Turkey")


def _pair_of_falls(tmp_path, closed: bool):
    """The two games after the Fall file (`closed`: and after the file that closes the Fall: the
    German retreat in one, an empty retreats file in the other)."""
    from support.pairs import SLUG

    a = {**DISLODGING, **({"1901-fall-retreats": "orders: {Germany: [A Bur - Ruh]}\n"} if closed else {})}
    b = {**STANDING, **({"1901-fall-retreats": "orders: {}\n"} if closed else {})}
    return (load(write_game(tmp_path / "a" / SLUG, {"game.yml": GAME, **{f"{k}.yml": v for k, v in a.items()}})),
            load(write_game(tmp_path / "b" / SLUG, {"game.yml": GAME, **{f"{k}.yml": v for k, v in b.items()}})))


@pytest.mark.parametrize("closed", [False, True], ids=["fall-file", "closed"])
def test_an_uninvolved_player_is_told_the_same_whether_a_retreat_is_owed_or_not(tmp_path, closed):
    """Issue 32, 3.1: while Germany's dislodged army owes its retreat, the other players' Fall
    reports, pages and `adjudicate --power all --out` files are those of the game in which nobody
    was dislodged; each game waits for its Fall's retreats file, and the centres are told to
    everyone once it is in."""
    from support.pairs import constant_links, published

    with constant_links():
        a, b = _pair_of_falls(tmp_path, closed)
        assert a.next_phase == b.next_phase == (Phase(1901, 2) if closed else Phase(1901, 1, True))
        pa, pb = published(a), published(b)
    for seat in UNINVOLVED:
        mine = {k: v for k, v in pa.items()
                if k == f"private/{seat}" or k.startswith((f"private/{seat}/", f"mail/{seat}/"))}
        assert len(mine) >= 4
        assert mine == {k: pb[k] for k in mine}  # her page, reports and mail
        told = pa[f"private/{seat}/report"]
        assert ("Your supply centres:" in told) is closed
    assert {k: v for k, v in pa.items() if not k.startswith(("private/", "mail/"))} == \
        {k: v for k, v in pb.items() if not k.startswith(("private/", "mail/"))}
    if closed:
        assert "Your supply centres: Edi, Lon, Lvp." in pa["private/England/report"]
        assert "Next: Winter 1901 adjustments.\n  Germany builds 1" in report(a, "Germany")


def test_a_fall_nobody_retreats_in_waits_for_its_empty_retreats_file(tmp_path):
    """The game master is told what to write: the game waits for Fall 1901 retreats, nobody
    retreats, and an empty retreats file (``orders: {}``) closes the year."""
    _, standing = _pair_of_falls(tmp_path, closed=False)
    assert standing.next_phase == Phase(1901, 1, True)
    assert not standing.position.dislodged
    gm = report(standing, "gm")
    assert "Next: Fall 1901 retreats." in gm
    assert "1901-fall-retreats.yml" in gm
    assert "orders: {}" in gm
    assert "Germany builds" not in report(standing, "Germany")  # her Winter is told once the Fall is closed


def test_a_winter_written_without_the_file_that_closes_the_fall_is_refused(tmp_path):
    """`dipgen check` names the file the game master must write first, and what to put in it."""
    files = {"game.yml": GAME, **{f"{k}.yml": v for k, v in STANDING.items()},
             "1901-winter.yml": "orders: {Germany: [Build A Ber]}\n"}
    with pytest.raises(GameError) as e:
        load(write_game(tmp_path / "dark", files))
    (problem,) = e.value.problems
    assert problem.code == "fall-not-closed"
    assert problem.file.endswith("1901-fall-retreats.yml")
    assert "orders: {}" in problem.hint


def test_a_game_begun_before_the_closing_files_is_told_every_one_it_lacks_at_once(tmp_path):
    """A running game from before this rule (closed-shutters without its two closing files): each
    missing file is named, not only the first."""
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "games" / "closed-shutters"
    files = {p.name: p.read_bytes() for p in example.glob("*.yml")
             if p.name not in ("1901-fall-retreats.yml", "1903-fall-retreats.yml")}
    with pytest.raises(GameError) as e:
        load(write_game(tmp_path / "closed-shutters", files))
    assert sorted((p.code, Path(p.file).name) for p in e.value.problems) == [
        ("fall-not-closed", "1901-fall-retreats.yml"), ("fall-not-closed", "1903-fall-retreats.yml")]


def test_an_empty_retreats_file_is_refused_where_someone_must_retreat(tmp_path):
    """`orders: {}` closes a Fall nobody retreats in; where a unit must retreat it is taken for a
    mistake, as an empty movement file is (write `Germany: []` for a retreat not sent)."""
    files = {"game.yml": GAME, **{f"{k}.yml": v for k, v in DISLODGING.items()},
             "1901-fall-retreats.yml": "orders: {}\n"}
    with pytest.raises(GameError) as e:
        load(write_game(tmp_path / "dark", files))
    assert [p.code for p in e.value.problems] == ["no-orders"]
    assert "Germany" in e.value.problems[0].message  # the power without orders, by name


def test_adjudicate_all_after_the_closing_file_says_which_phase_to_write(tmp_path, capsys):
    """`dipgen adjudicate --power all --out` after the empty file: nobody's view has that phase, and
    the command names the Fall, whose reports now give every player her centres."""
    from dipgen.cli import main

    game_dir = write_game(tmp_path / "dark", {"game.yml": GAME, **{f"{k}.yml": v for k, v in STANDING.items()},
                                              "1901-fall-retreats.yml": "orders: {}\n"})
    assert main(["adjudicate", str(game_dir), "--power", "all", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert codes(err) == ["unknown-phase"]
    assert "--phase 1901-fall" in err  # the phase to write instead
    assert not (tmp_path / "out").exists()
    assert main(["adjudicate", str(game_dir), "--power", "all", "--out", str(tmp_path / "out"),
                 "--phase", "1901-fall"]) == 0
    england = next((tmp_path / "out").glob("1901-fall.England*.txt")).read_text()
    assert "Your supply centres: Edi, Lon, Lvp." in england


def test_a_game_declared_over_after_a_fall_needs_no_file_to_close_it(tmp_path):
    """`end: {phase: 1901-fall}`: the end closes the year, with its centres (Germany's Denmark)."""
    over = GAME + "end:\n  draw: [France, Germany]\n  phase: 1901-fall\n"
    h = load(write_game(tmp_path / "dark", {"game.yml": over, **{f"{k}.yml": v for k, v in STANDING.items()}}))
    assert h.finished
    assert h.next_phase is None
    assert dict(h.centre_table())[1901]["Germany"] == 4
    assert ("den", None, "Germany") in h.records[-1].centre_changes
