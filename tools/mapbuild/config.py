"""Read the hand-authored map source (mapsrc/standard/*.yml)."""
from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "mapsrc" / "standard"
OUT = ROOT / "svg_templates" / "standard"


def _read(name: str, src: Path) -> dict:
    return yaml.safe_load((src / name).read_text())


def load_config(src: Path = SRC) -> dict:
    return _read("board.yml", src)


def load_all(src: Path = SRC) -> tuple[dict, dict, dict]:
    return _read("board.yml", src), _read("provinces.yml", src), _read("borders.yml", src)
