"""The bundled example games: every folder in games/ checks clean; every one but the few written
by hand is what the generator (tools/examples: from its story in tools/examples/data/stories/, or
its variant's scripted game) writes today, and shows what it promises: `require`, the checks the
generator runs on every game it writes, read from dipgen's own replay of the committed folder (a
story's finished game is a real game of ten years or more with convoys, dislodgements, retreats,
builds, removals, press and notes; the Stab! examples place their units freely and between them
show every kind of contact the reports reveal; the Blind examples place some spies and show them
at work; the scripted games show their variant's pieces at work). Here besides: what the checks
cannot count, such as the placements, and that the press of a hidden game says only what the
public knows.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from dipgen.core.board import province_of
from dipgen.cli import main as dipgen_main
from dipgen.io.gamefiles import load_game
from dipgen.io.folders import discover_games
from dipgen.core.orders import Concealed, Move, parse_unit
from dipgen.core.phase import Phase
from dipgen.core.phase import MOVEMENT
from dipgen.present.report import phase_report
from dipgen.view import game_view
from dipgen.view.seen import seen_record as view_record
from support import load, write_game
from tools.examples.checks import require
from tools.examples.files import MANIFEST, write_folder
from tools.examples.generate import EXAMPLES, FAMILIES
from tools.examples.story import load_stories

GAMES = Path(__file__).resolve().parent.parent / "games"
FOLDERS = discover_games(GAMES)
STORIES = {s.slug: s for s in load_stories()}
#: example games written by hand rather than generated, with their variant: their own variant's
#: tests check what they show
HAND_WRITTEN = {"austrian-question": "taskdip",
                "quiet-frontier": "taskdip",   # running, with public demo secrets (tests/test_demo_secrets.py)
                "night-flights": "blind-complicated"}  # tests/test_blind_complicated.py
GENERATED = [f for f in FOLDERS if f.name not in HAND_WRITTEN]
_HISTORIES: dict = {}


def _history(folder: Path):
    if folder not in _HISTORIES:
        _HISTORIES[folder] = load(folder)
    return _HISTORIES[folder]


def _of(variant: str) -> list:
    return [h for h in map(_history, FOLDERS) if h.variant.name == variant]


def test_there_are_example_games():
    assert len(FOLDERS) >= 2


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_game_checks_clean(folder):
    history = _history(folder)  # raises GameError on anything dipgen check would call an error
    assert history.records
    assert history.info.title
    assert history.info.gm
    assert history.info.description
    # warnings are allowed only for the deliberate misorders, and there are few of them
    assert len(history.warnings) <= 3


@pytest.mark.slow
def test_dipgen_check_passes(capsys):
    assert dipgen_main(["check", str(GAMES)]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok,") == len(FOLDERS)


def test_every_example_game_is_generated_or_written_by_hand():
    assert sorted(f.name for f in GENERATED) == sorted(EXAMPLES)
    assert set(STORIES) <= set(EXAMPLES)




def test_hand_written_examples_exist():
    assert {f.name: _history(f).variant.name for f in FOLDERS if f.name in HAND_WRITTEN} == HAND_WRITTEN


def test_taskdip_example():
    """Three players; neutral Austria violated by an order and re-allotted by the first criterion;
    Italy's task (one Russian home centre) decides the game."""
    h = _history(GAMES / "austrian-question")
    changes = [c for r in h.records for c in r.control]
    assert [(c.power, c.new) for c in changes] == [("Austria", "Cy Lindgren")]
    assert "fewest centres in total" in changes[0].why
    assert "(Italy: A Ven - Tyr)" in changes[0].why
    assert h.result.kind == "solo"
    assert h.result.powers == ("Italy",)
    assert "task" in h.result.condition
    # published, so that a build without secrets.yml draws the same lots
    assert load_game(GAMES / "austrian-question").seed


