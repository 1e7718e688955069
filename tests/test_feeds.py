"""Deadlines, commit times, the Atom feeds and the deadline's calendar (issue 24, points 1 and 2).

The deadline is read from game.yml (ISO 8601 with an offset, else an error with its line); the
times come from git, one log per game folder, and reach the outputs only through the view: on a
hidden game's public calendar, the times of the movement files alone. The feeds are parsed by
feedparser and the calendar by icalendar, as a reader's software would.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess

import feedparser
import icalendar
import pytest

from dipgen.core.errors import GameError
from dipgen.core.phase import Phase
from dipgen.io.commits import Commits, commit_times
from dipgen.io.deadline import parse_deadline
from dipgen.present.site.pages import SiteOptions
from dipgen.present.times import record_times
from dipgen.view import game_view
from support import GAME_YML, REPO, loaded, public_site, write_game
from support.browser import browser_test
from support.gitrepo import FALL, SPRING, at, commit, git

UTC = dt.timezone.utc
GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")

GAME = GAME_YML  # a standard game, seven players
# ----------------------------------------------------------------------------- the deadline

@pytest.mark.parametrize("text,expected", [
    ("2026-03-07T12:00:00Z", at(7)),
    ("2026-03-07T13:00+01:00", at(7)),
    ("2026-03-07 07:30:00-04:30", at(7)),
    ("2026-03-07t12:00:00.5z", at(7).replace(microsecond=500000)),
    ("2026-03-07T14:00+0200", at(7)),
])
def test_a_deadline_is_a_date_and_time_with_its_offset(text, expected):
    assert parse_deadline(text) == expected
    assert parse_deadline(text).tzinfo == UTC


@pytest.mark.parametrize("value,words", [
    ('"2026-03-07"', "a date alone"),
    ("2026-03-07", "a date alone"),                        # YAML reads it as a date
    ('"2026-03-07T12:00"', "without its offset"),
    ("2026-03-07T12:00:00", "no offset"),                  # YAML reads it as a date and time, without offset
    ('"next Friday"', "not an ISO 8601"),
    ('"2026-02-30T12:00Z"', "not a real date"),
    ('"2026-03-07T12:00+25:00"', "does not exist"),
    ("12", "not a number"),
    ("[2026-03-07T12:00:00Z]", "not a list"),
    ("9999-12-31T23:59:00-10:00", "out of range"),         # in UTC, past the year 9999 (issue 32, 3.5)
    ('"9999-12-31T23:59:00-10:00"', "out of range"),
    ("0001-01-01T00:30:00+01:00", "out of range"),         # in UTC, before the year 1
    ('"0001-01-01T00:30:00+01:00"', "out of range"),
])
def test_a_deadline_that_is_not_a_moment_is_an_error_with_its_line(tmp_path, value, words):
    folder = write_game(tmp_path / "g", {"game.yml": GAME + f"deadline: {value}\n"})
    with pytest.raises(GameError) as e:
        loaded(folder)
    [problem] = [p for p in e.value.problems if "deadline" in p.message]
    assert words.replace("not a number", "a number").replace("not a list", "a list") in problem.message
    assert problem.code == "bad-deadline"
    assert problem.line == 11
    assert problem.file.endswith("game.yml")
    assert "deadline: 2026-03-07T12:00:00Z" in problem.hint


def test_a_bad_deadline_stops_nothing_else_from_being_checked(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME + 'deadline: "soon"\n',
                                        "1901-spring.yml": "orders:\n  France: [A Par - Mun]\n"})
    with pytest.raises(GameError) as e:
        loaded(folder)
    messages = [p.message for p in e.value.problems]
    assert any("deadline" in m for m in messages)
    assert any("Par" in m or "Munich" in m for m in messages)


def test_a_finished_game_ignores_its_deadline_with_a_warning(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME + "deadline: 2026-03-07T12:00:00Z\n"
                                        "end: {abandoned: the players left}\n", "1901-spring.yml": SPRING})
    game = loaded(folder)
    [warning] = [w for w in game.history.warnings if "deadline" in w.message]
    assert warning.severity == "warning"
    assert warning.line == 11
    assert game_view(game.history, "public").deadline is None
    assert not [uri for uri in public_site(game.history) if uri.endswith(".ics")]


# ----------------------------------------------------------------------------- times from git

@needs_git
def test_commit_times_are_read_with_one_log_per_folder(tmp_path, monkeypatch):
    root = tmp_path / "archive"
    folder = write_game(root / "games" / "g", {"game.yml": GAME, "1901-spring.yml": SPRING})
    git(root, "init", "-q")
    commit(root, ["games/g/game.yml"], at(1))
    commit(root, ["games/g/1901-spring.yml"], at(2))
    write_game(folder / "notes", {"1901-fall.yml": "a file of a folder inside the game\n"})
    commit(root, ["games/g/notes"], at(3))
    git(root, "mv", "games/g/1901-spring.yml", "games/g/old.yml")
    commit(root, ["-A"], at(4))
    git(root, "mv", "games/g/old.yml", "games/g/1901-spring.yml")
    commit(root, ["-A"], at(5))
    write_game(folder, {"1901-fall.yml": FALL})  # not committed: no time
    calls = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    times = commit_times(folder)
    assert times == Commits({"game.yml": at(1), "1901-spring.yml": at(5), "old.yml": at(4)})
    assert [c[3] for c in calls].count("log") == 1  # (and a rev-parse: the root commit added game.yml)
    monkeypatch.undo()
    game = loaded(folder)
    assert [r.time for r in game.history.records] == [at(5), None]
    assert game.history.info.created == at(1)


@needs_git
def test_every_game_of_an_archive_is_read_with_one_log(tmp_path, monkeypatch):
    """The build reads the times of every game with one ``git log`` of the games folder: each game
    gets what `commit_times` gives it alone (a file in a folder inside a game is no file of it)."""
    from dipgen.io.commits import commit_times_of

    root = tmp_path / "archive"
    a = write_game(root / "games" / "a", {"game.yml": GAME, "1901-spring.yml": SPRING})
    b = write_game(root / "games" / "b", {"game.yml": GAME})
    write_game(b / "notes", {"game.yml": "a file of a folder inside the game\n"})
    empty = write_game(root / "games" / "c", {"game.yml": GAME})  # never committed
    git(root, "init", "-q")
    commit(root, ["games/a/game.yml", "games/b/game.yml"], at(1))
    commit(root, ["games/a/1901-spring.yml"], at(2))
    commit(root, ["games/b/notes"], at(3))
    calls = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *args, **k: calls.append(args[0]) or real(*args, **k))
    times = commit_times_of([a, b, empty])
    assert [c[3] for c in calls].count("log") == 1
    monkeypatch.undo()
    assert times == {str(f): commit_times(f) for f in (a, b, empty)}
    assert times[str(b)] == Commits({"game.yml": at(1)})
    assert times[str(empty)] == Commits()


def test_no_git_no_times(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME, "1901-spring.yml": SPRING})
    assert commit_times(folder) == Commits()
    assert commit_times(tmp_path / "missing") == Commits()
    assert [r.time for r in loaded(folder).history.records] == [None]


@needs_git
def test_a_shallow_clone_knows_no_time_of_its_oldest_commit(tmp_path):
    root = tmp_path / "archive"
    write_game(root / "games" / "g", {"game.yml": GAME, "1901-spring.yml": SPRING, "1901-fall.yml": FALL})
    git(root, "init", "-q")
    commit(root, ["games/g/game.yml"], at(1))
    commit(root, ["games/g/1901-spring.yml"], at(2))
    commit(root, ["games/g/1901-fall.yml"], at(3))
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{root}", str(clone)], check=True)
    times = commit_times(clone / "games" / "g")
    assert times == Commits({"1901-fall.yml": at(3)}, shallow=True)
    game = loaded(clone / "games" / "g")
    (shallow,) = [w for w in game.history.warnings if w.code == "shallow-clone"]
    assert "fetch-depth: 0" in shallow.hint  # shallow-clone's fix, tested here once
    full = commit_times(root / "games" / "g")
    assert full == Commits({"game.yml": at(1), "1901-spring.yml": at(2), "1901-fall.yml": at(3)})


@needs_git
def test_a_serving_process_reads_the_whole_log_once_then_only_what_was_committed_since(tmp_path, monkeypatch):
    """`CommitLog` (`mkdocs serve`'s, kept across rebuilds) gives what `commit_times_of` gives at every
    step, and reads: the whole log first; no log while HEAD stays (an edit not yet committed); the
    commits since when HEAD moves forward (a new phase, a file deleted and added again, a new game);
    the whole log again when HEAD moves anywhere else (an amended commit)."""
    from dipgen.io.commits import CommitLog, commit_times_of

    root = tmp_path / "archive"
    a = write_game(root / "games" / "a", {"game.yml": GAME, "1901-spring.yml": SPRING})
    b = write_game(root / "games" / "b", {"game.yml": GAME})
    git(root, "init", "-q")
    commit(root, ["games/a/game.yml", "games/b/game.yml"], at(1))
    commit(root, ["games/a/1901-spring.yml"], at(2))
    log = CommitLog()
    logs = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *args, **k: logs.append(args[0][3]) or real(*args, **k))

    def step(folders, read: str) -> None:
        logs.clear()
        got = log.of(folders)
        assert log.reads[-1] == read
        assert logs.count("log") == (0 if read == "" else 1)
        assert got == commit_times_of(folders)

    step([a, b], "whole")
    write_game(a, {"1901-fall.yml": FALL})  # edited, not committed: no time, no log read
    step([a, b], "")
    commit(root, ["games/a/1901-fall.yml"], at(3))
    step([a, b], "since")
    assert log.of([a, b])[str(a)].get("1901-fall.yml") == at(3)
    git(root, "rm", "-q", "games/b/game.yml")
    commit(root, ["-A"], at(4))
    write_game(b, {"game.yml": GAME})
    commit(root, ["games/b/game.yml"], at(5))  # added again: its newest add
    c = write_game(root / "games" / "c", {"game.yml": GAME})
    commit(root, ["games/c/game.yml"], at(6))
    step([a, b, c], "since")
    assert log.of([a, b, c])[str(b)].get("game.yml") == at(5)
    git(root, "commit", "-q", "--amend", "-m", "amended", when=at(7))  # HEAD moved, not forward
    step([a, b, c], "whole")
    assert log.of([a, b, c])[str(c)].get("game.yml") == at(7)


@needs_git
def test_a_serving_process_reads_the_whole_log_again_when_a_shallow_clone_is_made_whole(tmp_path):
    from dipgen.io.commits import CommitLog, commit_times_of

    root = tmp_path / "archive"
    write_game(root / "games" / "a", {"game.yml": GAME, "1901-spring.yml": SPRING})
    write_game(root / "games" / "b", {"game.yml": GAME})
    git(root, "init", "-q")
    commit(root, ["games/a/game.yml", "games/b/game.yml"], at(1))
    commit(root, ["games/a/1901-spring.yml"], at(2))
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{root}", str(clone)], check=True)
    folders = [clone / "games" / "a", clone / "games" / "b"]
    log = CommitLog()
    assert log.of(folders) == commit_times_of(folders)
    assert log.of(folders)[str(folders[0])].shallow
    git(clone, "fetch", "-q", "--unshallow")  # HEAD as it was, the history whole
    assert log.of(folders) == commit_times_of(folders)
    assert log.reads == ["whole", "", "whole"]
    assert log.of(folders)[str(folders[0])] == Commits({"game.yml": at(1), "1901-spring.yml": at(2)})


# ----------------------------------------------------------------------------- what a level may know of them

HIDDEN = "closed-shutters"  # a running Blind game with retreats and winters


@pytest.fixture(scope="module")
def hidden_archive(tmp_path_factory):
    """The Blind example committed one file a day in the order of play, each at its own hour (so
    that every file's time is unique), with a deadline."""
    if GIT is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("hidden") / "archive"
    folder = root / "games" / HIDDEN
    shutil.copytree(REPO / "games" / HIDDEN, folder)
    with open(folder / "game.yml", "a", encoding="utf-8") as f:
        f.write("deadline: 2026-04-01T18:00:00+02:00\n")
    git(root, "init", "-q")
    times = {}
    names = ["game.yml"] + sorted((p.name for p in folder.glob("19*.yml")), key=lambda n: Phase.from_slug(n[:-4]))
    for i, name in enumerate(names):
        times[name] = dt.datetime(2026, 1, 1, tzinfo=UTC) + dt.timedelta(days=i, hours=i % 24, minutes=i)
        commit(root, [f"games/{HIDDEN}/{name}"], times[name])
    return folder, times


def test_the_public_knows_the_times_of_the_movement_files_only(hidden_archive):
    folder, times = hidden_archive
    history = loaded(folder).history
    public = game_view(history, "public")
    for record in public.records:
        fall = f"{record.phase.year}-fall.yml"
        expected = times[fall] if record.phase.season_index == 2 else times[f"{record.phase.slug}.yml"]
        assert record.time == expected, record.title  # a Winter: the year's Fall movement file's
    gm = game_view(history, "gm")
    closing = {f"{r.phase.slug}.yml" for r in history.records if r.phase.retreats and not r.before.dislodged}
    assert closing  # an empty file closes a Fall nobody retreated in: the GM reads it in its Fall's season
    assert {r.time for r in gm.records} == {t for n, t in times.items() if n != "game.yml" and n not in closing}


def test_no_public_file_holds_the_time_of_a_hidden_phase_file(hidden_archive):
    folder, times = hidden_archive
    files = public_site(loaded(folder).history, SiteOptions(site_url="https://club.example.org/dip/",
                                                            site_name="Club"))
    hidden = [t for n, t in times.items() if "retreats" in n or "winter" in n]
    assert hidden
    for t in hidden:
        for shown in (t.strftime("%Y-%m-%dT%H:%M:%S"), t.strftime("%Y%m%dT%H%M%S")):
            assert not [uri for uri, content in files.items()  # the PNG maps' bytes too
                        if shown.encode() in (content if isinstance(content, bytes) else content.encode())], shown
    public = [t for n, t in times.items() if "retreats" not in n and "winter" not in n and n != "game.yml"]
    feed = files[f"games/{HIDDEN}/feed.xml"]
    assert all(t.strftime("%Y-%m-%dT%H:%M:%SZ") in feed for t in public)


def test_a_hidden_game_waiting_for_hidden_retreats_names_the_next_public_phase(tmp_path):
    folder = tmp_path / "cs"
    shutil.copytree(REPO / "games" / HIDDEN, folder)
    (folder / "1904-spring-retreats.yml").unlink()  # the game now waits for retreats the public is not told of
    write_game(folder,
               {"game.yml": (folder / "game.yml").read_text(encoding="utf-8") + "deadline: 2030-01-01T00:00:00Z\n"})
    history = loaded(folder).history
    assert history.next_phase.retreats
    files = public_site(history, SiteOptions(site_name="Club"))
    assert "Orders for Fall 1904 are due <time" in files["games/cs/index.md"]
    public = game_view(history, "public")
    latest = files[f"games/cs/{public.records[-1].phase.slug}/index.md"]  # the latest public season's page
    assert "Orders for Fall 1904 are due <time" in latest
    assert "retreat" not in latest.split("dg-deadline")[1][:200]
    event = icalendar.Calendar.from_ical(files["games/cs/deadline.ics"].encode()).walk("VEVENT")[0]
    assert str(event["SUMMARY"]) == "Closed Shutters: orders for Fall 1904 due"
    assert "retreat" not in files["games/cs/deadline.ics"].lower()


def test_a_season_without_a_time_takes_the_one_before_else_game_yml_s_else_its_first_year(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME, "1901-spring.yml": SPRING, "1901-fall.yml": FALL})
    history = loaded(folder).history
    assert record_times(game_view(history, "public")) == [dt.datetime(1901, 1, 1, tzinfo=UTC)] * 2
    from dataclasses import replace

    timed = replace(history, records=[replace(history.records[0], time=at(2)), history.records[1]],
                    info=replace(history.info, created=at(1)))
    assert record_times(game_view(timed, "public")) == [at(2), at(2)]
    untimed = replace(history, info=replace(history.info, created=at(1)))
    assert record_times(game_view(untimed, "public")) == [at(1), at(1)]


# ----------------------------------------------------------------------------- the feeds

def _options(**kw) -> SiteOptions:
    return SiteOptions(site_name="The Club", **kw)


def test_the_game_feed_is_valid_atom_with_an_entry_per_public_season(hidden_archive):
    folder, times = hidden_archive
    history = loaded(folder).history
    public = game_view(history, "public")
    files = public_site(history, _options())
    parsed = feedparser.parse(files[f"games/{HIDDEN}/feed.xml"])
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert parsed.feed.title == public.title
    assert parsed.feed.author == public.info.gm
    assert parsed.feed.id.startswith("urn:uuid:")
    assert [e.title for e in parsed.entries] == [f"{public.title}: {r.title}" for r in reversed(public.records)]
    assert len({e.id for e in parsed.entries}) == len(public.records)
    newest = parsed.entries[0]
    assert newest.link == public.records[-1].phase.slug + "/"  # relative to the feed, without a site_url
    assert dt.datetime(*newest.updated_parsed[:6], tzinfo=UTC) == public.records[-1].time
    assert all(e.summary for e in parsed.entries)
    assert not any("retreats" in e.title or "adjustments" in e.title for e in parsed.entries)


def test_feeds_with_a_site_url_have_absolute_addresses_and_the_same_ids(hidden_archive):
    folder, _ = hidden_archive
    history = loaded(folder).history
    plain = feedparser.parse(public_site(history, _options())[f"games/{HIDDEN}/feed.xml"])
    files = public_site(history, _options(site_url="https://club.example.org/dip/", directory_urls=False))
    placed = feedparser.parse(files[f"games/{HIDDEN}/feed.xml"])
    assert not placed.bozo
    assert placed.entries[0].link.startswith(f"https://club.example.org/dip/games/{HIDDEN}/19")
    assert placed.entries[0].link.endswith("/index.html")
    assert [link.href for link in placed.feed.links if link.rel == "self"] == \
        [f"https://club.example.org/dip/games/{HIDDEN}/feed.xml"]
    assert [e.id for e in placed.entries] == [e.id for e in plain.entries]  # a feed that moves keeps its ids


def test_the_archive_feed_has_the_newest_fifty_seasons_of_every_game():
    from support import load

    histories = [load(REPO / "games" / slug) for slug in ("winter-palace", "masked-ball", "closed-shutters")]
    from dipgen.usecases.games import Loaded
    from dipgen.usecases.publish import editions
    from dipgen.present.site.pages import build_site

    files = build_site([editions(Loaded(h)) for h in histories], _options())
    parsed = feedparser.parse(files["feed.xml"])
    assert not parsed.bozo
    assert len(parsed.entries) == 50
    updated = [e.updated for e in parsed.entries]
    assert updated == sorted(updated, reverse=True)
    assert parsed.entries[0].link.startswith("games/")
    titles = {e.title.split(":")[0] for e in parsed.entries}
    assert titles <= {"The Winter Palace", "The Masked Ball", "Closed Shutters"}


def test_a_hostile_title_is_escaped_in_the_feed(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME.replace("Test Game", "\"<b>Tom & Jerry's ]]> war</b>\""),
                                        "1901-spring.yml": SPRING})
    files = public_site(loaded(folder).history, _options())
    parsed = feedparser.parse(files["games/g/feed.xml"])
    assert not parsed.bozo
    assert parsed.feed.title == "<b>Tom & Jerry's ]]> war</b>"
    assert "<b>" not in files["games/g/feed.xml"]


