"""What a map's PNG picture costs: drawing it (resvg) against drawing its SVG, per map.

    python bench/raster.py [--games DIR] [--maps 40] [--repeat 5]

Takes the public maps of the example games (games/: the game page's map and each season's orders
map, as the site's link previews are made), up to `--maps` of them, and in each of `--repeat`
rounds times, map after map and interleaved:

- svg (the baseline): ``og_svg(map_view(...))``, the link preview's SVG, as the site draws it;
- preview: ``raster.png`` of that SVG, 1200x630 (the memo forgotten first: the drawing itself);
- full: ``raster.png`` of ``render_standalone(...)``, the whole map at its own size (1100 wide),
  as ``dipgen render -o map.png`` writes it.

Times are CPU time of this process (``time.process_time``), the median of the rounds of the total
over the maps, divided by the maps; the ratio is against the svg baseline of the same rounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dipgen.usecases.games import load_checked  # noqa: E402
from dipgen.present.mapview import map_view  # noqa: E402
from dipgen.present.svg import og_svg, raster, render_standalone  # noqa: E402
from dipgen.view import game_view  # noqa: E402


def views(games: Path, limit: int) -> list:
    """The public maps the site's link previews draw: each game's now, and each season's orders."""
    out = []
    for folder in sorted(p for p in games.iterdir() if (p / "game.yml").is_file()):
        view = game_view(load_checked(folder).history, "public")
        out.append(map_view(view, None, "after"))
        out += [map_view(view, r.phase, "orders") for r in view.records if not r.summary_only]
        if len(out) >= limit:
            break
    return out[:limit]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=str(ROOT / "games"), help="a folder of game folders (default: games/)")
    ap.add_argument("--maps", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)

    maps = views(Path(args.games), args.maps)
    raster.png(og_svg(maps[0]))  # the fonts loaded, the library's first call made, before the clock
    times: dict[str, list[float]] = {"svg": [], "preview": [], "full": []}
    sizes: dict[str, int] = {"svg": 0, "preview": 0, "full": 0}
    for _ in range(args.repeat):
        total = dict.fromkeys(times, 0.0)
        for mv in maps:
            raster.forget()
            t = time.process_time()
            svg = og_svg(mv)
            total["svg"] += time.process_time() - t
            t = time.process_time()
            preview = raster.png(svg)
            total["preview"] += time.process_time() - t
            whole = render_standalone(mv)
            t = time.process_time()
            full = raster.png(whole)
            total["full"] += time.process_time() - t
            sizes.update(svg=len(svg.encode()), preview=len(preview), full=len(full))
        for k, v in total.items():
            times[k].append(v / len(maps))
    median = {k: statistics.median(v) for k, v in times.items()}
    print(f"{len(maps)} maps (the public maps of {args.games}), {args.repeat} rounds, CPU time per map, median:")
    for k, label in (("svg", "svg (baseline)"), ("preview", "preview PNG 1200x630"), ("full", "full PNG 1100 wide")):
        print(f"  {label:22} {median[k] * 1000:8.1f} ms  {median[k] / median['svg']:6.1f}x the baseline"
              f"   (last map: {sizes[k] / 1024:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
