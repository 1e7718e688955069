"""The games of an archive made on every core: each game is read, adjudicated and drawn
(`output.make`) in a process of a `concurrent.futures` pool, since nothing of one game depends on
another until the archive's pages (which the plugin makes after, from the games' cards).

What a worker hands back is what the game's make gives in process, and nothing else: its output
(`Game`), or its problems (`GameError`: file, line, code), or a failure said plainly (an exception
nobody foresaw, named by the game's folder: `failures.failure`), never a traceback. What it logs
is sent back with it and logged in the build's own process, in the games' order, so that MkDocs
counts its warnings (``--strict``) as it counts them in a serial build.

The pool's workers are forked from the build where it runs alone (`mkdocs build`), else started from
a fork server (under `mkdocs serve`, whose web server runs threads a fork would copy). Ctrl-C
stops the build and its workers at once (each leaves quietly; what none began is cancelled), and
nothing was written by then: the site is written after every game is made, and beside the old one
(`speed.staging`). Where a worker dies (killed, out of memory), the games left are made in the
build's own process, as with one worker.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from dipgen.core.errors import GameError, Problem
from dipgen.io.paths import display_path
from dipgen.io.commits import Commits
from dipgen.mkdocs import output
from dipgen.mkdocs.failures import failure
from dipgen.present.site import SiteOptions

log = logging.getLogger("mkdocs.plugins.dipgen")

#: what the plugin is doing while a worker makes a game (for a failure's message)
DOING = "reading, adjudicating and drawing this game"


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on Linux)
        return os.cpu_count() or 1


def processes(workers: int, games: int) -> int:
    """How many processes make `games` games with `workers` allowed: one (MkDocs's own, no pool)
    where there is one game to make or one worker, else no more workers than games."""
    return 1 if workers <= 1 or games <= 1 else min(workers, games)


@dataclass
class Made:
    """What making one game gave: its output, or its problems, or a failure said plainly; and what
    it logged on the way (records as the worker made them, their messages already formatted)."""

    game: output.Game | None = None
    problems: list[Problem | str] = field(default_factory=list)
    records: list[logging.LogRecord] = field(default_factory=list)

    def replay(self) -> None:
        """Log here what the worker logged, as the build's own process would have."""
        for record in self.records:
            logger = logging.getLogger(record.name)
            if logger.isEnabledFor(record.levelno):
                logger.handle(record)


class _Kept(logging.Handler):
    """Every record a worker logs, kept to be sent back (`Made.records`)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        record.msg, record.args = record.getMessage(), None  # (its arguments may not cross processes)
        record.exc_info, record.exc_text = None, None
        self.records.append(record)


_KEPT = _Kept()


def _start(level: int) -> None:
    """A worker's logging: every record kept to be sent back (`_KEPT`), none written or counted
    here (a forked worker has the handlers of the build's process: MkDocs's, a --strict count)."""
    loggers = [logging.getLogger()] + [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]
    for logger in loggers:
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        for kept_filter in list(logger.filters):
            logger.removeFilter(kept_filter)
        logger.propagate = True
    logging.getLogger().addHandler(_KEPT)
    logging.getLogger().setLevel(level)
    signal.signal(signal.SIGINT, _interrupted)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _deferred_interrupt() -> Iterator[None]:
    """Ctrl-C held while the pool forks its workers (delivered right after): a worker forked at that
    moment would otherwise die of it before `_start`, printing a traceback."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _interrupted(signum: int, frame) -> None:
    """Ctrl-C reaches every process of the terminal's group: a worker leaves at once and quietly
    (the build's process says that it stopped, and why), not with a traceback of where it was."""
    os._exit(128 + signum)


def _worker(path: Path, options: SiteOptions, commits: Commits) -> Made:
    """One game made in a worker (see the module)."""
    _KEPT.records = []
    try:
        return Made(game=output.make(path, options, commits, _BOARDS), records=_KEPT.records)
    except GameError as e:
        return Made(problems=list(e.problems), records=_KEPT.records)
    except Exception as e:
        log.debug("dipgen: %s", display_path(path), exc_info=True)
        return Made(problems=[failure(display_path(path), e, DOING)], records=_KEPT.records)


#: each board's base map, drawn once a worker
_BOARDS: dict[str, str] = {}


def _context() -> multiprocessing.context.BaseContext:
    """Workers forked from the build where it runs alone (`mkdocs build`: the cheapest start, and
    the workers its own children, their CPU time counted in its own); else (`mkdocs serve`, whose web
    server runs threads a fork would copy mid-step) from a fork server; spawned where neither exists."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["dipgen.mkdocs.parallel"])
        return context
    return multiprocessing.get_context("spawn")


def make_games(paths: list[Path], options: SiteOptions, commits: dict[str, Commits], workers: int,
               in_process: Callable[[Path], output.Game]) -> Iterator[tuple[Path, Made]]:
    """Each game of `paths` made, in their order, on `workers` processes (`in_process`, the plugin's
    own make, where one worker or one game makes a pool a waste)."""
    count = processes(workers, len(paths))
    if count == 1:
        for path in paths:
            yield path, _here(path, in_process)
        return
    level = logging.getLogger("mkdocs").getEffectiveLevel()
    pool = ProcessPoolExecutor(max_workers=count, mp_context=_context(), initializer=_start, initargs=(level,))
    done = False
    try:
        queue = iter(paths)
        pending: deque[tuple[Path, Future | None]] = deque()
        with _deferred_interrupt():  # (a worker forked now has Ctrl-C held till it can leave quietly: `_start`)
            _submit(pool, queue, pending, options, commits, count * AHEAD)
        broken = False
        while pending:  # (a game handed over is not held here till the last)
            path, future = pending.popleft()
            _submit(pool, queue, pending, options, commits, 1)
            made = None if broken or future is None else _result(future)
            if made is None and not broken:
                broken = True
                log.info("dipgen: a worker stopped (killed, or out of memory); the games from %s on are made "
                         "in this process", display_path(path))  # (the site is the same: no warning for --strict)
            yield path, made if made is not None else _here(path, in_process)
        done = True
    finally:
        # An interrupted build drops what no worker began, and waits for the pool's own thread (the
        # workers Ctrl-C reached are gone; a worker it did not reach finishes the games in its
        # hands, a few at most: `AHEAD`). Left running, that thread could close its wake-up pipe
        # while the interpreter's exit wrote to it (Python 3.11's concurrent.futures checks, then
        # writes, without a lock): "Bad file descriptor" and a traceback after "Aborted!", seen
        # once in a full run of the tests on a loaded machine.
        pool.shutdown(wait=True, cancel_futures=not done)


#: how many games each worker may have made or in hand that the build has not taken yet: the pool
#: holds a finished game's output till the build takes it, and the build takes them in the games'
#: order, so that with every game handed over at once a slow game (or a build slower at storing
#: them than the workers at making them) had the outputs of all those after it held at once
AHEAD = 2


def _submit(pool: ProcessPoolExecutor, queue: Iterator[Path], pending: deque[tuple[Path, Future | None]],
            options: SiteOptions, commits: dict[str, Commits], count: int) -> None:
    """Hand the pool the next `count` games of `queue`, if there are any (None for a game the pool
    cannot take, a worker having died: `make_games` makes it in this process)."""
    for path in itertools.islice(queue, count):
        try:
            future: Future | None = pool.submit(_worker, path, options, commits[str(path)])
        except BrokenProcessPool:
            future = None
        pending.append((path, future))


def _here(path: Path, make: Callable[[Path], output.Game]) -> Made:
    try:
        return Made(game=make(path))
    except GameError as e:
        return Made(problems=list(e.problems))
    except Exception as e:
        log.debug("dipgen: %s", display_path(path), exc_info=True)
        return Made(problems=[failure(display_path(path), e, DOING)])


def _result(future: Future) -> Made | None:
    """A worker's game, its log logged here; None if the pool broke (a worker killed)."""
    try:
        made: Made = future.result()
    except BrokenProcessPool:
        return None
    made.replay()
    return made
