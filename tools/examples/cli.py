"""python -m tools.examples (or python tools/example_games.py): (re)write the example games."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .checks import require, summary
from .files import hand_edited, write_folder
from .generate import generate, verify
from .story import load_stories

ROOT = Path(__file__).resolve().parent.parent.parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.examples",
                                 description="Write the example games under games/ from their stories.")
    ap.add_argument("--out", default=str(ROOT / "games"), help="where the game folders go (default: games/)")
    ap.add_argument("--force", action="store_true", help="overwrite folders that were edited by hand")
    ap.add_argument("--check", action="store_true", help="generate and verify in a temporary folder; write nothing")
    args = ap.parse_args(argv)

    out = Path(args.out)
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for script in load_stories():
            sim, files = generate(script)
            scratch = Path(tmp) / script.slug
            write_folder(scratch, files)
            history = verify(scratch, sim)
            require(history, script)
            print(summary(history, script))
            print()
            if args.check:
                continue
            folder = out / script.slug
            edited = hand_edited(folder)
            if edited and not args.force:
                print(f"{folder}: edited by hand ({', '.join(edited[:5])}{'...' if len(edited) > 5 else ''}); "
                      "left alone. Use --force to overwrite.", file=sys.stderr)
                status = 1
                continue
            write_folder(folder, files)
            verify(folder, sim)
            print(f"wrote {folder} ({len(files)} files)")
    return status