# ----------------------------------------------------------------------------- the calendar

def _calendar(files: dict[str, str], slug: str):
    text = files[f"games/{slug}/deadline.ics"]
    assert "\n" not in text.replace("\r\n", "")  # CRLF line endings
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    return text, icalendar.Calendar.from_ical(text)


def test_the_deadline_calendar_names_the_public_phase_and_parses(hidden_archive):
    folder, times = hidden_archive
    history = loaded(folder).history
    public = game_view(history, "public")
    files = public_site(history, _options(site_url="https://club.example.org/dip/"))
    text, cal = _calendar(files, HIDDEN)
    [event] = cal.walk("VEVENT")
    assert event.decoded("DTSTART") == dt.datetime(2026, 4, 1, 16, tzinfo=UTC)
    assert str(event["SUMMARY"]) == f"{public.title}: orders for {public.due.name} due"
    assert public.due.kind == "movement"  # never the retreats it may be waiting for
    assert str(event["URL"]) == f"https://club.example.org/dip/games/{HIDDEN}/"
    assert event.decoded("DTSTAMP") == max(r.time for r in public.records)
    again = _calendar(public_site(history, _options()), HIDDEN)[1]
    assert str(again.walk("VEVENT")[0]["UID"]) == str(event["UID"])  # one UID per game and phase
    assert "URL" not in again.walk("VEVENT")[0]  # no address without a site_url


