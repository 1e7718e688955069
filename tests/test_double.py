"""Double Diplomacy (issue 13): seats from the seed's table, the synchronisation of the two
captains' orders (the seed's examples 1 and 2 give exactly its "moves to go into adjudication"),
the rulings of site_src/rules/double.md, the 14-centre victory, and the GM's errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dipgen.rules.draws import commitment
from dipgen.core.results import Kind
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.usecases.games import replay_folder
from dipgen.core.orders import parse_order
from dipgen.variants import get_variant
from dipgen.variants.double.rules import TABLE, Sync
from support import write_game

NAMES = {1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan", 5: "Eve", 6: "Fay", 7: "Gus"}
PLAYERS = {NAMES[n]: list(ps) for n, ps in TABLE.items()}
BOARD = get_variant("double").rules.board


def write(folder: Path, *phases: tuple[str, dict], game: dict | None = None, seed: bytes | None = None) -> Path:
    data = {"title": "Double test", "variant": "double", "gm": "Grace", "players": PLAYERS, **(game or {})}
    if seed is not None:
        data["seed_sha256"] = commitment(seed)
        data["seed"] = seed.hex()
    return write_game(folder, {"game.yml": yaml.safe_dump(data, sort_keys=False),
                               **{f"{slug}.yml": yaml.safe_dump({"orders": orders}, sort_keys=False, allow_unicode=True)
                                  for slug, orders in phases}})


def executed(record, power: str) -> list[str]:
    """The orders adjudicated for `power`, canonical text, in board order."""
    return sorted(r.order.format(BOARD) for r in record.results if r.power == power and r.order is not None)


def reasons(record, power: str) -> dict[str, Sync]:
    return {r.unit.province: n.reason for r in record.results if r.power == power and r.unit is not None
            for n in r.notes if n.kind is Kind.INTAKE}


def canon(*texts: str) -> list[str]:
    return sorted(parse_order(BOARD, t).format(BOARD) for t in texts)


def test_seed_example_1_a_unit_not_in_sync_holds(tmp_path):
    h = replay(load_game(write(tmp_path / "g", ("1901-spring", {"England": {
        "Ann": ["A Lvp – Yor", "F Edi – Nwg", "F Lon – Nth"],
        "Gus": ["A Lvp – Yor", "F Edi – Nwg", "F Lon – ENG"]}}))))
    rec = h.records[0]
    assert executed(rec, "England") == canon("A Lvp - Yor", "F Edi - Nwg", "F Lon H")
    assert reasons(rec, "England") == {"lon": Sync.HOLDS}
    lon = next(r for r in rec.results if r.unit.province == "lon")
    assert h.variant.words.result_words(lon) == ("not in sync: holds",)


def france_in_picardy(tmp_path, fall_orders: dict, spring_too: dict | None = None) -> object:
    spring = {"France": {"Eve": ["A Par - Pic", "F Bre - MAO", "A Mar - Spa"],
                         "Fay": ["A Paris-Picardy", "F Brest - Mid-Atlantic Ocean", "A Marseilles - Spain"]},
              "England": {"Ann": ["F Lon - NTH"], "Gus": ["F London-North Sea"]}, **(spring_too or {})}
    return replay_folder(write(tmp_path / "g", ("1901-spring", spring), ("1901-fall", fall_orders)))


def test_seed_example_2_a_support_overrules_a_hold_a_move_does_not(tmp_path):
    h = france_in_picardy(tmp_path, {"France": {
        "Eve": ["A Pic HOLD", "F MAO – Por", "A Spa – Mar"],
        "Fay": ["A Pic S (E) F Nth – Bel", "F MAO – Por", "A Spa HOLD"]},
        "England": {"Ann": ["F NTH - Bel"], "Gus": ["F North Sea - Belgium"]}})
    spring, fall = h.records[0], h.records[1]
    assert executed(spring, "France") == canon("A Par - Pic", "F Bre - MAO", "A Mar - Spa")  # same meaning, in sync
    assert reasons(spring, "France") == {}
    assert executed(fall, "France") == canon("A Pic S F Nth - Bel", "F MAO - Por", "A Spa H")
    assert reasons(fall, "France") == {"pic": Sync.SUPPORT_STANDS, "spa": Sync.HOLDS}
    assert h.records[1].after.owners["bel"] == "England"  # the synchronised support counted


def test_a_support_written_with_or_without_the_power_agrees(tmp_path):
    h = france_in_picardy(tmp_path, {"France": {
        "Eve": ["A Pic S England F NTH - Bel", "F MAO - Por", "A Spa H"],
        "Fay": ["A Pic S F North Sea - Belgium", "F Mid-Atlantic - Portugal", "Spa H"]},
        "England": {"Ann": ["F NTH - Bel"], "Gus": ["F NTH - Bel"]}})
    assert reasons(h.records[1], "France") == {}
    assert executed(h.records[1], "France") == canon("A Pic S F Nth - Bel", "F MAO - Por", "A Spa H")


def test_a_convoyed_move_agrees_with_or_without_via_convoy_where_no_land_route_exists(tmp_path):
    h = replay(load_game(write(tmp_path / "g", ("1901-spring", {"England": {
        "Ann": ["F Lon - NTH", "A Lvp - Edi", "F Edi - NWG"], "Gus": ["F Lon - NTH", "A Lvp-Edi", "F Edi-NWG"]}}),
        ("1901-fall", {"England": {"Ann": ["F NTH C A Edi - Nwy", "A Edi - Nwy via convoy", "F NWG H"],
                                   "Gus": ["F NTH C A Edi - Nwy", "A Edi - Nwy", "F NWG H"]}}))))
    assert reasons(h.records[1], "England") == {}
    assert h.records[1].after.owners["nwy"] == "England"


def test_a_captain_who_sends_nothing_counts_as_ordering_holds(tmp_path):
    h = replay(load_game(write(tmp_path / "g", ("1901-spring", {
        "England": {"Ann": ["A Lvp S F Edi", "F Edi - NWG", "F Lon - NTH"]},
        "Russia": {"Dan": [], "Eve": []}}))))
    rec = h.records[0]
    assert executed(rec, "England") == canon("A Lvp S F Edi", "F Edi H", "F Lon H")
    assert reasons(rec, "England") == {"lvp": Sync.SUPPORT_STANDS, "edi": Sync.HOLDS, "lon": Sync.HOLDS}
    assert "Russia" in rec.nmr
    assert "England" not in rec.nmr
    assert not any(n.kind is Kind.INTAKE for r in rec.results if r.power == "Russia" for n in r.notes)


def test_builds_synchronise_a_build_only_one_captain_ordered_is_not_made(tmp_path):
    both = lambda *o: {"Fay": list(o), "Gus": list(o)}  # noqa: E731
    folder = write(tmp_path / "g", ("1901-spring", {"Austria": both("A Bud - Ser", "F Tri - Alb", "A Vie H")}),
                   ("1901-fall", {"Austria": both("F Alb - Gre", "A Ser H", "A Vie H")}),
                   ("1901-winter", {"Austria": {"Fay": ["Build A Bud", "Build F Tri"],
                                                "Gus": ["Build Army Budapest", "Build A Tri"]}}))
    h = replay_folder(folder)
    assert h.records[-1].adjustments == {"Austria": 2}
    built = {u.loc for u in h.records[-1].after.units if u.power == "Austria"} - {"vie", "ser", "gre"}
    assert built == {"bud"}


def test_a_retreat_not_in_sync_disbands(tmp_path):
    both = lambda *o: {"Fay": list(o), "Gus": list(o)}  # noqa: E731
    folder = write(tmp_path / "g", ("1901-spring", {"Russia": {"Dan": ["A War - Gal"], "Eve": ["A War - Gal"]}}),
                   ("1901-fall", {"Austria": both("A Vie - Gal", "A Bud S A Vie - Gal")}),
                   ("1901-fall-retreats", {"Russia": {"Dan": ["A Gal - Ukr"], "Eve": ["A Gal - War"]}}))
    h = replay_folder(folder)
    rec = h.records[-1]
    assert reasons(rec, "Russia") == {"gal": Sync.DISBANDS}
    assert not [u for u in rec.after.units if u.power == "Russia" and u.province in ("ukr", "war")]
    gal = next(r for r in rec.results if r.power == "Russia")
    assert "not in sync: disbanded" in h.variant.words.result_words(gal)


def test_two_captains_win_together_at_14_centres_and_the_result_names_them(tmp_path):
    variant = get_variant("double")
    from dipgen.core.position import Position
    from dipgen.core.phase import Phase

    start = variant.rules.start(1901)
    owners = dict(start.owners)
    for c in ["nwy", "swe", "den", "hol", "bel", "kie", "ber", "mun", "bre", "par", "mar"]:
        owners[c] = "England"
    assert variant.rules.winners(Position(Phase(1905, 2), start.units, owners)) == ("England",)
    for c in ["ser", "gre", "bul", "rum", "con", "ank", "smy", "sev", "mos", "war", "stp"]:
        owners[c] = "Austria"
    assert variant.rules.winners(Position(Phase(1905, 2), start.units, owners)) == ("Austria", "England")


def test_random_seats_are_drawn_from_the_seed_and_give_the_table(tmp_path):
    seed = bytes(range(32))
    names = list(NAMES.values())
    folder = write(tmp_path / "g", game={"seats": "random", "players": names}, seed=seed)
    h = replay_folder(folder)
    (draw,) = h.draws.setup_draws
    assert draw.label == "setup/seats"
    assert sorted(draw.value) == sorted(names)
    for n, key in enumerate(draw.value, 1):
        assert set(h.seating.powers_of(key)) == set(TABLE[n])


def test_an_unknown_player_is_an_error_with_its_line(tmp_path):
    folder = write(tmp_path / "g", ("1901-spring", {"England": {"Anne": ["F Lon - NTH"]}}))
    with pytest.raises(GameError) as e:
        load_game(folder)
    (p,) = e.value.problems
    assert p.line == 3
    assert p.code == "unknown-writer"


def test_a_player_ordering_a_power_she_does_not_play_is_an_error_with_its_line(tmp_path):
    folder = write(tmp_path / "g", ("1901-spring", {"England": {"Ann": ["F Lon - NTH"], "Ben": ["F Lon - NTH"]}}))
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    (p,) = e.value.problems
    assert p.file.endswith("1901-spring.yml")
    assert p.line == 6  # her first order
    assert p.code == "not-her-power"
    assert "Ben gives orders for England, which she does not play" in p.message  # the words, tested here once
    assert "Ann and Gus" in p.hint


def test_players_must_follow_the_seed_s_pairs(tmp_path):
    bad = dict(PLAYERS, Ann=["England", "France"])
    with pytest.raises(GameError) as e:
        load_game(write(tmp_path / "g", game={"players": bad}))
    assert "bad-player" in [p.code for p in e.value.problems]


def test_a_unit_ordered_twice_by_one_captain_is_an_error(tmp_path):
    folder = write(tmp_path / "g", ("1901-spring", {"England": {"Ann": ["F Lon - NTH", "F Lon - ENG"]}}))
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    assert [p.code for p in e.value.problems] == ["second-order"]


def test_a_replaced_player_s_successor_orders_from_her_phase(tmp_path):
    players = dict(PLAYERS)
    players["Ann"] = {"powers": ["England", "Turkey"], "later": [{"name": "Zoe", "from": "1901-fall"}]}
    spring = {"England": {"Ann": ["F Lon - NTH"], "Gus": ["F Lon - NTH"]}}
    fall = {"England": {"Zoe": ["F NTH - Nwy"], "Gus": ["F NTH - Nwy"]}}
    h = replay_folder(write(tmp_path / "g", ("1901-spring", spring), ("1901-fall", fall), game={"players": players}))
    assert h.records[-1].after.owners["nwy"] == "England"
    bad = {"England": {"Ann": ["F NTH - Nwy"], "Gus": ["F NTH - Nwy"]}}
    with pytest.raises(GameError) as e:
        replay_folder(write(tmp_path / "h", ("1901-spring", spring), ("1901-fall", bad), game={"players": players}))
    assert [p.code for p in e.value.problems] == ["not-her-power"]


def test_the_example_s_pages_show_both_captains_orders_side_by_side_and_the_players_table():
    from dipgen.present.site.pages import SiteOptions, game_page, season_page
    from dipgen.view import game_view

    h = replay_folder(Path(__file__).resolve().parent.parent / "games" / "two-captains")
    view = game_view(h, "public")
    (page,) = season_page(view, SiteOptions(), 0).values()
    assert '<table class="dg-written">' in page
    assert "<th scope=\"col\">Anneke Vos</th>" in page
    assert '<tr class="dg-differ"><td>F Lon - NTH</td><td>F Lon - ENG</td>' in page
    assert "not in sync: holds" in page
    (game,) = game_page(view, SiteOptions()).values()
    assert "## Players" in game
    assert "Anneke Vos" in game
    assert "14 centres after a Fall turn" in game


def test_an_empty_list_under_a_power_she_does_not_play_is_an_error_too(tmp_path):
    """``Ben: []`` under England says Ben sent England nothing: but Ben is not England's captain."""
    folder = write(tmp_path / "g", ("1901-spring", {"England": {"Ann": ["F Lon - NTH"], "Ben": []}}))
    with pytest.raises(GameError) as e:
        replay_folder(folder)
    (p,) = e.value.problems
    assert p.line == 5  # the "Ben: []" line
    assert p.code == "not-her-power"


