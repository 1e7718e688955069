"""Taskdip: Table 1 card by card, the lots (seed and secrets.yml), neutral powers, violations,
re-allotment by the rule's criteria, and the victory conditions."""

from __future__ import annotations

import re

import pytest

from dipgen.rules.draws import commitment
from dipgen.core.errors import GameError
from dipgen.usecases.games import replay_folder
from dipgen.core.phase import Phase
from dipgen.core.position import Position
from dipgen.rules.seats import Seat, Seating
from dipgen.variants import get_variant
from dipgen.variants.taskdip.rules import Allotment, TaskdipState, allotment_of
from support import TASKDIP_LOTS as SEED_EXAMPLE, write_game

SEED = "11" * 32

# Table 1 as the seed's text gives it, transcribed here a second time on its own: per power and
# card, the groups as (count, centres).
AUS, ENG, FRA, GER = {"bud", "vie", "tri"}, {"edi", "lon", "lvp"}, {"par", "bre", "mar"}, {"ber", "kie", "mun"}
ITA, RUS, TUR = {"nap", "rom", "ven"}, {"mos", "sev", "stp", "war"}, {"ank", "con", "smy"}
BAL = {"bul", "gre", "rum", "ser"}
TABLE = {
    ("Austria", "Joker"): [(3, ITA), (4, BAL)],
    ("Austria", "Ten"): [(2, GER), (4, BAL)],
    ("Austria", "Nine"): [(3, RUS), (4, BAL)],
    ("Austria", "Eight"): [(1, RUS), (1, GER), (1, ITA)],
    ("Austria", "Seven"): [(4, ITA | TUR)],
    ("England", "Joker"): [(5, FRA | GER)],
    ("England", "Ten"): [(9, {"stp", "den", "swe", "nwy", "hol", "bel", "spa", "por", "tun"})],
    ("England", "Nine"): [(3, GER), (5, {"den", "nwy", "swe", "bel", "hol"})],
    ("England", "Eight"): [(3, FRA), (4, {"bel", "hol", "por", "spa"})],
    ("England", "Seven"): [(1, ITA)],
    ("France", "Joker"): [(5, ENG | GER)],
    ("France", "Ten"): [(3, ENG), (5, {"bel", "hol", "por", "spa", "tun"})],
    ("France", "Nine"): [(5, ITA | ENG)],
    ("France", "Eight"): [(5, ITA | GER)],
    ("France", "Seven"): [(1, BAL)],
    ("Germany", "Joker"): [(3, FRA), (4, {"bel", "hol", "por", "spa"})],
    ("Germany", "Ten"): [(3, ENG), (5, {"bel", "den", "hol", "nwy", "swe"})],
    ("Germany", "Nine"): [(3, RUS), (5, {"bel", "den", "hol", "nwy", "swe"})],
    ("Germany", "Eight"): [(1, {"tun"})],
    ("Germany", "Seven"): [(4, AUS | BAL)],
    ("Italy", "Joker"): [(3, AUS), (4, BAL)],
    ("Italy", "Ten"): [(2, FRA), (3, {"por", "spa", "tun"})],
    ("Italy", "Nine"): [(3, TUR)],
    ("Italy", "Eight"): [(1, ENG)],
    ("Italy", "Seven"): [(1, RUS)],
    ("Russia", "Joker"): [(3, GER), (3, {"den", "nwy", "swe"})],
    ("Russia", "Ten"): [(2, ENG), (3, {"den", "nwy", "swe"})],
    ("Russia", "Nine"): [(5, GER | AUS)],
    ("Russia", "Eight"): [(3, TUR), (4, BAL)],
    ("Russia", "Seven"): [(3, AUS), (4, BAL)],
    ("Turkey", "Joker"): [(3, RUS), (4, BAL)],
    ("Turkey", "Ten"): [(3, AUS), (1, RUS), (4, BAL)],
    ("Turkey", "Nine"): [(3, ITA), (5, BAL | {"tun"})],
    ("Turkey", "Eight"): [(2, RUS), (5, BAL | {"tun"})],
    ("Turkey", "Seven"): [(1, {"por", "spa"})],
}


