"""Orders written into a phase file in place, with the round-trip YAML editor: every comment,
the key order, quoting and layout of what the GM wrote stay; each power's orders that a message
brings replace that power's (or that writer's) list, and a comment on its key says which message
they came from and when it was sent, so that the GM can answer a dispute. The file's bytes are
published as the game's record, so the comment names the message's file and its Date: only,
never an address. Written whole or not at all (a temporary file renamed over the old one)."""

from __future__ import annotations

import datetime as dt
import email.utils
import io
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from dipgen.core.errors import GameError, Problem

from dipgen.io.paths import display_path

#: the comment a key of orders carries: "from <message>, sent <Date:>"
_SOURCE = re.compile(r"from (?P<source>.+?)(?:, sent (?P<date>.+))?$")


@dataclass(frozen=True)
class Entry:
    """One list of orders to write: under `power` (and `writer`, where the variant keys orders
    per writer), from the message `source` sent at `date`."""

    power: str
    writer: str
    orders: tuple[str, ...]
    source: str
    date: dt.datetime | None = None

    @property
    def comment(self) -> str:
        sent = f", sent {email.utils.format_datetime(self.date)}" if self.date else ""
        return f"from {self.source}{sent}"


def sent_before(comment: str | None) -> dt.datetime | None:
    """When the message whose orders a key holds was sent, read back from its comment."""
    m = _SOURCE.search(comment or "")
    if m is None or not m.group("date"):
        return None
    try:
        return email.utils.parsedate_to_datetime(m.group("date").strip())
    except (TypeError, ValueError):
        return None


class _Plus(int):
    """An integer written with its sign (+2): the 2-player game's points must say for or against."""


def _editor():
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import RoundTripConstructor
    from ruamel.yaml.representer import RoundTripRepresenter

    class Constructor(RoundTripConstructor):
        pass

    class Representer(RoundTripRepresenter):
        pass

    def signed(constructor, node):
        value = constructor.construct_yaml_int(node)
        return _Plus(value) if str(node.value).strip().startswith("+") else value

    Constructor.add_constructor("tag:yaml.org,2002:int", signed)
    Representer.add_representer(_Plus, lambda r, d: r.represent_scalar("tag:yaml.org,2002:int", f"+{int(d)}"))
    rt = YAML()
    rt.Constructor, rt.Representer = Constructor, Representer
    rt.preserve_quotes = True
    rt.width = 1 << 20  # never fold a long line
    return rt


