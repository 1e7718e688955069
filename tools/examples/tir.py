"""The TIR example game, games/two-crowns/, as a GM would have received it.

Two scripted minds play: France's player (Alice) wants the five powers at war with Russia and
friendly to France; Russia's player (Boris) courts England, Germany and Italy and fights
Austria and Turkey. Each mind plans every power's moves with the example bots (bot.py) under its
own idea of who is friends with whom, and each player writes those plans for her own power and
for the five; the TIR then decides which of the five's orders count. The game's seed (every die)
is one of a numbered series; `SEED_NUMBER` is the first whose game ends in a win by the seed's
condition and shows every kind of shift, a die between two valid orders, and a retreat and a
build of the five decided by a die (`require`; ``python -m tools.examples.tir N`` plays seeds
0..N-1 and prints what each game shows).
"""

from __future__ import annotations

import hashlib
import sys
import random
import tempfile
from pathlib import Path

import yaml

from dipgen.rules.draws import commitment
from dipgen.core.reach import reachable
from dipgen.core.orders import Disband, Move, Support
from dipgen.variants import get_variant
from dipgen.variants.tir.rules import NEUTRAL, TirReport

from .board import BOARD, POWERS, on_board
from .bot import Bot, Relations, movement_orders, retreat_orders
from .checks import needs
from .scripted import Scripted, plain_dump

SEED_NUMBER = 7
LAST_YEAR = 1912
PLAYERS = {"France": "Alice Martin", "Russia": "Boris Ivanov"}
FIVE = [p for p in POWERS if p not in PLAYERS]
#: each player's points, the same every turn: France sets Russia's neighbours against her and
#: courts Germany and England; Russia courts the far powers, England and Italy, against France
POINTS = {"France": {"Germany-Russia": -2, "Austria-Russia": -2, "Russia-Turkey": -2, "France-Germany": 2,
                     "England-France": 2},
          "Russia": {"England-Russia": 2, "Italy-Russia": 2, "England-Italy": 2, "England-France": -2,
                     "France-Italy": -2}}
#: how hard each mind's bots press their attacks (tools.examples.bot.Bot's aggression)
AGGRESSION = {"France": {"France": 4, "Germany": 4, "Austria": 4, "Turkey": 4}, "Russia": {}}
PRESS = {
    "1901-spring": "Paris and Saint Petersburg exchange compliments and send envoys to every court.",
    "1901-fall": "Alice Martin: 'Berlin has never had a better friend than Paris.'",
    "1902-spring": "Boris Ivanov: 'The Sultan will find the Tsar patient, but not for ever.'",
    "1903-spring": "A Viennese pamphlet calls the Tsar's envoys 'wolves with visiting cards'.",
    "1904-fall": "Alice Martin: 'The road to Moscow runs through Warsaw, and Warsaw listens to Berlin.'",
    "1905-spring": "Boris Ivanov: 'Every die in this game is honest. I checked. That is the trouble.'",
    "1906-spring": "The Porte recalls its ambassador from Saint Petersburg.",
    "1907-fall": "Alice Martin: 'Not long now.'",
}


def seed_of(n: int) -> bytes:
    """Seed `n` of the example's series: 32 bytes anyone can recompute."""
    return hashlib.sha256(f"two-crowns example seed {n}".encode()).digest()


def mind(player: str) -> Relations:
    """Who the player's plans treat as friends and enemies (the bots read this)."""
    rel = Relations()
    if player == "France":
        friends = ["France", "England", "Germany", "Austria", "Turkey"]
        enemies = [("Russia", p) for p in POWERS if p != "Russia"] + [("France", "Italy")]
    else:
        friends = ["Russia", "England", "Italy"]
        enemies = [("France", p) for p in POWERS if p != "France"] + [("Russia", "Austria"), ("Russia", "Turkey")]
    rel.allies = {frozenset((a, b)) for a in friends for b in friends if a != b}
    rel.wars = {frozenset(pair) for pair in enemies}
    return rel


