"""The Double Diplomacy example game, games/two-captains/, as a GM would have received it.

The moves are the example bots' (bot.py), one plan per power; both captains of a power send that
plan, each in her own writing habit, except where a scene makes them disagree. Three scenes show
the synchronisation deciding something on the board (`SCENES`); each looks, from a given phase
on, for the first place where it changes the result, checks that by adjudicating the phase both
ways, and has the captains' press and the GM's notes say so:

- *stand-off*: the captains send a unit two ways, so it holds, and an enemy move into its
  province that would have walked in bounces;
- *support*: one captain orders a unit to hold, the other to support a move; the support
  stands, and without it the move would have failed;
- *missed turn*: a captain sends nothing in a Fall; her partner's moves do not happen, and a
  centre he would have taken is not taken.

The opening scene is the seed's example 1 (England's fleet in London, players 1 and 7).
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

from dipgen.core.board import province_of
from dipgen.core.results import Kind
from dipgen.core.orders import Convoy, Hold, Move, Support
from dipgen.variants import get_variant
from dipgen.variants.double.rules import TABLE, VICTORY, Sync

from .board import CENTRES, move_targets, occupant, place_name, POWERS
from .notation import written
from .scripted import Scripted, plain_dump, standing

NAMES = {1: "Anneke Vos", 2: "Bilal Karim", 3: "Chiara Neri", 4: "Dmitri Orlov", 5: "Elodie Marchand",
         6: "Franz Huber", 7: "Gwen Pryce"}
STYLES = {1: "canonical", 2: "compact", 3: "names", 4: "lower", 5: "canonical", 6: "wordy", 7: "compact"}
VARIANT = get_variant("double")
#: the seed's example 1, played in the opening: Gwen sends London's fleet to the Channel, Anneke to the North Sea
OPENING = ("England", "lon", 7, "F Lon - ENG")
#: scene -> the first phase it may play in (each plays once, at the first place it shows)
SCENES = {"standoff": "1902-spring", "support": "1903-spring", "missed": "1904-fall"}


def captains(power: str) -> list[int]:
    return [n for n, ps in sorted(TABLE.items()) if power in ps]


# ---------------------------------------------------------------------------------- scenes

@dataclass
class Scene:
    """What one captain of `power` wrote instead of the plan (`mine`: orders, None = nothing),
    and what the captains said and the GM noted about it."""

    power: str
    captain: int
    mine: list | None
    press: str
    notes: str


def outcome(pos, orders) -> dict:
    """(power, province) -> the result of that unit's order, adjudicated as the engine does."""
    return {(r.power, r.unit.province): r for r in VARIANT.rules.movement(pos, orders).results if r.unit is not None}


def swapped(orders, power, i, order) -> dict:
    return {**orders, power: [order if j == i else o for j, o in enumerate(orders[power])]}


def first(n: int) -> str:
    return NAMES[n].split()[0]


def said(power: str, *lines: tuple[int, str]) -> str:
    """Press: each captain's line, signed with her name and the power she speaks for."""
    return "\n\n".join(f'{NAMES[n]} ({power}): "{text}"' for n, text in lines)


def unit_name(pos, prov) -> str:
    u = occupant(pos, prov)
    return f"{'army' if u.kind == 'A' else 'fleet'} in {place_name(u.loc)}"


def standoff(pos, orders, used) -> Scene | None:
    """A unit whose captains send it two ways holds, and an enemy move into its province that
    would have succeeded bounces off it."""
    base = outcome(pos, orders)
    for power in [p for p in POWERS if p not in used]:
        for i, o in enumerate(orders.get(power, [])):
            if not isinstance(o, Move) or o.via_convoy or not base[(power, o.unit.province)].succeeded:
                continue
            here = o.unit.province
            for enemy, theirs in orders.items():
                hit = next((v for v in theirs if enemy != power and isinstance(v, Move)
                            and province_of(v.dest) == here and base[(enemy, v.unit.province)].succeeded), None)
                if hit is None:
                    continue
                held = outcome(pos, swapped(orders, power, i, Hold(o.unit)))
                if held[(enemy, hit.unit.province)].succeeded or held[(power, here)].has(Kind.DISLODGED):
                    continue
                others = sorted(q for q in move_targets(occupant(pos, here)) if province_of(q) not in
                                (province_of(o.dest), province_of(hit.unit.loc)))
                if not others:
                    continue
                a, b = captains(power)
                other = Move(o.unit, others[0])
                return Scene(power, b, [other if x is o else x for x in orders[power]],
                             press=said(power, (a, f"The {unit_name(pos, here)} goes to {place_name(o.dest)}, "
                                                    f"{first(b)}. Write it the same or it stays where it is."),
                                        (b, f"{place_name(other.dest)}. I am not sending it where you want it "
                                            "just because you asked first.")),
                             notes=(f"Not in sync: {power}'s {unit_name(pos, here)} was sent to "
                                    f"{place_name(o.dest)} by {NAMES[a]} and to {place_name(other.dest)} by "
                                    f"{NAMES[b]}, so it held. {enemy}'s {unit_name(pos, hit.unit.province)} moved on "
                                    f"{place_name(here)}, expecting to find it empty, and bounced off the unit its "
                                    f"captains could not agree to move. Had both written {NAMES[a]}'s order, "
                                    f"{enemy} would have walked in."))
    return None


