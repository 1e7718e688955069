"""`dipgen orders`: the players' messages into the phase file the game waits for, in one command.

Each message is read (`dipgen.io.messages`), its order lines read with the one order reader
(`dipgen.io.mailorders`), a later message for a power replacing an earlier one (by its Date:, else
in the order given), and the orders written into the phase file in place (`dipgen.io.phaseedit`),
the GM's comments kept. It prints the diff, each line it did not understand, and what `dipgen
check` says of the game with the file written; exit status 0 when every order line was read."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import sys
from pathlib import Path

from dipgen.core.errors import GameError, Problem, display_path

DESCRIPTION = (
    "Read the players' messages (saved e-mails, an mbox, or pasted text; a folder stands for its files; "
    "no FILE: standard input) and write the orders they give, in the canonical notation, into the phase "
    "file the game waits for: the one being filled (not yet committed) or the next. Whose orders: a heading "
    "(France:), --power, or the From: address kept in secrets.yml's addresses:. A later message for a power "
    "replaces its earlier orders. Prints the diff of the file and every line not understood; exit status 0 "
    "when every order line was understood, 1 otherwise. Nothing is written when a message cannot be read.")


class _Intermixed(argparse.ArgumentParser):
    """Options anywhere among the files (dipgen orders games/g --power France mail.eml)."""

    _inside = False

    def parse_known_args(self, args=None, namespace=None):
        if self._inside:
            return super().parse_known_args(args, namespace)
        self._inside = True
        try:
            return super().parse_known_intermixed_args(args, namespace)
        finally:
            self._inside = False


def add_parser(sub) -> None:
    made, sub._parser_class = sub._parser_class, _Intermixed  # the class add_parser makes, for this one
    try:
        p = sub.add_parser("orders", help="read the players' e-mailed orders into the phase file",
                           description=DESCRIPTION)
    finally:
        sub._parser_class = made
    p.add_argument("game", help="the game folder, e.g. games/my-game")
    p.add_argument("files", nargs="*", metavar="FILE", help="messages: .eml, mbox or text files, or folders of them")
    p.add_argument("--power", help="the power of orders under no heading")
    p.add_argument("--player", help="who wrote the messages (by name, as players: writes it), where orders are "
                                    "kept per player (Double, the 2-player game) and no address says it")
    p.add_argument("--phase", help="the phase to write, e.g. 1901-fall: the next one, or the one being filled")
    p.add_argument("--dry-run", action="store_true", help="print what would be written, write nothing")
    p.add_argument("--canonical", action="store_true",
                   help="rewrite the phase file's orders into the canonical notation (comments kept), no messages")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.io.messages import read_messages

    folder = Path(args.game)
    try:
        loaded, target = _load(folder, args.phase)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    if args.canonical:
        return _canonical(loaded.history, target, args.dry_run)
    if not args.files and sys.stdin.isatty():
        print("reading one message from standard input: paste it, then press Ctrl-D", file=sys.stderr)
    stdin = None if args.files else sys.stdin.buffer.read()
    messages, problems = read_messages([Path(f) for f in args.files], stdin)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        print(f"nothing was written: {len(problems)} message problem(s)", file=sys.stderr)
        return 1
    try:
        plan = _plan(loaded, target, messages, args)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    return _write(loaded.history, folder, target, plan, args.dry_run)


class Target:
    """The phase file to write: its phase, path, and the position its orders are given in."""

    def __init__(self, phase, path: Path, position, filling: bool):
        self.phase, self.path, self.position, self.filling = phase, path, position, filling


def _load(folder: Path, asked: str | None):
    """The game as it stands before the phase file to write, and that file (`Target`): the last
    phase file while it is being filled (not committed yet), or the one --phase names, is left
    out of the game read (it may hold errors the orders are to fix); else the next phase's."""
    from dipgen.usecases.games import load_checked
    from dipgen.core.phase import Phase
    from dipgen.io.folders import phase_files

    game = display_path(folder)
    files = phase_files(folder)
    last = max(files) if files else None
    phase = None
    if asked:
        try:
            phase = Phase.from_slug(asked)
        except ValueError as e:
            raise GameError([Problem(game, None, f"--phase {asked!r}: {e}", code="bad-phase-name")]) from e
    filling = last is not None and (phase == last if phase is not None else not _committed(files[last]))
    if filling and last is not None:
        with _without(folder, files[last]) as copy:
            try:
                loaded = load_checked(copy)
            except GameError as e:  # said of the game's own files, not of the copy
                raise GameError([dataclasses.replace(p, file=p.file.replace(str(copy), game))
                                 for p in e.problems]) from None
        if loaded.history.next_phase != last:
            raise GameError([Problem(display_path(files[last]), None, f"the game does not wait for {last.slug}: "
                                     "the files before it leave another phase to play", "run dipgen check",
                                     code="not-next-phase")])
    else:
        loaded = load_checked(folder)
    history = loaded.history
    nxt = history.next_phase
    if nxt is None:
        raise GameError([Problem(game, None, f"the game is over ({history.result_line() or 'ended'}); it takes "
                                 "no more orders", "", code="game-over")])
    if phase is not None and phase != nxt:
        raise GameError([Problem(game, None, f"{asked} is not the phase the game waits for: it waits for "
                                 f"{nxt.slug}", f"give --phase {nxt.slug}, or leave --phase out",
                                 code="not-next-phase")])
    path = files[last] if filling and last is not None else folder / f"{nxt.slug}.yml"
    return loaded, Target(nxt, path, history.position, filling)


