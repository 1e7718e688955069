"""Generating one example game: play it, compose its press and notes, render its files; and
checking that the folder written says what was played."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay

from .blind import BlindComposer, BlindSim
from .files import render, write_folder
from .sim import Sim
from .stab import StabComposer, StabSim
from .standard import StandardComposer
from .story import Script

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
    if script.stop and history.variant.visibility.hidden:
        # a running hidden game: what is written in a retreat or winter file stays unpublished
        for log in sim.log:
            if log.phase.kind != "movement":
                log.notes = log.press = ""
    return sim, render(sim)


def verify(folder: Path, sim: Sim):
    """Replay the written folder with dipgen and make sure it tells the same story as the simulation."""
    history = replay(load_game(folder))
    assert len(history.records) == len(sim.log), (len(history.records), len(sim.log))
    for rec, log in zip(history.records, sim.log):
        assert rec.phase == log.phase, (rec.phase, log.phase)
        assert sorted(rec.after.units) == sorted(log.after.units), rec.phase  # spies included
        assert dict(rec.after.owners) == dict(log.after.owners), rec.phase
    return history
