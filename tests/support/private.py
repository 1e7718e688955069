"""The players' private pages of a built site as their readers see them, for the tests that
compare two builds: a page's ciphertext is new at every build (a fresh nonce), so what must match
is the page's name, its size, its salt (the seat's, the same at every build) and what it decrypts
to."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from dipgen.present.site.crypt import PRIVATE_DIR, decrypt, page_uri

#: the running hidden game whose built site the browser tests of private pages share (conftest's
#: private_site fixture)
RUNNING = "lamps-out"

PAYLOAD = re.compile(r'<script type="application/json" id="pp-payload">(.*?)</script>', re.S)


def envelope(text: str) -> dict:
    """The encrypted envelope a private page carries."""
    found = PAYLOAD.search(text)
    assert found, "no envelope in the page"
    return json.loads(found.group(1))


def private_files(site: Path | Mapping[str, bytes]) -> dict[str, bytes]:
    """The private pages of a site (its folder, or its files by site path), by site path."""
    if isinstance(site, Path):
        return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted((site / PRIVATE_DIR).glob("*.html"))}
    return {uri: data for uri, data in site.items() if uri.startswith(f"{PRIVATE_DIR}/") and uri.endswith(".html")}


def opened(site: Path | Mapping[str, bytes], page_key: bytes, slug: str,
           passphrases: Mapping[str, str]) -> dict[str, tuple[int, str, str]]:
    """Each seat's private page of game `slug` as (its size in bytes, its salt, the page its
    passphrase opens), by seat. Every private page of the site must be one of these seats'."""
    files = private_files(site)
    out, named = {}, set()
    for seat, passphrase in sorted(passphrases.items()):
        uri = page_uri(page_key, slug, seat)
        if uri in files:
            named.add(uri)
            env = envelope(files[uri].decode("utf-8"))
            out[seat] = (len(files[uri]), env["salt"], decrypt(env, passphrase).decode("utf-8"))
    assert named == set(files), f"private pages of no seat: {sorted(set(files) - named)}"
    return out
