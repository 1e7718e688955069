"""The games of an archive made on several processes (dipgen/mkdocs/parallel.py): the site is the
same, file for file and byte for byte, as when they are made one after another in MkDocs's own
process (``workers: 1``); the players' private pages, encrypted afresh at every build, are the same
by name, size, salt and what they decrypt to. A broken game is reported as it is in process: its
file, its line, its code, and nothing built."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort

from dipgen.io.folders import discover_games
from dipgen.mkdocs import parallel
from support import ALPHA, BRAVO, build, make_project, site_config, write_game
from support.private import RUNNING

pytestmark = pytest.mark.slow  # every test here builds a site with MkDocs

#: a running hidden game (private pages), a finished one, standard ones, and two small games
EXAMPLES = ("austrian-question", "night-flights", "two-crowns", RUNNING)



def _project(root: Path, workers: int) -> Path:
    from dipgen.cli import main

    project = make_project(root, EXAMPLES, games={"alpha": ALPHA, "bravo": BRAVO}, plugin={"workers": workers})
    assert main(["secrets", str(project / "games" / RUNNING)]) == 0
    return project


def _built(project: Path) -> tuple[dict[str, bytes], dict[str, float]]:
    """Every file of the project's site, by site path, and what the build did (the plugin's stats)."""
    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)  # a plugin of its own, as a new process has
    config = site_config(project, strict=True)
    site = build(config)
    stats = dict(config.plugins["dipgen"].stats)
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}, stats


def _private(project: Path, site: dict[str, bytes]) -> dict:
    from dipgen.io.secretsfile import load_secrets
    from support import load
    from support.private import opened

    folder = project / "games" / RUNNING
    secrets = load_secrets(folder / "secrets.yml", list(load(folder).seating.keys()))
    return opened(site, secrets.page_key, RUNNING, secrets.passphrases)


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    root = tmp_path_factory.mktemp("parallel")
    one = _project(root / "one", 1)
    two = _project(root / "two", 2)
    for secrets in ("secrets.yml",):  # the same passphrases and page key in both
        (two / "games" / RUNNING / secrets).write_bytes((one / "games" / RUNNING / secrets).read_bytes())
    return (one, *_built(one)), (two, *_built(two))


def test_the_site_is_the_same_made_on_two_processes(both):
    (one, serial, stats1), (two, parallel_site, stats2) = both
    assert stats1["workers"] == 1
    assert stats2["workers"] == 2
    assert stats1["redone"] == stats2["redone"] == len(EXAMPLES) + 2
    public = [uri for uri in serial if not uri.startswith("private/")]
    assert sorted(serial) == sorted(parallel_site)
    assert [uri for uri in public if serial[uri] != parallel_site[uri]] == []
    assert any(uri.startswith("games/") and uri.endswith(".svg") for uri in public)
    opened = _private(one, serial)
    assert len(opened) == 7
    assert opened == _private(two, parallel_site)  # names, sizes, salts, pages


def test_a_rebuild_with_the_cache_makes_nothing_and_starts_no_worker(both):
    (_, _, _), (two, first, _) = both
    again, stats = _built(two)
    assert stats["redone"] == 0
    assert stats["workers"] == 1
    assert {u: v for u, v in again.items() if not u.startswith("private/")} == \
        {u: v for u, v in first.items() if not u.startswith("private/")}


#: a broken file in one game of several: the build says the file, the line and the code
BROKEN = {"1901-spring.yml": "orders:\n  France: [A Par - Spq]\n"}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_broken_in_a_worker_is_reported_as_in_process(tmp_path, caplog, workers):
    project = make_project(tmp_path / "p", ("austrian-question", "night-flights"),
                           games={"alpha": ALPHA, "bravo": BRAVO}, plugin={"workers": workers})
    write_game(project / "games" / "bravo", BROKEN)
    write_game(project / "games" / "alpha", {"1901-spring.yml": "orders:\n  France: [A Par - Bur\n  press: x\n"})
    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)
    caplog.clear()
    with caplog.at_level(logging.INFO), pytest.raises(Abort):
        build(site_config(project))
    logged = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert "Traceback" not in logged
    assert "games/bravo/1901-spring.yml:2: error: " in logged
    assert "[bad-order]" in logged
    assert "games/alpha/1901-spring.yml:3: error: " in logged
    assert "[broken-yaml]" in logged
    assert logged.index("games/alpha/") < logged.index("games/bravo/")  # in the games' order
    assert "nothing was built" in logged
    assert not (project / "site").exists()


def test_what_a_worker_logs_is_logged_in_the_build(tmp_path, caplog):
    """A hidden game without a secrets file: the note that its players get no private pages is
    logged by the build's own process (where MkDocs counts warnings under --strict)."""
    project = make_project(tmp_path / "p", (RUNNING, "austrian-question"), plugin={"workers": 2})
    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)
    with caplog.at_level(logging.INFO):
        build(site_config(project))
    assert any(f"{RUNNING}: no private pages for the players" in r.getMessage() for r in caplog.records)


