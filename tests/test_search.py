"""The search index split (dipgen.mkdocs.search): the documents in a file of their own, fetched
on a first search; the configuration alone where Material's script fetches it on every page."""

from __future__ import annotations

import json
from pathlib import Path

from dipgen.mkdocs.search import DOCS, INDEX, split_index

MATERIAL = {"config": {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"]},
            "docs": [{"location": "games/a/", "title": "A game", "text": "Jane Doe plays France"}]}


def _site(tmp_path: Path, index: dict | None = MATERIAL) -> Path:
    site = tmp_path / "site"
    (site / "search").mkdir(parents=True)
    if index is not None:
        (site / INDEX).write_text(json.dumps(index), encoding="utf-8")
    return site


def test_the_documents_move_as_material_wrote_them(tmp_path):
    site = _site(tmp_path)
    written = (site / INDEX).read_bytes()
    assert split_index(site)
    assert (site / DOCS).read_bytes() == written
    left = json.loads((site / INDEX).read_text(encoding="utf-8"))
    assert left == {"config": dict(MATERIAL["config"], dipgen_docs="search_docs.json"), "docs": []}


def test_split_once_and_twice_alike(tmp_path):
    a, b = _site(tmp_path / "a"), _site(tmp_path / "b")
    assert split_index(a)
    assert split_index(b)
    assert not split_index(a)  # split already: left as it is
    assert [(a / f).read_bytes() for f in (INDEX, DOCS)] == [(b / f).read_bytes() for f in (INDEX, DOCS)]


def test_a_site_without_materials_index_is_left_alone(tmp_path):
    assert not split_index(_site(tmp_path / "none", None))
    other = _site(tmp_path / "other", {"pages": []})  # another search plugin's file of that name
    assert not split_index(other)
    assert json.loads((other / INDEX).read_text(encoding="utf-8")) == {"pages": []}
    assert not (other / DOCS).exists()
