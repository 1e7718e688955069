"""Variants: the standard game is the variant with no hooks; others override some.

``get_variant("standard")`` returns the variant object a game names in ``game.yml``. A variant's
module is imported when the variant is first asked for: a command that reads standard games
(``dipgen datc`` on the DATC's files) does not import the others.
"""

from __future__ import annotations

from typing import Callable, Iterator, MutableMapping

from dipgen.rules.variant import Variant


def _standard():
    from dipgen.variants.standard import Standard
    return Standard


def _stab():
    from dipgen.variants.stab import Stab
    return Stab


def _blind():
    from dipgen.variants.blind import Blind
    return Blind


def _armor():
    from dipgen.variants.armor import Armor
    return Armor


def _complicated():
    from dipgen.variants.complicated import Complicated
    return Complicated


def _double():
    from dipgen.variants.double import Double
    return Double


def _tir():
    from dipgen.variants.tir import Tir
    return Tir


def _taskdip():
    from dipgen.variants.taskdip import Taskdip
    return Taskdip


def _blind_complicated():
    from dipgen.variants.blind_complicated import BlindComplicated
    return BlindComplicated


class _Variants(MutableMapping):
    """Variant name -> its class, each imported by its loader when first read. Variants can be
    added and removed as in a dict (tests register variants of their own)."""

    def __init__(self, loaders: dict[str, Callable[[], type[Variant]]]):
        self._entries: dict[str, type[Variant] | Callable[[], type[Variant]]] = dict(loaders)

    def __getitem__(self, name: str) -> type[Variant]:
        entry = self._entries[name]
        if not isinstance(entry, type):
            entry = self._entries[name] = entry()
        return entry

    def __setitem__(self, name: str, cls: type[Variant]) -> None:
        self._entries[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


VARIANTS: MutableMapping[str, type[Variant]] = _Variants({
    "standard": _standard, "stab": _stab, "blind": _blind, "armor": _armor, "complicated": _complicated,
    "double": _double, "tir": _tir, "taskdip": _taskdip, "blind-complicated": _blind_complicated})


def variant_names() -> list[str]:
    return sorted(VARIANTS)


def get_variant(name: str) -> Variant:
    from dipgen.core.names import did_you_mean

    cls = VARIANTS.get(str(name).strip().lower())
    if cls is None:
        raise ValueError(f"unknown variant {name!r}.{did_you_mean(str(name), VARIANTS)} "
                         f"Known variants: {', '.join(variant_names())}")
    return cls.bundle() if hasattr(cls, "bundle") else cls()
