"""Every error a GM can be shown has a code (`dipgen.core.errors.ERROR_CODES`): printed after it,
so that she can search for it, and read by the tests, which then say what went wrong without
quoting the words (the words can improve without breaking a test). The game files' errors are
`Problem`s; a command's own errors (an option, a folder, the mail server) are `CommandError`s, or a
kind of it a use case raises, and what a command prints with `dipgen.cli.say.fail`."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from dipgen.core.errors import ERROR_CODES, GameError, Problem
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay

PACKAGE = Path(__file__).resolve().parent.parent / "dipgen"
#: every module that makes a Problem
CODED = sorted(PACKAGE.rglob("*.py"))


@functools.cache
def command_errors() -> dict[str, str | None]:
    """CommandError and its kinds, each with the code its class fixes (``CODE``), if it does (read
    from every module's source: once, by the first test that asks, not by every worker's collection)."""
    classes: dict[str, tuple[list[str], str | None]] = {}
    for path in CODED:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                fixed = next((s.value.value for s in node.body if isinstance(s, ast.Assign)
                              and [getattr(t, "id", "") for t in s.targets] == ["CODE"]
                              and isinstance(s.value, ast.Constant)), None)
                classes[node.name] = ([getattr(b, "id", "") for b in node.bases], fixed)
    found = {"CommandError": None}
    while more := {n: fixed for n, (bases, fixed) in classes.items() if n not in found and set(bases) & set(found)}:
        found.update(more)
    return found



def _code_argument(node: ast.Call) -> ast.expr | None:
    """The code a CommandError (or `fail`) is made with: ``code=`` or its second argument."""
    keywords = {k.arg: k.value for k in node.keywords}
    return keywords.get("code", node.args[1] if len(node.args) > 1 else None)


def _codes_given(path: Path) -> list[tuple[int, str | None]]:
    """(line, code) of each Problem and CommandError made, each error the replay reports (`err`),
    each a command prints (`fail`) and each line of a mail `dipgen orders` could not read (`Unread`)
    in `path`."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = (node.func.id if isinstance(node.func, ast.Name)
                else node.func.attr if isinstance(node.func, ast.Attribute) else "")
        if name in command_errors() or name == "fail" and "cli" in path.parts or name == "Unread":
            fixed = command_errors().get(name)
            code = ast.Constant(fixed) if fixed else _code_argument(node)
            if isinstance(code, (ast.Name, ast.Attribute)):
                continue  # passed on (e.code): where it was made is checked
        elif name == "Problem":
            keywords = {k.arg: k.value for k in node.keywords}
            severity = keywords.get("severity")
            if isinstance(severity, ast.Constant) and severity.value == "warning":
                continue  # a warning's code is a warning code (dipgen.io.acknowledge)
            code = keywords.get("code")
            if isinstance(code, ast.Name):
                continue  # passed on, as `err` does: its callers are checked
        elif name == "err":
            code = node.args[4] if len(node.args) > 4 else None
        else:
            continue
        out.append((node.lineno, code.value if isinstance(code, ast.Constant) else None))
    return out


@pytest.mark.parametrize("path", CODED, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_error_dipgen_makes_has_a_known_code(path):
    missing = [(line, code) for line, code in _codes_given(path) if code not in ERROR_CODES]
    assert not missing, f"{path.name}: Problems without a code of ERROR_CODES at {missing}"


def test_every_code_is_given_somewhere():
    given = {code for path in CODED for _, code in _codes_given(path)}
    assert set(ERROR_CODES) <= given, sorted(set(ERROR_CODES) - given)


def test_the_command_errors_are_found():
    assert set(command_errors()) >= {"CommandError", "PublishError", "MailError", "ExportError", "DatcFormatError"}
    given = {code for path in CODED if "cli" in path.parts for _, code in _codes_given(path)}
    assert {"bad-option", "unknown-phase", "write-failed"} <= given


def test_a_command_error_is_printed_with_its_code(capsys):
    from dipgen.cli.say import fail

    assert fail("--width is a PNG picture's width", code="bad-option") == 1
    assert capsys.readouterr().err == "error: --width is a PNG picture's width [bad-option]\n"


def test_a_code_is_printed_after_the_error():
    assert str(Problem("g/1901-spring.yml", 4, "a second order for A Par", "keep one", code="second-order")) == \
        "g/1901-spring.yml:4: error: a second order for A Par [second-order]\n    hint: keep one"


def _codes(make_game, files: dict[str, str]) -> list[tuple[int | None, str]]:
    with pytest.raises(GameError) as e:
        replay(load_game(make_game(files)))
    return [(p.line, p.code) for p in e.value.problems if p.severity == "error"]


@pytest.mark.parametrize("files, expected", [
    ({"1901-spring.yml": "orders:\n  France: [A Par - Bur\n"}, [(3, "broken-yaml")]),
    ({"1901-spring.yml": "order:\n  France: [A Par - Bur]\n"}, [(1, "unknown-key")]),
    ({"1901-spring.yml": "orders:\n  Frnace: [A Par - Bur]\n"}, [(2, "unknown-power")]),
    ({"1901-spring.yml": "orders:\n  France: [A Par - Gascny]\n"}, [(2, "bad-order")]),
    ({"1901-spring.yml": "orders:\n  France:\n    - A Par - Bur\n    - A Par - Pic\n"}, [(4, "second-order")]),
    ({"1901-spring.yml": "orders:\n  France: [A Par R Bur]\n"}, [(2, "not-this-phase")]),
    ({"1901-spring.yml": "orders:\n  France: []\n", "1901-spring-retreats.yml": "orders:\n  France: []\n"},
     [(None, "skipped-phase")]),
    ({"1901-spring.yml": "orders:\n  France: []\n", "1902-spring.yml": "orders:\n  France: []\n"}, [(None, "not-yet")]),
    ({"1901-sprung.yml": "orders:\n  France: []\n"}, [(None, "bad-phase-name")]),
    ({"1901-spring.yml": ""}, [(None, "empty-file")]),
])
def test_bad_inputs_give_their_codes(make_game, files, expected):
    assert _codes(make_game, files) == expected
