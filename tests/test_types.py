"""The typing gate: the README's test command (which CI runs) runs `mypy` with the project's
configuration (pyproject.toml's [tool.mypy]) before pytest, and that configuration holds the core
and the engine to what ``--strict`` asks and excuses no module. mypy itself is the command's
gate, run once, not run again by a test."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def mypy_config() -> dict:
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11's TOML reader")
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def test_the_core_and_the_engine_are_held_to_every_strict_flag():
    strict = next(o for o in mypy_config()["overrides"] if "dipgen.core.*" in o["module"])
    assert set(strict["module"]) == {"dipgen.core.*", "dipgen.resources.*", "dipgen.engine.*"}
    flags = {"disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
             "disallow_incomplete_defs", "check_untyped_defs", "disallow_untyped_decorators", "warn_return_any",
             "strict_equality", "extra_checks"}
    assert {f for f in flags if strict.get(f) is True} == flags
    assert strict["implicit_reexport"] is False


def test_no_module_is_excused():
    assert not [o["module"] for o in mypy_config()["overrides"] if o.get("ignore_errors")]


def test_ci_runs_the_readmes_test_command_with_its_gates_first():
    """.ci/run ends with the README's test command, exactly, and that command runs ruff and mypy
    before pytest, so that a change that breaks a gate fails CI."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("**Set up and run the tests**", 1)[1].split("```sh\n", 1)[1].split("\n", 1)[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()[-1]
    assert ci == command
    assert command.index("ruff check .") < command.index("mypy") < command.index("pytest")
