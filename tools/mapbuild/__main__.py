"""python -m tools.mapbuild [--check]: build svg_templates/standard/{board.svg,layout.json}."""
from __future__ import annotations

import argparse
import json
import sys

from . import geometry, render
from .config import OUT, load_all


def rules_adjacency():
    """Pairs adjacent for any unit according to the engine's board data (None if unavailable)."""
    try:
        from dipgen.resources.boards import load_board
    except ImportError:
        return None
    b = load_board("standard")
    pairs = set()
    for p in b.provinces if hasattr(b, "provinces") else []:
        for q in b.neighbours(p):
            pairs.add(tuple(sorted((p, q))))
    return pairs


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.mapbuild", description=__doc__)
    ap.add_argument("--out", default=str(OUT), help="output folder (default: svg_templates/standard)")
    args = ap.parse_args(argv)
    cfg, prov_cfg, borders = load_all()
    try:
        board = geometry.build(cfg, prov_cfg, borders)
    except geometry.MapError as e:
        print(f"map error: {e}", file=sys.stderr)
        return 1
    for w in board.warnings:
        print("note:", w)
    geo = render.project_all(board, prov_cfg)
    lay = render.make_layout(board, geo, prov_cfg)
    from pathlib import Path
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    render.write_svg(board, geo, lay, prov_cfg, out / "board.svg")
    (out / "layout.json").write_text(json.dumps(lay, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out / 'board.svg'} ({(out / 'board.svg').stat().st_size} bytes), "
          f"{out / 'layout.json'} ({(out / 'layout.json').stat().st_size} bytes)")
    rules = rules_adjacency()
    if rules is not None:
        found = render.adjacency(geo)
        print("adjacent on the rules, not on the map:", sorted(rules - found))
        print("adjacent on the map, not on the rules:", sorted(found - rules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
