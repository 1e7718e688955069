"""`dipgen datc` as a whole process against the reference engine's driver, on a DATC file of
random games' movement phases.

    python bench/datc_process.py [--phases 1400] [--seed 1] [--repeat 5] [--keep FILE] [--no-reference]

Plays the seeded random games of bench/corpus.py and writes their first 1,400 movement phases
as a DATC text file (not timed): one case per phase with the units, every power's orders in
dipgen's canonical notation, and dipgen's own results as the expected position after the phase.
The centre owners are left out, as in the DATC's own movement cases: neither engine's outcome of
a movement phase depends on them, and the reference processes a Fall phase faster without them.
Then it times, as separate processes, wall clock from start to exit:

- ``dipgen datc FILE``: start-up, imports, reading, parsing, adjudicating, printing;
- ``python bench/datc_reference.py FILE``: the same for ``diplomacy==1.1.2``, which reads the
  file, sets up each position in a `diplomacy.Game` (one Game, cleared for each case; a run
  with a new Game per case, not timed, must give the same output), sets the orders and processes.

Rounds are interleaved (dipgen, then the reference); the median and the best of each are
printed with the ratio. dipgen must pass every case of its own file. The reference's
disagreements are classified as in adjudicate.py: a case is put in a named class only when
dipgen, re-run with the reference's reading of that rule, gives exactly the reference's result.

``--no-reference`` times dipgen's process alone, without the reference installed (CI runs
every benchmark so, on a tiny size, to keep the scripts working).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adjudicate import BOARD, KNOWN, VARIANT, Classifier, dipgen_adjudicate  # noqa: E402
from corpus import NO_REFERENCE_HELP, CorpusPhase, play_game, reference_version  # noqa: E402

import dipgen  # noqa: E402
from dipgen.core.phase import MOVEMENT  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SEASON_NAMES = ("Spring", "Fall")


def movement_phases(n: int, seed: int, years: int = 20) -> list[CorpusPhase]:
    """The first `n` movement phases of the seeded random games, game after game."""
    out: list[CorpusPhase] = []
    game = 0
    while len(out) < n:
        phases, _ = play_game(game, seed, years, VARIANT)
        out.extend(cp for cp in phases if cp.kind == MOVEMENT)
        game += 1
    return out[:n]


def write_datc(phases: list[CorpusPhase], path: Path, seed: int) -> None:
    """The phases as DATC cases, each expecting dipgen's own result."""
    fmt = BOARD.format_loc
    lines = [
        f"# Movement phases of seeded random games (bench/corpus.py, seed {seed}), written by",
        "# bench/datc_process.py. The expected results are dipgen's own: this file measures",
        "# speed, and the reference engine's disagreements are classified by that script.",
        "# No centre owners: a movement phase's outcome does not depend on them.",
        "",
        "VARIANT_ALL Standard",
    ]
    for i, cp in enumerate(phases):
        pos = cp.position
        out = dipgen_adjudicate(cp)
        lines += ["", f"CASE bench-{i + 1} (game {cp.game}, {pos.phase.name})",
                  f"PRESTATE_SETPHASE {SEASON_NAMES[pos.phase.season_index]} {pos.phase.year}, Movement",
                  "PRESTATE"]
        lines += [f"\t{u.power}: {u.kind} {fmt(u.loc)}" for u in pos.units]
        lines.append("ORDERS")
        lines += [f"\t{power}: {o.format(BOARD)}" for power, os in cp.orders.items() for o in os]
        lines.append("POSTSTATE")
        lines += [f"\t{u.power}: {u.kind} {fmt(u.loc)}" for u in out.units]
        if out.dislodged:
            lines.append("POSTSTATE_DISLODGED")
            lines += [f"\t{d.unit.power}: {d.unit.kind} {fmt(d.unit.loc)}" for d in out.dislodged]
        lines.append("END")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def dipgen_command() -> list[str]:
    """The `dipgen` script installed next to this Python (as a user runs it)."""
    script = Path(sys.executable).parent / "dipgen"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from dipgen.cli import main; sys.exit(main())"]


#: The children run as a user's shell runs them: with Python's bytecode cache, which an
#: installed package (the reference) has from pip and a checkout (dipgen) writes on its first run.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its standard output)."""
    before = os.times()
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - t
    after = os.times()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, proc.stdout


def reference_outcome(line: dict) -> dict:
    """A driver's JSON line as adjudicate.py's outcome (sets, for comparison)."""
    return {"units": frozenset(line["units"]), "dislodged": {u: frozenset(o) for u, o in line["dislodged"].items()}}


