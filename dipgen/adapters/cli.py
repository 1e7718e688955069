"""The `dipgen` command: check, adjudicate, render, datc, new, secrets, verify, export, init, mail, orders."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from dipgen import __version__
from dipgen.core.errors import GameError, display_path, visible

EPILOG = "Run 'dipgen COMMAND --help' for what each command takes."


def _games(paths: list[str]) -> list[Path]:
    """Game folders named on the command line; a folder of games stands for all of them, and a file
    for the game it belongs to (as a pre-commit hook names the files a commit touches), once."""
    from dipgen.io.folders import discover_games, game_of, holds_games

    out: list[Path] = []
    for p in map(Path, paths or ["games"]):
        if p.is_file():  # a file of no game (games/README.md) stands for nothing
            found = game_of(p)
            out.extend([found] if found is not None and found not in out else [])
            continue
        # every folder in a folder of games is a game; load_game says what is wrong with one that is not
        out.extend(discover_games(p) if holds_games(p) else [p])
    return out


def _load(path: Path):
    from dipgen.adapters.games import load_checked

    return load_checked(path)


def cmd_check(args) -> int:
    from dipgen.io.folders import discover_games
    from dipgen.adapters.publish import check_game
    from dipgen.io.secretsfile import shared_secrets
    from dipgen.adapters.siteconfig import site_options
    from dipgen.adapters.workflows import hidden_pages_warnings
    from dipgen.rules.visibility import revealed

    paths = _games(args.games)
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
            loaded = _load(path)
            check_game(loaded, site_options(path))  # the game's Markdown and links, as the site build reads them
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
    from dipgen.mkdocs.speed.buildcache import committed_problems

    near = [Path.cwd(), *(Path(p).resolve().parent for p in named or ["games"]), *(p.resolve().parent.parent
                                                                                 for p in paths)]
    problems = [p for site in dict.fromkeys(near) if (site / "mkdocs.yml").is_file() for p in committed_problems(site)]
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


def cmd_adjudicate(args) -> int:
    from dipgen.core.phase import Phase
    from dipgen.present.report import phase_report, report_level
    from dipgen.view import game_view, revealed

    try:
        history = _load(Path(args.game)).history
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    if args.power and args.power.lower() == "all" or args.out:
        return _all_reports(history, args)
    level = "gm" if args.full else report_level(revealed(history))
    if args.power:
        try:
            level = history.variant.rules.board.power_name(args.power)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    if args.player:  # a player's report: every power her seat controlled
        from dipgen.core.names import did_you_mean

        seats = history.seating
        seat = next((k for k in seats.keys() if args.player.lower() in
                     (k.lower(), *(n.lower() for n in seats.seat(k).names()))), None)
        if seat is None:
            names = [n for k in seats.keys() for n in seats.seat(k).names()]
            print(f"error: {args.player!r} is not a player of this game.{did_you_mean(args.player, names)}",
                  file=sys.stderr)
            return 1
        level = seat
    view = game_view(history, level)
    if not view.records:
        due = view.due or history.next_phase
        print(f"Nothing has been played yet; the game waits for {due.name} ({due.slug}.yml).")
        if not view.seating.standard:  # the lots drawn (Taskdip), or the pairs: who plays what from the start
            print("Who plays which powers from the start:")
            for key in view.seating.keys():
                print(f"  {key}: {', '.join(view.seating.powers_of(key, None)) or 'none'}")
        return 0
    record = view.records[-1]
    if args.phase:
        try:
            record = view.record(Phase.from_slug(args.phase))
        except (ValueError, KeyError):
            shown = ", ".join(r.phase.slug for r in view.records)
            whose = "" if level == "gm" else f" as the {level} report tells it (--full for the GM's)"
            print(f"error: no phase {args.phase!r} in this game{whose} (phases: {shown})", file=sys.stderr)
            return 1
    sys.stdout.write(phase_report(view, record))
    return 0


def _all_reports(history, args) -> int:
    """--power all --out DIR: every seat's private report of the phase, a file each, for the GM to mail."""
    from dipgen.adapters.mailout import OutError, reports, write_folder
    from dipgen.core.phase import Phase

    if not (args.power and args.power.lower() == "all" and args.out):
        print("error: --power all and --out DIR go together: every power's report, a file each, in DIR",
              file=sys.stderr)
        return 1
    if not history.records:
        print(f"error: nothing has been played yet; the game waits for {history.next_phase.name}", file=sys.stderr)
        return 1
    try:
        phase = Phase.from_slug(args.phase) if args.phase else None
    except ValueError as e:
        print(f"error: --phase {args.phase!r}: {e}", file=sys.stderr)
        return 1
    files, untold = reports(history, phase)
    asked = phase or history.records[-1].phase
    season = Phase(asked.year, asked.season_index)  # the movement phase of the season asked for
    if not files and phase is None:  # a hidden game's retreats nobody but the GM is shown (a Fall closed empty)
        print(f"error: no player is shown {history.records[-1].phase.name}, which only you see; --phase "
              f"{season.slug} writes each player's report of {season.name} as it stands now", file=sys.stderr)
        return 1
    if not files:
        print(f"error: no phase {args.phase!r} in this game (phases: "
              f"{', '.join(r.phase.slug for r in history.records)})", file=sys.stderr)
        return 1
    out = Path(args.out)
    try:
        write_folder(out, {name: text for name, (_, text) in files.items()}, args.force)
    except (OutError, OSError) as e:
        print(f"error: {e}; nothing was written", file=sys.stderr)
        return 1
    for name, (seat, _) in files.items():
        print(f"{display_path(out / name)}: for {seat}")
    if untold:
        print(f"No report for {', '.join(untold)}: their view has no such phase (a hidden retreat they took no "
              f"part in); --phase {season.slug} writes theirs of {season.name}, as it stands now")
    return 0


