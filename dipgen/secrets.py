"""A game's secrets: ``games/<slug>/secrets.yml``, never published and never committed.

    # secrets of games/lamps-out: never commit or publish this file
    page_key: "9f1c...64 hex digits"   # names the private pages (see dipgen.private.page_token)
    passphrases:
      England: "k7mq2-vx9ra-d4hte-8wnpc"
      France: "..."

`load_secrets` reads and checks the file (every problem names file and line, as for the
game files); `generate_passphrase` and `generate_page_key` draw new ones from the
operating system's random source (the standard `secrets` module); `update_secrets`
fills in what is missing without ever replacing a passphrase unless asked.
"""

from __future__ import annotations

import math
import os
import re
import secrets as _random  # the standard library's (this module is dipgen.secrets)
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import GameError, Problem, display_path
from .names import did_you_mean
from .yamlio import line_of, load, unknown_keys

#: keys a secrets file may hold (``seed``: the secret seed of games with random draws)
SECRETS_KEYS = {"passphrases", "page_key", "seed"}

#: lower-case letters and digits with the look-alikes left out (0/o, 1/l/i)
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GROUPS, GROUP_SIZE = 4, 5
PASSPHRASE_BITS = GROUPS * GROUP_SIZE * math.log2(len(ALPHABET))
assert PASSPHRASE_BITS >= 80, PASSPHRASE_BITS  # 20 symbols of 31: 99.1 bits

MIN_PASSPHRASE = 16   # characters, for a passphrase the GM chose herself
PAGE_KEY_BYTES = 32   # 256 bits; a key read from the file needs at least 128
HEADER = ("# Secrets of {game}: never commit or publish this file (see 'dipgen secrets --help').\n"
          "# page_key names the players' private pages; each passphrase opens one power's page.\n")


@dataclass
class GameSecrets:
    path: Path
    page_key: bytes
    passphrases: dict[str, str] = field(default_factory=dict)  # power -> passphrase
    extra: dict = field(default_factory=dict)                   # other keys, kept as read (seed)

    def __repr__(self) -> str:  # never print a passphrase by accident (logs, tracebacks)
        return f"GameSecrets({display_path(self.path)}, powers={sorted(self.passphrases)})"


def normalize(passphrase: str) -> str:
    """The passphrase as the key is derived from it: NFC, surrounding spaces dropped.
    The browser does the same (``private.js``), so a stray space when typing does not matter."""
    return unicodedata.normalize("NFC", passphrase).strip()


def generate_passphrase() -> str:
    """4 groups of 5 symbols from a 31-symbol alphabet: about 99 bits of entropy."""
    return "-".join("".join(_random.choice(ALPHABET) for _ in range(GROUP_SIZE)) for _ in range(GROUPS))


def generate_page_key() -> str:
    return _random.token_hex(PAGE_KEY_BYTES)