def classify(phases: list[CorpusPhase], ref_output: str) -> tuple[int, dict[str, list[int]]]:
    """(cases that agree, {class: case numbers}) from the reference driver's output."""
    clf = Classifier()
    classes: dict[str, list[int]] = defaultdict(list)
    lines = ref_output.splitlines()
    for line in lines[:-1]:
        diff = json.loads(line)
        i = int(diff["case"].split()[0].removeprefix("bench-")) - 1
        classes[clf.classify(phases[i], reference_outcome(diff)) or "unexplained"].append(i + 1)
    agree = int(lines[-1].split()[0])
    return agree, classes


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, default=1400, help="movement phases in the file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of each process (median and best reported)")
    ap.add_argument("--keep", metavar="FILE", help="keep the DATC file here")
    ap.add_argument("--no-fresh-check", action="store_true",
                    help="skip the check that a new reference Game per case gives the same results")
    ap.add_argument("--no-reference", action="store_true", help=NO_REFERENCE_HELP)
    args = ap.parse_args(argv)

    ref_version = reference_version(args.no_reference)
    if Path(dipgen.__file__).resolve().parent.parent != ROOT:
        print(f"warning: this Python's dipgen is {Path(dipgen.__file__).parent}, not this checkout's")

    tmp = Path(tempfile.mkdtemp(prefix="datc-process-"))
    path = Path(args.keep) if args.keep else tmp / "random-games.txt"
    t = time.perf_counter()
    phases = movement_phases(args.phases, args.seed)
    write_datc(phases, path, args.seed)
    size = path.stat().st_size
    print(f"file: {path} ({len(phases)} movement phases, {size / 1e6:.1f} MB; "
          f"written in {time.perf_counter() - t:.1f} s, not timed)")

    dipgen_cmd = dipgen_command() + ["datc", str(path)]
    ref_cmd = [sys.executable, str(HERE / "datc_reference.py"), str(path)]
    d_runs, r_runs = [], []
    timed(dipgen_cmd)  # warm-up, not counted: bytecode caches, the file in the OS's cache
    if ref_version:
        timed(ref_cmd)
    for _ in range(args.repeat):
        wall, cpu, d_out = timed(dipgen_cmd)
        d_runs.append((wall, cpu))
        if ref_version:
            wall, cpu, r_out = timed(ref_cmd)
            r_runs.append((wall, cpu))
    # the driver reuses one Game; a new Game per case must give the same results (not timed)
    fresh_out = "" if args.no_fresh_check or not ref_version else timed(ref_cmd + ["--fresh"])[2]
    shutil.rmtree(tmp)

    n = len(phases)
    d_med, d_best = statistics.median(w for w, _ in d_runs), min(w for w, _ in d_runs)
    d_cpu = statistics.median(c for _, c in d_runs)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; {args.repeat} runs of each, interleaved")
    print(f"dipgen datc:  {d_med:6.2f} s median, {d_best:6.2f} s best, {d_cpu:6.2f} s CPU "
          f"({1000 * d_med / n:.2f} ms/phase)  -> {d_out.strip().splitlines()[-1]}")
    if not d_out.strip().endswith(f"{n} passed, 0 failed"):
        print("dipgen does not pass its own file:\n" + d_out)
        return 1
    if not ref_version:
        print("reference: not run (--no-reference)")
        return 0
    r_med, r_best = statistics.median(w for w, _ in r_runs), min(w for w, _ in r_runs)
    r_cpu = statistics.median(c for _, c in r_runs)
    print(f"reference: diplomacy {ref_version}, driven by bench/datc_reference.py")
    print(f"reference:    {r_med:6.2f} s median, {r_best:6.2f} s best, {r_cpu:6.2f} s CPU "
          f"({1000 * r_med / n:.2f} ms/phase)")
    print(f"dipgen takes {d_med / r_med:.3f} of the reference's time ({r_med / d_med:.1f}x faster; "
          f"best against best {r_best / d_best:.1f}x, CPU {r_cpu / d_cpu:.1f}x); the goal is 10x")

    if fresh_out and fresh_out != r_out:
        print("the reference driver gives other results with a new Game per case (--fresh): its reuse of "
              "one Game is not sound for this file")
        return 1
    agree, classes = classify(phases, r_out)

    def known(cls: str) -> bool:
        return all(part in KNOWN for part in cls.split(" + "))

    excluded = sum(len(v) for k, v in classes.items() if known(k))
    print(f"\nagreement with the file's expected results: {agree}/{n} cases ({100 * agree / n:.1f}%); "
          f"excluding known rule differences {agree}/{n - excluded} ({100 * agree / max(1, n - excluded):.1f}%)")
    for k, v in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        note = "" if known(k) else "  NOT a known rule difference: cases " + ", ".join(map(str, v[:20]))
        print(f"  {len(v):4d} {k}{note}")
    return 0 if all(known(k) for k in classes) else 1


if __name__ == "__main__":
    sys.exit(main())
