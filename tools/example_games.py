#!/usr/bin/env python3
"""Generate the bundled example games under ``games/``: the same as ``python -m tools.examples``
(the name the story-driven games' manifests give as their generator).

    python tools/example_games.py            # (re)write every generated example game
    python tools/example_games.py SLUG ...   # only these
    python tools/example_games.py --check    # generate in memory, print the summaries, write nothing
    python tools/example_games.py --force    # overwrite folders even if they were edited by hand
    python tools/example_games.py --out DIR  # write the game folders under DIR instead of games/

The generator is the package ``tools/examples/`` (its docstring says how it is laid out); the
stories and the phrase banks are YAML files under ``tools/examples/data/``.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.examples.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
