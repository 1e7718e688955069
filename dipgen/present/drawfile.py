"""What a game publishes of its random draws, and the check of a published file against the
commitment (what `dipgen verify` and a reader's own script do). Pure: no I/O.

``draws.json``, next to the game's page::

    {"format": "dipgen-draws/1", "game": "slug", "commitment": "<seed_sha256>", "start": 1901,
     "chain": 8002, "seed": null,                      # the seed, once the game is revealed
     "phases": [{"phase": "1903-fall", "step": 19, "key": "<hex>",
                 "draws": [{"label": "1903-fall/tir/England-France", "kind": "die", "among": 6,
                            "value": 4, "secret": false}]}]}

A phase is listed once it is published (for a hidden game: on the public calendar), with the
key of its public draws; its secret draws, and the seed, only when the game is revealed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from dipgen.rules.draws import CHAIN, SETUP, Draw, commitment, key_matches, phase_label, redraw, secret_key, step_of
from dipgen.core.phase import Phase
from dipgen.view import GameView

FORMAT = "dipgen-draws/1"


def _json(value):
    if isinstance(value, (tuple, list)):
        return [_json(v) for v in value]
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


def draw_entry(d: Draw) -> dict:
    return {"label": d.label, "kind": d.kind, "among": _json(d.among), "value": _json(d.value), "secret": d.secret}


def document(view: GameView) -> dict | None:
    """The game's draws.json as a value, from the view a site publishes (the public's, or once a
    hidden game is revealed its full edition's); None for a game that has drawn nothing it shows."""
    source = view.draws
    if source is None:
        return None
    phases = []
    if source.setup:
        phases.append({"phase": SETUP, "step": 0, "key": source.setup_key,
                       "draws": [draw_entry(d) for d in source.setup]})
    for r in view.records:
        if r.draws:
            phases.append({"phase": phase_label(r.phase), "step": step_of(r.phase, source.start), "key": r.draw_key,
                           "draws": [draw_entry(d) for d in r.draws]})
    if not phases:
        return None
    return {"format": FORMAT, "game": view.slug, "commitment": source.commitment, "start": source.start,
            "chain": source.chain, "seed": source.seed or None, "phases": phases}


def dumps(doc: dict) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


# ----------------------------------------------------------------------------- checking

@dataclass(frozen=True)
class Failure:
    """A published draw (or key, or seed) that the commitment does not bear out."""

    label: str
    what: str
    expected: str = ""
    published: str = ""

    def __str__(self) -> str:
        text = f"{self.label}: {self.what}"
        if self.expected or self.published:
            text += f" (expected {self.expected}, published {self.published})"
        return text


def _hex(value, size: int) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size:
        raise ValueError(f"not {2 * size} hex digits")
    return bytes.fromhex(value)


def _phase_step(name: str, start: int) -> int:
    return 0 if name == SETUP else step_of(Phase.from_slug(name), start)


def check(doc, expected_commitment: str | None = None) -> tuple[list[Failure], int]:
    """Every failure of a published draws document, and how many draws were checked: each key
    against the commitment (and `expected_commitment`, the one in the game's game.yml, if given),
    the seed if published, and each draw recomputed from its key."""
    failures: list[Failure] = []
    checked = 0
    try:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            return [Failure("draws.json", f"not a dipgen draws file (format {FORMAT})")], 0
        anchor = _hex(doc["commitment"], 32).hex()
        if expected_commitment and anchor != expected_commitment.lower():
            failures.append(Failure("commitment", "the file's commitment is not the game's (game.yml's seed_sha256)",
                                    expected_commitment.lower(), anchor))
        if doc.get("chain") != CHAIN:
            failures.append(Failure("chain", "a chain of another length", str(CHAIN), str(doc.get("chain"))))
        start = doc["start"]
        seed = _hex(doc["seed"], 32) if doc.get("seed") is not None else None
        if seed is not None and commitment(seed) != anchor:
            failures.append(Failure("seed", "the published seed does not give the commitment", anchor,
                                    commitment(seed)))
            seed = None
        for entry in doc["phases"]:
            name = entry["phase"]
            step = _phase_step(name, start)
            key = _hex(entry["key"], 32)
            if entry.get("step") != step:
                failures.append(Failure(name, "the phase's step in the chain", str(step), str(entry.get("step"))))
            if not key_matches(key, step, anchor):
                failures.append(Failure(name, "the phase's key does not lead to the commitment", "", entry["key"]))
                continue
            for d in entry["draws"]:
                label, kind, among = d["label"], d["kind"], d["among"]
                if not isinstance(label, str) or not label.startswith(name + "/"):
                    failures.append(Failure(str(label), f"a draw listed under {name} that is not of it"))
                    continue
                if d.get("secret"):
                    if seed is None:
                        failures.append(Failure(label, "a secret draw published without the seed to check it"))
                        continue
                    use = secret_key(seed, name)
                else:
                    use = key
                among = tuple(among) if isinstance(among, list) else among
                expected = _json(redraw(use, kind, label, among))
                checked += 1
                if expected != d["value"]:
                    failures.append(Failure(label, "the published value is not the draw",
                                            json.dumps(expected, ensure_ascii=False),
                                            json.dumps(d["value"], ensure_ascii=False)))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        failures.append(Failure("draws.json", f"malformed: {type(e).__name__}: {e}"))
    return failures, checked
