"""Write the Double Diplomacy example game, games/two-captains/, as a GM would have received it.

    python -m tools.double_example [--out DIR]

The moves are the example bots' (tools/examples/bot.py), one plan per power; both captains of a
power send that plan, each in her own writing habit, except where the script below makes them
disagree (`SCENES`): a fleet the captains sent two ways that holds, a captain who missed a turn,
a support that stands against a hold. Every phase is replayed with dipgen before the next is
planned, so the bots always plan on the position the synchronised orders made.
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

import yaml

from dipgen.game import load_game
from dipgen.history import replay
from dipgen.orders import Support, Hold
from dipgen.variants.double import TABLE

from tools.examples.board import POWERS, on_board
from tools.examples.bot import Bot, Relations, movement_orders, retreat_orders
from tools.examples.notation import written

SLUG = "two-captains"
NAMES = {1: "Anneke Vos", 2: "Bilal Karim", 3: "Chiara Neri", 4: "Dmitri Orlov", 5: "Elodie Marchand",
         6: "Franz Huber", 7: "Gwen Pryce"}
STYLES = {1: "canonical", 2: "compact", 3: "names", 4: "lower", 5: "canonical", 6: "wordy", 7: "compact"}
LAST = "1907-winter"
#: phase -> [(power, province, captain number, what she wrote instead: text, "hold", "skip" or None for
#: "she sent nothing for the power")]
SCENES = {
    "1901-spring": [("England", "lon", 7, "F Lon - ENG")],
    "1901-fall": [("Russia", "*", 4, None)],
    "1902-spring": [("France", "*", 5, "hold-supports")],
    "1903-spring": [("Germany", "*", 2, "first-move-other"), ("Italy", "*", 3, "first-move-hold")],
    "1904-fall": [("Turkey", "*", 1, None), ("Austria", "*", 7, "first-move-hold")],
    "1905-spring": [("England", "*", 1, "hold-supports")],
    "1906-fall": [("France", "*", 6, "first-move-hold"), ("Italy", "*", 4, "first-move-other")],
}


def captains(power: str) -> list[int]:
    return [n for n, ps in sorted(TABLE.items()) if power in ps]


def orders_for(bot, rel, pos, rng) -> dict:
    """The bots' orders for `pos`: power -> [Order]."""
    kind = pos.phase.kind
    if kind == "movement":
        return movement_orders(bot, rel, on_board(pos), rng)
    if kind == "retreats":
        return retreat_orders(bot, on_board(pos), pos.dislodged)
    from dipgen.variants import get_variant

    due = get_variant("double").adjustment_counts(pos)
    return {p: bot.adjustments(on_board(pos), p, n) for p, n in sorted(due.items())}


def scene(orders, what, board, pos):
    """One captain's version of a power's orders, changed as the scene says."""
    out = list(orders)
    if what == "hold-supports":
        return [Hold(o.unit) if isinstance(o, Support) else o for o in out]
    moves = [i for i, o in enumerate(out) if hasattr(o, "dest") and not isinstance(o, Support)]
    if not moves:
        return out
    i = moves[0]
    if what == "first-move-hold":
        out[i] = Hold(out[i].unit)
    elif what == "first-move-other":
        unit = out[i].unit
        from tools.examples.board import move_targets, occupant

        u = occupant(pos, unit.province)
        others = [q for q in move_targets(u) if q[:3] != out[i].dest[:3]] if u else []
        if others:
            out[i] = type(out[i])(unit, sorted(others)[0])
    return out


def phase_file(pos, orders, rng) -> dict:
    kind = pos.phase.kind
    slug = pos.phase.slug
    scenes = SCENES.get(slug, [])
    from dipgen.variants import get_variant

    board = get_variant("double").board
    out = {}
    for power in POWERS:
        if power not in orders:
            continue
        per = {}
        for n in captains(power):
            mine = orders[power]
            skip = False
            for p, prov, who, what in scenes:
                if p == power and who == n:
                    if what is None:
                        skip = True
                    elif prov == "*":
                        mine = scene(mine, what, board, pos)
                    else:
                        per[NAMES[n]] = None  # replaced below
                        mine = [o for o in mine if o.unit.province != prov]
                        mine = mine + [what]
            if skip:
                continue
            per[NAMES[n]] = [o if isinstance(o, str) else written(o, STYLES[n], kind, rng) for o in mine]
        out[power] = per
    return {"orders": out}


def write(folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    game = {"title": "The Two Captains", "variant": "double", "gm": "Hedda Lund",
            "players": {NAMES[n]: list(ps) for n, ps in sorted(TABLE.items())},
            "description": "Seven players, fourteen captaincies. Every power answers to two of them, and an order "
                           "only counts when both captains gave it.\n\n*An example game: the moves were written by "
                           "dipgen's scripted player (`tools/double_example.py`), the disagreements by its script; "
                           "every name is invented.*"}
    (folder / "game.yml").write_text(yaml.safe_dump(game, sort_keys=False, allow_unicode=True))
    rng = random.Random(13)
    rel = Relations()
    for a, b in (("England", "France"), ("Austria", "Italy"), ("Germany", "Russia")):
        rel.allies.add(frozenset((a, b)))
    bot = Bot(rng, rel)
    history = replay(load_game(folder))
    while True:
        pos = history.position
        if pos.phase.slug > LAST and pos.phase.year > int(LAST[:4]):
            break
        data = phase_file(pos, orders_for(bot, rel, pos, rng), rng)
        (folder / f"{pos.phase.slug}.yml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
        history = replay(load_game(folder))
        if history.finished:
            return
    counts = history.position.centre_counts(POWERS)
    game["end"] = {"draw": [p for p in POWERS if counts.get(p, 0) >= 4]}
    (folder / "game.yml").write_text(yaml.safe_dump(game, sort_keys=False, allow_unicode=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("games"))
    args = ap.parse_args()
    write(args.out / SLUG)


if __name__ == "__main__":
    main()
