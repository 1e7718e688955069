"""A census of the test suite as specifications: how many asserts compare a message's words rather
than its code, how many chain several facts with ``and`` (so that a failure does not say which
failed), and which docstrings name a file that is not there.

    python tests/support/census.py [--list]

A test should say what went wrong by a code (`dipgen.core.errors.ERROR_CODES`, the warnings'
`dipgen.io.acknowledge.WARNING_CODES`) or a typed note (`dipgen.core.results`); a message's words
are tested once, where the message is made. The census finds the other asserts by their shape, not
by reading them: an assert that compares a text literal (``==``, ``in``, ``not in``, ``startswith``)
with a message, a hint, a note's ``why``, the text of an exception (``str(e.value)``,
``pytest.raises(match=...)``), a log record, or what a command wrote to stderr. A literal that is a
code does not count, nor one that says only where a message is and what kind (``secrets.yml``,
``1901-spring.yml:4: error:``). Of the tests with such an assert, it counts apart those that
compare no code nor typed note at all: there the words stand in for them; elsewhere they are a
message's words tested beside its code. `--list` prints each such assert and each chained one,
with its file and line, and those tests.

It reads the asserts only: a helper that picks a message by its words, called with the words as
arguments, is not seen (test_inputs's ``error`` now takes the code first).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: attributes that hold a message's words: a Problem's message and hint, a Note's why
MESSAGE_ATTRS = {"message", "hint", "why", "stderr", "err"}
#: names the tests give the words of a message or of stderr
MESSAGE_NAMES = {"err", "stderr", "message", "hint", "why", "logged"}
#: methods whose result is a message's words (a log record's)
MESSAGE_CALLS = {"getMessage"}
#: a path a docstring may name: a folder or two, a name, a known extension
PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:py|ya?ml|md|txt|json|toml|cfg|html|svg|css|js))\b")
#: a message's place and kind as dipgen prints them before its words: file, line, severity
WHERE = re.compile(r"(?:(?:[\w.-]+/)*[\w.-]+\.(?:ya?ml|md|eml|txt))?(?::\d+)?(?::? ?(?:error|warning|note):?)?")
#: a dotted name in backticks a docstring may name: `dipgen.io.folders`, `Rules.intake`
DOTTED = re.compile(r"`([A-Za-z_]\w*(?:\.\w+)+)`")
#: files a build or a command writes, which docstrings name but the repository does not hold
WRITTEN = {"chain.json", "draws.json", "sheet.json"}


def _codes() -> set[str]:
    from dipgen.core.errors import ERROR_CODES
    from dipgen.io.acknowledge import WARNING_CODES
    return set(ERROR_CODES) | set(WARNING_CODES)


def _is_message(node: ast.AST) -> bool:
    """Whether `node` is a message's words, as the tests write it: ``p.message``, ``err``,
    ``str(e.value)``, ``capsys.readouterr().err``, ``r.getMessage()``, ``x.message.lower()``..."""
    while True:
        if isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and node.func.attr in {"lower", "upper", "strip", "casefold"}:
            node = node.func.value
        else:
            break
    if isinstance(node, ast.Attribute):
        return node.attr in MESSAGE_ATTRS
    if isinstance(node, ast.Name):
        return node.id in MESSAGE_NAMES
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in MESSAGE_CALLS:
            return True
        if isinstance(f, ast.Name) and f.id == "str" and len(node.args) == 1:
            arg = node.args[0]  # str(e.value), str(e), str(problem)
            return (isinstance(arg, ast.Attribute) and arg.attr == "value") or \
                (isinstance(arg, ast.Name) and arg.id in {"e", "exc", "error", "p", "w", "problem"})
    return False


def _words(node: ast.AST, codes: set[str]) -> bool:
    """Whether `node` is a text literal (or an f-string) with a letter in it that is not a code, as
    it is or as printed (``[second-order]``), nor "Traceback", Python's word, which a test looks for
    to say that no error escaped. An f-string counts unless its own text is brackets (``f"[{code}]"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.strip()
        return text.strip("[]") not in codes | {"Traceback"} and not _where(text) and any(c.isalpha() for c in text)
    if isinstance(node, ast.JoinedStr):
        return any(_words(v, codes) for v in node.values if isinstance(v, ast.Constant))
    return False


def _where(text: str) -> bool:
    """Whether `text` is where a message is and what kind, not its words: a file, its line, the
    severity (``secrets.yml``, ``1901-spring.yml:4: error:``, ``: warning:``)."""
    return bool(WHERE.fullmatch(text))


def _compares_words(test: ast.AST, codes: set[str]) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_message(s) for s in sides) and any(_words(s, codes) for s in sides):
                return True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in {"startswith", "endswith", "count", "index", "find"}:
            if _is_message(node.func.value) and any(_words(a, codes) for a in node.args):
                return True
    return False


