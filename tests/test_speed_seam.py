"""The speed layers behind the plugin's one seam (dipgen/mkdocs/seam.py, dipgen/mkdocs/speed/):
with every layer off (``speed: false``) the site is the same, byte for byte, file for file, but for
one known difference of white space in the search index: the layers give Material's search the
entries of a generated page from dipgen's own markup, with a space where a tag parts words (table
cells), where Material's parser, which indexes every page with the layers off, runs them together
("Power0102"); the words and tags are the same (tests/test_mkdocs_pages.py holds that too).

Both sites are built with ``search: material``, so that Material's index keeps its entries to
compare (they are the search under serve). Pagefind's index, the default's, is made from what is
compared here, the built pages and the pages Material's index lists, and the same of those gives
the same bytes (tests/test_pagefind.py)."""

from __future__ import annotations

from pathlib import Path

import json
import re

import pytest

from dipgen.mkdocs.seam import Seam
from dipgen.mkdocs.speed import Layers
from support import build, make_project, set_plugin_options, site_config

#: a game of each kind of output: a running hidden game (private pages), a finished one, a standard one
EXAMPLES = ("austrian-question", "night-flights", "quiet-frontier", "lamps-out")



def _files(site: Path) -> dict[str, bytes]:
    """Every file of a site; the players' private pages by name only (each build encrypts them
    afresh, with new nonces: two builds of the same code differ there too)."""
    return {p.relative_to(site).as_posix(): b"" if p.relative_to(site).parts[0] == "private" else p.read_bytes()
            for p in site.rglob("*") if p.is_file()}



@pytest.fixture(scope="module")
def both(tmp_path_factory):
    root = tmp_path_factory.mktemp("seam")
    fast = build(make_project(root / "fast", EXAMPLES, plugin={"search": "material"}))
    plain = build(make_project(root / "plain", EXAMPLES, plugin={"search": "material", "speed": False}))
    return fast, plain


INDEX = "search/search_index.json"
DOCS = "search/search_docs.json"


def _index(data: bytes) -> list[dict]:
    """The search index's entries, each text without its white space (see the module)."""
    docs = json.loads(data)["docs"]
    return [dict(d, text=re.sub(r"\s", "", d["text"])) for d in docs]


@pytest.mark.slow  # two site builds
def test_the_site_is_the_same_with_every_speed_layer_off(both):
    fast, plain = _files(both[0]), _files(both[1])
    assert sorted(fast) == sorted(plain)
    assert [uri for uri in fast if fast[uri] != plain[uri] and uri != DOCS] == []
    assert any(uri.startswith("private/") for uri in fast)  # the comparison covers a hidden game's pages
    assert any(uri.startswith("games/") and uri.endswith(".svg") for uri in fast)


@pytest.mark.slow  # two site builds
def test_the_search_index_differs_only_in_white_space(both):
    fast, plain = _index((both[0] / DOCS).read_bytes()), _index((both[1] / DOCS).read_bytes())
    assert len(fast) > 50
    assert [d["location"] for d in fast] == [d["location"] for d in plain]
    assert [d for d, e in zip(fast, plain, strict=True) if d != e] == []


def test_the_setting_picks_the_seam(tmp_path):
    """``speed: false`` puts the plain seam behind the plugin, and true (the default) the layers;
    a GM who changes it under `mkdocs serve` gets the other at the next rebuild."""
    project = make_project(tmp_path / "p")
    plugin = site_config(project).plugins["dipgen"]
    plugin.on_config(site_config(project))
    assert type(plugin.seam) is Layers
    plugin = site_config(set_plugin_options(project, speed=False)).plugins["dipgen"]
    plugin.on_config(site_config(project))
    assert type(plugin.seam) is Seam
