"""The `dipgen` command: `main` and the list of its commands, one module each in this package, each
with `add_parser(sub)` (its arguments and help) and `run(args) -> int` (the exit status): parse,
call a use case (`dipgen.usecases`), print."""

from __future__ import annotations

import argparse
import os
import sys

from dipgen import __version__
from dipgen.cli import (adjudicate, check, datc, deploy_key, export, init, leaks, mail, new, orders, publish_site,
                        render, secrets, verify)
from dipgen.core.errors import GameError, visible

EPILOG = "Run 'dipgen COMMAND --help' for what each command takes."

#: the commands, in the order `dipgen --help` lists them
COMMANDS = (check, adjudicate, datc, leaks, new, render, secrets, verify, export, init, publish_site, deploy_key,
            mail, orders)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dipgen", description="Adjudicate play-by-email Diplomacy games kept as YAML files, and publish them.",
        epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"dipgen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


class _Visible:
    """A text stream that shows what a terminal would act on (escape sequences from a player's
    name, a carriage return in the press) as visible escapes: `dipgen.core.errors.visible`, once, at
    the edge where dipgen prints."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text))
        return len(text)

    def __getattr__(self, name):  # flush, isatty, encoding, ...: the stream's own
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Visible(out), _Visible(err)
    try:
        try:
            return _main(argv)
        finally:
            out.flush()  # a reader gone away (`dipgen ... | head`) is found here, not at the exit
    except BrokenPipeError:
        _hush(out, err)
        return 1
    finally:
        sys.stdout, sys.stderr = out, err


def _hush(*streams) -> None:
    """The reader of dipgen's output went away: what is left to write goes nowhere, quietly (as
    Python's documentation advises: no traceback, and no error when the exit flushes the streams)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in streams:
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):  # not a file of this process (a test's capture)
            pass
    os.close(devnull)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130

