"""The order sheet's cost: its enumeration's time per position against the engine's adjudication of
the same position, and the weight of one power's sheet data.

    python bench/sheet.py [--games 10] [--years 8] [--seed 1] [--positions 12] [--repeat 5]

Builds the corpus of bench/corpus.py (not timed) and takes its most crowded movement positions
(the most units on the board: the midgame). For each, in this process and interleaved, it times
(CPU time, median of `--repeat` runs) the adjudication of the position's orders as the standard
variant makes it, and the enumeration of every power's legal orders (`dipgen.rules.choices`, what
the site does for an open game's sheet). Prints the medians, their ratio, and the largest sheet
of one power in those positions as JSON (`dipgen.present.site.sheet`'s form), raw and gzipped.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import build_corpus  # noqa: E402

from dipgen.core.orders import Convoy, Hold, Move, Support  # noqa: E402
from dipgen.core.phase import MOVEMENT  # noqa: E402
from dipgen.rules.choices import legal_orders, powers_orders  # noqa: E402
from dipgen.variants import get_variant  # noqa: E402

RULES = get_variant("standard").rules
RANK = {Hold: 0, Move: 1, Support: 2, Convoy: 3}


def cpu(f) -> float:
    start = time.process_time()
    f()
    return time.process_time() - start


def sheet_of(position, power: str) -> dict:
    board = RULES.board
    found = legal_orders(RULES, position, power)
    rows = [dict(unit=u.describe(board),
                 orders=[o.format(board) for o in sorted(found[u], key=lambda o: (RANK.get(type(o), 4),
                                                                                    o.format(board)))])
            for u in sorted(found, key=lambda u: u.loc)]
    return dict(power=power, rows=rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--years", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)

    corpus = build_corpus(args.games, args.years, args.seed)
    moves = [cp for cp in corpus.phases if cp.kind == MOVEMENT]
    crowded = sorted(moves, key=lambda cp: -len(cp.position.units))[:args.positions]
    print(f"corpus: {len(corpus.phases)} phases; {len(crowded)} most crowded movement positions "
          f"({min(len(cp.position.units) for cp in crowded)}-{max(len(cp.position.units) for cp in crowded)} units)")

    adjudicate, enumerate_ = [], []
    for cp in crowded:
        a, e = [], []
        for _ in range(args.repeat):  # interleaved: the same moment of the machine for both
            a.append(cpu(lambda cp=cp: RULES.movement(cp.position, cp.orders)))
            e.append(cpu(lambda cp=cp: powers_orders(RULES, cp.position, RULES.powers())))
        adjudicate.append(statistics.median(a))
        enumerate_.append(statistics.median(e))
    adj, enu = statistics.median(adjudicate), statistics.median(enumerate_)
    print(f"adjudication of a position: {adj * 1000:.2f} ms (median)")
    print(f"enumeration of every power's legal orders: {enu * 1000:.2f} ms (median), "
          f"{enu / adj:.1f} x the adjudication")

    sizes = []
    for cp in crowded:
        for power in RULES.powers():
            sheet = sheet_of(cp.position, power)
            if sheet["rows"]:
                raw = json.dumps(sheet, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
                sizes.append((len(gzip.compress(raw)), len(raw), power, sum(len(r["orders"]) for r in sheet["rows"])))
    gz, raw, power, n = max(sizes)
    print(f"largest sheet of one power: {power}, {n} orders, {raw / 1000:.1f} KB, {gz / 1000:.1f} KB gzipped "
          f"(limit 50 KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
