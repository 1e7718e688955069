"""`dipgen check`: read and adjudicate games, and print every problem with its file, line and fix
(also the pre-commit hook, where a file stands for its game)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from dipgen.cli.folders import named_games
from dipgen.core.errors import GameError
from dipgen.io.paths import display_path
from dipgen.present.layout import CONFIG_FILE, GAMES_DIR


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="validate game files (exit status 1 on errors)",
                       description="Read and adjudicate games, reporting every problem with file, line and a fix. "
                                   "Usable as a pre-commit hook (dipgen-check): a file stands for its game.")
    p.add_argument("games", nargs="*",
                   help=f"game folders, folders of games, or files of games (default: {GAMES_DIR}/)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.io.folders import discover_games
    from dipgen.usecases.games import load_checked
    from dipgen.usecases.publish import check_game
    from dipgen.io.secretsfile import shared_secrets
    from dipgen.usecases.siteconfig import options_for_game
    from dipgen.usecases.workflows import hidden_pages_warnings
    from dipgen.rules.visibility import revealed

    paths = named_games(args.games)
    failed = _site_problems(args.games, paths)
    # a secrets.yml shared with another game, the games beside it included (as the build sees them)
    near = {os.path.abspath(g): g for p in paths for g in discover_games(Path(p).parent)}
    near.update({os.path.abspath(p): p for p in paths})
    shared: dict[str, list] = {}
    for folder, problem in shared_secrets([near[k] for k in sorted(near)]):
        shared.setdefault(os.path.abspath(folder), []).append(problem)
    running_hidden: list[Path] = []  # their archive's workflow must not publish Pages from a public repository
    for path in paths:
        problems = shared.get(os.path.abspath(path), [])
        try:
            loaded = load_checked(path)
            check_game(loaded, options_for_game(path))  # the game's Markdown and links, as the site build reads them
            history, silenced = loaded.history, loaded.acknowledged
        except GameError as e:
            problems = e.problems + problems
        if problems:
            failed += 1
            for p in problems:
                print(p, file=sys.stderr)
            print(f"{display_path(path)}: {sum(1 for p in problems if p.severity == 'error')} error(s)",
                  file=sys.stderr)
            continue
        for w in history.warnings:
            print(w, file=sys.stderr)
        state = history.result_line() or (
            f"waiting for {history.next_phase.name}" if history.next_phase else "over")
        quiet = f" ({silenced} acknowledged warning(s) not shown)" if silenced else ""
        print(f"{display_path(path)}: ok, {len(history.records)} phases played, {state}{_nmrs(history)}{quiet}")
        running_hidden += [path] if not revealed(history) else []
    for w in hidden_pages_warnings(running_hidden):
        print(w, file=sys.stderr)
    return 1 if failed else 0


def _site_problems(named: list[str], paths: list[Path]) -> int:
    """Print what is wrong with the sites (each a folder with mkdocs.yml) the games named are
    part of, rather than with a game: a build cache that git tracks. Returns how many there are."""
    from dipgen.usecases.cachefiles import committed_problems

    near = [Path.cwd(), *(Path(p).resolve().parent for p in named or [GAMES_DIR]), *(p.resolve().parent.parent
                                                                                 for p in paths)]
    problems = [p for site in dict.fromkeys(near) if (site / CONFIG_FILE).is_file() for p in committed_problems(site)]
    for p in problems:
        print(p, file=sys.stderr)
    return len(problems)


def _nmrs(history) -> str:
    """While the game runs: how many powers sent no orders in the latest phase (a file that misses
    some checks clean, so the GM is told)."""
    record = history.records[-1] if history.records and not history.finished else None
    if record is None or not record.nmr:
        return ""
    ordering = [p for p in history.variant.rules.powers() if p in record.nmr or p in record.orders
                or record.results_of(p)]
    silent = [p for p in ordering if p in record.nmr]
    return f"; {record.phase.name}: no orders from {len(silent)} of {len(ordering)} powers (NMR: {', '.join(silent)})"