def test_the_report_sets_both_captains_orders_beside_the_order_carried_out(tmp_path):
    from support import game_report

    h = france_in_picardy(tmp_path, {"France": {
        "Eve": ["A Pic HOLD", "F MAO – Por", "A Spa – Mar"],
        "Fay": ["A Pic S (E) F Nth – Bel", "F MAO – Por", "A Spa HOLD"]},
        "England": {"Ann": ["F NTH - Bel"], "Gus": ["F North Sea - Belgium"]}})
    report = game_report(h, h.records[1].phase).splitlines()
    france = report[report.index(next(x for x in report if x.startswith("France (")))+1:]
    france = france[:france.index("")]
    assert france[0].split() == ["Eve", "Fay", "carried", "out"]
    spa = next(x for x in france if "Spa" in x)
    assert spa.startswith("  ! ")
    cells = [c.strip() for c in spa[4:].split("  ") if c.strip()]
    assert cells[:3] == ["A Spa - Mar", "A Spa H", "A Spa H (*not in sync: holds*)"]
    por = next(x for x in france if "Por" in x)
    assert por.startswith("    ")
    assert [c.strip() for c in por.split("  ") if c.strip()][:3] == ["F MAO - Por"] * 3
    assert any(x.startswith("  (! ") for x in france)  # the mark is explained


