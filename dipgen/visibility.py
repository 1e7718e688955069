"""Visibility levels: who may know what.

Every output (maps, pages, reports) is made from a *view* of a History record for one
level: ``"gm"`` (everything), a power's name (what that power knows), or ``"public"``.
In open variants every level sees everything, so the view is the record itself; hidden
variants filter through their ``view_record`` hook.
"""

from __future__ import annotations

from .history import History, PhaseRecord

GM, PUBLIC = "gm", "public"


def levels(history: History) -> list[str]:
    return [GM, PUBLIC, *history.game.variant.powers()]


def view_record(history: History, record: PhaseRecord, level: str) -> PhaseRecord:
    """What `level` may know of `record`."""
    if level not in levels(history):
        raise ValueError(f"unknown view {level!r}; views are {', '.join(levels(history))}")
    hook = getattr(history.game.variant, "view_record", None)
    return hook(history, record, level) if hook else record
