"""Warnings the GM has read: their codes, and ``acknowledged:`` in a phase file.

`dipgen check` prints a warning (a player's misorder, press that stays unpublished) every time it
runs. Each warning has a stable code (`WARNING_CODES`), printed after it in brackets; a phase
file lists the warnings of that file its GM has read, and `dipgen check` (and the build) no
longer print them::

    acknowledged:
      - illegal-order A Par - Mun    # the warning of that code about that order, as written
      - unpublished-text             # every warning of that code in this file

An entry is a code, then, for one order's warning, the order as the file writes it (case and
spaces aside). An acknowledgement that matches no warning of its file (the order was corrected,
a code misspelt) is itself a warning, so that none silences more than the GM read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dipgen.core.errors import Problem
from dipgen.core.phase import Phase
from dipgen.io.yamlfile import kind_of, line_of
from dipgen.play.game import Acknowledgement, PhaseFile

#: every warning's code, and what it warns of (README, "Warnings")
WARNING_CODES = {
    "illegal-order": "an order that reads clearly but cannot be carried out: the unit holds (movement), "
                     "is disbanded (retreats), or the order is void (winter)",
    "no-unit": "an order for a unit the power does not have where the order says: void",
    "foreign-unit": "an order for a unit that is another power's: void, and that unit is not affected",
    "wrong-unit-kind": "an order that names its unit with the wrong letter (A for a fleet): read as the unit there",
    "unpublished-text": "press or notes in a hidden game's retreat or winter file: unpublished until the reveal",
    "press-changed": "press, notes or a description that the site publishes changed: a script, a javascript: link "
                     "left out",
    "record-needs-seed": "a hidden game over, without its seed in the build: its record cannot be published",
    "unused-acknowledgement": "an acknowledgement that matches no warning of its file",
    "deadline-over": "a deadline in game.yml of a game that is over: it is not shown",
    "deadline-stale": "a deadline before the latest phase file was committed: an earlier phase's, not shown",
    "shallow-clone": "git holds only the latest commits: the times some phase files were published are unknown",
    "single-repository-pages": "a running hidden game in an archive whose workflow publishes Pages from its own "
                               "repository, which must then be private (a paid plan): 'dipgen init --site-repo'",
    "commit-date-out-of-range": "a file added by a commit dated past the year 9999 (or before the year 1): its time "
                                "is unknown",
}
UNUSED = "unused-acknowledgement"
_ENTRY = re.compile(r"\s*(\S+)\s*(.*?)\s*", re.S)  # any text with a non-blank character matches
EXAMPLE = "e.g.\n      acknowledged:\n        - illegal-order A Par - Mun\n        - unpublished-text"


def read_acknowledged(data: dict, file: str, problems: list[Problem]) -> tuple[Acknowledgement, ...]:
    """A phase file's ``acknowledged:``: a code and an order a line (or one text); a code dipgen does
    not know is a warning at once (it can match nothing)."""
    raw = data.get("acknowledged")
    if raw is None:
        return ()
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else None
    if items is None:
        problems.append(Problem(file, line_of(data, "acknowledged"), f"acknowledged is a list of warnings, not "
                                f"{kind_of(raw)}", EXAMPLE, code="bad-acknowledgement"))
        return ()
    out = []
    for i, item in enumerate(items):
        line = line_of(items, i) or line_of(item) or line_of(data, "acknowledged")
        if not isinstance(item, str) or not item.strip():
            what = "a mapping: quote it" if isinstance(item, dict) else kind_of(item)
            problems.append(Problem(file, line, f"an acknowledgement is a warning's code, then the order it is "
                                    f"about as written, not {what}", EXAMPLE, code="bad-acknowledgement"))
            continue
        entry = _ENTRY.fullmatch(item)
        assert entry is not None  # the text is not blank
        code, subject = entry.groups()
        if code not in WARNING_CODES:
            problems.append(_unknown(file, line, item, code))
            continue
        out.append(Acknowledgement(code, subject, line))
    return tuple(out)


def _unknown(file: str, line: int | None, item: str, code: str) -> Problem:
    from dipgen.core.names import did_you_mean

    known = [c for c in WARNING_CODES if c != UNUSED]
    return Problem(file, line, f"acknowledged: {item.strip()!r} names no warning dipgen gives."
                   f"{did_you_mean(code, known)}", f"the codes: {', '.join(known)}", severity="warning", code=UNUSED)


def acknowledge(problems: list[Problem], files: Iterable[PhaseFile], checked: Iterable[Phase] = ()
                ) -> tuple[list[Problem], int]:
    """`problems` without the warnings their phase files acknowledge, with a warning for each
    acknowledgement of a `checked` phase (one whose file was adjudicated to its end) that matched
    none; and how many warnings were left out."""
    files = list(files)
    by_file = {pf.name: pf.acknowledged for pf in files if pf.acknowledged}
    used: set[tuple[str, int]] = set()
    kept: list[Problem] = []
    for p in problems:
        acks = by_file.get(p.file, ()) if p.severity == "warning" and p.code else ()
        hits = [i for i, a in enumerate(acks) if a.matches(p.code, p.subject)]
        used.update((p.file, i) for i in hits)
        if not hits:
            kept.append(p)
    silenced = len(problems) - len(kept)
    checked = set(checked)
    for pf in files:
        if pf.phase not in checked:
            continue
        for i, a in enumerate(pf.acknowledged):
            if (pf.name, i) not in used:
                entry = f"{a.code} {a.subject}".strip()
                kept.append(Problem(pf.name, a.line, f"acknowledged: {entry!r} matches no warning of this file",
                                    "delete it: the order it was about is corrected, or written otherwise here (an "
                                    "acknowledgement names the order as this file writes it)", severity="warning",
                                    code=UNUSED))
    return kept, silenced
