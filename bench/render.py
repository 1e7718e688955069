"""Map rendering speed and size: dipgen's renderer against the reference ``diplomacy==1.1.2`` Renderer.

    python bench/render.py [--phases 200] [--seed 1] [--repeat 5] [--ref-repeat 3] [--keep DIR] [--no-reference]

Plays corpus games (bench/corpus.py), writes them as dipgen game folders, replays them with
``dipgen.play.replay.replay(dipgen.io.gamefiles.load_game(path))`` and renders the first `--phases`
phases twice, in this process:

- dipgen: ``overlay_svg(map_view(game_view(history, "public"), phase, "orders"))`` per phase; the shared base map
  (``board_svg(variant)``) is shipped once per site, so it is counted ONCE for the whole set:
  bytes per phase = (len(board_svg) + sum of the overlays) / phases. The standalone SVG
  (``render_standalone``, base map included) is reported too, for the download case.
- reference: ``diplomacy.engine.renderer.Renderer(game).render(incl_orders=True)`` on a
  ``diplomacy.Game`` holding the same units, dislodged units, centre owners, phase and orders
  (set up, and the Renderer built, before the clock starts; render() changes nothing, so
  each phase's Renderer is reused across runs). Each of its SVGs is complete.

Times are medians of repeated runs over all the phases; sizes are UTF-8 bytes.
``--no-reference`` measures dipgen alone, without the reference installed (CI runs every
benchmark so, on a tiny size).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from os import cpu_count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adjudicate import reference_game  # noqa: E402
from corpus import NO_REFERENCE_HELP, CorpusPhase, build_corpus, ref_orders, reference_version, write_game  # noqa: E402

from dipgen.io.gamefiles import load_game  # noqa: E402
from dipgen.play.replay import replay  # noqa: E402


def dipgen_phases(corpus, limit: int, folder: Path):
    """(history, record, corpus phase) for the first `limit` phases, game after game."""
    out = []
    for g in corpus.games:
        if len(out) >= limit:
            break
        path = write_game(corpus, g, folder / f"bench-{g:02d}")
        history = replay(load_game(path))
        cps = corpus.game(g)
        assert len(cps) == len(history.records), "the game folder does not replay as played"
        for rec, cp in zip(history.records, cps, strict=True):
            assert rec.phase == cp.phase
            out.append((history, rec, cp))
    return out[:limit]


def reference_setup(cp: CorpusPhase):
    """A `diplomacy.Game` at the phase with its orders given (not processed), and its Renderer."""
    from diplomacy.engine.renderer import Renderer

    game = reference_game(cp)
    for power, orders in ref_orders(cp).items():
        game.set_orders(power, orders)
    return game, Renderer(game)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of dipgen (median reported)")
    ap.add_argument("--ref-repeat", type=int, default=3, help="timed runs of the reference (median reported)")
    ap.add_argument("--keep", metavar="DIR", help="write the game folders and a few SVGs of each renderer here")
    ap.add_argument("--no-reference", action="store_true", help=NO_REFERENCE_HELP)
    args = ap.parse_args(argv)

    ref_version = reference_version(args.no_reference)
    from dipgen.present.mapview import map_view
    from dipgen.view import game_view
    from dipgen.present.svg import board_svg, overlay_svg, render_standalone

    games = max(1, args.phases // 60 + 1)
    corpus = build_corpus(games, 20, args.seed)
    tmp = tempfile.TemporaryDirectory()
    folder = Path(args.keep or tmp.name)
    folder.mkdir(parents=True, exist_ok=True)
    items = dipgen_phases(corpus, args.phases, folder)
    n = len(items)
    variant = items[0][0].variant
    print(f"phases: {n} (the first {n} phases of {len({cp.game for _, _, cp in items})} corpus games, "
          f"seed {args.seed}; {', '.join(f'{k} {v}' for k, v in _kinds(items).items())})")

    # warm-up: templates, layout, symbol tables, the reference's SVG parse
    board = board_svg(variant)
    for h, rec, _ in items[:5]:
        overlay_svg(map_view(game_view(h, "public"), rec.phase, "orders"))
    ref_setups = [reference_setup(cp) for _, _, cp in items] if ref_version else []
    if ref_setups:
        ref_setups[0][1].render(incl_orders=True)

    d_runs, s_runs, r_runs = [], [], []
    overlays: list[str] = []
    standalones: list[str] = []
    ref_svgs: list[str] = []
    for r in range(max(args.repeat, args.ref_repeat)):
        if r < args.repeat:
            t = time.perf_counter()
            out = [overlay_svg(map_view(game_view(h, "public"), rec.phase, "orders")) for h, rec, _ in items]
            d_runs.append(time.perf_counter() - t)
            overlays = overlays or out
            t = time.perf_counter()
            out = [render_standalone(map_view(game_view(h, "public"), rec.phase, "orders")) for h, rec, _ in items]
            s_runs.append(time.perf_counter() - t)
            standalones = standalones or out
        if r < args.ref_repeat and ref_setups:
            total = 0.0
            out = []
            for i in range(n):  # render() reads the game and changes nothing: reuse
                renderer = ref_setups[i][1]
                t = time.perf_counter()
                svg = renderer.render(incl_orders=True)
                total += time.perf_counter() - t
                out.append(svg)
            r_runs.append(total)
            ref_svgs = ref_svgs or out

    size = lambda s: len(s.encode("utf-8"))  # noqa: E731
    board_bytes = size(board)
    overlay_bytes = sum(size(s) for s in overlays)
    d_bytes = (board_bytes + overlay_bytes) / n
    s_bytes = sum(size(s) for s in standalones) / n
    d_ms = 1000 * statistics.median(d_runs) / n
    s_ms = 1000 * statistics.median(s_runs) / n

    print(f"machine: {cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"dipgen overlay:     {d_ms:7.2f} ms/phase  {d_bytes / 1000:7.1f} kB/phase "
          f"(base map {board_bytes / 1000:.1f} kB counted once + overlays {overlay_bytes / n / 1000:.1f} kB/phase; "
          f"median of {len(d_runs)} runs)")
    print(f"dipgen standalone:  {s_ms:7.2f} ms/phase  {s_bytes / 1000:7.1f} kB/phase (self-contained download)")
    if ref_version:
        r_bytes = sum(size(s) for s in ref_svgs) / n
        r_ms = 1000 * statistics.median(r_runs) / n
        print(f"reference: diplomacy {ref_version} diplomacy.engine.renderer.Renderer.render(incl_orders=True)")
        print(f"reference:          {r_ms:7.2f} ms/phase  {r_bytes / 1000:7.1f} kB/phase "
              f"(median of {len(r_runs)} runs)")
        print(f"dipgen is {r_ms / d_ms:.1f}x faster and {r_bytes / d_bytes:.1f}x smaller per phase than the reference")
        print(f"  standalone: {r_ms / s_ms:.1f}x faster and {r_bytes / s_bytes:.1f}x smaller")
    else:
        print("reference: not run (--no-reference)")

    if args.keep:
        for i in (0, n // 2, n - 1):
            rec = items[i][1]
            (folder / f"dipgen-{i:03d}-{rec.phase.slug}-overlay.svg").write_text(overlays[i], encoding="utf-8")
            (folder / f"dipgen-{i:03d}-{rec.phase.slug}-standalone.svg").write_text(standalones[i], encoding="utf-8")
            if ref_svgs:
                (folder / f"reference-{i:03d}-{rec.phase.slug}.svg").write_text(ref_svgs[i], encoding="utf-8")
        (folder / "dipgen-board.svg").write_text(board, encoding="utf-8")
        print(f"kept the game folders and sample SVGs in {folder}")
    tmp.cleanup()
    return 0


def _kinds(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for _, rec, _ in items:
        out[rec.phase.kind] = out.get(rec.phase.kind, 0) + 1
    return dict(sorted(out.items()))


if __name__ == "__main__":
    sys.exit(main())