def test_the_calendar_escapes_and_folds_long_text(tmp_path):
    title = "Commas, semicolons; back\\slashes and a very long title ✓ that goes on and on past the fold"
    folder = write_game(tmp_path / "g", {"game.yml": GAME.replace("Test Game", json_str(title)) +
                                        "deadline: 2026-03-07T12:00:00Z\n"})
    text, cal = _calendar(public_site(loaded(folder).history, _options()), "g")
    [event] = cal.walk("VEVENT")
    assert str(event["SUMMARY"]) == f"{title}: orders for Spring 1901 due"
    assert "\r\n " in text
    assert "\\;" in text
    assert "\\," in text


def json_str(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def test_no_calendar_without_a_deadline(tmp_path):
    folder = write_game(tmp_path / "g", {"game.yml": GAME, "1901-spring.yml": SPRING})
    files = public_site(loaded(folder).history, _options())
    assert "games/g/deadline.ics" not in files
    assert "games/g/feed.xml" in files


# ----------------------------------------------------------------------------- the pages

DEADLINE = "deadline: 2026-03-07T13:00:00+01:00\n"
SHOWN = ('<time class="dg-time" datetime="2026-03-07T12:00:00Z" data-dg-deadline>Sat 7 Mar 2026, 12:00 UTC'
         '</time>')


def test_the_game_page_card_and_archive_show_the_deadline_in_utc(tmp_path):
    from dipgen.usecases.games import Loaded
    from dipgen.usecases.publish import editions, with_cards
    from dipgen.present.site.pages import game_card

    folder = write_game(tmp_path / "g", {"game.yml": GAME + DEADLINE, "1901-spring.yml": SPRING})
    history = loaded(folder).history
    files = public_site(history, _options(site_url="https://club.example.org/dip/"))
    page = files["games/g/index.md"]
    assert f"Orders for Fall 1901 are due {SHOWN}" in page
    assert '<a href="deadline.ics">Add to calendar</a>' in page
    assert '<a href="webcal://club.example.org/dip/games/g/deadline.ics">Subscribe</a>' in page
    assert '<a href="feed.xml" type="application/atom+xml">' in page
    assert SHOWN in files["games/index.md"]
    card = game_card(editions(Loaded(history))[0], _options())
    cards = with_cards("<!-- dipgen:games -->", [card], _options(), "index.md")
    assert f"Due {SHOWN}" in cards
    plain = public_site(history, _options())["games/g/index.md"]
    assert "webcal:" not in plain
    assert '<a href="deadline.ics">' in plain


def test_a_page_s_front_matter_gives_its_description_and_the_game_s_feed(tmp_path):
    import yaml

    folder = write_game(tmp_path / "g", {"game.yml": GAME + 'description: "A *quick* game. Then <b>more</b>."\n',
                                        "1901-spring.yml": SPRING, "1901-fall.yml": FALL})
    files = public_site(loaded(folder).history, _options())
    game = yaml.safe_load(files["games/g/index.md"].split("---")[1])
    assert game["description"] == "A quick game."
    assert game["dipgen_og_type"] == "website"
    assert game["dipgen_feed"] == "feed.xml"
    assert game["dipgen_feed_title"] == "Test Game: every season"
    season = yaml.safe_load(files["games/g/1901-fall/index.md"].split("---")[1])
    assert season["description"] == "France took Belgium and Portugal."
    assert season["dipgen_feed"] == "../feed.xml"
    assert season["dipgen_og_type"] == "article"


def _running(history, slug: str, when: dt.datetime | None, finished: bool = False):
    from dataclasses import replace

    from dipgen.core.outcome import GameResult

    records = [replace(r, time=when) for r in history.records]
    result = GameResult("abandoned", (), records[-1].phase, "") if finished else None
    return game_view(replace(history, info=replace(history.info, slug=slug, title=slug.title()), records=records,
                             result=result, next_phase=None if finished else history.next_phase), "public")


def test_the_home_page_lists_every_running_game_by_latest_activity_then_the_newest_finished(tmp_path):
    import re

    from dipgen.present.site.pages import games_cards

    history = loaded(write_game(tmp_path / "g", {"game.yml": GAME, "1901-spring.yml": SPRING})).history
    running = [_running(history, f"a{i}", at(1 + i % 4)) for i in range(9)]  # ties: by folder
    running.append(_running(history, "zz-untimed", None))
    ended = [_running(history, f"f{i}", at(10 + i), finished=True) for i in range(5)]
    cards = games_cards(ended + running, _options(), "index.md", finished=3)
    titles = re.findall(r'dg-card-title">([^<]*)<', cards)
    assert titles == ["A3", "A7", "A2", "A6", "A1", "A5", "A0", "A4", "A8", "Zz-Untimed", "F4", "F3", "F2"]
    assert "All 15 games" in cards


# ----------------------------------------------------------------------------- the built site

@needs_git
def test_the_built_site_links_its_feeds_and_follows_a_new_commit(tmp_path):
    """A whole MkDocs build: the head of every page names the archive's feed, a game's pages their
    game's; og: tags, og:url and og:image (a PNG of the page's map) only with a site_url; a commit changes the feed at
    the next rebuild of `mkdocs serve` although no file changed."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from support import make_project

    project = make_project(tmp_path / "project", [])
    write_game(project / "games" / "g", {"game.yml": GAME + DEADLINE, "1901-spring.yml": SPRING})
    git(project, "init", "-q")
    commit(project, ["games/g/game.yml"], at(1))

    def rebuild():
        cfg = load_config(str(project / "mkdocs.yml"))
        build(cfg)
        return cfg.plugins["dipgen"]

    plugin = rebuild()
    site = project / "site"
    game = (site / "games" / "g" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="alternate feed" type="application/atom+xml" title="Diplomacy by e-mail: all games" ' \
           'href="../../feed.xml">' in game
    assert ('<link rel="alternate feed" type="application/atom+xml" title="Test Game: every season" '
            'href="feed.xml">') in game
    assert '<meta property="og:title" content="Test Game">' in game
    assert "og:image" not in game
    assert "og:url" not in game
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="feed.xml"' in home
    assert "og:description" in home
    feed = feedparser.parse((site / "games" / "g" / "feed.xml").read_text(encoding="utf-8"))
    assert feed.entries[0].updated == "2026-03-01T12:00:00Z"  # uncommitted: game.yml's time
    assert icalendar.Calendar.from_ical((site / "games" / "g" / "deadline.ics").read_bytes())

    commit(project, ["games/g/1901-spring.yml"], at(2))
    again = rebuild()
    assert again is plugin
    assert again.stats["redone"] == 1
    feed = feedparser.parse((site / "games" / "g" / "feed.xml").read_text(encoding="utf-8"))
    assert feed.entries[0].updated == "2026-03-02T12:00:00Z"

    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    (project / "mkdocs.yml").write_text(config.replace("# site_url:", "site_url: https://club.example.org/dip/\n#"))
    rebuild()
    season = (site / "games" / "g" / "1901-spring" / "index.html").read_text(encoding="utf-8")
    assert '<meta property="og:url" content="https://club.example.org/dip/games/g/1901-spring/">' in season
    assert '<meta property="og:type" content="article">' in season
    from support.pictures import size

    for page, picture in ((season, "games/g/maps/1901-spring.png"),
                          ((site / "games" / "g" / "index.html").read_text(encoding="utf-8"), "games/g/maps/now.png")):
        assert f'<meta property="og:image" content="https://club.example.org/dip/{picture}">' in page
        assert '<meta name="twitter:card" content="summary_large_image">' in page
        assert '<meta property="og:image:width" content="1200">' in page
        assert 'og:image:alt" content="Map of ' in page
        assert size((site / picture).read_bytes()) == (1200, 630)
    assert feedparser.parse((site / "feed.xml").read_text()).entries[0].link == \
        "https://club.example.org/dip/games/g/1901-spring/"


def test_mkdocs_serve_draws_no_link_preview(tmp_path):
    """`mkdocs serve` sets site_url to the GM's own machine, and a link preview of it serves nobody:
    each picture costs a tenth of a second or more (bench/raster.py), which made a cold serve of the
    example games ten times a build. Under serve no PNG is drawn and no page names one; the same
    project built for publishing has both."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from support import make_project

    project = make_project(tmp_path / "project", [])
    write_game(project / "games" / "g", {"game.yml": GAME, "1901-spring.yml": SPRING})
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    (project / "mkdocs.yml").write_text(config.replace("# site_url:", "site_url: https://club.example.org/dip/\n#"))
    site = project / "site"
    seen = {}
    try:  # MkDocs keeps one plugin with on_startup from one config to the next: it ends as a build
        for command in ("serve", "build"):
            cfg = load_config(str(project / "mkdocs.yml"))
            cfg.plugins.on_startup(command=command, dirty=False)
            build(cfg)
            game = (site / "games" / "g" / "index.html").read_text(encoding="utf-8")
            seen[command] = ('property="og:image"' in game, (site / "games" / "g" / "maps" / "now.png").exists())
    finally:
        cfg.plugins.on_startup(command="build", dirty=False)
    assert seen == {"serve": (False, False), "build": (True, True)}


@browser_test
def test_a_reader_sees_the_deadline_in_her_own_time_with_what_is_left(browser, tmp_path):
    """The page holds the deadline in UTC; dipgen.js (a file: the site's CSP allows no inline
    script) shows it in the reader's time zone with the time left, and overdue once it has passed."""
    from support import build, make_project
    from support.browser import serve

    project = make_project(tmp_path / "project", [])
    write_game(project / "games" / "soon", {"game.yml": GAME + "deadline: 2999-03-07T12:00:00Z\n",
                                            "1901-spring.yml": SPRING})
    write_game(project / "games" / "late", {"game.yml": GAME + "deadline: 2001-03-07T12:00:00+01:00\n"})
    site = build(project)
    context = browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    try:
        with serve(site) as url:
            page.goto(url + "games/soon/")
            time = page.locator("p.dg-deadline time[data-dg-deadline]")
            page.wait_for_function("() => document.querySelector('time[data-dg-deadline]').dataset.dgShown")
            assert time.get_attribute("title") == "Thu 7 Mar 2999, 12:00 UTC"
            shown = time.inner_text()
            assert "21:00" in shown
            assert "UTC" not in shown  # 12:00 UTC is 21:00 in Tokyo
            assert page.locator("p.dg-deadline .dg-left").inner_text().endswith("days left)")
            assert page.locator("link[rel=alternate]").count() == 0  # Material's selector for languages
            assert page.locator("link[rel~=alternate][type='application/atom+xml']").count() == 2
            page.goto(url + "games/late/")
            page.wait_for_function("() => document.querySelector('time[data-dg-deadline]').dataset.dgShown")
            assert page.locator("p.dg-deadline .dg-left--overdue").inner_text() == " (overdue)"
            page.goto(url)  # the home page's cards
            page.wait_for_function("() => document.querySelectorAll('.dg-card time[data-dg-shown]').length === 2")
            seen = list(errors)  # read while the server still runs: stopping it cuts off whatever still loads
    finally:
        context.close()
    assert seen == [], seen


def test_a_stamp_reads_back_to_its_time_and_nothing_else_reads():
    from dipgen.present.site.feeds import stamp, unstamp

    for when in (dt.datetime(1901, 1, 1, tzinfo=dt.timezone.utc),
                 dt.datetime(2026, 11, 27, 5, 5, 41, 123456, tzinfo=dt.timezone(dt.timedelta(hours=-5)))):
        assert unstamp(stamp(when)) == when
        assert unstamp(stamp(when)).tzinfo == dt.timezone.utc
    for bad in ("2026-11-27T05:05:41Z", "2026-11-27T05:05:41.123456", "2026-11-27 05:05:41.123456Z",
                "2026-11-27T05:05:41.123456+00:00", "2026-13-27T05:05:41.123456Z", "",
                "２０２６-11-27T05:05:41.123456Z"):
        with pytest.raises(ValueError):
            unstamp(bad)


def _entries_of(slug: str, times: list[int]):
    from dipgen.present.site.card import FeedEntry

    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    return tuple(sorted((FeedEntry(id=f"{slug}-{i}", title=f"{slug} {i}", updated=start + dt.timedelta(hours=t),
                                   page=f"games/{slug}/{i}/index.md", summary="s", author="G", slug=slug, index=i)
                         for i, t in enumerate(times)), key=lambda e: (e.updated, e.index), reverse=True))


def test_the_archive_feed_reads_only_the_kept_feeds_newer_than_its_last_entry():
    import random

    from dipgen.present.site.card import FeedCard, KeptFeed
    from dipgen.present.site.feeds import MAX_ENTRIES, newest_first, newest_of

    rng = random.Random(7)
    feeds = {f"g{n:02d}": _entries_of(f"g{n:02d}", [rng.randrange(40) * (n + 1) for _ in range(30)])
             for n in range(12)}  # ties in time between games and within one: the folder, then the index decide
    read: list[str] = []

    def kept(slug: str) -> KeptFeed:
        entries = feeds[slug]
        return KeptFeed(entries[0].rank, slug, lambda: read.append(slug) or entries)

    expected = newest_first(e for entries in feeds.values() for e in entries)[:MAX_ENTRIES]
    assert newest_of([FeedCard("", entries) for entries in feeds.values()]) == expected
    assert newest_of([FeedCard("", kept(slug)) for slug in feeds]) == expected
    oldest = [slug for slug, entries in feeds.items() if entries[0].rank[0] < expected[-1].updated]
    assert oldest
    assert not set(oldest) & set(read)  # too old for the feed: never read from disk
    assert newest_of([FeedCard("", ()), FeedCard("", kept("g00"))]) == list(feeds["g00"])
