"""Writing a game folder, with its `.generated` manifest of the files written."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import yaml

from .board import POWERS
from .sim import PhaseLog, Sim

MANIFEST = ".generated"

def _scalar(text: str) -> str:
    """A YAML scalar for one order line: plain when YAML reads it back unchanged."""
    try:
        if yaml.safe_load(f"- {text}") == [text]:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text)


def _block(text: str, indent: int) -> str:
    pad = " " * indent
    return "|\n" + "".join((pad + line if line.strip() else "") + "\n" for line in text.rstrip("\n").split("\n"))


def phase_yaml(log: PhaseLog, blocks: set) -> str:
    out = []
    if log.placement:
        out.append("placement:\n")
        for power in POWERS:
            if power in log.placement:
                out.append(f"  {power}: [{', '.join(log.placement[power])}]\n")
    if log.spies:
        out.append("spies:\n")
        for power in POWERS:
            if power in log.spies:
                out.append(f"  {power}: [{', '.join(log.spies[power])}]\n")
    if log.texts:
        out.append("orders:\n")
        for power in POWERS:
            if power not in log.texts:
                continue
            lines = log.texts[power]
            if power in blocks and lines:
                out.append(f"  {power}: " + _block("\n".join(lines), 4))
            elif not lines:
                out.append(f"  {power}: []\n")
            else:
                out.append(f"  {power}:\n" + "".join(f"    - {_scalar(t)}\n" for t in lines))
    elif log.phase is not None and log.phase.retreats and not log.before.dislodged:  # a hidden Fall, closed
        out.append("orders: {}  # nobody retreats: this file closes the Fall\n")
    else:  # nobody sent orders: an empty mapping would be an error (taken for a mistake)
        out.append("orders:\n" + "".join(f"  {power}: []\n" for power in POWERS))
    if log.press:
        out.append("press: " + _block(log.press, 2))
    if log.notes:
        out.append("notes: " + _block(log.notes, 2))
    return "".join(out)


def game_yaml(sim: Sim) -> str:
    s = sim.s
    out = [f"title: {_scalar(s.title)}\n", f"variant: {s.variant}\n", f"gm: {_scalar(s.gm)}\n", "start: 1901\n"]
    out.append("description: " + _block(s.description, 2))
    out.append("players:\n")
    for power in POWERS:
        who = s.players[power]
        if isinstance(who, str):
            out.append(f"  {power}: {_scalar(who)}\n")
        else:
            out.append(f"  {power}:\n    - name: {_scalar(who[0])}\n")
            for name, since in who[1:]:
                out.append(f"    - name: {_scalar(name)}\n      from: {since}\n")
    if sim.result and sim.result[0] == "draw":
        powers = sim.result[1]
        last = sim.log[-1].phase
        out.append("end:\n")
        out.append(f"  draw: [{', '.join(powers)}]\n")
        out.append(f"  phase: {last.slug}\n")
        out.append("  note: " + _scalar(f"The survivors agreed a {len(powers)}-way draw after {last.name}.") + "\n")
    return "".join(out)


def render(sim: Sim) -> dict[str, str]:
    files = {"game.yml": game_yaml(sim)}
    for log in sim.log:
        files[f"{log.phase.slug}.yml"] = phase_yaml(log, set(sim.s.blocks))
    for name, text in files.items():
        data = yaml.safe_load(text)
        assert isinstance(data, dict), name
    return files


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand_edited(folder: Path) -> list[str]:
    """Files in `folder` that differ from what this script last wrote there ([] if untouched)."""
    if not folder.exists():
        return []
    manifest = folder / MANIFEST
    present = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != MANIFEST)
    if not manifest.exists():
        return present or []
    known = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    changed = [n for n in present if n not in known or _sha((folder / n).read_text(encoding="utf-8")) != known[n]]
    changed += [n for n in known if n not in present]
    return sorted(changed)


def write_folder(folder: Path, files: dict[str, str], manifest: bool = True) -> None:
    """Write the game's files into `folder`, removing the game files an earlier run wrote there
    that this one does not; with `manifest`, the `.generated` manifest of what was written."""
    folder.mkdir(parents=True, exist_ok=True)
    listed = folder / MANIFEST
    for stale in sorted(folder.glob("*.y*ml")):  # phase files this run does not write would break the game
        if stale.name not in files:
            stale.unlink()
    if listed.exists():
        for name in json.loads(listed.read_text(encoding="utf-8"))["files"]:
            if name not in files and (folder / name).exists():
                (folder / name).unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    if manifest:
        listed.write_text(json.dumps({"generator": "tools/example_games.py",
                                      "files": {n: _sha(t) for n, t in sorted(files.items())}}, indent=1) + "\n",
                          encoding="utf-8")
