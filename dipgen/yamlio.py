"""Read YAML keeping line numbers, so that every error can name the line it is about."""

from __future__ import annotations

from pathlib import Path

import yaml

from .errors import GameError, Problem, display_path


class Text(str):
    """A string from a YAML file that remembers its line (1-based)."""

    line: int = 0


class Key(Text):
    pass


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml when present: much faster
    pass


class _SlowLoader(yaml.SafeLoader):
    """The pure-Python loader: its error messages say more (it names a tab), so broken files
    are read again with it to explain what is wrong."""


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> Text:
    value = Text(loader.construct_scalar(node))
    value.line = node.start_mark.line + 1
    if node.style in ("|", ">"):
        value.line += 1  # a block scalar's text starts on the next line
    return value


class _Mapping(dict):
    line: int = 0
    key_lines: dict


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> _Mapping:
    loader.flatten_mapping(node)
    out = _Mapping()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, list):
            key = tuple(key)
        if key in out:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} appears twice", key_node.start_mark)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


class _List(list):
    line: int = 0


def _construct_seq(loader: _Loader, node: yaml.SequenceNode) -> _List:
    out = _List(loader.construct_object(n, deep=True) for n in node.value)
    out.line = node.start_mark.line + 1
    return out


for _cls in (_Loader, _SlowLoader):
    _cls.add_constructor("tag:yaml.org,2002:str", _construct_str)
    _cls.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
    _cls.add_constructor("tag:yaml.org,2002:seq", _construct_seq)


def line_of(value, key=None) -> int | None:
    """The line of a value read by `load`, or of `key` inside a mapping."""
    if key is not None and isinstance(value, _Mapping):
        return value.key_lines.get(key)
    return getattr(value, "line", None) or None


def unknown_keys(data: dict, allowed, file: str, where: str = "", hint: str = "") -> list[Problem]:
    """A problem for each key of `data` not in `allowed`, naming its line, with the closest
    known key (or `hint`, or the list of known keys) as the fix."""
    from .names import did_you_mean

    return [Problem(file, line_of(data, key), f"unknown key {key!r}" + (f" {where}" if where else ""),
                    did_you_mean(str(key), allowed).strip() or hint or f"known keys: {', '.join(sorted(allowed))}")
            for key in data if key not in allowed]


def load(path: Path) -> object:
    """Parse a YAML file; broken YAML becomes a GameError naming file and line."""
    name = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise GameError([Problem(name, None, f"not UTF-8 text ({e.reason})", "save the file as UTF-8")])
    except OSError as e:
        raise GameError([Problem(name, None, f"cannot read the file: {e.strerror}")])
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError:
        pass
    try:
        return yaml.load(text, Loader=_SlowLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        what = e.problem or str(e)
        hint = "check the indentation and quoting around this line"
        if "found character '\\t'" in str(e):
            hint = "YAML does not allow tabs for indentation: use spaces"
        elif ":" in what or "mapping values" in what:
            hint = "an order containing ': ' must be quoted, e.g. - \"A Par - Bur\""
        raise GameError([Problem(name, line, f"broken YAML: {what}", hint)])
    except yaml.YAMLError as e:
        raise GameError([Problem(name, None, f"broken YAML: {e}")])