def support(pos, orders, used) -> Scene | None:
    """One captain orders a unit to hold, the other to support a move; the support stands, and
    the move it supports would have failed without it."""
    base = outcome(pos, orders)
    for power in [p for p in POWERS if p not in used]:
        for i, o in enumerate(orders.get(power, [])):
            if not isinstance(o, Support) or o.dest is None or not base[(power, o.unit.province)].succeeded:
                continue
            mover = next(((p, r) for (p, prov), r in base.items() if prov == o.target.province), None)
            if mover is None or not mover[1].succeeded or not isinstance(mover[1].order, Move):
                continue
            held = outcome(pos, swapped(orders, power, i, Hold(o.unit)))
            if held[(mover[0], o.target.province)].succeeded:
                continue
            a, b = captains(power)
            whose = "its own" if mover[0] == power else f"{mover[0]}'s"
            target = place_name(o.dest)
            return Scene(power, a, [Hold(x.unit) if x is o else x for x in orders[power]],
                         press=said(power, (a, f"The {unit_name(pos, o.unit.province)} stays put this turn. "
                                               f"I will not lend it to your plans for {target}."),
                                    (b, "Then we disagree, and you know what the rules say about a hold "
                                        "against a support.")),
                         notes=(f"{NAMES[a]} ordered {power}'s {unit_name(pos, o.unit.province)} to hold; "
                                f"{NAMES[b]} ordered it to support {whose} {unit_name(pos, o.target.province)} "
                                f"into {target}. A support stands "
                                f"over a hold, so the support was given, and with it the move to {target} "
                                f"succeeded: without it, the move would have failed."))
    return None


def missed(pos, orders, used) -> Scene | None:
    """In a Fall, a captain sends nothing: her partner's moves do not happen (his supports stand),
    and a centre he would have taken is not taken."""
    if pos.phase.season_index != 1:
        return None
    base = VARIANT.rules.movement(pos, orders)
    for power in [p for p in POWERS if p not in used]:
        if power not in orders:
            continue
        silent = {**orders, power: [Hold(o.unit) if isinstance(o, (Move, Convoy)) else o for o in orders[power]]}
        after = VARIANT.rules.movement(pos, silent)
        lost = sorted(taken(base, power, pos) - taken(after, power, pos))
        if not lost:
            continue
        a, b = captains(power)
        names = " and ".join(place_name(c) for c in lost)
        stood = f" ({first(b)}'s supports stood)" if any(isinstance(o, Support) for o in orders[power]) else ""
        return Scene(power, a, None,
                     press=said(power, (b, f"{first(a)}, where were you? {names} was ours for the taking.")),
                     notes=(f"{NAMES[a]} sent no orders for {power} this season. A unit one captain gives no "
                            f"order counts as ordered to hold by her, so none of {NAMES[b]}'s moves for {power} "
                            f"was carried out{stood}, and {power} did not take {names}."))
    return None


def taken(outcome_, power, pos) -> set:
    """The centres `power` stands on after a Fall movement that it did not own before."""
    return {u.province for u in outcome_.units if u.power == power and u.province in CENTRES
            and pos.owners.get(u.province) != power}


FINDERS = {"standoff": standoff, "support": support, "missed": missed}


def opening(pos, orders) -> Scene:
    """The seed's example 1: Gwen (player 7) sends London's fleet to the Channel; it holds."""
    power, prov, n, text = OPENING
    other = next(m for m in captains(power) if m != n)
    return Scene(power, n, [text if o.unit.province == prov else o for o in orders[power]],
                 press=said(power, (n, f"The Channel, {first(other)}. France will be in it by the autumn if we "
                                       "are not."),
                            (other, "The North Sea first. We have had this argument twice already.")),
                 notes=(f"England's fleet in London was not in sync ({NAMES[other]}: North Sea, {NAMES[n]}: "
                        f"English Channel), so it held: the seed's own first example, played for real."))