@pytest.fixture(scope="module")
def taskdip():
    return get_variant("taskdip")


@pytest.mark.parametrize("power,card", sorted(TABLE))
def test_table_card_by_card(taskdip, power, card):
    task = taskdip.rules.tasks[power][card]
    assert sorted((g.count, frozenset(g.centres)) for g in task.groups) == \
        sorted((n, frozenset(cs)) for n, cs in TABLE[(power, card)])
    for g in task.groups:  # every centre named is a supply centre of the board
        assert set(g.centres) <= set(taskdip.rules.board.centres)


def test_table_has_five_cards_per_power(taskdip):
    assert {p: sorted(row) for p, row in taskdip.rules.tasks.items()} == \
        {p: sorted(["Joker", "Ten", "Nine", "Eight", "Seven"]) for p in taskdip.rules.powers()}


def game(tmp_path, players, phases=(), lots=None, seed=True, extra=""):
    """A Taskdip game folder: players, phase files {slug: orders-yaml}, lots for secrets.yml."""
    text = f"title: T\ngm: G\nvariant: taskdip\nplayers: [{', '.join(players)}]\n" + extra
    if seed:
        text += f'seed_sha256: "{commitment(bytes.fromhex(SEED))}"\nseed: "{SEED}"\n'
    files = {"game.yml": text, **({"secrets.yml": lots} if lots is not None else {})}
    return write_game(tmp_path / "g", {**files, **{f"{slug}.yml": body for slug, body in phases}})


def test_seed_start_example(tmp_path):
    """The seed's game start: Austria's Eight needs an Italian centre and is redrawn as the Nine."""
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], lots=SEED_EXAMPLE, seed=False))
    v = h.variant
    a = allotment_of(h.position)
    assert a.cards["Austria"] == ("Eight", "Nine")
    assert a.tasks["Austria"].text == "Control three Russian home centres and the Balkans (Bul, Gre, Rum, Ser)"
    assert a.tasks["Italy"].text == "Control one English home centre"
    assert a.tasks["Turkey"].text == "Control one Iberian centre (Por or Spa)"
    assert a.tasks["Germany"].text == "Control three Russian home centres, Bel, Den, Hol, Nwy and Swe"
    assert h.seating.powers_of("Andreas") == ("Austria", "Italy")
    assert h.seating.powers_of("Katja") == ("Germany", "Turkey")
    assert v.rules.originally_neutral(a) == ["England", "France", "Russia"]
    # the redraw is among the tasks needing no Italian centre, the Eight itself left out
    assert [c for c in v.rules.eligible("Austria", ("Italy",)) if c != "Eight"] == ["Ten", "Nine"]


@pytest.mark.parametrize("austria,message", [
    ("Eight", "it is redrawn"),
    ("[Eight, Joker]", "cannot be drawn"),
    ("[Nine, Ten]", "it is not redrawn"),
    ("Queen", "not a card of Table 1"),
])
def test_written_lots_checked(tmp_path, austria, message):
    lots = SEED_EXAMPLE.replace("[Eight, Nine]", austria)
    with pytest.raises(GameError) as e:
        replay_folder(game(tmp_path, ["Andreas", "Katja"], lots=lots, seed=False))
    (p,) = e.value.problems
    assert p.code == "bad-lots"
    assert p.file.endswith("secrets.yml")
    assert message in p.message  # the words of each of bad-lots's reasons, tested here once


def test_written_lots_count_powers(tmp_path):
    lots = SEED_EXAMPLE.replace("Katja: [Turkey, Germany]", "Katja: [Turkey]").replace("    Germany: Nine\n", "")
    with pytest.raises(GameError) as e:
        replay_folder(game(tmp_path, ["Andreas", "Katja"], lots=lots, seed=False))
    assert [p.code for p in e.value.problems] == ["bad-lots"]