def edited_text(path: Path, form: str, entries: list[Entry], points: dict[str, dict[str, int]]) -> tuple[str, str]:
    """(the file's text now, its text with `entries` and `points` written in); the file may be missing."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    def change(data) -> None:
        if not data.get("orders"):
            data["orders"] = CommentedMap()
        table = data["orders"]
        for entry in entries:
            outer, inner = (entry.power, None) if form == "power" else \
                (entry.power, entry.writer) if form == "power/writer" else (entry.writer, entry.power)
            seq = CommentedSeq(entry.orders)
            if inner is None:
                _put(table, outer, seq, entry.comment)
                continue
            key = _key(table, outer)
            if key is None or not isinstance(table[key], dict):
                _put(table, outer, CommentedMap(), "")
                key = _key(table, outer)
            _put(table[key], inner, seq, entry.comment)
        if points:
            if not isinstance(data.get("dp"), dict):
                data["dp"] = CommentedMap()
            for writer, given in points.items():
                _put(data["dp"], writer, CommentedMap((k, _Plus(v) if v > 0 else v) for k, v in given.items()), "")

    return _round_trip(path, change)


def canonical_text(path: Path, canonical: Callable[[str], str]) -> tuple[str, str]:
    """(the file's text, its text with every order rewritten by `canonical`), comments kept: the
    items of each list, and each line of a block of orders (its comment after '#' kept too)."""
    from ruamel.yaml.scalarstring import LiteralScalarString

    def rewrite(value):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, str) and item.strip():
                    value[i] = canonical(item.strip())
            return value
        if isinstance(value, str):
            lines = []
            for line in value.splitlines():
                text, hash_, comment = line.partition("#")
                lines.append((canonical(text.strip()) + (" " if comment else "") if text.strip() else "")
                             + hash_ + comment)
            return LiteralScalarString("\n".join(lines) + "\n")
        if isinstance(value, dict):
            for key in value:
                value[key] = rewrite(value[key])
        return value

    def change(data) -> None:
        if isinstance(data.get("orders"), dict):
            rewrite(data["orders"])

    return _round_trip(path, change)


def _round_trip(path: Path, change: Callable[[Any], None]) -> tuple[str, str]:
    """(the file's text, its text after `change` edited its mapping in place), BOM and CRLF kept."""
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    from dipgen.io.secretsfile import _indents

    name = display_path(path)
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    bom = "\ufeff" if old.startswith("\ufeff") else ""
    crlf = "\r\n" in old
    text = old[len(bom):].replace("\r\n", "\n")
    rt = _editor()
    rt.explicit_start = text.startswith("---")
    mapping, sequence, offset = _indents(text) if text.strip() else (2, 4, 2)
    rt.indent(mapping=mapping, sequence=sequence, offset=offset)
    try:
        data = rt.load(text) if text.strip() else None
    except (YAMLError, ValueError, TypeError, RecursionError) as e:
        raise GameError([Problem(name, None, f"cannot edit the file in place: it is not YAML that dipgen reads "
                                 f"({type(e).__name__})", "run dipgen check on the game and fix it first",
                                 code="edit-failed")]) from e
    head = ""
    if data is None:
        head, data = (text.rstrip("\n") + "\n") if text.strip() else "", CommentedMap()
    if not isinstance(data, dict) or not isinstance(data.get("orders", {}) or {}, dict):
        raise GameError([Problem(name, None, "the file's orders are not a mapping of powers to orders",
                                 "run dipgen check on the game and fix it first", code="edit-failed")])
    change(data)
    out = io.StringIO()
    rt.dump(data, out)
    new = head + out.getvalue()
    _check(new, name)
    return old, bom + (new.replace("\n", "\r\n") if crlf else new)


def _key(mapping, name: str):
    """The key of `mapping` that is `name`, case aside (as the file reader takes it)."""
    return next((k for k in mapping if isinstance(k, str) and k.strip().casefold() == name.casefold()), None)


def _put(mapping, name: str, value, comment: str) -> None:
    key = _key(mapping, name)
    if key is None:
        mapping[name] = value
        key = name
    else:
        _keep_after(mapping[key], value)
        mapping[key] = value
    if comment:
        mapping.ca.items.pop(key, None)
        mapping.yaml_add_eol_comment(comment, key)


def _keep_after(old, new) -> None:
    """The comment lines that follow the old list (they belong to what comes after it, "# Germany
    sent nothing yet") follow the new one; the comments on the old orders' lines go with them."""
    from ruamel.yaml.tokens import CommentToken

    if not hasattr(old, "ca") or not hasattr(new, "ca") or not old or not new:
        return
    last = len(old) - 1 if isinstance(old, list) else list(old)[-1]
    slots = old.ca.items.get(last) or []
    token = next((t for t in slots if isinstance(t, CommentToken)), None)
    after = token.value.partition("\n")[2] if token is not None else ""
    if token is not None and after.strip():
        at = len(new) - 1 if isinstance(new, list) else list(new)[-1]
        new.ca.items[at] = [CommentToken("\n" + after, token.start_mark, None), None, None, None]


def comments(path: Path, form: str) -> dict[tuple[str, str], str]:
    """The comment on each key of orders in the file as it is: {(outer key, inner key or ''): text}."""
    if not path.exists():
        return {}
    try:
        data = _editor().load(path.read_text(encoding="utf-8"))
    except Exception:  # the file is checked when it is edited; here only its comments are wanted
        return {}
    table = data.get("orders") if isinstance(data, dict) else None
    out: dict[tuple[str, str], str] = {}
    if not isinstance(table, dict):
        return out
    for key in table:
        out[(str(key).casefold(), "")] = _comment(table, key)
        if form != "power" and isinstance(table[key], dict):
            for inner in table[key]:
                out[(str(key).casefold(), str(inner).casefold())] = _comment(table[key], inner)
    return out


def _comment(mapping, key) -> str:
    slots = mapping.ca.items.get(key) or []
    tokens = [t for t in slots if t is not None and hasattr(t, "value")]
    return " ".join(t.value.strip().lstrip("#").strip() for t in tokens).split("\n")[0]


def _check(text: str, name: str) -> None:
    """The edited text must read back as YAML with its orders, or nothing is written."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise GameError([Problem(name, None, "editing the file in place went wrong; it is left as it was",
                                 "write the orders by hand", code="edit-failed")]) from e
    if not isinstance(data, dict) or not isinstance(data.get("orders"), dict):
        raise GameError([Problem(name, None, "editing the file in place went wrong; it is left as it was",
                                 "write the orders by hand", code="edit-failed")])


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
