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


def _entries(n: int, word: str) -> list[dict]:
    return [{"location": f"games/g{i}/", "title": f"Game {i} é", "text": f"{word} {i}"} for i in range(n)]


def test_the_documents_written_under_serve_are_materials_whether_copied_or_serialized(tmp_path):
    """`docsfile.write` (under plain serve): Material's JSON byte for byte, a withheld page's entries
    copied from the last file by the range recorded of them (not serialized: what the build holds of
    them is not read), or serialized where that file is no longer the one written."""
    from dipgen.mkdocs.speed import docsfile

    head = '{"config":{"lang":["en"]},"docs":['
    material = lambda entries: head + ",".join(json.dumps(e, separators=(",", ":")) for e in entries) + "]}"  # noqa: E731
    entries = _entries(6, "first")
    pieces = [(1, 3, None), (3, 3, None), (3, 4, None), (5, 6, None)]  # pages: two entries, none, one, one
    placed, first = docsfile.write(tmp_path / "a.json", head, entries, pieces, None)
    assert (tmp_path / "a.json").read_text(encoding="utf-8") == material(entries)
    # the next build: the pages of entries 1-3 and 5 withheld (copied), entry 4 and the others made again
    again = _entries(6, "again")
    for i in (1, 2, 3, 5):
        again[i] = {"location": "x/", "title": "not serialized", "text": ""}
    withheld = [(start, end, where) for (start, end, _), where in zip(pieces, placed, strict=True)]
    placed2, second = docsfile.write(tmp_path / "b.json", head, again, withheld, first)
    expected = again[:1] + entries[1:4] + again[4:5] + entries[5:]
    assert (tmp_path / "b.json").read_text(encoding="utf-8") == material(expected)
    assert placed2 == placed  # the same lengths before each page (a word as long): the same places
    assert first.same()
    assert second.same()
    # the last file changed behind the layer's back: its ranges are not trusted, every entry is serialized
    (tmp_path / "a.json").write_text(material(_entries(6, "other")), encoding="utf-8")
    assert not first.same()
    docsfile.write(tmp_path / "c.json", head, again, withheld, first)
    assert (tmp_path / "c.json").read_text(encoding="utf-8") == material(again)