def test_taskdip_running_example():
    """Two players, running; each player violates a neutral power once (a move into a province
    without a centre) and the other receives it; the lots come from the demo secrets.yml."""
    h = _history(GAMES / "quiet-frontier")
    assert h.result is None
    assert h.next_phase is not None
    assert [(c.power, c.new) for r in h.records for c in r.control] == [("Austria", "Hanna Berg"),
                                                                         ("England", "Jonas Weil")]
    game = load_game(GAMES / "quiet-frontier")
    assert game.demo_secrets
    assert not game.seed


@pytest.mark.parametrize("folder", [f for f in GENERATED if EXAMPLES[f.name].require], ids=lambda p: p.name)
def test_example_game_shows_what_it_promises(folder):
    EXAMPLES[folder.name].require(_history(folder))


@pytest.mark.parametrize("variant", sorted(FAMILIES))
def test_every_family_has_a_finished_and_a_running_example(variant):
    games = _of(variant)
    assert any(h.result is not None for h in games), f"no finished {variant} example game"
    assert any(h.result is None for h in games), f"no running {variant} example game"


def test_the_checks_fail_a_game_that_lost_what_its_story_promises():
    """`require` is not a formality: a story whose result or misorders the game does not match fails it."""
    h = _history(GAMES / "winter-palace")
    story = STORIES["winter-palace"]
    with pytest.raises(AssertionError, match="winter-palace: the story ends in a draw"):
        require(h, dataclasses.replace(story, expect=("draw", 3)))
    with pytest.raises(AssertionError, match="warnings .* come only from the story's misorders"):
        require(h, dataclasses.replace(story, misorders={}))
    with pytest.raises(AssertionError, match="masked-ball: a 4-way draw"):
        require(_history(GAMES / "masked-ball"), dataclasses.replace(STORIES["masked-ball"], expect=("draw", 4)))


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(EXAMPLES), ids=str)
def test_regenerating_writes_the_committed_game(slug, tmp_path):
    """The generator writes the committed folder byte for byte, manifest included (a story-driven
    game's). If this fails after a deliberate change to the generator, a story or a phrase bank (or
    to dipgen's engine or views, which the bots and the press follow), rewrite the game with
    `python -m tools.examples SLUG --force` and review its diff."""
    example = EXAMPLES[slug]
    files = example.make()
    write_folder(tmp_path, files, example.manifest)
    committed = GAMES / slug
    assert sorted(p.name for p in committed.iterdir()) == sorted(p.name for p in tmp_path.iterdir())
    for name in sorted(files) + ([MANIFEST] if example.manifest else []):
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), \
            f"{slug}/{name}: not what the generator writes; python -m tools.examples {slug} --force, " \
            "and review the diff"


def test_orders_are_written_in_varied_notation():
    texts = [ol.text for h in map(_history, FOLDERS) for r in h.records for ls in r.orders.values() for ol in ls]
    assert any(t == t.lower() and t[0] in "af" for t in texts), "lower case"
    assert any("-" in t and " - " not in t and "->" not in t for t in texts), "A Par-Bur"
    assert any("->" in t for t in texts), "arrows"
    assert any(len(t.split()[1]) > 3 and t.split()[1].istitle() for t in texts if t[0] in "AF"), "full names"


# ---------------------------------------------------------------------------- Stab!

def _stab():
    return _of("stab")


def test_stab_placements():
    for h in _stab():
        variant = h.variant
        board = variant.rules.board
        first = load_game(Path(h.info.folder)).phases[Phase(h.info.start, 0)]
        placement = first.extra.get("placement")
        assert isinstance(placement, dict), first.name
        assert set(placement) == set(variant.rules.powers()), first.name
        opening = 0
        placed = set()
        for power, specs in placement.items():
            assert len(specs) == len(board.home_centres(power))
            units = [parse_unit(board, s) for s in specs]
            assert all(province_of(loc) in variant.rules.home_spaces(power) for _, loc in units)
            placed |= {(power, kind, loc) for kind, loc in units}
            opening += sorted(specs) == sorted(board.starting_units[power])
        assert opening <= 1, "placements should differ from the standard opening"
        assert {(u.power, u.kind, u.loc) for u in h.records[0].before.units} == placed  # the game starts from them
    specs = [s for h in _stab()
             for ss in load_game(Path(h.info.folder)).phases[Phase(1901, 0)].extra["placement"].values()
             for s in ss]
    assert "F NTH" in specs, "England uses its North Sea option somewhere"
    centres = {c for h in _stab() for c in h.variant.rules.board.centres}
    assert any(province_of(parse_unit(_stab()[0].variant.rules.board, s)[1]) not in centres for s in specs), \
        "some units start outside the home centres"


