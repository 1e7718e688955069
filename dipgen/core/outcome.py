"""How a game ended: a leaf value that a variant's rules make (`Variant.game_result`) and every
output says in words."""

from __future__ import annotations

from dataclasses import dataclass

from dipgen.core.phase import Phase


@dataclass(frozen=True)
class GameResult:
    kind: str                 # "solo", "draw", "concession", "abandoned"
    powers: tuple[str, ...]
    phase: Phase
    note: str = ""
    #: the victory condition that decided it, said in the result line (a variant's, `Variant.game_result`)
    condition: str = ""
