"""The codes of the errors (and warnings) a command printed, in the order printed: what a test
compares, rather than the words, which may then improve without breaking it. dipgen prints a code
in brackets at the end of its error's line (a hint may follow on the next)."""

from __future__ import annotations

import re

from dipgen.core.errors import ERROR_CODES
from dipgen.io.acknowledge import WARNING_CODES

_CODE = re.compile(r" \[([a-z0-9]+(?:-[a-z0-9]+)*)\]$", re.M)


def codes(printed: str) -> list[str]:
    """The codes in `printed` (a command's standard error), each one dipgen has."""
    found = _CODE.findall(printed)
    unknown = [c for c in found if c not in ERROR_CODES and c not in WARNING_CODES]
    assert not unknown, f"codes dipgen does not have: {unknown}"
    return found