def without_objective(order, power: str):
    """A support for one of the five is written without its objective (`A Mun S A Ber`)."""
    return Support(order.unit, order.target, None) if isinstance(order, Support) and power in FIVE else order


def plans(minds, pos, variant) -> dict:
    """Each player's orders for `pos`: player -> power -> [Order]."""
    board = on_board(pos)
    kind = pos.phase.kind
    out = {}
    for player, (bot, rel, rng) in minds.items():
        if kind == "movement":
            orders = movement_orders(bot, rel, board, rng)
        elif kind == "retreats":  # a player would see her enemies' dislodged units disbanded
            orders = retreat_orders(bot, board, pos.dislodged)
            orders = {p: [Disband(o.unit) if p in FIVE and rel.at_war(player, p) else o for o in os]
                      for p, os in orders.items()}
        else:
            orders = {p: bot.adjustments(board, p, n) for p, n in sorted(variant.rules.adjustment_counts(pos).items())}
        mine = [player] + FIVE
        out[player] = {p: [without_objective(o, p) for o in orders[p]] for p in mine if orders.get(p)}
    return out


def scene(pos, written, variant) -> None:
    """The script's one addition to the minds' plans, until it has happened: a player's own unit
    supports an attack on a power she is still on good terms with (two steps toward war)."""
    table = variant.rules.table(pos)
    for player, per in written.items():
        for i, order in enumerate(per.get(player, [])):
            unit = pos.occupant(order.unit.province, variant.rules.unit_kinds)
            for orders in per.values():
                for move in orders:
                    dest = getattr(move, "dest", None)
                    if not isinstance(move, Move) or move.unit.province == unit.province:
                        continue
                    mover = pos.occupant(move.unit.province, variant.rules.unit_kinds)
                    hit = [q for q in variant.rules.attacked(pos, mover.power, dest)
                           if q not in PLAYERS and variant.rules.level(table, player, q) >= NEUTRAL]
                    if hit and reachable(BOARD, variant.rules.unit_kinds[unit.kind], unit.loc, dest.split("/")[0]):
                        per[player][i] = Support(order.unit, move.unit, dest)
                        return


class Points(int):
    """Diplomacy points, written with their sign (`+2`, `-2`), as the rules ask."""


yaml.SafeDumper.add_representer(Points, lambda dumper, n: dumper.represent_scalar("tag:yaml.org,2002:int", f"{n:+d}"))


def phase_file(pos, written, variant) -> dict:
    board = variant.rules.board
    data: dict = {"orders": {player: {p: [o.format(board) for o in os] for p, os in per.items()}
                             for player, per in written.items() if per}}
    if pos.phase.kind == "movement":
        data["dp"] = {player: {pair: Points(n) for pair, n in POINTS[player].items()} for player in PLAYERS}
    if pos.phase.slug in PRESS:
        data["press"] = PRESS[pos.phase.slug]
    return data


class Tir(Scripted):
    slug = "two-crowns"
    last_year = LAST_YEAR
    write_phase_file = write_game_file = staticmethod(plain_dump)

    def __init__(self, n: int = SEED_NUMBER):
        self.seed = seed_of(n)
        self.variant = get_variant("tir")
        self.minds = {}
        for i, player in enumerate(PLAYERS):
            rng = random.Random(100 * n + i)
            rel = mind(player)
            self.minds[player] = (Bot(rng, rel, AGGRESSION[player]), rel, rng)
        self.said: set = set()

    def game(self) -> dict:
        return {"title": "Two Crowns", "variant": "tir", "gm": "Grace Hopper", "players": dict(PLAYERS),
                "description": "France against Russia, the other five powers ruled through the Table of International "
                               "Relations. Every die is checkable from the published pages.\n\n*An example game: the "
                               "moves were written by dipgen's scripted players (`tools/tir_example.py`); every name "
                               "is invented.*",
                "seed_sha256": commitment(self.seed)}

    def start(self, folder: Path) -> None:
        super().start(folder)
        (folder / "secrets.yml").write_text(yaml.safe_dump({"seed": self.seed.hex()}))  # the GM's, while the game runs

    def orders(self, history) -> dict:
        pos = history.position
        written = plans(self.minds, pos, self.variant)
        if pos.phase.kind == "movement" and not two_steps(history):
            scene(pos, written, self.variant)
        return phase_file(pos, written, self.variant)

    def annotate(self, history, data: dict) -> dict | None:
        note = gm_note(history.records[-1], self.said)
        if history.finished:
            note = " ".join(x for x in (note, "Russia has no unit left and owns none of her home centres, so she "
                                        "can never build again: France wins, as the rules say.") if x)
        # the GM's word on the first die of each kind (notes change no result)
        return {**data, "notes": note} if note else None

    def finish(self, folder: Path, history) -> None:
        game = self.game()
        if not history.finished:
            game["end"] = {"abandoned": f"no winner by {LAST_YEAR}"}
        game["seed"] = self.seed.hex()  # the game is over: the seed is published, so anyone can check every die
        (folder / "secrets.yml").unlink()
        (folder / "game.yml").write_text(self.write_game_file(game))


