"""secrets.yml's ``addresses:``: each player's e-mail addresses, by her name as ``players:`` writes it.

    addresses:
      Alice: alice@example.org
      Bob: [bob@example.org, bob.at.work@example.com]

The table is secret (it is in secrets.yml, never published, never committed): `dipgen mail`
sends each player her report to every address she has, and the orders read by mail are matched
to their writer by it. Each address is a bare ``local@domain`` (no display name, no comment):
anything else, a name that is no player of the game, or an address given twice (to two players,
or twice to one) is an error naming the file and the line, with the fix.

`Addresses` is what the rest of dipgen reads: player -> her addresses, and the player of an
address (`player_of`, case aside).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from dipgen.core.errors import Problem
from dipgen.core.names import did_you_mean
from dipgen.io.yamlfile import kind_of, line_of

EXAMPLE = "e.g.\n      addresses:\n        Alice: alice@example.org\n        Bob: [bob@example.org, bob@example.com]"
#: RFC 5321's limit on an address's length
MAX_ADDRESS = 254
#: addresses a player may have (more is a mistake in the file, not a player)
MAX_PER_PLAYER = 10
#: the local part as a dot-atom (RFC 5322: no quoted strings, no comments) and a domain of
#: letters, digits and hyphens in labels of at most 63, with at least one dot (a bare host name
#: is no address a mail server outside this machine delivers to)
_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ADDRESS = re.compile(rf"({_LOCAL})@((?:{_LABEL}\.)+{_LABEL})")
#: domains reserved for examples (RFC 2606, RFC 6761): nobody receives mail there
EXAMPLE_DOMAINS = ("example.com", "example.org", "example.net", "test", "invalid", "example", "localhost")


@dataclass(frozen=True)
class Addresses(Mapping[str, tuple[str, ...]]):
    """player name -> her addresses, as secrets.yml writes them, in its order; `lines`: the line of each player."""

    table: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    lines: Mapping[str, int | None] = field(default_factory=dict)

    def __getitem__(self, player: str) -> tuple[str, ...]:
        return self.table[player]

    def __iter__(self) -> Iterator[str]:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)

    def player_of(self, address: str) -> str | None:
        """Whose address this is (case aside, as mail servers compare them); None: nobody's."""
        wanted = address.strip().lower()
        return next((p for p, mine in self.table.items() if wanted in (a.lower() for a in mine)), None)

    def __repr__(self) -> str:  # never print an address by accident (logs, tracebacks)
        return f"Addresses(players={sorted(self.table)})"


def address_problem(text: str) -> str:
    """What is wrong with `text` as an e-mail address, in words; '' if nothing."""
    if len(text) > MAX_ADDRESS:
        return f"is longer than an address can be ({MAX_ADDRESS} characters)"
    if any(c.isspace() or ord(c) < 32 or c in "<>\"(),;:[]\\" for c in text):
        return "is not a bare address: write only local@domain, without a name, brackets, spaces or commas"
    if text.count("@") != 1:
        return "is not an e-mail address (it needs one @ between the name and the domain)"
    if _ADDRESS.fullmatch(text) is None:
        return "is not an e-mail address dipgen can send to (local@domain.tld, in plain ASCII letters)"
    return ""


def example_only(addresses: Addresses) -> bool:
    """Are all the addresses at domains reserved for examples (a demonstration game's)?"""
    return all(a.rsplit("@", 1)[1].lower().endswith(EXAMPLE_DOMAINS) for mine in addresses.values() for a in mine)


def read_addresses(data: dict, file: str, players: list[str] | None, problems: list[Problem]) -> Addresses:
    """secrets.yml's ``addresses:`` checked against the names of `players` (None: not known, because
    game.yml has errors: any name is taken)."""
    raw = data.get("addresses")
    if raw is None:
        return Addresses()
    if not isinstance(raw, dict):
        problems.append(Problem(file, line_of(data, "addresses"), f"addresses must map each player's name to her "
                                f"address(es), not {kind_of(raw)}", EXAMPLE, code="bad-value"))
        return Addresses()
    names = list(players) if players is not None else [str(k) for k in raw]
    by_lower = {n.lower(): n for n in names}
    table: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int | None] = {}
    seen: dict[str, tuple[str, int | None]] = {}  # address, lower-case -> (player, line)
    for key, value in raw.items():
        line = line_of(raw, key)
        player = by_lower.get(str(key).lower()) if isinstance(key, str) else None
        if player is None:
            problems.append(Problem(file, line, f"{str(key)[:60]!r} is not a player of this game (addresses are "
                                    "keyed by the players' names, as players: in game.yml writes them)",
                                    did_you_mean(str(key), names).strip() or f"players: {', '.join(names)}",
                                    code="unknown-player"))
            continue
        if player in table:
            problems.append(Problem(file, line, f"two entries for {player} (line {lines[player]})",
                                    f"keep one, listing all her addresses: {player}: [one@example.org, "
                                    "two@example.org]", code="duplicate-writer"))
            continue
        mine = _player_addresses(value, raw, key, line, file, player, seen, problems)
        if mine:
            table[player], lines[player] = mine, line
    return Addresses(table, lines)


def _player_addresses(value, raw: dict, key, line: int | None, file: str, player: str,
                      seen: dict[str, tuple[str, int | None]], problems: list[Problem]) -> tuple[str, ...]:
    """One player's entry: an address or a list of them, each checked, and none given before."""
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if not items or len(items) > MAX_PER_PLAYER:
        what = (kind_of(value) if items is None else "an empty list" if not items
                else f"{len(items)} addresses (at most {MAX_PER_PLAYER})")
        problems.append(Problem(file, line, f"{player}'s addresses must be an address or a list of them, not {what}",
                                EXAMPLE, code="bad-address"))
        return ()
    out = []
    for i, item in enumerate(items):
        where = line_of(items, i) or line_of(item) or line
        if not isinstance(item, str):
            problems.append(Problem(file, where, f"{player}'s address must be text, not {kind_of(item)}", EXAMPLE,
                                    code="bad-address"))
            continue
        text = item.strip()
        wrong = address_problem(text)
        if wrong:
            problems.append(Problem(file, where, f"{player}'s address {text[:80]!r} {wrong}",
                                    "e.g. alice@example.org (put it in quotes if YAML reads it otherwise)",
                                    code="bad-address"))
            continue
        first = seen.get(text.lower())
        if first is not None:
            what = (f"{text!r} is listed twice for {player}" if first[0] == player else
                    f"{player}'s address {text!r} is {first[0]}'s too: mail to it would reach both, and orders "
                    "from it could be either's")
            problems.append(Problem(file, where, f"{what} (first on line {first[1]})",
                                    "give each address to one player only, once", code="duplicate-address"))
            continue
        seen[text.lower()] = (player, where)
        out.append(text)
    return tuple(out)