def _raises_match(node: ast.AST, codes: set[str]) -> bool:
    """``pytest.raises(..., match="words")``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "raises" \
        and any(k.arg == "match" and _words(k.value, codes) for k in node.keywords)


@dataclass
class Census:
    asserts: int = 0
    chained: list[str] = field(default_factory=list)
    worded: list[str] = field(default_factory=list)
    worded_tests: set[str] = field(default_factory=set)
    #: of those, the tests that compare no code nor typed note at all: the words stand in for them
    uncoded_tests: set[str] = field(default_factory=set)
    stale: list[str] = field(default_factory=list)


def _compares_code(function: ast.AST, codes: set[str]) -> bool:
    """Whether `function` names a code or a typed note anywhere (``p.code``, ``"second-order"``,
    ``"[no-unit]"``, ``note.reason``, ``note.kind``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and node.attr in ("code", "reason", "kind"):
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip().strip("[]") in codes:
            return True
    return False


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node


def count(paths: list[Path], codes: set[str]) -> Census:
    out = Census()
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        functions = dict(_functions(tree))
        owner = {id(n): fn for fn, f in functions.items() for n in ast.walk(f)}  # the innermost wins (walk order)
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Assert):
                out.asserts += 1
                if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And):
                    out.chained.append(where)
                if _compares_words(node.test, codes):
                    out.worded.append(where)
                    _worded_test(out, name, owner.get(id(node), ""), functions, codes)
            elif _raises_match(node, codes):
                out.worded.append(where)
                _worded_test(out, name, owner.get(id(node), ""), functions, codes)
        out.stale += [f"{name}: {p}" for p in stale_paths(tree)]
    return out


def _worded_test(out: Census, module: str, function: str, functions: dict[str, ast.AST], codes: set[str]) -> None:
    out.worded_tests.add(f"{module}::{function}")
    if function not in functions or not _compares_code(functions[function], codes):
        out.uncoded_tests.add(f"{module}::{function}")


def stale_paths(tree: ast.Module) -> list[str]:
    """The paths the docstrings of `tree` name that are nowhere in the repository (by their path
    from the root, from tests/ or dipgen/, or, for a bare name, anywhere)."""
    names: list[str] = []
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))]
    for node in nodes:
        doc = ast.get_docstring(node, clean=False) or ""
        names += [m for m in PATH.findall(doc) if m not in WRITTEN and not _exists(m)]
        names += [m for m in DOTTED.findall(doc) if not PATH.fullmatch(m) and not _resolves(m, tree)]
    return sorted(set(names))


def _resolves(dotted: str, tree: ast.Module) -> bool:
    """Whether `dotted` names a module of dipgen, tools or tests, or something in one (as an attribute,
    or a field its class declares), written in full or from a name the module `tree` imports."""
    imported = {a.asname or a.name: f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                for a in n.names if n.module}
    head, _, rest = dotted.partition(".")
    full = f"{imported[head]}.{rest}" if head in imported else dotted
    for prefix in ("", "dipgen.", "tests.", "tests.support."):
        parts = (prefix + full).split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for name in parts[i:]:
                fields = getattr(obj, "__annotations__", {}) if isinstance(obj, type) else {}
                if not hasattr(obj, name) and name not in fields:
                    break
                obj = getattr(obj, name, None)
            else:
                return True
            break
    return False


def _exists(name: str) -> bool:
    if any((base / name).exists() for base in (ROOT, ROOT / "tests", ROOT / "dipgen", ROOT / "tests" / "support")):
        return True
    if "/" in name:
        return any(p for p in ROOT.glob(f"**/{name}") if ".venv" not in p.parts)
    return bool(_all_names() & {name})


_NAMES: set[str] = set()


def _all_names() -> set[str]:
    if not _NAMES:
        _NAMES.update(p.name for p in ROOT.rglob("*") if ".venv" not in p.parts and ".git" not in p.parts)
    return _NAMES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list each assert counted, with its file and line")
    args = parser.parse_args(argv)
    if str(ROOT) not in sys.path:  # run as a script: the docstrings name tests.support's modules
        sys.path.insert(0, str(ROOT))
    tests = sorted((ROOT / "tests").glob("test_*.py"))
    c = count(tests, _codes())
    print(f"{len(tests)} test modules, {c.asserts} asserts")
    print(f"asserts chaining facts with 'and': {len(c.chained)}")
    print(f"asserts on a message's words: {len(c.worded)}, in {len(c.worded_tests)} test functions, "
          f"{len(c.uncoded_tests)} of which compare no code nor typed note")
    print(f"names in docstrings of files or of code that are not there: {len(c.stale)}")
    if args.list:
        for title, rows in (("chained", c.chained), ("words", c.worded), ("no code", sorted(c.uncoded_tests)),
                            ("stale", c.stale)):
            print(f"\n{title}:", *rows, sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
