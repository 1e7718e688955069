"""The typing gate: `mypy` with the project's configuration (pyproject.toml's [tool.mypy]) finds
nothing, and that configuration holds the core and the engine to what ``--strict`` asks."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def mypy_config() -> dict:
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11's TOML reader")
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def test_the_core_and_the_engine_are_held_to_every_strict_flag():
    strict = next(o for o in mypy_config()["overrides"] if "dipgen.core.*" in o["module"])
    assert set(strict["module"]) == {"dipgen.core.*", "dipgen.engine.*"}
    flags = {"disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
             "disallow_incomplete_defs", "check_untyped_defs", "disallow_untyped_decorators", "warn_return_any",
             "strict_equality", "extra_checks"}
    assert {f for f in flags if strict.get(f) is True} == flags and strict["implicit_reexport"] is False


def test_no_strict_module_is_excused():
    for override in mypy_config()["overrides"]:
        if override.get("ignore_errors"):
            assert not any(m.startswith(("dipgen.core", "dipgen.engine")) for m in override["module"])


@pytest.mark.slow
def test_mypy_finds_nothing(monkeypatch):
    api = pytest.importorskip("mypy.api", reason="mypy is in requirements-dev.txt")
    monkeypatch.chdir(ROOT)
    out, err, status = api.run([])  # the files and flags are the configuration's
    assert status == 0, out + err
