"""The census of the suite as specifications (tests/support/census.py) counts what it says it
counts: an assert on a message's words, an assert chaining facts with ``and``, a docstring naming a
file or a piece of code that is not there; and leaves alone an assert on a code, or on where a
message is (its file, line and severity)."""

from __future__ import annotations

from tests.support.census import _codes, count

SAMPLE = '''"""Made by tools/nowhere_example.py; see `dipgen.core.errors.ERROR_CODES` and `Rules.nowhere`."""
import pytest
from dipgen.rules.variant import Rules


def test_words(p, capsys, e):
    assert p.code == "second-order"
    assert "a second order" in p.message
    assert "Traceback" not in capsys.readouterr().err
    assert "[second-order]" in capsys.readouterr().err
    assert str(e.value).startswith("no such game")
    with pytest.raises(ValueError, match="not a phase"):
        pass


def test_chain(p):
    assert p.line == 4 and p.code == "bad-order"
    assert p.code in ("bad-order", "second-order")


def test_only_words(w):
    assert "cannot be carried out" in w.message


def test_where(err):
    assert "1901-spring.yml:4: error: " in err
'''


def test_the_census_counts_words_chains_and_stale_names(tmp_path):
    path = tmp_path / "test_sample.py"
    path.write_text(SAMPLE, encoding="utf-8")
    c = count([path], _codes())
    assert c.asserts == 9
    assert c.chained == ["test_sample.py:17"]
    assert set(c.worded) == {"test_sample.py:8", "test_sample.py:11", "test_sample.py:12", "test_sample.py:22"}
    assert c.worded_tests == {"test_sample.py::test_words", "test_sample.py::test_only_words"}
    assert c.uncoded_tests == {"test_sample.py::test_only_words"}
    assert c.stale == ["test_sample.py: Rules.nowhere", "test_sample.py: tools/nowhere_example.py"]


def test_the_suite_chains_no_fact_to_another_and_names_nothing_that_is_gone():
    """What the census counts that the suite keeps at none: an assert chaining facts with ``and`` (its
    failure does not say which), a docstring naming a file or code that is not there."""
    from tests.support.census import ROOT

    c = count(sorted((ROOT / "tests").glob("test_*.py")), _codes())
    assert c.chained == []
    assert c.stale == []
