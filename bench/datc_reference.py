"""The reference engine's driver for `datc_process.py`: read a DATC text file of movement
phases, set up each position in a `diplomacy.Game` (``diplomacy==1.1.2``), set the orders,
process, and compare with the file's expected results.

    python bench/datc_reference.py FILE [--fresh]

It reads the file that `datc_process.py` writes: one case per phase, the units in PRESTATE,
the centre owners in PRESTATE_SUPPLYCENTER_OWNERS if any, orders in dipgen's canonical notation
(``A Par - Bur``, ``F Spa/sc - LYO``, ``A Lon - Bel via convoy``, ``F NTH C A Lon - Bel``),
and the expected units after the phase (POSTSTATE, POSTSTATE_DISLODGED). That notation is
the reference's once upper-cased, with ``VIA`` for ``via convoy``; nothing else is translated.

One `Game` is cleared and set up again for every case: that is about 15% faster than a new
`Game()` per case, and gives the same results (``--fresh`` makes a new one per case, to check).

Output, like `dipgen datc`: one line per case whose result differs from the file's (a JSON
object with the case and the reference's full outcome, for `datc_process.py` to classify),
then ``N agree, M differ``. This script imports the reference engine and the standard
library only, never dipgen, so that its process measures the reference alone.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only: main() imports it, and says so when it is not installed
    from diplomacy import Game

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SEASONS = {"spring": "S", "fall": "F", "autumn": "F"}


def read_cases(path: str):
    """Yield (name, phase, sections) per case; sections map a section name to its lines."""
    case = None
    section = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            word = line.split(None, 1)[0]
            if word == "CASE":
                case = {"name": line[5:].strip(), "phase": "", "sections": {}}
            elif word == "END":
                yield case["name"], case["phase"], case["sections"]
                case = None
            elif word == "PRESTATE_SETPHASE":
                case["phase"] = line[len(word):].strip()
            elif word.isupper() and word.startswith(("PRESTATE", "ORDERS", "POSTSTATE")):
                section = case["sections"].setdefault(word, [])
            elif case is not None:
                section.append(line)


def ref_phase(text: str) -> str:
    """``Fall 1905, Movement`` -> ``F1905M``."""
    season, year, kind = text.replace(",", " ").split()
    if kind.lower() != "movement":
        raise SystemExit(f"this driver runs movement phases only, not {text!r}")
    return f"{SEASONS[season.lower()]}{year}M"


def by_power(lines) -> dict[str, list[str]]:
    """``England: A Lon - Bel via convoy`` -> {"ENGLAND": ["A LON - BEL VIA"]}."""
    out: dict[str, list[str]] = {}
    for line in lines:
        power, rest = line.split(":", 1)
        out.setdefault(power.strip().upper(), []).append(rest.strip().upper().replace(" VIA CONVOY", " VIA"))
    return out


def outcome(game: Game, before: dict[str, list[str]]) -> dict:
    """Units after the phase and dislodged units with the retreats the reference would accept."""
    units, dislodged = set(), {}
    for power in game.powers.values():
        units.update(f"{power.name} {u}" for u in power.units)
        for u, options in power.retreats.items():
            dislodged[f"{power.name} {u}"] = options
    # The reference lists every adjacent province nobody fought over and refuses a retreat into
    # an occupied one only when the order comes (`_add_retreat_orders`): keep the ones it accepts.
    occupied = {u.split()[2][:3] for u in units}
    dislodged = {u: sorted(o for o in opts if o[:3] not in occupied) for u, opts in dislodged.items()}
    for u in game.popped:  # dislodged with nowhere to go
        owner = next((p for p, us in before.items() if u in us), "?")
        dislodged.setdefault(f"{owner} {u}", [])
    return {"units": sorted(units), "dislodged": dislodged}


def run_case(game: Game, phase: str, sections: dict[str, list[str]]) -> dict:
    """One phase on `game`, which is cleared and set to the case's position first."""
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(ref_phase(phase))
    units = by_power(sections.get("PRESTATE", ()))
    owners = by_power(sections.get("PRESTATE_SUPPLYCENTER_OWNERS", ()))
    for power in POWERS:
        game.set_units(power, units.get(power, []), reset=True)
        game.set_centers(power, [c.split()[1] for c in owners.get(power, [])], reset=True)
    for power, orders in by_power(sections.get("ORDERS", ())).items():
        game.set_orders(power, orders)
    game.process()
    return outcome(game, units)


def expected(sections: dict[str, list[str]]) -> tuple[set[str], set[str]]:
    def units(name):
        return {f"{p} {u}" for p, us in by_power(sections.get(name, ())).items() for u in us}

    return units("POSTSTATE"), units("POSTSTATE_DISLODGED")


def main(argv: list[str]) -> int:
    fresh = "--fresh" in argv
    files = [a for a in argv if a != "--fresh"]
    if len(files) != 1:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    try:
        from diplomacy import Game
    except ImportError:
        print("the reference engine is not installed: see bench/README.md (pip install -r bench/requirements.txt)",
              file=sys.stderr)
        return 2
    agree = differ = 0
    game = Game()
    for name, phase, sections in read_cases(files[0]):
        got = run_case(Game() if fresh else game, phase, sections)
        want_units, want_dislodged = expected(sections)
        if set(got["units"]) == want_units and {u for u, o in got["dislodged"].items() if o} == want_dislodged:
            agree += 1
        else:
            differ += 1
            print(json.dumps({"case": name, **got}))
    print(f"{agree} agree, {differ} differ")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
