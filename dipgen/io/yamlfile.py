"""Read YAML keeping line numbers, so that every error can name the line it is about."""

from __future__ import annotations

import datetime
import errno
import os
import re
import stat
from pathlib import Path

import yaml
from yaml.composer import Composer

from dipgen.core.errors import GameError, Problem

from dipgen.io.paths import display_path


class Text(str):
    """A string from a YAML file that remembers its line (1-based)."""

    line: int = 0


#: The largest game file dipgen reads. A long game's phase file is a few kB and a season's
#: press rarely 20 kB; anything near this is a mistake (or an attack), not a game.
MAX_BYTES = 256 * 1024
#: How deep values may nest. Game files need five levels (players > power > list > entry > name).
MAX_DEPTH = 20


class _Refused(yaml.MarkedYAMLError):
    """YAML that is well formed but that game files have no business holding."""

    def __init__(self, problem: str, mark, hint: str):
        super().__init__(None, None, problem, mark)
        self.hint = hint


#: How many refusals of one file are listed (a hostile file may hold thousands of them)
MAX_REFUSALS = 20
#: A lone surrogate: what a YAML escape such as "\ud800" makes, and no UTF-8 text can hold
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Bounded(Composer):
    """Builds the document node by node, refusing anchors and aliases (a few hundred bytes of
    aliases expand to gigabytes) and nesting deeper than MAX_DEPTH (libyaml's own composer
    recurses in C and crashes on a file nested a hundred thousand levels deep).

    Refusals that leave the rest of the file readable (a key given twice, text that is not
    Unicode) are collected in `refused` while the file is read to its end, so that all of
    them are reported at once."""

    _depth = 0

    def refuse(self, mark, problem: str, hint: str) -> None:
        if not hasattr(self, "refused"):
            self.refused = []
        self.refused.append((mark.line + 1, problem, hint))

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or event.anchor is not None:
            raise _Refused("YAML anchors and aliases (&name, *name) are not allowed in game files",
                           event.start_mark, "write each value out in full; if an order or a text starts with "
                                             "'&' or '*', put it in quotes")
        if self._depth >= MAX_DEPTH:
            raise _Refused(f"values nested more than {MAX_DEPTH} levels deep", event.start_mark,
                           "game files need only a few levels: check the brackets and the indentation")
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError):
            what = {"tag:yaml.org,2002:timestamp": "this is not a real date",
                    "tag:yaml.org,2002:int": "this number cannot be read (too many digits?)"}
            raise _Refused(what.get(node.tag, f"this value cannot be read as {node.tag.rsplit(':', 1)[-1]}"),
                           node.start_mark, "put it in quotes if it is meant as text") from None


try:  # libyaml's loader, where PyYAML was built with it
    from yaml import CSafeLoader as _Fast
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml import SafeLoader as _Fast  # type: ignore[assignment]  # the same interface, in Python


class _Loader(_Bounded, _Fast):
    """libyaml's parser (when present: much faster), with the composer above."""

    def __init__(self, stream):
        _Fast.__init__(self, stream)
        Composer.__init__(self)


class _SlowLoader(_Bounded, yaml.SafeLoader):
    """The pure-Python loader: its error messages say more (it names a tab), so broken files
    are read again with it to explain what is wrong."""


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> Text:
    text = loader.construct_scalar(node)
    if _SURROGATE.search(text):  # refused here, so that nothing downstream meets text it cannot write
        try:  # a pair, as JSON writes a character outside the basic plane ("\ud83d\ude00"), is that character
            text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            lone = re.search("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]", text)
            loader.refuse(node.start_mark, "this text holds a character that does not exist (a lone surrogate, "
                          f"\\u{ord(lone.group()) if lone else 0xFFFD:04x}): it cannot be written as UTF-8",
                          "delete that \\u escape, or write the character itself")
            text = _SURROGATE.sub("\ufffd", text)
    value = Text(text)
    value.line = node.start_mark.line + 1
    if node.style in ("|", ">"):
        value.line += 1  # a block scalar's text starts on the next line
    return value


class Signed(int):
    """A whole number written with its sign (``+2``, ``-1``), where a file must say which way a
    number goes (the TIR's diplomacy points): YAML reads ``2`` and ``+2`` as the same int."""


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    value = loader.construct_yaml_int(node)
    return Signed(value) if node.value.lstrip().startswith(("+", "-")) else value


class _Mapping(dict):
    line: int = 0
    key_lines: dict


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> _Mapping:
    loader.flatten_mapping(node)
    out = _Mapping()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise _Refused("a key must be a name, not a list or a mapping", key_node.start_mark,
                           "an order containing ': ' or starting with '?' must be quoted, e.g. - \"A Par - Bur\"")
        key = loader.construct_object(key_node, deep=True)
        if key in out:
            loader.refuse(key_node.start_mark, f"the key {_label(key)} appears twice (first on line "
                          f"{out.key_lines[key]})", "keep one: merge the two, or delete one")
            continue
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