def shown(h) -> dict[str, str]:
    """What the synchronisation visibly decided in a game, by scene: phase slug of its first
    showing. 'standoff': a unit its captains sent two ways held, and an enemy move into its
    province bounced; 'support': a support stood over a hold and the move it supported
    succeeded; 'missed': one captain of a power sent nothing and a move her partner gave was
    not carried out. Each with the GM's notes of that phase saying so."""
    out: dict[str, str] = {}
    for rec in h.records:
        if rec.kind != "movement":
            continue
        why = {(r.power, r.unit.province): {n.reason for n in r.notes if n.kind is Kind.INTAKE}
               for r in rec.results if r.unit is not None}
        moved = {r.unit.province: r for r in rec.results if r.unit is not None and r.succeeded
                 and type(r.order).__name__ == "Move"}
        for r in rec.results:
            if r.unit is None or not rec.notes:
                continue
            if Sync.HOLDS in why[(r.power, r.unit.province)] and any(
                    o.power != r.power and o.has(Kind.BOUNCE) and type(o.order).__name__ == "Move"
                    and o.order.dest[:3] == r.unit.province for o in rec.results):
                out.setdefault("standoff", rec.phase.slug)
            if Sync.SUPPORT_STANDS in why[(r.power, r.unit.province)] and r.succeeded \
                    and r.order.dest is not None and r.order.target.province in moved:
                out.setdefault("support", rec.phase.slug)
        for power, lines in rec.orders.items():
            writers = {ol.writer for ol in lines}
            wanted = {ol.order.unit.province for ol in lines if type(ol.order).__name__ == "Move"}
            if rec.notes and len(writers) == 1 and any(Sync.HOLDS in why.get((power, p), ()) for p in wanted):
                out.setdefault("missed", rec.phase.slug)
    return out


