"""Golden files (support/golden.py): for every variant, a season page and a report of a chosen
phase of its example game are what tests/golden/ holds, byte for byte. A change to what a GM or a
player reads shows up as a diff of those files: when it is meant, rewrite them with
`python -m tests.support.golden --update` and review the diff with the change."""

from __future__ import annotations

import pytest

from dipgen.variants import variant_names
from support.golden import CASES, GOLDEN, UPDATE, files, names


def test_every_variant_has_its_golden_files():
    assert sorted(CASES) == variant_names()
    made = {name for variant in CASES for name in names(variant)}
    assert made == {p.name for p in GOLDEN.iterdir()}, f"golden files missing or left over: {UPDATE}"


@pytest.mark.parametrize("variant", sorted(CASES))
def test_season_page_and_report_are_the_golden_ones(variant):
    for name, text in files(variant).items():
        golden = (GOLDEN / name).read_text(encoding="utf-8") if (GOLDEN / name).is_file() else None
        assert text == golden, (f"tests/golden/{name} is not what the code makes now: if the change is meant, "
                                f"run `{UPDATE}` and review the diff (git diff tests/golden)")