@pytest.mark.parametrize("players,each", [(2, 2), (3, 2), (4, 1), (7, 1)])
def test_seed_lots(tmp_path, players, each):
    names = [f"P{i}" for i in range(players)]
    h = replay_folder(game(tmp_path, names))
    a = allotment_of(h.position)
    assert [len(a.powers[n]) for n in names] == [each] * players
    drawn = [p for n in names for p in a.powers[n]]
    assert len(set(drawn)) == len(drawn)
    assert set(a.tasks) == set(drawn)
    for power, seat in ((p, n) for n in names for p in a.powers[n]):  # no task needs the partner's centres
        partner = [c for q in a.powers[seat] if q != power for c in h.variant.rules.board.home_centres(q)]
        assert not a.tasks[power].needs_any_of(partner)
    secret = [d for d in h.draws.setup_draws if d.secret]
    assert {d.label.split("/")[1].split(" ")[1] for d in secret} == set(drawn)  # tasks drawn in secret
    assert not [d for d in h.draws.setup_draws if not d.secret and d.label != "setup/powers"]


def test_players_form(tmp_path):
    with pytest.raises(GameError) as e:
        replay_folder(game(tmp_path, ["Solo"]))
    assert [p.code for p in e.value.problems] == ["bad-player"]


THREE = """\
    lots:
      powers:
        Ann: [Russia, Italy]
        Bob: [Germany, Turkey]
        Cid: [England, France]
      tasks:
        Russia: Joker
        Italy: Eight
        Germany: Eight
        Turkey: Seven
        England: Seven
        France: Seven
    """


def _reallot(owners_counts, violators):
    """Austria neutral, Cid (England, France) and `violators` violate it with these centre counts."""
    v = get_variant("taskdip")
    seating = Seating((Seat("Ann", (("Ann", None),)), Seat("Bob", (("Bob", None),)), Seat("Cid", (("Cid", None),))),
                      {"Russia": ("Ann",), "Italy": ("Ann",), "Germany": ("Bob",), "Turkey": ("Bob",),
                       "England": ("Cid",), "France": ("Cid",), "Austria": ()})
    state = TaskdipState(Allotment({}, {}, {}, "test"), seating)
    centres = iter(sorted(v.rules.board.centres))
    owners = {next(centres): p for p, n in owners_counts.items() for _ in range(n)}
    return v.rules.reallot(state, "Austria", set(violators), Position(Phase(1903, 0), (), owners), None)


def test_reallot_seed_example():
    """Russia 6 + Italy 2 against Germany 5 + Turkey 3: equal totals; Germany, the weaker strongest
    power, brings the neutral power to her player."""
    seat, why = _reallot({"Russia": 6, "Italy": 2, "Germany": 5, "Turkey": 3, "England": 4, "France": 3}, {"Cid"})
    assert seat == "Bob"
    assert "equal totals" in why
    assert "strongest power" in why


def test_reallot_fewest_centres():
    seat, why = _reallot({"Russia": 6, "Italy": 2, "Germany": 5, "Turkey": 2, "England": 4}, {"Cid"})
    assert seat == "Bob"
    assert why.startswith("fewest centres in total")
    seat, why = _reallot({"Russia": 6, "Italy": 2, "Germany": 5, "Turkey": 4, "England": 1}, {"Ann"})
    assert seat == "Cid"
    assert why.startswith("fewest centres in total")  # Bob 9, Cid 1


def test_reallot_respecting_player():
    seat, why = _reallot({"Russia": 1}, {"Ann", "Cid"})
    assert seat == "Bob"
    assert "respected" in why


def test_reallot_everyone_violated():
    seat, why = _reallot({"Russia": 6, "Italy": 2, "Germany": 5, "Turkey": 3, "England": 1}, {"Ann", "Bob", "Cid"})
    assert seat == "Cid"
    assert "every player violated" in why


def test_reallot_by_lot(tmp_path):
    """Equal totals (6, 6) and equal strongest powers (3, 3): drawn by lot, in public, from the seed."""
    spring = "orders:\n  Italy: [A Ven - Tyr, A Rom H, F Nap H]\n"
    h = replay_folder(game(tmp_path, ["Ann", "Bob", "Cid"], [("1901-spring", spring)], lots=THREE))
    (c,) = h.records[0].control
    (d,) = h.records[0].draws
    assert d.label == "1901-spring/allot Austria"
    assert not d.secret
    assert d.among == ("Bob", "Cid")
    assert c.power == "Austria"
    assert c.new == d.value
    assert "drawn by lot among Bob, Cid" in c.why