def test_the_example_shows_a_stand_off_a_support_over_a_hold_and_a_missed_turn():
    """The example game's synchronisation decides something visible, each with the GM's note."""
    h = replay_folder(Path(__file__).resolve().parent.parent / "games" / "two-captains")
    scenes = shown(h)
    assert set(scenes) == {"standoff", "support", "missed"}
    notes = {r.phase.slug: r.notes for r in h.records}
    assert "bounced off the unit its captains could not agree to move" in notes[scenes["standoff"]]
    assert "A support stands over a hold" in notes[scenes["support"]]
    assert "sent no orders for" in notes[scenes["missed"]]
    assert h.records[-1].phase.year - h.records[0].phase.year >= 6
    assert h.result is not None


def test_the_game_page_names_a_power_s_two_captains_together_and_a_player_s_powers_a_line_each(tmp_path):
    """Two captains play a power at the same time: 'Ann and Gus', not 'Ann, then Gus' (which is
    said of a replacement); the players table gives each of a player's powers its own line."""
    from dipgen.present.site.pages import SiteOptions, game_page
    from dipgen.view import game_view

    players = dict(PLAYERS)
    players["Ann"] = {"powers": ["England", "Turkey"], "later": [{"name": "Zoe", "from": "1901-fall"}]}
    spring = {"England": {"Ann": ["F Lon - NTH"], "Gus": ["F Lon - NTH"]}}
    fall = {"England": {"Zoe": ["F NTH H"], "Gus": ["F NTH H"]}}  # the tables count a year once its Fall is played
    h = replay_folder(write(tmp_path / "g", ("1901-spring", spring), ("1901-fall", fall), game={"players": players}))
    assert h.seating.players_text("England") == "Ann, then Zoe and Gus"
    assert h.seating.players_text("France") == "Eve and Fay"
    page = next(text for uri, text in game_page(game_view(h, "public"), SiteOptions()).items() if uri.endswith(".md"))
    assert '<span class="dg-who">Eve and Fay</span>' in page
    assert "Eve, then Fay" not in page
    assert '<tr><th scope="row" class="dg-sticky">Eve</th>' in page
    eve = page[page.index('<tr><th scope="row" class="dg-sticky">Eve</th>'):].split('</tr>')[0]
    assert 'France</span><br><span' in eve
    assert eve.endswith('<td class="dg-num">3<br>4</td>')  # France 3, Russia 4


