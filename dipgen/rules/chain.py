"""A game's record: a chain of SHA-256 hashes over its phase files, so that a phase file changed
after it was published changes every link from it on, and a link a player kept no longer
matches. Pure: no I/O.

The construction, in full (``site_src/draws.md`` says it for players, with a script):

- ``link[0] = SHA-256("dipgen-record/1\\n" + slug)``: the game's own start, so that two games
  with the same files have different chains;
- ``link[i] = SHA-256(link[i-1] + "\\n" + salt + "\\n" + phase + "\\n" + bytes)``, for each phase
  file in the order of play (every one: a hidden game's retreat and winter files too), where
  ``link[i-1]`` and ``salt`` are written as lower-case hex digits, ``phase`` is the phase's name
  in its file name (``1901-fall-retreats``) and ``bytes`` are the file's bytes exactly as read;
  each link is written in hex.
- The **salt** is empty for a game whose variant hides nothing. A hidden game's phase files are
  secret while it runs, and a few orders are easy to guess: without a salt, anyone could hash
  guesses until one gave the published link. Its salt is ``HMAC-SHA256(seed, "dipgen record
  salt")``, 32 bytes from the game's secret seed (`dipgen.rules.draws`), published with the seed
  when the game is revealed.

Why it differs from hashing the bytes alone: the previous link and the salt are written in hex
and the fields end in newlines, so that a player can recompute a link with ``printf`` and
``sha256sum`` alone (no tool that turns hex into bytes), and every field's end is unambiguous (no
hex digit or phase name holds a newline); the phase's name binds each file to its phase, so a
file's bytes cannot be passed off as another phase's.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from dipgen.core.phase import Phase

DOMAIN = "dipgen-record/1"
SALT_LABEL = b"dipgen record salt"
SALT_BYTES = 32


def genesis(slug: str) -> str:
    """The link before the first phase file of the game `slug` (hex)."""
    return hashlib.sha256(f"{DOMAIN}\n{slug}".encode()).hexdigest()


def salt_of(seed: bytes) -> bytes:
    """A hidden game's salt: from its secret seed, and nothing of the seed's other uses (the draws'
    keys are hashes of the seed, their secret keys HMACs under other labels)."""
    return hmac.new(seed, SALT_LABEL, hashlib.sha256).digest()


def link(previous: str, salt: bytes, phase: str, data: bytes) -> str:
    """The link after the phase file `phase` with the bytes `data`: the one function that salts and
    hashes (hex in, hex out)."""
    head = f"{previous}\n{salt.hex()}\n{phase}\n".encode("ascii")
    return hashlib.sha256(head + data).hexdigest()


def record_salt(hidden: bool, seed: bytes | None, committed: bool, reached: bool) -> bytes | None:
    """The salt of a game's record, or None when its record cannot be published: empty where the
    variant hides nothing; from the seed in a hidden game (`seed`: None when the build has none).
    A hidden game begun without a seed (`committed` False: game.yml has no seed_sha256) has no
    secret to salt with: its record is published from the reveal on (`reached`), unsalted, when
    its files are public anyway; until then, and in a build that lacks a committed seed, none."""
    if not hidden:
        return b""
    if seed is not None:
        return salt_of(seed)
    return b"" if reached and not committed else None


@dataclass(frozen=True)
class Chain:
    """A game's record: its first link, its salt (secret in a hidden game until the reveal), and the
    link after each phase file, in the order of play. Never printed with its salt."""

    genesis: str
    salt: bytes
    links: tuple[tuple[Phase, str], ...] = ()

    def __repr__(self) -> str:
        return f"Chain({len(self.links)} links)"

    def after(self, phase: Phase) -> str | None:
        """The link after the file of `phase` (None: no file of that phase in the chain)."""
        return next((value for p, value in self.links if p == phase), None)


def make_chain(slug: str, salt: bytes, files) -> Chain:
    """The chain over `files`: (phase, its file's bytes) in the order of play."""
    previous = start = genesis(slug)
    out = []
    for phase, data in files:
        previous = link(previous, salt, phase.slug, data)
        out.append((phase, previous))
    return Chain(start, salt, tuple(out))


def recompute(start: str, salt: bytes, files) -> list[str]:
    """The links over `files` ((phase name, bytes) in order) from the link `start`: how `dipgen
    verify` and a player's own script check a published chain."""
    out = []
    for phase, data in files:
        start = link(start, salt, phase, data)
        out.append(start)
    return out