@pytest.mark.parametrize("orders,violator", [
    ("Germany: [A Mun - Bur, A Ber H, F Kie H]", "Germany: A Mun - Bur"),             # move into a non-centre
    ("Germany: [A Mun S A Ruh - Bur, A Ber H, F Kie H]", "Germany: A Mun S A Ruh - Bur"),  # support into
    ("Germany: [A Mun H, A Ber H, F Kie - Pic]", "Germany: F Kie - Pic"),             # an order it cannot carry out
])
def test_violation_kinds(tmp_path, orders, violator):
    lots = SEED_EXAMPLE.replace("[Turkey, Germany]", "[Germany, Turkey]")
    body = "orders:\n  " + orders + "\n"
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", body)], lots=lots, seed=False))
    (c,) = h.records[0].control
    assert (c.power, c.new) == ("France", "Andreas")
    assert f"Katja ({violator})" in c.why


def test_violation_by_convoy_and_support_hold(tmp_path):
    """A convoy into a neutral province violates; supporting a neutral unit in holding does not."""
    lots = SEED_EXAMPLE.replace("Katja: [Turkey, Germany]", "Katja: [England, Germany]") \
        .replace("Turkey: Seven", "England: Seven").replace("Andreas: [Austria, Italy]", "Andreas: [Russia, Italy]") \
        .replace("Austria: [Eight, Nine]", "Russia: Seven")
    spring = "orders:\n  England: [F Lon - ENG, F Edi - NTH, A Lvp - Wal]\n  Italy: [A Ven H, A Rom H, F Nap - TYS]\n"
    fall = ("orders:\n  England: [F ENG C A Wal - Pic, F NTH H, A Wal H]\n"
            "  Italy: [A Ven S F Tri H, A Rom H, F TYS H]\n")
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", spring), ("1901-fall", fall)],
                           lots=lots, seed=False))
    assert h.records[0].control == ()
    (c,) = h.records[1].control
    assert (c.power, c.new) == ("France", "Andreas")
    assert c.why.endswith("by Katja (England: F ENG C A Wal - Pic); "
                          "France is allotted to Andreas: the one player who respected its neutrality")


def test_violation_by_retreat(tmp_path):
    """A retreat into a neutral power's home country (Bohemia, no centre) violates, from the next phase on."""
    lots = SEED_EXAMPLE.replace("Andreas: [Austria, Italy]", "Andreas: [Russia, Italy]") \
        .replace("Austria: [Eight, Nine]", "Russia: Seven")
    phases = [
        ("1901-spring", "orders:\n  Russia: [A War - Pru, A Mos - War]\n  Germany: [A Ber - Sil, A Mun H, F Kie H]\n"),
        ("1901-fall", "orders:\n  Russia: [A War - Sil, A Pru S A War - Sil]\n"
                      "  Germany: [A Sil H, A Mun H, F Kie H]\n"),
        ("1901-fall-retreats", "orders:\n  Germany: [A Sil - Boh]\n"),
    ]
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], phases, lots=lots, seed=False))
    assert [(r.phase.name, c.power, c.new, c.since.name) for r in h.records for c in r.control] == \
        [("Fall 1901 retreats", "Austria", "Andreas", "Winter 1901")]
    assert h.seating.controllers("Austria", Phase(1901, 1, True)) == ()


def test_neutral_takes_no_orders(tmp_path):
    body = "orders:\n  France: [A Par - Bur]\n"
    with pytest.raises(GameError) as e:
        replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", body)], lots=SEED_EXAMPLE, seed=False))
    assert [p.code for p in e.value.problems] == ["not-her-power"]


def test_neutral_units_hold_without_nmr(tmp_path):
    body = "orders:\n  Austria: [A Vie H]\n"
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", body)], lots=SEED_EXAMPLE, seed=False))
    assert set(h.records[0].nmr) == {"Italy", "Turkey", "Germany"}


