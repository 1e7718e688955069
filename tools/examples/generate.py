"""Generating one example game, and checking the folder written says what was played."""

from __future__ import annotations

import random
from pathlib import Path

from .blind import BlindComposer, BlindSim
from .files import render, write_folder
from .press import Composer
from .sim import Sim
from .stab import StabComposer, StabSim
from .story import Script


def generate(script: Script) -> tuple[Sim, dict[str, str]]:
    sim = {"blind": BlindSim, "stab": StabSim}.get(script.variant, Sim)(script).run()
    rng = random.Random(script.seed * 7919 + 1)
    if script.variant in ("stab", "blind"):
        # press may say only what the public report shows: compose it from dipgen's public view
        # of the game as played (written without press first, and replayed)
        import tempfile

        from dipgen.game import load_game
        from dipgen.history import replay

        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / script.slug
            write_folder(folder, render(sim))
            history = replay(load_game(folder))
        composer = BlindComposer if script.variant == "blind" else StabComposer
        composer(sim, history, rng, "plain" if script.stop else "bold").compose()
        if script.stop:  # a running hidden game: what is written in a retreat or winter file stays unpublished
            for log in sim.log:
                if log.phase.kind != "movement":
                    log.notes = log.press = ""
    else:
        Composer(sim, rng, "plain" if script.stop else "bold").compose()
    return sim, render(sim)


def verify(folder: Path, sim: Sim):
    """Replay the written folder with dipgen and make sure it tells the same story as the simulation."""
    from dipgen.game import load_game
    from dipgen.history import replay

    history = replay(load_game(folder))
    assert len(history.records) == len(sim.log), (len(history.records), len(sim.log))
    for rec, log in zip(history.records, sim.log):
        assert rec.phase == log.phase, (rec.phase, log.phase)
        assert sorted(rec.after.units) == sorted(log.after.units), rec.phase
        assert dict(rec.after.owners) == dict(log.after.owners), rec.phase
        assert sorted(rec.after.pieces) == sorted(log.after.pieces), rec.phase
    return history