@contextlib.contextmanager
def _without(folder: Path, file: Path):
    """A private copy of the game folder without `file` (the phase file being filled)."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="dipgen-orders-") as tmp:
        copy = Path(tmp) / folder.resolve().name
        shutil.copytree(folder, copy, ignore=lambda d, names: [n for n in names if Path(d, n) == file
                                                                or n == ".git"])
        yield copy


def _committed(file: Path) -> bool:
    """Is `file` committed as it is (tracked, and unchanged since)? True where git cannot say:
    then the next phase is written, unless --phase names this one."""
    import subprocess

    try:
        done = subprocess.run(["git", "status", "--porcelain", "--", file.name], cwd=file.parent,
                              capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return True
    return done.returncode != 0 or not done.stdout.strip()


class Plan:
    """What to write: the entries per (power, writer), diplomacy points, lines not understood, notes."""

    def __init__(self) -> None:
        self.entries: dict = {}
        self.points: dict[str, dict[str, int]] = {}
        self.unread: list = []
        self.notes: list[str] = []
        self.read = 0


def _plan(loaded, target: Target, messages, args) -> Plan:
    from dipgen.io.mailorders import read_message
    from dipgen.io.phaseedit import Entry, comments, sent_before

    history = loaded.history
    variant = history.variant
    form = variant.files.order_form
    plan = Plan()
    existing = comments(target.path, form)
    for message in _in_time_order(messages):
        whose = _whose(loaded, message, args)
        reading = read_message(message, variant, target.phase, target.position, whose)
        if reading.refused:
            raise GameError([Problem(message.source, None, f"the message is not read: {reading.refused}",
                                     "save only the players' messages with their orders", code="too-large")])
        plan.unread.extend(reading.unread)
        if not reading.orders and not reading.points and not reading.unread:
            plan.notes.append(f"{message.source}: no orders in it")
        for (power, writer), lines in reading.orders.items():
            if power not in variant.rules.powers():
                plan.unread.extend(_not_a_power(message.source, power, lines))
                continue
            outer, inner = (power, "") if form == "power" else (power, writer) if form == "power/writer" \
                else (writer, power)
            before = sent_before(existing.get((outer.casefold(), inner.casefold())))
            if before is not None and message.date is not None and message.date < before:
                plan.notes.append(f"{message.source}: {power}'s orders are older than those in the file "
                                  f"(sent {before:%a %d %b %H:%M}); kept the file's")
                continue
            plan.entries[(power, writer)] = Entry(power, writer, tuple(line.canonical for line in lines),
                                                  message.source, message.date)
            plan.notes.extend(f"{message.source}:{line.line}: {g}" for line in lines for g in line.guesses)
        for writer, points in reading.points.items():
            plan.points.setdefault(writer, {}).update(points)
    return plan


def _not_a_power(source: str, power: str, lines):
    from dipgen.io.mailorders import Unread

    return [Unread(source, line.line, line.text, "", f"{power} is not a power of this game") for line in lines]


def _in_time_order(messages):
    """The messages in the order they were sent: those with a Date: sorted among their own
    places, the others where they were given."""
    dated = sorted((m for m in messages if m.date is not None), key=lambda m: m.date)
    it = iter(dated)
    return [next(it) if m.date is not None else m for m in messages]


def _whose(loaded, message, args):
    """Whose message: the seat of --player or of the From: address, its writer and powers, and --power."""
    from dipgen.core.names import did_you_mean
    from dipgen.io.mailorders import Whose

    history = loaded.history
    variant, seating = history.variant, history.seating
    game = display_path(Path(args.game))
    power = None
    if args.power:
        power = variant.rules.board.power_lookup(args.power)
        if power is None or power not in variant.rules.powers():
            raise GameError([Problem(game, None, f"--power {args.power!r}: not a power of this game."
                                     f"{did_you_mean(args.power, variant.rules.powers())}", code="unknown-power")])
    name = args.player
    if name is None and message.sender and loaded.secrets is not None:
        name = loaded.secrets.addresses.player_of(message.sender)
    if name is None:
        return Whose(power=power)
    seat = next((s.key for s in seating.seats if name.casefold() in
                 (s.key.casefold(), *(n.casefold() for n in s.names()))), None)
    if seat is None:
        names = [n for s in seating.seats for n in s.names()]
        raise GameError([Problem(game, None, f"--player {name!r}: not a player of this game."
                                 f"{did_you_mean(name, names)}", code="unknown-player")])
    writer = variant.files.writers(seating).get(name.casefold()) if variant.files.order_form != "power" else seat
    powers = tuple(variant.rules.powers()) if variant.files.order_form == "writer/power" \
        else seating.powers_of(seat)
    return Whose(seat, writer, powers, power)


def _write(history, folder: Path, target: Target, plan: Plan, dry_run: bool) -> int:
    from dipgen.io.phaseedit import edited_text, write_atomic

    status = 0
    plan.read = sum(len(e.orders) for e in plan.entries.values())
    if plan.entries or plan.points:
        old, new = edited_text(target.path, history.variant.files.order_form, list(plan.entries.values()),
                               plan.points)
        name = display_path(target.path)
        diff = list(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                         f"{name} (before)" if old else "/dev/null", name))
        sys.stdout.write("".join(diff) or f"{name}: unchanged\n")
        if not dry_run and new != old:
            write_atomic(target.path, new)
    else:
        print("no orders were read; nothing was written")
    for note in plan.notes:
        print(f"note: {note}")
    for u in plan.unread:
        guess = f" (best guess: {u.guess})" if u.guess else ""
        print(f"{u.source}:{u.line}: not understood: {u.text!r}{guess}: {u.why}", file=sys.stderr)
    if plan.unread:
        status = 1
    if (plan.entries or plan.points) and not dry_run:
        status = max(status, _check(folder))
    verb = "would be written" if dry_run else "written"
    print(f"{plan.read} order(s) {verb} to {display_path(target.path)}; {len(plan.unread)} line(s) not understood")
    return status


def _check(folder: Path) -> int:
    """What `dipgen check` says of the game now."""
    from dipgen.usecases.games import load_checked

    try:
        history = load_checked(folder).history
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    for w in history.warnings:
        print(w, file=sys.stderr)
    return 0


def _canonical(history, target: Target, dry_run: bool) -> int:
    """--canonical: the file's orders rewritten in the canonical notation, comments kept."""
    from dipgen.io.phaseedit import canonical_text, write_atomic

    variant = history.variant
    if not target.path.exists():
        print(f"error: {display_path(target.path)} does not exist yet", file=sys.stderr)
        return 1
    failed: list[str] = []

    def canonical(text: str) -> str:
        from dipgen.core.orders import for_phase, read_order

        rules = variant.rules
        try:
            order, _ = read_order(rules.board, text, rules.order_words, rules.verbs)
        except ValueError as e:
            failed.append(f"{text!r}: {e}")
            return text
        return for_phase(order, target.phase.kind).format(rules.board)

    try:
        old, new = canonical_text(target.path, canonical)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    name = display_path(target.path)
    sys.stdout.write("".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                                  f"{name} (before)", name)) or f"{name}: already canonical\n")
    if not dry_run and new != old:
        write_atomic(target.path, new)
    for f in failed:
        print(f"{name}: not understood, kept as written: {f}", file=sys.stderr)
    return 1 if failed else 0