def test_stab_public_reports_read_like_the_rule_text():
    """Cut supports without their object, convoys under attack without their army, self-standoffs."""
    for h in _stab():
        public = game_view(h, "public")
        text = "".join(phase_report(public, r) for r in public.records)
        lines = [x.split("  -- ")[0].strip() for x in text.splitlines()]  # without the reasons
        assert any(x.endswith("S (*cut*)") or x.endswith("S (*cut, dislodged*)") for x in lines)
        assert any(x.startswith("F ") and (x.endswith(" C") or " C (*" in x) for x in lines)
        assert "(*self-standoff*)" in text
        assert "(*dislodged*)" in text
        assert "(NMR)" in text


def test_hidden_press_says_only_what_the_public_knows():
    """No press or note of a hidden game (Stab! or Blind) names an order the public report withheld,
    a unit or spy as reports write it (``A Par``, ``S Bur``) that the public view does not show, or a
    province where a hidden unit or spy stood or went that season (the capitals sign the press, so
    they are not counted)."""
    for h in _stab() + _blind():
        board = h.variant.rules.board
        capitals = {"vie", "lon", "par", "ber", "rom", "mos", "con"}
        known: set[str] = set()
        for rec in h.records:
            pub = view_record(h, rec, "public")
            for u in pub.before.units + pub.after.units:
                known.add(u.province)
            for d in pub.dislodged + pub.destroyed:
                known.add(d.unit.province)
            for r in pub.results:
                if isinstance(r.order, Move):
                    known.add(province_of(r.order.dest))
            text = rec.press + rec.notes
            public_orders = {r.order.format(board) for r in pub.results if not isinstance(r.order, Concealed)}
            for r in rec.results:
                if r.order is None or isinstance(r.order, Concealed):
                    continue
                written = r.order.format(board)
                if written not in public_orders:
                    assert written not in text, (rec.source, written)
            hidden = {u.province for u in rec.before.units + rec.after.units}
            hidden |= {province_of(r.order.dest) for r in rec.results if isinstance(r.order, Move)}
            for p in sorted(hidden - known - capitals):
                name = board.full_name(p)
                assert not re.search(rf"\b{re.escape(name)}\b", text), (rec.source, name)
            shown = {(u.kind, u.loc) for u in pub.before.units + pub.after.units}
            for u in rec.before.units + rec.after.units:
                if (u.kind, u.loc) not in shown:
                    words = f"{u.kind} {board.format_loc(u.loc)}"
                    assert not re.search(rf"(?<![\w/]){re.escape(words)}(?![\w/])", text), (rec.source, words)


# ---------------------------------------------------------------------------- Blind

def _blind():
    return _of("blind") + _of("blind-complicated")


def test_blind_spies_start_where_the_first_phase_says():
    for h in _blind():
        variant = h.variant
        spies = load_game(Path(h.info.folder)).phases[Phase(h.info.start, 0)].extra.get("spies")
        assert isinstance(spies, dict)
        assert 0 < len(spies) < len(variant.rules.powers())
        start = [u for u in h.records[0].before.units if u.kind == "S"]
        assert len(start) == 2 * len(variant.rules.powers())
        for power in variant.rules.powers():
            mine = sorted(s.province for s in start if s.power == power)
            if power in spies:
                assert mine == sorted(province_of(variant.rules.board.location(x)) for x in spies[power])
            else:
                assert variant.rules.capitals[power] in mine
            assert set(mine) <= set(variant.rules.home_centres(power))


