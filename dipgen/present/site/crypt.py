"""Encryption of the players' private pages (the build side; the browser side is
``dipgen/present/site/assets/private.js``).

A page is encrypted with AES-256-GCM under a key derived from the player's passphrase by
PBKDF2-HMAC-SHA256 (`ITERATIONS` rounds, a 16-byte salt, a fresh random 12-byte nonce). What is
published is a small JSON envelope::

    {"v": 1, "kdf": "PBKDF2-SHA256", "iter": 600000, "cipher": "AES-256-GCM", "zip": "deflate",
     "pad": 4096, "salt": "<base64>", "iv": "<base64>", "ct": "<base64 of ciphertext + 16-byte tag>"}

which is exactly what WebCrypto's ``deriveKey`` / ``decrypt`` take. The page is compressed
before it is encrypted (``zip``: zlib's deflate format, which the browser's
``DecompressionStream("deflate")`` reads): a season's maps and reports shrink about tenfold,
which matters to a player on a phone. So that the size of a page says nothing of what it
holds, the compressed page is padded (``pad``): a 4-byte big-endian length, the data, then
zeros up to a multiple of `PAD` bytes, or to the common size of all the private pages of a
game (`padded_size`), so that no page is bigger than another. The cryptography itself
is the `cryptography` package's (OpenSSL): nothing here is hand-made but the envelope.

A page's file name is `page_token`: HMAC-SHA256 under the game's secret page key of the
game and the seat (`dipgen.rules.seats`: in the standard form the power), so it reveals
neither, and nobody without the key can guess another player's address.

A page's salt is `page_salt`, made the same way (HMAC under the page key, of a label, the game and
the seat), so it is the same at every build: the key a player's browser remembered (private.js)
opens the page the next build publishes, wherever it is built (a CI build has no cache). It is
published, and tells nothing: without the page key it cannot be told from random bytes, and it is
a function of the game's name and the seat alone, never of anything the page holds. It is unique
to the seat (page keys are 256 random bits), which is all a salt must be. The passphrase is not in
it (a salt made from the passphrase would let whoever holds the page key test guesses without
PBKDF2's cost); a new passphrase gives a new key under the same salt, which fails GCM's check on
the old key: the page no longer opens for a browser that remembered the old one.

The nonce is drawn afresh at every encryption, so one key (a seat's, build after build) never
meets one nonce twice; 96 random bits give a chance of a repeat of about n^2 / 2^97 after n
encryptions (NIST SP 800-38D's bound for random nonces is 2^32 encryptions under a key; a seat
gets one per build that changes its game). A fresh nonce also makes every changed game's pages all
new bytes, so that comparing two builds does not tell whose page changed.

Since the salt is stable, a seat's key is the same until its passphrase or the page key changes:
`derive_key` remembers the keys it made in this process (in memory, never on disk: a key opens the
page as the passphrase does), so a process derives one key per seat whatever number of times it
encrypts that seat's page (each rebuild of `mkdocs serve`).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import os
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from dipgen.core.passphrase import normalize


VERSION = 1
ITERATIONS = 600_000  # OWASP's 2023 figure for PBKDF2-HMAC-SHA256; never fewer
SALT_BYTES, NONCE_BYTES, KEY_BYTES = 16, 12, 32
TOKEN_CHARS = 32
PRIVATE_DIR = "private"
PAD = 4096  # ciphertexts come in these steps, whatever the page says
#: the room every private page of a game is given: ROOM_BASE, ROOM_PER_PHASE for each phase the
#: public knows was played (a page packs to about 1 KB a phase), and room for the press and notes
#: the public reads (on every page, in its reports). The size of a page is then a function of
#: public facts alone: what the hidden phases held cannot move it. The build refuses a page that
#: outgrows its room rather than publish a size that could.
ROOM_BASE, ROOM_PER_PHASE = 16 * 1024, 4 * 1024
#: what `page_salt` puts before the game and the seat, so that a salt is not a page's name
SALT_LABEL = "dipgen private page salt"
#: the keys `derive_key` keeps in a process: more than the seats of a big archive's running games
KEPT_KEYS = 1024


def derive_key(passphrase: str, salt: bytes, iterations: int = ITERATIONS) -> bytes:
    """The AES key of `passphrase` under `salt`: PBKDF2-HMAC-SHA256, about 0.07 s the first time in
    a process, then remembered (in memory only: see the module's text)."""
    return _derived(normalize(passphrase), bytes(salt), iterations)


@functools.lru_cache(maxsize=KEPT_KEYS)
def _derived(normalized: str, salt: bytes, iterations: int) -> bytes:
    kdf = PBKDF2HMAC(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=salt, iterations=iterations)
    return kdf.derive(normalized.encode("utf-8"))


def page_salt(page_key: bytes, slug: str, seat: str) -> bytes:
    """The salt of a seat's private page, the same at every build: the first `SALT_BYTES` of
    HMAC-SHA256(page_key, SALT_LABEL NUL slug NUL seat). The label keeps it apart from the page's
    name (`page_token`, the HMAC of slug NUL seat); both are published, and neither tells the other."""
    mac = hmac.new(page_key, f"{SALT_LABEL}\0{slug}\0{seat}".encode(), hashlib.sha256)
    return mac.digest()[:SALT_BYTES]


@dataclass(frozen=True)
class Lock:
    """What a seat's page is encrypted for: its player's passphrase and the seat's `page_salt`.
    Its repr shows the salt only (a passphrase is never printed by accident)."""
    passphrase: str = field(repr=False)
    salt: bytes

    @classmethod
    def of(cls, page_key: bytes, slug: str, seat: str, passphrase: str) -> Lock:
        return cls(passphrase, page_salt(page_key, slug, seat))


def _packed(plaintext: bytes, compress: bool) -> bytes:
    return zlib.compress(plaintext, 9) if compress else plaintext


def room(public_phases: int, public_text: str = "") -> int:
    """The size every private page of a game is padded to, from public facts alone: how many
    phases its public calendar shows, and the press and notes the public reads (see `ROOM_BASE`)."""
    text = len(zlib.compress(public_text.encode("utf-8"), 9)) if public_text else 0
    size = ROOM_BASE + ROOM_PER_PHASE * public_phases + text
    return size + (-size % PAD)


def padded_size(plaintexts: Iterable[bytes], compress: bool = True, least: int = 0) -> int:
    """The size that pads every one of `plaintexts` (the private pages of one game) alike: `least`
    (the game's `room`), or where the biggest framed page needs more, that rounded up to a
    multiple of `PAD`."""
    biggest = max((4 + len(_packed(p, compress)) for p in plaintexts), default=4)
    return max(least + (-least % PAD), biggest + (-biggest % PAD))


def encrypt(plaintext: bytes, lock: Lock | str, iterations: int = ITERATIONS, compress: bool = True,
            size: int | None = None) -> dict[str, str | int]:
    """The envelope of `plaintext` for `lock` (a seat's `Lock`; a bare passphrase: under a random
    salt), padded to `size` bytes before encryption (see `padded_size`), or to the next multiple of
    `PAD`. The nonce is random, whatever the salt: never one nonce twice under one key."""
    if iterations < ITERATIONS:
        raise ValueError(f"PBKDF2 needs at least {ITERATIONS} iterations, not {iterations}")
    if isinstance(lock, str):
        lock = Lock(lock, os.urandom(SALT_BYTES))
    if len(lock.salt) != SALT_BYTES:
        raise ValueError(f"a salt has {SALT_BYTES} bytes, not {len(lock.salt)}")
    salt, nonce = lock.salt, os.urandom(NONCE_BYTES)
    key = derive_key(lock.passphrase, salt, iterations)
    data = _packed(plaintext, compress)
    framed = len(data).to_bytes(4, "big") + data
    if size is not None and size < len(framed):
        raise ValueError(f"a page of {len(framed)} bytes cannot be padded to {size}")
    framed += bytes((size - len(framed)) if size is not None else -len(framed) % PAD)
    ct = AESGCM(key).encrypt(nonce, framed, None)
    envelope: dict[str, str | int] = {
        "v": VERSION, "kdf": "PBKDF2-SHA256", "iter": iterations, "cipher": "AES-256-GCM",
        "pad": PAD, "salt": _b64(salt), "iv": _b64(nonce), "ct": _b64(ct)}
    if compress:
        envelope["zip"] = "deflate"
    return envelope


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decrypt(envelope: Mapping[str, Any] | str, passphrase: str) -> bytes:
    """The plaintext of an envelope (or of its JSON text); raises cryptography.exceptions.InvalidTag
    on a wrong passphrase, ValueError on what is not an envelope."""
    if isinstance(envelope, str):
        envelope = _json_object(envelope)
    if envelope.get("v") != VERSION or envelope.get("kdf") != "PBKDF2-SHA256":
        raise ValueError(f"not a version {VERSION} private page envelope")
    key = derive_key(passphrase, base64.b64decode(envelope["salt"]), int(envelope["iter"]))
    data = AESGCM(key).decrypt(base64.b64decode(envelope["iv"]), base64.b64decode(envelope["ct"]), None)
    if envelope.get("pad"):
        data = data[4:4 + int.from_bytes(data[:4], "big")]
    if envelope.get("zip") == "deflate":
        return zlib.decompress(data)
    if envelope.get("zip"):
        raise ValueError(f"unknown compression {envelope['zip']!r}")
    return data


def _json_object(text: str) -> dict[str, Any]:
    """The JSON object `text` holds: an envelope's fields, read as `decrypt` reads them."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"not a version {VERSION} private page envelope")
    return data


def page_token(page_key: bytes, slug: str, power: str) -> str:
    """The name of a seat's private page: HMAC-SHA256(page_key, slug NUL seat key), 32 hex digits
    (the seat key is the power's name in the standard form)."""
    mac = hmac.new(page_key, f"{slug}\0{power}".encode(), hashlib.sha256)
    return mac.hexdigest()[:TOKEN_CHARS]


def page_uri(page_key: bytes, slug: str, power: str) -> str:
    """The site path of a power's private page (a static HTML file, not a MkDocs page)."""
    return f"{PRIVATE_DIR}/{page_token(page_key, slug, power)}.html"