def cmd_datc(args) -> int:
    from dipgen.adapters.datc import DatcFormatError, Report, run_file

    report = Report()
    for f in args.files:
        try:
            run_file(f, report)
        except (OSError, DatcFormatError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    for line in report.lines:
        if args.verbose or not line.startswith("PASS"):
            print(line)
    tail = f", {report.superseded} skipped" if report.superseded else ""
    print(f"{report.passed} passed, {report.failed} failed{tail}")
    return 1 if report.failed else 0


def cmd_leaks(args) -> int:
    from dipgen.adapters.leaks import scan_site

    histories = []
    for path in _games([args.games]):
        try:
            histories.append(_load(path).history)
        except GameError as e:
            print(e, file=sys.stderr)
            return 1
    if not Path(args.site).is_dir():
        print(f"error: no built site at {args.site}; build it first with 'mkdocs build'", file=sys.stderr)
        return 1
    leaks = scan_site(args.site, histories, prefix=args.prefix, docs_dir=args.docs)
    for leak in leaks:
        print(leak)
    hidden = sum(1 for h in histories if h.variant.policy.hidden)
    if leaks:
        print(f"{len(leaks)} leak(s) of hidden information in {args.site}", file=sys.stderr)
        return 1
    print(f"no leaks: {args.site} shows nothing of the {hidden} hidden game(s) that the public may not know")
    return 0


def cmd_new(args) -> int:
    from dipgen.adapters.newgame import create_game

    try:
        path = create_game(Path(args.dir), args.slug, args.variant, title=args.title, gm=args.gm)
    except (ValueError, FileExistsError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"created {display_path(path / 'game.yml')}; edit the players, then write "
          f"{display_path(path / '1901-spring.yml')}")
    return 0


class _NewHelp(argparse.HelpFormatter):
    """`dipgen new --help`, whose epilog lists the variants with their names: made only when the
    help is printed (each variant's package is imported for its name)."""

    def add_text(self, text: str | None) -> None:
        if text != VARIANTS_LISTED:
            return super().add_text(text)
        from dipgen.variants import get_variant, variant_names

        self.start_section("variants (--variant)")
        self.add_arguments([argparse.Action([], name, help=get_variant(name).words.title.replace("%", "%%"))
                            for name in variant_names()])
        self.end_section()


VARIANTS_LISTED = "(the variants)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dipgen", description="Adjudicate play-by-email Diplomacy games kept as YAML files, and publish them.",
        epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"dipgen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("check", help="validate game files (exit status 1 on errors)",
                       description="Read and adjudicate games, reporting every problem with file, line and a fix. "
                                   "Usable as a pre-commit hook (dipgen-check): a file stands for its game.")
    p.add_argument("games", nargs="*", help="game folders, folders of games, or files of games (default: games/)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("adjudicate", help="print a phase's results as the GM sends them",
                       description="Print the results of the latest phase (or --phase) in the classic style, "
                                   "with dislodgements, centre changes and what comes next.")
    p.add_argument("game", help="the game folder, e.g. games/my-game")
    p.add_argument("--phase", help="a phase such as 1901-fall or 1901-fall-retreats (default: the latest)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--power", help="the private report for one power, as the GM e-mails it (hidden variants); "
                                     "'all' with --out: every power's (every player's, where players are apart "
                                     "from powers), a file each")
    who.add_argument("--player", help="the private report for one player (by name), for every power she played")
    who.add_argument("--full", action="store_true",
                     help="everything, for the GM's eyes (a hidden game's report is otherwise the public one "
                          "until the game is revealed)")
    p.add_argument("--out", metavar="DIR", help="with --power all: the folder to write the reports into (a new or "
                                                "empty one; it appears whole or not at all)")
    p.add_argument("--force", action="store_true", help="with --out: replace a folder that is not empty")
    p.set_defaults(func=cmd_adjudicate)

    p = sub.add_parser("datc", help="run DATC-format adjudication test files",
                       description="Run test cases in the DATC text format (as used by jDip and godip); one line "
                                   "per failing case, then 'N passed, M failed'. Exit status 1 if any case fails.")
    p.add_argument("files", nargs="+", help="DATC text files")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing cases too")
    p.set_defaults(func=cmd_datc)

    p = sub.add_parser("leaks", help="scan a built site for hidden information it must not show",
                       description="Read every file of a built site (pages, maps, search index, sitemap, file "
                                   "names) and report any fact of a running hidden game that its public view "
                                   "does not show: a unit's position, an order, a centre's owner. Exit status 1 "
                                   "on any leak.")
    p.add_argument("site", nargs="?", default="site", help="the built site (default: site)")
    p.add_argument("--games", default="games", help="the games folder it was built from (default: games)")
    p.add_argument("--prefix", default="games", help="the site folder of the game pages (default: games)")
    p.add_argument("--docs", default="site_src", help="the site's hand-written pages (default: site_src)")
    p.set_defaults(func=cmd_leaks)

    p = sub.add_parser("new", help="start a new game folder with a valid game.yml",
                       description="Create games/<slug>/game.yml for a new game. Never overwrites an existing game.",
                       epilog=VARIANTS_LISTED, formatter_class=_NewHelp)
    p.add_argument("slug", help="the game's folder name: lower case letters, digits and dashes")
    p.add_argument("--variant", default="standard", help="the variant, one of those below (default: standard)")
    p.add_argument("--title", help="the game's title (default: from the slug)")
    p.add_argument("--gm", default="", help="the GM's name")
    p.add_argument("--dir", default="games", help="the folder that holds the games (default: games)")
    p.set_defaults(func=cmd_new)

    from dipgen.adapters.render_cmd import add_render_command  # the map renderer lives in its own module

    add_render_command(sub)
    from dipgen.adapters.secrets_cmd import add_secrets_command
    add_secrets_command(sub)
    from dipgen.adapters.verify_cmd import add_verify_command
    add_verify_command(sub)
    from dipgen.adapters.export_cmd import add_export_command
    add_export_command(sub)
    from dipgen.adapters.init_cmd import add_init_command
    add_init_command(sub)
    from dipgen.adapters.sitepush import add_publish_command  # the free path for hidden games: README
    add_publish_command(sub)
    from dipgen.adapters.deploykey import add_deploy_key_command
    add_deploy_key_command(sub)
    from dipgen.adapters.mail_cmd import add_mail_command
    add_mail_command(sub)
    from dipgen.adapters.orders_cmd import add_orders_command
    add_orders_command(sub)
    return parser


class _Visible:
    """A text stream that shows what a terminal would act on (escape sequences from a player's
    name, a carriage return in the press) as visible escapes: `dipgen.core.errors.visible`, once, at
    the edge where dipgen prints."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text))
        return len(text)

    def __getattr__(self, name):  # flush, isatty, encoding, ...: the stream's own
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Visible(out), _Visible(err)
    try:
        try:
            return _main(argv)
        finally:
            out.flush()  # a reader gone away (`dipgen ... | head`) is found here, not at the exit
    except BrokenPipeError:
        _hush(out, err)
        return 1
    finally:
        sys.stdout, sys.stderr = out, err


def _hush(*streams) -> None:
    """The reader of dipgen's output went away: what is left to write goes nowhere, quietly (as
    Python's documentation advises: no traceback, and no error when the exit flushes the streams)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in streams:
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):  # not a file of this process (a test's capture)
            pass
    os.close(devnull)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