def load_secrets(path: Path | str, powers: list[str], require_key: bool = True) -> GameSecrets:
    """Read and check a secrets file for a game of `powers`. Raises GameError listing every problem.
    (`require_key` False: a file without page_key is fine, its page_key is then empty.)"""
    path = Path(path)
    name = display_path(path)
    data = load(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise GameError([Problem(name, 1, "secrets.yml must be a mapping with page_key and passphrases",
                                 f"delete it and run 'dipgen secrets {display_path(path.parent)}' to make a new one")])
    problems: list[Problem] = []
    make = f"run 'dipgen secrets {display_path(path.parent)}' to add what is missing"
    problems.extend(unknown_keys(data, SECRETS_KEYS, name, "in secrets.yml"))
    page_key = b""
    raw_key = data.get("page_key")
    if raw_key is None and not require_key:
        pass
    elif raw_key is None:
        problems.append(Problem(name, None, "secrets.yml has no page_key", make))
    elif not isinstance(raw_key, str):
        problems.append(Problem(name, line_of(data, "page_key"), "page_key must be a quoted string of hex digits",
                                'e.g. page_key: "9f1c..." (quote it, or YAML may read it as a number)'))
    elif not re.fullmatch(r"(?:[0-9a-fA-F]{2}){16,}", raw_key):
        problems.append(Problem(name, line_of(data, "page_key"),
                                "page_key must be at least 32 hex digits (an even number of them)",
                                f"delete the line and {make} (the private pages' addresses will change)"))
    else:
        page_key = bytes.fromhex(raw_key)

    passphrases: dict[str, str] = {}
    raw = data.get("passphrases") or {}
    if not isinstance(raw, dict):
        problems.append(Problem(name, line_of(data, "passphrases"), "passphrases must map each power to its passphrase",
                                'e.g.\n      passphrases:\n        England: "k7mq2-vx9ra-d4hte-8wnpc"'))
        raw = {}
    by_lower = {p.lower(): p for p in powers}
    for key, value in raw.items():
        line = line_of(raw, key)
        power = by_lower.get(str(key).lower())
        if power is None:
            problems.append(Problem(name, line, f"{key!r} is not a power of this game",
                                    did_you_mean(str(key), powers).strip() or f"powers: {', '.join(powers)}"))
            continue
        if power in passphrases:
            problems.append(Problem(name, line, f"two passphrases for {power}", "keep one"))
            continue
        if not isinstance(value, str):
            problems.append(Problem(name, line, f"{power}'s passphrase must be a quoted string",
                                    f"run 'dipgen secrets {display_path(path.parent)} --new {power}' for a new one"))
            continue
        if len(normalize(value)) < MIN_PASSPHRASE:
            problems.append(Problem(name, line, f"{power}'s passphrase is too short to keep its page secret "
                                    f"(at least {MIN_PASSPHRASE} characters)",
                                    f"run 'dipgen secrets {display_path(path.parent)} --new {power}' for a strong one"))
            continue
        passphrases[power] = normalize(value)
    if problems:
        raise GameError(problems)
    extra = {k: v for k, v in data.items() if k not in ("passphrases", "page_key")}
    return GameSecrets(path, page_key, passphrases, extra)


@dataclass
class Update:
    secrets: GameSecrets
    created: bool          # the file did not exist
    added: list[str]       # powers given a new passphrase
    changed: bool          # anything was written


def update_secrets(path: Path | str, powers: list[str], renew: list[str] = (), game_name: str = "",
                   renew_key: bool = False) -> Update:
    """Create `path` or fill in what it lacks: a page key, and a passphrase for each power that
    has none (and for each power in `renew`; a new page key with `renew_key`). An existing
    passphrase is never replaced otherwise."""
    path = Path(path)
    created = not path.exists()
    if created:
        current = GameSecrets(path, b"", {}, {})
    else:
        current = load_secrets(path, powers, require_key=False)
    added = []
    for power in powers:
        if power not in current.passphrases or power in renew:
            current.passphrases[power] = generate_passphrase()
            added.append(power)
    changed = created or bool(added) or not current.page_key or renew_key
    if not current.page_key or renew_key:
        current.page_key = bytes.fromhex(generate_page_key())
    if changed:
        write_secrets(current, game_name or display_path(path.parent))
    return Update(current, created, added, changed)


def write_secrets(s: GameSecrets, game_name: str) -> None:
    """Write the file readable by its owner only; quoted strings throughout."""
    lines = [HEADER.format(game=game_name), f'page_key: "{s.page_key.hex()}"', "passphrases:"]
    for power, phrase in s.passphrases.items():
        lines.append(f"  {power}: {_quote(phrase)}")
    if s.extra:
        lines.append(yaml.safe_dump({k: _plain(v) for k, v in s.extra.items()}, sort_keys=False,
                                    allow_unicode=True).rstrip())
    text = "\n".join(lines) + "\n"
    tmp = s.path.with_name(s.path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, s.path)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _plain(value):
    """Values read by dipgen.yamlio (str subclasses, dict subclasses) as plain ones for yaml.safe_dump."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value