def phase_file(pos, orders, rng, scene: Scene | None) -> dict:
    """The phase file the GM received: every captain sends her power's plan in her own hand,
    except the scene's captain, who sends what the scene says (or nothing)."""
    kind = pos.phase.kind
    out = {}
    for power in POWERS:
        if power not in orders:
            continue
        per = {}
        for n in captains(power):
            mine = orders[power]
            if scene is not None and (scene.power, scene.captain) == (power, n):
                if scene.mine is None:
                    continue
                mine = scene.mine
            per[NAMES[n]] = [o if isinstance(o, str) else written(o, STYLES[n], kind, rng) for o in mine]
        out[power] = per
    data = {"orders": out}
    if scene is not None:
        data = {"press": scene.press + "\n", "notes": scene.notes + "\n", **data}
    return data


def showed(record, name: str, scene: Scene) -> bool:
    """Did the replayed phase show the scene as planned (a check on the generator, not on dipgen)?"""
    notes = {(r.power, r.unit.province): {n.reason for n in r.notes if n.kind is Kind.INTAKE}
             for r in record.results if r.unit is not None}
    mine = [r for r in record.results if r.power == scene.power]
    if name == "standoff":
        held = [prov for (p, prov), why in notes.items() if p == scene.power and Sync.HOLDS in why]
        return any(r.has(Kind.BOUNCE) and province_of(r.order.dest) in held
                   for r in record.results if isinstance(r.order, Move) and r.power != scene.power)
    if name == "support":
        return any(Sync.SUPPORT_STANDS in notes[(scene.power, r.unit.province)] and r.succeeded for r in mine)
    if name == "missed":
        return record.orders.get(scene.power) and len({ol.writer for ol in record.orders[scene.power]}) == 1
    return any(Sync.HOLDS in notes.get((scene.power, r.unit.province), ()) for r in mine)


class Double(Scripted):
    slug = "two-captains"
    last_year = 1907
    seed = 13
    allies = (("England", "France"), ("Austria", "Italy"), ("Germany", "Russia"))
    draw_at = 4
    write_game_file = staticmethod(plain_dump)
    GAME = {"title": "The Two Captains", "variant": "double", "gm": "Hedda Lund",
            "players": {NAMES[n]: list(ps) for n, ps in sorted(TABLE.items())},
            "description": "Seven players, fourteen captaincies. Every power answers to two of them, and an "
                           "order only counts when both captains gave it.\n\n*An example game: the moves were "
                           "written by dipgen's scripted player (`tools/double_example.py`), the disagreements "
                           "by its script; every name is invented.*"}

    def __init__(self):
        super().__init__()
        self.todo, self.used = dict(SCENES), set()

    def orders(self, history) -> dict:
        pos = history.position
        orders = self.plan(pos)
        self.scene_name, self.scene = None, None
        if pos.phase.slug == "1901-spring":
            self.scene_name, self.scene = "opening", opening(pos, orders)
        elif pos.phase.kind == "movement":
            for name in [n for n, since in self.todo.items() if pos.phase.slug >= since]:
                scene = FINDERS[name](pos, orders, self.used)
                if scene is not None:
                    self.scene_name, self.scene = name, scene
                    del self.todo[name]
                    break
        return phase_file(pos, orders, self.rng, self.scene)

    def annotate(self, history, data: dict) -> None:
        if self.scene is not None:
            self.used.add(self.scene.power)
            assert showed(history.records[-1], self.scene_name, self.scene), (history.records[-1].phase.slug,
                                                                              self.scene_name)
        return None

    def finish(self, folder, history) -> None:
        assert not self.todo, f"scenes that found no place to play: {sorted(self.todo)}"
        if history.finished:
            return
        draw = standing(history, self.draw_at)
        last = folder / f"{history.records[-1].phase.slug}.yml"
        data = {"notes": (f"The players agreed to stop here: a draw between {', '.join(draw[:-1])} and {draw[-1]}, "
                          f"the powers with four centres or more. No power reached {VICTORY}: two captains who "
                          "must agree on every order make slow conquerors.\n"), **yaml.safe_load(last.read_text())}
        last.write_text(self.write_phase_file(data))
        super().finish(folder, history)
