"""What the scripted example games (armor.py, complicated.py, double.py, tir.py) share.

A scripted game is played on the example bots (bot.py) phase by phase, each phase written as the
GM would have received it and replayed with dipgen before the next is planned; once a phase is
adjudicated the script may add the GM's notes and the press, from what the replay says happened.
A game subclasses `Scripted`: its game.yml (`GAME`), each phase's orders (`plan` or `orders`),
what it adds once the phase is played (`annotate`), what the GM writes at the end (`finish`).
Besides: the YAML a GM types (`dump`), the press signed with the capitals, and the tanks and
aircraft the bots cannot see (`ground`, `with_kinds`).
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from pathlib import Path

import yaml

from dipgen.usecases.games import replay_folder
from dipgen.core.board import province_of
from dipgen.core.orders import UnitRef
from dipgen.core.phase import Phase
from dipgen.play.records import History
from dipgen.variants import get_variant

from .board import BOARD, POWERS, full_name
from .bot import Bot, Relations, movement_orders, retreat_orders
from .press import CAPITAL


class _Dumper(yaml.SafeDumper):
    """Text of several lines as a literal block, as a GM would type it."""


_Dumper.add_representer(str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s,
                                                              style="|" if "\n" in s else None))


def dump(data) -> str:
    """A game file as a GM types it: keys in the order given, text of several lines as a block."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def plain_dump(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


class Scripted:
    """One scripted example game: `files()` plays it in a scratch folder and returns its files."""

    slug: str
    GAME: dict  # game.yml as the game starts
    last_year: int  # the last year played, unless the game ends before
    seed = 0  # of the bots' random draws
    allies: tuple = ()  # pairs of powers the bots keep allied all game
    wars: tuple = ()  # and pairs at war
    draw_at: int | None = 3  # the players agree a draw of the powers with this many centres at the end
    write_phase_file = staticmethod(dump)  # how the phase files are written
    write_game_file = staticmethod(dump)   # how game.yml is written

    def __init__(self):
        self.variant = get_variant(self.GAME["variant"])
        self.rng = random.Random(self.seed)
        self.rel = Relations(allies={frozenset(pair) for pair in self.allies}, wars={frozenset(p) for p in self.wars})
        self.bot = Bot(self.rng, self.rel)

    # ----- hooks
    def game(self) -> dict:
        return self.GAME

    def start(self, folder: Path) -> None:
        """What the GM has before the first phase: game.yml."""
        (folder / "game.yml").write_text(self.write_game_file(self.game()))

    def plan(self, pos) -> dict:
        """Every power's orders for `pos`, {power: [Order]}: the bots', planned on the ground (tanks
        as armies, `ground`), with each tank's letter."""
        return {"movement": self.movement, "retreats": self.retreats}.get(pos.phase.kind, self.adjustments)(pos)

    def movement(self, pos) -> dict:
        tanks = tanks_in(pos.units)
        planned = movement_orders(self.bot, self.rel, ground(pos), self.rng)
        return {p: [with_kinds(o, tanks) for o in os] for p, os in planned.items()}

    def retreats(self, pos) -> dict:
        tanks, board = tanks_in(d.unit for d in pos.dislodged), ground(pos)
        return {p: [with_kinds(o, tanks) for o in os]
                for p, os in retreat_orders(self.bot, board, board.dislodged).items()}

    def adjustments(self, pos) -> dict:
        return {p: self.bot.adjustments(ground(pos), p, n)
                for p, n in sorted(self.variant.rules.adjustment_counts(pos).items())}

    def orders(self, history: History) -> dict:
        """The phase file of the phase `history` waits for, as the players send it."""
        self.sent = self.plan(history.position)
        return {"orders": formatted(self.sent)}

    def annotate(self, history: History, data: dict) -> dict | None:
        """The phase file with the GM's notes and press, once `history` has played it (None: as it is)."""
        return None

    def finish(self, folder: Path, history: History) -> None:
        """What the GM writes after the last phase: the draw the players agree, unless the game is over."""
        if self.draw_at is not None and not history.finished:
            end = {"draw": standing(history, self.draw_at)}
            (folder / "game.yml").write_text(self.write_game_file({**self.game(), "end": end}))

    # ----- the loop
    def files(self) -> dict[str, str]:
        """The game's files, {name: text}, played in a scratch folder."""
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / self.slug
            self.play(folder)
            return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}

    def play(self, folder: Path) -> History:
        folder.mkdir(parents=True)
        self.start(folder)
        history = replay_folder(folder)
        while not history.finished and history.position.phase.year <= self.last_year:
            phase = history.position.phase
            data = self.orders(history)
            history = self.write(folder, phase, data)
            annotated = self.annotate(history, data)
            if annotated is not None:
                history = self.write(folder, phase, annotated)
        self.finish(folder, history)
        return replay_folder(folder)

    def write(self, folder: Path, phase: Phase, data: dict) -> History:
        (folder / f"{phase.slug}.yml").write_text(self.write_phase_file(data))
        return replay_folder(folder)


# ====================================================================== what the GM writes

def signed(press: dict[str, str], capitals: dict[str, str] = CAPITAL) -> str:
    """Press from several powers, each signed with its capital."""
    return "\n\n".join(f"**{capitals[p]} to All:** {t}" for p, t in sorted(press.items()))


def bullets(notes: list[str]) -> str:
    return "\n".join(f"- {n}" for n in notes)


def standing(history: History, centres: int) -> list[str]:
    """The powers holding `centres` or more."""
    counts = history.position.centre_counts(POWERS)
    return [p for p in POWERS if counts.get(p, 0) >= centres]


def name(prov: str) -> str:
    return full_name(province_of(prov))


# ====================================================================== what the bots cannot see

AIR = {"P", "B"}


def ground(pos):
    """The position as the bots plan with it: aircraft gone, every tank an army."""
    def plain(u):
        return dataclasses.replace(u, kind="A") if u.kind == "T" else u

    units = tuple(plain(u) for u in pos.units if u.kind not in AIR)
    dislodged = tuple(dataclasses.replace(d, unit=plain(d.unit)) for d in pos.dislodged if d.unit.kind not in AIR)
    return pos.with_(units=units, dislodged=dislodged)


def tanks_in(units) -> set[str]:
    return {u.province for u in units if u.kind == "T"}


def with_kinds(order, tanks: set[str]):
    """`order` as a bot planned it, with the letter T for every army in `tanks` (provinces)."""
    changes = {}
    for field in ("unit", "target"):
        ref = getattr(order, field, None)
        if isinstance(ref, UnitRef) and ref.kind == "A" and ref.loc[:3] in tanks:
            changes[field] = dataclasses.replace(ref, kind="T")
    return dataclasses.replace(order, **changes) if changes else order


def formatted(orders: dict) -> dict:
    return {p: [o.format(BOARD) for o in os] for p, os in orders.items()}
