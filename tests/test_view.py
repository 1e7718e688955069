"""The one door: every output is made from a view, and the view is made in one place.

What is decided once and read everywhere: whether a game is revealed, its secrets.yml (read
once per game per build), what each level's calendar shows, what is owed next. The
non-interference family (`test_noninterference.py`) checks what the door lets through.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from dipgen.view import UNKNOWN, game_view, revealed
from support import REPO, build, game_report, load, make_project

PACKAGE = REPO / "dipgen"


def test_unknown_is_neither_true_nor_false():
    with pytest.raises(TypeError):
        bool(UNKNOWN)
    assert repr(UNKNOWN) == "UNKNOWN"


def test_one_rule_says_when_a_game_is_revealed():
    """`reveal` is read in one place (`dipgen.rules.visibility.reveal_reached`), besides the reader
    of game.yml that checks what it says."""
    readers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "reveal":
                readers.append(path.relative_to(PACKAGE).as_posix())
    # the replay copies it into GameInfo
    assert sorted(set(readers)) == ["play/replay.py", "rules/visibility.py"], readers


@pytest.mark.slow
def test_secrets_yml_is_read_once_per_game_per_build(tmp_path, monkeypatch):
    import dipgen.io.secretsfile as secrets

    reads: list[str] = []
    real = secrets._read
    monkeypatch.setattr(secrets, "_read", lambda path: reads.append(Path(path).parent.name) or real(path))
    project = make_project(tmp_path / "p", ["quiet-frontier", "lamps-out"], plugin={"workers": 1})  # read here
    build(project)
    assert reads == ["quiet-frontier"]  # the demo game: its seed, lots and passphrases, in one reading


def test_the_public_report_says_what_the_public_site_says():
    """The report the GM e-mails everyone is the public view's: for a running hidden game, its
    last season on the public calendar, its status ("Next: ... ") and totals no sooner than the
    site's Winter page."""
    for slug in ("lamps-out", "closed-shutters", "night-flights"):
        h = load(REPO / "games" / slug)
        public = game_view(h, "public")
        text = game_report(h)
        assert text.splitlines()[0].endswith(public.records[-1].title)
        assert f"Next: {public.due.name}." in text
        assert "retreats" not in text.splitlines()[0]
        assert "adjustments" not in text
        if public.records[-1].phase.season_index != 2:
            assert "Supply centres:" not in text


def test_a_players_calendar_is_the_public_one_and_her_own(tmp_path):
    """In a hidden game, a player who takes no part in a retreat or a winter does not see it: her
    seasons are the public calendar's, folded as the public's are, plus those she took part in."""
    h = load(REPO / "games" / "closed-shutters")
    public = [r.phase for r in game_view(h, "public").records]
    for power in h.variant.rules.powers():
        mine = game_view(h, power)
        extra = [r for r in mine.records if r.phase not in public]
        for r in extra:  # only phases she took part in
            record = h.record(r.phase)
            assert power in record.adjustments or any(
                power in (d.unit.power, d.by_power) for d in record.before.dislodged), (power, r.phase)
        assert set(public) - {r.phase for r in mine.records} <= {
            p for p in public if p.season_index == 2}, power  # a winter she adjusted in stands for the public's


def test_hidden_press_in_a_retreat_or_winter_file_is_a_warning_where_the_public_cannot_read_it(make_game):
    """Where the public may not read a retreat or winter file's press (a hidden game with a fixed
    calendar), the GM is warned; in Taskdip, whose board is public, she is not."""
    stab = make_game({
        "game.yml": "title: T\nvariant: stab\ngm: G\nplayers: {Austria: A, England: B, France: C, Germany: D, "
                    "Italy: E, Russia: F, Turkey: G}\n",
        "1901-spring.yml": "placement: {France: [A Par, F Bre, A Mar]}\n"
                           "orders:\n  France: [A Par - Bur]\n  Germany: [A Mun - Ruh, A Ber - Mun]\n",
        "1901-fall.yml": "orders:\n  Germany: [A Ruh - Bur, A Mun S A Ruh - Bur]\n  France: [A Bur H]\n",
        "1901-fall-retreats.yml": "orders:\n  France: [A Bur - Pic]\nnotes: France retreated to Picardy.\n"},
        slug="stab")
    h = load(stab)
    (w,) = [w for w in h.warnings if "stay unpublished" in w.message]
    assert w.file.endswith("1901-fall-retreats.yml")
    assert w.severity == "warning"
    assert "Picardy" not in "".join(game_report(h))


def test_what_is_owed_next_is_the_levels_own():
    """The GM is told every power's builds; a player only her own; the public of a hidden game
    nothing (it does not even know a winter is due)."""
    h = load(REPO / "games" / "north-sea-ledger")  # an open game: everyone is told
    gm, public = game_view(h, "gm"), game_view(h, "public")
    assert gm.owed == public.owed
    for slug in ("lamps-out", "closed-shutters"):
        h = load(REPO / "games" / slug)
        assert not game_view(h, "public").owed
        assert not game_view(h, "public").retreating
        for power in h.variant.rules.powers():
            assert set(game_view(h, power).owed) <= {power}


def test_the_view_keeps_what_it_made_of_a_history_while_the_history_lives():
    """The view's caches are the view's (`dipgen.view.cache`), not attributes of the History: a
    level's view is made once per History, a History made anew (`replace`) gets views of its own,
    and the cache goes when its History does."""
    import gc
    from dataclasses import replace

    from dipgen.view.cache import _CACHES

    h = load(REPO / "games" / "lamps-out")
    view = game_view(h, "France")
    assert game_view(h, "France") is view
    assert not any(k.startswith("_") for k in vars(h))  # nothing of the view's on the History
    again = replace(h)
    assert game_view(again, "France") is not view
    assert game_view(again, "France") == view
    key = id(again)
    del again
    gc.collect()
    assert key not in _CACHES


def test_the_views_own_facts_come_from_the_policy_not_from_what_is_shown():
    """Whether a level knows the whole board is the policy's ruling: the public of a hidden game
    never does, whatever it happens to see; the GM always does."""
    h = load(REPO / "games" / "lamps-out")
    assert not revealed(h)
    assert all(not r.after.whole for r in game_view(h, "public").records)
    assert all(not r.after.whole for r in game_view(h, "France").records)
    assert all(r.after.whole for r in game_view(h, "gm").records)


def test_no_output_reads_none_for_unknown():
    """Presentation code compares UNKNOWN by identity, never by truth: no `if x.totals:` on a
    value that may be UNKNOWN (it would raise)."""
    for path in sorted(p for p in (PACKAGE / "present").rglob("*.py") if "svg" not in p.parts):  # svg draws a MapView
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"if (not )?[\w.]*\.(totals|retreats|attacker_from|by_power)\s*(:|and|or)", text), path