def _victory(owners: dict[str, str], tasks: dict, powers: dict[str, tuple]):
    v = get_variant("taskdip")
    seats = tuple(Seat(s, ((s, None),)) for s in powers)
    seating = Seating(seats, {p: tuple(s for s in powers if p in powers[s]) for p in v.rules.powers()})
    allotment = Allotment(powers, {p: v.rules.tasks[p][c] for p, c in tasks.items()},
                          {p: (c,) for p, c in tasks.items()}, "test")
    pos = v.rules.start(1901)
    pos = pos.with_(owners={**pos.owners, **owners}, economy={"taskdip": TaskdipState(allotment, seating)})
    return v.rules.game_result(pos, Phase(1905, 1, True), seating, True)


def test_victory_by_task():
    r = _victory({"por": "Turkey"}, {"Turkey": "Seven", "Germany": "Nine", "Italy": "Eight", "Austria": "Nine"},
                 {"Andreas": ("Austria", "Italy"), "Katja": ("Turkey", "Germany")})
    assert r.kind == "solo"
    assert r.powers == ("Turkey",)
    assert "task" in r.condition


def test_task_by_the_power_it_was_imposed_on():
    """Italy's task (one English centre) is not fulfilled by Andreas's Austria holding London."""
    r = _victory({"lon": "Austria"}, {"Turkey": "Nine", "Germany": "Nine", "Italy": "Eight", "Austria": "Nine"},
                 {"Andreas": ("Austria", "Italy"), "Katja": ("Turkey", "Germany")})
    assert r is None


def test_victory_draw_same_fall():
    r = _victory({"por": "Turkey", "lon": "Italy"},
                 {"Turkey": "Seven", "Germany": "Nine", "Italy": "Eight", "Austria": "Nine"},
                 {"Andreas": ("Austria", "Italy"), "Katja": ("Turkey", "Germany")})
    assert r.kind == "draw"
    assert set(r.powers) == {"Turkey", "Italy"}


def test_victory_two_adversary_home_countries():
    owners = {c: "Russia" for c in ("ber", "kie", "mun", "ank", "con", "smy")}
    r = _victory(owners, {"Turkey": "Nine", "Germany": "Nine", "Italy": "Nine", "Russia": "Nine"},
                 {"Andreas": ("Russia", "Italy"), "Katja": ("Turkey", "Germany")})
    assert r.kind == "solo"
    assert r.powers == ("Russia",)
    assert "Germany and Turkey" in r.condition


def test_seed_in_secrets_with_seat_passphrases(tmp_path):
    """secrets.yml keys passphrases by player: the seed is read beside them (it was refused as
    'not a power of this game')."""
    g = game(tmp_path, ["Andreas", "Katja"], seed=False,
             extra=f'seed_sha256: "{commitment(bytes.fromhex(SEED))}"\n')
    write_game(g, {"secrets.yml": f'page_key: "{"ab" * 32}"\nseed: "{SEED}"\npassphrases:\n'
                                  '  Andreas: "k7mq2-vx9ra-d4hte-8wnpc"\n  Katja: "r3nvz-hq8ke-w2mxa-7tjdp"\n'})
    h = replay_folder(g)
    assert sum(len(ps) for ps in allotment_of(h.position).powers.values()) == 4


def test_task_completed_by_a_fall_retreat(tmp_path):
    """Italy's task (one Russian home centre) is met by its army retreating into Warsaw in the
    Fall 1902 retreats: the game ends there, Andreas the winner."""
    lots = """\
        lots:
          powers:
            Andreas: [Italy, England]
            Katja: [Russia, Germany]
          tasks:
            Italy: Seven
            England: Ten
            Russia: Ten
            Germany: Ten
        """
    phases = [
        ("1901-spring", "orders:\n  Italy: [A Ven - Tyr]\n"),
        ("1901-fall", "orders:\n  Italy: [A Tyr - Boh]\n"),
        ("1902-spring", "orders:\n  Italy: [A Boh - Gal]\n  Russia: [A War - Pru]\n"),
        ("1902-fall", "orders:\n  Austria: [A Vie - Gal, A Bud S A Vie - Gal]\n"),
        ("1902-fall-retreats", "orders:\n  Italy: [A Gal - War]\n"),
    ]
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], phases, lots=lots, seed=False))
    assert [(c.power, c.new) for r in h.records for c in r.control] == [("Austria", "Katja")]
    assert h.result.kind == "solo"
    assert h.result.powers == ("Italy",)
    assert h.result.phase.name == "Fall 1902 retreats"
    assert h.result_line() == ("Italy (Andreas) wins in Fall 1902 (Italy's task fulfilled: control one Russian "
                               "home centre)!")


