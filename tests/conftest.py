"""Fixtures every test module may take. What the tests share besides fixtures lives in the
support package (tests/support/), never in a test module."""

import os
import sys
from pathlib import Path

import pytest

# The suite runs with Python's bytecode cache, as a developer's shell runs Python, whatever the shell
# that started it says (this machine's sets PYTHONDONTWRITEBYTECODE, and CI's may): without it each
# pytest worker rewrote and compiled every test module again (collection 5.2 -> 2.1 s of CPU a
# worker) and every child process (a command, a build's, a benchmark's) compiled each module of dipgen
# it imported (0.5 -> 0.3 s to import them all). Set before dipgen is imported here, and taken out of
# the environment the workers and the children inherit. The GM's venv of tests/test_package.py keeps
# its own setting.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from dipgen.resources.boards import load_board  # noqa: E402 - after the bytecode setting
from support import GAME_YML, write_game  # noqa: E402


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook (requirements-dev.txt)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """How many workers pyproject's `-n auto` starts: none (the tests run in this process, with
    nothing to start) where the command names a single test file or tests of one file, as one
    runs while working on it; otherwise one per core (pytest-xdist's own count, which
    PYTEST_XDIST_AUTO_NUM_WORKERS overrides), never more than the files named."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    paths = {config.invocation_params.dir / arg.split("::", 1)[0] for arg in config.args}
    if not paths or not all(path.is_file() for path in paths):
        return None  # a folder (the whole suite, by default: pyproject's testpaths)
    from xdist.plugin import pytest_xdist_auto_num_workers as per_core

    files = len(paths)
    return 0 if files == 1 else min(files, per_core(config))


#: The modules whose tests take the most time, heaviest first (bench/README.md, "The test suite on two
#: cores": per module, from `pytest --durations`). They start before every other module, in this order.
HEAVIEST = ("tests/test_package.py", "tests/test_noninterference.py", "tests/test_leaks.py",
            "tests/test_axe_browser.py", "tests/test_layout_browser.py", "tests/test_example_games.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--sweep", action="store_true",
                     help="run the sweeps over every page of a site too (the tests marked sweep: 10 to 45 minutes)")
    parser.addoption("--shots", action="store_true",
                     help="keep a full-page screenshot of what the browser tests look at, in each test's folder "
                          "(and the order sheet's in /tmp/sheet-shots): to look at the pages, not to test them")


def pytest_configure(config: pytest.Config) -> None:
    from support import browser

    browser.KEEP_SHOTS = bool(config.getoption("--shots"))


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """pyproject's `--dist loadgroup` hands the tests to the workers one by one, except a group
    (pytest-xdist's `xdist_group` mark), which one worker runs whole. A test that asks for a fixture
    of ours made once for its module or the session (a whole-site build, a browser, the wheel: any
    scope but "function") joins its module's group, so that the fixture is made once, as in one
    process; every other test goes wherever a worker is free. A fixture no test asks for (autouse:
    test_noninterference's constant links, a patch held for the module) makes no group: it costs
    nothing to make in each worker, and that module's minutes of tests spread over every worker.

    In a worker, the modules holding a `slow` test come first, `HEAVIEST` first of all, in its order
    (pyproject's `--no-loadscope-reorder` keeps this order): the longest work starts first and the
    quick tests fill in beside it. A worker takes no new work while more than two of its tests wait
    (pytest-xdist), so the wheel's module, first, keeps its worker to itself for minutes while the
    other worker takes the next heavy modules: the heavy modules run apart. A module's tests stay
    together and in their order.

    A test marked `sweep` (every page of a site, too long for the suite) is skipped unless pytest is
    given ``--sweep``."""
    if not config.getoption("--sweep"):
        for item in items:
            if item.get_closest_marker("sweep"):
                item.add_marker(pytest.mark.skip(reason="a sweep over every page: pytest --sweep runs it"))
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        defs = [d for name, ds in info.name2fixturedefs.items() if name in _asked(item) for d in ds] if info else []
        if any(d.scope != "function" and d.baseid for d in defs):  # baseid "": pytest's own (tmp_path_factory)
            item.add_marker(pytest.mark.xdist_group(_module(item)))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        slow = {_module(item) for item in items if item.get_closest_marker("slow")}
        items.sort(key=lambda item: _start(_module(item), slow))  # stable: the order within stays


def _asked(item: pytest.Item) -> set[str]:
    """The fixtures a test asks for: by its arguments, its `usefixtures` marks, and through those
    fixtures' own arguments; not the autouse ones (those nothing asks for)."""
    info = item._fixtureinfo  # type: ignore[attr-defined]
    asked, todo = set(), [*info.argnames, *(arg for mark in item.iter_markers("usefixtures") for arg in mark.args)]
    while todo:
        name = todo.pop()
        if name not in asked:
            asked.add(name)
            todo += [arg for d in info.name2fixturedefs.get(name, ()) for arg in d.argnames]
    return asked


def _start(module: str, slow: set[str]) -> tuple[int, int]:
    """Where a module's tests start in a worker's order: `HEAVIEST` in its order, then the other modules
    with slow tests, then the rest."""
    if module in HEAVIEST:
        return 0, HEAVIEST.index(module)
    return (1, 0) if module in slow else (2, 0)


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


@pytest.fixture(scope="session")
def board():
    return load_board("standard")


@pytest.fixture
def make_game(tmp_path):
    """Write a standard game folder (seven players, `GAME_YML`) with the files given as
    {filename: yaml text} and return its path."""

    def make(files: dict[str, str], slug: str = "test-game") -> Path:
        return write_game(tmp_path / slug, {"game.yml": GAME_YML, **files})

    return make


@pytest.fixture(scope="session")
def browser():
    """Headless chromium (support/browser.py), one for the browser tests of a process (a pytest-xdist
    worker): each test opens its own pages and contexts in it and closes them; a chromium and its
    Playwright driver take a second of CPU time to start."""
    from support.browser import chromium

    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def private_site(tmp_path_factory):
    """A built site of the running Stab! game `RUNNING` (lamps-out) with its secrets, served on
    127.0.0.1 for the browser tests of private pages: (url, its secrets, how many seasons England's
    calendar has, and how many of them have maps)."""
    from dipgen.cli import main
    from dipgen.io.gamefiles import load_game
    from dipgen.io.secretsfile import load_secrets
    from dipgen.view import game_view
    from support import build, load, make_project
    from support.browser import serve
    from support.private import RUNNING

    project = make_project(tmp_path_factory.mktemp("private-browser") / "p", [RUNNING])
    folder = project / "games" / RUNNING
    assert main(["secrets", str(folder)]) == 0
    secrets = load_secrets(folder / "secrets.yml", load_game(folder).variant.rules.powers())
    site = build(project)
    england = game_view(load(folder), "England")  # the seasons of England's calendar, and their maps
    with serve(site) as url:
        yield url, secrets, len(england.records), sum(not r.summary_only for r in england.records)


@pytest.fixture(autouse=True)
def _dipgen_plugin_as_built():
    """After each test, the dipgen plugin MkDocs keeps for the whole process (it has on_startup) is
    set back to a build, should the test have left it serving: otherwise a later in-process build in
    the same worker would run as `mkdocs serve` (a live-reload script, no link previews), and a test
    would pass or fail by the order the workers are given tests. Each serve test restores it itself
    too; this is the net under them."""
    yield
    from mkdocs.config.defaults import MkDocsConfig

    plugin = MkDocsConfig.plugins.plugin_cache.get("dipgen")
    if plugin is not None and getattr(plugin, "_command", "") == "serve":
        plugin.on_startup(command="build", dirty=False)
