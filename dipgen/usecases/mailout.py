"""`dipgen adjudicate --power all --out DIR`: every seat's private report of a phase, one file each,
named for the GM who mails them (``1903-fall.England.ed.txt``: the phase, the seat, its player).
The folder appears whole or not at all: the reports are written into a new folder beside it, which
then takes its place."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from dipgen.core.errors import CommandError
from dipgen.core.phase import Phase
from dipgen.play.records import History
from dipgen.present.report import phase_report
from dipgen.view import GameView, RecordView, game_view


class OutError(CommandError):
    """What keeps the reports from being written (said to the GM as it is)."""


def _part(text: str) -> str:
    """A piece of a file name: letters, digits and hyphens of `text` (accents and case kept)."""
    return re.sub(r"[^\w-]+", "-", text, flags=re.UNICODE).strip("-_") or "x"


def seat_report(history: History, seat: str, phase: Phase) -> tuple[GameView, RecordView, str] | None:
    """The seat's private report of `phase`, made from its own view alone (the one way dipgen
    makes it: these files, `dipgen adjudicate --power`, `dipgen mail`), with that view and its
    record; None when its view has no such phase (a hidden retreat it took no part in)."""
    view = game_view(history, seat)
    try:
        record = view.record(phase)
    except KeyError:
        return None
    return view, record, phase_report(view, record)


def file_name(history: History, seat: str, phase: Phase, ext: str) -> str:
    """``1903-fall.England.ed.txt``: the phase, the seat and (if not the seat's key) its player."""
    held = history.seating.seat(seat)
    player = held.name(phase) if held is not None else ""
    parts = [phase.slug, seat] + ([player] if player and player != seat else [])
    return ".".join(_part(x) for x in parts) + ext


def reports(history: History, phase: Phase | None) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """{file name: (seat, report)} of every seat shown `phase` (default: the game's latest), and the
    seats whose view has no such phase (a hidden retreat they took no part in)."""
    phase = phase or history.records[-1].phase
    out, untold = {}, []
    for seat in history.seating.keys():
        made = seat_report(history, seat, phase)
        if made is None:
            untold.append(seat)
            continue
        out[file_name(history, seat, phase, ".txt")] = (seat, made[2])
    return out, untold


def write_folder(out: Path, files: dict[str, str], force: bool) -> None:
    """Write `files` as the folder `out`, all at once: an `out` that exists and is not empty only with
    `force` (then replaced)."""
    if out.exists() and not out.is_dir():
        raise OutError(f"{out} is a file, not a folder; choose another --out", code="out-taken")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise OutError(f"{out} exists and is not empty; choose another --out, or replace it with --force",
                       code="out-taken")
    out.parent.mkdir(parents=True, exist_ok=True)
    new = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in files.items():
            (new / name).write_text(text, encoding="utf-8")
        if out.is_dir():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.replace(out, old / "x")
            os.replace(new, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(new, out)
    except OSError:
        shutil.rmtree(new, ignore_errors=True)
        raise
