"""A game's secrets: ``games/<slug>/secrets.yml``, never published and never committed.

    # secrets of games/lamps-out: never commit or publish this file
    page_key: "9f1c...64 hex digits"   # names the private pages (see dipgen.present.site.crypt.page_token)
    passphrases:
      England: "k7mq2-vx9ra-d4hte-8wnpc"
      France: "..."
    addresses:                            # each player's e-mail, by her name (dipgen.io.addresses)
      Alice: alice@example.org

`load_secrets` reads and checks the file (every problem names file and line, as for the
game files); `generate_passphrase` and `generate_page_key` draw new ones from the
operating system's random source (the standard `secrets` module); `update_secrets`
fills in what is missing without ever replacing a passphrase unless asked.
"""

from __future__ import annotations

import io
import math
import os
import re
import stat
import secrets as _random  # the standard library's (this module is dipgen.io.secretsfile)
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from dipgen.core.errors import GameError, Problem

from dipgen.io.paths import display_path
from dipgen.core.names import did_you_mean
from dipgen.core.passphrase import normalize
from dipgen.io.addresses import Addresses, read_addresses
from dipgen.io.yamlfile import line_of, link_out, load, read_text, unknown_keys

#: a game's secrets file, beside its game.yml
SECRETS_FILE = "secrets.yml"
#: keys a secrets file may hold (``seed``: the secret seed of games with random draws; ``lots``:
#: lots the players drew by hand, which the variant reads and checks, Taskdip's; ``demo: true``:
#: an example game's secrets, public on purpose, see dipgen.io.load)
SECRETS_KEYS = {"passphrases", "page_key", "seed", "lots", "demo", "addresses"}

#: lower-case letters and digits with the look-alikes left out (0/o, 1/l/i)
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GROUPS, GROUP_SIZE = 4, 5
PASSPHRASE_BITS = GROUPS * GROUP_SIZE * math.log2(len(ALPHABET))
assert PASSPHRASE_BITS >= 80, PASSPHRASE_BITS  # 20 symbols of 31: 99.1 bits

MAX_FILE = 1 << 20    # bytes: a secrets file holds a few keys; anything bigger is not one
MIN_PASSPHRASE = 16   # characters, for a passphrase the GM chose herself
#: the least estimated strength, in bits, of a passphrase the GM chose herself (see `strength`):
#: as hard to guess as 13 letters drawn at random; each guess costs PBKDF2's 600,000 rounds
MIN_BITS = 60
PAGE_KEY_BYTES = 32   # 256 bits; a key read from the file needs at least 128
HEADER = ("# Secrets of {game}: never commit or publish this file (see 'dipgen secrets --help').\n"
          "# page_key names the players' private pages; each passphrase opens one power's page.\n")


@dataclass
class GameSecrets:
    path: Path
    page_key: bytes
    passphrases: dict[str, str] = field(default_factory=dict)  # power -> passphrase
    extra: dict = field(default_factory=dict)                   # other keys, kept as read (seed)
    seed: bytes | None = None          # the seed of the game's random draws (dipgen.rules.draws)
    seed_line: int | None = None
    #: each player's e-mail addresses, by her name as players: writes it (`dipgen mail`, orders by mail)
    addresses: Addresses = field(default_factory=Addresses)

    def __repr__(self) -> str:  # never print a passphrase by accident (logs, tracebacks)
        return f"GameSecrets({display_path(self.path)}, powers={sorted(self.passphrases)})"


def generate_passphrase() -> str:
    """4 groups of 5 symbols from a 31-symbol alphabet: about 99 bits of entropy. One that
    `strength` would refuse (runs and repeats such as "abcde-ffff...": none in 200,000 draws) is
    drawn again, so that every passphrase dipgen makes passes its own check."""
    while True:
        phrase = "-".join("".join(_random.choice(ALPHABET) for _ in range(GROUP_SIZE)) for _ in range(GROUPS))
        if strength(phrase) >= MIN_BITS:
            return phrase


def strength(passphrase: str) -> float:
    """dipgen's estimate, in bits, of how hard a passphrase is to guess: each character counts as
    many bits as its kind allows (a letter log2(26) = 4.7, a digit log2(10) = 3.3, any other
    character log2(33) = 5.0), except one that repeats the character before it or continues a run
    with it (``aa``, ``ab``, ``ba``, ``12``, ``21``, whatever the case), which counts nothing.

    Rough on purpose, so that it is simple to explain: it refuses ``aaaaaaaaaaaaaaaa`` (4.7 bits),
    ``abcdefghijklmnop`` and ``1234567890123456``; it knows no words, so a phrase of common words
    is rated above what it is worth."""
    bits = 0.0
    before = ""
    for char in normalize(passphrase):
        char = char.lower() if len(char.lower()) == 1 else char  # 'İ'.lower() is two characters
        predictable = before and (char == before or (char.isalnum() and before.isalnum()
                                                     and abs(ord(char) - ord(before)) == 1))
        if not predictable:
            bits += math.log2(26 if char.isalpha() else 10 if char.isdigit() else 33)
        before = char
    return bits


