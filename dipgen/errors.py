"""Errors a GM can fix: each names the file and line, says what is wrong, and how to fix it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    message: str
    hint: str = ""
    severity: str = "error"  # or "warning"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = f"{where}: {self.severity}: {self.message}"
        return text + (f"\n    hint: {self.hint}" if self.hint else "")


class GameError(Exception):
    """One or more problems in a game's files (warnings found on the way included).
    `partial`: when only phase files are at fault, the game up to the first broken one."""

    def __init__(self, problems: list[Problem], partial=None):
        self.problems = problems
        self.partial = partial
        super().__init__("\n".join(str(p) for p in problems))


def display_path(path: Path | str) -> str:
    """A path as the GM would type it: relative to the current folder when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