# ------------------------------------------------------------ the seed's examples, varied, as game folders

ENGLAND_1901 = ["A Lvp – Yor", "F Edi – Nwg", "F Lon – Nth"]


@pytest.mark.parametrize("ann, gus, carried, notes", [
    # example 1 with the captains swapped: which of them wrote which order does not matter
    (["A Lvp – Yor", "F Edi – Nwg", "F Lon – ENG"], ENGLAND_1901, ["A Lvp - Yor", "F Edi - Nwg", "F Lon H"],
     {"lon": Sync.HOLDS}),
    # the same orders, one in full names and lower case: in sync
    (ENGLAND_1901, ["army liverpool - yorkshire", "Fleet Edinburgh -> Norwegian Sea", "F London-North Sea"],
     ["A Lvp - Yor", "F Edi - Nwg", "F Lon - Nth"], {}),
    # two units not in sync: both hold
    (ENGLAND_1901, ["A Lvp – Wal", "F Edi – NTH", "F Lon – Nth"], ["A Lvp H", "F Edi H", "F Lon - Nth"],
     {"lvp": Sync.HOLDS, "edi": Sync.HOLDS}),
    # a move against a hold: the move never overrules it
    (ENGLAND_1901, ["A Lvp – Yor", "F Edi H", "F Lon – Nth"], ["A Lvp - Yor", "F Edi H", "F Lon - Nth"],
     {"edi": Sync.HOLDS}),
    # a support against a move: not in sync, holds (the exception is for a hold only)
    (["A Lvp S F Edi", "F Edi – Nwg", "F Lon – Nth"], ENGLAND_1901, ["A Lvp H", "F Edi - Nwg", "F Lon - Nth"],
     {"lvp": Sync.HOLDS}),
    # a support to hold against a hold: the support stands
    (["A Lvp S F Edi", "F Edi H", "F Lon – Nth"], ["A Lvp H", "F Edi H", "F Lon – Nth"],
     ["A Lvp S F Edi", "F Edi H", "F Lon - Nth"], {"lvp": Sync.SUPPORT_STANDS}),
    # two different supports: not in sync, holds
    (["A Lvp S F Edi", "F Edi H", "F Lon H"], ["A Lvp S F Lon", "F Edi H", "F Lon H"],
     ["A Lvp H", "F Edi H", "F Lon H"], {"lvp": Sync.HOLDS}),
    # a partial set: the unit one captain left out counts as her hold (a move does not overrule it)
    (["A Lvp – Yor", "F Edi – Nwg"], ENGLAND_1901, ["A Lvp - Yor", "F Edi - Nwg", "F Lon H"], {"lon": Sync.HOLDS}),
])
def test_variations_on_the_seed_s_example_1(tmp_path, ann, gus, carried, notes):
    h = replay_folder(write(tmp_path / "g", ("1901-spring", {"England": {"Ann": ann, "Gus": gus}})))
    assert executed(h.records[0], "England") == canon(*carried)
    assert reasons(h.records[0], "England") == notes


