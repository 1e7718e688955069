"""The search index downloaded when a reader searches, not on every page she opens.

Material's search plugin writes one index of every page (``search/search_index.json``), and
Material's script fetches it on every first visit to any page: at 40 games nine tenths of what a
season page costs to download, and it grows with every game. `split_index` moves the index's
documents to ``search/search_docs.json`` (the file Material wrote, as it wrote it) and leaves in
``search_index.json`` its configuration only, with the name of that file. The page's search
worker is dipgen's (``assets/javascripts/workers/dipgen-search.js``, put in Material's place by
``assets/dipgen/search.js``): it answers at once that search is ready, and on the reader's first
search fetches the documents and Material's own worker, hands both over and leaves everything
after to Material. What is searchable, and how results rank, is unchanged.

A site whose ``search_index.json`` still holds its documents (built without dipgen, as an export
is) is searched as Material searches it: the worker hands over at once.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

INDEX = Path("search") / "search_index.json"
#: the documents of the index, fetched on the first search (the configuration's ``dipgen_docs``)
DOCS = INDEX.with_name("search_docs.json")


def split_index(site: Path) -> bool:
    """Move the documents of `site`'s search index to `DOCS` (see the module); False where the site
    has no index of Material's (another search plugin, or none), it is split already, or its
    documents are Pagefind's index."""
    index = site / INDEX
    try:
        raw = index.read_bytes()
    except FileNotFoundError:
        return False
    data = json.loads(raw)
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict) or "docs" not in data:
        return False
    if "dipgen_docs" in data["config"] or "dipgen_pagefind" in data["config"]:  # (dipgen.mkdocs.pagefind)
        return False
    os.replace(index, site / DOCS)
    index.write_text(split_of(data["config"]), encoding="utf-8")
    return True


def split_of(config: dict) -> str:
    """``search_index.json`` once its documents are in `DOCS`: Material's `config` and the name of that file.
    (`dipgen.mkdocs.speed.docsfile` writes both files at once under serve.)"""
    return json.dumps({"config": dict(config, dipgen_docs=DOCS.name), "docs": []}, sort_keys=True,
                      separators=(",", ":"))
