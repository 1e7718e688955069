"""python -m tools.examples [SLUG ...] (or python tools/example_games.py): (re)write the example games."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from dipgen.usecases.games import replay_folder

from .checks import summary
from .files import hand_edited, write_folder
from .generate import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent.parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.examples",
                                 description="Write the generated example games under games/.")
    ap.add_argument("slugs", nargs="*", metavar="SLUG",
                    help=f"the games to write (default: all of {', '.join(EXAMPLES)})")
    ap.add_argument("--out", default=str(ROOT / "games"), help="where the game folders go (default: games/)")
    ap.add_argument("--force", action="store_true", help="overwrite folders that were edited by hand")
    ap.add_argument("--check", action="store_true", help="generate and check in a temporary folder; write nothing")
    args = ap.parse_args(argv)
    unknown = [s for s in args.slugs if s not in EXAMPLES]
    if unknown:
        ap.error(f"no generated example game {', '.join(unknown)}; the generated ones are {', '.join(EXAMPLES)}")

    out = Path(args.out)
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for example in (EXAMPLES[s] for s in args.slugs or EXAMPLES):
            files = example.make()
            scratch = Path(tmp) / example.slug
            write_folder(scratch, files, example.manifest)
            history = replay_folder(scratch)
            if example.require is not None:
                example.require(history)
            print(summary(history, example.script))
            print()
            if args.check:
                continue
            folder = out / example.slug
            edited = hand_edited(folder) if example.manifest else []
            if edited and not args.force:
                print(f"{folder}: edited by hand ({', '.join(edited[:5])}{'...' if len(edited) > 5 else ''}); "
                      "left alone. Use --force to overwrite.", file=sys.stderr)
                status = 1
                continue
            write_folder(folder, files, example.manifest)
            replay_folder(folder)
            print(f"wrote {folder} ({len(files)} files)")
    return status