@pytest.mark.parametrize("eve, fay, carried, notes, belgium", [
    # example 2 with the captains swapped: the support still stands, the move still does not
    (["A Pic S (E) F Nth – Bel", "F MAO – Por", "A Spa HOLD"], ["A Pic HOLD", "F MAO – Por", "A Spa – Mar"],
     ["A Pic S F Nth - Bel", "F MAO - Por", "A Spa H"], {"pic": Sync.SUPPORT_STANDS, "spa": Sync.HOLDS}, "England"),
    # Fay silent for Picardy: her silence is a hold, and the support stands over it
    (["A Pic S (E) F Nth – Bel", "F MAO – Por", "A Spa – Mar"], ["F MAO – Por", "A Spa – Mar"],
     ["A Pic S F Nth - Bel", "F MAO - Por", "A Spa - Mar"], {"pic": Sync.SUPPORT_STANDS}, "England"),
    # both give the hold: Picardy holds, the support is not given, and the English fleet bounces with
    # the German one in Belgium
    (["A Pic HOLD", "F MAO – Por", "A Spa H"], ["A Pic H", "F MAO – Por", "A Spa HOLD"],
     ["A Pic H", "F MAO - Por", "A Spa H"], {}, None),
    # a convoy is no support: against a hold it does not stand
    (["A Pic HOLD", "F MAO C A Spa - Por", "A Spa – Por"], ["A Pic S (E) F Nth – Bel", "F MAO H", "A Spa – Por"],
     ["A Pic S F Nth - Bel", "F MAO H", "A Spa - Por"], {"pic": Sync.SUPPORT_STANDS, "mao": Sync.HOLDS}, "England"),
])
def test_variations_on_the_seed_s_example_2(tmp_path, eve, fay, carried, notes, belgium):
    """As example 2, with a German fleet from Holland also moving on Belgium: the English move
    takes it only with the French support."""
    germany = {"Germany": {"Ben": ["F Kie - Hol"], "Cleo": ["F Kiel - Holland"]}}
    h = france_in_picardy(tmp_path, {"France": {"Eve": eve, "Fay": fay},
                                     "England": {"Ann": ["F NTH - Bel"], "Gus": ["F North Sea - Belgium"]},
                                     "Germany": {"Ben": ["F Hol - Bel"], "Cleo": ["F Hol - Bel"]}}, germany)
    fall = h.records[1]
    assert executed(fall, "France") == canon(*carried)
    assert reasons(fall, "France") == notes
    assert fall.after.owners.get("bel") == belgium


