"""The boards dipgen ships (``dipgen/data/<name>.yml``, with their spellings in
``<name>.aliases.yml``), read and built into `dipgen.core.board.Board` values, once per process.

The file is read through a compiled copy kept beside it (`board_data`), as Python keeps a
module's bytecode, so that a start needs no YAML parser.
"""

from __future__ import annotations

import marshal
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

from dipgen.core.board import Board, build_board


def shipped_boards() -> tuple[str, ...]:
    """The names of the boards dipgen ships, sorted (``dipgen/data/<name>.yml``, spellings aside)."""
    from importlib import resources

    return tuple(sorted(f.name.removesuffix(".yml") for f in (resources.files("dipgen") / "data").iterdir()
                        if f.name.endswith(".yml") and not f.name.endswith(".aliases.yml")))


@cache
def load_board(name: str = "standard") -> Board:
    """The board called `name`, from ``dipgen/data/<name>.yml``."""
    path = Path(__file__).resolve().parent.parent / "data" / f"{name}.yml"  # dipgen/data/
    aliases = path.with_name(f"{name}.aliases.yml")
    if path.is_file():  # the usual install; importlib.resources costs more to import
        return build_board({**board_data(path), "alias_lists": board_data(aliases) if aliases.is_file() else {}})
    from importlib import resources

    folder = resources.files("dipgen") / "data"
    data = _parse((folder / f"{name}.yml").read_text(encoding="utf-8"))
    if (folder / aliases.name).is_file():
        data["alias_lists"] = _parse((folder / aliases.name).read_text(encoding="utf-8"))
    return build_board(data)


def _parse(text: str) -> dict[str, Any]:
    import yaml  # here, not above: a board read from its compiled copy needs no YAML parser

    # libyaml's parser, when PyYAML has it, reads the board in a seventh of the time
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not isinstance(data, dict):
        raise ValueError(f"a board file holds a mapping (name, powers, provinces, ...), not {type(data).__name__}")
    return data


def board_data(path: Path) -> dict[str, Any]:
    """The data of the board file at `path`, read through a compiled copy kept beside it, as
    Python keeps a module's bytecode: ``__pycache__/<name>.<python>.marshal``, made again
    whenever the file's size or modification time differs from the copy's. Reading the copy
    saves importing and running the YAML parser on every start. Where the folder cannot be
    written (a read-only install), or Python writes no bytecode, the file is parsed each time."""
    st = path.stat()
    stamp = (st.st_mtime_ns, st.st_size)
    copy = path.parent / "__pycache__" / f"{path.stem}.{sys.implementation.cache_tag}.marshal"
    try:
        saved, data = marshal.loads(copy.read_bytes())
        if saved == stamp and isinstance(data, dict):
            return data
    except (OSError, ValueError, EOFError, TypeError):
        pass  # no copy yet, or not a readable one: parse the file
    data = _parse(path.read_text(encoding="utf-8"))
    if not sys.dont_write_bytecode:
        tmp = copy.with_name(f"{copy.name}.{os.getpid()}.tmp")
        try:
            copy.parent.mkdir(exist_ok=True)
            tmp.write_bytes(marshal.dumps((stamp, data)))
            os.replace(tmp, copy)  # whole or not at all, for a process reading it at the same time
        except (OSError, ValueError):  # not writable, or data marshal cannot keep: parse next time too
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
    return data