class _List(list):
    line: int = 0
    item_lines: list


def _construct_seq(loader: _Loader, node: yaml.SequenceNode) -> _List:
    out = _List(loader.construct_object(n, deep=True) for n in node.value)
    out.line = node.start_mark.line + 1
    out.item_lines = [n.start_mark.line + 1 for n in node.value]  # an empty item (None) has no line of its own
    return out


for _cls in (_Loader, _SlowLoader):
    _cls.add_constructor("tag:yaml.org,2002:str", _construct_str)
    _cls.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
    _cls.add_constructor("tag:yaml.org,2002:seq", _construct_seq)
    _cls.add_constructor("tag:yaml.org,2002:int", _construct_int)


def line_of(value, key=None) -> int | None:
    """The line of a value read by `load`, or of `key` inside a mapping, or of the item at
    index `key` inside a list."""
    if key is not None and isinstance(value, _Mapping):
        return value.key_lines.get(key)
    if isinstance(key, int) and isinstance(value, _List) and 0 <= key < len(value.item_lines):
        return value.item_lines[key]
    return getattr(value, "line", None) or None


def unknown_keys(data: dict, allowed, file: str, where: str = "", hint: str = "") -> list[Problem]:
    """A problem for each key of `data` not in `allowed`, naming its line, with the closest
    known key (or `hint`, or the list of known keys) as the fix."""
    from dipgen.core.names import did_you_mean

    return [Problem(file, line_of(data, key), f"unknown key {_label(key)}" + (f" {where}" if where else ""),
                    (did_you_mean(key, allowed).strip() if isinstance(key, str) else "")
                    or hint or f"known keys: {', '.join(sorted(allowed))}", code="unknown-key")
            for key in data if key not in allowed]


def _label(key) -> str:
    """A mapping key as a message shows it: quoted text, or what kind of value it is."""
    return repr(str(key)) if isinstance(key, str) else f"({kind_of(key)})"


_NOT_REGULAR = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def _not_regular(mode: int) -> str:
    """What a file that is not a regular file is, in words; '' for a regular file."""
    if stat.S_ISREG(mode):
        return ""
    return next((what for test, what in _NOT_REGULAR if test(mode)), "not a regular file")


def read_text(path: Path, limit: int = MAX_BYTES, what: str = "game files") -> str:
    """A file's text: only a regular file (a FIFO would block every command, a device would be
    read without end), at most `limit` bytes, in UTF-8. Anything else is a GameError naming the
    file (as written: a link by its own name) and saying that it is not one of `what`."""
    return decode(read_bytes(path, limit, what), display_path(path))


def read_bytes(path: Path, limit: int = MAX_BYTES, what: str = "game files") -> bytes:
    """A file's bytes, exactly as they are on disk, with `read_text`'s checks but the encoding."""
    name = display_path(path)
    try:
        # stat first, so that nothing but a regular file is ever opened; O_NONBLOCK in case
        # the path becomes a FIFO in between (open would wait for a writer)
        kind = _not_regular(os.stat(path).st_mode)
        if not kind:
            with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as f:
                kind = _not_regular(os.fstat(f.fileno()).st_mode)
                data = b"" if kind else f.read(limit + 1)
    except OSError as e:
        raise GameError([_unreadable(path, name, e)]) from None
    if kind:
        target = f" (a link to {os.readlink(path)})" if os.path.islink(path) else ""
        raise GameError([Problem(name, None, f"this is {kind}{target}, not a file",
                                 f"{what} are plain text files: remove it, or put the file in its place",
                                 code="not-a-file")])
    if len(data) > limit:
        size = f"{limit // 1024} KiB" if limit < 1 << 20 else f"{limit >> 20} MiB"
        raise GameError([Problem(name, None, f"the file is larger than {size}, the limit for {what}",
                                 "a phase file is a few kB, a secrets.yml a few hundred bytes; is this the right file?",
                                 code="too-large")])
    return data