# ------------------------------------------------------------ the rulings of site_src/rules/double.md

def galicia_dislodged(tmp_path, retreats: dict):
    both = lambda *o: {"Fay": list(o), "Gus": list(o)}  # noqa: E731
    return replay(load_game(write(
        tmp_path / "g", ("1901-spring", {"Russia": {"Dan": ["A War - Gal"], "Eve": ["A War - Gal"]}}),
        ("1901-fall", {"Austria": both("A Vie - Gal", "A Bud S A Vie - Gal")}), ("1901-fall-retreats", retreats))))


def test_a_retreat_both_captains_ordered_is_made_and_one_captain_s_silence_disbands(tmp_path):
    h = galicia_dislodged(tmp_path, {"Russia": {"Dan": ["A Gal - Ukr"], "Eve": ["A Galicia - Ukraine"]}})
    assert reasons(h.records[-1], "Russia") == {}
    assert h.records[-1].after.units_of("Russia")
    assert any(u.province == "ukr" for u in h.records[-1].after.units if u.power == "Russia")
    h = galicia_dislodged(tmp_path / "silent", {"Russia": {"Dan": ["A Gal - Ukr"]}})
    assert reasons(h.records[-1], "Russia") == {"gal": Sync.DISBANDS}
    assert not any(u.province == "ukr" for u in h.records[-1].after.units if u.power == "Russia")


def germany_loses_munich(tmp_path, winter: dict):
    """Germany ends 1901 with three units and two centres: it must remove one."""
    both = lambda *o: {"Eve": list(o), "Fay": list(o)}  # noqa: E731
    return replay(load_game(write(
        tmp_path / "g", ("1901-spring", {"France": both("A Par - Bur", "A Mar S A Par - Bur"),
                                         "Germany": {"Ben": ["A Mun - Ruh"], "Cleo": ["A Mun - Ruh"]}}),
        ("1901-fall", {"France": both("A Bur - Mun")}), ("1901-winter", winter))))


@pytest.mark.parametrize("ben, cleo, left", [
    (["Remove F Kie"], ["Disband Fleet Kiel"], {"ber", "ruh"}),   # in sync: made
    (["Remove F Kie"], ["Remove A Ber"], {"kie", "ber"}),         # not in sync: neither; the civil-disorder rule
    (["Remove F Kie"], None, {"kie", "ber"}),                     # one captain silent: as not in sync
    ([], [], {"kie", "ber"}),                                     # both silent: the civil-disorder rule
])
def test_removals_synchronise_and_the_civil_disorder_rule_chooses_the_rest(tmp_path, ben, cleo, left):
    winter = {"Germany": {"Ben": ben, **({"Cleo": cleo} if cleo is not None else {})}}
    h = germany_loses_munich(tmp_path, winter)
    rec = h.records[-1]
    assert rec.adjustments["Germany"] == -1
    assert {u.province for u in rec.after.units if u.power == "Germany"} == left


def test_a_build_one_captain_ordered_while_the_other_sent_nothing_is_not_made(tmp_path):
    both = lambda *o: {"Fay": list(o), "Gus": list(o)}  # noqa: E731
    h = replay(load_game(write(tmp_path / "g", ("1901-spring", {"Austria": both("A Bud - Ser", "F Tri - Alb")}),
                               ("1901-fall", {"Austria": both("F Alb - Gre", "A Ser H")}),
                               ("1901-winter", {"Austria": {"Fay": ["Build A Bud", "Build F Tri"]}}))))
    assert h.records[-1].adjustments == {"Austria": 2}
    assert {u.province for u in h.records[-1].after.units if u.power == "Austria"} == {"vie", "ser", "gre"}


def test_a_power_neither_captain_wrote_for_holds_and_is_marked_as_sending_nothing(tmp_path):
    h = replay(load_game(write(tmp_path / "g", ("1901-spring", {"England": {"Ann": ["F Lon - NTH"],
                                                                            "Gus": ["F Lon - NTH"]}}))))
    rec = h.records[0]
    assert "Russia" in rec.nmr
    assert "England" not in rec.nmr
    assert all(r.default for r in rec.results_of("Russia"))
    assert executed(rec, "Russia") == canon("A Mos H", "F Sev H", "F StP/sc H", "A War H")