def test_resign_last_player_wins(tmp_path):
    body = "resign: Katja\norders:\n  Italy: [A Ven H]\n"
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", body)], lots=SEED_EXAMPLE, seed=False))
    assert h.result.kind == "solo"
    assert h.result.phase.name == "Spring 1901"
    assert h.result_line() == "Austria (Andreas) wins in Spring 1901 (every other player resigned)!"


def test_resigned_players_powers_hold(tmp_path):
    """With three players one resigns: her powers' units hold from the next phase, without NMR;
    orders for them are an error; the game goes on."""
    phases = [("1901-spring", "resign: [Cid]\norders:\n  Italy: [A Ven H]\n"),
              ("1901-fall", "orders:\n  Italy: [A Ven H]\n")]
    h = replay_folder(game(tmp_path, ["Ann", "Bob", "Cid"], phases, lots=THREE, seed=False))
    assert h.result is None
    assert "England" in h.records[0].nmr
    assert "England" not in h.records[1].nmr
    assert "Germany" in h.records[1].nmr
    bad = phases[:1] + [("1901-fall", "orders:\n  France: [A Par H]\n")]
    with pytest.raises(GameError) as e:
        replay_folder(game(tmp_path, ["Ann", "Bob", "Cid"], bad, lots=THREE, seed=False))
    assert [p.code for p in e.value.problems] == ["not-her-power"]


def test_resign_names_a_player(tmp_path):
    with pytest.raises(GameError) as e:
        replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", "resign: Kat\norders:\n  Italy: []\n")],
                           lots=SEED_EXAMPLE, seed=False))
    assert [p.code for p in e.value.problems] == ["bad-resign"]
    assert "resign: 'Kat' is not a player of this game" in e.value.problems[0].message  # the words, tested here once


def test_one_variant_object_plays_two_games_interleaved(tmp_path):
    """The variant object holds no game's state (it is in the positions): two games played phase
    by phase in turn by one Taskdip object, then replayed one after the other by it, come out as
    each does alone."""
    from dipgen.io.gamefiles import load_game
    from dipgen.play.replay import replay
    from dipgen.play.step import skip_empty, step
    from dipgen.rules.seats import control_after
    from dipgen.variants.taskdip.words import _game_section
    from dipgen.view import game_view

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = game(tmp_path / "a", ["Andreas", "Katja"], [
        ("1901-spring", "orders:\n  Germany: [A Mun - Bur, A Ber H, F Kie H]\n"),
        ("1901-fall", "orders:\n  France: [A Par H]\n  Italy: [A Ven H]\n")], lots=SEED_EXAMPLE)
    b = game(tmp_path / "b", ["Ann", "Bob", "Cid"], [
        ("1901-spring", "orders:\n  Germany: [A Mun - Tyr, A Ber H, F Kie H]\n"),
        ("1901-fall", "orders:\n  Austria: [A Vie H]\n  England: [F Lon H]\n")], lots=THREE)
    alone = {f: replay_folder(f) for f in (a, b)}
    shared = get_variant("taskdip")
    games = {f: load_game(f) for f in (a, b)}
    for g in games.values():
        g.variant = shared
    from dipgen.io.secretsfile import load_secrets

    lots = {f: shared.files.read_secret(load_secrets(f / "secrets.yml", g.seating.keys(), require_key=False).extra,
                                        "secrets.yml", g.seating.keys()) for f, g in games.items()}
    positions = {f: shared.rules.initial_position(g, None, lots[f]) for f, g in games.items()}
    seatings = {f: g.seating for f, g in games.items()}
    played: dict = {a: [], b: []}
    for _ in range(2):  # Spring, then Fall: a's phase, then b's
        for f, g in games.items():
            record = step(shared, positions[f], g.phases[positions[f].phase])
            record, seatings[f] = control_after(shared, record, seatings[f])
            played[f].append(record)
            positions[f] = skip_empty(shared, record.after)
    for f in (a, b):
        assert [(r.control, r.nmr) for r in played[f]] == [(r.control, r.nmr) for r in alone[f].records]
    assert [c.new for r in played[a] for c in r.control] == ["Andreas"]
    assert [c.new for r in played[b] for c in r.control] == ["Cid"]
    histories = {f: replay(games[f], None, lots[f]) for f in (a, b)}  # one after the other, by the same object
    for f in (a, b):
        assert _game_section(shared.rules, game_view(histories[f], "gm")) == \
            _game_section(alone[f].variant.rules, game_view(alone[f], "gm"))