def test_blind_public_reports_show_only_totals_and_nmrs():
    for h in _blind():
        for rec in h.records:
            pub = view_record(h, rec, "public")
            assert not pub.results
            assert not pub.before.units
            assert not pub.after.units
            assert not pub.dislodged
            assert not pub.destroyed
            assert not pub.centre_changes
            assert not pub.after.owners
            assert pub.nmr == (rec.nmr if rec.kind == MOVEMENT else ())  # a winter's NMRs: its power's own
        public = game_view(h, "public")
        text = "".join(phase_report(public, r) for r in public.records)
        assert "(NMR)" in text
        assert "centres" in text
        assert not re.search(r"^\s+[AFS] [A-Z][a-z]{2}", text, re.M), "no unit or order lines"


# ---------------------------------------------------------------------------- the generator's data

def test_a_story_with_an_unknown_key_is_refused():
    from tools.examples.story import script_from

    data = {"title": "T", "gm": "G", "players": {}, "description": "", "seed": 1, "alliances": [], "events": {},
            "styles": {}, "colour": "red"}
    with pytest.raises(ValueError, match=r"story odd: unknown keys \['colour'\]"):
        script_from("odd", data)


def test_a_phrase_bank_dropping_a_template_its_source_lacks_is_refused(tmp_path, monkeypatch):
    from tools.examples import press

    (tmp_path / "press").mkdir()
    (tmp_path / "press" / "standard.yml").write_text("press: {quiet: [a, b]}\nnotes: {}\nfixed: {}\n")
    (tmp_path / "press" / "stab.yml").write_text(
        "press: {quiet: {same_as: standard, without: [c]}}\nnotes: {}\nfixed: {}\n")
    monkeypatch.setattr(press, "DATA", tmp_path)
    with pytest.raises(ValueError, match=r"stab.yml: press.quiet: 'without' names templates standard does not have"):
        press.load_banks(("standard", "stab"))
    (tmp_path / "press" / "stab.yml").write_text(
        "press: {quiet: {same_as: standard, without: [b]}}\nnotes: {}\nfixed: {due: {same_as: standard}}\n")
    (tmp_path / "press" / "standard.yml").write_text("press: {quiet: [a, b]}\nnotes: {}\nfixed: {due: x}\n")
    banks = press.load_banks(("standard", "stab"))
    assert banks["stab"]["press"]["quiet"] == ["a"]
    assert banks["stab"]["fixed"]["due"] == "x"


# ---------------------------------------------------------------------------- the command

@pytest.mark.slow
def test_the_command_writes_the_named_games_and_leaves_hand_edits_alone(tmp_path, capsys):
    from tools.examples.cli import main

    assert main(["lamps-out", "tracks-in-the-mud", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lamps-out", "tracks-in-the-mud"]
    for slug in ("lamps-out", "tracks-in-the-mud"):
        assert {p.name: p.read_bytes() for p in (tmp_path / slug).iterdir()} == \
               {p.name: p.read_bytes() for p in (GAMES / slug).iterdir()}
    edited = tmp_path / "lamps-out" / "1901-fall.yml"
    write_game(tmp_path / "lamps-out", {"1901-fall.yml": edited.read_text() + "notes: a GM's own words\n"})
    capsys.readouterr()
    assert main(["lamps-out", "--out", str(tmp_path)]) == 1
    assert "edited by hand (1901-fall.yml)" in capsys.readouterr().err
    assert "a GM's own words" in edited.read_text()
    assert main(["lamps-out", "--out", str(tmp_path), "--force"]) == 0
    assert edited.read_bytes() == (GAMES / "lamps-out" / "1901-fall.yml").read_bytes()


def test_the_command_names_the_games_it_knows(capsys):
    from tools.examples.cli import main

    with pytest.raises(SystemExit):
        main(["no-such-game"])
    assert "no generated example game no-such-game; the generated ones are closed-shutters" in capsys.readouterr().err