def test_two_powers_reaching_14_in_the_same_fall_both_win_and_the_result_names_both_pairs():
    from types import SimpleNamespace

    from dipgen.core.phase import Phase
    from dipgen.core.position import Position
    from dipgen.core.outcome import GameResult
    from dipgen.rules.seats import Seating

    variant = get_variant("double")
    start = variant.rules.start(1901)
    owners = dict(start.owners)
    for c in ["nwy", "swe", "den", "hol", "bel", "kie", "ber", "mun", "bre", "par", "mar"]:
        owners[c] = "England"
    for c in ["ser", "gre", "bul", "rum", "con", "ank", "smy", "sev", "mos", "war", "stp"]:
        owners[c] = "Austria"
    fall = Phase(1905, 1)
    position = Position(fall, start.units, owners)
    result = variant.rules.game_result(position, fall, Seating((), {}), True)
    assert result == GameResult("solo", ("Austria", "England"), fall)
    names = {"Austria": "Fay and Gus", "England": "Ann and Gus"}
    history = SimpleNamespace(result=result, player=lambda p, phase: names[p],
                              records=[SimpleNamespace(after=position)])
    assert variant.words.result_line(history) == ("Austria's two captains, Fay and Gus, and England's two captains, "
                                            "Ann and Gus, win together with 14 and 14 centres in Fall 1905!")
    assert variant.rules.game_result(position, fall, Seating((), {}), False) is None  # only after a Fall turn


def test_drawn_seats_belong_to_the_history_and_the_loaded_game_stays_as_the_gm_wrote_it(tmp_path):
    """With seats: random the replay draws who is which player; that seating is the History's
    (`History.seating`), while the Game keeps the seats as game.yml gives them (nobody's powers yet)."""
    seed = bytes(range(32))
    names = list(NAMES.values())
    folder = write(tmp_path / "g", game={"seats": "random", "players": names}, seed=seed)
    ann, gus = replay_folder(folder).seating.controllers("England")  # England's captains, as drawn
    write_game(folder, {"1901-spring.yml": yaml.safe_dump({"orders": {"England": {ann: ["F Lon - NTH"],
                                                                                  gus: ["F Lon - ENG"]}}})})
    game = load_game(folder)
    before = game.seating
    h = replay(game)  # the drawn captains' orders are accepted
    assert game.seating is before
    assert all(v == () for v in game.seating.control.values())
    (draw,) = h.draws.setup_draws
    assert h.seating.powers_of(draw.value[0]) == tuple(p for p in BOARD.powers if p in TABLE[1])
    assert reasons(h.records[0], "England") == {"lon": Sync.HOLDS}
    assert replay(game).seating == h.seating  # replaying the same loaded game draws the same seats


def test_an_illegal_support_that_overrules_a_hold_is_shown_once(tmp_path):
    """The support stands over the hold, then is illegal (Picardy cannot reach Portugal): the unit
    holds, and the report shows it once, with both what the synchronisation decided and why the
    order failed (it printed the unit twice, once as 'illegal' and once as 'support stands')."""
    from support import game_report

    h = france_in_picardy(tmp_path, {"France": {
        "Eve": ["A Pic HOLD", "F MAO – Por", "A Spa H"],
        "Fay": ["A Pic S F MAO - Por", "F MAO – Por", "A Spa H"]}})
    fall = h.records[1]
    report = game_report(h, fall.phase).splitlines()
    pic = [x for x in report if "A Pic" in x]
    assert len(pic) == 1
    assert pic[0].startswith("  ! ")
    assert "A Pic S F MAO - Por (*illegal, support stands over hold*)" in pic[0]
    assert pic[0].endswith("-- illegal: Picardy cannot reach Portugal, so cannot support a move there; "
                           "intake: a support overrules a hold")
    assert ("France", "A", "pic") in {(u.power, u.kind, u.province) for u in fall.after.units}
    (w,) = h.warnings
    assert w.code == "illegal-order"
    assert w.subject == "A Pic S F MAO - Por"
