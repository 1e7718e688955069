"""The players' mailed orders as the phase file the game waits for takes them, for `dipgen orders`
(`dipgen.cli.orders`): which phase file (`load_target`: the one being filled, not committed yet, or
the next), and what to write in it (`plan_orders`: each message read by the one order reader,
`dipgen.io.mailorders`, a later message for a power replacing an earlier one by its Date:, else in
the order given; the lines not understood; notes for the GM)."""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path

from dipgen.core.errors import GameError, Problem

from dipgen.io.paths import display_path


class Target:
    """The phase file to write: its phase, path, and the position its orders are given in."""

    def __init__(self, phase, path: Path, position, filling: bool):
        self.phase, self.path, self.position, self.filling = phase, path, position, filling


def load_target(folder: Path, asked: str | None):
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


def plan_orders(loaded, target: Target, messages, game: Path, player: str | None, power: str | None) -> Plan:
    from dipgen.io.mailorders import read_message
    from dipgen.io.phaseedit import Entry, comments, sent_before

    history = loaded.history
    variant = history.variant
    form = variant.files.order_form
    plan = Plan()
    existing = comments(target.path, form)
    for message in _in_time_order(messages):
        whose = _whose(loaded, message, game, player, power)
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

    return [Unread(source, line.line, line.text, "", f"{power} is not a power of this game", code="unknown-power")
            for line in lines]


def _in_time_order(messages):
    """The messages in the order they were sent: those with a Date: sorted among their own
    places, the others where they were given."""
    dated = sorted((m for m in messages if m.date is not None), key=lambda m: m.date)
    it = iter(dated)
    return [next(it) if m.date is not None else m for m in messages]


def _whose(loaded, message, folder: Path, player: str | None, asked_power: str | None):
    """Whose message: the seat of --player or of the From: address, its writer and powers, and --power."""
    from dipgen.core.names import did_you_mean
    from dipgen.io.mailorders import Whose

    history = loaded.history
    variant, seating = history.variant, history.seating
    game = display_path(folder)
    power = None
    if asked_power:
        power = variant.rules.board.power_lookup(asked_power)
        if power is None or power not in variant.rules.powers():
            raise GameError([Problem(game, None, f"--power {asked_power!r}: not a power of this game."
                                     f"{did_you_mean(asked_power, variant.rules.powers())}", code="unknown-power")])
    name = player
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