def test_game_folder_first_criterion_fewest_centres(tmp_path):
    """Bob's German army enters Tyrolia: of the players who respected Austria, Cid (England 3 +
    France 3) has fewer centres than Ann (Russia 4 + Italy 3)."""
    spring = "orders:\n  Germany: [A Mun - Tyr, A Ber H, F Kie H]\n"
    h = replay_folder(game(tmp_path, ["Ann", "Bob", "Cid"], [("1901-spring", spring)], lots=THREE))
    (c,) = h.records[0].control
    assert (c.power, c.new) == ("Austria", "Cid")
    assert c.why.endswith("Austria is allotted to Cid: fewest centres in total of the players who respected it "
                          "(Ann 7, Cid 6)")
    assert not h.records[0].draws  # no lot was needed


def test_game_folder_second_criterion_strongest_power(tmp_path):
    """The seed's second criterion in play: both players violate France in Spring 1902 with
    8 centres each after Fall 1901 (Austria 5 + Italy 3 against Germany 4 + Turkey 4); Katja's
    strongest power, Germany or Turkey with 4, is weaker than Austria's 5, so France is hers."""
    phases = [
        ("1901-spring", "orders:\n  Austria: [A Bud - Ser, F Tri - Alb, A Vie H]\n"
                        "  Italy: [A Ven - Pie, A Rom H, F Nap H]\n"
                        "  Germany: [F Kie - Den, A Ber H, A Mun H]\n  Turkey: [A Con - Bul, A Smy H, F Ank H]\n"),
        ("1901-fall", "orders:\n  Austria: [A Ser H, F Alb - Gre, A Vie H]\n  Italy: [A Pie H, A Rom H, F Nap H]\n"
                      "  Germany: [F Den H, A Ber H, A Mun H]\n  Turkey: [A Bul H, A Smy H, F Ank H]\n"),
        ("1901-winter", "orders:\n  Austria: [Build A Bud, Build F Tri]\n  Germany: [Build F Kie]\n"
                        "  Turkey: [Build A Con]\n"),
        ("1902-spring", "orders:\n  Italy: [A Pie - Mar]\n  Germany: [A Mun - Bur]\n"),
    ]
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], phases, lots=SEED_EXAMPLE))
    (c,) = [c for r in h.records for c in r.control]
    assert (c.power, c.new, c.since.name) == ("France", "Katja", "Spring 1902 retreats")
    assert "by Andreas (Italy: A Pie - Mar), Katja (Germany: A Mun - Bur)" in c.why
    assert c.why.endswith("equal totals (Andreas 8, Katja 8); the fewest centres in her strongest power "
                          "(Andreas 5, Katja 4)")
    assert not h.records[-1].draws


def test_violation_into_finland(tmp_path):
    """Finland lies inside Russia's border (the rules page's ruling): a German fleet moving there
    violates neutral Russia, which goes to Andreas."""
    phases = [("1901-spring", "orders:\n  Germany: [F Kie - Bal]\n"),
              ("1901-fall", "orders:\n  Germany: [F Bal - Bot]\n"),
              ("1902-spring", "orders:\n  Germany: [F Bot - Fin]\n")]
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], phases, lots=SEED_EXAMPLE, seed=False))
    assert [(r.phase.name, c.power, c.new) for r in h.records for c in r.control] == \
        [("Spring 1902", "Russia", "Andreas")]


