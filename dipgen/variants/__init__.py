"""The variants, by name: each is a package of its own here, ``dipgen/variants/<name>/`` (a dash in
the name is an underscore in the folder's), whose ``variant()`` makes its `Variant`: its rules
(``rules.py``) and, where it has them, its files (``files.py``), visibility (``visibility.py``)
and words (``words.py``). The registry lists no names: the packages are the list, and a variant's
package is imported when the variant is first asked for, so that a command that reads standard
games (``dipgen datc`` on the DATC's files) imports no other variant.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Iterator, MutableMapping
from importlib import import_module

from dipgen.rules.variant import Variant

#: what makes a variant: called with no arguments, it gives a new `Variant` (a game's variant is its
#: own: Complicated's rules keep the game's options)
Maker = Callable[[], Variant]


def _packages() -> list[str]:
    """The names of the variants, one per package here."""
    return [m.name.replace("_", "-") for m in pkgutil.iter_modules(__path__) if m.ispkg]


class _Variants(MutableMapping):
    """Variant name -> what makes it (`Maker`), each package imported when its variant is first
    read. Variants can be added and removed as in a dict (tests register variants of their own)."""

    def __init__(self, names: list[str]):
        self._makers: dict[str, Maker | None] = dict.fromkeys(names)

    def __getitem__(self, name: str) -> Maker:
        maker = self._makers[name]
        if maker is None:
            maker = self._makers[name] = import_module(f"{__name__}.{name.replace('-', '_')}").variant
        return maker

    def __setitem__(self, name: str, maker: Maker) -> None:
        self._makers[name] = maker

    def __delitem__(self, name: str) -> None:
        del self._makers[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


VARIANTS: MutableMapping[str, Maker] = _Variants(_packages())


def variant_names() -> list[str]:
    return sorted(VARIANTS)


def get_variant(name: str) -> Variant:
    """A new `Variant` of the name a game writes in ``variant:`` (any case); ValueError for a name
    no variant has, with the known names."""
    from dipgen.core.names import did_you_mean

    maker = VARIANTS.get(str(name).strip().lower())
    if maker is None:
        raise ValueError(f"unknown variant {name!r}.{did_you_mean(str(name), VARIANTS)} "
                         f"Known variants: {', '.join(variant_names())}")
    return maker()
