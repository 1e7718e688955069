"""Generating the example games: every generated one by slug (`EXAMPLES`: how its files are
made, what it must show). A story-driven game (one per story in data/stories/: the standard,
Stab! and Blind examples) is played by the `Sim` of its variant's family, its press and notes
composed, its files rendered, and the folder written checked to say what was played (`verify`)
and what its story promises (`checks.require`); a scripted one (Armor, 'Complicated', Double,
TIR) is played by its module's `Scripted` game (Double's scenes are checked as they are played,
TIR's dice by `tir.require`; the variants' tests check what each shows). The examples not named
here (games/night-flights, games/austrian-question, games/quiet-frontier) were written by hand."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dipgen.io.gamefiles import load_game
from dipgen.play.records import History
from dipgen.play.replay import replay

from . import armor, complicated, double, tir
from .blind import BlindComposer, BlindSim
from .checks import require
from .files import render, write_folder
from .sim import Sim
from .stab import StabComposer, StabSim
from .standard import StandardComposer
from .story import Script, load_stories

#: variant name -> (the simulation, the press and notes); a variant not named here is played as
#: the standard game (a new family adds its module and its line here)
FAMILIES = {
    "standard": (Sim, StandardComposer),
    "stab": (StabSim, StabComposer),
    "blind": (BlindSim, BlindComposer),
}


def generate(script: Script) -> tuple[Sim, dict[str, str]]:
    """Play the story, compose its press and notes, and render the game's files {name: text}."""
    sim_class, composer_class = FAMILIES.get(script.variant, FAMILIES["standard"])
    sim = sim_class(script).run()
    rng = random.Random(script.seed * 7919 + 1)
    # press may say only what the players could know (in a hidden game: what the public report
    # shows), so it is composed from dipgen's own views of the game as played, written without
    # press first and replayed
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / script.slug
        write_folder(folder, render(sim))
        history = replay(load_game(folder))
    composer_class(sim, history, rng, "plain" if script.stop else "bold").compose()
    if script.stop and history.variant.policy.hidden:
        # a running hidden game: what is written in a retreat or winter file stays unpublished
        for log in sim.log:
            if log.phase.kind != "movement":
                log.notes = log.press = ""
    return sim, render(sim)


def verify(folder: Path, sim: Sim):
    """Replay the written folder with dipgen and make sure it tells the same story as the simulation."""
    history = replay(load_game(folder))
    assert len(history.records) == len(sim.log), (len(history.records), len(sim.log))
    for rec, log in zip(history.records, sim.log, strict=True):
        assert rec.phase == log.phase, (rec.phase, log.phase)
        assert sorted(rec.after.units) == sorted(log.after.units), rec.phase  # spies included
        assert dict(rec.after.owners) == dict(log.after.owners), rec.phase
    return history


@dataclass(frozen=True)
class Example:
    slug: str
    make: Callable[[], dict[str, str]]   # the game folder's files, {name: text}
    require: Callable[[History], None] | None  # what the game must show (AssertionError if it does not)
    manifest: bool = False               # a `.generated` manifest beside the files, to refuse overwriting hand edits
    script: Script | None = None         # the story it was played from


def _story(script: Script) -> Example:
    def make() -> dict[str, str]:
        sim, files = generate(script)
        with tempfile.TemporaryDirectory() as tmp:  # the folder written must tell the simulation's story
            write_folder(Path(tmp) / script.slug, files)
            verify(Path(tmp) / script.slug, sim)
        return files

    return Example(script.slug, make, lambda history: require(history, script), manifest=True, script=script)


def _scripted(game: type, check: Callable[[History], None] | None = None) -> Example:
    return Example(game.slug, lambda: game().files(), check)


EXAMPLES: dict[str, Example] = {e.slug: e for e in [
    *map(_story, load_stories()),
    _scripted(armor.Armor),
    _scripted(complicated.Complicated),
    _scripted(double.Double),
    _scripted(tir.Tir, tir.require),
]}