def test_the_number_of_workers(monkeypatch):
    assert parallel.cores() >= 1
    assert parallel.processes(8, games=1) == 1
    assert parallel.processes(8, games=3) == 3
    assert parallel.processes(2, games=30) == 2
    assert parallel.processes(1, games=30) == 1


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a process's children from /proc")
def test_ctrl_c_while_workers_make_the_games_stops_cleanly(tmp_path):
    """Ctrl-C (SIGINT to the terminal's process group) while two workers make the games: the build
    stops within seconds, no process is left, nothing is written, and no traceback is printed."""
    import os
    import signal
    import subprocess
    import sys
    import time

    project = make_project(tmp_path / "p", ("two-crowns", "night-flights", "austrian-question", RUNNING),
                           plugin={"workers": 2})
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "build"], cwd=project, start_new_session=True,
                            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while len(_children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_children(proc.pid)) >= 2, "the workers never started"
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0
    assert "Traceback" not in out
    assert "Aborted" in out
    assert not (project / "site").exists()
    assert not [p for p in project.iterdir() if p.name.startswith(".site")]
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # no worker left behind


def test_under_serve_the_workers_come_from_a_fork_server(tmp_path, caplog):
    """`mkdocs serve` runs its web server in threads, which a fork would copy mid-step: with another
    thread running, the workers start from a fork server, and make the same games."""
    import threading

    project = make_project(tmp_path / "p", ("austrian-question", "night-flights"), plugin={"workers": 2})
    stop = threading.Event()
    server = threading.Thread(target=stop.wait, daemon=True)
    server.start()
    try:
        assert parallel._context().get_start_method() == "forkserver"
        with caplog.at_level(logging.INFO):
            site, stats = _built(project)
    finally:
        stop.set()
        server.join()
    assert stats["workers"] == 2
    assert stats["redone"] == 2
    assert "games/night-flights/index.html" in site


def test_a_worker_killed_leaves_its_games_to_the_build(tmp_path, caplog):
    """A worker that dies (the kernel's out-of-memory killer, say): a note, and the games no worker
    handed over are made in the build's own process, as with one worker (under --strict too). One
    worker is killed from outside once both are there (whichever way they start: forked, or from a
    fork server, which starts them one by one as games are handed over; a worker killed before the
    other is started can leave Python 3.11's pool starting that one after it has stopped the rest,
    and waiting for it for ever)."""
    import multiprocessing
    import os
    import signal
    import threading

    before = {p.pid for p in multiprocessing.active_children()}
    stop, killed = threading.Event(), []

    def kill_the_first_worker() -> None:
        while not stop.is_set() and not killed:
            workers = sorted(p.pid for p in multiprocessing.active_children() if p.pid not in before and p.pid)
            if len(workers) >= 2:
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
            stop.wait(0.005)

    project = make_project(tmp_path / "p", ("austrian-question", "night-flights", "two-crowns"), plugin={"workers": 2})
    killer = threading.Thread(target=kill_the_first_worker)
    killer.start()
    try:
        with caplog.at_level(logging.INFO):
            site, stats = _built(project)
    finally:
        stop.set()
        killer.join()
    assert killed
    assert stats["redone"] == 3
    assert any("dipgen: a worker stopped" in r.getMessage() for r in caplog.records)
    assert "games/night-flights/index.html" in site
    assert "games/two-crowns/index.html" in site


def _on_two_workers(paths: list[Path]):
    """`make_games` of `paths` on two workers, the games' commit times unknown, none made in this
    process."""
    from dipgen.present.site import SiteOptions

    return parallel.make_games(paths, SiteOptions(), {str(p): None for p in paths}, 2, lambda path: None)  # type: ignore


def test_the_pool_is_handed_no_more_games_than_the_build_takes_soon(tmp_path, monkeypatch):
    """The pool holds a finished game's output till the build takes it, in the games' order: it is
    handed a few games a worker ahead of the build (`parallel.AHEAD`), never the whole archive at once.
    Twelve small games, made by the workers whichever way they start (fork, or a fork server)."""
    from concurrent.futures import ProcessPoolExecutor

    handed: list[Path] = []
    submit = ProcessPoolExecutor.submit
    monkeypatch.setattr(ProcessPoolExecutor, "submit",
                        lambda pool, fn, path, *args: handed.append(path) or submit(pool, fn, path, *args))
    paths = discover_games(make_project(tmp_path / "p", games={f"game-{i:02d}": ALPHA for i in range(12)}) / "games")
    made = _on_two_workers(paths)
    for taken, (path, result) in enumerate(made):
        assert result.game is not None, path
        assert len(handed) <= taken + 1 + 2 * parallel.AHEAD
    assert handed == paths


def test_a_build_stopped_while_workers_make_games_leaves_no_thread_of_the_pool(tmp_path):
    """The build stops (Ctrl-C, or an error of its own) while the workers are busy: the pool's own
    thread is gone when `make_games` is, not left to race the interpreter's exit (which wrote to the
    pipe that thread closes: a traceback after "Aborted!", test_ctrl_c_... above, once in a while)."""
    import threading

    paths = discover_games(make_project(tmp_path / "p", EXAMPLES, games={"alpha": ALPHA, "bravo": BRAVO}) / "games")
    before = set(threading.enumerate())
    made = _on_two_workers(paths)
    next(made)  # the first game taken; the workers have the next ones in hand
    made.close()  # as a KeyboardInterrupt or the build's own error leaves the loop
    assert [t for t in threading.enumerate() if t not in before and t.is_alive()] == []
