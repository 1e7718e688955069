"""Errors a GM can fix: each names the file and line, says what is wrong, and how to fix it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dipgen.core.phase import Phase


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    message: str
    hint: str = ""
    #: "error"; "warning" (a player's misorder: reported, not refused); "note" (what could not be
    #: checked because of an error elsewhere, said once rather than as errors that follow from it)
    severity: str = "error"
    #: a warning's stable name (kebab-case, listed in `dipgen.io.acknowledge.WARNING_CODES`), by which
    #: a phase file's ``acknowledged:`` silences it; and the order it is about, as written ('' for none)
    code: str = ""
    subject: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = f"{where}: {self.severity}: {self.message}" + (f" [{self.code}]" if self.code else "")
        return text + (f"\n    hint: {self.hint}" if self.hint else "")


class GameError(Exception):
    """One or more problems in a game's files (warnings found on the way included).
    `partial`: when only phase files are at fault, the game up to the first broken one.
    `stopped`: the phase whose errors stopped the adjudication (the phases after it are not
    adjudicated), if it was a phase's."""

    def __init__(self, problems: list[Problem], partial: Any = None, stopped: Phase | None = None) -> None:
        self.problems = problems
        #: a `dipgen.io` Game, a layer the core may not import: Any is as much as can be said here
        self.partial = partial
        self.stopped = stopped
        super().__init__("\n".join(str(p) for p in problems))


def display_path(path: Path | str) -> str:
    """A path as the GM wrote it, relative to the current folder when inside it. Links are
    never followed: a link is named as the link, not as the file it leads to (and a link that
    loops or leads nowhere is named all the same)."""
    p = Path(path)
    absolute = Path(os.path.abspath(p))  # '..' and '.' folded away, no link followed
    here = Path.cwd()  # the real path of the current folder
    try:
        return str(absolute.relative_to(here))
    except ValueError:
        pass
    try:  # reached through a link to a folder (/tmp -> /private/tmp): the folder resolved, the name kept
        return str(absolute.parent.resolve().relative_to(here) / absolute.name)
    except (ValueError, OSError, RuntimeError):
        return str(p)


#: characters a terminal acts on rather than shows: C0 and C1 controls (escape sequences, carriage
#: return, backspace) but newline and tab; lone surrogates; the bidirectional overrides and
#: isolates, which reorder what is shown ("Trojan source")
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` safe to print on a terminal: each character a terminal would act on (an escape
    sequence, a carriage return, a bidirectional override) is shown as its escape (``\\x1b``,
    ``\\u202e``) instead. For dipgen's own output only; the game's files and site are unchanged."""
    return _UNSAFE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
