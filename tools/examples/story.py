"""The stories of the example games: one `Script` per game, read from data/stories/<slug>.yml.

A story holds what the bots do not decide: who plays, who is allied with whom and when the
stabs come, how each player writes orders, who misses a deadline, where the game stops. The
YAML keys are the fields of `Script`; in YAML, a replaced player is a list
``[first name, {name: ..., from: <phase>}]``, pairs and triples are lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

import yaml

STORIES = Path(__file__).resolve().parent / "data" / "stories"


@dataclass
class Script:
    slug: str
    title: str
    gm: str
    players: dict                    # power -> name, or [name, (name, "1905-fall")] for a replacement
    description: str
    seed: int
    alliances: list                  # [(a, b)] from the start
    events: dict                     # phase slug -> [(kind, a, b)]: ally, break, war, peace, stab
    styles: dict                     # power -> writing habit
    blocks: set = frozenset()        # powers whose orders come as one block of lines
    nmr: set = frozenset()           # {(phase slug, power)}
    cd_power: tuple = ()             # the first of these that must remove from cd_after on sends no orders
    cd_after: int = 1904
    misorders: dict = field(default_factory=dict)  # phase slug -> (power, "far" | "kind" | "spy_far")
    aggression: dict = field(default_factory=dict)
    stop: str = ""                   # running game: the phase it waits for
    draw_after: str = ""             # finished game: the GM declares a draw after this Fall
    overrides: dict = field(default_factory=dict)  # phase slug -> {power: [order text]}: scripted decisions
    deadlines: tuple = ("Sunday 20:00 UK time", "Wednesday 22:00 CET", "Friday noon GMT")
    expect: tuple = ()               # ("solo", power) or ("draw", n): the result the story needs
    variant: str = "standard"        # the game's variant, and so the family of code that plays it
    placement: dict = field(default_factory=dict)  # Stab!: power -> [unit], the free initial placement
    fog: float = 0.0                 # hidden games: the chance a player loses track of a foreign unit
    wants: dict = field(default_factory=dict)  # hidden games: feature -> earliest phase slug to set it up
    spies: dict = field(default_factory=dict)  # Blind: power -> [home centre], where its spies start


def _player(who):
    if isinstance(who, str):
        return who
    return [who[0]] + [(item["name"], str(item["from"])) for item in who[1:]]


def script_from(slug: str, data: dict) -> Script:
    """A `Script` from a story's YAML mapping (lists turned into the tuples and sets it uses)."""
    known = {f.name for f in fields(Script)} - {"slug"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"story {slug}: unknown keys {unknown}; the keys are the fields of Script")
    d = dict(data)
    d["players"] = {p: _player(who) for p, who in d["players"].items()}
    d["alliances"] = [tuple(pair) for pair in d["alliances"]]
    d["events"] = {str(ph): [tuple(e) for e in evs] for ph, evs in d["events"].items()}
    for key in ("blocks",):
        if key in d:
            d[key] = set(d[key])
    if "nmr" in d:
        d["nmr"] = {tuple(x) for x in d["nmr"]}
    for key in ("cd_power", "deadlines", "expect"):
        if key in d:
            d[key] = tuple(d[key])
    if "misorders" in d:
        d["misorders"] = {str(ph): tuple(v) for ph, v in d["misorders"].items()}
    return Script(slug=slug, **d)


def load_story(path: Path) -> Script:
    with path.open(encoding="utf-8") as f:
        return script_from(path.stem, yaml.safe_load(f))


def load_stories(folder: Path = STORIES) -> list[Script]:
    """Every story in `folder`, by name."""
    return [load_story(p) for p in sorted(folder.glob("*.yml"))]
