"""The tests' own house: what test modules share lives in the support package (tests/support/),
never in a test module; every game file a test writes goes through support's one writer
(`support.write_game`); every module that drives a browser is marked `browser` and `slow`.

Read from the source with `ast`, as tests/test_imports.py reads dipgen's.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: a path that names a game's file: game.yml, secrets.yml, a phase file (also as an f-string)
GAME_FILE = re.compile(r"""["'](game|secrets)\.yml["']|\d{4}-(spring|fall|winter)[\w-]*\.yml|\{[^}]*\}\.yml["']""")
WRITES = {"write_text", "write_bytes"}


def _test_modules() -> list[Path]:
    return sorted(TESTS.glob("test_*.py"))


def imported(tree: ast.AST) -> set[str]:
    """Every module `tree` imports, anywhere in it (a relative import is support's own)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            out.add(node.module or "")
    return out


def test_no_test_module_imports_another():
    """A helper two modules share moves to support/, so that no test module is imported as a library
    (and run twice, or half-collected, when it is)."""
    local = {p.stem for p in TESTS.glob("*.py")}  # the test modules and conftest
    for path in _test_modules() + sorted((TESTS / "support").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not {m for m in imported(tree) if m.split(".")[0] in local}, path.name


def game_file_writes(source: str) -> list[int]:
    """The lines of `source` that write a game's file by hand: ``write_text``, ``write_bytes`` or
    ``open(..., "w" or "a")`` on a path naming a game file, directly or through a name assigned it."""
    tree = ast.parse(source)
    named: dict[str, ast.expr] = {}  # a local name -> what was last assigned to it
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            named[node.targets[0].id] = node.value
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if node.func.attr in WRITES:
            target = node.func.value
        elif node.func.attr == "open" and any(isinstance(a, ast.Constant) and str(a.value)[:1] in "wa"
                                              for a in node.args):
            target = node.func.value
        else:
            continue
        if isinstance(target, ast.Name):
            target = named.get(target.id, target)
        if GAME_FILE.search(ast.unparse(target)):
            found.append(node.lineno)
    return found


def test_game_files_are_written_by_the_one_writer():
    for path in _test_modules():
        assert game_file_writes(path.read_text(encoding="utf-8")) == [], \
            f"{path.name}: write game files with support.write_game(folder, {{name: content}})"


def test_the_check_finds_a_game_file_written_by_hand():
    source = ('def t(folder, slug):\n'
              '    f = folder / "secrets.yml"\n'
              '    f.write_text("x")\n'
              '    (folder / "1901-fall-retreats.yml").write_bytes(b"")\n'
              '    (folder / f"{slug}.yml").write_text("")\n'
              '    with (folder / "game.yml").open("a") as g:\n'
              '        g.write("x")\n'
              '    (folder / "notes.md").write_text("not a game file")\n')
    assert game_file_writes(source) == [3, 4, 5, 6]


def test_browser_tests_are_marked_browser_and_slow():
    """A module that takes the `browser` fixture or imports support.browser sets
    ``pytestmark = BROWSER`` (`browser` and `slow`, so that ``pytest -m "not slow"`` leaves it out),
    or, where only some of its tests drive the browser, marks each of those ``@browser_test``."""
    from support.browser import BROWSER

    assert {m.name for m in BROWSER} >= {"browser", "slow"}
    for path in _test_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tests = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test")]
        driving = [t for t in tests if any(a.arg == "browser" for a in t.args.args)]
        imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        uses = "support.browser" in imported(ast.Module(imports, [])) or driving
        marked = any(isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets)
                     and "BROWSER" in ast.unparse(node.value) for node in tree.body)
        decorated = [t for t in tests if "browser_test" in map(ast.unparse, t.decorator_list)]
        each = bool(decorated) and all(t in decorated for t in driving)
        assert (marked or each) == bool(uses), f"{path.name}: {'set' if uses else 'no need for'} pytestmark = BROWSER"
