"""How a command says it failed: ``error:``, what is wrong, and its code in brackets (one of
`dipgen.core.errors.ERROR_CODES`), on standard error, as the game files' errors are printed."""

from __future__ import annotations

import sys

from dipgen.core.errors import CommandError


def fail(message: str, code: str) -> int:
    """Print a command's error with its code; 1, the exit status it returns."""
    return refused(CommandError(message, code))


def refused(error: CommandError) -> int:
    """Print an error a use case raised (its code with it); 1, the exit status."""
    print(f"error: {error}", file=sys.stderr)
    return 1