def two_steps(history) -> bool:
    """Has a player's support or convoy of an attack moved a marker two steps toward war yet?"""
    return any(s.what != "attack" and s.after == s.before - 2 for r in history.records
               if isinstance(r.intake, TirReport) for s in r.intake.shifts)


def gm_note(record, said: set) -> str:
    """What the GM adds to a phase the first time a die settles a unit, a retreat or a build."""
    rep = record.intake
    if not isinstance(rep, TirReport):
        return ""
    for c in rep.choices:
        kind = {"movement": "order", "retreats": "retreat"}.get(record.kind, "build" if "Build" in c.chosen else "")
        if c.die is None or not kind or kind in said:
            continue
        said.add(kind)
        where = f"{c.power}'s unit in {BOARD.full_name(c.where)}" if c.where else c.power
        what = {"order": "the two of you gave different valid orders", "retreat": "you suggested different retreats",
                "build": "you suggested different builds"}[kind]
        return (f"For {where} {what}, so a die chose: draw {c.draw} of this phase rolled {c.die}, "
                f"{c.by}'s. The page on random draws shows how to check it from the published key.")
    return ""


def shows(history) -> dict:
    """What the game shows: the dice bands, the players' own shifts, the dice between orders."""
    bands, own, chose, retreat, build = set(), set(), 0, 0, 0
    for r in history.records:
        rep = r.intake
        if not isinstance(rep, TirReport):
            continue
        for roll in rep.rolls:
            t = max(2, min(12, roll.total))
            bands.add("war" if t <= 3 else "down" if t <= 5 else "none" if t <= 8 else "up" if t <= 10 else "allied")
        own |= {s.what for s in rep.shifts if s.after < s.before and (s.what == "attack" or s.after == s.before - 2)}
        for c in rep.choices:
            if c.die is None:
                continue
            if r.kind == "movement":
                chose += 1
            elif r.kind == "retreats":
                retreat += 1
            elif "Build" in c.chosen:
                build += 1
    return dict(bands=len(bands), own=sorted(own), chose=chose, retreat=retreat, build=build,
                result=history.result_line() if history.result else "", end=history.records[-1].phase.name)


def good(s: dict) -> bool:
    return (s["bands"] == 5 and "attack" in s["own"] and {"support", "convoy"} & set(s["own"]) and s["chose"]
            and s["retreat"]
            and s["build"] and " wins " in s["result"])


def require(history) -> None:
    """What the TIR example exists to show (`shows`)."""
    needs(history, good(shows(history)), "every band of the dice, an attack to At War, a support two steps toward "
         "war, dice between valid orders, a retreat and a build of the five by a die, a win", shows(history))


def search(n: int) -> None:
    """Play seeds 0..n-1 of the series and print what each game shows."""
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            s = shows(Tir(i).play(Path(tmp) / str(i)))
            print(i, "GOOD" if good(s) else "    ", s, flush=True)


if __name__ == "__main__":
    search(int(sys.argv[1]))
