"""Variants: the standard game is the variant with no hooks; others override some.

``get_variant("standard")`` returns the variant object a game names in ``game.yml``.
"""

from __future__ import annotations

from .armor import Armor
from .base import Variant
from .blind import Blind
from .blind_complicated import BlindComplicated
from .complicated import Complicated
from .double import Double
from .stab import Stab
from .standard import Standard
from .taskdip import Taskdip
from .tir import Tir

VARIANTS: dict[str, type[Variant]] = {"standard": Standard, "stab": Stab, "blind": Blind, "armor": Armor,
                                  "complicated": Complicated, "double": Double, "tir": Tir, "taskdip": Taskdip,
                                  "blind-complicated": BlindComplicated}


def variant_names() -> list[str]:
    return sorted(VARIANTS)


def get_variant(name: str) -> Variant:
    from ..names import did_you_mean

    cls = VARIANTS.get(str(name).strip().lower())
    if cls is None:
        raise ValueError(f"unknown variant {name!r}.{did_you_mean(str(name), VARIANTS)} "
                         f"Known variants: {', '.join(variant_names())}")
    return cls()
