"""Seats: the people of a game, apart from the powers, and who controls which power when.

A `Seat` is one chair at the table: it has a key (which names its view, its private page and
its passphrase) and the people who sat in it, in turn (a replacement player takes over the
chair, its page and its passphrase). A `Seating` says who controls each power at the start
(none, one or several seats) and, as `ControlChange` events of the History, how that changed
in play. In the standard form of ``players:`` (power -> name) every power has its own seat,
keyed by the power's name, and control never changes: seat, power and level are one name.

A leaf module: it knows phases, not games or variants.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from dipgen.core.phase import Phase


@dataclass(frozen=True)
class Seat:
    """One chair at the table: its key and the people who sat in it, each from a phase."""

    key: str
    sitters: tuple[tuple[str, Phase | None], ...]  # (name, from phase); the first from the start

    def name(self, phase: Phase | None = None) -> str:
        """Who sat in the chair at `phase` (by default: at the end)."""
        name = ""
        for who, since in self.sitters:
            if since is None or phase is None or since <= phase:
                name = who
        return name

    def names(self) -> list[str]:
        return [who for who, _ in self.sitters]


@dataclass(frozen=True)
class ControlChange:
    """A typed event of the History: `power` passes from seat `old` to seat `new` (None:
    nobody) from phase `since` on, for the reason `why` (in the variant's words)."""

    power: str
    old: str | None
    new: str | None
    since: Phase
    why: str = ""


@dataclass(frozen=True)
class Seating:
    """The seats of a game and who controls which power: at the start, then after `changes`."""

    seats: tuple[Seat, ...]
    control: Mapping[str, tuple[str, ...]]     # power -> the seats controlling it at the start
    changes: tuple[ControlChange, ...] = ()
    _by_key: dict[str, Seat] = field(init=False, compare=False, repr=False)  # made from `seats`

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {s.key: s for s in self.seats})

    @classmethod
    def one_per_power(cls, players: Mapping[str, Iterable[tuple[str, Phase | None]]]) -> Seating:
        """The standard form: each power its own seat, keyed by the power's name."""
        return cls(tuple(Seat(p, tuple(who)) for p, who in players.items()), {p: (p,) for p in players})

    def seat(self, key: str) -> Seat | None:
        return self._by_key.get(key)

    def keys(self) -> list[str]:
        return [s.key for s in self.seats]

    def controllers(self, power: str, phase: Phase | None = None) -> tuple[str, ...]:
        """The seats that control `power` at `phase` (by default: now, after every change)."""
        who = tuple(self.control.get(power, ()))
        for c in self.changes:
            if c.power == power and (phase is None or c.since <= phase):
                who = _swap(who, c.old, c.new)
        return who

    def powers_of(self, key: str, phase: Phase | None = None) -> tuple[str, ...]:
        """The powers seat `key` controls at `phase` (by default: now)."""
        return tuple(p for p in self.control if key in self.controllers(p, phase))

    def ever_controlled(self, key: str) -> tuple[str, ...]:
        """Every power seat `key` controlled at some time, in the order of the board."""
        return tuple(p for p in self.control if key in self.control[p]
                     or any(c.power == p and c.new == key for c in self.changes))

    def player(self, power: str, phase: Phase | None = None) -> str:
        """The name(s) of who played `power` at `phase`: 'Alice', 'Alice and Bob', '' for nobody."""
        names = [self._by_key[k].name(phase) for k in self.controllers(power, phase) if k in self._by_key]
        return " and ".join(n for n in names if n)

    def player_names(self, power: str) -> list[str]:
        """Everyone who played `power` at some time, in order."""
        keys = list(self.control.get(power, ()))
        keys += [c.new for c in self.changes if c.power == power and c.new and c.new not in keys]
        return [n for k in keys if k in self._by_key for n in self._by_key[k].names()]

    def players_text(self, power: str) -> str:
        """Who played `power`, in words: 'Alice, then Bob' (one after the other), 'Alice and Bob'
        (together, as Double Diplomacy's two captains), '' for nobody."""
        seats = [self._by_key[k] for k in self.control.get(power, ()) if k in self._by_key]
        later = [c.new for c in self.changes if c.power == power and c.new and c.new not in self.control.get(power, ())]
        text = " and ".join(", then ".join(s.names()) for s in seats)
        return ", then ".join([text] * bool(text) + [n for k in dict.fromkeys(later) if k in self._by_key
                                                     for n in self._by_key[k].names()])

    @property
    def standard(self) -> bool:
        """One seat per power, keyed by the power, and no power ever changed hands."""
        return not self.changes and all(tuple(v) == (p,) for p, v in self.control.items()) \
            and set(self._by_key) == set(self.control)

    def after(self, changes: Iterable[ControlChange]) -> Seating:
        """This seating with `changes` happened too (each checked against who controls what)."""
        out = self
        for c in changes:
            if c.power not in self.control:
                raise ValueError(f"control change of {c.power!r}, which is not a power of the game")
            for key in (c.old, c.new):
                if key is not None and key not in self._by_key:
                    raise ValueError(f"control change of {c.power} names {key!r}, which is not a seat")
            now = out.controllers(c.power, c.since)
            if c.old is not None and c.old not in now or c.new is not None and c.new in now:
                raise ValueError(f"control change of {c.power} from {c.old} to {c.new}: its seats are {now}")
            out = Seating(out.seats, out.control, out.changes + (c,))
        return out


def _swap(who: tuple[str, ...], old: str | None, new: str | None) -> tuple[str, ...]:
    out = tuple(k for k in who if k != old) if old is not None else who
    return out + (new,) if new is not None and new not in out else out


def seat_levels(seating: Seating, level: str, phase: Phase | None) -> frozenset[str]:
    """The levels a seat reads with at `phase`: its own key and the powers it controls then.
    Any other level (``gm``, ``public``, a power) reads as itself."""
    if seating.seat(level) is None:
        return frozenset({level})
    return frozenset({level, *seating.powers_of(level, phase)})


def control_after(variant, record, seating: Seating):
    """The replay's step after each phase: the variant's control changes (`Variant.control_changes`),
    checked and kept on the record (`PhaseRecord.control`); returns the record and the new seating."""
    from dataclasses import replace

    changes = tuple(variant.rules.control_changes(record, seating))
    if not changes:
        return record, seating
    for c in changes:
        if c.since <= record.phase:
            raise ValueError(f"{variant.name}: control of {c.power} changes after {record.phase.name}, "
                             f"so from a later phase, not {c.since.name}")
    return replace(record, control=changes), seating.after(changes)