def generate_page_key() -> str:
    return _random.token_hex(PAGE_KEY_BYTES)


def generate_seed() -> str:
    """A new seed for a game's draws: 32 bytes from the operating system, in hex."""
    return _random.token_hex(32)


def load_secrets(path: Path | str, powers: list[str] | None, require_key: bool = True,
                 renew: Collection[str] = (), players: list[str] | None = None) -> GameSecrets:
    """Read and check a secrets file for a game of `powers` (None: not known, because game.yml
    has errors; the keys of the passphrases are then not checked) and of `players` (their names,
    which key the addresses; None: not known, any name is taken). Raises GameError listing
    every problem. (`require_key` False: a file without page_key is fine, its page_key is then
    empty; a power in `renew` is about to get a new passphrase, so its old one may be weak or
    shared.)"""
    path = Path(path)
    name = display_path(path)
    data = _read(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise GameError([Problem(name, 1, "secrets.yml must be a mapping with page_key and passphrases",
                                 f"delete it and run 'dipgen secrets {display_path(path.parent)}' to make a new one",
                                 code="not-a-mapping")])
    problems: list[Problem] = []
    make = f"run 'dipgen secrets {display_path(path.parent)}' to add what is missing"
    problems.extend(unknown_keys(data, SECRETS_KEYS, name, "in secrets.yml"))
    page_key = _read_page_key(data, name, make, require_key, problems)
    passphrases, lines = _read_passphrases(data, name, powers, renew, display_path(path.parent), problems)
    problems.extend(_shared(passphrases, lines, renew, name, display_path(path.parent)))
    addresses = read_addresses(data, name, players, problems)
    seed = data.get("seed")
    if seed is not None and not (isinstance(seed, str) and re.fullmatch(r"[0-9a-fA-F]{64}", seed)):
        problems.append(Problem(name, line_of(data, "seed"), "seed must be a quoted string of 64 hex digits",
                                "restore it from your copy of secrets.yml (the game's draws come from it); "
                                "before the first phase, delete the line and run "
                                f"'dipgen secrets {display_path(path.parent)}' for a new one", code="bad-value"))
        seed = None
    if data.get("demo", True) is not True:
        problems.append(Problem(name, line_of(data, "demo"), "demo can only be true (this file's secrets are a public "
                                "demonstration, committed on purpose)", "delete the line in a real game's secrets.yml",
                                code="bad-value"))
    if problems:
        raise GameError(problems)
    extra = {k: v for k, v in data.items() if k not in ("passphrases", "page_key", "addresses")}
    return GameSecrets(path, page_key, passphrases, extra, bytes.fromhex(seed) if seed else None,
                       line_of(data, "seed"), addresses)


def _read_page_key(data: dict, name: str, make: str, require_key: bool, problems: list[Problem]) -> bytes:
    """secrets.yml's page_key (b"": none, where none is needed)."""
    page_key = b""
    raw_key = data.get("page_key")
    if raw_key is None and not require_key:
        pass
    elif raw_key is None:
        problems.append(Problem(name, None, "secrets.yml has no page_key", make, code="missing-key"))
    elif not isinstance(raw_key, str):
        problems.append(Problem(name, line_of(data, "page_key"), "page_key must be a quoted string of hex digits",
                                'e.g. page_key: "9f1c..." (quote it, or YAML may read it as a number)',
                                code="bad-value"))
    elif not re.fullmatch(r"(?:[0-9a-fA-F]{2}){16,}", raw_key):
        problems.append(Problem(name, line_of(data, "page_key"),
                                "page_key must be at least 32 hex digits (an even number of them)",
                                f"delete the line and {make} (the private pages' addresses will change)",
                                code="bad-value"))
    else:
        page_key = bytes.fromhex(raw_key)
    return page_key


def _read_passphrases(data: dict, name: str, powers: list[str] | None, renew: Collection[str], folder: str,
                      problems: list[Problem]) -> tuple[dict[str, str], dict[str, int | None]]:
    """secrets.yml's passphrases, normalised, by power, and the line of each."""
    passphrases: dict[str, str] = {}
    lines: dict[str, int | None] = {}
    raw = data.get("passphrases") or {}
    if not isinstance(raw, dict):
        problems.append(Problem(name, line_of(data, "passphrases"), "passphrases must map each power to its passphrase",
                                'e.g.\n      passphrases:\n        England: "k7mq2-vx9ra-d4hte-8wnpc"',
                                code="bad-value"))
        raw = {}
    names = list(powers) if powers is not None else [str(k) for k in raw]  # (without the powers: any name)
    by_lower = {p.lower(): p for p in names}
    for key, value in raw.items():
        line = line_of(raw, key)
        power = by_lower.get(str(key).lower())
        if power is None:
            problems.append(Problem(name, line, f"{key!r} is not a power of this game",
                                    did_you_mean(str(key), names).strip() or f"powers: {', '.join(names)}",
                                    code="unknown-power"))
            continue
        if power in passphrases:
            problems.append(Problem(name, line, f"two passphrases for {power}", "keep one", code="duplicate-power"))
            continue
        renewed = f"run 'dipgen secrets {folder} --new {power}' for a strong one"
        if not isinstance(value, str):
            if power not in renew:
                problems.append(Problem(name, line, f"{power}'s passphrase must be a quoted string", renewed,
                                        code="bad-value"))
            continue
        weak = _weakness(value)
        if weak and power not in renew:
            problems.append(Problem(name, line, f"{power}'s passphrase is {weak}", renewed, code="weak-passphrase"))
            continue
        passphrases[power] = normalize(value)
        lines[power] = line
    return passphrases, lines


def _weakness(passphrase: str) -> str:
    """What makes a passphrase the GM chose too weak to keep a page secret, in words; '' if nothing."""
    if len(normalize(passphrase)) < MIN_PASSPHRASE:
        return f"too short to keep its page secret (at least {MIN_PASSPHRASE} characters)"
    bits = strength(passphrase)
    if bits < MIN_BITS:
        return (f"too easy to guess: about {bits:.0f} bits by dipgen's estimate, at least {MIN_BITS} (a character "
                "that repeats the one before it or continues a run, as in aaaa, abcd or 1234, counts nothing)")
    return ""


def _read(path: Path):
    """The file parsed, or a GameError: only a regular file of the game's own (never a link to
    another game's secrets.yml, nor a FIFO or a device, which are refused before they are opened),
    of at most MAX_FILE bytes; whatever else is in it (nesting too deep, broken YAML) is an error
    to fix, never a crash."""
    target = link_out(path.parent, path)
    if target is not None:
        raise GameError([Problem(display_path(path), None, f"secrets.yml is a link to {target}, outside the game "
                                 "folder: a game's passphrases, page key and seed must be its own file (another "
                                 "game's would open its pages)",
                                 "put the game's own secrets.yml here instead of the link (if the file it leads to "
                                 "is this game's, move it here; if it is another game's, delete the link and run "
                                 f"'dipgen secrets {display_path(path.parent)}' for new passphrases)",
                                 code="link-outside")])
    return load(path, MAX_FILE, "secrets files")


def secrets_file(folder: Path | str) -> Path | None:
    """The game's secrets.yml, if the folder has one: a link counts, even one that leads nowhere
    or loops (reading it says what is wrong; ``Path.exists`` would take it for no file at all)."""
    file = Path(folder) / SECRETS_FILE
    return file if os.path.lexists(file) else None


def shared_secrets(folders) -> list[tuple[Path, Problem]]:
    """(game folder, problem) for each game whose secrets.yml is the very file another game has
    too (a hard link, or a game folder that is a link to another): the players of one game could
    open the other's pages, and the two games would share a seed. Each of them is named, so that
    checking either game finds it; `dipgen check` and the build both refuse it."""
    files: dict[tuple[int, int], list[Path]] = {}
    for folder in folders:
        try:
            st = os.lstat(Path(folder) / SECRETS_FILE)
        except OSError:
            continue  # none, or unreadable: reading it says why
        if stat.S_ISREG(st.st_mode):  # not a link: a link out of the game folder is refused as one
            files.setdefault((st.st_dev, st.st_ino), []).append(Path(folder))
    out = []
    for group in files.values():
        for folder in group if len(group) > 1 else ():
            others = ", ".join(display_path(f / SECRETS_FILE) for f in group if f != folder)
            out.append((folder, Problem(display_path(folder / SECRETS_FILE), None, f"this secrets.yml is the same file "
                                        f"as {others}: the games would share passphrases, page key and seed",
                                        "give each game its own: in each game but the one the file belongs to, "
                                        "delete secrets.yml and run 'dipgen secrets <that game's folder>' for new "
                                        "passphrases", code="shared-secrets")))
    return out


def _shared(passphrases: dict[str, str], lines: dict[str, int | None], renew: Collection[str], name: str,
            game: str) -> list[Problem]:
    """A problem for each power whose passphrase an earlier power in the file has too: each of
    the two players could open the other's page."""
    first: dict[str, str] = {}
    problems = []
    for power, phrase in passphrases.items():
        if power in renew:
            continue
        if phrase in first:
            problems.append(Problem(name, lines[power], f"{power} has the same passphrase as {first[phrase]} "
                                    f"(line {lines[first[phrase]]}): each player could open the other's page",
                                    f"run 'dipgen secrets {game} --new {power}' and send {power}'s player the new one",
                                    code="same-passphrase"))
        else:
            first[phrase] = power
    return problems


@dataclass
class Update:
    secrets: GameSecrets
    created: bool          # the file did not exist
    added: list[str]       # powers given a new passphrase
    changed: bool          # anything was written


def update_secrets(path: Path | str, powers: list[str], renew: Collection[str] = (), game_name: str = "",
                   renew_key: bool = False, seed: str | None = None) -> Update:
    """Create `path` or fill in what it lacks: a page key, and a passphrase for each power that
    has none (and for each power in `renew`; a new page key with `renew_key`). An existing
    passphrase is never replaced otherwise; `seed` is added to a file that has none. An existing
    file is edited in place: its comments, key order and layout stay, only the values added or
    replaced differ."""
    path = Path(path)
    created = not os.path.lexists(path)  # a link that loops or leads nowhere is read, and refused, not replaced
    if created:
        current = GameSecrets(path, b"", {}, {})
    else:
        current = load_secrets(path, powers, require_key=False, renew=renew)
    new: dict[str, str] = {}
    for power in powers:
        if power not in current.passphrases or power in renew:
            new[power] = generate_passphrase()
    new_key = generate_page_key() if not current.page_key or renew_key else None
    current.passphrases.update(new)
    if new_key:
        current.page_key = bytes.fromhex(new_key)
    if current.seed is not None:
        seed = None  # never replaced: the game's commitment is made from it
    if seed:
        current.seed = bytes.fromhex(seed)
    changed = created or bool(new) or bool(new_key) or bool(seed)
    if created:
        _write_private(path, _new_file(current, game_name or display_path(path.parent)))
    elif changed:
        _write_private(path, _edited(path, new, new_key, seed))
    return Update(current, created, list(new), changed)


def _new_file(s: GameSecrets, game_name: str) -> str:
    lines = [HEADER.format(game=game_name), f'page_key: "{s.page_key.hex()}"', "passphrases:"]
    lines += [f"  {power}: {_quote(phrase)}" for power, phrase in s.passphrases.items()]
    if s.seed is not None:
        lines.append(f'seed: "{s.seed.hex()}"  # the game\'s random draws come from it: never lose it')
    return "\n".join(lines) + "\n"


def _edited(path: Path, new: dict[str, str], new_key: str | None, seed: str | None = None) -> str:
    """The text of `path` (already checked by load_secrets) with the new passphrases, page key and
    seed, edited in place (`round_trip`)."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString as Quoted

    def change(data) -> None:
        if new_key:
            if "page_key" in data:
                data["page_key"] = _like(data["page_key"], new_key)
            else:
                data.insert(0, "page_key", Quoted(new_key))
        if seed:
            _append(data, "seed", Quoted(seed))
        if new:
            if not isinstance(data.get("passphrases"), dict):  # missing, or empty (`passphrases:`)
                if "passphrases" in data:
                    data["passphrases"] = CommentedMap()
                else:
                    _append(data, "passphrases", CommentedMap())
            table = data["passphrases"]
            for power, phrase in new.items():
                key = next((k for k in table if str(k).lower() == power.lower()), None)
                if key is None:
                    _append(table, power, Quoted(phrase))
                else:
                    table[key] = _like(table[key], phrase)

    result = round_trip(path, change)
    _check_edit(result, new, new_key, display_path(path), seed)
    return result


def set_key(path: Path, key: str, value: str, comment: str = "") -> str:
    """The text of the YAML mapping file `path` with `key` set to the quoted `value` (added at the
    end, with `comment` at the end of its line, if it is not there), edited in place."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString as Quoted

    def change(data) -> None:
        if key in data:
            data[key] = _like(data[key], value)
        else:
            _append(data, key, Quoted(value))
            if comment:
                data.yaml_add_eol_comment(comment, key)

    result = round_trip(path, change)
    if (yaml.safe_load(result) or {}).get(key) != value:
        raise GameError([Problem(display_path(path), None, "editing the file in place went wrong; it is left as "
                                 "it was", f"add the line by hand: {key}: \"{value}\"", code="edit-failed")])
    return result


def round_trip(path: Path, change) -> str:
    """The text of `path` after `change` (a function of the parsed mapping) edited it with a
    round-trip YAML parser: every comment, the key order, quoting, layout, a byte-order mark
    and CRLF line ends are kept."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError as RoundTripError

    name = display_path(path)
    text = read_text(path, MAX_FILE, "secrets files")  # as it is, CRLF and all (Path.read_text would make LF)
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    crlf = "\r\n" in text
    text = text[len(bom):].replace("\r\n", "\n")
    rt = YAML()  # round-trip: comments and layout are part of what it reads
    rt.preserve_quotes = True
    rt.width = 1 << 20  # never fold a long line
    rt.explicit_start = text.startswith("---")
    mapping, sequence, offset = _indents(text)
    rt.indent(mapping=mapping, sequence=sequence, offset=offset)
    try:
        data = rt.load(text)
    except (RoundTripError, ValueError, TypeError, RecursionError) as e:
        raise GameError([Problem(name, None, f"cannot edit the file in place ({type(e).__name__})",
                                 "fix it by hand, or move it away and run "
                                 f"'dipgen secrets {display_path(path.parent)}'",
                                 code="edit-failed")]) from e
    head = ""
    if data is None:  # empty, or comments only: keep them above what is added
        head, data = (text.rstrip("\n") + "\n") if text.strip() else "", CommentedMap()
    change(data)
    out = io.StringIO()
    rt.dump(data, out)
    result = head + out.getvalue()
    return bom + (result.replace("\n", "\r\n") if crlf else result)


def _check_edit(text: str, new: dict[str, str], new_key: str | None, name: str, seed: str | None = None) -> None:
    """Read the edited text back: it must hold the new values, or it is not written."""
    data = yaml.safe_load(text) or {}
    table = {str(k).lower(): v for k, v in (data.get("passphrases") or {}).items()}
    if any(table.get(power.lower()) != phrase for power, phrase in new.items()) or (
            new_key and data.get("page_key") != new_key) or (seed and data.get("seed") != seed):
        raise GameError([Problem(name, None, "editing the file in place went wrong; it is left as it was",
                                 "move it away and run the command again to make a new one", code="edit-failed")])


def _like(old, new: str):
    """`new` quoted as `old` was: in single quotes if it was, else in double quotes."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

    return (SingleQuotedScalarString if isinstance(old, SingleQuotedScalarString) else DoubleQuotedScalarString)(new)


def _append(mapping, key, value) -> None:
    """Add `key` at the end of a round-trip mapping, before the comments that follow its last
    entry (they belong to what comes after it), not below them."""
    from ruamel.yaml.tokens import CommentToken

    last = next(reversed(mapping), None) if mapping else None
    mapping[key] = value
    slots = mapping.ca.items.get(last) if last is not None else None
    token = slots[2] if slots and len(slots) > 2 else None
    if slots is None or not isinstance(token, CommentToken) or "\n" not in token.value:
        return
    own, _, after = token.value.partition("\n")  # `own`: the comment at the end of the last entry's line
    if not after:
        return
    token.value = own + "\n"
    if not own:
        slots[2] = None
    mapping.ca.items[key] = [None, None, CommentToken("\n" + after, token.start_mark, None), None]


def _indents(text: str) -> tuple[int, int, int]:
    """The file's indentation as ruamel.yaml's indent() takes it: of nested mappings, of block
    sequences, and of the dash within a sequence's indentation (2, 2, 0 when there is nothing nested)."""
    mapping = sequence = offset = None
    previous = None  # (indent, is a key with nothing after the colon)
    for line in text.splitlines():
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        if previous and previous[1] and indent > previous[0]:
            step = indent - previous[0]
            if body.startswith("- "):
                if sequence is None:
                    dash = len(body) - len(body[1:].lstrip(" "))  # the dash and the spaces after it
                    offset, sequence = step, step + dash
            elif mapping is None:
                mapping = step
        previous = (indent, bool(re.match(r"[^#]*:\s*(#.*)?$", body)) and not body.startswith("- "))
    mapping = mapping or 2
    return mapping, sequence or mapping, offset or 0


def _write_private(path: Path, text: str) -> None:
    """Write the file readable by its owner only, replacing the old one in one step."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
