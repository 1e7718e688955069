"""Every example game's adjudication, phase by phase, as text: run it before and after a change
to the engine and compare the two files, which must be byte-identical.

    python bench/histories.py [GAME ...] > before.txt      # default: every game in games/

For each game and each phase played, it prints what `dipgen adjudicate --full --phase PHASE GAME`
prints, then every result of the phase record as its `repr` (order, unit, success, each note with
its reason and particulars), the positions after it and the dislodged units. Not a benchmark: a
check that a faster engine still tells every game the same story.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

from dipgen.cli import main as dipgen_main
from dipgen.usecases.games import load_checked

ROOT = Path(__file__).resolve().parent.parent


def game_text(path: Path) -> str:
    history = load_checked(path).history
    out = [f"=== {path.name}"]
    for record in history.records:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = dipgen_main(["adjudicate", "--full", "--phase", record.phase.slug, str(path)])
        out += [f"--- {record.phase.slug} (exit {code})", buf.getvalue()]
        out += [repr(r) for r in record.results + record.retreat_results]
        out += [f"after: {record.after.units!r}", f"owners: {sorted(record.after.owners.items())!r}",
                f"dislodged: {record.dislodged!r}", f"destroyed: {record.destroyed!r}"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    games = [Path(a) for a in argv] or sorted(p for p in (ROOT / "games").iterdir() if p.is_dir())
    for path in games:
        sys.stdout.write(game_text(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
