"""Golden files: for every variant, one season page (the Markdown `season_page` makes for the
public site) and one report (what `dipgen adjudicate` prints) of a chosen phase of its example
game, kept under tests/golden/ and compared by tests/test_golden.py. A change to what a GM or a
player reads shows up as a diff of these files, to be reviewed with the change.

    python -m tests.support.golden --update    # rewrite them from the code as it is; review the diff
    python -m tests.support.golden             # say which differ, write nothing
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys

from dipgen.cli import main as dipgen
from dipgen.core.phase import Phase
from dipgen.present.site.pages import SiteOptions, season_page
from dipgen.view import game_view

from . import GAMES, REPO, load

GOLDEN = REPO / "tests" / "golden"
UPDATE = "python -m tests.support.golden --update"

#: variant -> (its example game, the phase shown): a phase that shows what the variant does
CASES = {
    "standard": ("winter-palace", "1903-fall"),            # dislodgements, retreats due, centres changing hands
    "stab": ("lamps-out", "1902-fall"),                    # running: the public sees contacts, not the orders
    "blind": ("closed-shutters", "1903-fall"),             # running: the public sees totals and NMRs only
    "armor": ("tracks-in-the-mud", "1903-fall"),           # a move a tank held off; the GM's notes on it
    "complicated": ("supply-lines", "1902-fall"),          # bombings, planes, supply
    "blind-complicated": ("night-flights", "1902-spring"),  # running: Complicated's pieces played blind
    "double": ("two-captains", "1902-spring"),             # two captains' orders side by side, a stand-off
    "taskdip": ("austrian-question", "1901-spring"),       # a neutral power violated and re-allotted
    "tir": ("two-crowns", "1901-spring"),                  # the table, the dice, a die between two orders
}


def names(variant: str) -> tuple[str, str]:
    """The names of `variant`'s golden files: its season page and its report."""
    return f"{variant}.season.md", f"{variant}.report.txt"


def files(variant: str) -> dict[str, str]:
    """The golden files of `variant`, {file name: text}, as the code makes them now."""
    slug, phase = CASES[variant]
    folder = GAMES / slug
    view = game_view(load(folder), "public")
    index = next(i for i, r in enumerate(view.records) if r.phase == Phase.from_slug(phase))
    (page,) = season_page(view, SiteOptions(), index).values()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = dipgen(["adjudicate", str(folder), "--phase", phase])
    assert status == 0, f"dipgen adjudicate {slug} --phase {phase} failed"
    return dict(zip(names(variant), (page, out.getvalue()), strict=True))


def differing() -> list[str]:
    """The golden files that are not what the code makes now (missing ones included)."""
    return sorted(name for variant in CASES for name, text in files(variant).items()
                  if not (GOLDEN / name).is_file() or (GOLDEN / name).read_text(encoding="utf-8") != text)


def update() -> list[str]:
    """Rewrite every golden file from the code; the names of those that changed."""
    changed = differing()
    GOLDEN.mkdir(exist_ok=True)
    wanted = {name: text for variant in CASES for name, text in files(variant).items()}
    for stale in sorted(GOLDEN.iterdir()):
        if stale.name not in wanted:
            stale.unlink()
            changed.append(stale.name)
    for name, text in wanted.items():
        (GOLDEN / name).write_text(text, encoding="utf-8")
    return sorted(changed)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.support.golden", description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite the golden files from the code as it is")
    args = ap.parse_args(argv)
    if args.update:
        changed = update()
        print(f"rewrote {', '.join(changed)}: review the diff (git diff tests/golden)" if changed
              else "the golden files were up to date")
        return 0
    changed = differing()
    for name in changed:
        print(f"tests/golden/{name} differs from what the code makes now")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
