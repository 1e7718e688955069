"""Random draws (lots, dice, cards) from a game's committed secret seed. Pure: no I/O.

The algorithm, in full (``site_src/draws.md`` says it for players, with a script that checks
a published game):

- The **seed** is 32 random bytes, kept in ``secrets.yml`` until the reveal.
- The **chain**: ``K[0] = seed``, ``K[t+1] = SHA-256(K[t])``, up to ``K[CHAIN]``. The
  **commitment** is ``K[CHAIN]``, written in game.yml as ``seed_sha256`` before the first phase.
- Every phase the calendar can hold has a **step**: 0 for the set-up before the first phase,
  then ``1 + 8 * (year - start) + 2 * season + retreats`` (season 0 Spring, 1 Fall, 2 Winter;
  retreats 1 for a retreat phase), whether or not the phase is played. The **key** of step
  ``s`` is ``K[CHAIN - 1 - s]``: hashing it ``s + 1`` times gives the commitment.
- A public draw of a phase is made with that phase's key; a secret one (a draw the rules keep
  from the players until the end) with ``HMAC-SHA256(seed, "secret " + phase label)``.
- ``integer(label, n)``, uniform in ``0..n-1``: for ``i = 0, 1, 2, ...`` take
  ``x = HMAC-SHA256(key, f"{phase}/{label}#{i}")`` read as a 256-bit big-endian number, and
  return ``x % n`` for the first ``x < 2**256 - 2**256 % n`` (rejection sampling: no value is
  likelier than another; in practice the first ``x`` is always taken). A die is
  ``integer + 1``; a choice is ``items[integer]``; a shuffle is Fisher-Yates: for ``i`` from
  ``len - 1`` down to 1 swap item ``i`` with item ``integer(f"{label}@{i}", i + 1)``.

Why it is sound. The commitment fixes the seed before any draw is made (SHA-256 is collision
resistant: the GM cannot later find another seed that matches), and so fixes every key and
every draw: the GM can neither choose nor change a value. Publishing a phase's key lets anyone
check it (hash it ``step + 1`` times: the commitment) and recompute the phase's draws, but
tells nothing of later phases' keys, which are *preimages* of it under SHA-256; earlier keys
it does give (hash it further), which is harmless, as those phases are published already
(that is also why a draw that must stay unknown once its phase is past is drawn as secret).
No key is ever the seed itself, so secret draws, keyed from the seed, stay secret until the
seed is published at the reveal; then every draw can be checked.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from dipgen.core.phase import Phase

#: years a game may last: each year has 8 steps (Spring, its retreats, Fall, its retreats,
#: Winter, and room for a variant's own), and step 0 is the set-up
YEARS = 1000
STEPS_PER_YEAR = 8
STEPS = 1 + STEPS_PER_YEAR * YEARS
#: hashes from the seed to the commitment; keys are K[1] .. K[CHAIN - 1], never the seed
CHAIN = STEPS + 1
SETUP = "setup"  # the label of the set-up before the first phase (Taskdip's lots, Double's seats)
SEED_BYTES = 32
FORBIDDEN = "#@"  # characters a label may not hold: they separate its counter and shuffle steps


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def commitment(seed: bytes) -> str:
    """The commitment to `seed` (game.yml's ``seed_sha256``): SHA-256 applied CHAIN times, in hex."""
    value = seed
    for _ in range(CHAIN):
        value = sha256(value)
    return value.hex()


def step_of(phase: Phase | None, start: int) -> int:
    """The chain step of `phase` in a game starting in `start` (None: the set-up, step 0)."""
    if phase is None:
        return 0
    slot = 2 * phase.season_index + (1 if phase.retreats else 0)
    year = phase.year - start
    if not 0 <= slot < STEPS_PER_YEAR or not 0 <= year < YEARS:
        raise ValueError(f"{phase.name} has no step in the draws' chain of a game starting in {start}")
    return 1 + STEPS_PER_YEAR * year + slot


def phase_label(phase: Phase | None) -> str:
    return SETUP if phase is None else phase.slug


def key_matches(key: bytes, step: int, commitment_hex: str) -> bool:
    """Does `key` belong at `step` of the chain that `commitment_hex` anchors?"""
    value = key
    for _ in range(step + 1):
        value = sha256(value)
    return hmac.compare_digest(value.hex(), commitment_hex.lower())


def secret_key(seed: bytes, label: str) -> bytes:
    """The key of a phase's secret draws (`label`: the phase label): published only with the seed."""
    return hmac.new(seed, f"secret {label}".encode(), hashlib.sha256).digest()


def integer(key: bytes, label: str, n: int) -> int:
    """Uniform in 0..n-1 from `key` and the full `label` (phase/label), by rejection sampling."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n < 1 << 256:
        raise ValueError(f"a draw needs a whole number of outcomes from 1 up, not {n!r}")
    limit = (1 << 256) - (1 << 256) % n
    i = 0
    while True:
        x = int.from_bytes(hmac.new(key, f"{label}#{i}".encode(), hashlib.sha256).digest(), "big")
        if x < limit:
            return x % n
        i += 1


def shuffled(key: bytes, label: str, items: Sequence) -> list:
    """`items` shuffled by Fisher-Yates, each swap drawn as integer(f"{label}@{i}", i + 1)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = integer(key, f"{label}@{i}", i + 1)
        out[i], out[j] = out[j], out[i]
    return out


#: what a draw draws from: a number of outcomes, a die, one item of several, or an order of items
DrawKind = Literal["integer", "die", "choice", "shuffle"]


@dataclass(frozen=True)
class Draw:
    """One draw: its full label (``1903-fall/tir/England-France``), what it drew from (`kind` and
    `among`: a number of outcomes, a die's sides, or the items), the value, and whether the
    rules keep it secret until the reveal."""

    label: str
    kind: DrawKind
    among: Any                # n (integer), sides (die), or a tuple of items (choice, shuffle)
    value: Any                # int, int, one of the items, or a tuple of the items
    secret: bool = False


def redraw(key: bytes, kind: str, label: str, among) -> Any:
    """The value of a draw of `kind`, recomputed from its key (how `dipgen verify` checks one)."""
    if kind == "integer":
        return integer(key, label, among)
    if kind == "die":
        return integer(key, label, among) + 1
    if kind == "choice":
        return among[integer(key, label, len(among))]
    if kind == "shuffle":
        return tuple(shuffled(key, label, among))
    raise ValueError(f"unknown kind of draw {kind!r}")


class PhaseDraws:
    """The draws of one phase (or of the set-up, `phase` None). `keys(secret)` gives the key of
    its public or secret draws; it may raise (a GameError when the build has no seed), and is
    asked only when a draw is made, so a phase that draws nothing needs no seed."""

    def __init__(self, phase: Phase | None, keys: Callable[[bool], bytes]):
        self.phase = phase
        self.label = phase_label(phase)
        self._keys = keys
        self._drawn: list[Draw] = []
        self._used: set[str] = set()

    @property
    def drawn(self) -> tuple[Draw, ...]:
        """Every draw made so far, in the order drawn."""
        return tuple(self._drawn)

    def _draw(self, kind: DrawKind, label: str, among, secret: bool) -> Any:
        if not isinstance(label, str) or not label or any(c in label for c in FORBIDDEN) or not label.isprintable():
            raise ValueError(f"a draw's label is printable text without {FORBIDDEN!r}, not {label!r}")
        if label in self._used:
            raise ValueError(f"{self.label}/{label} is drawn twice in one phase: give each draw its own label")
        full = f"{self.label}/{label}"
        value = redraw(self._keys(bool(secret)), kind, full, among)
        self._used.add(label)
        self._drawn.append(Draw(full, kind, among, value, bool(secret)))
        return value

    def integer(self, label: str, n: int, *, secret: bool = False) -> int:
        """Uniform in 0..n-1."""
        return self._draw("integer", label, n, secret)

    def die(self, label: str, sides: int = 6, *, secret: bool = False) -> int:
        """A roll of a die with `sides` faces: 1..sides."""
        return self._draw("die", label, sides, secret)

    def choice(self, label: str, items: Sequence, *, secret: bool = False):
        """One of `items`, each as likely."""
        items = tuple(items)
        if not items:
            raise ValueError(f"{self.label}/{label}: a choice among nothing")
        return self._draw("choice", label, items, secret)

    def shuffle(self, label: str, items: Sequence, *, secret: bool = False) -> list:
        """`items` in a random order (a new list)."""
        return list(self._draw("shuffle", label, tuple(items), secret))


@dataclass
class GameDraws:
    """A game's source of draws: its commitment, its start year, and the seed if the build has
    one. `missing` makes the error raised when a draw is needed without a seed (see
    `dipgen.io.seed`). Never printed with its seed."""

    commitment: str | None
    start: int
    seed: bytes | None = field(default=None, repr=False)
    missing: Callable[[], Exception] = field(default=lambda: ValueError("no seed"), repr=False, compare=False)
    #: the set-up's draws, made before the first phase (Taskdip's lots, Double's seats)
    setup_draws: tuple[Draw, ...] = ()
    _chain: list[bytes] | None = field(default=None, repr=False, compare=False)

    def _seed(self) -> bytes:
        if self.seed is None:
            raise self.missing()
        return self.seed

    def key(self, phase: Phase | None) -> bytes:
        """The key of `phase`'s public draws: published with the phase."""
        if self._chain is None:
            chain = [self._seed()]
            for _ in range(CHAIN - 1):
                chain.append(sha256(chain[-1]))
            self._chain = chain
        return self._chain[CHAIN - 1 - step_of(phase, self.start)]

    def secret_key(self, phase: Phase | None) -> bytes:
        return secret_key(self._seed(), phase_label(phase))

    def phase(self, phase: Phase | None) -> PhaseDraws:
        """The draws of `phase` (None: the set-up)."""
        return PhaseDraws(phase, lambda secret: self.secret_key(phase) if secret else self.key(phase))
