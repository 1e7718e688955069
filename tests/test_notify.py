"""Under `mkdocs serve` the games folder is watched through the kernel's notices where they can be
trusted, by MkDocs's polling elsewhere (dipgen/mkdocs/speed/notify.py): a write is reported, a read
is not, and where the kernel may not hear of a change the server polls and says why. (That a
reported edit rebuilds the site and reloads the page, through the kernel's watcher on Linux, is
tests/test_serve_browser.py's `mkdocs serve`.)"""

from __future__ import annotations

import contextlib
import logging
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest

from dipgen.mkdocs.speed import notify
from dipgen.mkdocs.speed.notify import mount_kind
from support import GAME_YML, make_project, set_plugin_options, site_config, write_game
from support.served import reload_server, serving

SPRING = "orders:\n  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n"

MOUNTS = r"""22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
30 27 0:40 / /home rw,relatime - nfs4 server:/home rw
31 27 0:41 / /mnt/c rw,noatime - 9p drvfs rw
32 27 8:1 / /media/my\040disk rw - vfat /dev/sdb1 rw
33 27 8:2 / /srv rw - ext4 /dev/vdb rw
34 33 0:43 / /srv rw - fuse.sshfs host:/srv rw
"""


@pytest.mark.parametrize("path, kind", [
    ("/", "ext4"), ("/work/club/games", "ext4"), ("/home/ann/club/games", "nfs4"), ("/homer/games", "ext4"),
    ("/mnt/c/Users/ann/games", "9p"), ("/media/my disk/games", "vfat"), ("/srv/games", "fuse.sshfs")])
def test_a_folders_file_system_is_that_of_the_innermost_mount_holding_it(path, kind):
    """The longest mount point holding the path; of two on one place the last mounted; \\040 a space."""
    assert mount_kind(path, MOUNTS) == kind


def test_a_path_no_mount_holds_has_no_kind():
    assert mount_kind("/games", "27 1 254:0 / /work rw - ext4 /dev/vda rw\n") == ""


def test_folders_are_counted_until_there_are_too_many_and_a_link_is_found(tmp_path):
    for name in ("a/b", "a/c", "d"):
        (tmp_path / name).mkdir(parents=True)
    (tmp_path / "a" / "file.yml").write_text("x", encoding="utf-8")
    assert notify.folders(tmp_path, 5) == (5, None)
    assert notify.folders(tmp_path, 4) == (None, None)
    (tmp_path / "a" / "b" / "shared-game").symlink_to(tmp_path / "d")
    assert notify.folders(tmp_path, 5)[1] == tmp_path / "a" / "b" / "shared-game"


@contextlib.contextmanager
def on_serve(project: Path):
    """The plugin of `project` as `mkdocs serve` starts it (`on_startup`, `on_config`, `on_serve` with a
    real server, whose own watcher is not started): yields the plugin and the server."""
    with reload_server(project) as server, serving(project) as plugin:
        config = site_config(project)
        config.plugins.on_config(config)
        plugin.on_serve(server, config=config, builder=lambda: None)
        yield plugin, server


def polled(server) -> set[str]:
    """The folders MkDocs's own (polling) watcher of `server` was given."""
    return {e.watch.path for e in server.observer.emitters}


@pytest.fixture
def project(tmp_path) -> Path:
    return make_project(tmp_path / "club", games={"alpha": {"game.yml": GAME_YML, "1901-spring.yml": SPRING}})


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
def test_on_a_local_file_system_the_kernel_watches_the_games_folder_and_reports_writes_not_reads(project):
    games = project / "games"
    assert notify.why_not(games) is None, notify.why_not(games)  # this machine's temporary folder: local
    from watchdog.events import FileSystemEventHandler

    with on_serve(project) as (plugin, server):
        observer = plugin.seam.games_observer
        assert observer is not server.observer
        assert observer.is_alive()
        assert {e.watch.path for e in observer.emitters} == {str(games)}
        assert str(games) not in polled(server)
        heard: list[str] = []
        seen = threading.Event()

        class Heard(FileSystemEventHandler):
            def on_any_event(self, event) -> None:
                heard.append(f"{type(event).__name__} {event.src_path}")
                seen.set()

        observer.schedule(Heard(), str(games), recursive=True)
        for path in games.rglob("*"):  # as a build reads every game
            if path.is_file():
                path.read_bytes()
        time.sleep(0.5)
        assert heard == []
        write_game(games / "alpha", {"1901-fall.yml": SPRING.replace("Lvp - Yor", "Yor - Lon")})
        assert seen.wait(5)
        assert any(h.endswith(str(games / "alpha" / "1901-fall.yml")) for h in heard), heard
    assert not observer.is_alive()  # stopped with the server (`on_shutdown`)


@pytest.mark.parametrize("case", ["9p", "few watches", "a linked game", "speed off"])
def test_where_the_kernel_may_not_hear_of_a_change_the_server_polls_the_games_folder(project, tmp_path, monkeypatch,
                                                                                       caplog, case):
    """A games folder on a shared or network file system, one holding a symbolic link (a game kept
    elsewhere), or one with more folders than half the watches a user may hold, is polled by the
    server, and the log says why; with the speed layers off, as MkDocs would have it."""
    games = project / "games"
    if case == "9p":
        (tmp_path / "mountinfo").write_text(f"27 1 0:41 / / rw - ext4 /dev/vda rw\n31 27 0:42 / {project} rw - "
                                            "9p drvfs rw\n", encoding="utf-8")
        monkeypatch.setattr(notify, "MOUNTINFO", tmp_path / "mountinfo")
        monkeypatch.setattr(sys, "platform", "linux")
    elif case == "few watches":
        (tmp_path / "limit").write_text("2\n", encoding="ascii")
        monkeypatch.setattr(notify, "LIMIT", tmp_path / "limit")
        monkeypatch.setattr(sys, "platform", "linux")
    elif case == "a linked game":
        shutil.copytree(games / "alpha", tmp_path / "elsewhere" / "bravo")
        (games / "bravo").symlink_to(tmp_path / "elsewhere" / "bravo")
        monkeypatch.setattr(sys, "platform", "linux")
    else:
        set_plugin_options(project, speed=False)
    caplog.set_level(logging.INFO, logger="mkdocs.plugins.dipgen")
    with on_serve(project) as (plugin, server):
        assert str(games) in polled(server)
        if case != "speed off":
            assert plugin.seam.games_observer is server.observer
    said = {"9p": "is on a file system (9p) whose changes the kernel may not hear of",
            "few watches": "holds more folders than half the 2 the kernel lets a user watch",
            "a linked game": "holds a symbolic link (",
            "speed off": None}[case]
    if said:
        assert "dipgen: the server looks for changes in " in caplog.text, caplog.text
        assert f"games twice a second, since it {said}" in caplog.text, caplog.text
    else:
        assert "looks for changes" not in caplog.text
