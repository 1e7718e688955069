"""`dipgen adjudicate`: a phase's results as the GM sends them, one level's report, or every seat's
report a file each (`--power all --out DIR`)."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.cli.say import fail
from dipgen.core.errors import GameError
from dipgen.io.paths import display_path


def add_parser(sub) -> None:
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
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases.games import load_checked
    from dipgen.core.phase import Phase
    from dipgen.present.report import phase_report, report_level
    from dipgen.view import game_view, revealed

    try:
        history = load_checked(Path(args.game)).history
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
            return fail(str(e), code="not-in-game")
    if args.player:  # a player's report: every power her seat controlled
        from dipgen.core.names import did_you_mean

        seats = history.seating
        seat = next((s.key for s in seats.seats if args.player.lower() in
                     (s.key.lower(), *(n.lower() for n in s.names()))), None)
        if seat is None:
            names = [n for s in seats.seats for n in s.names()]
            return fail(f"{args.player!r} is not a player of this game.{did_you_mean(args.player, names)}",
                        code="not-in-game")
        level = seat
    view = game_view(history, level)
    if not view.records:
        due = view.due or history.next_phase
        assert due is not None, "a game with nothing played waits for its first phase"
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
            return fail(f"no phase {args.phase!r} in this game{whose} (phases: {shown})", code="unknown-phase")
    sys.stdout.write(phase_report(view, record))
    return 0


def _all_reports(history, args) -> int:
    """--power all --out DIR: every seat's private report of the phase, a file each, for the GM to mail."""
    from dipgen.usecases.mailout import OutError, reports, write_folder
    from dipgen.core.phase import Phase

    if not (args.power and args.power.lower() == "all" and args.out):
        return fail("--power all and --out DIR go together: every power's report, a file each, in DIR",
                    code="bad-option")
    if not history.records:
        return fail(f"nothing has been played yet; the game waits for {history.next_phase.name}",
                    code="nothing-played")
    try:
        phase = Phase.from_slug(args.phase) if args.phase else None
    except ValueError as e:
        return fail(f"--phase {args.phase!r}: {e}", code="unknown-phase")
    files, untold = reports(history, phase)
    asked = phase or history.records[-1].phase
    season = Phase(asked.year, asked.season_index)  # the movement phase of the season asked for
    if not files and phase is None:  # a hidden game's retreats nobody but the GM is shown (a Fall closed empty)
        return fail(f"no player is shown {history.records[-1].phase.name}, which only you see; --phase "
                    f"{season.slug} writes each player's report of {season.name} as it stands now",
                    code="unknown-phase")
    if not files:
        return fail(f"no phase {args.phase!r} in this game (phases: "
                    f"{', '.join(r.phase.slug for r in history.records)})", code="unknown-phase")
    out = Path(args.out)
    try:
        write_folder(out, {name: text for name, (_, text) in files.items()}, args.force)
    except OutError as e:
        return fail(f"{e.message}; nothing was written", code=e.code)
    except OSError as e:
        return fail(f"{e}; nothing was written", code="write-failed")
    for name, (seat, _) in files.items():
        print(f"{display_path(out / name)}: for {seat}")
    if untold:
        print(f"No report for {', '.join(untold)}: their view has no such phase (a hidden retreat they took no "
              f"part in); --phase {season.slug} writes theirs of {season.name}, as it stands now")
    return 0
