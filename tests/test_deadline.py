"""The deadline where players look (issue 35): "Orders for Fall 1901 are due ..." on the game page,
the latest season's page, the report and the feed; the calendar's reminders (game.yml's
``reminders:``, a day before by default); and a deadline gone stale (before the latest phase file
was committed: an earlier phase's), which `dipgen check` warns of and nothing shows as current."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import feedparser
import icalendar
import pytest

from dipgen.cli import main
from dipgen.usecases.games import stale_deadline
from dipgen.core.errors import GameError
from dipgen.io.commits import Commits
from dipgen.present.site.pages import SiteOptions
from support import GAME_YML, loaded, public_site, report, write_game
from support.gitrepo import FALL, SPRING, at, commit, git

UTC = dt.timezone.utc
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
OPTIONS = SiteOptions(site_name="Club")
DUE = "Orders for Fall 1901 are due"


def _alarms(files: dict[str, str], slug: str = "g") -> list[dt.timedelta]:
    [event] = icalendar.Calendar.from_ical(files[f"games/{slug}/deadline.ics"]).walk("VEVENT")
    return [alarm.decoded("TRIGGER") for alarm in event.walk("VALARM")]


@pytest.mark.parametrize("reminders,expected", [
    ("", [-dt.timedelta(days=1)]),
    ("reminders: [P1D, PT2H]\n", [-dt.timedelta(days=1), -dt.timedelta(hours=2)]),
    ("reminders: [P1DT12H, PT30M, P1W]\n", [-dt.timedelta(days=1, hours=12), -dt.timedelta(minutes=30),
                                            -dt.timedelta(weeks=1)]),
    ("reminders: []\n", []),
])
def test_the_calendar_reminds_a_day_before_or_as_game_yml_says(tmp_path, reminders, expected):
    folder = write_game(tmp_path / "g", {"game.yml": GAME_YML + "deadline: 2030-01-01T12:00:00Z\n" + reminders})
    files = public_site(loaded(folder).history, OPTIONS)
    assert _alarms(files) == expected
    if not reminders:
        assert "Orders for Spring 1901 are due in 1 day" in files["games/g/deadline.ics"].replace("\r\n ", "")


@pytest.mark.parametrize("value,line", [
    ("[P0D]", 12), ("[1 day]", 12), ("[P30D]", 12), ("[P1D, P1D]", 12), ("[12]", 12), ("P", 12),
    ("[PT1H, PT2H, PT3H, PT4H, PT5H, PT6H]", 12), ("{a: P1D}", 12), ("\n  - P1D\n  - PT\n", 14),
])
def test_bad_reminders_are_errors_with_the_line(tmp_path, value, line):
    folder = write_game(tmp_path / "g", {"game.yml": GAME_YML + "deadline: 2030-01-01T12:00:00Z\n"
                                         f"reminders: {value}\n"})
    with pytest.raises(GameError) as e:
        loaded(folder)
    [problem] = e.value.problems
    assert (problem.line, problem.code) == (line, "bad-value")
    assert problem.hint


def test_the_deadline_is_said_on_the_pages_the_report_and_the_feed(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME_YML + "deadline: 2030-01-01T12:00:00Z\n",
                                         "1901-spring.yml": SPRING})
    history = loaded(folder).history
    files = public_site(history, OPTIONS)
    shown = f'{DUE} <time class="dg-time" datetime="2030-01-01T12:00:00Z" data-dg-deadline>Tue 1 Jan 2030, 12:00 UTC'
    assert shown in files["games/g/index.md"]
    assert shown in files["games/g/1901-spring/index.md"]  # the latest season's page
    assert f"{DUE} Tue 1 Jan 2030, 12:00 UTC." in report(history)
    assert f"{DUE} Tue 1 Jan 2030, 12:00 UTC." in report(history, "France")  # a private report too
    [entry] = feedparser.parse(files["games/g/feed.xml"]).entries
    assert entry.summary.endswith(f"{DUE} Tue 1 Jan 2030, 12:00 UTC.")


def test_an_adjustment_phase_is_named_in_plain_words(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME_YML + "deadline: 2030-01-01T12:00:00Z\n",
                                         "1901-spring.yml": SPRING, "1901-fall.yml": FALL})
    history = loaded(folder).history
    assert "Orders for Winter 1901 adjustments are due Tue 1 Jan 2030" in report(history)
    page = public_site(history, OPTIONS)["games/g/index.md"]
    assert "adjustments orders are due" not in page
    assert "orders for Winter 1901 adjustments are due" in page


@pytest.fixture
def archive(tmp_path) -> Path:
    """game.yml committed on 1 March with a deadline on the 3rd; Spring 1901 committed on the 5th."""
    root = tmp_path / "archive"
    folder = write_game(root / "games" / "g", {"game.yml": GAME_YML + "deadline: 2026-03-03T12:00:00Z\n"})
    git(root, "init", "-q")
    commit(root, ["games/g/game.yml"], at(1))
    write_game(folder, {"1901-spring.yml": SPRING})
    commit(root, ["games/g/1901-spring.yml"], at(5))
    return folder


@needs_git
def test_a_stale_deadline_is_warned_of_and_shown_nowhere(archive, capsys):
    assert main(["check", str(archive)]) == 0
    err = capsys.readouterr().err
    assert "game.yml:11: warning: " in err
    assert "[deadline-stale]" in err
    assert "set deadline: to Fall 1901's deadline" in err
    history = loaded(archive).history
    files = public_site(history, OPTIONS)
    assert "are due <time" not in files["games/g/index.md"]
    assert "dg-deadline" not in files["games/g/index.md"]
    assert "dg-deadline" not in files["games/g/1901-spring/index.md"]
    assert "games/g/deadline.ics" not in files
    assert "are due" not in report(history).split("Next:")[1]
    assert "are due" not in feedparser.parse(files["games/g/feed.xml"]).entries[0].summary
    # moved on: shown again, and no warning
    game_yml = (archive / "game.yml").read_text(encoding="utf-8")
    write_game(archive, {"game.yml": game_yml.replace("2026-03-03", "2026-03-09")})
    capsys.readouterr()
    assert main(["check", str(archive)]) == 0
    assert "deadline" not in capsys.readouterr().err
    assert "games/g/deadline.ics" in public_site(loaded(archive).history, OPTIONS)


@needs_git
def test_a_phase_file_not_yet_committed_after_the_deadline_is_warned_of(archive):
    """The pre-commit hook's case: the GM wrote the Fall file after the deadline, and checks it
    before she commits it."""
    write_game(archive, {"game.yml": (archive / "game.yml").read_text(encoding="utf-8").replace("03-03", "03-07"),
                         "1901-fall.yml": FALL})
    history = loaded(archive).history
    commits = Commits({"game.yml": at(1), "1901-spring.yml": at(5)})
    [warning] = stale_deadline(history, commits, now=at(8))
    assert warning.code == "deadline-stale"
    assert "before 1901-fall.yml was written" in warning.message.replace(str(archive) + "/", "")
    assert stale_deadline(history, commits, now=at(6)) == []


def test_without_git_nothing_is_stale(tmp_path):
    """No commit times, no clock: a game folder outside git (a test's, a download's) says nothing."""
    folder = write_game(tmp_path / "g", {"game.yml": GAME_YML + "deadline: 2001-03-07T12:00:00Z\n",
                                         "1901-spring.yml": SPRING})
    history = loaded(folder).history
    assert stale_deadline(history, Commits()) == []
    assert DUE in public_site(history, OPTIONS)["games/g/index.md"]
