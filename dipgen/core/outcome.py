"""How a game ended: a leaf value that a variant's rules make (`Variant.game_result`) and every
output says in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from dipgen.core.phase import Phase

#: how a game ends: one power wins, or the GM declares a draw, a concession or an abandonment
EndKind = Literal["solo", "draw", "concession", "abandoned"]
#: what the GM may declare in game.yml's ``end:``
DeclaredEnd = Literal["draw", "concession", "abandoned"]


@dataclass(frozen=True)
class GameResult:
    kind: EndKind
    powers: tuple[str, ...]
    phase: Phase
    note: str = ""
    #: the victory condition that decided it, said in the result line (a variant's, `Variant.game_result`)
    condition: str = ""
