"""What dipgen ships besides its code, found by one lookup in a checkout and installed alike.

Two folders sit at the top of dipgen's repository (the layout is fixed):

    svg_templates/   the base map of each board and its layout (unit anchors, centre markers)
    site_src/        the site's hand-written pages: the rules page of every variant, the page
                     on dice and lots, and the home and about pages `dipgen init` starts from

A wheel carries both inside the package (``dipgen/svg_templates/``, ``dipgen/site_src/``: the
``package-dir`` mapping of pyproject.toml); a checkout, or an editable install of one, has them
beside the package. `shipped` looks inside the package first, then beside it.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # dipgen/ (this module is dipgen/resources/folders.py)
#: the folders dipgen ships, and a file each must hold (so that an empty or partial one is not taken)
FOLDERS = {"svg_templates": "standard/board.svg", "site_src": "rules/standard.md"}


def shipped(name: str) -> Path:
    """The folder `name` (one of `FOLDERS`) as this copy of dipgen has it: inside the installed
    package, or beside the package in a checkout. FileNotFoundError naming both places if neither
    holds it (a wheel built without its data)."""
    if name not in FOLDERS:
        raise ValueError(f"dipgen ships no folder {name!r} (it ships {', '.join(FOLDERS)})")
    places = (_PACKAGE / name, _PACKAGE.parent / name)
    for folder in places:
        if (folder / FOLDERS[name]).is_file():
            return folder
    raise FileNotFoundError(
        f"dipgen's {name}/ is missing: looked in {' and '.join(str(p) for p in places)}; reinstall dipgen "
        "from a wheel built by 'pip wheel' from its repository, which carries it")
