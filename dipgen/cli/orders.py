"""`dipgen orders`: the players' messages into the phase file the game waits for, in one command.

Each message is read (`dipgen.io.messages`), its order lines read with the one order reader
(`dipgen.io.mailorders`), a later message for a power replacing an earlier one (by its Date:, else
in the order given), and the orders written into the phase file in place (`dipgen.io.phaseedit`),
the GM's comments kept. It prints the diff, each line it did not understand, and what `dipgen
check` says of the game with the file written; exit status 0 when every order line was read."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dipgen.cli.say import fail
from dipgen.core.errors import GameError
from dipgen.io.paths import display_path
from dipgen.usecases.mailedorders import Plan, Target, load_target, plan_orders

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
        loaded, target = load_target(folder, args.phase)
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
        plan = plan_orders(loaded, target, messages, folder, args.player, args.power)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    return _write(loaded.history, folder, target, plan, args.dry_run)


def _write(history, folder: Path, target: Target, plan: Plan, dry_run: bool) -> int:
    import difflib  # here, not above: every dipgen command builds this one's parser, few run it

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
        print(f"{u.source}:{u.line}: not understood: {u.text!r}{guess}: {u.why} [{u.code}]", file=sys.stderr)
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
    import difflib

    from dipgen.io.phaseedit import canonical_text, write_atomic

    variant = history.variant
    if not target.path.exists():
        return fail(f"{display_path(target.path)} does not exist yet", code="unknown-phase")
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
        print(f"{name}: not understood, kept as written: {f} [bad-order]", file=sys.stderr)
    return 1 if failed else 0