def decode(data: bytes, name: str) -> str:
    """The UTF-8 text of the bytes read from the file `name`; GameError if they are not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise GameError([Problem(name, None, f"not UTF-8 text ({e.reason})", "save the file as UTF-8",
                                 code="not-utf8")]) from None


def _unreadable(path: Path, name: str, e: OSError) -> Problem:
    """Why a file cannot be opened, in words; a broken link is said to be one."""
    if e.errno == errno.ELOOP:
        return Problem(name, None, "a link that leads back to itself (a loop of links)",
                       "replace the link with the file itself", code="link-loop")
    if e.errno == errno.ENOENT and os.path.islink(path):
        return Problem(name, None, f"a link to {os.readlink(path)}, which does not exist",
                       "replace the link with the file itself, or delete it", code="broken-link")
    return Problem(name, None, f"cannot read the file: {e.strerror}", code="unreadable")


def link_out(folder: Path, file: Path) -> str | None:
    """Where `file` leads, if it is a link to somewhere outside `folder` (the link as written);
    None if it is no link or stays inside (a loop is left for `read_text` to name)."""
    if not os.path.islink(file):
        return None
    try:
        Path(file).resolve().relative_to(Path(folder).resolve())
    except ValueError:
        return os.readlink(file)
    except (OSError, RuntimeError):
        return None
    return None


def load(path: Path, limit: int = MAX_BYTES, what: str = "game files") -> object:
    """Parse a YAML file (`read_text`'s limits); broken YAML, and YAML that no game file needs
    (anchors, deep nesting, complex keys, unreadable dates, a key twice, text that is not
    Unicode), become a GameError naming file and line: every such refusal the file holds, when
    the rest of it can still be read."""
    return parse(read_text(path, limit, what), display_path(path))


def parse(text: str, name: str) -> object:
    """`load` for text already read from the file `name`."""
    for loader_class in (_Loader, _SlowLoader):  # the slow one only to explain broken YAML
        loader = None
        try:
            loader = loader_class(text)  # the pure-Python reader refuses some characters at once
            data = loader.get_single_data()
        except _Refused as e:
            raise GameError([Problem(name, e.problem_mark.line + 1 if e.problem_mark else None,
                                     e.problem or "broken YAML", e.hint, code="broken-yaml")]) from None
        except yaml.MarkedYAMLError as e:
            if loader_class is _Loader:
                continue
            mark = e.problem_mark or e.context_mark
            line = mark.line + 1 if mark else None
            what = e.problem or str(e)
            hint = "check the indentation and quoting around this line"
            if "found character '\\t'" in str(e):
                hint = "YAML does not allow tabs for indentation: use spaces"
            elif ":" in what or "mapping values" in what:
                hint = "an order containing ': ' must be quoted, e.g. - \"A Par - Bur\""
            raise GameError([Problem(name, line, f"broken YAML: {what}", hint, code="broken-yaml")]) from None
        except yaml.YAMLError as e:
            if loader_class is _Loader:
                continue
            raise GameError([Problem(name, None, f"broken YAML: {e}", code="broken-yaml")]) from None
        finally:
            if loader is not None:
                loader.dispose()
        refused = getattr(loader, "refused", [])
        if refused:
            problems = [Problem(name, line, problem, hint,
                                code="broken-yaml") for line, problem, hint in refused[:MAX_REFUSALS]]
            if len(refused) > MAX_REFUSALS:
                problems.append(Problem(name, refused[MAX_REFUSALS][0], f"and {len(refused) - MAX_REFUSALS} more "
                                        "problems like these from this line on", "fix the ones above first",
                                        code="broken-yaml"))
            raise GameError(problems)
        return data
    raise AssertionError("the slow loader either reads the text or raises")  # (unreachable)


def kind_of(value) -> str:
    """What a YAML value is, in words, for messages: never the value itself (str() of a YAML
    value may be Python's notation, or huge)."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return "a date"
    if isinstance(value, dict):
        return "a mapping (key: value)"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "binary data" if isinstance(value, bytes) else "a value of another kind"


def text_field(data: dict, key: str, file: str, problems: list[Problem], example: str = "...") -> str:
    """``data[key]`` as text: '' when absent or empty; a value of another type is a problem
    naming the line, the type expected and the fix (`example`: a value written right)."""
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value or ""  # a Text keeps its line, for the messages about its Markdown
    if isinstance(value, (dict, list)):
        hint = f"write one text; for several lines:\n      {key}: |\n        first line\n        second line"
    else:
        hint = f'put it in quotes, e.g. {key}: "{example}"'
    problems.append(Problem(file, line_of(data, key), f"{key} must be text, not {kind_of(value)}", hint,
                            code="bad-value"))
    return ""


def power_key(board, key, file: str, line: int | None, problems: list[Problem]) -> str | None:
    """The power a mapping key (or a list item) names, or None with a problem."""
    if not isinstance(key, str):
        problems.append(Problem(file, line, f"expected the name of a power here, not {kind_of(key)}",
                                f"powers: {', '.join(board.powers)}", code="unknown-power"))
        return None
    try:
        return board.power_name(key)
    except ValueError as e:
        problems.append(Problem(file, line, str(e), code="unknown-power"))
        return None


def by_power(board, mapping: dict, file: str, problems: list[Problem], where: str, hint: str):
    """(power, value, line of its key) for each key of a mapping of powers; a key that names no
    power, or a power named twice ("England" and "england"), is a problem."""
    seen: set[str] = set()
    for key, value in mapping.items():
        line = line_of(mapping, key)
        power = power_key(board, key, file, line, problems)
        if power in seen:
            problems.append(Problem(file, line, f"{power} appears twice {where}", hint, code="duplicate-power"))
        elif power is not None:
            seen.add(power)
            yield power, value, line