# ---------------------------------------------------------------------------- issue 21

def test_a_neutral_unit_is_never_dislodged_while_neutral_its_new_player_orders_the_retreat(tmp_path):
    """The attack that dislodges a neutral unit enters its home country, so it violates the neutrality
    and the power is allotted from the next phase: its retreat has a player, who orders it."""
    phases = [
        ("1901-spring", "orders:\n  Austria: [A Vie - Gal]\n  Germany: [A Ber - Sil, A Mun H, F Kie H]\n"),
        ("1901-fall", "orders:\n  Austria: [A Gal - War]\n  Germany: [A Sil S A Gal - War, A Mun H, F Kie H]\n"),
        ("1901-fall-retreats", "orders:\n  Russia: [A War - Lvn]\n"),
    ]
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], phases, lots=SEED_EXAMPLE))  # both violate: a lot
    fall, retreats = h.records[1], h.records[2]
    assert [d.unit.power for d in fall.dislodged] == ["Russia"]
    (c,) = fall.control
    assert c.power == "Russia"
    assert c.since == retreats.phase
    (r,) = retreats.results_of("Russia")
    assert r.succeeded
    assert not r.default
    assert ("Russia", "A", "lvn") in {(u.power, u.kind, u.province) for u in retreats.after.units}


def test_orders_for_a_neutral_power_stay_an_error_even_when_they_name_no_unit(tmp_path):
    body = "orders:\n  France: [A Pic - Bur]\n"
    with pytest.raises(GameError) as e:
        replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", body)], lots=SEED_EXAMPLE, seed=False))
    assert [p.code for p in e.value.problems] == ["not-her-power"]


def test_an_order_for_a_unit_the_player_does_not_have_violates_nothing(tmp_path):
    """RULING: an order naming no unit of hers orders nothing, so it enters no neutral country; an
    order for one of her units violates even if it cannot be carried out (test_violation_kinds)."""
    body = "orders:\n  Germany: [A Pru - Lvn, A Ber H, A Mun H, F Kie H]\n"
    h = replay_folder(game(tmp_path, ["Andreas", "Katja"], [("1901-spring", body)], lots=SEED_EXAMPLE, seed=False))
    assert h.records[0].control == ()
    assert h.warnings[0].code == "no-unit"
    assert h.warnings[0].subject == "A Pru - Lvn"


def test_the_gm_learns_the_lots_as_soon_as_they_are_drawn(tmp_path, capsys):
    """Before anything is played: `dipgen secrets` and `dipgen adjudicate` show who got which powers
    (the lots are drawn from the seed `dipgen new` made), as the replay draws them."""
    from dipgen.cli import main

    assert main(["new", "lots", "--dir", str(tmp_path), "--variant", "taskdip"]) == 0
    write_game(tmp_path / "lots", {"game.yml": (tmp_path / "lots" / "game.yml").read_text(encoding="utf-8")
               .replace("Player One", "Ada").replace("Player Two", "Ben").replace("Player Three", "Cy")})
    drawn = allotment_of(replay_folder(tmp_path / "lots").position).powers
    assert sorted(p for ps in drawn.values() for p in ps) != []
    assert set(drawn) == {"Ada", "Ben", "Cy"}
    capsys.readouterr()
    assert main(["secrets", str(tmp_path / "lots")]) == 0
    table = capsys.readouterr().out
    rows = {line.split("  ")[0]: line for line in table.splitlines()}
    for player, powers in drawn.items():
        assert set(re.split(r"  +", rows[player])[1].split(", ")) == set(powers), table
    for args in (["--full"], []):
        assert main(["adjudicate", *args, str(tmp_path / "lots")]) == 0
        said = capsys.readouterr().out
        assert "Nothing has been played yet" in said
        told = dict(line.strip().split(": ") for line in said.splitlines() if line.startswith("  "))
        assert {k: set(v.split(", ")) for k, v in told.items()} == {k: set(v) for k, v in drawn.items()}
